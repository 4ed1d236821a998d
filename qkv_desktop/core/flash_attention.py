"""FlashAttention's tiling in NumPy: attention without ever holding the n × n matrix.

The scores are cut into query-block × key-block tiles. For each block of queries
(FlashAttention-2's outer loop) the key/value blocks are visited in order; each tile's
scores update that query block's running maximum m, running sum l (the online
softmax, ``core.online_softmax``) and an unnormalised output accumulator, rescaled by
exp(m_old − m_new) whenever the maximum grows. After the last key block the
accumulator divided by l is the attention output. At any time only one tile of
scores exists, so the memory is O(n·d) instead of O(n²). With a causal mask, tiles
wholly above the diagonal are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from qkv_desktop.core.online_softmax import block_bounds, online_update

__all__ = ["TileVisit", "FlashResult", "flash_attention", "AttentionMemory",
           "attention_memory"]


@dataclass(frozen=True, eq=False)
class TileVisit:
    """One tile in visit order: query rows ``rows``, key columns ``cols``.

    ``skipped`` is True for a tile with no visible key (causal: wholly in the future, or
    all −inf in the bias): nothing is computed and the state below is the query block's
    unchanged state. ``m``, ``l`` (one per query row)
    and ``partial`` (the accumulator / l: the output as if these were all the keys)
    are the query block's state after the tile; ``rescale`` = exp(m_old − m_new).
    """

    q_block: int
    k_block: int
    rows: tuple[int, int]
    cols: tuple[int, int]
    skipped: bool
    m: np.ndarray
    l: np.ndarray  # noqa: E741  (the paper's name)
    rescale: np.ndarray
    partial: np.ndarray


class FlashResult(NamedTuple):
    """``(output, trace)``: unpacks as a pair, or read ``.output`` and ``.trace``."""

    output: np.ndarray
    trace: tuple[TileVisit, ...]


def _matrix(a, name: str) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim != 2 or a.dtype.kind not in "fiu":
        raise ValueError(f"{name} must be a numeric matrix, got shape {a.shape}")
    a = a.astype(np.float64, copy=False)
    if a.size and not np.isfinite(a).all():
        raise ValueError(f"{name} must be finite")
    return a


def flash_attention(Q, K, V, *, block_q: int, block_k: int, scale: float | None = None,
                    causal: bool = False, bias=None) -> FlashResult:
    """softmax(Q Kᵀ · scale + bias) V computed tile by tile; ``scale`` None is 1/√d_k.

    Q is n × d_k, K is m × d_k, V is m × d_v. ``causal`` masks key j > query i (and
    needs n = m). ``bias`` (n × m, optional) is added to the scaled scores: ALiBi, and
    −inf for any other mask (sliding window, custom); a tile whose bias is all −inf is
    skipped like a causal tile in the future. Returns ``(output, trace)``: the n × d_v
    output and one ``TileVisit`` per tile in the order visited. Equals
    ``softmax(Q Kᵀ · scale + bias) V`` to rounding for any block sizes, including scores
    far beyond exp's range.
    """
    Q, K, V = _matrix(Q, "Q"), _matrix(K, "K"), _matrix(V, "V")
    n, d_k = Q.shape
    m = K.shape[0]
    if K.shape[1] != d_k:
        raise ValueError(f"K has {K.shape[1]} columns but Q has {d_k}")
    if V.shape[0] != m:
        raise ValueError(f"V has {V.shape[0]} rows but K has {m}")
    if causal and n != m:
        raise ValueError("a causal mask needs as many queries as keys")
    if scale is None:
        scale = 1.0 / np.sqrt(d_k)
    if not np.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale}")
    if bias is not None:
        bias = np.asarray(bias, dtype=np.float64)
        if bias.shape != (n, m):
            raise ValueError(f"bias must be {n} × {m}, got {bias.shape}")
        if np.isnan(bias).any() or np.isposinf(bias).any():
            raise ValueError("bias must not contain nan or +inf")
    out = np.empty((n, V.shape[1]))
    trace = []
    k_bounds = block_bounds(m, block_k)
    for i, (r0, r1) in enumerate(block_bounds(n, block_q)):
        m_run = np.full(r1 - r0, -np.inf)
        l_run = np.zeros(r1 - r0)
        acc = np.zeros((r1 - r0, V.shape[1]))
        for j, (c0, c1) in enumerate(k_bounds):
            hidden = bias is not None and np.isneginf(bias[r0:r1, c0:c1]).all()
            if hidden or (causal and c0 > r1 - 1):  # no key of the tile is visible
                trace.append(TileVisit(i, j, (r0, r1), (c0, c1), True, m_run, l_run,
                                       np.ones(r1 - r0), _partial(acc, l_run)))
                continue
            s = (Q[r0:r1] @ K[c0:c1].T) * scale
            if bias is not None:
                s += bias[r0:r1, c0:c1]
            if causal:
                s[np.arange(c0, c1)[None, :] > np.arange(r0, r1)[:, None]] = -np.inf
            _bmax, m_new, rescale, l_new, p = online_update(m_run, l_run, s)
            acc = acc * rescale[:, None] + p @ V[c0:c1]
            m_run, l_run = m_new, l_new
            trace.append(TileVisit(i, j, (r0, r1), (c0, c1), False, m_run, l_run, rescale,
                                   _partial(acc, l_run)))
        out[r0:r1] = _partial(acc, l_run)
    return FlashResult(out, tuple(trace))


def _partial(acc: np.ndarray, l: np.ndarray) -> np.ndarray:  # noqa: E741
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(l[:, None] > 0, acc / np.where(l > 0, l, 1)[:, None], 0.0)


@dataclass(frozen=True)
class AttentionMemory:
    """Bytes each way of computing attention holds at its peak, for one head.

    ``standard`` keeps Q, K, V, the output and the n × n scores and weights;
    ``flash`` keeps Q, K, V, the output, m and l per query, and one tile of scores.
    ``score_matrix`` is the n × n matrix alone.
    """

    n: int
    d: int
    score_matrix: int
    standard: int
    flash: int


def attention_memory(n: int, d: int, block_q: int, block_k: int,
                     bytes_per_value: int = 4) -> AttentionMemory:
    """``AttentionMemory`` for n tokens and head dimension d: O(n²) against O(n·d)."""
    for name, v in (("n", n), ("d", d), ("block_q", block_q), ("block_k", block_k),
                    ("bytes_per_value", bytes_per_value)):
        if isinstance(v, bool) or int(v) != v or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    b = int(bytes_per_value)
    vectors = 4 * n * d * b
    square = n * n * b
    tile = min(block_q, n) * min(block_k, n) * b
    return AttentionMemory(n, d, square, vectors + 2 * square, vectors + 2 * n * b + tile)
