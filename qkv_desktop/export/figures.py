"""Publication-quality heatmap figures: one QPainter routine for PNG, SVG and PDF.

A figure is laid out once (``layout_figure``: geometry in points, 1 unit = 1 pt = 1 px
at scale 1) and painted by ``paint_figure`` onto whatever device the target needs: a
``QImage`` for PNG, a ``QSvgGenerator`` for SVG (every cell an SVG ``<rect>``, every
label and number a selectable ``<text>``) and a ``QPdfWriter`` for PDF (vector, text as
real text). Sharing the layout and the painting code is what makes the three files show
the same picture. Colours come from ``qkv_desktop.presentation.colormaps``, so a figure matches
the pane it was exported from.

Only QtGui/QtSvg are used, but a ``QGuiApplication`` must exist (font metrics need
one), e.g. under ``QT_QPA_PLATFORM=offscreen``; no widgets are involved.

Matrices with more than ``RASTER_CELLS`` cells draw their cell block as one
nearest-neighbour image (in SVG an ``<image>`` with ``image-rendering="optimizeSpeed"``)
so that a 512×512 figure stays small and fast; its title, labels and colour bar stay
vector. Cell values follow ``presentation.numbers`` (four decimals below 10⁴, then
four significant digits); a figure has room, so its cells grow until the widest value
fits rather than dropping digits. Matrices too large for numbers (over 34 a side) show
colours only, and their axis labels are thinned to every 2nd, 5th, 10th… row or column.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import (
    QBuffer,
    QCoreApplication,
    QIODevice,
    QLineF,
    QMarginsF,
    QPointF,
    QRectF,
    QSize,
    QSizeF,
    Qt,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
)
from PySide6.QtSvg import QSvgGenerator

from qkv_desktop.export.figure_fonts import FAMILIES, figure_font, svg_with_fallbacks
from qkv_desktop.io.files import atomic_write_bytes
from qkv_desktop.presentation.colormaps import (
    BOOLEAN_BAR_RANGE,
    HATCH_RGBA,
    MASKED_RGBA,
    OVERFLOW_RGBA,
    levels_for,
    lut_for,
    map_to_rgba,
    text_color_for,
)
from qkv_desktop.presentation.numbers import (
    LABEL_PAD,
    format_values,
    with_minus,
)
from qkv_desktop.presentation.pane_info import values_are_boolean
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text

__all__ = ["FORMATS", "FONT_FAMILIES", "RASTER_CELLS", "MAX_SCALE", "MAX_PIXELS",
           "FigureSpec", "FigureLayout", "DashboardLayout", "layout_figure",
           "layout_dashboard", "paint_figure", "paint_dashboard", "save_figure",
           "save_dashboard", "figure_image", "figure_bytes", "dashboard_bytes",
           "encode_layout", "encode_painting", "format_for", "check_scale", "check_background",
           "check_png_size", "ImageTooLarge"]

FORMATS = ("png", "svg", "pdf")
"""Image formats a figure can be saved in."""

FONT_FAMILIES = FAMILIES
"""Font families of figure text: the bundled faces (see ``figure_fonts``)."""

RASTER_CELLS = 128 * 128
"""Above this many cells the cell block is one embedded image instead of one rect per cell."""

MAX_SCALE = 10.0
"""Largest PNG scale factor accepted."""

MAX_PIXELS = 120_000_000
"""Largest PNG (width × height in pixels) a save will allocate."""


# Geometry, in points.
_MARGIN = 12.0
_TITLE_PX = 14
_LABEL_PX = 11
_CAPTION_PX = 10
_TICK_PX = 10
_VALUE_PX = 11
_VALUE_MIN_CELL = 14.0
"""Cells of a matrix this small (more than 34 a side) show colours only."""
_GRID_TARGET = 480.0
_CELL_MAX = 52.0
_GAP_MIN_CELL = 12.0
_MAX_LABEL_W = 110.0
_LABEL_PAD = 5.0
_CAPTION_GAP = 4.0
"""Points between an axis caption ("query", "key") and the labels it names: its
descenders face them (2 pt read as touching 老鼠)."""
_CBAR_GAP = 14.0
_CBAR_W = 12.0
_CBAR_MIN_H = 110.0
_TICK_LEN = 4.0
_HATCH_STEP = 5.0
_SPACING = 20.0
_DASHBOARD_TITLE_PX = 18

_INK = QColor(34, 34, 34)
_MUTED = QColor(100, 100, 100)
_FRAME = QColor(85, 85, 85)
_MASKED_FILL = QColor(*MASKED_RGBA)
_HATCH = QColor(*HATCH_RGBA)
_NONFINITE = QColor(*OVERFLOW_RGBA)

_LEFT_MIDDLE = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_RIGHT_MIDDLE = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_CENTER = Qt.AlignmentFlag.AlignCenter


_font = figure_font


@dataclass(frozen=True, eq=False)
class FigureSpec:
    """What to draw: one named matrix with its title and axis labels.

    Parameters
    ----------
    name : str
        The figure's name (e.g. the file name ``"q"``).
    title : str
        Shown above the heatmap.
    data : array (n, m)
        The values.
    row_labels, col_labels : sequences of str
        One label per row / column (tokens or dimension indices).
    show_values : bool
        Print each value in its cell (``presentation.numbers.format_value``) unless the
        matrix is too large for numbers.
    masked : bool array (n, m), optional
        Masked cells (e.g. the causal mask's ``-inf``): grey, hatched, no number.
    row_axis, col_axis : str
        Short axis captions such as "query" or "dimension" ("" for none).
    masked_label, nonfinite_label : str, optional
        Legend texts; translated defaults when omitted.
    colormap : str, optional
        The matrix key that picks colours and levels in ``presentation.colormaps``
        (``"weights"`` is sequential on [0, 1], the rest diverging); ``name`` if omitted.
    """

    name: str
    title: str
    data: np.ndarray
    row_labels: Sequence[str]
    col_labels: Sequence[str]
    show_values: bool = True
    masked: np.ndarray | None = None
    row_axis: str = ""
    col_axis: str = ""
    masked_label: str | None = None
    nonfinite_label: str | None = None
    colormap: str | None = None

    @property
    def cmap(self) -> str:
        return self.colormap or self.name

    def __post_init__(self) -> None:
        data = np.asarray(self.data)
        if data.ndim != 2 or data.dtype.kind not in "fiu" or 0 in data.shape:
            raise ValueError(f"figure {self.name!r}: data must be a non-empty 2-D numeric "
                             f"matrix, got shape {data.shape} ({data.dtype})")
        object.__setattr__(self, "data", data)
        n, m = data.shape
        if len(self.row_labels) != n:
            raise ValueError(f"figure {self.name!r}: {len(self.row_labels)} row labels for "
                             f"{n} rows")
        if len(self.col_labels) != m:
            raise ValueError(f"figure {self.name!r}: {len(self.col_labels)} column labels "
                             f"for {m} columns")
        if self.masked is not None:
            masked = np.asarray(self.masked, dtype=bool)
            if masked.shape != data.shape:
                raise ValueError(f"figure {self.name!r}: mask shape {masked.shape} differs "
                                 f"from data shape {data.shape}")
            object.__setattr__(self, "masked", masked)


@dataclass(frozen=True)
class _Text:
    rect: QRectF
    text: str
    align: Qt.AlignmentFlag


@dataclass(eq=False)
class FigureLayout:
    """Where everything of one figure goes (points, origin top-left).

    ``rgba`` holds the cell colours, ``white`` which cell numbers are printed white,
    ``values`` the printed numbers (None when the cells are too small for them).
    ``col_labels`` pairs each shown column with its text; when ``cols_rotated`` the text
    rect is in a frame rotated by −90° around the column's top centre. ``row_caption``
    is drawn rotated by −90° around its origin point. ``cell`` is a cell's width and
    ``cell_h`` its height: equal, except that colour-only rows of a flat matrix (X is
    n×d_model) grow to fit their labels and the row caption.
    """

    spec: FigureSpec
    width: float
    height: float
    title: _Text
    grid: QRectF
    cell: float
    cell_h: float
    gap: float
    raster: bool
    rgba: np.ndarray
    white: np.ndarray
    masked: np.ndarray
    nonfinite: np.ndarray
    values: list[list[str]] | None
    value_font: QFont | None
    row_step: int
    col_step: int
    row_labels: list[_Text]
    col_labels: list[tuple[int, _Text]]
    cols_rotated: bool
    row_caption: tuple[QPointF, _Text] | None
    col_caption: _Text | None
    cbar: QRectF
    levels: tuple[float, float]
    ticks: list[tuple[float, _Text]]
    legend: list[tuple[str, QRectF, _Text]]


@dataclass(eq=False)
class DashboardLayout:
    """Several figure layouts in a grid under one overall title."""

    width: float
    height: float
    title: _Text | None
    figures: list[tuple[QPointF, FigureLayout]]


# -- formatting ----------------------------------------------------------------

def _tick_text(value: float, decimals: int) -> str:
    """A colour-bar tick: ``decimals`` digits (those of its round step), typographic minus."""
    if abs(value) >= 1e6 or decimals > 6:  # keep labels short: 1.2e+07, 3e-08
        text = f"{value:.3g}"
    else:
        text = f"{value:.{decimals}f}"
        if text.startswith("-") and float(text) == 0:
            text = text[1:]
    return with_minus(text)


def _nice_ticks(lo: float, hi: float) -> tuple[list[float], int]:
    """About five round tick values within [lo, hi] and the decimals to print them."""
    raw = hi / 4 - lo / 4  # not (hi - lo) / 4, which overflows near the float maximum
    base = 10.0 ** math.floor(math.log10(raw))
    factor = next(c for c in (1.0, 2.0, 2.5, 5.0, 10.0) if c * base >= raw * (1 - 1e-9))
    step = factor * base
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    ticks = [0.0 if k == 0 else k * step for k in range(first, last + 1)]
    decimals = max(0, -math.floor(math.log10(step) + 1e-12)) + (1 if factor == 2.5 else 0)
    return ticks, decimals


def _nice_step(step: int) -> int:
    """The smallest 1-2-5 number ≥ ``step``, so thinned labels sit on round indices."""
    if step <= 1:
        return 1
    base = 10 ** math.floor(math.log10(step))
    return next(c * base for c in (1, 2, 5, 10) if c * base >= step)


def _rgba(color: QColor) -> tuple[int, int, int, int]:
    return color.red(), color.green(), color.blue(), 255


# -- layout --------------------------------------------------------------------

def _require_app() -> None:
    if not isinstance(QCoreApplication.instance(), QGuiApplication):
        raise RuntimeError("figures need a QGuiApplication (for font metrics); create one "
                           "first, e.g. with qkv_desktop.export.render.ensure_gui_app()")


def _cell_values(data: np.ndarray, masked: np.ndarray, cell: float, gap: float,
                 boolean: bool = False) -> tuple[list[list[str]], QFont, float]:
    """The printed numbers, their font and the cell size they need (``boolean``: the
    values written 1 and 0, as the live pane writes the mask's).

    A figure has room: its numbers keep the full size, and the cells grow (from
    ``cell``) until the widest number, measured at its real width, fits with
    ``LABEL_PAD`` to spare.
    """
    values = format_values(data, boolean)
    shown = {t for r, row in enumerate(values) for c, t in enumerate(row) if not masked[r, c]}
    font = _font(_VALUE_PX)
    fm = QFontMetricsF(font)
    widest = max((fm.horizontalAdvance(t) for t in shown), default=0.0)
    need = math.ceil(max(widest + LABEL_PAD, fm.height()) + gap)
    return values, font, max(cell, float(need))


def _row_height(n: int, cell: float, text_h: float, caption_w: float) -> float:
    """The height of a colour-only row: at least ``cell``, tall enough for its label.

    Cells are square by default, so a wide matrix (X is 7×384) would be a strip a few
    points high with one row label and its axis caption cut. Rows grow to the label
    spacing while the whole grid stays within ``_GRID_TARGET``, and the grid is never
    lower than its row caption (``caption_w``) is long. Whole points keep cell edges on
    pixel edges.
    """
    row_h = max(cell, min(math.ceil(text_h), math.floor(_GRID_TARGET / n)))
    return float(max(row_h, math.ceil(caption_w / n)))


def layout_figure(spec: FigureSpec) -> FigureLayout:
    """Compute the geometry of ``spec``'s figure: sizes, label thinning, colours."""
    _require_app()
    data = np.asarray(spec.data, dtype=np.float64)
    n, m = data.shape
    cell = float(min(_CELL_MAX, max(1, math.floor(_GRID_TARGET / max(n, m)))))
    grid_w, grid_h = m * cell, n * cell
    raster = n * m > RASTER_CELLS
    gap = 1.0 if cell >= _GAP_MIN_CELL and not raster else 0.0

    masked = spec.masked if spec.masked is not None else np.zeros(data.shape, bool)
    nonfinite = ~np.isfinite(data) & ~masked
    levels = levels_for(spec.cmap, data)
    # ±inf as NaN: same grey, without overflow warnings from the colour lookup.
    rgba = map_to_rgba(np.where(np.isfinite(data), data, np.nan), lut_for(spec.cmap), levels)
    rgba[masked] = _rgba(_MASKED_FILL)  # overflowed cells are already OVERFLOW_RGBA
    white = text_color_for(rgba)

    values, value_font = None, None
    if spec.show_values and not raster and cell >= _VALUE_MIN_CELL:
        values, value_font, cell = _cell_values(data, masked, cell, gap,
                                                values_are_boolean(spec.cmap))
        grid_w, grid_h = m * cell, n * cell

    lfm = QFontMetricsF(_font(_LABEL_PX))
    line_h = lfm.height()
    text_h = lfm.capHeight() * 1.6  # how close two labels may sit without touching
    cfm = QFontMetricsF(_font(_CAPTION_PX, italic=True))
    cap_h = cfm.height()

    cell_h = cell
    if values is None:
        cell_h = _row_height(n, cell, text_h, cfm.horizontalAdvance(spec.row_axis) + 4)
        grid_h = n * cell_h
    row_step = _nice_step(math.ceil(text_h / cell_h))
    row_texts = {r: lfm.elidedText(str(spec.row_labels[r]), Qt.TextElideMode.ElideRight,
                                   _MAX_LABEL_W) for r in range(0, n, row_step)}
    row_label_w = max(lfm.horizontalAdvance(t) for t in row_texts.values())

    col_all = [lfm.elidedText(str(t), Qt.TextElideMode.ElideRight, _MAX_LABEL_W)
               for t in spec.col_labels]
    widest_col = max(lfm.horizontalAdvance(t) for t in col_all)
    step_flat = _nice_step(math.ceil((widest_col + 4) / cell))
    step_rot = _nice_step(math.ceil(text_h / cell))
    cols_rotated = step_flat > step_rot
    col_step = step_rot if cols_rotated else step_flat
    col_texts = {c: col_all[c] for c in range(0, m, col_step)}
    # a CJK name's line (a fallback font) is taller than the label font's own
    col_line_h = max(line_h, *(lfm.boundingRect(t).height() for t in col_texts.values()))
    col_label_h = (max(lfm.horizontalAdvance(t) for t in col_texts.values())
                   if cols_rotated else col_line_h)

    tfm = QFontMetricsF(_font(_TITLE_PX, bold=True))
    title_w, title_h = tfm.horizontalAdvance(spec.title), tfm.height()

    lo, hi = levels
    tick_values, tick_decimals = _nice_ticks(lo, hi)
    if values_are_boolean(spec.cmap):  # two swatches, each labelled at its middle
        (lo, hi), tick_values, tick_decimals = BOOLEAN_BAR_RANGE, [0.0, 1.0], 0
    kfm = QFontMetricsF(_font(_TICK_PX))
    tick_texts = [_tick_text(t, tick_decimals) for t in tick_values]
    tick_w = max(kfm.horizontalAdvance(t) for t in tick_texts)

    legend_items = []
    if masked.any():
        legend_items.append(("masked", spec.masked_label
                             or QCoreApplication.translate("Figures", "masked")))
    if nonfinite.any():
        legend_items.append(("nonfinite", spec.nonfinite_label
                             or QCoreApplication.translate("Figures", "non-finite")))
    legend_w = sum(14 + cfm.horizontalAdvance(t) + 14 for _, t in legend_items) - 14

    # Horizontal placement; the content is centred under a title wider than itself.
    # The grid starts on whole points so that cell edges fall on pixel edges in PNGs.
    row_cap_w = (cap_h + _CAPTION_GAP) if spec.row_axis else 0.0
    x_grid = math.ceil(_MARGIN + row_cap_w + row_label_w + _LABEL_PAD)
    x_cbar = x_grid + grid_w + _CBAR_GAP
    content_w = max(x_cbar + _CBAR_W + _TICK_LEN + 3 + tick_w, x_grid + legend_w) + _MARGIN
    width = max(content_w, title_w + 2 * _MARGIN)
    dx = round((width - content_w) / 2)
    x_grid, x_cbar = x_grid + dx, x_cbar + dx

    # Vertical placement.
    y = _MARGIN
    title = _Text(QRectF(0, y, width, title_h), spec.title, _CENTER)
    y += title_h + 6
    col_caption = None
    if spec.col_axis:
        col_caption = _Text(QRectF(x_grid, y, grid_w, cap_h), spec.col_axis, _CENTER)
        y += cap_h + _CAPTION_GAP
    y_grid = math.ceil(y + col_label_h + _LABEL_PAD)
    grid = QRectF(x_grid, y_grid, grid_w, grid_h)
    cbar = QRectF(x_cbar, y_grid, _CBAR_W, max(grid_h, _CBAR_MIN_H))

    row_labels = [_Text(QRectF(x_grid - _LABEL_PAD - row_label_w,
                               y_grid + (r + 0.5) * cell_h - line_h / 2, row_label_w, line_h),
                        t, _RIGHT_MIDDLE) for r, t in row_texts.items()]
    if cols_rotated:
        col_labels = [(c, _Text(QRectF(_LABEL_PAD, -line_h / 2, col_label_h, line_h), t,
                                _LEFT_MIDDLE)) for c, t in col_texts.items()]
    else:
        w = cell * col_step
        col_labels = [(c, _Text(QRectF(x_grid + (c + 0.5) * cell - w / 2,
                                       y_grid - _LABEL_PAD - col_line_h, w, col_line_h), t,
                                _CENTER))
                      for c, t in col_texts.items()]
    row_caption = None
    if spec.row_axis:
        origin = QPointF(x_grid - _LABEL_PAD - row_label_w - _CAPTION_GAP - cap_h, grid.bottom())
        row_caption = (origin, _Text(QRectF(0, 0, grid_h, cap_h), spec.row_axis, _CENTER))

    ticks = []
    for value, text in zip(tick_values, tick_texts, strict=True):
        ty = cbar.bottom() - (value - lo) / (hi - lo) * cbar.height()
        ticks.append((ty, _Text(QRectF(cbar.right() + _TICK_LEN + 3, ty - line_h / 2,
                                       tick_w + 2, line_h), text, _LEFT_MIDDLE)))

    bottom = max(grid.bottom(), cbar.bottom() + line_h / 2) + 8
    legend = []
    lx = x_grid
    for kind, text in legend_items:
        tw = cfm.horizontalAdvance(text)
        legend.append((kind, QRectF(lx, bottom + (cap_h - 10) / 2, 10, 10),
                       _Text(QRectF(lx + 14, bottom, tw + 2, cap_h), text, _LEFT_MIDDLE)))
        lx += 14 + tw + 14
    height = bottom + (cap_h if legend else 0.0) + _MARGIN - (0 if legend else 8)

    return FigureLayout(spec, math.ceil(width), math.ceil(height), title, grid, cell, cell_h, gap,
                        raster, rgba, white, masked, nonfinite, values, value_font,
                        row_step, col_step, row_labels, col_labels, cols_rotated,
                        row_caption, col_caption, cbar, levels, ticks, legend)


def layout_dashboard(specs: Sequence[FigureSpec], title: str = "",
                     columns: int = 4) -> DashboardLayout:
    """Lay ``specs`` out ``columns`` to a row, each row packed and centred on its own.

    Packing rows separately (rather than aligning columns to the widest figure) keeps a
    wide X (n×d_model) from leaving holes under the narrower n×n panes.
    """
    if not specs:
        raise ValueError("a dashboard needs at least one figure")
    if columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    layouts = [layout_figure(s) for s in specs]
    rows = [layouts[i:i + columns] for i in range(0, len(layouts), columns)]
    row_w = [sum(f.width for f in row) + _SPACING * (len(row) - 1) for row in rows]
    width = max(row_w) + 2 * _MARGIN

    head = None
    y = _MARGIN
    if title:
        fm = QFontMetricsF(_font(_DASHBOARD_TITLE_PX, bold=True))
        width = max(width, fm.horizontalAdvance(title) + 2 * _MARGIN)
        head = _Text(QRectF(0, y, width, fm.height()), title, _CENTER)
        y = math.ceil(y + fm.height() + 8)
    placed = []  # at whole points, like each figure's grid, for crisp PNG cell edges
    for row, w in zip(rows, row_w, strict=True):
        x = round((width - w) / 2)
        for fig in row:
            placed.append((QPointF(x, y), fig))
            x += fig.width + _SPACING
        y += max(f.height for f in row) + _SPACING
    height = y - _SPACING + _MARGIN
    return DashboardLayout(math.ceil(width), math.ceil(height), head, placed)


# -- painting ------------------------------------------------------------------

def _draw_text(painter: QPainter, item: _Text) -> None:
    painter.drawText(item.rect, int(item.align), item.text)


def _hatch_lines(rect: QRectF, step: float) -> list[QLineF]:
    """45° lines x + y = k·step clipped to ``rect`` by hand.

    A phase shared by all rects lets the hatching of neighbouring masked cells line up;
    clipping analytically instead of with a clip path keeps SVG and PDF output simple
    and identical across renderers.
    """
    x0, y0, x1, y1 = rect.left(), rect.top(), rect.right(), rect.bottom()
    lines = []
    for k in range(math.floor((x0 + y0) / step) + 1, math.ceil((x1 + y1) / step)):
        c = k * step
        xa, xb = max(x0, c - y1), min(x1, c - y0)
        if xb > xa:
            lines.append(QLineF(xa, c - xa, xb, c - xb))
    return lines


def _paint_cells(painter: QPainter, lay: FigureLayout) -> None:
    grid, cell, cell_h, gap = lay.grid, lay.cell, lay.cell_h, lay.gap
    n, m = lay.rgba.shape[:2]
    if lay.raster:
        image = QImage(np.ascontiguousarray(lay.rgba).data, m, n, 4 * m,
                       QImage.Format.Format_RGBA8888).copy()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(grid, image)
        painter.restore()
        return
    painter.setPen(Qt.PenStyle.NoPen)
    colors = {}
    rects = [[QRectF(grid.x() + c * cell + gap / 2, grid.y() + r * cell_h + gap / 2,
                     cell - gap, cell_h - gap) for c in range(m)] for r in range(n)]
    for r in range(n):
        for c in range(m):
            key = tuple(int(v) for v in lay.rgba[r, c])
            color = colors.get(key)
            if color is None:
                color = colors[key] = QColor(*key)
            painter.fillRect(rects[r][c], color)

    hatch_pen = QPen(_HATCH, 0.7)
    hatch_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    hatches = [line for r, c in zip(*np.nonzero(lay.masked), strict=True)
               for line in _hatch_lines(rects[r][c], _HATCH_STEP)]
    if hatches:
        painter.setPen(hatch_pen)
        painter.drawLines(hatches)

    if lay.values is not None:
        painter.setFont(lay.value_font)
        white, black = QColor(255, 255, 255), QColor(0, 0, 0)
        for r in range(n):
            for c in range(m):
                if lay.masked[r, c]:
                    continue
                painter.setPen(white if lay.white[r, c] else black)
                painter.drawText(rects[r][c], int(_CENTER), lay.values[r][c])


def _paint_colorbar(painter: QPainter, lay: FigureLayout) -> None:
    bar, lut = lay.cbar, lut_for(lay.spec.cmap)
    if values_are_boolean(lay.spec.cmap):  # the mask: a swatch for 0 below, one for 1
        low, high = (QColor(*(int(v) for v in lut[i])) for i in (0, -1))
        half = bar.height() / 2
        painter.fillRect(QRectF(bar.left(), bar.top() + half, bar.width(), half), low)
        painter.fillRect(QRectF(bar.left(), bar.top(), bar.width(), half), high)
    else:
        gradient = QLinearGradient(bar.bottomLeft(), bar.topLeft())
        for i in range(0, len(lut), 8):
            gradient.setColorAt(i / (len(lut) - 1), QColor(*(int(v) for v in lut[i])))
        gradient.setColorAt(1.0, QColor(*(int(v) for v in lut[-1])))
        painter.fillRect(bar, gradient)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(_FRAME, 0.6))
    painter.drawRect(bar)
    painter.drawLines([QLineF(bar.right(), y, bar.right() + _TICK_LEN, y) for y, _ in lay.ticks])
    painter.setFont(_font(_TICK_PX))
    painter.setPen(_INK)
    for _, text in lay.ticks:
        _draw_text(painter, text)


def _paint_legend(painter: QPainter, lay: FigureLayout) -> None:
    painter.setFont(_font(_CAPTION_PX, italic=True))
    for kind, swatch, text in lay.legend:
        if kind == "masked":  # hatched like the cells, which the raster block is not
            painter.fillRect(swatch, _MASKED_FILL)
            if not lay.raster:
                painter.setPen(QPen(_HATCH, 0.7))
                painter.drawLines(_hatch_lines(swatch, _HATCH_STEP))
        else:
            painter.fillRect(swatch, _NONFINITE)
        painter.setPen(_MUTED)
        _draw_text(painter, text)


def paint_figure(painter: QPainter, lay: FigureLayout) -> None:
    """Draw the figure of ``lay`` with its top-left corner at the painter's origin.

    The background is left to the caller (white, or nothing for transparent).
    """
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)

    painter.setFont(_font(_TITLE_PX, bold=True))
    painter.setPen(_INK)
    _draw_text(painter, lay.title)

    _paint_cells(painter, lay)
    if lay.gap == 0:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(_FRAME, 0.6))
        painter.drawRect(lay.grid)

    painter.setFont(_font(_LABEL_PX))
    painter.setPen(_INK)
    for item in lay.row_labels:
        _draw_text(painter, item)
    for c, item in lay.col_labels:
        if lay.cols_rotated:
            painter.save()
            painter.translate(lay.grid.x() + (c + 0.5) * lay.cell, lay.grid.y())
            painter.rotate(-90)
            _draw_text(painter, item)
            painter.restore()
        else:
            _draw_text(painter, item)

    painter.setFont(_font(_CAPTION_PX, italic=True))
    painter.setPen(_MUTED)
    if lay.col_caption is not None:
        _draw_text(painter, lay.col_caption)
    if lay.row_caption is not None:
        origin, caption = lay.row_caption
        painter.save()
        painter.translate(origin)
        painter.rotate(-90)
        _draw_text(painter, caption)
        painter.restore()

    _paint_colorbar(painter, lay)
    _paint_legend(painter, lay)
    painter.restore()


def paint_dashboard(painter: QPainter, lay: DashboardLayout) -> None:
    """Draw the dashboard's title and every figure at its place."""
    if lay.title is not None:
        painter.save()
        painter.setFont(_font(_DASHBOARD_TITLE_PX, bold=True))
        painter.setPen(_INK)
        _draw_text(painter, lay.title)
        painter.restore()
    for origin, fig in lay.figures:
        painter.save()
        painter.translate(origin)
        paint_figure(painter, fig)
        painter.restore()


# -- targets -------------------------------------------------------------------

def format_for(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The image format for ``path``: ``fmt`` if given, else its extension."""
    name = fmt if fmt is not None else Path(path).suffix.lstrip(".")
    if not isinstance(name, str) or name.lower() not in FORMATS:
        where = f" for {os.fspath(path)!r}" if os.fspath(path) else ""
        raise ValueError(f"unsupported image format {name!r}{where}; "
                         f"choose one of: {', '.join(FORMATS)}")
    return name.lower()


def check_scale(scale) -> float:
    """``scale`` as a float, or ``ValueError`` unless it is a number in (0, MAX_SCALE]."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.integer, np.floating)):
        raise ValueError(f"scale must be a number, got {scale!r}")
    scale = float(scale)
    if not (math.isfinite(scale) and 0 < scale <= MAX_SCALE):
        raise ValueError(f"scale must be greater than 0 and at most {MAX_SCALE:g}, "
                         f"got {scale:g}")
    return scale


def check_background(background: str) -> str:
    """``background`` if it is "white" or "transparent", else ``ValueError``."""
    if background not in ("white", "transparent"):
        raise ValueError(f"background must be 'white' or 'transparent', got {background!r}")
    return background


MAX_SIDE = 32767
"""Longest side of a PNG, in pixels (``QImage``'s)."""


class ImageTooLarge(ValueError):
    """A PNG over the size limit: ``str(err)`` is the English (the command line's),
    ``text`` the sentence the window says in its language (``presentation.say``,
    context "Export"); ``width`` and ``height`` are its pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.text = Text(QT_TRANSLATE_NOOP(
            "Export", "a {0}×{1} px image is too large; lower the scale (limit {2} pixels, "
                      "{3} px a side)"), (width, height, f"{MAX_PIXELS:,}", MAX_SIDE), "Export")
        super().__init__(str(self.text))


def check_png_size(width: float, height: float, scale: float) -> QSize:
    """The pixel size of a ``width`` × ``height`` pt PNG at ``scale``; ``ImageTooLarge``
    (a ``ValueError``) when it is over ``MAX_PIXELS`` or ``MAX_SIDE`` px a side."""
    w, h = math.ceil(width * scale), math.ceil(height * scale)
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise ImageTooLarge(w, h)
    return QSize(w, h)


def _image(width: float, height: float, paint: Callable[[QPainter], None], scale: float,
           background: str) -> QImage:
    size = check_png_size(width, height, scale)
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(255, 255, 255) if background == "white" else Qt.GlobalColor.transparent)
    dots_per_metre = round(72 * scale / 0.0254)  # 1 unit = 1 pt: prints at its PDF size
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    painter = QPainter(image)
    painter.scale(scale, scale)
    paint(painter)
    painter.end()
    return image


def _encode(fmt: str, width: float, height: float, paint: Callable[[QPainter], None],
            scale: float, background: str, title: str) -> bytes:
    """The file bytes of ``paint`` drawn on a ``width`` × ``height`` pt page."""
    if fmt == "png":
        image = _image(width, height, paint, scale, background)
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):
            raise OSError("the PNG encoder failed")
        return bytes(buffer.data())
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if fmt == "svg":
        device = QSvgGenerator()
        device.setOutputDevice(buffer)
        device.setSize(QSize(math.ceil(width), math.ceil(height)))
        device.setViewBox(QRectF(0, 0, width, height))
        device.setResolution(72)  # 1 unit = 1 pt, the size the PDF has
        device.setTitle(title)
        device.setDescription("QKV Desktop")
    else:
        device = QPdfWriter(buffer)
        device.setResolution(72)
        device.setTitle(title)
        device.setCreator("QKV Desktop")
        device.setPageLayout(QPageLayout(
            QPageSize(QSizeF(width, height), QPageSize.Unit.Point, "",
                      QPageSize.SizeMatchPolicy.ExactMatch),
            QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter()
    if not painter.begin(device):
        raise OSError(f"cannot start the {fmt.upper()} writer")
    if background == "white":
        painter.fillRect(QRectF(0, 0, width, height), QColor(255, 255, 255))
    paint(painter)
    painter.end()
    buffer.close()
    data = bytes(buffer.data())
    return svg_with_fallbacks(data) if fmt == "svg" else data


def encode_painting(paint: Callable[[QPainter], None], width: float, height: float, fmt: str,
                    scale: float = 2.0, background: str = "white", title: str = "") -> bytes:
    """Whatever ``paint`` draws on a ``width`` × ``height`` pt page, encoded as ``fmt``.

    The same PNG/SVG/PDF writers as the figures, for pictures drawn by someone else
    (the labs render their widgets through it).
    """
    fmt = format_for("", fmt)
    scale, background = check_scale(scale), check_background(background)
    return _encode(fmt, width, height, paint, scale, background, title)


def encode_layout(lay: FigureLayout | DashboardLayout, fmt: str, scale: float = 2.0,
                  background: str = "white") -> bytes:
    """A laid-out figure or dashboard encoded as ``fmt`` ("png", "svg" or "pdf")."""
    fmt = format_for("", fmt)
    scale, background = check_scale(scale), check_background(background)
    if isinstance(lay, FigureLayout):
        return _encode(fmt, lay.width, lay.height, lambda p: paint_figure(p, lay), scale,
                       background, lay.spec.title)
    title = lay.title.text if lay.title is not None else ""
    return _encode(fmt, lay.width, lay.height, lambda p: paint_dashboard(p, lay), scale,
                   background, title)


def figure_bytes(spec: FigureSpec, fmt: str, scale: float = 2.0,
                 background: str = "white") -> bytes:
    """``spec``'s figure encoded as ``fmt`` ("png", "svg" or "pdf")."""
    return encode_layout(layout_figure(spec), fmt, scale, background)


def dashboard_bytes(specs: Sequence[FigureSpec], fmt: str, scale: float = 2.0,
                    background: str = "white", title: str = "", columns: int = 4) -> bytes:
    """Several figures in a grid (``columns`` per row) under one ``title``, encoded."""
    return encode_layout(layout_dashboard(specs, title, columns), fmt, scale, background)


def save_figure(spec: FigureSpec, path: str | os.PathLike, fmt: str | None = None,
                scale: float = 2.0, background: str = "white") -> Path:
    """Write ``spec``'s figure as PNG, SVG or PDF (from ``fmt`` or the extension).

    ``scale`` multiplies the PNG's pixel size (the vector formats ignore it);
    ``background`` is "white" or "transparent". The file appears atomically.
    """
    path = Path(path)
    atomic_write_bytes(path, figure_bytes(spec, format_for(path, fmt), scale, background))
    return path


def save_dashboard(specs: Sequence[FigureSpec], path: str | os.PathLike,
                   fmt: str | None = None, scale: float = 2.0, background: str = "white",
                   title: str = "", columns: int = 4) -> Path:
    """Write several figures in a grid (``columns`` per row) under one ``title``."""
    path = Path(path)
    atomic_write_bytes(path, dashboard_bytes(specs, format_for(path, fmt), scale, background,
                                             title, columns))
    return path


def figure_image(spec: FigureSpec, scale: float = 2.0, background: str = "white") -> QImage:
    """The figure as an image, e.g. for the clipboard."""
    scale, background = check_scale(scale), check_background(background)
    lay = layout_figure(spec)
    return _image(lay.width, lay.height, lambda p: paint_figure(p, lay), scale, background)
