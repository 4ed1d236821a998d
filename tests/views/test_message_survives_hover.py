"""A message on the status bar stays readable while the pointer moves about the window.

The hovered cell's read-out has its own field (``StatusBar.hover_label``) and leaves
the message its room; a status tip (the token bar's buttons, the menus' items) stands
in for the message only while the pointer is on its item, then the message is back
for the rest of its time (``StatusBar.show_tip``). Before, Qt's own status-tip
handling cleared the bar when the pointer left the button, and the note or refusal
was gone for good on the pointer's way from the table to the panes.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetrics, QStatusTipEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.views.helpers import cell_widget_pos

NOTE = "Renamed token 2 to 爱: the panes' axes follow the new name."


def settle(window) -> None:
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


def message_read(bar, message: str) -> list[str]:
    """What keeps ``message`` from being read on ``bar``: not the message, drawn cut, or
    in no room at all."""
    problems = []
    if bar.currentMessage() != message:
        problems.append(f"the bar says {bar.currentMessage()!r}")
    room = bar.message_rect()
    if room.width() < QFontMetrics(bar.font()).horizontalAdvance(message):
        problems.append(f"drawn in {room.width()} px")
    if bar.shown_message() != message:
        problems.append(f"drawn as {bar.shown_message()!r}")
    if not bar.isVisible() or bar.visibleRegion().intersected(room).isEmpty():
        problems.append("its room is not on screen")
    return problems


def tip(widget, text: str) -> None:
    """What Qt sends as the pointer enters (``text``) or leaves (empty) a widget with a
    status tip: an event that travels up to the window."""
    QCoreApplication.sendEvent(widget, QStatusTipEvent(text))


@pytest.mark.parametrize("size", [(1024, 700), (1366, 768)])
def test_a_note_stays_readable_while_a_cell_is_hovered(make_window, size):
    window = make_window(size=size)
    settle(window)
    bar = window.statusBar()
    window.model.noted.emit(NOTE)
    assert not message_read(bar, NOTE)
    pane = window.panes.panes["weights"]
    for row, col in ((1, 2), (3, 0)):
        QTest.mouseMove(pane.plot.viewport(), cell_widget_pos(pane, row, col))
        QApplication.processEvents()
        assert bar.hover_label.text().startswith("w["), bar.hover_label.text()
        assert bar.hover_label.isVisible() and bar.hover_label.width() > 0
        assert not message_read(bar, NOTE), (row, col, message_read(bar, NOTE))


def test_a_status_tip_stands_in_for_the_message_only_while_pointed_at(make_window):
    window = make_window(size=(1366, 768))
    settle(window)
    bar = window.statusBar()
    button = window.token_bar.widgetForAction(window.token_bar.actions()[0])
    assert button.statusTip()
    window.model.noted.emit(NOTE)
    tip(button, button.statusTip())  # the pointer on "Add token"
    assert bar.currentMessage() == button.statusTip()
    tip(button, "")  # …and off it, on its way to the panes
    assert not message_read(bar, NOTE), message_read(bar, NOTE)
    pane = window.panes.panes["weights"]
    QTest.mouseMove(pane.plot.viewport(), cell_widget_pos(pane, 1, 2))
    QApplication.processEvents()
    assert not message_read(bar, NOTE), message_read(bar, NOTE)

    # a refusal is old news once a change lands, even while a tip stood in for it
    window.model.refused.emit("Not applied: 'abc' is not a number")
    tip(button, button.statusTip())
    window.model.set_cell("X", 0, 0, 0.5)
    settle(window)
    tip(button, "")
    assert bar.currentMessage() == ""


def test_no_message_no_tip_leaves_the_bar_empty(make_window):
    window = make_window(size=(1024, 700))
    settle(window)
    bar = window.statusBar()
    button = window.token_bar.widgetForAction(window.token_bar.actions()[0])
    tip(button, button.statusTip())
    assert bar.currentMessage() == button.statusTip()
    tip(button, "")
    assert bar.currentMessage() == ""


@pytest.mark.xvfb
def test_a_note_survives_the_pointer_crossing_the_token_bar_to_a_cell(x_display, tmp_path):
    """On a real X display: the pointer itself (enter and leave events, the status tips
    Qt sends for them) goes from the table over the "Add token" button to a weight."""
    from tests.xdisplay import run_on_display
    out = run_on_display(x_display, tmp_path, f'''
        from PySide6.QtGui import QCursor
        bar = window.statusBar()
        window.model.noted.emit({NOTE!r})
        button = window.token_bar.widgetForAction(window.token_bar.actions()[0])
        pane = window.panes.panes["weights"]
        vb = pane.plot.getPlotItem().getViewBox()
        from PySide6.QtCore import QPointF
        cell = pane.plot.viewport().mapToGlobal(pane.plot.mapFromScene(
            vb.mapViewToScene(QPointF(2.5, 1.5))))
        table = window.editor.viewport()
        QCursor.setPos(table.mapToGlobal(table.rect().center()))
        QTest.qWait(200)
        QCursor.setPos(button.mapToGlobal(button.rect().center()))
        QTest.qWait(300)
        out["on_button"] = bar.currentMessage()
        QCursor.setPos(cell)
        QTest.qWait(300)
        out["on_cell"] = bar.currentMessage()
        out["shown"] = bar.shown_message()
        out["room"] = bar.message_rect().width()
        out["needed"] = bar.fontMetrics().horizontalAdvance(bar.currentMessage())
        out["hover"] = bar.hover_label.text()
        out["hover_width"] = bar.hover_label.width() if bar.hover_label.isVisible() else 0
    ''', size=(1366, 768))
    assert out["on_button"] == "Append a token with a zero vector (Ctrl+Enter)", out
    assert out["on_cell"] == NOTE and out["shown"] == NOTE, out
    assert out["room"] >= out["needed"] > 0, out
    assert out["hover"].startswith("w[") and out["hover_width"] > 0, out
