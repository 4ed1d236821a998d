"""One pyqtgraph heatmap pane: a matrix, its colour bar, cell values and links.

The pane displays ``model.result`` and forwards hover and clicks to the model;
it never computes attention and keeps no state of its own beyond what it draws.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPen,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import (
    clip_to_levels,
    levels_for,
    lut_for,
    map_to_rgba,
    text_color_for,
)
from qkv_desktop.presentation.pane_image import (
    MASKED_RGBA,
    OVERFLOW_RGBA,
    block_mean,
    display_factors,
    nonfinite_rgba,
)
from qkv_desktop.presentation.pane_info import (
    HEAD_INDEPENDENT,
    PANE_BY_KEY,
    pane_caption,
    pane_head_starts,
    pane_labels,
    pane_matrix,
    pane_relevant,
    pane_title,
)
from qkv_desktop.state import CellRef
from qkv_desktop.state.linking import concat_links, linked_cells
from qkv_desktop.views.panes.color_bar import ColorBar
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["HeatmapPane", "MIN_LABEL_CELL_PX"]

MIN_LABEL_CELL_PX = (30.0, 14.0)
"""Cells narrower or shorter than this (in pixels) show no value text."""

MIN_HATCH_CELL_PX = 4.0
"""Masked cells at least this large are hatched one by one; smaller ones are shaded
by the pane's mask layer."""
MAX_HATCHED_CELLS = 20_000
MAX_LABEL_CELLS = 4096
"""Matrices with more cells than this never show value text."""

SMALL_TICK_PX = 9
"""The axis label size a crowded axis falls back to before it leaves labels out."""


def _tick_fonts() -> tuple[QFont, QFont]:
    small = QFont()
    small.setPixelSize(SMALL_TICK_PX)
    return QFont(), small

MAX_LABEL_CHARS = 12
"""Longer token names are shortened with "…" on the axes (hover shows them whole)."""


class _CellOverlay(pg.GraphicsObject):
    """Draws, in one item, the cell values, masked/overflow marks and highlights.

    One item per pane instead of a ``TextItem`` per cell: painting text for every
    visible cell in a single ``paint`` call is what keeps repaints cheap. Each value
    text is laid out once (a ``QStaticText``, cached by its text) and reused by every
    later repaint, of this result or a later one: hovering does not re-typeset, and an
    edit re-typesets only the values it changed.
    """

    def __init__(self) -> None:
        super().__init__()
        self.data = np.zeros((0, 0))
        self.text_white = np.zeros((0, 0), bool)
        self.show_values = True
        self.links: list[tuple[int, int, int, int]] = []
        self.pinned: tuple[int, int] | None = None
        self.head_starts: list[int] = []
        self.font = QFont()
        self.font.setPointSizeF(8)
        self.labels_drawn = 0
        """How many value labels the latest paint drew (benchmarks, tests)."""
        self._texts: dict[str, QStaticText] = {}
        self._text_style: tuple[int, int] | None = None
        self._bad: np.ndarray | None = None

    def set_data(self, data: np.ndarray, rgba: np.ndarray | None) -> None:
        if data.shape != self.data.shape:
            self.prepareGeometryChange()
        self.data = data
        self.text_white = text_color_for(rgba) if rgba is not None else np.zeros(data.shape, bool)
        if len(self._texts) > 2 * MAX_LABEL_CELLS:  # texts of values long gone
            self._texts.clear()
        self._bad = None
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.data.shape[1], self.data.shape[0])

    def paint(self, p: QPainter, option, widget=None) -> None:
        n, m = self.data.shape
        self.labels_drawn = 0
        if n == 0 or m == 0:
            return
        t = p.transform()
        cell_w, cell_h = abs(t.m11()), abs(t.m22())
        if min(cell_w, cell_h) >= MIN_HATCH_CELL_PX:  # smaller cells: the pane's mask layer
            self._paint_nonfinite(p)
        self._paint_head_starts(p)
        if self.show_values and cell_w >= MIN_LABEL_CELL_PX[0] and cell_h >= MIN_LABEL_CELL_PX[1]:
            self._paint_values(p, t, cell_w, cell_h)
        self._paint_links(p)

    def _paint_nonfinite(self, p: QPainter) -> None:
        """Hatch masked cells and tint overflowed ones, cell by cell (large cells only)."""
        if self._bad is None:
            self._bad = np.argwhere(~np.isfinite(self.data))[:MAX_HATCHED_CELLS]
        if not len(self._bad):
            return
        p.save()
        grey = QBrush(QColor(*MASKED_RGBA))
        hatch = QBrush(QColor(120, 120, 120), Qt.BrushStyle.BDiagPattern)
        over = QBrush(QColor(*OVERFLOW_RGBA))
        p.setPen(Qt.PenStyle.NoPen)
        for i, j in self._bad.tolist():
            rect = QRectF(j, i, 1, 1)
            if self.data[i, j] == -np.inf:  # masked: grey and hatched, never a cell of value 0
                p.fillRect(rect, grey)
                p.fillRect(rect, hatch)
            else:  # overflow (inf / nan) in the naive softmax lesson
                p.fillRect(rect, over)
        p.restore()

    def _paint_head_starts(self, p: QPainter) -> None:
        """A dark line where each head's block of the concatenation begins."""
        if not self.head_starts:
            return
        p.save()
        pen = QPen(QColor(30, 30, 30), 2)
        pen.setCosmetic(True)
        p.setPen(pen)
        n = self.data.shape[0]
        for c in self.head_starts:
            p.drawLine(QPointF(c, 0), QPointF(c, n))
        p.restore()

    def _paint_values(self, p: QPainter, t, cell_w: float, cell_h: float) -> None:
        n, m = self.data.shape
        view = t.inverted()[0].mapRect(QRectF(p.viewport()))
        r0, r1 = max(0, int(view.top())), min(n, int(np.ceil(view.bottom())) + 1)
        c0, c1 = max(0, int(view.left())), min(m, int(np.ceil(view.right())) + 1)
        font = QFont(self.font)
        font.setPixelSize(int(max(8, min(13, cell_h * 0.45, cell_w / 5))))
        # Four decimals (as the tutorial prints) whenever they fit: at two, nearly
        # uniform weights such as tutorial-1's would all read 0.25.
        decimals = 4 if QFontMetrics(font).horizontalAdvance("-0.0000") + 4 <= cell_w else 2
        style = (decimals, font.pixelSize())
        if style != self._text_style:
            self._texts.clear()
            self._text_style = style
        fmt = f"{{:.{decimals}f}}"
        values = self.data[r0:r1, c0:c1].tolist()
        white_pen, black_pen = QColor(255, 255, 255), QColor(20, 20, 20)
        placed: tuple[list, list] = ([], [])  # (black, white) labels: one pen change each
        for i, row in enumerate(values, r0):
            for j, v in enumerate(row, c0):
                if not math.isfinite(v):
                    continue
                label = fmt.format(v)
                text = self._texts.get(label)
                if text is None:
                    text = QStaticText(label)
                    text.setTextFormat(Qt.TextFormat.PlainText)
                    text.prepare(QTransform(), font)
                    self._texts[label] = text
                size = text.size()
                x = t.m11() * (j + 0.5) + t.dx() - size.width() / 2
                y = t.m22() * (i + 0.5) + t.dy() - size.height() / 2
                placed[bool(self.text_white[i, j])].append((QPointF(x, y), text))
        p.save()
        p.resetTransform()
        p.setFont(font)
        for pen, labels in zip((black_pen, white_pen), placed, strict=True):
            p.setPen(pen)
            for point, text in labels:
                p.drawStaticText(point, text)
        p.restore()
        self.labels_drawn = len(placed[0]) + len(placed[1])

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


class HeatmapPane(Retranslating, QWidget):
    """A titled heatmap of one matrix of ``model.result`` with a colour bar.

    Signals ``exportRequested(key)`` and ``copyRequested(key)`` come from the
    pane's context menu; the main window performs them.
    """

    exportRequested = Signal(str)
    copyRequested = Signal(str)

    def __init__(self, model: AttentionModel, key: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.key = key
        self.info = PANE_BY_KEY[key]
        self.setObjectName(f"pane_{key}")
        self.title = QLabel(self)
        self.title.setObjectName("paneTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.retranslate()
        self.plot = pg.PlotWidget(self, background="w")
        self.plot.setMinimumSize(120, 100)
        item = self.plot.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        vb = item.getViewBox()
        vb.invertY(True)
        vb.setAspectLocked(False)
        vb.setMouseEnabled(x=False, y=False)
        vb.setDefaultPadding(0.0)
        self.image = pg.ImageItem(axisOrder="row-major")
        item.addItem(self.image)
        self.mask = pg.ImageItem(axisOrder="row-major")  # masked/overflowed, when any
        self.mask.setVisible(False)
        item.addItem(self.mask)
        self.overlay = _CellOverlay()
        item.addItem(self.overlay)
        for axis in ("left", "bottom"):
            ax = item.getAxis(axis)
            ax.setPen(pg.mkPen(60, 60, 60))
            ax.setTextPen(pg.mkPen(30, 30, 30))
        self.image.setLookupTable(lut_for(key))
        self.colorbar = ColorBar(lut_for(key), width=12)
        self.colorbar.insert_in(item)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        self._shape: tuple[int, int] | None = None
        self._labels: tuple[list[str], list[str]] | None = None
        self._levels: tuple[float, float] | None = None
        self._factors = (1, 1)
        self._stale = False  # a result arrived while the pane was hidden
        self._resize_timer = QTimer(self, singleShot=True, interval=0)
        self._resize_timer.timeout.connect(self._on_resized)
        vb.sigResized.connect(lambda *_a: self._resize_timer.start())

        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        model.resultChanged.connect(self._on_result_changed)
        model.hoverChanged.connect(self._on_links_changed)
        model.selectionChanged.connect(self._on_links_changed)
        model.currentHeadChanged.connect(lambda _h: self._on_result_changed(model.result))
        if model.result is not None:
            self._on_result_changed(model.result)

    def retranslate(self) -> None:
        """Title the pane in the current language: its formula, or its short name."""
        result = self.model.result
        if result is not None and pane_relevant(result.state, self.key):
            self.title.setText(pane_title(result, self.key, self.model.current_head))
        else:
            self.title.setText(pane_caption(self.key))
        self.title.setToolTip(self.tr("Right-click the pane to export or copy it."))

    # ----------------------------------------------------------- display
    def _on_result_changed(self, result) -> None:
        if result is None or not pane_relevant(result.state, self.key):
            return  # the grid hides a pane that has nothing to show
        if self._hidden_in_grid():
            self._stale = True  # drawn when shown again (showEvent)
            return
        self._stale = False
        head = self.model.current_head
        data = pane_matrix(result, self.key, head)
        self.title.setText(pane_title(result, self.key, head))
        head_starts = pane_head_starts(result, self.key)
        if not self._same_matrix(data) or head_starts != self.overlay.head_starts:
            levels = levels_for(self.key, data)
            self._show_image(data, levels)
            if levels != self._levels:  # an unchanged colour bar is not redrawn
                self._levels = levels
                self.colorbar.setLevels(levels)
            small = data.size <= MAX_LABEL_CELLS
            rgba = map_to_rgba(data, lut_for(self.key), levels) if small else None
            self.overlay.show_values = small
            self.overlay.head_starts = head_starts
            self.overlay.set_data(data, rgba)
        labels = pane_labels(result, self.key)
        if data.shape != self._shape or labels != self._labels:
            self._shape, self._labels = data.shape, labels
            self._set_ticks(*labels)
            self.plot.getPlotItem().getViewBox().setRange(
                xRange=(0, data.shape[1]), yRange=(0, data.shape[0]), padding=0)
        self._on_links_changed()

    def _same_matrix(self, data: np.ndarray) -> bool:
        """Whether ``data`` is what the pane already shows (X after an option change, a
        small V after a scaling change): then the image, the colour bar and the value
        labels are left as they are. Large matrices are compared by identity only."""
        shown = self.overlay.data
        if data is shown:
            return True
        return (data.size <= MAX_LABEL_CELLS and data.shape == shown.shape
                and data.dtype == shown.dtype and np.array_equal(data, shown, equal_nan=True))

    def _hidden_in_grid(self) -> bool:
        """Hidden by its parent (View menu, irrelevant pane): nothing to draw until shown."""
        parent = self.parentWidget()
        return parent is not None and not self.isVisibleTo(parent)

    def _show_image(self, data: np.ndarray, levels) -> None:
        """Give the image item the matrix, reduced to block means when larger than the pane.

        The image is stretched over the matrix's own coordinates, so cell (i, j) stays
        at (j, i) for the overlay, the links and the hover whatever the reduction.
        """
        vb = self.plot.getPlotItem().getViewBox()
        self._factors = display_factors(data.shape, (vb.height(), vb.width()))
        shown = block_mean(data, *self._factors)
        mask = nonfinite_rgba(shown)
        if mask is not None:
            shown = np.where(np.isfinite(shown), shown, np.nan)
        self.image.setImage(clip_to_levels(shown, levels), autoLevels=False, levels=levels)
        rect = QRectF(0, 0, data.shape[1], data.shape[0])
        self.image.setRect(rect)
        self.mask.setVisible(mask is not None)
        if mask is not None:
            self.mask.setImage(mask, autoLevels=False)
            self.mask.setRect(rect)

    def _on_resized(self) -> None:
        """Re-space the axis labels; re-reduce a large matrix if the size matters."""
        if self._labels is not None:
            self._set_ticks(*self._labels)
        data = self.overlay.data
        vb = self.plot.getPlotItem().getViewBox()
        if (data.size and self._levels is not None and not self._stale
                and display_factors(data.shape, (vb.height(), vb.width())) != self._factors):
            self._show_image(data, self._levels)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._on_result_changed(self.model.result)

    def _set_ticks(self, rows: list[str], cols: list[str]) -> None:
        """Label every k-th row/column so that labels never overlap at this size.

        A crowded axis switches to a smaller font (and thins its labels only if they
        still do not fit), so that short token names stay readable in narrow panes.
        """
        item = self.plot.getPlotItem()
        vb = item.getViewBox()
        fonts = _tick_fonts()
        short = [[x if len(x) <= MAX_LABEL_CHARS else x[:MAX_LABEL_CHARS - 1] + "…"
                  for x in labels] for labels in (rows, cols)]
        for axis, labels, room, vertical in (("left", short[0], vb.height(), True),
                                             ("bottom", short[1], vb.width(), False)):
            best = None
            for font in fonts:
                metrics = QFontMetrics(font)
                need = (metrics.height() if vertical else
                        max((metrics.horizontalAdvance(x) for x in labels), default=0)) + 6
                step = max(1, int(np.ceil(len(labels) * need / max(room, 1.0))))
                best = (step, font)
                if step == 1:  # everything fits: keep the larger font
                    break
            step, font = best
            item.getAxis(axis).setStyle(tickFont=font)
            item.getAxis(axis).setTicks(
                [[(k + 0.5, labels[k]) for k in range(0, len(labels), step)]])

    def _on_links_changed(self, *_args) -> None:
        model, result = self.model, self.model.result
        links: list[tuple[int, int, int, int]] = []
        pinned = None
        if result is not None:
            s = result.state
            m = result.head().weights.shape[1]
            head = model.current_head
            for ref in (model.hover, model.selection):
                if ref is None or ref.head != head and ref.matrix not in HEAD_INDEPENDENT:
                    continue
                cells = linked_cells(ref.matrix, ref.row, ref.col, s.n, m, s.d_model, s.d_k,
                                     cross=s.mode == "cross")
                if s.n_heads > 1 or s.W_O is not None:
                    for name, rects in concat_links(ref.matrix, ref.row, ref.col, head,
                                                    s.n_heads, s.d_k, s.d_model).items():
                        cells.setdefault(name, []).extend(rects)
                if ref is model.hover:
                    links = cells.get(self.key, [])
                elif ref.matrix == self.key:
                    pinned = (ref.row, ref.col)
        self.overlay.links = links
        self.overlay.pinned = pinned
        self.overlay.update()

    # ------------------------------------------------------------- input
    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        """The (row, col) under a scene position, or None outside the matrix."""
        if self._shape is None:
            return None
        vb = self.plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        pt: QPointF = vb.mapSceneToView(scene_pos)
        i, j = int(np.floor(pt.y())), int(np.floor(pt.x()))
        if 0 <= i < self._shape[0] and 0 <= j < self._shape[1]:
            return i, j
        return None

    def _ref(self, cell) -> CellRef:
        return CellRef(self.key, cell[0], cell[1], self.model.current_head)

    def _on_mouse_moved(self, scene_pos) -> None:
        cell = self.cell_at(scene_pos)
        self.model.set_hover(None if cell is None else self._ref(cell))

    def _on_mouse_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None:
            ref = self._ref(cell)
            self.model.set_selection(None if ref == self.model.selection else ref)

    def leaveEvent(self, event) -> None:
        if self.model.hover is not None and self.model.hover.matrix == self.key:
            self.model.set_hover(None)
        super().leaveEvent(event)

    def contextMenuEvent(self, event) -> None:
        menu = QMenu(self)
        export = QAction(self.tr("Export…"), menu)
        export.triggered.connect(lambda: self.exportRequested.emit(self.key))
        copy = QAction(self.tr("Copy image"), menu)
        copy.triggered.connect(lambda: self.copyRequested.emit(self.key))
        menu.addAction(export)
        menu.addAction(copy)
        menu.exec(event.globalPos())
