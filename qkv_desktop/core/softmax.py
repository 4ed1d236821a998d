"""Row-wise softmax, stable and naive, for the lesson on overflow."""

from __future__ import annotations

import numpy as np

__all__ = ["softmax", "row_entropy"]


def softmax(x, axis: int = -1, stable: bool = True) -> np.ndarray:
    """Softmax along ``axis``.

    ``stable=True`` subtracts the maximum first, so ``exp`` never overflows.
    ``stable=False`` is the naive ``exp(x) / Σ exp(x)``: it may overflow to inf/nan,
    which is what the teaching demo shows, but it never raises.
    """
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        if stable and x.size:
            m = np.max(x, axis=axis, keepdims=True)
            m = np.where(np.isfinite(m), m, 0)
            e = np.exp(x - m)
        else:
            e = np.exp(x)
        return e / np.sum(e, axis=axis, keepdims=True)


def row_entropy(p: np.ndarray) -> np.ndarray:
    """The entropy −Σ p·log p of each row (last axis) of weights ``p`` (in ``p``'s dtype).

    0·log 0 counts as 0 (a masked key takes nothing away), and a NaN weight (the naive
    softmax after an overflow) makes its row NaN. The one formula for weights given as
    such; the fused stable softmax gets the same number from its shifted scores
    (log Σe^z − Σ p·z) without a second pass.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1)),
                         np.where(np.isnan(p), p, 0))
    return -plogp.sum(axis=-1)
