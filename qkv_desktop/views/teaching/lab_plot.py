"""Plots of the lab windows that ask for no more height than they need.

A pyqtgraph view asks for 600 px of height (``QGraphicsView.sizeHint``); in a lab that
scrolls on a low screen, the layouts sized each plot by that wish and the lab became
needlessly long, or squeezed its neighbours. A lab plot keeps a legible minimum
height, asks for just that, and grows into whatever room the window has.

A short plot's rotated axis name can be longer than its axis: pyqtgraph centres it on
the axis regardless, and its ends are drawn past the plot ("g(p) − ppᵀ‖ per row" at
1024 × 700). ``WrappingNameAxis`` wraps such a name onto more lines, at its spaces,
and widens the axis to hold them.
"""

from __future__ import annotations

import re
from functools import partial

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy

from qkv_desktop.presentation.texts import unbroken_bars

__all__ = ["LabPlot", "LabPlotGrid", "WrappingNameAxis"]

MAX_NAME_LINES = 2
"""Lines an axis name wraps onto at most: an axis too short for them is a plot laid
out in passing (a lab's first layout), and many lines widened it for good."""

OPERATOR_SPACES = re.compile(" ([−+=×·/]) ")
"""A binary operator between its spaces, which a wrapped axis name keeps unbroken."""

NORM_BARS = ("\u2016", "||")
"""A turned name's norm bars "‖" are drawn as two "|": at 9 pt the font's "‖" is two
1 px strokes 1 px apart, half a pixel off the grid, and turned text is not fitted to
the pixels, so the strokes and the gap between them blurred into one grey bar (a user's
re-check). Each "|" is a stroke of its own, with a clear gap between the two; no line
breaks after one (``unbroken_bars``): "||diag(p)" must not."""


def _lines(document: QTextDocument) -> int:
    """The lines ``document`` is laid out in (its ``lineCount`` counts blocks)."""
    document.size()  # laid out
    block, lines = document.begin(), 0
    while block.isValid():
        lines += block.layout().lineCount()
        block = block.next()
    return lines


class WrappingNameAxis(pg.AxisItem):
    """A left or right axis whose name, when longer than the axis, wraps onto lines
    (``MAX_NAME_LINES``) no longer than it, centred, at word boundaries (and between
    Chinese characters); the axis widens with the name's height, as pyqtgraph sizes it
    (``_updateWidth``). A formula stays on one line: the spaces
    around its operators do not break ("‖diag(p) −" over "ppᵀ‖ per row" read as two
    terms)."""

    _lines = 1  # (pyqtgraph sizes the axis before __init__ returns)

    def __init__(self, orientation: str = "left", **kwargs):
        super().__init__(orientation, **kwargs)
        option = QTextOption(Qt.AlignmentFlag.AlignHCenter)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        self.label.document().setDefaultTextOption(option)

    def _fit_name(self) -> None:
        """Wrap the name in the axis's length, or unwrap it where it fits."""
        label = self.label
        if label is None:  # (closed)
            return
        label.setTextWidth(-1)
        length = self.size().height()
        if 0 < length < label.boundingRect().width() <= MAX_NAME_LINES * length:
            document = label.document()

            def wraps_in(width: float) -> int:
                """Lines in ``width``, or 0 where a word would stick out of it."""
                label.setTextWidth(width)
                return _lines(document) if document.idealWidth() <= width + 0.5 else 0

            lines = wraps_in(length)
            if 1 < lines <= MAX_NAME_LINES:
                # lines of even length ("‖diag(p) − ppᵀ‖" over "per row", not "… per"
                # over "row"): the narrowest width that wraps onto no more lines
                low, high = length / lines, length
                while high - low > 2:
                    middle = (low + high) / 2
                    low, high = (low, middle) if 0 < wraps_in(middle) <= lines \
                        else (middle, high)
                label.setTextWidth(high)
            else:  # one word longer than the axis, or too many lines: as pyqtgraph draws it
                label.setTextWidth(-1)
        lines = max(1, _lines(label.document())) if label.isVisible() else 1
        if lines != self._lines:
            self._lines = lines
            self._updateWidth()
            # the plot item is fitted to its view on the view's resize only: narrower
            # again, it stayed as wide as the wrapped name had made it, cropped
            for view in self.scene().views() if self.scene() is not None else ():
                QTimer.singleShot(0, view, partial(view.resizeEvent, None))

    def _wrapped(self) -> bool:
        return (self.fixedWidth is None and self._lines > 1 and self.isVisible()
                and self.label.isVisible())

    @property
    def extra_width(self) -> float:
        """The width the name's added lines take: a plot's width on one line is its own
        minimum less this (the name wraps because the plot is short, not narrow). A
        name on one line gets 0.8 of its (turned) height (pyqtgraph's
        ``_updateWidth``), a wrapped one all of it (``_updateWidth`` here)."""
        if not self._wrapped():
            return 0.0
        height = self.label.boundingRect().height()
        return height - 0.8 * height / self._lines

    def _updateWidth(self) -> None:  # noqa: N802 (pyqtgraph's name)
        """pyqtgraph's width, with all of a wrapped name's height: it gives a name 0.8
        of it, which a line's empty margins make up for on one line; on two lines of
        Chinese, whose line is taller, "‖diag(p) − ppᵀ‖" touched the tick labels (a
        first-time user)."""
        super()._updateWidth()
        if self._wrapped():
            width = self.maximumWidth() + 0.2 * self.label.boundingRect().height()
            self.setMaximumWidth(width)
            self.setMinimumWidth(width)

    def labelString(self) -> str:  # noqa: N802 (pyqtgraph's name)
        name = OPERATOR_SPACES.sub("\u00a0\\1\u00a0", super().labelString())
        return unbroken_bars(name.replace(*NORM_BARS))

    def _updateLabel(self) -> None:  # noqa: N802 (pyqtgraph's name)
        super()._updateLabel()
        self.resizeEvent()  # (which fits the name first)

    def resizeEvent(self, ev=None) -> None:  # noqa: N802 (pyqtgraph's name)
        self._fit_name()
        super().resizeEvent(ev)


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
