"""Keys typed faster than the table repaints: each value lands in the cell it was typed
for. A burst of keys reaches Qt together (a busy frame, fast typing); the keys after
Enter are handled before anything Enter left for later."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

KEYS = {"Enter": [Qt.Key.Key_Return], "Enter Right": [Qt.Key.Key_Return, Qt.Key.Key_Right],
        "Tab": [Qt.Key.Key_Tab]}


def _press_in_one_burst(editor, values, after) -> None:
    """Each key to the widget holding the keyboard at that moment, as X delivers it,
    with no turn of the event loop in between (the keys arrived together)."""
    for value in values:
        for ch in value:
            QTest.keyClick(editor.window().focusWidget(), ch)
        for key in after:
            QTest.keyClick(editor.window().focusWidget(), key)


@pytest.mark.parametrize("keys", ["Enter Right", "Tab"])
def test_values_typed_ahead_land_one_per_cell_along_the_row(main_window, keys):
    window = main_window
    editor = window.editor
    editor.setFocus()
    editor.setCurrentIndex(editor.table.value_index(0, 0))
    _press_in_one_burst(editor, ["0.5", "1.25", "-2"], KEYS[keys])
    QApplication.processEvents()
    assert window.model.wait_until_idle()
    assert window.model.state.X[0, :3].tolist() == [0.5, 1.25, -2.0]
    assert editor.currentIndex() == editor.table.value_index(0, 3)


def test_a_value_typed_after_enter_replaces_the_one_just_entered(main_window):
    """Enter stays on its cell (as Qt's tables do): the next value typed is that cell's
    new value, and nothing typed goes to a closing editor."""
    window = main_window
    editor = window.editor
    editor.setFocus()
    editor.setCurrentIndex(editor.table.value_index(1, 1))
    _press_in_one_burst(editor, ["0.5", "0.75"], KEYS["Enter"])
    QApplication.processEvents()
    assert window.model.wait_until_idle()
    assert float(window.model.state.X[1, 1]) == 0.75
    assert window.model.undo_stack.count() == 2
