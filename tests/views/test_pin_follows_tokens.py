"""The pinned cell in the window follows its tokens through a move (Alt+Up) and its undo,
and no view shows it against a result of another state: between an insert and its
result, the Explain panel and the weights pane's outline still show the result before
it. The hover is a position: after an undo, no tip or status-bar text names a cell
that is not under the cursor. (The edits' row maps: tests/model/test_pin_row_maps.py.)"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.state import CellRef
from tests.views.helpers import cell_scene_pos

PIN = CellRef("weights", 2, 1)  # 人工 → 爱 on tutorial-1


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(4):
        QApplication.processEvents()


def pairs(text: str) -> set[tuple[str, str]]:
    """The (query → key) pairs a text names: w[人工 → 爱], s[…], … (not the sums' j)"""
    return {p for p in re.findall(r"\[(\S+) → (\S+?)\]", text) if p[1] != "j"}


def test_alt_up_takes_the_pin_with_its_token_and_undo_brings_it_back(main_window):
    window, model = main_window, main_window.model
    model.set_selection(PIN)
    settle(window)
    panel = window.teaching.explain.browser
    assert pairs(panel.toPlainText()) == {("人工", "爱")}
    window.editor.setCurrentIndex(window.editor.table.index(2, 1))  # 人工
    window.move_up_action.trigger()
    settle(window)
    assert model.state.tokens == ("我", "人工", "爱", "智能")
    assert model.selection == CellRef("weights", 1, 2)  # was None (names all unchanged)
    assert pairs(panel.toPlainText()) == {("人工", "爱")}
    assert window.panes.panes["weights"].overlay.pinned == (1, 2)
    window.undo_action.trigger()
    settle(window)
    assert model.selection == PIN
    assert window.panes.panes["weights"].overlay.pinned == (2, 1)
    window.redo_action.trigger()
    settle(window)
    assert model.selection == CellRef("weights", 1, 2)


def test_no_view_shows_the_pin_against_the_result_of_another_state(main_window):
    """Pinned 人工 → 爱, a token inserted at row 0: the panel read w[人工 → 爱], then
    w[智能 → 人工] (the pin of the new state on the old result) until the result came."""
    window, model = main_window, main_window.model
    panel = window.teaching.explain
    pane = window.panes.panes["weights"]
    model.set_selection(PIN)
    settle(window)
    seen = []

    def record(*_args):
        result = model.result
        outlined = pane.overlay.pinned
        named = (None if outlined is None
                 else (result.state.tokens[outlined[0]], result.state.key_tokens[outlined[1]]))
        seen.append((pairs(panel.browser.toPlainText()), named))

    # after the views' own slots (connected first), as a user would see them
    model.selectionChanged.connect(record)
    model.resultChanged.connect(record)
    try:
        for edit in (lambda: model.insert_tokens("X", 0), window.undo_action.trigger,
                     window.redo_action.trigger,
                     lambda: model.delete_tokens("X", [1, 4])):  # 我 and 智能
            edit()
            settle(window)
    finally:
        model.selectionChanged.disconnect(record)
        model.resultChanged.disconnect(record)
    assert len(seen) >= 8  # each edit: the pin moved, then the result came
    assert [s for s in seen if s != ({("人工", "爱")}, ("人工", "爱"))] == [], seen


def test_after_an_undo_the_hover_names_no_cell_away_from_the_cursor(main_window):
    """The hover followed the tokens: after Ctrl+Z with the cursor over the weights
    pane, the tip and the status bar described a cell that was not under it."""
    window, model = main_window, main_window.model
    pane = window.panes.panes["weights"]
    model.insert_tokens("X", 0)
    settle(window)
    # 我 → 我 in the 5 × 5 weights; following its tokens after the undo it would be
    # (0, 0), but the cell under the cursor is (1, 1), 爱 → 爱, well inside it
    at = cell_scene_pos(pane, 1, 1)
    # the cursor really there: after a result the pane under it hovers the cell at
    # ``QCursor.pos()``, wherever an earlier test left it
    QCursor.setPos(pane.plot.viewport().mapToGlobal(pane.plot.mapFromScene(at)))
    pane._on_mouse_moved(at)
    settle(window)
    assert model.hover == CellRef("weights", 1, 1)
    label = window.statusBar().hover_label
    try:
        window.undo_action.trigger()
        settle(window)
        # the 4 × 4 weights: another cell is under the cursor now (at its pixel)
        viewport = pane.plot.viewport()
        under = pane.cell_at(pane.plot.mapToScene(viewport.mapFromGlobal(QCursor.pos())))
        assert under == (1, 1)
        hover = model.hover
        assert hover is None or (hover.row, hover.col) == under, (hover, under)
        want = "" if hover is None else describe_cell(model.result, hover)
        assert label.text() == want
        if QToolTip.isVisible() and pane._tip_shown:
            assert "我→我" not in QToolTip.text()  # the old pair
    finally:
        model.set_hover(None)
        QToolTip.hideText()


def test_the_arrow_keys_move_the_pin_as_a_click_does(main_window):
    """A click on a token's cell pins its row; the keys that move the current cell move
    the pin with it (a re-checking user: the X pane's outline stayed on the clicked row
    while the arrows went on)."""
    window, model = main_window, main_window.model
    editor = window.editor
    editor.setFocus()
    centre = editor.visualRect(editor.table.value_index(1, 2)).center()
    QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert (model.selection.matrix, model.selection.row, model.selection.col) == ("X", 1, 2)
    QTest.keyClick(editor, Qt.Key.Key_Down)
    assert (model.selection.matrix, model.selection.row, model.selection.col) == ("X", 2, 2)
    QTest.keyClick(editor, Qt.Key.Key_Right)
    assert (model.selection.row, model.selection.col) == (2, 3)
    QTest.keyClick(editor, Qt.Key.Key_5)  # typing opens an editor: no move, no new pin
    assert (model.selection.row, model.selection.col) == (2, 3)
    line = editor.indexWidget(editor.currentIndex())
    QTest.keyClick(line, Qt.Key.Key_Tab)  # the editor's own Tab: the next cell, and the pin
    assert (model.selection.row, model.selection.col) == (2, 4)
    QTest.keyClick(editor.window().focusWidget(), Qt.Key.Key_Backtab)
    assert (model.selection.row, model.selection.col) == (2, 3)
    line = editor.window().focusWidget()  # (the editor Backtab opened on that cell)
    QTest.keyClick(line, Qt.Key.Key_Escape)
    model.set_selection(None)
    settle(window)
