"""A cell's refusal note goes once the learner has moved on: when they start editing
another cell, or give the refused cell a good value (a first-time user typed on into
the next cell with "Not applied: …" still hanging under the one before). The note is
a plain child widget, so offscreen ``isVisible()`` is its whole state; no timing."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.views.helpers import type_into_cell


def refuse(editor, row: int, col: int):
    type_into_cell(editor, row, col, "abc")
    assert editor.balloon.isVisible()
    return editor.balloon


def close_editor(editor, index) -> None:
    """Escape out of the cell editor open on ``index``: the window is the module's."""
    line = editor.indexWidget(index)
    assert line is not None, "no cell editor open"
    QTest.keyClick(line, Qt.Key.Key_Escape)


def test_the_note_goes_when_another_cell_is_typed_into(main_window):
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    index = editor.table.value_index(3, 3)
    editor.setCurrentIndex(index)
    QTest.keyClick(editor, Qt.Key.Key_5)  # typing opens the next cell's editor (Qt's edit)
    assert not balloon.isVisible()
    close_editor(editor, index)


def test_the_note_stays_while_the_refused_cell_is_typed_again(main_window):
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    index = editor.table.value_index(2, 3)
    assert editor.edit(index, editor.EditTrigger.AllEditTriggers, None)
    assert balloon.isVisible()  # the reason is still there to read while retyping
    close_editor(editor, index)


def test_escape_in_the_refused_cells_editor_sends_the_note_away(main_window):
    """Retyping the refused cell keeps the note; Escape there (the editor takes the key,
    the table never sees it) lets the cell be, and the note goes with it."""
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    index = editor.table.value_index(2, 3)
    assert editor.edit(index, editor.EditTrigger.AllEditTriggers, None)
    assert balloon.isVisible()
    close_editor(editor, index)
    assert not balloon.isVisible()


def test_the_note_goes_when_the_refused_cell_gets_its_own_value_back(main_window):
    """A good value that changes nothing (the cell's own value) lands no change, yet
    the refused text was replaced by a good one: the note has had its say."""
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    steps = main_window.model.undo_stack.count()
    type_into_cell(editor, 2, 3, repr(float(main_window.model.state.X[2, 3])))
    assert main_window.model.undo_stack.count() == steps  # no change landed
    assert not balloon.isVisible()


def test_the_note_goes_when_a_weight_table_cell_is_edited(main_window):
    table = main_window.weight_editors["W_Q"]
    main_window.tabs.setCurrentWidget(table)
    try:
        balloon = refuse(table, 0, 0)
        index = table.table.value_index(1, 1)
        table.setCurrentIndex(index)
        assert table.edit(index, table.EditTrigger.AllEditTriggers, None)
        assert not balloon.isVisible()
        close_editor(table, index)
    finally:
        main_window.tabs.setCurrentIndex(0)  # the module's window, as the next test expects


def test_a_previews_weights_do_not_take_the_refusal_away(main_window):
    """The gradient lab installs its weights every frame while it trains (a preview):
    a refusal said meanwhile, at the cell, under a control or in the status bar,
    vanished at once (a review). A real change still takes it away."""
    window, model = main_window, main_window.model
    balloon = refuse(window.editor, 2, 3)
    said = window.statusBar().currentMessage()
    assert said.startswith("Not applied")
    state = model.state
    model.preview.show(state.with_(X=state.X + 0.125), "Train 1 step")
    assert model.preview.active
    assert balloon.isVisible() and window.statusBar().currentMessage() == said
    model.preview.commit()  # the training's one undo step: a change that lands
    assert not balloon.isVisible() and window.statusBar().currentMessage() != said


def click_cell(editor, row: int, col: int) -> None:
    """A left click on matrix cell (row, col), as the learner moves about the table."""
    centre = editor.visualRect(editor.table.value_index(row, col)).center()
    QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=centre)


def test_the_note_goes_when_another_cell_of_the_table_is_clicked(main_window):
    """A first-time user clicked from cell to cell with the note still up: the keyboard
    never left the table, so only the current cell said they had moved on."""
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    QApplication.processEvents()  # the Enter that said it is over
    click_cell(editor, 2, 3)  # the refused cell itself: still its note
    assert balloon.isVisible()
    click_cell(editor, 1, 1)
    assert editor.currentIndex() == editor.table.value_index(1, 1)
    assert not balloon.isVisible()


def test_a_value_refused_by_clicking_away_is_still_said(main_window):
    """A click on another cell commits the value typed in the open editor: its refusal
    comes while that click moves the current cell, and the note stays to be read."""
    editor = main_window.editor
    index = editor.table.value_index(2, 3)
    editor.setFocus()
    editor.setCurrentIndex(index)
    assert editor.edit(index, editor.EditTrigger.AllEditTriggers, None)
    line = editor.indexWidget(index)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(line, "abc")
    click_cell(editor, 0, 1)
    assert editor.currentIndex() == editor.table.value_index(0, 1)
    assert editor.balloon.isVisible() and "abc" in editor.balloon.text()
    QApplication.processEvents()  # that click is over
    click_cell(editor, 1, 1)  # and the next move takes it away
    assert not editor.balloon.isVisible()


def test_the_note_goes_when_the_tables_empty_part_is_clicked(main_window):
    """A click below the rows (or right of the columns) moves no current cell, yet the
    learner has moved on (a re-checking user found the note still up)."""
    editor = main_window.editor
    balloon = refuse(editor, 2, 3)
    QApplication.processEvents()  # the Enter that said it is over
    viewport = editor.viewport()
    last = editor.visualRect(editor.table.index(editor.table.rowCount() - 1,
                                                editor.table.columnCount() - 1))
    if last.bottom() + 8 < viewport.height():  # below the rows
        spot = QPoint(min(last.center().x(), viewport.width() - 2), last.bottom() + 8)
    else:  # right of the columns
        spot = QPoint(min(last.right() + 8, viewport.width() - 2), last.center().y())
    assert not editor.indexAt(spot).isValid(), "no empty part of the table to click"
    current = editor.currentIndex()
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=spot)
    assert editor.currentIndex() == current
    assert not balloon.isVisible()
