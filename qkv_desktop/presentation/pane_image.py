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

import collections
import math
import threading
import weakref
from dataclasses import dataclass

import numpy as np

from qkv_desktop.presentation.colormaps import (
    MASKED_RGBA,
    OVERFLOW_RGBA,
    RGB32_ORDER,
    SEQUENTIAL_MATRICES,
    clip_to_levels,
    levels_for,
    lut_for,
    map_to_rgb32,
    max_abs_finite,
    rgba_word,
)
from qkv_desktop.presentation.pane_info import pane_matrix
from qkv_desktop.state.catalogue import HEAD_INDEPENDENT
from qkv_desktop.state.compute import ModelResult
from qkv_desktop.state.cow_matrix import made_from

__all__ = ["FULL_RESOLUTION", "display_factors", "block_mean", "block_means_and_top",
           "nonfinite_rgba",
           "MASKED_RGBA", "OVERFLOW_RGBA", "PaneImage", "prepare_image", "pane_image",
           "prepared_image", "recolour_cells", "RGB32_ORDER", "RowsReduced", "keep_reduced"]


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

    Each block is summed in order, first cell first (row k of every block, then row
    k + 1…). Rows of a C-contiguous matrix of two or more columns: one ``np.add.reduce``
    over the blocks' middle axis, which adds in that order, in one pass (half the time
    of ``factor`` whole-array additions into the sums); of a single column NumPy would
    make the blocks its inner loop and add them pairwise, in another order (found by
    the tests' random matrices). Otherwise ``factor`` additions of strided
    views, which stream through memory; ``np.add.reduceat`` over the same blocks is
    several times slower, and a reduction along a contiguous axis adds pairwise, in
    another order.
    """
    if factor == 1:
        return a
    n = a.shape[axis]
    counts = np.minimum(factor, n - np.arange(0, n, factor)).astype(a.dtype)
    full = n - n % factor
    if axis == 0 and a.flags.c_contiguous and full and a.shape[1] > 1:
        sums = np.empty((-(-n // factor), a.shape[1]), a.dtype)
        np.add.reduce(a[:full].reshape(full // factor, factor, a.shape[1]), axis=1,
                      out=sums[:full // factor])
        if full < n:  # the last, shorter block
            last = sums[-1]
            last[:] = a[full]
            for k in range(full + 1, n):
                last += a[k]
        sums /= counts[:, None]
        return sums
    view = (lambda k: a[k::factor]) if axis == 0 else (lambda k: a[:, k::factor])
    sums = view(0).copy()
    for k in range(1, factor):
        part = view(k)
        if axis == 0:
            sums[:part.shape[0]] += part
        else:
            sums[:, :part.shape[1]] += part
    sums /= counts[:, None] if axis == 0 else counts[None, :]
    return sums


def block_mean(data: np.ndarray, fy: int, fx: int) -> np.ndarray:
    """Means of ``fy``×``fx`` blocks (the last row/column of blocks may be smaller).

    A block with a −inf cell (causal mask) is −inf and one with a NaN is NaN, so masked
    and overflowed regions stay visible after the reduction. The result is a new
    array of ``data``'s dtype; ``data`` itself is returned when nothing is reduced.
    """
    return block_means_and_top(data, fy, fx, top=False)[0]


_BAND_BYTES = 1 << 21
"""The rows of ``data`` reduced at a time: about two megabytes, so that the block means
and the largest |value| read them from the cache (L3 here), not from memory. Larger
than a core's L2 (1 MB on the 2-core machine) on purpose: each band is a dozen NumPy
calls, 20–40 µs of Python and short passes, and halving the band cost more than the L2
hits gave. Measured (CPU, whole matrices): 2048 × 2048 at 7 × 7, 4.8 ms with 1 MB
bands, 4.3–4.4 with 2 MB, 5.9 with 512 KB; 1024 × 1024 at 4 × 4, 0.81 → 0.75; one
128 × 2048 range of the forward (``RowsReduced.add``), 395 → 350 µs."""

_SCRATCH = threading.local()
"""Each thread's buffer for a band's row means (``_scratch``): the row threads of a
forward reduce ranges at the same time, and a fresh buffer per range costs its pages."""


def _scratch(rows: int, cols: int, dtype) -> np.ndarray:
    """A ``rows × cols`` buffer of ``dtype`` of this thread's own, reused (its contents
    are not kept: the caller overwrites it)."""
    dtype = np.dtype(dtype)
    kept = getattr(_SCRATCH, "buffers", None)
    if kept is None:
        kept = _SCRATCH.buffers = {}
    flat = kept.get(dtype)
    if flat is None or flat.size < rows * cols:
        flat = kept[dtype] = np.empty(max(rows * cols, 1), dtype)
    return flat[:rows * cols].reshape(rows, cols)


def _means_into(rows: np.ndarray, fy: int, fx: int, out: np.ndarray) -> None:
    """``block_mean(rows, fy, fx)`` written into ``out``, the same bits (``rows`` begins
    a block row; its last block row may be shorter).

    The sums of ``_mean_along`` in the same order, with no array made per call: the fy
    rows of each block row are added in one ``np.add.reduce`` over the blocks' middle
    axis into this thread's scratch (or straight into ``out`` when no columns are
    averaged), divided by fy, then the fx columns by ``np.add`` of strided views straight
    into ``out``, the first two in one call. A 128 × 1024 range at 4 × 4, read from L3:
    123 µs → 98 (the counts' arrays, the sums' copies and the result's copy into the
    picture were a third of it).
    """
    h, m = rows.shape
    if not (rows.flags.c_contiguous and m > 1):  # a column, or a view of columns
        out[...] = _mean_along(_mean_along(rows, fy, 0), fx, 1)
        return
    kind = rows.dtype.type
    whole = h // fy
    if fy == 1:
        means = rows
    else:
        means = out if fx == 1 else _scratch(-(-h // fy), m, rows.dtype)
        if whole:
            sums = means[:whole]
            np.add.reduce(rows[:whole * fy].reshape(whole, fy, m), axis=1, out=sums)
            sums /= kind(fy)
        if whole * fy < h:  # the last, shorter block row
            last = means[whole]
            last[:] = rows[whole * fy]
            for k in range(whole * fy + 1, h):
                last += rows[k]
            last /= kind(h - whole * fy)
    if fx == 1:
        return
    cols = m // fx
    full, sums = cols * fx, out[:, :cols]
    if cols:
        np.add(means[:, 0:full:fx], means[:, 1:full:fx], out=sums)
        for k in range(2, fx):
            sums += means[:, k:full:fx]
        sums /= kind(fx)
    if full < m:  # the last, narrower block column
        last = out[:, cols]
        last[:] = means[:, full]
        for k in range(full + 1, m):
            last += means[:, k]
        last /= kind(m - full)


def _reduce_bands(data: np.ndarray, fy: int, fx: int, out: np.ndarray, top: bool
                  ) -> float | None:
    """``block_mean(data, fy, fx)`` into ``out`` and, with ``top``, ``max_abs_finite(data)``,
    band by band (``block_means_and_top``)."""
    n, m = data.shape
    band = max(1, _BAND_BYTES // max(1, m * data.itemsize * fy)) * fy
    largest = 0.0
    with np.errstate(invalid="ignore", over="ignore"):
        for r0 in range(0, n, band):
            rows = data[r0:r0 + band]
            means = out[r0 // fy:r0 // fy + -(-rows.shape[0] // fy)]
            _means_into(rows, fy, fx, means)
            if top:  # a block mean is finite only if its cells are
                finite = bool(np.isfinite(means.min()) and np.isfinite(means.max()))
                largest = max(largest, max_abs_finite(rows, finite))
    return largest if top else None


def block_means_and_top(data: np.ndarray, fy: int, fx: int, top: bool = True,
                        out: np.ndarray | None = None) -> tuple[np.ndarray, float | None]:
    """``block_mean(data, fy, fx)`` and, with ``top``, ``max_abs_finite(data)`` (the
    largest |value| of a finite cell: the colour levels' end), reading ``data`` from
    memory once.

    A pane's picture of a large matrix needs both: as separate reductions they read an
    n × n matrix from memory three times (block means, minimum, maximum), most of a
    picture's cost (issue 20). Here bands of a whole number of block rows, each about
    ``_BAND_BYTES``, are reduced one after the other, each band's extent taken while
    it is in the cache (and, when its block means say it holds a non-finite cell, not
    its minimum and maximum, which would say nothing). Every block mean is the same sum
    in the same order as over the whole matrix, so the same bits. ``None`` for the
    largest |value| without ``top``. ``out``: the block means are written there (a
    ``RowsReduced``'s picture), and it is returned.
    """
    if data.ndim != 2 or not data.size or (fy == 1 and fx == 1):
        largest = max_abs_finite(data) if top else None
        shown = data if fy == fx == 1 else _whole(data, fy, fx)
        if out is not None:
            out[...] = shown
            shown = out
        return shown, largest
    n, m = data.shape
    if out is None:
        out = np.empty((-(-n // fy), -(-m // fx)), data.dtype)
    return out, _reduce_bands(data, fy, fx, out, top)


class RowsReduced:
    """``block_means_and_top`` of a matrix made range by range while its rows are being
    computed: the core's row threads hand each finished range to ``add`` (its
    ``on_rows``) while the range is in their cache, and the forward's other ranges run
    on the other cores meanwhile. A block row that straddles two ranges is reduced by
    the ``add`` of whichever of them comes second, when all its rows are final; after
    the forward ``finish`` returns what ``block_means_and_top`` returns for the whole
    matrix, bit for bit: each block row is the same sums in the same order (the bands
    of ``block_means_and_top`` are cut the same way), and the largest |value| is the
    largest of the ranges'.

    At n = 2048 the three n × n pictures took 15–20 ms of CPU after the forward, read
    from memory, before the result could be shown (issue 20). The straddling block rows
    were then still reduced in ``finish``, after the forward on one thread: 128-row
    ranges and 7-row blocks straddle at every border, 45 block rows, about 1.2 ms of
    the 3.5 ms of pictures after an n = 2048 forward.
    """

    def __init__(self, shape: tuple[int, int], dtype, factors: tuple[int, int], top: bool):
        self.shape, self.factors, self.top = tuple(shape), tuple(factors), top
        fy, fx = factors
        blocks = -(-shape[0] // fy)
        self._shown = np.empty((blocks, -(-shape[1] // fx)), dtype)
        self._done = np.zeros(blocks, bool)
        self._filled: dict[int, int] = {}  # straddling block row → its rows added so far
        self._lock = threading.Lock()
        self._ranges: list[tuple[int, int, float | None]] = []  # appended by any thread
        self.source: np.ndarray | None = None
        """The matrix the ranges came from (``finish`` refuses another)."""

    def add(self, data: np.ndarray, r0: int, r1: int) -> None:
        """Rows ``r0:r1`` of ``data`` are final: reduce its block rows that lie inside
        them (any thread; the ranges of one matrix must not overlap)."""
        self.source = data
        fy, fx = self.factors
        n = self.shape[0]
        b0, b1 = -(-r0 // fy), (r1 // fy if r1 < n else len(self._done))
        a, b = min(b0 * fy, r1), max(min(b1 * fy, n), r0)  # the rows of whole block rows
        top = 0.0 if self.top else None
        if b1 > b0:  # the block means and the largest |value|, band by band in cache
            top = block_means_and_top(data[a:b], fy, fx, self.top, out=self._shown[b0:b1])[1]
            self._done[b0:b1] = True
        if self.top:  # the rows of block rows across a border: their largest |value|
            with np.errstate(invalid="ignore"):
                for rows in (data[r0:a], data[b:r1]):
                    if rows.size:
                        top = max(top, max_abs_finite(rows))
        for block in self._straddled(r0, r1):  # this range made its last rows final
            self._shown[block:block + 1] = _block_row(data, block, fy, fx)
            self._done[block] = True
        self._ranges.append((r0, r1, top))

    def _straddled(self, r0: int, r1: int) -> list[int]:
        """The block rows that rows ``r0:r1`` share with another range and that have all
        their rows now (counted under the lock: exactly one ``add`` finds each)."""
        fy, n = self.factors[0], self.shape[0]
        complete = []
        with self._lock:
            for block in sorted({r0 // fy, (r1 - 1) // fy}):
                start, end = block * fy, min(block * fy + fy, n)
                if r0 <= start and end <= r1:
                    continue  # a whole block row of this range: reduced with its bands
                rows = self._filled.get(block, 0) + min(end, r1) - max(start, r0)
                self._filled[block] = rows
                if rows == end - start:
                    complete.append(block)
        return complete

    def finish(self, data: np.ndarray) -> tuple[np.ndarray, float | None] | None:
        """``block_means_and_top(data, *factors, top)``, from the ranges added and the
        block rows between them; ``None`` unless every row of ``data`` was added."""
        if data is not self.source or data.shape != self.shape or \
                sum(r1 - r0 for r0, r1, _t in self._ranges) != self.shape[0]:
            return None
        fy, fx = self.factors
        missing = np.flatnonzero(~self._done)
        for b in missing:  # none, unless an ``add`` failed part way
            self._shown[b:b + 1] = _block_row(data, b, fy, fx)
        top = max([0.0, *(t for _r0, _r1, t in self._ranges)]) if self.top else None
        return self._shown, top


def _block_row(data: np.ndarray, b: int, fy: int, fx: int) -> np.ndarray:
    """Block row ``b`` of ``block_mean(data, fy, fx)`` (one row), the same bits."""
    return block_means_and_top(data[b * fy:min(b * fy + fy, data.shape[0])], fy, fx,
                               top=False)[0]


EDITED_KEYS = frozenset({"X", "X_kv"})
"""Panes whose matrix an edit makes as an edited copy of the last (``cow_matrix``)."""

_KEPT_EDITABLE = 4
"""The newest editable matrices whose block means are kept for their next edit."""
_EDITABLE: collections.OrderedDict = collections.OrderedDict()
"""id(matrix) → (a weak reference to it, {(factors, top): (block means, largest |value|)})."""


def _edited_means(data: np.ndarray, factors: tuple[int, int], top: bool
                  ) -> tuple[np.ndarray, float | None] | None:
    """``block_means_and_top(data, *factors, top)`` from the block means of the matrix
    ``data`` is an edited copy of (``cow_matrix.made_from``), when kept: only the block
    rows holding an edited cell are reduced again (the others are the same cells, so
    the same bits), and the largest |value| follows the edited cells unless one of
    them held it. At n = 2048 × 768 the X pane's picture read all of X after every edit,
    4 ms of the forward's worker after the forward (issue 20)."""
    made = made_from(data)
    if made is None:
        return None
    parent, (rows, cols) = made
    with _IMAGES_LOCK:
        kept = _EDITABLE.get(id(parent))
        before = None if kept is None or kept[0]() is not parent else kept[1].get((factors, top))
    if before is None:
        return None
    shown, largest = before
    shown = shown.copy()
    fy, fx = factors
    for b in sorted(set((np.asarray(rows) // fy).tolist())):
        shown[b:b + 1] = _block_row(data, b, fy, fx)
    if top:
        old = np.abs(parent[rows, cols])
        if not np.isfinite(old).all() or (old.size and float(old.max()) >= largest):
            largest = max_abs_finite(data)  # an edited cell held the largest: look again
        else:
            largest = max(largest, max_abs_finite(data[rows, cols]))
    return shown, largest


def _keep_editable(data: np.ndarray, factors, top: bool, means) -> None:
    """Keep ``means`` (the block means and largest |value| of ``data``) for its next edit."""
    key = id(data)
    with _IMAGES_LOCK:
        kept = _EDITABLE.get(key)
        if kept is None or kept[0]() is not data:
            kept = (weakref.ref(data), {})
        kept[1][factors, top] = means
        _EDITABLE[key] = kept
        _EDITABLE.move_to_end(key)
        while len(_EDITABLE) > _KEPT_EDITABLE:
            _EDITABLE.popitem(last=False)


_REDUCED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""result → {(pane, head, factors): RowsReduced} gathered during its forward."""


def keep_reduced(result: ModelResult, key: str, head: int, reduced: RowsReduced) -> None:
    """``reduced`` (gathered while ``result``'s forward ran) is pane ``key``'s block means
    for ``head``: ``pane_image`` starts from it instead of reading the matrix again."""
    with _IMAGES_LOCK:
        _REDUCED.setdefault(result, {})[(*_image_key(result, key, head),
                                         reduced.factors)] = reduced


def _whole(data: np.ndarray, fy: int, fx: int) -> np.ndarray:
    """Block means of a matrix ``block_means_and_extent`` does not cut into bands."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _mean_along(np.ascontiguousarray(_mean_along(data, fy, 0)), fx, 1)


_MASKED_RGB32 = np.asarray(MASKED_RGBA, np.uint8)[RGB32_ORDER].view(np.uint32)[0]
"""The mask's grey as one ``Format_RGB32`` word (written per cell in one ``copyto``)."""


def nonfinite_rgba(shown: np.ndarray) -> np.ndarray | None:
    """An RGBA layer painting −inf cells grey and inf/NaN cells magenta; None if all finite.

    Written as one 4-byte word per cell (``np.copyto`` with ``where``): assigning an
    RGBA tuple to the cells a boolean array picks copied four bytes per cell through
    fancy indexing: 1.04 ms for the 256 × 256 picture of causal scaled scores, more
    than its colours (issue 20); now 78 µs."""
    bad = ~np.isfinite(shown)
    if not bad.any():
        return None
    words = np.zeros(shown.shape, np.uint32)
    np.copyto(words, rgba_word(OVERFLOW_RGBA), where=bad)
    np.copyto(words, rgba_word(MASKED_RGBA), where=shown == -np.inf)
    return words.view(np.uint8).reshape(*shown.shape, 4)


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
                  factors: tuple[int, int], rgba: np.ndarray | None = None,
                  shown: np.ndarray | None = None) -> PaneImage:
    """``data`` reduced by ``factors`` (``display_factors``) and coloured on ``levels``.

    ``rgba`` is ``map_to_rgba(data, lut, levels)`` when the caller has it already (the
    value labels' colours of a small matrix); it is used when nothing is reduced.
    ``shown`` is ``block_mean(data, *factors)`` when the caller has made it already.
    """
    if shown is None:
        shown = block_mean(data, *factors)
    # one min and max say whether anything is non-finite or outside the levels: the
    # usual picture needs no mask, no clip and no check of its own while coloured
    low, high = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 0.0)
    finite = math.isfinite(low) and math.isfinite(high)
    mask = None if finite else nonfinite_rgba(shown)
    masked = None
    if mask is not None:
        masked = shown == -np.inf
        shown = np.where(np.isfinite(shown), shown, np.nan)
    reuse = rgba is not None and shown is data
    inside = finite and levels[0] <= low and high <= levels[1]
    if not inside:
        shown = clip_to_levels(shown, levels)
    if reuse:
        pixels = np.ascontiguousarray(rgba[..., RGB32_ORDER])
    else:
        pixels = map_to_rgb32(shown, lut, levels, inside).view(np.uint8).reshape(*shown.shape, 4)
    if masked is not None and masked.any():
        # under the mask layer a masked cell's own colour is the mask's grey too, not
        # the magenta NaN takes: where the two layers' edges fall a pixel apart, a
        # 1-px magenta line (the overflow colour) showed beside a masked cell
        np.copyto(pixels.view(np.uint32)[..., 0], _MASKED_RGB32, where=masked)
    return PaneImage(tuple(factors), tuple(levels), shown, pixels, mask)


def recolour_cells(image: PaneImage | None, data: np.ndarray, lut: np.ndarray,
                   levels: tuple[float, float], blocks) -> PaneImage | None:
    """``prepare_image(data, lut, levels, (1, 1))`` made from ``image``, the picture of a
    matrix that differs from ``data`` only in ``blocks`` (``(row, rows, col, cols)``
    each): its pixels copied and those blocks coloured anew, the same colours as the
    whole matrix coloured (the one colour rule, cell by cell). An edit of X changes a
    row of Q and a row and a column of the scores; colouring all 65,536 cells of a
    256 × 256 matrix again was most of a pane's work on the GUI thread (issue 20).
    None when that picture cannot be reused: none, another shape, levels or
    reduction, non-finite cells, or cells outside the levels."""
    if (image is None or image.factors != (1, 1) or tuple(image.levels) != tuple(levels)
            or image.mask is not None or image.pixels.shape[:2] != data.shape):
        return None
    low, high = (float(data.min()), float(data.max())) if data.size else (0.0, 0.0)
    if not (math.isfinite(low) and math.isfinite(high) and levels[0] <= low
            and high <= levels[1]):
        return None  # a mask or a clip: the whole picture is made again
    words = image.pixels.view(np.uint32).reshape(data.shape).copy()
    for row, rows, col, cols in blocks:
        words[row:row + rows, col:col + cols] = map_to_rgb32(
            data[row:row + rows, col:col + cols], lut, levels, inside=True)
    pixels = words.view(np.uint8).reshape(*data.shape, 4)
    return PaneImage((1, 1), tuple(levels), data, pixels, None)


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
    top = key not in SEQUENTIAL_MATRICES
    with _IMAGES_LOCK:
        reduced = _REDUCED.get(result, {}).pop((*_image_key(result, key, head), factors), None)
    done = None if reduced is None or reduced.top != top else reduced.finish(data)
    edited = key in EDITED_KEYS and factors != (1, 1)
    if done is None and edited:
        done = _edited_means(data, factors, top)
    # else the block means and the colour levels' end in one pass over the matrix
    shown, largest = done if done is not None else block_means_and_top(data, *factors, top=top)
    if edited:
        _keep_editable(data, factors, top, (shown, largest))
    top = largest
    image = prepare_image(data, lut_for(key), levels_for(key, data, top), factors,
                          shown=shown)
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
