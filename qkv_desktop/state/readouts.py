"""The teaching views' statistics of one head, computed once per result.

The badge, the diagnostics, the banners and the QKᵀ | KKᵀ view all read the same
numbers (QKᵀ asymmetry, per-row uniformity, the overflow count). Computing them in
each view cost O(n²) several times per edit on the GUI thread; ``ModelResult`` keeps
one ``HeadLessons`` per head instead, filled by the model's compute step (on the
worker thread for large inputs) and only read by the views.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core import AttentionResult
from qkv_desktop.core.lessons import (
    RowUniformity,
    asymmetry,
    nearly_uniform,
    product_asymmetry,
    row_uniformity,
)
from qkv_desktop.core.softmax import softmax
from qkv_desktop.state.session_state import same_structure

__all__ = ["HeadLessons", "KKComparison", "head_lessons", "kk_comparison", "broken_rows",
           "seeded_weights"]


@dataclass(frozen=True)
class KKComparison:
    """KKᵀ (the scores if W_Q were W_K), its asymmetry, and its weights.

    Symmetric scores do not make symmetric weights: softmax divides row i by its own
    sum Z_i = Σ_k exp(s_ik), so w_ij / w_ji = Z_j / Z_i. ``weights`` is softmax of
    KKᵀ scaled, biased and masked as the head's scores are (``kk_comparison``);
    ``pair`` = (i, j) is the pair whose w_ij and w_ji differ most (None for fewer than
    two keys, non-finite weights, or a mask that leaves no pair: ``masked_out``).
    """

    kk: np.ndarray
    asymmetry: float
    weights: np.ndarray | None = None
    pair: tuple[int, int] | None = None
    masked_out: bool = False
    """No pair because the mask lets no two tokens see each other both ways."""


@dataclass(frozen=True)
class HeadLessons:
    """Read-outs of one head's result for the lessons.

    ``asymmetry`` is ‖S − Sᵀ‖/‖S‖ of QKᵀ (None in cross-attention, where rows and
    columns are different sequences); ``spread`` is the largest row range of the
    unmasked scaled scores, computed only when the weights are nearly uniform (the
    banner quoting it shows only then); ``overflow`` is (non-finite weights, rows
    holding any) and ``top`` the largest finite scaled score, both only for the naive
    softmax (None otherwise). ``broken_rows`` = (overflowed, underflowed, summed over)
    names the three ways a naive row breaks, which need different explanations: an
    exp(s) that overflowed to ∞ (∞/∞ = NaN), every exp(s) of the row underflowing to 0
    (0/0 = NaN), or every exp(s) finite and their sum overflowing to ∞ (every weight
    exp(s)/∞ = 0: finite, so ``overflow`` counts none of them, yet the row sums to 0).
    """

    asymmetry: float | None
    uniformity: RowUniformity
    nearly_uniform: bool
    spread: float | None
    overflow: tuple[int, int] | None
    top: float | None
    broken_rows: tuple[int, int, int] | None = None


def head_lessons(r: AttentionResult, cross: bool, stable: bool, check=None) -> HeadLessons:
    """Every lesson read-out of one head's result ``r``.

    The stable softmax's own per-row entropy and maximum are reused (the naive one's
    may have broken, so its weights are read afresh), the spread comes from the same
    pass over the rows, and the asymmetry from Q and K rather than the n × n scores.
    ``check()`` is ``row_uniformity``'s (it raises to stop), and is called once more
    before the asymmetry.
    """
    if stable:
        u = row_uniformity(r.scaled, r.weights, r.entropy, r.max_weight, check=check)
    else:
        u = row_uniformity(r.scaled, r.weights, check=check)
    if check is not None:
        check()
    uniform = nearly_uniform(u)
    spread = float(np.nanmax(u.span)) if uniform else None
    overflow = top = broken = None
    if not stable:
        bad = ~np.isfinite(r.weights)
        overflow = int(bad.sum()), int(bad.any(axis=1).sum())
        finite = r.scaled[np.isfinite(r.scaled)]
        top = float(finite.max()) if finite.size else 0.0
        broken = broken_rows(r.scaled)
    rotated = r.Q_rope is not None  # RoPE: the scores are Q_rope · K_ropeᵀ
    asym = None if cross else product_asymmetry(r.Q_rope if rotated else r.Q,
                                                r.K_rope if rotated else r.K)
    return HeadLessons(asym, u, uniform, spread, overflow, top, broken)


def broken_rows(scaled: np.ndarray) -> tuple[int, int, int]:
    """(rows where an exp overflowed to ∞, rows where every visible exp underflowed to 0,
    rows whose exps are all finite but sum to ∞) of the naive softmax of ``scaled``
    (masked −inf cells are not underflow). The sum is taken as the naive softmax takes
    it, in the scores' own dtype: four scores of 709.5 in float64 (exp ≈ 1.4e308 each)
    sum to ∞, and every weight of their row is exp(s)/∞ = 0."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        e = np.exp(scaled)
        total = e.sum(axis=1)
    visible = ~np.isneginf(scaled)
    over = (np.isinf(e) | np.isnan(scaled)).any(axis=1)
    under = ((e == 0) | ~visible).all(axis=1) & visible.any(axis=1)
    summed = np.isinf(total) & ~over
    return int(over.sum()), int((under & ~over).sum()), int(summed.sum())


def kk_comparison(r: AttentionResult, temperature: float = 1.0,
                  self_attention: bool = True) -> KKComparison:
    """KKᵀ of one head, its asymmetry (0 up to rounding: it is symmetric), and the
    weights its softmax gives, with the pair of keys they treat most unequally.

    The weights are those the head would have with W_Q = W_K: KKᵀ (RoPE(K)·RoPE(K)ᵀ
    with RoPE) scaled as its scores are, with the same ALiBi bias and mask (a causal
    head's weights above the diagonal are 0; the lesson quoted them as if nothing were
    masked). The pair is one whose
    two directions are both allowed: a masked direction is 0 by the mask, not by the
    rows' softmax sums the lesson is about; under a causal mask there is none. In
    cross-attention the mask and bias are the queries', not the keys': KKᵀ alone."""
    K = r.K_rope if r.K_rope is not None else r.K  # with RoPE, W_Q = W_K scores RoPE(K)
    kk = K @ K.T
    square = self_attention and r.n_queries == r.n_keys  # the queries are the keys
    allowed = r.allowed if square else np.ones(kk.shape, bool)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        scaled = kk / kk.dtype.type(r.divisor * temperature)
        if square and r.bias is not None:
            scaled = scaled + r.bias
        weights = softmax(np.where(allowed, scaled, -np.inf))
        gap = np.abs(weights - weights.T)
    both = allowed & allowed.T
    np.fill_diagonal(both, False)
    pair = None
    usable = both & np.isfinite(gap)
    if kk.shape[0] > 1 and usable.any():
        i, j = np.unravel_index(int(np.argmax(np.where(usable, gap, -1))), gap.shape)
        pair = (int(min(i, j)), int(max(i, j)))
    return KKComparison(kk, asymmetry(kk), weights, pair,
                        masked_out=kk.shape[0] > 1 and not both.any())


_SEEDED_ANSWER: list = []
"""The last ``seeded_weights`` answer, with the structure of its state."""


def seeded_weights(state) -> bool:
    """Whether ``state``'s weights are the tutorial's seeded ``randn × init_scale``.

    False for weights typed in, imported or read from a checkpoint: for those, "the
    weights are randn × 0.1" is not a reason, and "try weight scale 1" (which draws new
    random weights) would throw the real ones away.

    The answer for the last state asked about is kept for states that differ from it
    only in the inputs' values (``same_structure``): the lesson banners ask twice per
    result, and drawing the seeded weights again to compare was most of their work on
    every edit of X (issue 20).
    """
    structure = state.structure()
    if _SEEDED_ANSWER and same_structure(_SEEDED_ANSWER[0], structure):
        return _SEEDED_ANSWER[1]
    answer = state.reinitialised().equals(state)
    _SEEDED_ANSWER[:] = [structure, answer]
    return answer
