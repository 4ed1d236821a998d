"""The window's shortcuts (Ctrl+Z, Ctrl+E, …) are the window's, even with a box focused,
except inside a cell being edited.

A spin box keeps keyboard focus after its arrows are clicked, and its line edit claims
some keys for itself (it accepts the ``ShortcutOverride`` event Qt sends before firing a
shortcut): Ctrl+Z then undid the spin box's text while Edit offered "Undo Set d_k to
8", and on X11, where Ctrl+E moves a line edit to the end of its line, Export all's
Ctrl+E did nothing while a box had the focus. This filter declines such a claim for
the undo and redo keys (Ctrl+Y too) and every Ctrl or Alt key, in every widget of the
window except an open table-cell editor, whose own text undo is what a typist expects:
where the window has a shortcut for the key it fires, and where it has none the box
gets the key as before. The keys a box edits its text with, Ctrl+A, Ctrl+C, Ctrl+V and
Ctrl+X, stay the box's, as do keys without Ctrl or Alt (typing).

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

__all__ = ["WindowShortcutsWin", "editing_a_cell", "redo_keys", "undo_in_lab"]

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)

_BOX_KEYS = (QKeySequence.StandardKey.Copy, QKeySequence.StandardKey.Paste,
             QKeySequence.StandardKey.Cut, QKeySequence.StandardKey.SelectAll)
"""Keys a box keeps, whatever the window's actions: its text's copy, paste, cut and
select all."""

_COMMAND = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
"""A key is a command, which a window's shortcut may take, only with one of these
(without, it is typing: a window's Esc or F5 never takes a key from a box)."""

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


class WindowShortcutsWin(QObject):
    """Event filter on the focus chain: undo/redo keys, and the other keys of
    ``window``'s shortcuts but a box's copy, paste, cut and select all, pressed in
    ``window`` go to its actions."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        self.watched: list[QWidget] = []
        """The focus widget and its parents up to ``window``: what the filter watches."""

    def install(self) -> WindowShortcutsWin:
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

    def _window_wins(self, event) -> bool:
        """Whether the box's claim of the key of ``event`` is declined: undo and redo,
        and every Ctrl or Alt key but the box's text editing. Declining a claim only
        gives the window's shortcuts their turn: a key no shortcut of the window has
        still reaches the box as a key press (Ctrl+U still empties its line on X11)."""
        if any(event.matches(key) for key in _UNDO_KEYS):
            return True
        return (bool(event.modifiers() & _COMMAND)
                and not any(event.matches(key) for key in _BOX_KEYS))

    def eventFilter(self, watched, event) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not self._window_wins(event):
            return False
        focus = QApplication.focusWidget()
        if focus is None or focus.window() is not self.window or editing_a_cell(focus):
            return False
        # Filtered out for the focus widget and each parent Qt offers it to next: nobody
        # accepts the override, so the window's shortcut fires.
        return True


def undo_in_lab(lab: QWidget, main: QWidget) -> QWidget:
    """Give the top-level ``lab`` window the main window's Undo and Redo, keys included
    (a box focused in the lab gives them up as it does in the main window), and return
    it. A learner who has just dragged the RoPE base or trained in a lab pressed Ctrl+Z
    there, and nothing happened: a lab is a window of its own, and a shortcut acts only
    in the window that holds its action."""
    lab.addActions([main.undo_action, main.redo_action])
    lab.shortcuts_win = WindowShortcutsWin(lab).install()
    return lab
