"""What a heatmap pane draws of a matrix, ready to paint (pure NumPy).

A 2048×2048 matrix in a pane 400 pixels high cannot show every cell; mapping all
four million values to colours on every edit would cost far more than showing the
block means that the pixels can actually display. Hover and the status bar keep
reading the exact values from the result; only the picture is reduced.

``prepare_image`` makes the whole picture of one matrix (block means, colour levels,
the opaque 32-bit pixels, the layer of non-finite cells): the pane only wraps the
pixels in a ``QImage``. ``pane_image`` keeps one per result, pane, head and reduction,
so the forward's worker thread can prepare the panes' pictures of a large result
before the result reaches the GUI thread (``AttentionModel.prepare_on_worker``), and
the pane then finds them made: nothing that grows with n² is left to the GUI thread.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass

import numpy as np

from qkv_desktop.presentation.colormaps import (
    MASKED_RGBA,
    OVERFLOW_RGBA,
    RGB32_ORDER,
    clip_to_levels,
    levels_for,
    lut_for,
    map_to_rgb32,
)
from qkv_desktop.presentation.pane_info import pane_matrix
from qkv_desktop.state.catalogue import HEAD_INDEPENDENT
from qkv_desktop.state.compute import ModelResult

__all__ = ["FULL_RESOLUTION", "display_factors", "block_mean", "nonfinite_rgba",
           "MASKED_RGBA", "OVERFLOW_RGBA", "PaneImage", "prepare_image", "pane_image",
           "prepared_image", "RGB32_ORDER"]


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


@dataclass(frozen=True, eq=False)
class PaneImage:
    """One matrix as a pane paints it at one reduction.

    ``shown`` is what the image stands for: the matrix or its block means, non-finite
    cells as NaN, clipped into ``levels`` (hover never reads it: it reads the result).
    ``pixels`` are its colours (``map_to_rgb32``: ``map_to_rgba``'s, as the figures and the value
    labels' colours use) as ``h × w × 4`` bytes in ``RGB32_ORDER``, C-contiguous: a
    ``QImage`` wraps them without a copy. ``mask`` is the RGBA layer of the non-finite
    cells (grey masked, magenta overflowed), ``None`` when every shown cell is finite.
    """

    factors: tuple[int, int]
    levels: tuple[float, float]
    shown: np.ndarray
    pixels: np.ndarray
    mask: np.ndarray | None


def prepare_image(data: np.ndarray, lut: np.ndarray, levels: tuple[float, float],
                  factors: tuple[int, int], rgba: np.ndarray | None = None) -> PaneImage:
    """``data`` reduced by ``factors`` (``display_factors``) and coloured on ``levels``.

    ``rgba`` is ``map_to_rgba(data, lut, levels)`` when the caller has it already (the
    value labels' colours of a small matrix); it is used when nothing is reduced.
    """
    shown = block_mean(data, *factors)
    # one min and max say whether anything is non-finite or outside the levels: the
    # usual picture needs no mask, no clip and no check of its own while coloured
    low, high = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 0.0)
    finite = math.isfinite(low) and math.isfinite(high)
    mask = None if finite else nonfinite_rgba(shown)
    if mask is not None:
        shown = np.where(np.isfinite(shown), shown, np.nan)
    reuse = rgba is not None and shown is data
    inside = finite and levels[0] <= low and high <= levels[1]
    if not inside:
        shown = clip_to_levels(shown, levels)
    if reuse:
        pixels = np.ascontiguousarray(rgba[..., RGB32_ORDER])
    else:
        pixels = map_to_rgb32(shown, lut, levels, inside).view(np.uint8).reshape(*shown.shape, 4)
    return PaneImage(tuple(factors), tuple(levels), shown, pixels, mask)


_IMAGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""result → {(pane, head, factors): PaneImage}; a result's pictures go with it."""
_IMAGES_LOCK = threading.Lock()  # the worker prepares while the GUI thread looks up


def _image_key(result: ModelResult, key: str, head: int) -> tuple[str, int]:
    return key, 0 if key in HEAD_INDEPENDENT else result.state.head_index(head)


def pane_image(result: ModelResult, key: str, head: int,
               pixels: tuple[float, float]) -> PaneImage:
    """Pane ``key``'s picture of ``result`` for ``head`` in a plot of ``pixels``
    (height, width): made once per reduction and kept with the result (any thread)."""
    data = pane_matrix(result, key, head)
    factors = display_factors(data.shape, pixels)
    made = prepared_image(result, key, head, factors)
    if made is not None:
        return made
    image = prepare_image(data, lut_for(key), levels_for(key, data), factors)
    with _IMAGES_LOCK:
        _IMAGES.setdefault(result, {})[(*_image_key(result, key, head), factors)] = image
    return image


def prepared_image(result: ModelResult, key: str, head: int,
                   factors: tuple[int, int] | None = None) -> PaneImage | None:
    """The picture already made of pane ``key`` of ``result`` for ``head`` at ``factors``
    (``None``: at any reduction, the latest made), or ``None``; never makes one."""
    name = _image_key(result, key, head)
    with _IMAGES_LOCK:
        images = _IMAGES.get(result, {})
        if factors is not None:
            return images.get((*name, tuple(factors)))
        found = [image for k, image in images.items() if k[:2] == name]
    return found[-1] if found else None
