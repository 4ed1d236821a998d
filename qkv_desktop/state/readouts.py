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
from qkv_desktop.core.lessons import RowUniformity, asymmetry, nearly_uniform, row_uniformity

__all__ = ["HeadLessons", "KKComparison", "head_lessons", "kk_comparison"]


@dataclass(frozen=True)
class KKComparison:
    """KKᵀ (the scores if W_Q were W_K) and its asymmetry."""

    kk: np.ndarray
    asymmetry: float


@dataclass(frozen=True)
class HeadLessons:
    """Read-outs of one head's result for the lessons.

    ``asymmetry`` is ‖S − Sᵀ‖/‖S‖ of QKᵀ (None in cross-attention, where rows and
    columns are different sequences); ``spread`` is the largest row range of the
    unmasked scaled scores, computed only when the weights are nearly uniform (the
    banner quoting it shows only then); ``overflow`` is (non-finite weights, rows
    holding any) and ``top`` the largest finite scaled score, both only for the naive
    softmax (None otherwise).
    """

    asymmetry: float | None
    uniformity: RowUniformity
    nearly_uniform: bool
    spread: float | None
    overflow: tuple[int, int] | None
    top: float | None


def head_lessons(r: AttentionResult, cross: bool, stable: bool) -> HeadLessons:
    """Every lesson read-out of one head's result ``r``."""
    u = row_uniformity(r.scaled, r.weights)
    uniform = nearly_uniform(u)
    spread = None
    if uniform:
        visible = np.where(np.isneginf(r.scaled), np.nan, r.scaled)
        spread = float(np.nanmax(np.nanmax(visible, axis=1) - np.nanmin(visible, axis=1)))
    overflow = top = None
    if not stable:
        bad = ~np.isfinite(r.weights)
        overflow = int(bad.sum()), int(bad.any(axis=1).sum())
        finite = r.scaled[np.isfinite(r.scaled)]
        top = float(finite.max()) if finite.size else 0.0
    return HeadLessons(None if cross else asymmetry(r.scores), u, uniform, spread,
                       overflow, top)


def kk_comparison(r: AttentionResult) -> KKComparison:
    """KKᵀ of one head and its asymmetry (0 up to rounding: it is symmetric)."""
    kk = r.K @ r.K.T
    return KKComparison(kk, asymmetry(kk))
