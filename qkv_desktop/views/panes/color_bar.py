"""A pane's colour bar: the colour map as a strip beside an axis of the pane's levels.

pyqtgraph's ``ColorBarItem`` is a whole ``PlotItem`` (a view box with its context
menu, four axes); a pane needs one strip and one axis, and eleven panes are built
at start-up, so this light item takes its place.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter, QPen
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
    up) just enough to be whole, still beside its end of the strip. On a short bar the
    labels that would then overlap (an end's neighbour, or "0.4" on "0.6") are left out.
    """

    def generateDrawSpecs(self, p):
        specs = super().generateDrawSpecs(p)
        if specs is None:
            return None
        axis, ticks, texts = specs
        top, bottom = self.rect().top(), self.rect().bottom()
        inside, moved = [], []
        for rect, flags, text in texts:
            rect = QRectF(rect)
            if rect.top() < top:
                rect.moveTop(top)
                moved.append(rect)
            elif rect.bottom() > bottom:
                rect.moveBottom(bottom)
                moved.append(rect)
            inside.append((rect, flags, text))
        # A moved end label may now sit on its neighbour (a short bar: "0.8" under
        # "1.0"), and on a short bar neighbours may sit on each other ("0.4" on "0.6"):
        # the ends keep their labels, then each label in pyqtgraph's order (major
        # levels first) is drawn only when its glyphs, as the painter's font draws
        # them, touch none already kept.
        metrics = QFontMetricsF(p.font())
        order = sorted(range(len(inside)), key=lambda k: not any(inside[k][0] is m for m in moved))
        kept: list[int] = []
        glyphs: list[QRectF] = []
        for k in order:
            rect, flags, text = inside[k]
            drawn = metrics.boundingRect(rect, int(flags), text)
            if not any(drawn.intersects(g) for g in glyphs):
                kept.append(k)
                glyphs.append(drawn)
        inside = [inside[k] for k in sorted(kept)]
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
        """Put the bar right of the plot's right-hand axis (where ColorBarItem goes)."""
        plot_item.layout.addItem(self, 2, 5)
        plot_item.layout.setColumnFixedWidth(4, 5)
