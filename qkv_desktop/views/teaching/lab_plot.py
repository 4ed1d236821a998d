"""Plots of the lab windows that ask for no more height than they need.

A pyqtgraph view asks for 600 px of height (``QGraphicsView.sizeHint``); in a lab that
scrolls on a low screen, the layouts sized each plot by that wish and the lab became
needlessly long, or squeezed its neighbours. A lab plot keeps a legible minimum
height, asks for just that, and grows into whatever room the window has.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFrame, QSizePolicy

__all__ = ["LabPlot", "LabPlotGrid"]


class _Modest:
    """``min_height`` pixels at least, asking for exactly that, expanding beyond."""

    def _settle(self, min_height: int) -> None:
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumHeight(min_height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())


class LabPlot(_Modest, pg.PlotWidget):
    """A white ``pg.PlotWidget`` of at least ``min_height`` pixels (``kwargs``: the
    plot's own, ``axisItems``)."""

    def __init__(self, min_height: int, parent=None, **kwargs):
        super().__init__(parent, background="w", **kwargs)
        self._settle(min_height)


class LabPlotGrid(_Modest, pg.GraphicsLayoutWidget):
    """A white ``pg.GraphicsLayoutWidget`` (several small plots) of at least
    ``min_height`` pixels."""

    def __init__(self, min_height: int, parent=None):
        super().__init__(parent)
        self.setBackground("w")
        self._settle(min_height)
