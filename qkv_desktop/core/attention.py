"""Scaled dot-product attention with everything a learner wants to look at."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.rows import for_row_chunks
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import Weights

__all__ = ["AttentionResult", "attention", "divisor_for"]

Scale = str | float


@dataclass(frozen=True, eq=False)
class AttentionResult:
    """Every intermediate of one attention forward, plus per-query diagnostics.

    ``scores`` is QKᵀ; ``scaled`` is the scores after the divisor, the temperature and
    the causal mask (``-inf`` where masked); ``weights`` is its row-wise softmax and
    ``output`` is ``weights · V``. ``entropy`` (nats), ``max_weight`` and
    ``mean_gradient`` (the mean of p(1−p), the tutorial's 平均梯度) have one value per
    query row.
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    entropy: np.ndarray
    max_weight: np.ndarray
    mean_gradient: np.ndarray
    divisor: float = 1.0

    @property
    def n_queries(self) -> int:
        return self.Q.shape[0]

    @property
    def n_keys(self) -> int:
        return self.K.shape[0]

    def matrices(self) -> dict[str, np.ndarray]:
        """The named matrices, in the order the panes show them."""
        return {name: getattr(self, name) for name in
                ("Q", "K", "V", "scores", "scaled", "weights", "output")}


def divisor_for(scale: Scale, d_k: int) -> float:
    """The number the scores are divided by for a ``scale`` option (before temperature)."""
    if isinstance(scale, str):
        if scale == "sqrt_dk":
            return float(np.sqrt(d_k))
        if scale == "none":
            return 1.0
        raise ValueError(f"scale must be 'sqrt_dk', 'none' or a positive number, got {scale!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.number)):
        raise ValueError(f"scale must be 'sqrt_dk', 'none' or a positive number, got {scale!r}")
    if not (np.isfinite(scale) and scale > 0):
        raise ValueError(f"a custom scale divisor must be a positive finite number, got {scale}")
    return float(scale)


def attention(X, weights: Weights, *, scale: Scale = "sqrt_dk", temperature: float = 1.0,
              causal: bool = False, X_kv=None, stable: bool = True) -> AttentionResult:
    """Scaled dot-product attention ``softmax(QKᵀ / (divisor·T)) · V``.

    Parameters
    ----------
    X : array (n, d_model)
        The query-side token vectors (and the key/value side for self-attention).
    weights : Weights
        The head's projections.
    scale : {"sqrt_dk", "none"} or float
        Divide the scores by √d_k, by 1, or by this positive number.
    temperature : float
        T > 0, a further divisor: larger is flatter.
    causal : bool
        Mask every key after the query (j > i): ``-inf`` in ``scaled``, exactly 0 in
        ``weights``. Not defined for cross-attention.
    X_kv : array (m, d_model), optional
        Cross-attention: K and V come from this sequence instead of ``X``.
    stable : bool
        Subtract the row maximum before ``exp``. ``False`` is the naive formula of the
        overflow lesson; it may give inf/nan but never raises.

    float32 input stays float32 throughout; anything else is computed in float64.
    """
    X = as_matrix(X, "X")
    dtype = X.dtype
    if X_kv is not None:
        X_kv = as_matrix(X_kv, "X_kv", dtype)
        if causal:
            raise ValueError("causal masking is not defined for cross-attention")
    src = X if X_kv is None else X_kv
    w = weights.astype(dtype)
    for name, M in (("X", X), ("X_kv", src)):
        if M.shape[1] != w.d_model:
            raise ValueError(f"{name} has {M.shape[1]} columns but the weights expect "
                             f"d_model = {w.d_model}")
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature}")
    divisor = divisor_for(scale, w.d_k)

    Q = _project(X, w.W_Q, w.b_Q)
    K = _project(src, w.W_K, w.b_K)
    V = _project(src, w.W_V, w.b_V)
    scores = Q @ K.T
    # Divide (as the tutorial does, bit for bit) by a scalar of the array's own dtype,
    # so float32 stays float32.
    div = dtype.type(divisor * temperature)
    if stable:
        scaled, weights_, entropy, max_w, mean_grad = _scaled_softmax(scores, div, causal)
    else:
        scaled = np.divide(scores, div)
        if causal:
            np.copyto(scaled, -np.inf, where=_future(0, scaled.shape[0], scaled.shape[1]))
        weights_, entropy, max_w, mean_grad = _naive_softmax_with_stats(scaled)
    output = weights_ @ V
    return AttentionResult(Q, K, V, scores, scaled, weights_, output,
                           entropy, max_w, mean_grad, divisor)


def _project(X: np.ndarray, W: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    out = X @ W
    if b is not None:
        out += b
    return out


def _future(r0: int, r1: int, m: int) -> np.ndarray:
    """The causal mask of rows r0…r1−1: True where the key comes after the query."""
    return np.arange(m)[None, :] > np.arange(r0, r1)[:, None]


_BLOCK_BYTES = 1 << 18
"""Rows per block are chosen so that a block of one n×m array stays in the L2 cache."""


def _scaled_softmax(scores: np.ndarray, div, masked: bool):
    """``scaled = scores / div`` (causal-masked), its row softmax and per-row statistics.

    One pass over the rows in cache-sized blocks: each block is divided, masked,
    exponentiated, normalised and summarised while it is still in cache, with one
    small scratch buffer per thread, so the only n×m allocations are ``scaled`` and
    the weights. Row ranges run in parallel (``for_row_chunks``). The statistics come
    from row reductions: H = log Z − Σ p·(s − max), max p = 1/Z, Σ p(1−p) = 1 − Σ p².
    """
    n, m = scores.shape
    dtype = scores.dtype
    scaled = np.empty_like(scores)
    p = np.empty_like(scores)
    total = np.empty(n, dtype)
    entropy = np.empty(n, dtype)
    sum_sq = np.empty(n, dtype)
    if m == 0:
        zeros = np.zeros(n, dtype)
        return scaled, p, zeros, zeros.copy(), zeros.copy()

    def rows(r0: int, r1: int) -> None:
        step = max(1, min(r1 - r0, _BLOCK_BYTES // (m * scores.itemsize)))
        scratch = np.empty((step, m), dtype)
        for a in range(r0, r1, step):
            b = min(r1, a + step)
            s, z, pb = scaled[a:b], scratch[: b - a], p[a:b]
            np.divide(scores[a:b], div, out=s)
            if masked:
                np.copyto(s, -np.inf, where=_future(a, b, m))
            np.subtract(s, s.max(axis=1, keepdims=True), out=z)
            np.exp(z, out=pb)
            tb = pb.sum(axis=1, keepdims=True)
            np.divide(pb, tb, out=pb)
            if masked:  # masked cells: z = -inf and p = 0, whose product counts as 0
                np.copyto(z, 0, where=np.isneginf(z))
            total[a:b] = tb[:, 0]
            entropy[a:b] = np.einsum("ij,ij->i", pb, z)
            sum_sq[a:b] = np.einsum("ij,ij->i", pb, pb)

    for_row_chunks(rows, n, n * m)
    np.subtract(np.log(total), entropy, out=entropy)
    np.maximum(entropy, 0, out=entropy)
    max_weight = np.reciprocal(total)
    mean_gradient = (1 - sum_sq) / dtype.type(m)
    return scaled, p, entropy, max_weight, mean_gradient


def _naive_softmax_with_stats(scaled: np.ndarray):
    """The overflow lesson's naive softmax; statistics are inf/nan wherever it broke."""
    m = scaled.shape[1]
    with np.errstate(all="ignore"):
        e = np.exp(scaled)
        p = e / e.sum(axis=1, keepdims=True)
        plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), np.where(np.isnan(p), p, 0))
        entropy = -plogp.sum(axis=1)
        mean_gradient = (p * (1 - p)).sum(axis=1) / m
    return p, entropy, p.max(axis=1), mean_gradient
