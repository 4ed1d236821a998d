"""One pyqtgraph heatmap pane: a matrix, its colour bar, cell values and links.

The pane displays ``model.result`` and forwards hover and clicks to the model;
it never computes attention and keeps no state of its own beyond what it draws.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QAction
from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout, QWidget

import pyqtgraph as pg

from ..model import AttentionModel, CellRef
from ..model.linking import linked_cells
from .colormaps import levels_for, lut_for, text_color_for, map_to_rgba
from .pane_info import PANE_BY_KEY, pane_labels, pane_matrix, pane_title

__all__ = ["HeatmapPane", "MIN_LABEL_CELL_PX"]

MIN_LABEL_CELL_PX = (30.0, 14.0)
"""Cells narrower or shorter than this (in pixels) show no value text."""

MAX_TICK_LABELS = 40


def _colormap(key: str) -> pg.ColorMap:
    lut = lut_for(key)
    return pg.ColorMap(np.linspace(0, 1, len(lut)), lut)


class _CellOverlay(pg.GraphicsObject):
    """Draws, in one item, the cell values, masked/overflow marks and highlights.

    One item per pane instead of a ``TextItem`` per cell: painting text for every
    visible cell in a single ``paint`` call is what keeps repaints cheap.
    """

    def __init__(self) -> None:
        super().__init__()
        self.data = np.zeros((0, 0))
        self.text_white = np.zeros((0, 0), bool)
        self.show_values = True
        self.links: list[tuple[int, int, int, int]] = []
        self.pinned: tuple[int, int] | None = None
        self.font = QFont()
        self.font.setPointSizeF(8)

    def set_data(self, data: np.ndarray, rgba: np.ndarray | None) -> None:
        self.prepareGeometryChange()
        self.data = data
        self.text_white = text_color_for(rgba) if rgba is not None else np.zeros(data.shape, bool)
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.data.shape[1], self.data.shape[0])

    def paint(self, p: QPainter, option, widget=None) -> None:
        n, m = self.data.shape
        if n == 0 or m == 0:
            return
        t = p.transform()
        cell_w, cell_h = abs(t.m11()), abs(t.m22())
        self._paint_nonfinite(p, cell_w)
        if self.show_values and cell_w >= MIN_LABEL_CELL_PX[0] and cell_h >= MIN_LABEL_CELL_PX[1]:
            self._paint_values(p, t, cell_w, cell_h)
        self._paint_links(p)

    def _paint_nonfinite(self, p: QPainter, cell_w: float) -> None:
        bad = ~np.isfinite(self.data)
        if not bad.any():
            return
        p.save()
        grey = QBrush(QColor(200, 200, 200))
        hatch = QBrush(QColor(120, 120, 120), Qt.BrushStyle.BDiagPattern)
        over = QBrush(QColor(255, 0, 255, 160))
        p.setPen(Qt.PenStyle.NoPen)
        for i, j in np.argwhere(bad)[:20000]:
            v = self.data[i, j]
            rect = QRectF(j, i, 1, 1)
            if v == -np.inf:  # masked: grey and hatched, never a cell of value 0
                p.fillRect(rect, grey)
                p.fillRect(rect, hatch)
            else:  # overflow (inf / nan) in the naive softmax lesson
                p.fillRect(rect, over)
        p.restore()

    def _paint_values(self, p: QPainter, t, cell_w: float, cell_h: float) -> None:
        n, m = self.data.shape
        view = p.transform().inverted()[0].mapRect(QRectF(p.viewport()))
        r0, r1 = max(0, int(view.top())), min(n, int(np.ceil(view.bottom())) + 1)
        c0, c1 = max(0, int(view.left())), min(m, int(np.ceil(view.right())) + 1)
        p.save()
        p.resetTransform()
        font = QFont(self.font)
        font.setPixelSize(int(max(8, min(13, cell_h * 0.45, cell_w / 5))))
        p.setFont(font)
        white, black = QColor(255, 255, 255), QColor(20, 20, 20)
        decimals = 4 if cell_w >= 52 else 2
        fmt = f"{{:.{decimals}f}}"
        for i in range(r0, r1):
            for j in range(c0, c1):
                v = self.data[i, j]
                if not np.isfinite(v):
                    continue
                p.setPen(white if self.text_white[i, j] else black)
                rect = t.mapRect(QRectF(j, i, 1, 1))
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, fmt.format(v))
        p.restore()

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


class HeatmapPane(QWidget):
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
        self.overlay = _CellOverlay()
        item.addItem(self.overlay)
        for axis in ("left", "bottom"):
            ax = item.getAxis(axis)
            ax.setPen(pg.mkPen(60, 60, 60))
            ax.setTextPen(pg.mkPen(30, 30, 30))
        self.colorbar = pg.ColorBarItem(values=(0, 1), colorMap=_colormap(key),
                                        interactive=False, width=12)
        self.colorbar.setImageItem(self.image, insert_in=item)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        self._shape: tuple[int, int] | None = None
        self._labels: tuple[list[str], list[str]] | None = None

        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        model.resultChanged.connect(self._on_result_changed)
        model.hoverChanged.connect(self._on_links_changed)
        model.selectionChanged.connect(self._on_links_changed)
        model.currentHeadChanged.connect(lambda _h: self._on_result_changed(model.result))
        if model.result is not None:
            self._on_result_changed(model.result)

    # ----------------------------------------------------------- display
    def _on_result_changed(self, result) -> None:
        if result is None:
            return
        head = self.model.current_head
        data = pane_matrix(result, self.key, head)
        self.title.setText(pane_title(result, self.key, head))
        self.title.setToolTip(self.tr("Right-click the pane to export or copy it."))
        levels = levels_for(self.key, data)
        finite = np.isfinite(data).all()
        shown = data if finite else np.where(np.isfinite(data), data, np.nan)
        self.image.setImage(shown, autoLevels=False, levels=levels,
                            autoDownsample=data.size > 250_000)
        self.colorbar.setLevels(levels)
        small = data.shape[0] * data.shape[1] <= 4096
        rgba = map_to_rgba(data, lut_for(self.key), levels) if small else None
        self.overlay.show_values = small
        self.overlay.set_data(data, rgba)
        labels = pane_labels(result, self.key)
        if data.shape != self._shape or labels != self._labels:
            self._shape, self._labels = data.shape, labels
            self._set_ticks(*labels)
            self.plot.getPlotItem().getViewBox().setRange(
                xRange=(0, data.shape[1]), yRange=(0, data.shape[0]), padding=0)
        self._on_links_changed()

    def _set_ticks(self, rows: list[str], cols: list[str]) -> None:
        item = self.plot.getPlotItem()

        def ticks(labels: list[str]):
            step = max(1, int(np.ceil(len(labels) / MAX_TICK_LABELS)))
            return [[(k + 0.5, labels[k]) for k in range(0, len(labels), step)]]

        item.getAxis("left").setTicks(ticks(rows))
        item.getAxis("bottom").setTicks(ticks(cols))

    def _on_links_changed(self, *_args) -> None:
        model, result = self.model, self.model.result
        links: list[tuple[int, int, int, int]] = []
        pinned = None
        if result is not None:
            s = result.state
            m = result.head().weights.shape[1]
            for ref in (model.hover, model.selection):
                if ref is None or ref.head != model.current_head and ref.matrix != "X":
                    continue
                cells = linked_cells(ref.matrix, ref.row, ref.col, s.n, m, s.d_model, s.d_k,
                                     cross=s.mode == "cross")
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
