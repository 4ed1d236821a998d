"""A pane's colour bar: the colour map as a strip beside an axis of the pane's levels.

pyqtgraph's ``ColorBarItem`` is a whole ``PlotItem`` (a view box with its context
menu, four axes); a pane needs one strip and one axis, and eleven panes are built
at start-up, so this light item takes its place.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsGridLayout

from qkv_desktop.views.panes.heatmap_plot import TICK_LENGTH, TICK_TEXT_GAP

__all__ = ["ColorBar"]


class _Strip(pg.GraphicsWidget):
    """The colour map drawn bottom (lowest level) to top (highest)."""

    def __init__(self, lut: np.ndarray, width: int):
        super().__init__()
        column = np.ascontiguousarray(lut[::-1, None, :], dtype=np.uint8)
        # opaque RGB32 and scaled once per size: a scaled RGBA drawImage in every
        # repaint of the bar (each level change) cost more than the rest of it
        self._image = QImage(column.data, 1, len(lut), 4, QImage.Format.Format_RGBA8888
                             ).convertToFormat(QImage.Format.Format_RGB32)
        self._scaled = self._image
        self.setMinimumWidth(width)
        self.setMaximumWidth(width)

    def paint(self, p: QPainter, *_args) -> None:
        rect = QRectF(self.rect())
        size = rect.size().toSize()
        if self._scaled.size() != size and not size.isEmpty():
            self._scaled = self._image.scaled(size, Qt.AspectRatioMode.IgnoreAspectRatio,
                                              Qt.TransformationMode.FastTransformation)
        p.drawImage(rect, self._scaled)
        p.setPen(QPen(QColor(120, 120, 120), 0))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(rect)


class _InsideAxis(pg.AxisItem):
    """The level axis, its end labels kept inside its own height.

    A label is centred on its tick, so the top level's ("1.0") stood half above the
    strip, outside the plot, and was cut in half; here it moves down (the bottom one
    up) just enough to be whole, still beside its end of the strip.
    """

    def generateDrawSpecs(self, p):
        specs = super().generateDrawSpecs(p)
        if specs is None:
            return None
        axis, ticks, texts = specs
        top, bottom = self.rect().top(), self.rect().bottom()
        inside = []
        for rect, flags, text in texts:
            rect = QRectF(rect)
            if rect.top() < top:
                rect.moveTop(top)
            elif rect.bottom() > bottom:
                rect.moveBottom(bottom)
            inside.append((rect, flags, text))
        return axis, ticks, inside


class ColorBar(pg.GraphicsWidget):
    """The strip of ``lut`` (256 × RGBA) and a right-hand axis showing ``levels``."""

    def __init__(self, lut: np.ndarray, width: int = 12):
        super().__init__()
        self.strip = _Strip(lut, width)
        self.axis = _InsideAxis("right")
        # Outward, with a gap wider than a minus sign's before the label.
        self.axis.setStyle(tickLength=TICK_LENGTH, tickTextOffset=TICK_TEXT_GAP)
        layout = QGraphicsGridLayout()
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(0)
        layout.addItem(self.strip, 0, 0)
        layout.addItem(self.axis, 0, 1)
        self.setLayout(layout)
        self.levels = (0.0, 1.0)
        self.axis.setRange(*self.levels)

    def setLevels(self, levels: tuple[float, float]) -> None:
        self.levels = (float(levels[0]), float(levels[1]))
        self.axis.setRange(*self.levels)

    def insert_in(self, plot_item: pg.PlotItem) -> None:
        """Put the bar right of the plot's right-hand axis (where ColorBarItem goes).

        The highest level's label is centred on the bar's top end: the plot keeps
        room above for its upper half, or the view's edge cuts "1.0" in two."""
        plot_item.layout.addItem(self, 2, 5)
        plot_item.layout.setColumnFixedWidth(4, 5)
        left, top, right, bottom = plot_item.layout.getContentsMargins()
        half_label = QFontMetrics(self.axis.style["tickFont"] or QFont()).height() / 2
        plot_item.layout.setContentsMargins(left, max(top, half_label), right, bottom)
