"""The one heatmap widget: a matrix as colours, its values as text, token axes.

Used by every pane of the grid (``HeatmapPane`` adds the title, colour bar, hover and
links) and by the QKᵀ | KKᵀ dock, so the two show numbers, ticks and non-finite
cells the same way. Values follow ``presentation.numbers``: four decimals, measured at
their real width, in the largest font (13 px down to ``LEGIBLE_PX``) that fits the
cells; when none does the values are hidden and ``valuesHiddenChanged`` says so, so
the host can tell the user. Axis ticks point outward, away from the cells, so a tick
beside the first column never reads as a minus sign.
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QMetaMethod, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QFontMetricsF,
    QPainter,
    QPen,
)
from PySide6.QtWidgets import QWidget

from qkv_desktop.presentation.colormaps import (
    OVERFLOW_RGBA,
    map_to_rgba,
    text_color_for,
)
from qkv_desktop.presentation.numbers import (
    LEGIBLE_PX,
    any_value_may_fit,
    fit_value_font,
    format_values,
    label_widths,
    longest_labels,
)
from qkv_desktop.presentation.pane_image import (
    PaneImage,
    display_factors,
    prepare_image,
    recolour_cells,
)
from qkv_desktop.views.masked_cell import fill_masked
from qkv_desktop.views.panes.axis_labels import (
    MAX_ROW_NAMES_SHARE,
    MAX_TURNED_SHARE,
    plan_axis,
)
from qkv_desktop.views.panes.cell_image import CellImage
from qkv_desktop.views.panes.cell_updates import Blocks, changed_cells, update_cells
from qkv_desktop.views.zoom import system_font

__all__ = ["HeatmapPlot", "CellOverlay", "TokenAxis", "MAX_LABEL_CELLS", "VALUE_PX_MAX",
           "value_px_goal",
           "TICK_LENGTH", "TICK_TEXT_GAP", "style_axis", "labels_inside"]

# pyqtgraph drops a mouse move that comes within 10 ms of the one before (its
# ``mouseRateLimit``), the last one of a quick move included: the pointer then rested on
# a cell while the hover read-out, the outlines and the tip stayed on the cell it had
# crossed. Qt already merges the moves of one frame, and a move within a cell costs a
# comparison (``HeatmapPane._on_mouse_moved``).
pg.setConfigOptions(mouseRateLimit=0)

VALUE_PX_MAX = 13
"""The value font's largest size (pixels); it shrinks to ``LEGIBLE_PX`` before hiding."""
MIN_HATCH_CELL_PX = 4.0
"""Masked cells at least this large are hatched one by one; smaller ones are shaded
by the plot's mask layer."""
MAX_HATCHED_CELLS = 20_000
HEAD_LINE_PX = 2
"""The width of the dark line where a head's block of the concatenation begins."""
MIN_HEAD_BLOCK_PX = 3 * HEAD_LINE_PX
"""The head lines are drawn only when each head's block is at least this wide: with
256 heads of 4 columns in a 1024-column pane a block was a pixel wide, the 2-pixel
lines covered every cell and the concatenation was a solid black block (a review)."""
MAX_LABEL_CELLS = 4096
"""Matrices with more cells than this never show value text."""
PRECHECK_CELLS = 256
"""Larger labelled matrices first check that a value could fit their cells at all."""
LONGEST_MEASURED = 8
"""How many of the longest value texts ``value_px_in`` measures (not all 4096)."""
EDGE_OVERFLOW_PX = 40
"""How far the first and last axis label may reach past the ends of their axis."""
TICK_LENGTH = 4
"""The colour bar's tick length in pixels, positive: pointing outward, to its labels."""
TICK_TEXT_GAP = 9
"""Pixels between a colour-bar tick and its label: a tick that touches "0.5" reads as
"−0.5", so the gap is wider than a minus sign's own spacing."""


AXIS_INK = (60, 60, 60)
"""The axes' lines and ticks (the panes' and their colour bars')."""
LABEL_INK = (30, 30, 30)
"""The axes' labels: token names, and the colour bars' levels."""


def style_axis(axis: pg.AxisItem) -> None:
    """Dark axis and token labels, and no ticks: each label sits at its row or column,
    and a tick beside a value reads as a minus sign whichever way it points
    (pyqtgraph's default points into the plot, against the first column's values;
    outward it stands just before the label)."""
    axis.setPen(pg.mkPen(*AXIS_INK))
    axis.setTextPen(pg.mkPen(*LABEL_INK))
    axis.setStyle(tickLength=0)


def labels_inside(texts, box: QRectF, font: QFont) -> list:
    """A vertical axis's labels (pyqtgraph's text specs) with none standing past its ends.

    A label is centred on its tick, so the one at the top (a colour bar's "1.0", the
    first row's token of a long session) stood half above the axis and was cut in half;
    it moves down (the bottom one up) just enough to be whole, still beside its end. The
    labels that would then overlap (an end's neighbour) are left out: the ends keep
    theirs, then each label in the given order (pyqtgraph's: major levels first) is kept
    only when its glyphs, as ``font`` draws them, touch none already kept.
    """
    top, bottom = box.top(), box.bottom()
    metrics = QFontMetricsF(font)
    inside, drawn, moved = [], [], []  # the specs, their glyphs' rects, moved or not
    for rect, flags, text in texts:
        rect = QRectF(rect)
        glyphs = metrics.boundingRect(rect, int(flags), text)  # may be taller than rect
        shift = (top - glyphs.top() if glyphs.top() < top else
                 bottom - glyphs.bottom() if glyphs.bottom() > bottom else 0.0)
        rect.translate(0, shift)
        glyphs.translate(0, shift)
        inside.append((rect, flags, text))
        drawn.append(glyphs)
        moved.append(shift != 0.0)
    kept: list[int] = []
    for k in sorted(range(len(inside)), key=lambda k: not moved[k]):  # the ends first
        if not any(drawn[k].intersects(drawn[j]) for j in kept):
            kept.append(k)
    return [inside[k] for k in sorted(kept)]


def _zoom() -> float:
    """View → Zoom's factor (presentation mode's included), at least 1."""
    base = system_font().pointSizeF()
    return max(QFont().pointSizeF() / base if base > 0 else 1.0, 1.0)


def value_px_goal() -> int:
    """The value font's size when the cells have room: ``VALUE_PX_MAX`` at 100 %, as
    much larger as the zoom (presentation mode's 150 % left the values at 13 px beside
    20 px names)."""
    return max(LEGIBLE_PX, round(VALUE_PX_MAX * _zoom()))


def smallest_value_px() -> int:
    """The smallest value font, below which values are hidden: ``LEGIBLE_PX`` at 100 %,
    as much larger as the zoom. In presentation mode X's eight columns at 1024 × 700
    showed their values at 8 px beside names of 20 px: unreadable from the back row,
    where a zoom is for. Hidden, the pane says so and the hover reads them."""
    return max(LEGIBLE_PX, round(LEGIBLE_PX * _zoom()))


def _largest_px(cell_h: float) -> int:
    """The largest value font a cell this high takes (it shrinks from there)."""
    return max(smallest_value_px(), min(value_px_goal(), int(cell_h * 0.5)))


class TokenAxis(pg.AxisItem):
    """A token axis that can turn its names upright (``plan_axis``'s last resort before
    leaving names out): each name then needs a line's height along the axis, not its
    width, and the axis grows down by the longest name. Along the rows (the left axis)
    no name stands past the axis's ends (``labels_inside``): with rows thinner than a
    line, the first row's token stood half above the plot and was cut in half."""

    rotated = False
    NAMES_MARGIN = 1.0
    MIN_NAMES_HEIGHT = 18
    """pyqtgraph's own room for a row of names, which the names only ever widen."""
    """Around the names' boxes, the pixel their glyphs' antialiased edges may reach."""

    def __init__(self, orientation: str):
        super().__init__(orientation)
        # ``paint`` reads the exposed part of the axis (``option.exposedRect``)
        self.setFlag(self.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._edge: tuple | None = None  # the axis line and ticks: (pen, start, end, ticks)
        self._names_box: QRectF | None = None  # where the names are drawn (item coordinates)
        self._fitted_for: tuple | None = None  # (names' font, length) the width is for

    def _updateMaxTextSize(self, x) -> None:  # noqa: N802 (pyqtgraph's name)
        """pyqtgraph narrows an axis only when it would lose more than 10 px; in another
        font (a zoom, presentation mode begun or ended, a plan's smaller names) or at
        another length, the row names' axis is as wide as its names: after presentation
        mode it kept room for the 150 % names (4 px), and before it, the start-up's (6 px
        of tutorial-1's panes at 1024 × 700)."""
        if self.orientation in ("left", "right"):
            font = self.style["tickFont"] or QFont()
            fitted_for = (font.key(), round(self.height()))
            if fitted_for != self._fitted_for:
                self._fitted_for = fitted_for
                self.textWidth = 0  # measured afresh: ``x`` is the width
        super()._updateMaxTextSize(x)

    def paint(self, p, opt, widget=None):
        """The whole axis, or, when only its edge beside the cells is exposed, that edge.

        The view repaints the cells after every edit; the area it repaints, in whole
        pixels, reaches into each axis beside them, and Qt draws every item within a
        pixel of it. The axis replayed all its names there, into a clip that shows none
        of them (issue 20); the line and ticks are redrawn as they were.
        """
        if (self.picture is not None and self._edge is not None
                and not opt.exposedRect.intersects(self._names_box)):
            self._paint_edge(p)
            return
        super().paint(p, opt, widget)

    def _paint_edge(self, p: QPainter) -> None:
        """The line and ticks as ``drawPicture`` draws them, drawn here rather than
        played from a ``QPicture`` (its playback cost four times the drawing: 16 per
        edit at n = 4)."""
        pen, start, end, ticks = self._edge
        p.save()
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            p.setPen(pen)
            p.drawLine(start, end)
            for tick_pen, lines in ticks:
                p.setPen(tick_pen)
                p.drawLines(lines)
        finally:
            p.restore()

    marks: tuple[float, ...] = ()
    """Positions (view coordinates) of cells left without a name: a short tick each."""
    MARK_PX = 3.0

    def set_marks(self, marks) -> None:
        marks = tuple(marks)
        if marks != self.marks:
            self.marks = marks
            self.picture = None
            self.update()

    def generateDrawSpecs(self, p):
        self._edge = None  # until ``drawPicture`` records this layout's
        specs = super().generateDrawSpecs(p)
        if specs is None:
            return specs
        axis, ticks, texts = specs
        if self.marks:
            ticks = ticks + self._mark_specs()
        if self.orientation not in ("left", "right"):
            if texts and not self.rotated:
                self._fit_height(texts, p.font())
            return axis, ticks, texts
        return axis, ticks, labels_inside(texts, self.rect(), p.font())

    def _fit_height(self, texts, font: QFont) -> None:
        """Grow a row of names to their lines' height: pyqtgraph reserves 0.8 of it,
        which a large font (presentation mode, a zoom, a CJK name) outgrows, and the
        names were cut at the bottom. Only on a new layout of the names, not per paint."""
        metrics = QFontMetricsF(font)
        tall = max(metrics.boundingRect(rect, int(flags), text).bottom() - rect.top()
                   for rect, flags, text in texts)
        want = max(math.ceil(tall), self.MIN_NAMES_HEIGHT)
        if want != self.textHeight:
            self.textHeight = want
            self._updateHeight()

    def _mark_specs(self) -> list:
        """Outward ticks at ``marks``, by pyqtgraph's own mapping of values to pixels
        (``plan_axis`` gives at most one a ``MIN_MARK_PITCH_PX`` of the axis)."""
        bounds = self.mapRectFromParent(self.geometry())
        low, high = self.range
        if high == low or not self.marks:
            return []
        pen = self.pen()
        if self.orientation in ("left", "right"):
            scale = -bounds.height() / (high - low)
            offset = low * scale - bounds.height()
            x0 = bounds.right() if self.orientation == "left" else bounds.left()
            x1 = x0 - self.MARK_PX if self.orientation == "left" else x0 + self.MARK_PX
            return [(pen, QPointF(x0, y), QPointF(x1, y))
                    for y in (v * scale - offset for v in self.marks)]
        scale = bounds.width() / (high - low)
        offset = low * scale
        y0 = bounds.top() if self.orientation == "bottom" else bounds.bottom()
        y1 = y0 + self.MARK_PX if self.orientation == "bottom" else y0 - self.MARK_PX
        return [(pen, QPointF(x, y0), QPointF(x, y1))
                for x in (v * scale - offset for v in self.marks)]

    def set_rotated(self, rotated: bool, names: list[str]) -> None:
        self.rotated = rotated
        if rotated:
            metrics = QFontMetrics(self.style["tickFont"] or QFont())
            longest = max((metrics.horizontalAdvance(x) for x in names), default=0)
            self.setHeight(longest + TICK_TEXT_GAP)
        elif self.fixedHeight is not None:
            self.setHeight(None)
        self.picture = None
        self.update()

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):
        self._record_edge(axisSpec, tickSpecs, textSpecs)
        if not self.rotated:
            return super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
        super().drawPicture(p, axisSpec, tickSpecs, [])
        font = self.style["tickFont"] or QFont()
        metrics = QFontMetrics(font)
        p.setFont(font)
        p.setPen(self.textPen())
        for rect, _flags, text in textSpecs:  # each read upward, ending under its column
            width, height = metrics.horizontalAdvance(text), metrics.height()
            p.save()
            p.translate(rect.center().x(), rect.top())
            p.rotate(-90)
            p.drawText(QRectF(-width, -height / 2, width, height),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
            p.restore()
        return None

    def _record_edge(self, axis_spec, tick_specs, text_specs) -> None:
        """Keep the line and ticks as ``drawPicture`` draws them (``_edge``: the ticks
        of one pen as one list of lines), and the box the names take, turned upright or
        not (``_names_box``), for ``paint``."""
        ticks: list[tuple[QPen, list[QLineF]]] = []
        for pen, start, end in tick_specs:
            if not ticks or ticks[-1][0] != pen:
                ticks.append((pen, []))
            ticks[-1][1].append(QLineF(start, end))
        pen, start, end = axis_spec
        edge = (QPen(pen), QPointF(start), QPointF(end), ticks)
        box = QRectF()
        font = self.style["tickFont"] or QFont()
        metrics = QFontMetrics(font) if self.rotated else None
        glyphs = QFontMetricsF(font)
        for rect, flags, text in text_specs:
            if metrics is not None:  # read upward from the top of ``rect`` (``drawPicture``)
                width, height = metrics.horizontalAdvance(text), metrics.height()
                rect = QRectF(rect.center().x() - height / 2, rect.top(), height, width)
                rect = rect.adjusted(*(self.NAMES_MARGIN * k for k in (-1, -1, 1, 1)))
            else:  # the glyphs' own pixels: a line's box reaches above the letters
                line = glyphs.boundingRect(rect, int(flags), text)
                ink = glyphs.tightBoundingRect(text)
                rect = ink.translated(line.left(), line.top() + glyphs.ascent())
            box = box.united(rect)
        self._edge, self._names_box = edge, box


class CellOverlay(pg.GraphicsObject):
    """Draws, in one item, the cell values, masked/overflow marks and highlights.

    One item per plot instead of a ``TextItem`` per cell: painting text for every
    visible cell in a single ``paint`` call is what keeps repaints cheap. The labels
    are placed once per data, font and view, with the widths their font was chosen by,
    and drawn from there by every later repaint: hovering places none again. The texts
    and their font are chosen by ``HeatmapPlot``.

    ``misfit`` is emitted (from paint) when the cells painted are not the ones the font
    was chosen for, or a label would not fit its cell: the values are then not drawn
    until ``HeatmapPlot`` has chosen again. A signal, not a callback of the plot kept
    here: that bound method would put the plot in a reference cycle (plot → overlay →
    method → plot), freed only by the cyclic collector, or never once ``gc.freeze``
    has taken it (``app.startup_heap``).
    """

    misfit = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.data = np.zeros((0, 0))
        self.labelled = False
        """Whether the matrix is small enough for value text (``MAX_LABEL_CELLS``)."""
        self.boolean = False
        """Whether its values are written 1 and 0 (``format_boolean``: the mask)."""
        self.value_font: QFont | None = None
        """The font the values fit in at the current size; None hides them."""
        self.fitted_cell: tuple[float, float] = (0.0, 0.0)
        """The cell size (pixels) ``value_font`` was chosen for."""
        self.links: list[tuple[int, int, int, int]] = []
        self.pinned: tuple[int, int] | None = None
        self.head_starts: list[int] = []
        self.labels_drawn = 0
        """How many value labels the latest paint drew (benchmarks, tests)."""
        self.labels_placed = 0
        """How many value labels were placed in all (tests)."""
        self._texts: list[list[str]] | None = None
        self._rgba: np.ndarray | None = None
        self._text_white: np.ndarray | None = None
        self._placed: tuple[tuple, tuple[list, list]] | None = None
        self._bad: np.ndarray | None = None
        self._finite: tuple[np.ndarray, bool] | None = None
        # ``paint`` draws the labels of the exposed cells only (``option.exposedRect``):
        # after an edit that keeps the levels, the view repaints the changed cells alone
        self.setFlag(self.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def set_data(self, data: np.ndarray, rgba: np.ndarray | None, labelled: bool,
                 changed: Blocks | None = None) -> None:
        """Show ``data`` (its cell colours ``rgba``, for the text colour); its values
        are formatted when first needed: a matrix whose cells are too small for any
        value (64 × 64 in a laptop pane) never formats its 4096 values. ``changed``:
        the only cells whose value differs from the data shown (``changed_cells``),
        the only ones repainted; None repaints the whole matrix."""
        if data.shape != self.data.shape:
            self.prepareGeometryChange()
        self.data, self.labelled = data, labelled
        self._texts, self._rgba, self._text_white, self._placed = None, rgba, None, None
        self._bad = self._finite = None
        update_cells(self, changed)

    def finiteness(self) -> tuple[np.ndarray, bool]:
        """(per cell whether its value is finite, whether all are), once per data: the
        hatching, the font fitting and the labels' placement all ask, on every edit."""
        if self._finite is None:
            finite = np.isfinite(self.data)
            self._finite = (finite, bool(finite.all()))
        return self._finite

    @property
    def texts(self) -> list[list[str]] | None:
        """The formatted values (None for a matrix too large to label)."""
        if self._texts is None and self.labelled:
            self._texts = format_values(self.data, self.boolean)
        return self._texts

    @property
    def text_white(self) -> np.ndarray:
        """Per cell, whether its value is written in white (on a dark colour)."""
        if self._text_white is None:
            self._text_white = (text_color_for(self._rgba) if self._rgba is not None
                                else np.zeros(self.data.shape, bool))
        return self._text_white

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.data.shape[1], self.data.shape[0])

    def paint(self, p: QPainter, option, widget=None) -> None:
        n, m = self.data.shape
        self.labels_drawn = 0
        if n == 0 or m == 0:
            return
        t = p.transform()
        cell_w, cell_h = abs(t.m11()), abs(t.m22())
        if min(cell_w, cell_h) >= MIN_HATCH_CELL_PX:  # smaller cells: the mask layer
            self._paint_nonfinite(p)
        self._paint_head_starts(p)
        if self.labelled and self.value_font is not None:
            self._paint_values(p, t, option.exposedRect)
        self._paint_links(p)

    def _paint_nonfinite(self, p: QPainter) -> None:
        """Hatch masked cells and tint overflowed ones, cell by cell (large cells only)."""
        if self._bad is None:  # a finite matrix (most) is told by one reduction
            finite, whole = self.finiteness()
            self._bad = () if whole else np.argwhere(~finite)[:MAX_HATCHED_CELLS]
        if not len(self._bad):
            return
        p.save()
        over = QBrush(QColor(*OVERFLOW_RGBA))
        p.setPen(Qt.PenStyle.NoPen)
        for i, j in self._bad.tolist():
            rect = QRectF(j, i, 1, 1)
            if self.data[i, j] == -np.inf:  # masked: grey and hatched, never a cell of value 0
                fill_masked(p, rect)
            else:  # overflow (inf / nan) in the naive softmax lesson
                p.fillRect(rect, over)
        p.restore()

    def head_lines_shown(self, cell_w: float) -> bool:
        """Whether the head lines are drawn at ``cell_w`` pixels a column: only when
        each head's block keeps its colours visible between them (``MIN_HEAD_BLOCK_PX``);
        narrower, the axis's names (h1·d0 …) still tell the heads apart."""
        starts = [0, *self.head_starts, self.data.shape[1]]
        narrowest = min((b - a for a, b in pairwise(starts)), default=0)
        return bool(self.head_starts) and narrowest * cell_w >= MIN_HEAD_BLOCK_PX

    def _paint_head_starts(self, p: QPainter) -> None:
        """A dark line where each head's block of the concatenation begins, when the
        blocks are wide enough to show between them (``head_lines_shown``)."""
        if not self.head_lines_shown(abs(p.transform().m11())):
            return
        p.save()
        pen = QPen(QColor(30, 30, 30), HEAD_LINE_PX)
        pen.setCosmetic(True)
        p.setPen(pen)
        n = self.data.shape[0]
        for c in self.head_starts:
            p.drawLine(QPointF(c, 0), QPointF(c, n))
        p.restore()

    def _paint_values(self, p: QPainter, t, exposed: QRectF) -> None:
        """Draw the visible cells' values, placed once per data, font, zoom and scroll:
        a hover (the links) repaints the overlay without re-placing a label.

        The font was chosen for a cell size before the layout settled (a pane's axes
        take their width after the plot's resize, the grid re-arranges its panes): the
        cells are measured again here, from the painter's own transform, and the labels
        with the painted font, so a value is never drawn larger than its cell; if it
        would be, nothing is drawn and the plot chooses again (or hides the values and
        says so). Only the labels of cells in ``exposed`` (cell coordinates) are drawn:
        a repaint of the cells an edit changed draws none of the others.
        """
        font = self.value_font
        cell_w, cell_h = abs(t.m11()), abs(t.m22())
        if cell_w < self.fitted_cell[0] - 0.01 or cell_h < self.fitted_cell[1] - 0.01:
            self._refuse()
            return
        view = t.inverted()[0].mapRect(QRectF(p.viewport()))
        key = (t.m11(), t.m22(), t.dx(), t.dy(), view.top(), view.bottom(), view.left(),
               view.right(), font.pixelSize(), font.stretch())
        n, m = self.data.shape
        # every cell the exposed rectangle touches, even by a pixel: Qt repaints its
        # part of that cell, and the part of its label there is drawn again
        r0, r1 = max(0, math.floor(exposed.top())), min(n, math.ceil(exposed.bottom()))
        c0, c1 = max(0, math.floor(exposed.left())), min(m, math.ceil(exposed.right()))
        everything = r0 == 0 and c0 == 0 and r1 == n and c1 == m
        if self._placed is not None and self._placed[0] == key:
            placed = self._placed[1]
        elif everything:
            self._placed = (key, self._place_values(t, view, font))
            placed = self._placed[1]
        else:
            # the cells an edit changed, repainted alone: only their labels are placed
            # (the others were placed, and fitted their cells, in this font and view
            # before; a later whole repaint places them all and keeps them)
            placed = self._place_values(t, view, font, (r0, r1, c0, c1))
        if placed is None:  # some label is larger than its cell in the painted font
            self._refuse()
            return
        drawn = 0
        p.save()
        p.resetTransform()
        p.setFont(font)
        for pen, labels in zip((QColor(20, 20, 20), QColor(255, 255, 255)), placed, strict=True):
            p.setPen(pen)
            for i, j, point, text in labels:
                if everything or (r0 <= i < r1 and c0 <= j < c1):
                    p.drawText(point, text)
                    drawn += 1
        p.restore()
        self.labels_drawn = drawn

    def _refuse(self) -> None:
        self.misfit.emit()

    def _place_values(self, t, view: QRectF, font: QFont,
                      cells: tuple[int, int, int, int] | None = None) -> tuple[list, list] | None:
        """(black, white) labels of the cells in ``view``: (row, column, device baseline
        point, text);
        None when a label, in ``font``, is wider or higher than its cell.

        Each text's width is the one ``fit_value_font`` measured when it chose the
        font (``label_widths``): after an edit every label of a small matrix is placed
        again, and laying out each new value a second time (a ``QStaticText``) cost
        more than drawing it (issue 20).
        """
        n, m = self.data.shape
        r0, r1 = max(0, int(view.top())), min(n, int(np.ceil(view.bottom())) + 1)
        c0, c1 = max(0, int(view.left())), min(m, int(np.ceil(view.right())) + 1)
        if cells is not None:  # only these rows and columns (``_paint_values``)
            r0, r1 = max(r0, cells[0]), min(r1, cells[1])
            c0, c1 = max(c0, cells[2]), min(c1, cells[3])
            if r0 >= r1 or c0 >= c1:
                return ([], [])
        metrics = QFontMetricsF(font)
        widths, height = label_widths(font), metrics.height()
        m11, m22, dx, dy = t.m11(), t.m22(), t.dx(), t.dy()
        cell_w, cell_h = abs(m11), abs(m22)
        if height > cell_h:
            return None
        baseline = metrics.ascent() - height / 2  # below a cell's centre
        texts = self.texts
        finite, whole = self.finiteness()
        # masked and overflowed cells say so by their colour, and have no label
        shown = None if whole else finite[r0:r1, c0:c1].tolist()
        white = self.text_white[r0:r1, c0:c1].tolist()
        centres = [(j, m11 * (j + 0.5) + dx) for j in range(c0, c1)]  # each column's x
        placed: tuple[list, list] = ([], [])  # (black, white) labels: one pen change each
        labels = (placed[0].append, placed[1].append)
        for k, (i, white_row) in enumerate(zip(range(r0, r1), white, strict=True)):
            row = texts[i]
            ok_row = None if shown is None else shown[k]
            y = m22 * (i + 0.5) + dy + baseline
            for (j, x), is_white in zip(centres, white_row, strict=True):
                if ok_row is not None and not ok_row[j - c0]:
                    continue
                label = row[j]
                w = widths.get(label)
                if w is None:  # not among the texts the font was fitted to
                    w = widths[label] = metrics.horizontalAdvance(label)
                if w > cell_w:
                    return None
                labels[is_white]((i, j, QPointF(x - w / 2, y), label))
        self.labels_placed += len(placed[0]) + len(placed[1])
        return placed

    def _paint_links(self, p: QPainter) -> None:
        if not self.links and self.pinned is None:
            return
        p.save()
        pen = QPen(QColor(255, 140, 0), 2.5)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        for r, c, h, w in self.links:
            p.drawRect(QRectF(c, r, w, h))
        if self.pinned is not None:
            pen = QPen(QColor(0, 0, 0), 3, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            p.setPen(pen)
            i, j = self.pinned
            p.drawRect(QRectF(j, i, 1, 1))
        p.restore()


class HeatmapPlot(pg.PlotWidget):
    """A heatmap of one matrix with value labels and token (or index) axes.

    ``show_matrix`` gives it the data, colour levels and labels; everything else (the
    reduction of large matrices to the pixels, label thinning, the value font) follows
    the widget's size. ``valuesHiddenChanged(bool)`` fires when the values stop (or
    start again) fitting the cells, or the reason (``values_too_many``) changes.
    """

    valuesHiddenChanged = Signal(bool)
    imageWanted = Signal(object)
    """The reduction (row, column factors) this size wants, when the picture on display
    has another (a resize): the host that connects it makes the picture (off the GUI
    thread for a large matrix) and gives it to ``show_image``. Unconnected, the plot
    makes it here. (A signal, not a callback of the host kept in the plot: a bound
    method of the host in its child's attributes is a reference cycle.)"""

    def __init__(self, lut: np.ndarray, parent: QWidget | None = None, signed: bool = True,
                 boolean: bool = False):
        # no view-box menu: built and thrown away, it was a third of each plot's start-up
        super().__init__(parent, background="w", enableMenu=False,
                         axisItems={"bottom": TokenAxis("bottom"), "left": TokenAxis("left")})
        self.lut = lut
        self.signed = signed
        """Whether the matrix may hold negative values: its labels keep room for a minus
        sign (``values_may_be_negative``), so a first negative value hides none."""
        item = self.getPlotItem()
        item.hideButtons()
        vb = item.getViewBox()
        # It draws nothing of its own (no border): Qt then never calls its paint, a
        # Python call per repaint of every pane (issue 20).
        vb.setFlag(vb.GraphicsItemFlag.ItemHasNoContents, True)
        vb.invertY(True)
        vb.setAspectLocked(False)
        vb.setMouseEnabled(x=False, y=False)
        vb.setDefaultPadding(0.0)
        self.image = CellImage(lut)
        item.addItem(self.image)
        self.mask = pg.ImageItem(axisOrder="row-major")  # masked/overflowed, when any
        self.mask.setVisible(False)
        item.addItem(self.mask)
        self.overlay = CellOverlay()
        self.overlay.boolean = boolean  # the mask reads 1 and 0, not 1.0000 and 0.0000
        item.addItem(self.overlay)
        for axis in ("left", "bottom"):
            style_axis(item.getAxis(axis))
        for axis in ("left", "bottom", "top", "right"):
            # No axis shows a label, so an SI prefix has nothing to scale; switched on,
            # every range change set the empty label's HTML again (4 axes a plot, 1,300
            # times before the first paint: 20 ms of start-up).
            item.getAxis(axis).enableAutoSIPrefix(False)
        self.values_hidden = False
        self.note_px = 0
        """Pixels a "values hidden" note under the plot takes from its height when shown
        (set by its host). The values are fitted to cells as high as they are with the
        note shown, so the note never reverses the decision that showed it: fitted to
        the plot without it, values too tall for the cells once the note took its line
        stayed hidden in a pane beside a same-size one that showed them (SmolLM2's 5×5
        weights beside the mask at 1366×768)."""
        self.note_shown = False
        """Whether that note is shown (``set_note_shown``)."""
        self.values_too_many = False
        """Hidden because the matrix has more than ``MAX_LABEL_CELLS`` cells: no size
        shows them (more room is no advice then)."""
        self.levels: tuple[float, float] | None = None
        self._labels: tuple[list[str], list[str]] | None = None
        # (widget size, labels, (left room, bottom room)) of the last axis plans
        self._planned_for: tuple | None = None
        self._factors = (1, 1)
        self._longest: tuple[list, list[str]] | None = None
        self._resize_timer = QTimer(self, singleShot=True, interval=0)
        self._resize_timer.timeout.connect(self._on_resized)
        vb.sigResized.connect(self._on_view_resized)
        self._misfit_at: tuple[float, float] | None = None  # a font the paint refused
        self.overlay.misfit.connect(self._on_misfit)

    def sizeHint(self) -> QSize:
        """As small as the plot may be: the panes share the grid's room by their stretch.

        A graphics view's own hint is its scene's size, which pyqtgraph sets to the view's
        last size: after presentation mode each plot asked for its full-screen size, the
        grid (its height for its width, with a "values hidden" note's wrapped line) grew
        to 2208 px in a 636 px view, and a scroll bar took 14 px of the panes' width."""
        return self.minimumSizeHint().expandedTo(self.minimumSize())

    @property
    def data(self) -> np.ndarray:
        """The matrix on display."""
        return self.overlay.data

    @property
    def view_box(self) -> pg.ViewBox:
        return self.getPlotItem().getViewBox()

    def show_matrix(self, data: np.ndarray, levels: tuple[float, float],
                    head_starts: list[int] | None = None,
                    image: PaneImage | None = None) -> None:
        """Draw ``data`` on ``levels``, with its values as text when it is small enough.

        ``image`` is its picture made elsewhere (``pane_image``: on the forward's worker
        for a large matrix), used even at another reduction than this size wants (it
        still spans the whole matrix; ``imageWanted`` then asks for the right one).
        """
        small = data.size <= MAX_LABEL_CELLS
        head_starts = list(head_starts or [])
        # With the same levels and head lines, a cell looks as it did unless its value
        # changed: only those cells are repainted (``cell_updates``)
        changed = (changed_cells(self.overlay.data, data)
                   if levels == self.levels and head_starts == self.overlay.head_starts
                   and self._factors == (1, 1) and (image is None or image.factors == (1, 1))
                   and not self.mask.isVisible() else None)
        self.levels = levels
        self._misfit_at = None  # new values: their own widths
        rgba = map_to_rgba(data, self.lut, levels) if small else None
        changed = self._show_image(data, levels, rgba, image, changed)
        self.overlay.head_starts = head_starts
        self.overlay.set_data(data, rgba, labelled=small, changed=changed)
        self.fit_values(changed)

    def set_labels(self, rows: list[str], cols: list[str]) -> None:
        """Axis labels for the rows and columns; the view spans the whole matrix."""
        self._labels = (rows, cols)
        self._set_ticks(rows, cols)
        self.view_box.setRange(xRange=(0, len(cols)), yRange=(0, len(rows)), padding=0)

    # ----------------------------------------------------------- values
    def cell_size(self) -> tuple[float, float]:
        """A cell's (width, height) in pixels at the current size and view range (the
        mapping the overlay paints with)."""
        n, m = self.overlay.data.shape
        vb = self.view_box
        view = vb.viewRect()
        if not (n and m) or view.width() <= 0 or view.height() <= 0:
            return 0.0, 0.0
        return vb.width() / view.width(), vb.height() / view.height()

    def _on_view_resized(self, _view_box=None) -> None:
        # (a method, not a lambda over ``self``: the view box's connection would hold
        # that lambda, and through it this plot, as long as the view box lives)
        self._resize_timer.start()

    def _on_misfit(self) -> None:
        """The paint found the font too large for the cells it paints: choose again
        (deferred: not from inside a paint) for the cells as they are now. If they are
        the very cells the font was chosen for (the painted font measures wider than
        the fitting's), the values are hidden at that size, and the pane says so."""
        if self.overlay.fitted_cell == self.cell_size():
            self._misfit_at = self.overlay.fitted_cell
        self._resize_timer.start()

    def _value_font(self, cell_w: float, cell_h: float, texts) -> QFont | None:
        """The value font for cells of ``cell_w`` × ``cell_h`` pixels (the one rule)."""
        return fit_value_font(texts, cell_w, cell_h, QFont(), _largest_px(cell_h),
                              smallest_value_px(), signed=self.signed)

    def _finite_texts(self):
        overlay = self.overlay
        finite, whole = overlay.finiteness()
        if whole:
            return (t for row in overlay.texts for t in row)
        return (t for row, ok in zip(overlay.texts, finite.tolist(), strict=True)
                for t, show in zip(row, ok, strict=True) if show)

    def value_px_in(self, view_w: float, view_h: float) -> int:
        """The value font's pixel size if the matrix had ``view_w`` × ``view_h`` pixels
        (0: the values would be hidden; -1: a matrix never labelled). For the grid's
        choice of columns; measured on the longest texts, which are the widest."""
        overlay = self.overlay
        if not overlay.labelled or not overlay.data.size:
            return -1
        n, m = overlay.data.shape
        cell_w, cell_h = view_w / m, max(view_h - self.note_px, 0) / n  # the note shown
        if not any_value_may_fit(cell_w, cell_h, QFont(), _largest_px(cell_h),
                                 smallest_value_px()):
            return 0  # and nothing formatted for it
        if self._longest is None or self._longest[0] is not overlay.texts:
            self._longest = (overlay.texts,
                             longest_labels(self._finite_texts(), LONGEST_MEASURED,
                                            self.signed))
        font = self._value_font(cell_w, cell_h, self._longest[1])
        return 0 if font is None else font.pixelSize()

    def fit_values(self, changed: Blocks | None = None) -> None:
        """Choose the value font for the current cell size, or hide the values.

        ``changed``: new values arrived in these cells only (``show_matrix``), already
        scheduled for a repaint; the rest is repainted only if the font changed."""
        overlay = self.overlay
        before = (overlay.value_font, overlay.fitted_cell)
        font = None
        if overlay.labelled and overlay.data.size:
            cell_w, cell_h = self.cell_size()
            fit_h = self._with_note(cell_h)
            # formatting thousands of values for cells too small for any is what costs
            if (overlay.data.size <= PRECHECK_CELLS or not overlay.finiteness()[0].any()
                    or any_value_may_fit(cell_w, fit_h, QFont(), _largest_px(fit_h),
                                         smallest_value_px())):
                font = self._value_font(cell_w, fit_h, self._finite_texts())
            if font is not None and self._misfit_at == (cell_w, cell_h):
                font = None
            overlay.fitted_cell = (cell_w, cell_h)
        overlay.value_font = font
        if changed is None or (font, overlay.fitted_cell) != before:
            overlay.update()
        hidden = overlay.data.size > 0 and font is None  # too small, or too many (the one rule)
        too_many = hidden and not overlay.labelled
        if (hidden, too_many) != (self.values_hidden, self.values_too_many):
            self.values_hidden, self.values_too_many = hidden, too_many
            self.valuesHiddenChanged.emit(hidden)

    def set_note_shown(self, shown: bool) -> None:
        """The host shows (or hides) the "values hidden" note under the plot: the axes
        are planned again for the room the plot and the note share (``_set_ticks``)."""
        if shown != self.note_shown:
            self.note_shown = shown
            self._resize_timer.start()

    def _with_note(self, cell_h: float) -> float:
        """A cell's height with the "values hidden" note shown under the plot (as it is
        while the values are hidden)."""
        height = self.view_box.height()
        if self.values_hidden or not self.note_px or height <= 0:
            return cell_h
        return cell_h * max(height - self.note_px, 0) / height

    def value_label_rects(self) -> list[QRectF]:
        """Where each value label goes, in scene coordinates (empty when hidden).

        The geometry the paint uses, for tests that must not depend on pixels: each
        label is its text's real size, centred in its cell.
        """
        overlay = self.overlay
        if overlay.texts is None or overlay.value_font is None:
            return []
        fm = QFontMetrics(overlay.value_font)
        vb = self.view_box
        rects = []
        for (i, j), v in np.ndenumerate(overlay.data):
            if not math.isfinite(v):
                continue
            centre = vb.mapViewToScene(QPointF(j + 0.5, i + 0.5))
            w, h = fm.horizontalAdvance(overlay.texts[i][j]), fm.height()
            rects.append(QRectF(centre.x() - w / 2, centre.y() - h / 2, w, h))
        return rects

    # ----------------------------------------------------------- image
    def pixels(self) -> tuple[float, float]:
        """The matrix's room in pixels (height, width): what ``display_factors`` reduces to."""
        vb = self.view_box
        return vb.height(), vb.width()

    def _show_image(self, data: np.ndarray, levels, rgba: np.ndarray | None = None,
                    image: PaneImage | None = None,
                    changed: Blocks | None = None) -> Blocks | None:
        """Give the image item the matrix, reduced to block means when larger than the plot.

        The image is stretched over the matrix's own coordinates, so cell (i, j) stays
        at (j, i) for the overlay, the links and the hover whatever the reduction.
        Returns ``changed`` (the cells to repaint), or None when the whole picture is
        repainted (a picture at another reduction, or with non-finite cells).
        """
        factors = display_factors(data.shape, self.pixels())
        if image is None and changed is not None and factors == (1, 1) and rgba is None:
            # the picture on display, with the changed cells coloured anew
            image = recolour_cells(self.image.prepared, data, self.lut, levels, changed)
        if image is None:
            image = prepare_image(data, self.lut, levels, factors, rgba)
        if image.factors != (1, 1) or image.mask is not None:
            changed = None
        self.show_image(image, data.shape, changed)
        if image.factors != factors:
            self._want_image(data, factors)
        return changed

    def show_image(self, image: PaneImage, shape: tuple[int, int] | None = None,
                   changed: Blocks | None = None) -> None:
        """Show ``image``, a picture of the matrix on display (of ``shape``); only the
        ``changed`` cells are repainted, unless None."""
        n, m = shape or self.overlay.data.shape
        self._factors = image.factors
        self.image.set_image(image, changed)
        rect = QRectF(0, 0, m, n)
        self.image.setRect(rect)
        self.mask.setVisible(image.mask is not None)
        if image.mask is not None:
            self.mask.setImage(image.mask, autoLevels=False)
            self.mask.setRect(rect)

    def _want_image(self, data: np.ndarray, factors: tuple[int, int]) -> None:
        if self.isSignalConnected(QMetaMethod.fromSignal(self.imageWanted)):
            self.imageWanted.emit(factors)
        else:
            self.make_image(factors, data)

    def make_image(self, factors: tuple[int, int] | None = None,
                   data: np.ndarray | None = None) -> None:
        """Make the picture of ``data`` (the matrix on display) here, at ``factors`` (the
        reduction this size wants): for a matrix too small to send to a worker."""
        data = self.overlay.data if data is None else data
        factors = factors or display_factors(data.shape, self.pixels())
        self.show_image(prepare_image(data, self.lut, self.levels, factors), data.shape)

    def _on_resized(self) -> None:
        """Re-space the axis labels, refit the values, re-reduce a large matrix."""
        if self._labels is not None:
            self._set_ticks(*self._labels)
        data = self.overlay.data
        if data.size and self.levels is not None:
            factors = display_factors(data.shape, self.pixels())
            if factors != self._factors:
                self._want_image(data, factors)
        self.fit_values()

    def _set_ticks(self, rows: list[str], cols: list[str]) -> None:
        """Name the rows and columns so that labels never overlap at this size: a
        smaller font, then shortened names, then every k-th (``plan_axis``).

        The plans change the room they are made for: a left axis with wider names
        narrows the columns, and turned column names make the bottom axis taller and
        the rows shorter. Planned afresh on each resize of the view box, the two axes
        could chase each other for ever (all-MiniLM-L6-v2 in a 1256 × 706 window: four
        layouts in turn, 150 plans a second and two-thirds of a core while the window
        sat still, found by a first-time user). So while the widget's own size and the
        labels stay the same, an axis is planned for the smallest room it has had: the
        room can only shrink, and the plans settle on ones that fit every layout they
        went through."""
        item = self.getPlotItem()
        vb = item.getViewBox()
        rooms = (vb.height(), vb.width())
        outer = (self.width(), self.height())
        last = self._planned_for
        if last is not None and last[0] == outer and last[1] is self._labels:
            rooms = (min(rooms[0], last[2][0]), min(rooms[1], last[2][1]))
        self._planned_for = (outer, self._labels, rooms)
        # The names within a share of the plot's size, its height counted with the note
        # under it (shown or not): by the plot's own height, turned names allowed with
        # the values shown hid them, the note then took its line and the names were no
        # longer allowed, the values showed and the note went: MiniLM's weights at
        # 1024 × 700 planned their axes for ever. A larger plot lets the names grow by
        # a share of what it gains, so its cells still grow. (Less the gap between the
        # names and the cells: ``set_rotated``'s, pyqtgraph's.)
        height = self.height() + (self.note_px if self.note_shown else 0)
        rows_px = (MAX_ROW_NAMES_SHARE * self.width()
                   - self.getPlotItem().getAxis("left").style["tickTextOffset"][0])
        turned_px = MAX_TURNED_SHARE * height - TICK_TEXT_GAP
        for axis, labels, room, vertical, depth in (
                ("left", rows, rooms[0], True, rows_px),
                ("bottom", cols, rooms[1], False, turned_px)):
            plan = plan_axis(labels, room, vertical, depth)
            ax = item.getAxis(axis)
            # The plan keeps labels apart; pyqtgraph would also drop the first and last
            # when they reach past the axis ends ("[CLS] … [SEP]" lost): allow that much.
            ax.setStyle(tickFont=plan.font, hideOverlappingLabels=EDGE_OVERFLOW_PX)
            ax.setTicks([plan.ticks])
            ax.set_marks(plan.unnamed)
            ax.setToolTip(plan.note)
            if axis == "bottom":
                ax.set_rotated(plan.rotated, [name for _pos, name in plan.ticks])
