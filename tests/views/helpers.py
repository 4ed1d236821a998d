"""Helpers for widget tests: type into a cell, find a heatmap cell on screen."""

import threading

import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QImage, QKeyEvent, QMouseEvent, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

__all__ = ["type_text", "type_into_cell", "move_mouse", "cell_scene_pos", "cell_widget_pos",
           "bits"]


def type_text(widget, text: str) -> None:
    """Key presses for ``text``; QTest.keyClicks asserts on non-ASCII characters."""
    for ch in text:
        if " " <= ch <= "~":
            QTest.keyClick(widget, ch)
        else:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))


def type_into_cell(editor, row: int, col: int, text: str, event_loop: bool = False) -> None:
    """Open the cell editor of matrix cell (row, col), replace its text, press Enter.

    Enter commits at once (``EnterCommitsAtOnce``). With ``event_loop`` the event loop
    delivers Enter, as in the running app, and processes everything pending; without,
    a burst of typing still coalesces into one recomputation and one repaint.
    """
    index = editor.table.value_index(row, col)
    editor.setFocus()
    editor.setCurrentIndex(index)
    assert editor.edit(index, editor.EditTrigger.AllEditTriggers, None)
    line = editor.indexWidget(index)  # the open cell editor (a QLineEdit)
    assert line is not None, "the cell editor did not open"
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(line, Qt.Key.Key_Delete)
    if text:
        type_text(line, text)
    if event_loop:  # as the running app would: an exception goes to sys.excepthook
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.postEvent(line, QKeyEvent(kind, Qt.Key.Key_Return,
                                                   Qt.KeyboardModifier.NoModifier))
        QApplication.processEvents()
    else:
        QTest.keyClick(line, Qt.Key.Key_Return)


def cell_scene_pos(pane, row: int, col: int, fx: float = 0.5, fy: float = 0.5) -> QPointF:
    """Scene position of a point inside cell (row, col) of a heatmap pane."""
    vb = pane.plot.getPlotItem().getViewBox()
    return vb.mapViewToScene(QPointF(col + fx, row + fy))


def cell_widget_pos(pane, row: int, col: int, fx: float = 0.5, fy: float = 0.5):
    """The same point in the pane's plot viewport coordinates (for QTest mouse events)."""
    return pane.plot.mapFromScene(cell_scene_pos(pane, row, col, fx, fy))


def bits(a: np.ndarray) -> tuple:
    return a.shape, a.dtype.str, a.tobytes()


def move_mouse(widget, pos) -> None:
    """A plain mouse move over ``widget`` (QTest.mouseMove also repaints everything)."""
    local = QPointF(pos)
    event = QMouseEvent(QEvent.Type.MouseMove, local, QPointF(widget.mapToGlobal(pos)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


def spin_until(predicate, limit: int = 100_000) -> None:
    """Process events until ``predicate()`` holds (bounded by iterations, not time)."""
    app = QApplication.instance()
    for _ in range(limit):
        if predicate():
            return
        app.processEvents()
        threading.Event().wait(0.001)
    raise AssertionError("condition never became true")


class LayoutRequests:
    """Counts the layout requests of the objects it is installed on (an event filter)."""

    def __init__(self):
        from PySide6.QtCore import QObject

        requests = self.requests = []

        class _Watch(QObject):
            def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
                if event.type() == QEvent.Type.LayoutRequest:
                    requests.append(obj)
                return False

        self.filter = _Watch()


def axis_labels(axis) -> list[tuple]:
    """(rectangle, text) of each tick label a pyqtgraph axis draws (its own layout)."""
    image = QImage(400, 1200, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _flags, text in specs[2] if text]


def axis_label_rects(axis):
    """The rectangles of the tick labels a pyqtgraph axis draws (its own layout)."""
    return [rect for rect, _text in axis_labels(axis)]
