"""Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) mean the application's undo, except inside a cell
being edited.

A spin box keeps keyboard focus after its arrows are clicked, and its line edit claims
the undo keys for itself (it accepts the ``ShortcutOverride`` event Qt sends before
firing a shortcut): Ctrl+Z then undid the spin box's text while Edit offered
"Undo Set d_k to 8". This filter declines that claim for every widget of the window
except an open table-cell editor, whose own text undo is what a typist expects.

Qt offers the override to the focus widget and then to each of its parents up to the
window, so the filter watches exactly those, and moves with the focus. As an
application event filter it saw every event of every object: each paint, timer and
layout event of the app went through Python (issue 20: ~30 ms of start-up alone).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget
from shiboken6 import isValid

__all__ = ["ApplicationUndoWins", "editing_a_cell", "redo_keys"]

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)

_CTRL_Y = QKeySequence(Qt.KeyboardModifier.ControlModifier | Qt.Key.Key_Y)
"""Redo on Windows and in most office programs: a learner tries it where the platform's
own Redo is Ctrl+Shift+Z (Linux, macOS's Cmd+Shift+Z)."""


def redo_keys() -> list[QKeySequence]:
    """The platform's Redo keys, and Ctrl+Y if it is not among them."""
    keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    return keys if _CTRL_Y in keys else [*keys, _CTRL_Y]


def editing_a_cell(widget: QWidget | None) -> bool:
    """Whether ``widget`` is (inside) the open editor of an item view's cell."""
    w = widget
    while w is not None:
        if isinstance(w, QAbstractItemView):
            return w.state() == QAbstractItemView.State.EditingState
        w = w.parentWidget()
    return False


class ApplicationUndoWins(QObject):
    """Event filter on the focus chain: undo/redo keys pressed in ``window`` go to its
    actions."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        self.watched: list[QWidget] = []
        """The focus widget and its parents up to ``window``: what the filter watches."""

    def install(self) -> ApplicationUndoWins:
        """Follow the focus from now on (Qt drops the connection when the window goes)."""
        QApplication.instance().focusChanged.connect(self._follow_focus)
        self._follow_focus(None, QApplication.focusWidget())
        return self

    def _follow_focus(self, _old, now: QWidget | None) -> None:
        for widget in self.watched:
            if isValid(widget):
                widget.removeEventFilter(self)
        self.watched = []
        if now is None or not isValid(now) or now.window() is not self.window:
            return
        widget = now
        while widget is not None:
            widget.installEventFilter(self)
            self.watched.append(widget)
            if widget.isWindow():
                break
            widget = widget.parentWidget()

    def eventFilter(self, watched, event) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride:
            return False
        if not (any(event.matches(key) for key in _UNDO_KEYS)
                or QKeySequence(event.keyCombination()) == _CTRL_Y):
            return False
        focus = QApplication.focusWidget()
        if focus is None or focus.window() is not self.window or editing_a_cell(focus):
            return False
        # Filtered out for the focus widget and each parent Qt offers it to next: nobody
        # accepts the override, so the window's Undo/Redo shortcut fires.
        return True
