"""Issue 18's bugs, as a learner met them in the first hour: feedback that can be seen,
views that follow the session, no placeholder links."""

import numpy as np
import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget

from qkv_desktop.state import CellRef, SessionState
from tests.views.helpers import type_into_cell


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


def message_room(bar) -> int:
    """The width QStatusBar draws its message in: from 6 px to the first widget shown."""
    shown = [w for w in bar.findChildren(QWidget) if w.parentWidget() is bar and w.isVisible()
             and w.width() > 0]
    left = min((w.x() for w in shown), default=bar.width() - 12)
    return left - 6 - 2


def test_a_refused_value_is_readable_in_the_status_bar_beside_a_long_hover(main_window):
    window = main_window
    window.model.set_hover(CellRef("Q", 2, 0))  # the longest read-out: a dot product
    assert len(window.hover_label.text()) > 30
    type_into_cell(window.editor, 0, 0, "abc")
    settle(window)
    bar = window.statusBar()
    text = bar.currentMessage()
    assert text.startswith("Not applied: ")
    assert message_room(bar) >= bar.fontMetrics().horizontalAdvance(text)
    assert window.hover_label.isVisible() and window.hover_label.width() > 100
    bar.clearMessage()
    settle(window)  # without a message the read-out has the room again
    assert window.hover_label.width() >= window.hover_label.sizeHint().width() - 1


def test_the_symmetry_dock_redraws_while_it_is_the_visible_tab(main_window):
    window = main_window
    window.findChild(QAction, "resetLayout").trigger()
    window.teaching.docks["symmetry"].raise_()
    settle(window)
    view = window.teaching.symmetry
    window.model.set_cell("X", 0, 0, 3.5)
    assert window.model.wait_until_idle()  # drawn when the result arrives, not at a later paint
    scores = window.model.result.head().scores
    np.testing.assert_allclose(view.qk.image.image, scores)
    np.testing.assert_array_equal(view.qk.data, scores)  # values and image, not later


def test_view_menu_pane_names_follow_shape_and_mode(main_window):
    window = main_window
    x = window.pane_actions["X"]
    assert x.text() == "X (input vectors) (4×8)"
    window.model.set_d_model(9)
    settle(window)
    assert x.text() == "X (input vectors) (4×9)"
    window.model.set_mode("cross")
    settle(window)
    assert x.text().startswith("X (query sequence)")
    assert window.pane_actions["X_kv"].text().startswith("X_kv (key/value sequence) (")
    window.model.set_heads(2)
    settle(window)
    assert window.pane_actions["Q"].text().startswith("head 1: Q = X·W_Q")


def test_loading_a_session_lets_go_of_the_old_hover_and_pin(main_window):
    window = main_window
    model = window.model
    model.set_hover(CellRef("weights", 1, 2))
    model.set_selection(CellRef("scores", 0, 1))
    assert window.hover_label.text().startswith("w[爱→")
    assert window.panes.panes["weights"].overlay.links
    model.load_state(SessionState.from_preset("tutorial-2"), "Load preset tutorial-2")
    settle(window)
    assert model.hover is None and model.selection is None
    assert window.hover_label.text() == ""
    assert not window.panes.panes["weights"].overlay.links
    assert window.panes.panes["scores"].overlay.pinned is None


def test_the_hover_read_out_follows_the_recomputed_value(main_window):
    window = main_window
    window.model.set_hover(CellRef("X", 0, 0))
    before = window.hover_label.text()
    window.model.set_cell("X", 0, 0, 0.125)
    settle(window)
    assert window.hover_label.text() != before and "0.125" in window.hover_label.text()


def test_about_names_no_placeholder_address():
    from pathlib import Path

    from qkv_desktop.views.identity import about_text
    assert "example.org" not in about_text() and "href" not in about_text()
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert "example.org" not in pyproject


def test_message_room_helper_sees_the_hover_label(main_window):
    """The geometry helper above measures what it should: a full-width widget leaves none."""
    bar = main_window.statusBar()
    main_window.hover_label.setMinimumWidth(bar.width() - 20)
    try:
        settle(main_window)
        assert message_room(bar) < 20
    finally:
        main_window.hover_label.setMinimumWidth(0)



@pytest.mark.parametrize("text", ["abc", "1,5"])
def test_a_refused_value_is_also_said_at_the_cell(main_window, text):
    editor = main_window.editor
    type_into_cell(editor, 2, 3, text)
    balloon = editor.balloon
    assert balloon.isVisible()
    assert balloon.text() == main_window.statusBar().currentMessage()
    assert balloon.text().startswith("Not applied: ")
    cell = editor.visualRect(editor.table.value_index(2, 3))
    assert editor.viewport().rect().contains(balloon.geometry())  # nothing of it clipped
    assert abs(balloon.y() - cell.bottom()) <= 4 or abs(balloon.geometry().bottom() - cell.top()) <= 4
    type_into_cell(editor, 2, 3, "0.5")  # the next good value: the note has had its say
    assert main_window.model.state.X[2, 3] == 0.5
    assert not balloon.isVisible()


def test_a_refused_paste_is_said_at_the_cell(main_window):
    editor = main_window.editor
    editor.setCurrentIndex(editor.table.value_index(1, 1))
    assert not editor.paste("1\tx")
    assert editor.balloon.isVisible() and editor.balloon.text().startswith("Paste refused: ")


# ------------------------------------------------------------------ guidance


def test_weight_table_columns_are_named_as_the_panes_d_k_axis(main_window):
    from PySide6.QtCore import Qt

    from qkv_desktop.presentation.pane_info import pane_labels
    table = main_window.weight_editors["W_Q"].table
    horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
    q_columns = pane_labels(main_window.model.result, "Q")[1]
    assert [table.headerData(c, horizontal) for c in range(table.columnCount())] == q_columns
    x_columns = [main_window.editor.table.headerData(c + 1, horizontal) for c in range(8)]
    assert [table.headerData(r, vertical) for r in range(table.rowCount())] == x_columns
    assert "column 2 of Q" in table.headerData(2, horizontal, Qt.ItemDataRole.ToolTipRole)
    assert not any(str(table.headerData(c, horizontal)).startswith("k")
                   for c in range(table.columnCount()))


def test_undo_texts_say_which_value_changed_and_how(main_window, qtbot):
    window = main_window
    type_into_cell(window.editor, 0, 0, "0.9")
    assert window.undo_action.text() == "&Undo X[我, d0] 0.8 → 0.9"
    window.weight_editors["W_K"].table.setData(
        window.weight_editors["W_K"].table.index(1, 2), "0.5")
    old = window.model.undo_stack.undoText()
    assert old.startswith("W_K[d1, 2] ") and old.endswith(" → 0.5")


def test_a_scrub_names_its_first_and_last_value(main_window):
    model = main_window.model
    gesture = model.new_gesture()
    for value in (0.85, 0.95, 1.25):
        model.set_cell("X", 1, 1, value, gesture=gesture)
    assert model.undo_stack.count() == 1
    assert model.undo_stack.undoText() == "X[爱, d1] 0.9 → 1.25"


def test_the_scaling_lab_has_a_close_button(main_window, qtbot):
    from PySide6.QtWidgets import QDialogButtonBox
    teaching = main_window.teaching
    teaching.show_lab()
    lab = teaching.lab
    qtbot.waitExposed(lab)
    button = lab.buttons.button(QDialogButtonBox.StandardButton.Close)
    assert button.isVisible()
    button.click()
    assert not lab.isVisible()
    assert "Ctrl+W" in {k.toString() for k in lab.close_action.shortcuts()}
