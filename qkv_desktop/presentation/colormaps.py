"""Colour maps shared by the live panes and the exported figures (pure NumPy).

Signed matrices use a diverging map centred on 0 with symmetric levels; the
attention weights use a sequential map fixed on [0, 1]. Keeping one definition
here is what makes an exported figure look exactly like the pane it came from.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DIVERGING", "SEQUENTIAL", "lut_for", "levels_for", "symmetric_levels",
           "max_abs_finite", "clip_to_levels", "map_to_rgba", "text_color_for",
           "SEQUENTIAL_MATRICES", "MAX_LEVEL", "MASKED_RGBA", "OVERFLOW_RGBA", "HATCH_RGBA"]

# The one non-finite palette, for panes, docks, thumbnails and exported figures alike.
MASKED_RGBA = (200, 200, 200, 255)
"""Causally masked cells (−inf scores): grey, never a colour of the scale."""
OVERFLOW_RGBA = (214, 0, 147, 255)
"""Cells that overflowed (+inf, NaN) in the naive-softmax lesson: magenta, on no scale."""
HATCH_RGBA = (120, 120, 120, 255)
"""The diagonal hatching over masked cells large enough to show it (panes and figures)."""

SEQUENTIAL_MATRICES = frozenset({"weights", "mask"})
"""Matrices drawn on a fixed [0, 1] scale: the probabilities, and the mask (1 = allowed)."""


def _interpolate(anchors: list[tuple[int, int, int]], size: int = 256) -> np.ndarray:
    anchors = np.asarray(anchors, dtype=np.float64)
    x = np.linspace(0, 1, len(anchors))
    t = np.linspace(0, 1, size)
    rgb = np.stack([np.interp(t, x, anchors[:, c]) for c in range(3)], axis=1)
    return np.concatenate([np.round(rgb), np.full((size, 1), 255)], axis=1).astype(np.uint8)


# Blue → white → red, after ColorBrewer RdBu (reversed so positive is red).
DIVERGING = _interpolate([(5, 48, 97), (33, 102, 172), (67, 147, 195), (146, 197, 222),
                          (209, 229, 240), (247, 247, 247), (253, 219, 199),
                          (244, 165, 130), (214, 96, 77), (178, 24, 43), (103, 0, 31)])
# Light yellow → green → dark blue, after ColorBrewer YlGnBu: 0 is pale, 1 is dark.
SEQUENTIAL = _interpolate([(255, 255, 217), (237, 248, 177), (199, 233, 180),
                           (127, 205, 187), (65, 182, 196), (29, 145, 192),
                           (34, 94, 168), (37, 52, 148), (8, 29, 88)])


# The mask: masked cells in the grey every pane gives masked cells, allowed ones white,
# so it never reads as a matrix of weights.
MASK = _interpolate([MASKED_RGBA[:3], (255, 255, 255)])


def lut_for(name: str) -> np.ndarray:
    """The lookup table (256 × RGBA uint8) for the matrix called ``name``."""
    if name == "mask":
        return MASK
    return SEQUENTIAL if name in SEQUENTIAL_MATRICES else DIVERGING


MAX_LEVEL = float(np.finfo(np.float64).max) / 2
"""The colour scale stops at ±8.99e307 (half the largest double).

Symmetric levels ±m span 2m, which overflows to infinity for m ≥ 8.99e307 (one
cell of 9e307, or scores of 1.4e308), and pyqtgraph crashes painting an axis of
infinite span. Such values are clamped: they take the scale's end colour, and the
colour bar says ±8.99e307; hover and the tables still show the exact value.
"""


def levels_for(name: str, data: np.ndarray) -> tuple[float, float]:
    """Colour levels: [0, 1] for weights, else symmetric ±max|finite value|, clamped."""
    if name in SEQUENTIAL_MATRICES:
        return 0.0, 1.0
    return symmetric_levels(max_abs_finite(data))


def symmetric_levels(top: float) -> tuple[float, float]:
    """(−top, top) with ``top`` clamped to ``MAX_LEVEL`` (so hi − lo is finite); ±1 for 0."""
    m = min(float(top), MAX_LEVEL) if top > 0 else 1.0
    return -m, m


def clip_to_levels(data: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """``data`` clipped into ``levels`` (NaN stays NaN), for an image item to colour.

    pyqtgraph subtracts the lower level from every cell; a cell of 1.7e308 minus a
    level of −8.99e307 overflows and NumPy warns. Clipped cells get the same end
    colour they would have had. ``data`` itself is returned when nothing is outside.
    """
    lo, hi = levels
    data = np.asarray(data)
    with np.errstate(invalid="ignore"):
        outside = (data < lo) | (data > hi)
    if not outside.any():
        return data
    return np.clip(data, lo, hi)


def max_abs_finite(data: np.ndarray) -> float:
    """The largest |value| among the finite cells (0 if there are none).

    Two reductions and no copy when every cell is finite, which is the usual case
    for the large matrices where a copy would cost more than the colouring.
    """
    data = np.asarray(data)
    if not data.size:
        return 0.0
    lo, hi = float(data.min()), float(data.max())
    if np.isfinite(lo) and np.isfinite(hi):
        return max(-lo, hi)
    finite = data[np.isfinite(data)]  # masked (−inf) or overflowed cells are left out
    return float(np.max(np.abs(finite))) if finite.size else 0.0


def map_to_rgba(data: np.ndarray, lut: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """RGBA uint8 colours of ``data``: −inf cells ``MASKED_RGBA``, +inf and NaN
    ``OVERFLOW_RGBA``."""
    data = np.asarray(data, dtype=np.float64)
    lo, hi = levels
    with np.errstate(invalid="ignore"):
        t = (clip_to_levels(data, levels) - lo) / (hi - lo) if hi > lo \
            else np.zeros_like(data)
    idx = np.clip(np.nan_to_num(t, nan=0.5, posinf=1.0, neginf=0.0) * (len(lut) - 1),
                  0, len(lut) - 1)
    rgba = lut[np.round(idx).astype(np.intp)]
    rgba[np.isneginf(data)] = MASKED_RGBA
    rgba[np.isnan(data) | np.isposinf(data)] = OVERFLOW_RGBA
    return rgba


def text_color_for(rgba: np.ndarray) -> np.ndarray:
    """Black or white per cell, whichever contrasts more with the cell colour.

    Uses relative luminance (ITU-R BT.709 weights); returns a bool array, True = white.
    """
    rgb = np.asarray(rgba, dtype=np.float64)[..., :3] / 255.0
    lum = rgb @ np.array([0.2126, 0.7152, 0.0722])
    return lum < 0.5
