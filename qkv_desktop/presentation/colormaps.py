"""Colour maps shared by the live panes and the exported figures (pure NumPy).

Signed matrices use a diverging map centred on 0 with symmetric levels; the
attention weights use a sequential map fixed on [0, 1]. Keeping one definition
here is what makes an exported figure look exactly like the pane it came from.
"""

from __future__ import annotations

import numpy as np

from qkv_desktop.state.catalogue import UNIT_RANGE

__all__ = ["DIVERGING", "SEQUENTIAL", "lut_for", "levels_for", "symmetric_levels",
           "max_abs_finite", "clip_to_levels", "map_to_rgba", "map_to_rgb32", "text_color_for",
           "SEQUENTIAL_MATRICES", "MAX_LEVEL", "MASKED_RGBA", "OVERFLOW_RGBA", "HATCH_RGBA",
           "RGB32_ORDER", "rgba_word", "BOOLEAN_BAR_RANGE"]

# The one non-finite palette, for panes, docks, thumbnails and exported figures alike.
MASKED_RGBA = (200, 200, 200, 255)
"""Causally masked cells (−inf scores): grey, never a colour of the scale."""
OVERFLOW_RGBA = (214, 0, 147, 255)
"""Cells that overflowed (+inf, NaN) in the naive-softmax lesson: magenta, on no scale."""
HATCH_RGBA = (120, 120, 120, 255)
"""The diagonal hatching over masked cells large enough to show it (panes and figures)."""

SEQUENTIAL_MATRICES = UNIT_RANGE
"""Matrices drawn on a fixed [0, 1] scale: those the catalogue says are in [0, 1] (the
probabilities, and the mask, 1 = allowed)."""


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

BOOLEAN_BAR_RANGE = (-0.5, 1.5)
"""The axis of a yes/no matrix's colour bar (the mask): two swatches, the lowest and
the highest colour, with 0 and 1 at their middles (the pane's bar and the figure's)."""


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


def levels_for(name: str, data: np.ndarray, top: float | None = None) -> tuple[float, float]:
    """Colour levels: [0, 1] for weights, else symmetric ±max|finite value|, clamped.

    ``top`` is ``max_abs_finite(data)`` when the caller has it already (a pane's
    picture takes it with its block means, in the same pass over the matrix)."""
    if name in SEQUENTIAL_MATRICES:
        return 0.0, 1.0
    return symmetric_levels(max_abs_finite(data) if top is None else top)


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
    if not data.size:
        return data
    # two reductions, no temporary (a NaN fails both tests and takes the exact path)
    if lo <= float(data.min()) and float(data.max()) <= hi:
        return data
    with np.errstate(invalid="ignore"):
        outside = (data < lo) | (data > hi)
    if not outside.any():
        return data
    return np.clip(data, lo, hi)


def max_abs_finite(data: np.ndarray, finite: bool | None = None) -> float:
    """The largest |value| among the finite cells (0 if there are none).

    Two reductions and no copy when every cell is finite, which is the usual case
    for the large matrices where a copy would cost more than the colouring.
    ``finite``: the caller knows whether every cell is finite (a pane's picture, from
    the block means it has just made of ``data``: a block mean is finite only if its
    cells are). With non-finite cells (the causal mask's −inf scaled scores) the
    minimum and maximum say nothing; known, they are not taken, and the largest |value|
    is one masked maximum of |value| over the finite cells, not a copy of those cells
    and a maximum of it (a 128 × 1024 range of causal scaled scores: 141 µs → 114).
    """
    data = np.asarray(data)
    if not data.size:
        return 0.0
    if finite is not False:
        lo, hi = float(data.min()), float(data.max())
        if finite or (np.isfinite(lo) and np.isfinite(hi)):
            return max(-lo, hi)
    # masked (−inf) or overflowed cells are left out; 0 if no cell is finite
    return float(np.max(np.abs(data), where=np.isfinite(data), initial=0.0))


RGB32_ORDER = [2, 1, 0, 3] if np.little_endian else [3, 0, 1, 2]
"""RGBA channels in the byte order of a 32-bit ``0xffRRGGBB`` pixel (Qt's
``Format_RGB32``): B, G, R, A on a little-endian machine."""


def _colour_indices(data: np.ndarray, size: int, levels: tuple[float, float],
                    inside: bool = False) -> tuple[np.ndarray, bool]:
    """Each cell's entry in a lookup table of ``size`` colours on ``levels`` (``uint8``
    for up to 256 colours), and whether every cell is finite (else its entry is
    meaningless: the caller paints it ``MASKED_RGBA`` or ``OVERFLOW_RGBA``). ``inside``:
    the caller knows every cell is finite and within ``levels`` (from their min and max).

    The one colour rule: ``round((clip(x, lo, hi) − lo) / (hi − lo) · (size − 1))`` in
    float64. It is computed in place in a few passes; the earlier form made a dozen
    temporaries (clip, ``nan_to_num``, clip again, round, ``intp``) and was ≈ 1.4 ms a
    256 × 256 matrix, eight panes an edit (issue 20). Scaling first and clipping the
    index after is the same number: a cell beyond a level scales past 0 or ``size − 1``
    and clips there, as its clipped value would map there exactly; a cell within the
    levels scales into [0, size − 1] (rounding is monotonic), so it needs no clip.
    """
    lo, hi = levels
    top = size - 1
    kind = np.uint8 if size <= 256 else np.intp
    with np.errstate(over="ignore", invalid="ignore"):
        t = np.subtract(data, lo, dtype=np.float64)
        if not hi > lo:
            return np.zeros(t.shape, kind), inside or bool(np.isfinite(data).all())
        t /= hi - lo
        t *= top
        finite = inside
        if not inside:
            total = t.sum()  # finite only if every cell is (big values: the exact test)
            finite = bool(np.isfinite(total)) or bool(np.isfinite(data).all())
            np.clip(t, 0, top, out=t)
            if not finite:
                t[np.isnan(t)] = 0.0  # painted as non-finite, never as this entry
        np.rint(t, out=t)
    return t.astype(kind), finite  # whole numbers in [0, top]: exact


def _paint_nonfinite(words: np.ndarray, data: np.ndarray, masked: np.uint32,
                     overflow: np.uint32) -> None:
    """−inf cells ``masked``, +inf and NaN cells ``overflow``: one 4-byte word per cell,
    in place. ``np.copyto`` with ``where`` and one test per kind: a boolean index per
    kind (``isneginf``, ``isnan | isposinf``) took twice as long (82–100 µs against 46
    for 256 × 256), and four bytes through a boolean index longer still."""
    np.copyto(words, overflow, where=~np.isfinite(data))
    np.copyto(words, masked, where=data == -np.inf)


def rgba_word(rgba) -> np.uint32:
    """One RGBA colour as the 32-bit word of its four bytes in memory (R first)."""
    return np.asarray(rgba, np.uint8).view(np.uint32)[0]


def map_to_rgba(data: np.ndarray, lut: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """RGBA uint8 colours of ``data``: −inf cells ``MASKED_RGBA``, +inf and NaN
    ``OVERFLOW_RGBA``."""
    data = np.asarray(data)
    index, finite = _colour_indices(data, len(lut), levels)
    words = _look_up(_as_words(lut), index)
    if not finite:
        _paint_nonfinite(words, data, rgba_word(MASKED_RGBA), rgba_word(OVERFLOW_RGBA))
    return words.view(np.uint8).reshape(*index.shape, 4)


def _look_up(table: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``table[index]``, every index within the table (``_colour_indices``): ``np.take``
    with ``mode="clip"`` skips the bounds check and the error path of the default mode,
    the same words in half the time (256 × 256: 85 µs → 53)."""
    return np.take(table, index, mode="clip")


def _as_words(lut: np.ndarray) -> np.ndarray:
    """``lut``'s RGBA rows as one uint32 each (the same bytes): a lookup copies one word
    per cell, where indexing the rows copies four bytes one by one."""
    return np.ascontiguousarray(lut, np.uint8).view(np.uint32)[:, 0]


def _rgb32(rgba) -> np.uint32:
    """One RGBA colour as a ``Format_RGB32`` pixel."""
    return np.asarray(rgba, np.uint8)[RGB32_ORDER].view(np.uint32)[0]


_RGB32_LUTS: dict[bytes, np.ndarray] = {}


def _rgb32_lut(lut: np.ndarray) -> np.ndarray:
    """``lut`` as ``Format_RGB32`` pixels (uint32), made once per table."""
    key = lut.tobytes()
    table = _RGB32_LUTS.get(key)
    if table is None:
        table = np.ascontiguousarray(lut[:, RGB32_ORDER]).view(np.uint32)[:, 0].copy()
        _RGB32_LUTS[key] = table
    return table


def map_to_rgb32(data: np.ndarray, lut: np.ndarray, levels: tuple[float, float],
                 inside: bool = False) -> np.ndarray:
    """``map_to_rgba``'s colours as ``Format_RGB32`` pixels: an ``h × w`` uint32 array
    (``view(np.uint8)`` gives the bytes in ``RGB32_ORDER``). ``inside``: the caller
    knows every cell is finite and within ``levels`` (``prepare_image``).

    One lookup of a 4-byte pixel per cell, instead of four bytes and a reordering copy.
    """
    data = np.asarray(data)
    index, finite = _colour_indices(data, len(lut), levels, inside)
    pixels = _look_up(_rgb32_lut(np.asarray(lut, np.uint8)), index)
    if not finite:
        _paint_nonfinite(pixels, data, _rgb32(MASKED_RGBA), _rgb32(OVERFLOW_RGBA))
    return pixels


def text_color_for(rgba: np.ndarray) -> np.ndarray:
    """Black or white per cell, whichever contrasts more with the cell colour.

    Uses relative luminance (ITU-R BT.709 weights); returns a bool array, True = white.
    """
    rgb = np.asarray(rgba, dtype=np.float64)[..., :3] / 255.0
    lum = rgb @ np.array([0.2126, 0.7152, 0.0722])
    return lum < 0.5
