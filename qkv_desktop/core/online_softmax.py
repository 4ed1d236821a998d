"""Softmax in one pass over blocks of scores, the trick that makes FlashAttention possible.

The stable softmax needs the row maximum before it can exponentiate anything, so it
reads the scores twice. The online softmax reads them once, block by block, keeping
a running maximum m and a running sum l of exp(s − m): when a block raises the
maximum from m_old to m_new, the sum so far is multiplied by exp(m_old − m_new) (the
rescale factor) and the block's own exp(s − m_new) are added. At the end
weights = exp(s − m) / l, the stable softmax, and no exp ever saw a positive argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

__all__ = ["SoftmaxBlock", "OnlineSoftmaxResult", "online_softmax", "block_bounds",
           "online_update"]


@dataclass(frozen=True, eq=False)
class SoftmaxBlock:
    """One block of the online softmax: columns ``start:stop`` and the state after it.

    ``block_max`` is the block's own maximum, ``m_old``/``m_new`` the running maximum
    before and after it, ``rescale`` = exp(m_old − m_new) (what the old sum was
    multiplied by) and ``l`` the running sum after the block. Scalars for a 1-D row,
    arrays of one value per row otherwise.
    """

    start: int
    stop: int
    block_max: np.ndarray
    m_old: np.ndarray
    m_new: np.ndarray
    rescale: np.ndarray
    l: np.ndarray  # noqa: E741  (the name the FlashAttention paper uses)


class OnlineSoftmaxResult(NamedTuple):
    """``(weights, trace)``: unpacks as a pair, or read ``.weights`` and ``.trace``."""

    weights: np.ndarray
    trace: tuple[SoftmaxBlock, ...]


def block_bounds(n: int, block_size: int) -> list[tuple[int, int]]:
    """``[(0, b), (b, 2b), …]`` covering 0…n; the last block is shorter if b ∤ n."""
    if isinstance(block_size, bool) or int(block_size) != block_size or block_size < 1:
        raise ValueError(f"block size must be a positive integer, got {block_size!r}")
    b = int(block_size)
    return [(a, min(n, a + b)) for a in range(0, n, b)]


def online_update(m_old: np.ndarray, l_old: np.ndarray, block: np.ndarray):
    """One step of the recurrence on a block (last axis): (block max, m_new, rescale, l_new, p).

    ``p`` = exp(block − m_new), the block's unnormalised weights. A block that is all
    −inf (masked) leaves the state unchanged; so does a row whose maximum is still −inf
    (rescale 1, l 0), instead of the nan of exp(−inf − (−inf)).
    """
    block_max = block.max(axis=-1) if block.shape[-1] else np.full(block.shape[:-1], -np.inf)
    m_new = np.maximum(m_old, block_max)
    seen = np.isfinite(m_new)
    safe = np.where(seen, m_new, 0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        rescale = np.where(seen, np.exp(m_old - safe), 1.0)
        p = np.exp(block - safe[..., None])
    l_new = l_old * rescale + p.sum(axis=-1)
    return block_max, m_new, rescale, l_new, p


def online_softmax(scores, block_size: int) -> OnlineSoftmaxResult:
    """Softmax along the last axis of ``scores``, one block of ``block_size`` columns at a time.

    Equals ``softmax(scores)`` (the stable one) to rounding for any block size, including
    scores of ±1e4 whose naive exp overflows. Returns ``(weights, trace)`` with one
    ``SoftmaxBlock`` per block; −inf scores (masked) get weight 0.
    """
    s = np.asarray(scores)
    if s.dtype.kind not in "fiu" or s.ndim < 1:
        raise ValueError(f"scores must be a numeric vector or matrix, got shape {s.shape}")
    s = s.astype(np.float64 if s.dtype != np.float32 else np.float32, copy=False)
    if np.isnan(s).any() or np.isposinf(s).any():
        raise ValueError("scores must not contain nan or +inf")
    lead = s.shape[:-1]
    m = np.full(lead, -np.inf, s.dtype)
    l = np.zeros(lead, s.dtype)  # noqa: E741
    trace = []
    for a, b in block_bounds(s.shape[-1], block_size):
        block_max, m_new, rescale, l_new, _p = online_update(m, l, s[..., a:b])
        trace.append(SoftmaxBlock(a, b, block_max, m, m_new, rescale, l_new))
        m, l = m_new, l_new  # noqa: E741
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        weights = np.exp(s - safe[..., None]) / l[..., None]
    return OnlineSoftmaxResult(weights, tuple(trace))
