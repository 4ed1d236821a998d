"""Computations behind the tutorial's lessons: √d_k scaling, symmetry and overflow."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.rows import for_row_chunks
from qkv_desktop.core.softmax import row_entropy, softmax

__all__ = [
    "RowStats", "row_stats", "DotProductDemo", "dot_product_demo", "ScalingSweep",
    "scaling_sweep", "session_sweep", "asymmetry", "SoftmaxComparison",
    "compare_softmax", "DEMO_SCORES", "RowUniformity", "row_uniformity", "nearly_uniform",
    "product_asymmetry",
    "UNIFORM_FRACTION", "CellBreakdown", "cell_breakdown", "exp_limit",
    "ProjectionBreakdown", "projection_breakdown",
]

DEMO_SCORES = (2.0, 1.5, 0.5, -0.5, -1.0)
"""The fixed score vector of the tutorial's last table."""


@dataclass(frozen=True)
class RowStats:
    """Softmax weights of score rows with their max, entropy (nats), mean p(1−p) and
    the size of the softmax Jacobian.

    p_i(1−p_i) (the tutorial's 平均梯度 averages it) is only ∂p_i/∂s_i, the diagonal of
    the Jacobian ∂p/∂s = diag(p) − ppᵀ; its off-diagonal terms are −p_i·p_j.
    ``jacobian_norm`` is the whole matrix's Frobenius norm per row,
    √(Σp² − 2Σp³ + (Σp²)²): how much the weights respond to the scores at all. It falls
    to 0 as softmax saturates, and then no gradient reaches the scores (nor W_Q, W_K).
    """

    weights: np.ndarray
    max_weight: np.ndarray
    entropy: np.ndarray
    mean_gradient: np.ndarray
    jacobian_norm: np.ndarray


def row_stats(scores, divisor: float = 1.0) -> RowStats:
    """Softmax of ``scores / divisor`` along the last axis, with per-row statistics."""
    p = softmax(np.asarray(scores, dtype=np.float64) / divisor)
    sq, cube = (p ** 2).sum(axis=-1), (p ** 3).sum(axis=-1)
    jacobian = np.sqrt(np.maximum(sq - 2 * cube + sq ** 2, 0.0))
    return RowStats(p, p.max(axis=-1), row_entropy(p), (p * (1 - p)).mean(axis=-1),
                    jacobian)


@dataclass(frozen=True)
class DotProductDemo:
    """One row of demo 3: random dot products of variance d_k, unscaled and scaled."""

    d_k: int
    dot_products: np.ndarray
    unscaled: RowStats
    scaled: RowStats


def dot_product_demo(d_ks: Sequence[int] = (4, 16, 64, 256), n: int = 5,
                     seed: int = 42) -> list[DotProductDemo]:
    """Demo 3: for each d_k in turn, ``randn(n) * √d_k`` from one seeded stream."""
    rng = np.random.RandomState(seed)
    out = []
    for d_k in d_ks:
        dots = rng.randn(n) * np.sqrt(d_k)
        out.append(DotProductDemo(d_k, dots, row_stats(dots), row_stats(dots, np.sqrt(d_k))))
    return out


@dataclass(frozen=True)
class ScalingSweep:
    """Mean max weight, entropy and p(1−p) against d_k, without and with ÷√d_k."""

    d_k: np.ndarray
    unscaled: dict[str, np.ndarray]
    scaled: dict[str, np.ndarray]


def _stats_dict(stats: RowStats, axis) -> dict[str, np.ndarray]:
    return {"max_weight": stats.max_weight.mean(axis=axis),
            "entropy": stats.entropy.mean(axis=axis),
            "mean_gradient": stats.mean_gradient.mean(axis=axis),
            "jacobian_norm": stats.jacobian_norm.mean(axis=axis)}


def scaling_sweep(d_ks: Sequence[int] = tuple(2 ** k for k in range(10)), n_keys: int = 8,
                  trials: int = 64, seed: int = 0) -> ScalingSweep:
    """Seeded unit-variance q and k of each dimension d_k: how softmax saturates.

    For every d_k, ``trials`` queries each score ``n_keys`` keys; the statistics are
    averaged over the trials.
    """
    d_ks = np.asarray(d_ks, dtype=int)
    if d_ks.size == 0 or (d_ks < 1).any():
        raise ValueError("every d_k in the sweep must be a positive integer")
    rng = np.random.RandomState(seed)
    un, sc = [], []
    for d_k in d_ks:
        q = rng.randn(trials, 1, d_k)
        k = rng.randn(trials, n_keys, d_k)
        s = (q * k).sum(axis=-1)  # (trials, n_keys)
        un.append(_stats_dict(row_stats(s), None))
        sc.append(_stats_dict(row_stats(s, np.sqrt(d_k)), None))
    stack = lambda rows: {key: np.array([r[key] for r in rows]) for key in rows[0]}  # noqa: E731
    return ScalingSweep(d_ks, stack(un), stack(sc))


def session_sweep(scores, d_ks: Sequence[int]) -> ScalingSweep:
    """The session's own QKᵀ divided by √d for each d in ``d_ks``, against no division.

    It answers "what would ÷√d_k do to *these* scores?"; the unscaled curves are flat.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.size == 0:
        raise ValueError("the session has no scores to sweep")
    d_ks = np.asarray(d_ks, dtype=int)
    base = _stats_dict(row_stats(scores), None)
    un = {k: np.full(d_ks.shape, v) for k, v in base.items()}
    rows = [_stats_dict(row_stats(scores, np.sqrt(d)), None) for d in d_ks]
    sc = {key: np.array([r[key] for r in rows]) for key in rows[0]}
    return ScalingSweep(d_ks, un, sc)


_TILE = 256
"""Side of the square tiles ``asymmetry`` compares with their mirror images."""


def asymmetry(S) -> float:
    """‖S − Sᵀ‖ / ‖S‖ (Frobenius): 0 for a symmetric matrix such as KKᵀ, 0 for S = 0.

    Computed in float64 tile by tile: each tile above the diagonal is compared with
    its mirror tile (and counted twice), so no n×n difference or transpose is made.
    """
    S = np.asarray(S)
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise ValueError(f"asymmetry needs a square matrix, got shape {S.shape}")
    c = _power_of_two_factor(S)
    n = S.shape[0]
    diff = total = 0.0
    for a in range(0, n, _TILE):
        rows = S[a:a + _TILE].astype(np.float64) * c
        total += float(np.vdot(rows, rows))
        for b in range(a, n, _TILE):
            d = rows[:, b:b + _TILE] - S[b:b + _TILE, a:a + _TILE].T.astype(np.float64) * c
            diff += (1.0 if a == b else 2.0) * float(np.vdot(d, d))
    return 0.0 if total == 0 else float(np.sqrt(diff) / np.sqrt(total))


def _power_of_two_factor(a: np.ndarray) -> float:
    """The power of two that brings the largest |value| of ``a`` into [0.5, 1) (1 when
    that is 0 or not finite). The asymmetry of the matrix so scaled is the same number,
    bit for bit (a power of two scales exactly), but its sums of squares no longer
    overflow: scores of 1e80 read "QKᵀ asymmetry = NaN" (‖S‖² = ∞, and ∞/∞), though
    every score was finite (a first user)."""
    top = float(np.max(np.abs(a))) if a.size else 0.0
    if top == 0 or not math.isfinite(top):
        return 1.0
    return math.ldexp(1.0, -math.frexp(top)[1])


_EXACT_BELOW = 1e-6
"""``product_asymmetry`` falls back to the tiles when (‖S − Sᵀ‖/‖S‖)² is below this:
there the difference of two nearly equal sums would be mostly rounding."""


def product_asymmetry(Q, K) -> float:
    """``asymmetry(Q @ K.T)`` from the d_k × d_k Gram matrices, without the n × n scores.

    With S = QKᵀ: ‖S‖² = Σ (QᵀQ) ∘ (KᵀK) and ⟨S, Sᵀ⟩ = tr((KᵀQ)²), so
    ‖S − Sᵀ‖² = 2‖S‖² − 2 tr((KᵀQ)²): O(n·d_k²) work instead of O(n²) when d_k ≪ n.
    A nearly symmetric S (tied W_Q = W_K) makes that difference cancel, so below
    ``_EXACT_BELOW`` the scores are built and compared tile by tile instead.
    """
    Q, K = np.asarray(Q, np.float64), np.asarray(K, np.float64)
    if Q.ndim != 2 or Q.shape != K.shape:
        raise ValueError(f"Q {Q.shape} and K {K.shape} must be the same 2-D shape")
    Q, K = Q * _power_of_two_factor(Q), K * _power_of_two_factor(K)
    total = float(np.sum((Q.T @ Q) * (K.T @ K)))
    if total == 0:
        return 0.0
    M = K.T @ Q
    ratio = 2.0 * (total - float(np.sum(M * M.T))) / total
    if ratio < _EXACT_BELOW:
        return asymmetry(Q @ K.T)
    return float(np.sqrt(ratio))

@dataclass(frozen=True)
class SoftmaxComparison:
    """The stable and naive softmax of the same scores, and where the naive one broke."""

    stable: np.ndarray
    naive: np.ndarray
    overflow: np.ndarray  # bool mask: naive result is inf or nan


def compare_softmax(scores, axis: int = -1) -> SoftmaxComparison:
    """Both softmax formulas on ``scores``; ``overflow`` marks the naive failures."""
    naive = softmax(scores, axis=axis, stable=False)
    return SoftmaxComparison(softmax(scores, axis=axis), naive, ~np.isfinite(naive))


UNIFORM_FRACTION = 0.99
"""A row whose entropy exceeds this fraction of log(visible keys) counts as uniform."""
_BLOCK_CELLS = 1 << 17
"""Cells per block of rows in ``row_uniformity`` (float64 temporaries stay in cache)."""


@dataclass(frozen=True)
class RowUniformity:
    """How close each query's weights are to uniform over the keys it may see.

    ``visible`` counts the keys not masked; ``fraction`` is entropy / log(visible)
    (1 where a single key is visible); ``deviation`` is max |w − 1/visible| over the
    visible keys; ``argmax`` is the most attended key; ``span`` is the range (max −
    min) of the row's visible scaled scores, NaN where it has none.
    """

    visible: np.ndarray
    entropy: np.ndarray
    fraction: np.ndarray
    deviation: np.ndarray
    max_weight: np.ndarray
    argmax: np.ndarray
    span: np.ndarray


def row_uniformity(scaled, weights, entropy=None, max_weight=None, check=None) -> RowUniformity:
    """Per-row entropy and distance from uniform of ``weights`` (masked where ``scaled`` is −inf).

    ``entropy`` and ``max_weight``, when given, are the forward's own per-row statistics
    (``AttentionResult.entropy``/``max_weight`` of the stable softmax): then no
    logarithm of the n×m weights is taken, the costliest part of this read-out.
    Without them they are computed in float64 from the weights themselves, so a naive
    softmax that broke (NaN weights) gives NaN statistics rather than a plausible
    number. The deviation needs only each row's largest and smallest visible weight
    (the weights of a row sum to 1, so 1/visible lies between them). Rows are done in
    blocks (in parallel for large matrices), so no n×m float64 temporaries are made;
    rows without a masked key, the usual case, need no mask at all.

    ``check()``, when given, is called before each range of rows; it raises to stop
    the read-out (its caller no longer needs it: the app's newer forward).
    """
    scaled, p = np.asarray(scaled), np.asarray(weights)
    if scaled.shape != p.shape or p.ndim != 2:
        raise ValueError(f"scaled {scaled.shape} and weights {p.shape} must be the same 2-D shape")
    n, m = p.shape
    given = entropy is not None
    visible = np.full(n, m, np.intp)
    entropy = np.empty(n) if entropy is None else np.asarray(entropy, np.float64)
    max_weight = np.empty(n) if max_weight is None else np.asarray(max_weight, np.float64)
    deviation, span = np.empty(n), np.empty(n)
    argmax = np.empty(n, np.intp)
    if m == 0:
        zeros = np.zeros(n)
        return RowUniformity(np.zeros(n, int), zeros, zeros + 1, zeros, zeros,
                             zeros.astype(int), zeros + np.nan)
    step = max(1, _BLOCK_CELLS // m)

    def rows(r0: int, r1: int) -> None:
        if check is not None:
            check()
        for a in range(r0, r1, step):
            b = min(r1, a + step)
            pb, sb = p[a:b], scaled[a:b]
            s_lo, s_hi = sb.min(axis=1), sb.max(axis=1)  # the dtype the spread was read in
            p_lo, p_hi = pb.min(axis=1).astype(np.float64), pb.max(axis=1).astype(np.float64)
            if not given:
                entropy[a:b] = row_entropy(pb.astype(np.float64))
                max_weight[a:b] = p_hi
                # a naive row whose exps summed to ∞ has weights exp(s)/∞ = 0: no
                # distribution, so no statistics (they read "entropy 0, max weight 0,
                # attends most to its first key": a row perfectly focused; a review)
                dead = ~(pb.sum(axis=1) > 0)
                entropy[a:b][dead] = np.nan
                max_weight[a:b][dead] = np.nan
            # rows with a masked key (or a NaN score): count and bound only what is seen
            hidden = np.flatnonzero(np.isneginf(s_lo) | np.isnan(s_lo))
            if hidden.size:
                sh, ph = sb[hidden], pb[hidden]
                seen = ~np.isneginf(sh)
                ok = seen & ~np.isnan(sh)
                visible[a + hidden] = seen.sum(axis=1)
                s_lo[hidden] = sh.min(axis=1, where=ok, initial=np.inf)
                s_hi[hidden] = sh.max(axis=1, where=ok, initial=-np.inf)
                p_lo[hidden] = ph.min(axis=1, where=seen, initial=np.inf)
                p_hi[hidden] = ph.max(axis=1, where=seen, initial=-np.inf)
            vis = visible[a:b]
            uniform = 1.0 / np.maximum(vis, 1)
            with np.errstate(invalid="ignore"):
                gap = np.maximum(np.abs(p_hi - uniform), np.abs(uniform - p_lo))
                deviation[a:b] = np.where(vis > 0, gap, 0.0)
                if not given:
                    deviation[a:b][dead] = np.nan  # (no distribution: no distance either)
                span[a:b] = np.where(s_hi >= s_lo, s_hi - s_lo, np.nan)
            top = pb.argmax(axis=1)
            broken = np.isnan(p_hi)  # NaN weights (naive softmax): the largest number
            if broken.any():
                top[broken] = np.argmax(np.where(np.isnan(pb[broken]), -np.inf, pb[broken]),
                                        axis=1)
            argmax[a:b] = top

    for_row_chunks(rows, n, n * m)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_n = np.log(visible)
        fraction = np.where(visible > 1, entropy / np.where(visible > 1, log_n, 1.0), 1.0)
    fraction = np.where(np.isnan(entropy), np.nan, fraction)
    return RowUniformity(visible, entropy, fraction, deviation, max_weight, argmax, span)


def nearly_uniform(u: RowUniformity, threshold: float = UNIFORM_FRACTION) -> bool:
    """True when every row that sees two or more keys has entropy > threshold · log(visible).

    Rows that see a single key are uniform by necessity and do not count; a result
    with no such rows at all (or any NaN) is not called uniform.
    """
    rows = u.visible > 1
    if not rows.any() or np.isnan(u.fraction).any():
        return False
    return bool((u.fraction[rows] > threshold).all())


def exp_limit(dtype) -> float:
    """The largest x with a finite exp(x) in ``dtype`` (709.78 for float64, 88.72 for float32)."""
    return float(np.log(np.finfo(dtype).max))


@dataclass(frozen=True)
class CellBreakdown:
    """Every number behind weight (i, j) and output row i, step by step.

    ``products`` are the terms q_i[c]·k_j[c] whose sum is ``score``; ``shift`` is the
    row maximum subtracted before exp (0 for the naive softmax); ``exps`` and
    ``row_sum`` are exp(s − shift) of the whole row and their sum. With RoPE ``q`` and
    ``k`` are the rotated vectors; ``bias`` is the ALiBi term added after scaling (0
    without) and ``reason`` the mask code of the cell (``core.masks.REASONS``).
    """

    i: int
    j: int
    q: np.ndarray
    k: np.ndarray
    products: np.ndarray
    score: float
    divisor: float
    temperature: float
    scaled_row: np.ndarray
    masked: bool
    shift: float
    exps: np.ndarray
    row_sum: float
    weights_row: np.ndarray
    V: np.ndarray
    output_row: np.ndarray
    bias: float = 0.0
    reason: int = 0

    @property
    def scaled(self) -> float:
        return float(self.scaled_row[self.j])

    @property
    def weight(self) -> float:
        return float(self.weights_row[self.j])


def cell_breakdown(result, i: int, j: int, temperature: float = 1.0,
                   stable: bool = True) -> CellBreakdown:
    """Recompute weight (i, j) of an ``AttentionResult`` the long way, for explaining it.

    ``temperature`` and ``stable`` must be the options the result was computed with
    (the result keeps its divisor but not those). The weights and output returned are
    the result's own, so an explanation never disagrees with the panes.
    """
    n, m = result.scores.shape
    if not (0 <= i < n and 0 <= j < m):
        raise ValueError(f"cell ({i}, {j}) is outside the {n}×{m} scores")
    rotated = result.Q_rope is not None
    q, k = (result.Q_rope[i], result.K_rope[j]) if rotated else (result.Q[i], result.K[j])
    bias = 0.0 if result.bias is None else float(result.bias[i, j])
    row = result.scaled[i]
    visible = row[~np.isneginf(row)]
    shift = float(visible.max()) if stable and visible.size else 0.0
    if not np.isfinite(shift):
        shift = 0.0
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is what the lesson shows
        exps = np.exp(row.astype(np.float64) - shift)
        row_sum = float(exps.sum())
        products = q * k
    return CellBreakdown(i, j, q, k, products, float(result.scores[i, j]), float(result.divisor),
                         float(temperature), row, bool(np.isneginf(row[j])), shift, exps,
                         row_sum, result.weights[i], result.V, result.output[i], bias,
                         int(result.mask_reasons[i, j]))


@dataclass(frozen=True)
class ProjectionBreakdown:
    """One cell of Q, K or V as the sum it is: x (a row of X) times a column w of W.

    ``products[c] = x[c]·w[c]``; ``bias`` is the checkpoint head's bias entry (0 without);
    ``value = Σ products + bias``.
    """

    x: np.ndarray
    w: np.ndarray
    products: np.ndarray
    bias: float
    value: float


def projection_breakdown(X, W, bias, i: int, j: int) -> ProjectionBreakdown:
    """Cell (i, j) of ``X·W (+ bias)``, term by term (the explain panel's Q, K, V cells)."""
    x = np.asarray(X)[i]
    w = np.asarray(W)[:, j]
    # Values near the float64 limit overflow to ±inf here, as they do in the pane's
    # X·W: the panel shows the inf, NumPy's warning would only reach stderr.
    with np.errstate(over="ignore", invalid="ignore"):
        products = x * w
        b = 0.0 if bias is None else float(np.asarray(bias)[j])
        value = float(products.sum() + b)
    return ProjectionBreakdown(x, w, products, b, value)
