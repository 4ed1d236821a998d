"""A pane's right-click menu (and the export it may open) takes the mouse: the pane's
Leave never comes. The outlines on X, Q, K, V and the status bar's read-out stayed
until the mouse crossed a pane again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QContextMenuEvent, QCursor
from PySide6.QtWidgets import QMenu

from qkv_desktop.views.panes import heatmap_pane
from tests.views.test_panes import cell_widget_pos, hover_over


@pytest.fixture
def menu_then_cursor(monkeypatch):
    """``menu_then_cursor(pos)``: the pane's menu, when it opens, returns at once with
    the pointer moved to the global ``pos`` (where the user went with the dialog)."""
    def arrange(pos: QPoint):
        class Menu(QMenu):
            def exec(self, *_args):
                QCursor.setPos(pos)
        monkeypatch.setattr(heatmap_pane, "QMenu", Menu)
    return arrange


def _right_click(pane, row: int, col: int) -> None:
    viewport = pane.plot.viewport()
    at = cell_widget_pos(pane, row, col)
    local = pane.mapFrom(viewport, at)
    pane.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Mouse, local,
                                            viewport.mapToGlobal(at)))


def test_the_hover_goes_when_the_menu_closes_away_from_the_pane(main_window,
                                                               menu_then_cursor):
    window = main_window
    pane = window.panes.panes["weights"]
    hover_over(pane, 1, 1)
    assert window.model.hover is not None and window.hover_label.text()
    assert window.panes.panes["Q"].overlay.links
    editor = window.editor
    menu_then_cursor(editor.mapToGlobal(editor.rect().center()))
    _right_click(pane, 1, 1)
    assert window.model.hover is None
    assert window.panes.panes["Q"].overlay.links == []
    assert window.hover_label.text() == ""


def test_the_hover_stays_when_the_menu_closes_over_the_pane(main_window, menu_then_cursor):
    window = main_window
    pane = window.panes.panes["weights"]
    hover_over(pane, 1, 1)
    hovered = window.model.hover
    assert hovered is not None
    menu_then_cursor(pane.plot.viewport().mapToGlobal(cell_widget_pos(pane, 1, 1)))
    _right_click(pane, 1, 1)
    assert window.model.hover == hovered
    assert window.panes.panes["Q"].overlay.links


def test_the_hover_goes_when_the_pointer_leaves_after_the_menu_closed_over_the_pane(
        main_window, menu_then_cursor, qtbot):
    """Esc in the export dialog closes it with the pointer still over the pane; Qt then
    sent the pane no Leave when the pointer went to the editor, and the outlines and
    the read-out stayed (a first user). The pane watches the pointer until it leaves."""
    window = main_window
    pane = window.panes.panes["weights"]
    hover_over(pane, 1, 1)
    menu_then_cursor(pane.plot.viewport().mapToGlobal(cell_widget_pos(pane, 1, 1)))
    _right_click(pane, 1, 1)
    assert window.model.hover is not None

    class NoNews(QObject):  # as under the user's window manager: nothing tells the pane
        def eventFilter(self, obj, event):
            return event.type() in (QEvent.Type.Leave, QEvent.Type.HoverLeave,
                                    QEvent.Type.MouseMove, QEvent.Type.HoverMove)
    deaf = NoNews()
    watched = (pane, pane.plot, pane.plot.viewport())
    for w in watched:
        w.installEventFilter(deaf)
    try:
        editor = window.editor
        QCursor.setPos(editor.mapToGlobal(editor.rect().center()))
        qtbot.waitUntil(lambda: window.model.hover is None, timeout=5000)
    finally:
        for w in watched:
            w.removeEventFilter(deaf)
    assert window.panes.panes["Q"].overlay.links == []
    assert window.hover_label.text() == ""
    qtbot.waitUntil(lambda: not pane._pointer_watch.isActive(), timeout=5000)  # ends
