"""What a heatmap pane draws for a matrix larger than the pane (pure NumPy).

A 2048×2048 matrix in a pane 400 pixels high cannot show every cell; mapping all
four million values to colours on every edit would cost far more than showing the
block means that the pixels can actually display. Hover and the status bar keep
reading the exact values from the result; only the picture is reduced.
"""

from __future__ import annotations

import math

import numpy as np

from qkv_desktop.presentation.colormaps import MASKED_RGBA, OVERFLOW_RGBA

__all__ = ["FULL_RESOLUTION", "display_factors", "block_mean", "nonfinite_rgba",
           "MASKED_RGBA", "OVERFLOW_RGBA"]

FULL_RESOLUTION = 256
"""Matrices up to this many rows or columns are always drawn cell by cell."""



def display_factors(shape: tuple[int, int], pixels: tuple[float, float]) -> tuple[int, int]:
    """Rows and columns of the matrix averaged into one displayed cell.

    ``pixels`` is the pane's (height, width); a side keeps full resolution while it
    has no more cells than pixels (or than ``FULL_RESOLUTION``).
    """
    out = []
    for cells, px in zip(shape, pixels, strict=True):
        room = max(int(px), FULL_RESOLUTION)
        out.append(max(1, math.ceil(cells / room)))
    return out[0], out[1]


def _mean_along(a: np.ndarray, factor: int, axis: int) -> np.ndarray:
    """Means of ``factor`` consecutive rows (axis 0) or columns (axis 1).

    Summed as ``factor`` whole-array additions of strided views (row k of every block,
    then row k + 1…), which streams through memory; ``np.add.reduceat`` over the same
    blocks is several times slower.
    """
    if factor == 1:
        return a
    n = a.shape[axis]
    view = (lambda k: a[k::factor]) if axis == 0 else (lambda k: a[:, k::factor])
    sums = view(0).copy()
    for k in range(1, factor):
        part = view(k)
        if axis == 0:
            sums[:part.shape[0]] += part
        else:
            sums[:, :part.shape[1]] += part
    counts = np.minimum(factor, n - np.arange(0, n, factor)).astype(a.dtype)
    sums /= counts[:, None] if axis == 0 else counts[None, :]
    return sums


def block_mean(data: np.ndarray, fy: int, fx: int) -> np.ndarray:
    """Means of ``fy``×``fx`` blocks (the last row/column of blocks may be smaller).

    A block with a −inf cell (causal mask) is −inf and one with a NaN is NaN, so masked
    and overflowed regions stay visible after the reduction. The result is a new
    array of ``data``'s dtype; ``data`` itself is returned when nothing is reduced.
    """
    if fy == 1 and fx == 1:
        return data
    with np.errstate(invalid="ignore", over="ignore"):
        rows = _mean_along(data, fy, 0)
        return _mean_along(np.ascontiguousarray(rows), fx, 1)


def nonfinite_rgba(shown: np.ndarray) -> np.ndarray | None:
    """An RGBA layer painting −inf cells grey and inf/NaN cells magenta; None if all finite."""
    bad = ~np.isfinite(shown)
    if not bad.any():
        return None
    rgba = np.zeros(shown.shape + (4,), np.uint8)
    masked = np.isneginf(shown)
    rgba[masked] = MASKED_RGBA
    rgba[bad & ~masked] = OVERFLOW_RGBA
    return rgba
