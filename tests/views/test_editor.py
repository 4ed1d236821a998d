"""The token table as a user drives it: typing, refusals, paste, copy and scrubbing."""

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from qkv_desktop.core import attention
from qkv_desktop.views.editors.matrix_editor import SCRUB_PER_PIXEL
from tests.views.helpers import type_into_cell, type_text

EDIT = Qt.ItemDataRole.EditRole
PANE_KEYS = ("X", "Q", "K", "V", "scores", "scaled", "weights", "output")


def shown_matrices(window) -> dict:
    return {key: window.panes.panes[key].image.image for key in PANE_KEYS}


def core_matrices(state) -> dict:
    r = attention(state.X, state.weights)
    return {"X": state.X, **r.matrices()}


def test_typing_a_value_gives_one_result_and_every_pane_shows_the_core(main_window):
    window = main_window
    model = window.model
    results = []
    model.resultChanged.connect(results.append)
    type_into_cell(window.editor, 1, 2, "0.75")
    assert model.state.X[1, 2] == 0.75
    assert model.wait_until_idle()
    assert len(results) == 1
    want = core_matrices(model.state)
    for key, shown in shown_matrices(window).items():
        assert shown.shape == want[key].shape, key
        assert np.array_equal(shown, want[key]), key


def test_ten_edits_in_one_event_loop_turn_cost_one_core_call(main_window):
    window = main_window
    model, table = window.model, window.editor.table
    before = model.compute_calls
    results = []
    model.resultChanged.connect(results.append)
    for k in range(10):
        assert table.setData(table.value_index(k % 4, k % 8), str(k / 7), EDIT)
    assert model.wait_until_idle()
    assert model.compute_calls == before + 1 and len(results) == 1
    assert np.array_equal(window.panes.panes["weights"].image.image,
                          core_matrices(model.state)["weights"])


@pytest.mark.parametrize("text", ["abc", "nan", "inf", "", "1e400", "1,5", "0x10", "١٢"])
def test_bad_input_is_refused_with_a_message_and_nothing_changes(main_window, text):
    window = main_window
    before = window.model.state
    type_into_cell(window.editor, 2, 3, text)
    assert window.model.state.equals(before)
    assert window.model.undo_stack.count() == 0
    assert window.statusBar().currentMessage().startswith("Not applied: ")
    assert window.editor.table.data(window.editor.table.value_index(2, 3),
                                    Qt.ItemDataRole.DisplayRole) == "0.4000"


def test_underflow_is_stored_as_zero_and_said(main_window):
    window = main_window
    type_into_cell(window.editor, 0, 0, "1e-400")
    assert window.model.state.X[0, 0] == 0.0
    assert "stored as 0" in window.statusBar().currentMessage()
    # the next value typed: the note about the old one goes (a first user read it
    # over −0.25)
    type_into_cell(window.editor, 0, 0, "-0.25")
    assert window.model.state.X[0, 0] == -0.25
    assert "stored as 0" not in window.statusBar().currentMessage()


def test_renaming_a_token_by_typing(main_window):
    window = main_window
    editor = window.editor
    editor.setCurrentIndex(editor.table.index(1, 0))
    editor.edit(editor.table.index(1, 0), editor.EditTrigger.AllEditTriggers, None)
    line = editor.indexWidget(editor.table.index(1, 0))
    line.selectAll()
    type_text(line, "喜欢")
    QTest.keyClick(line, Qt.Key.Key_Return)
    QGuiApplication.processEvents()
    assert window.model.state.tokens[1] == "喜欢"
    assert window.model.wait_until_idle()
    assert window.panes.panes["weights"]._labels[0][1] == "喜欢"


def _paste_at(window, row: int, col: int, text: str) -> bool:
    editor = window.editor
    editor.setCurrentIndex(editor.table.index(row, col))
    QGuiApplication.clipboard().setText(text)
    return editor.paste()


def test_paste_tsv_without_names_overwrites_a_block(main_window):
    window = main_window
    s0 = window.model.state
    assert _paste_at(window, 1, 2, "1\t2\n3\t4")  # column 2 of the table is d1
    X = window.model.state.X
    assert X[1, 1] == 1 and X[1, 2] == 2 and X[2, 1] == 3 and X[2, 2] == 4
    assert window.model.state.tokens == s0.tokens
    window.undo_action.trigger()
    assert window.model.state.equals(s0)


def test_paste_csv_with_names_grows_the_table(main_window):
    window = main_window
    model = window.model
    s0 = model.state
    assert _paste_at(window, 3, 0, "狗,1,2,3,4,5,6,7,8,9\n猫,9,8,7,6,5,4,3,2,1")
    s1 = model.state
    assert s1.tokens == ("我", "爱", "人工", "狗", "猫")
    assert s1.X.shape == (5, 9) and s1.d_model == 9  # a new dimension: weights re-made
    assert np.array_equal(s1.X[4], [9, 8, 7, 6, 5, 4, 3, 2, 1])
    assert np.array_equal(s1.X[:3, 8], [0, 0, 0])  # the new column is zero elsewhere
    assert window.editor.table.rowCount() == 5 and window.editor.table.columnCount() == 10
    assert model.wait_until_idle()
    assert window.panes.panes["weights"].image.image.shape == (5, 5)
    window.undo_action.trigger()
    assert model.state.equals(s0)
    window.redo_action.trigger()
    assert model.state.equals(s1)


@pytest.mark.parametrize("text", ["1\t2\n3\tx", "a,1,2\nb,1,nan", "1,2\n3"])
def test_a_block_with_one_bad_cell_is_refused_whole(main_window, text):
    window = main_window
    s0 = window.model.state
    assert not _paste_at(window, 0, 1, text)
    assert window.model.state.equals(s0) and window.model.undo_stack.count() == 0
    assert window.statusBar().currentMessage().startswith("Paste refused: ")


def test_a_100000_row_paste_is_refused_before_parsing(main_window):
    window = main_window
    s0 = window.model.state
    assert not _paste_at(window, 0, 1, "1\t2\t3\n" * 100_000)
    assert window.model.state is s0 and window.model.undo_stack.count() == 0
    assert "100,000 rows" in window.statusBar().currentMessage()


def test_copy_gives_tsv_of_the_selected_block(main_window):
    window = main_window
    editor = window.editor
    table = editor.table
    selection = QItemSelection(table.index(1, 0), table.index(2, 2))
    editor.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    text = editor.copy_selection()
    assert text == "爱\t0.1\t0.9\n人工\t0.3\t0.2"
    assert QGuiApplication.clipboard().text() == text
    # what was copied pastes back to the same numbers
    s0 = window.model.state
    assert _paste_at(window, 0, 0, text)
    assert window.model.state.tokens[:2] == ("爱", "人工")
    assert np.array_equal(window.model.state.X[:2, :2], s0.X[1:3, :2])


def _press_to_scrub(window):
    """Ctrl+press on X[0, 1]: (editor, model, state before, where, the Ctrl modifier)."""
    editor, model = window.editor, window.model
    start = editor.scroll_to_value(0, 1)
    ctrl = Qt.KeyboardModifier.ControlModifier
    state = model.state
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, start)
    return editor, model, state, start, ctrl


def test_a_ctrl_drag_scrub_is_one_undo_step(main_window):
    window = main_window
    editor, model, s0, start, ctrl = _press_to_scrub(window)
    for dx in range(5, 55, 5):
        QTest.mouseMove(editor.viewport(), start + QPoint(dx, 0))
    QTest.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, ctrl,
                       start + QPoint(50, 0))
    assert model.state.X[0, 1] == pytest.approx(s0.X[0, 1] + 50 * SCRUB_PER_PIXEL)
    assert model.undo_stack.count() == 1
    window.undo_action.trigger()
    assert model.state.equals(s0)


def _send_move(editor, pos, buttons=Qt.MouseButton.LeftButton,
               modifiers=Qt.KeyboardModifier.ControlModifier) -> None:
    """One mouse move over ``editor``, delivered now, with no event-loop turn."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication
    at = QPointF(pos)
    QApplication.sendEvent(editor.viewport(), QMouseEvent(
        QEvent.Type.MouseMove, at, editor.viewport().mapToGlobal(at),
        Qt.MouseButton.NoButton, buttons, modifiers))


def test_a_scrub_applies_at_most_one_value_a_frame_and_the_last_on_release(main_window,
                                                                          qtbot):
    """A mouse reports up to 1000 moves a second; each applied value is an undo merge,
    a table update and a forward's state (issue 20: eight a frame at n = 1024 kept the
    GUI thread busy for 16–20 ms). The first move applies at once, the moves of the
    next frame (``SCRUB_INTERVAL_MS``) only update the value, which then applies."""
    from qkv_desktop.views.editors.matrix_editor import SCRUB_INTERVAL_MS
    window = main_window
    editor, model = window.editor, window.model
    s0 = model.state
    applied = []

    def on_changed() -> None:
        applied.append(float(model.state.X[0, 1]))

    model.changed.connect(on_changed)
    try:
        start = editor.scroll_to_value(0, 1)
        ctrl = Qt.KeyboardModifier.ControlModifier
        QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, start)
        for dx in range(1, 11):
            _send_move(editor, start + QPoint(dx, 0))
        assert applied == [pytest.approx(s0.X[0, 1] + SCRUB_PER_PIXEL)]
        # a frame later the newest value applies, though the mouse rests
        qtbot.waitUntil(lambda: len(applied) == 2, timeout=5 * SCRUB_INTERVAL_MS + 2000)
        assert applied[1] == pytest.approx(s0.X[0, 1] + 10 * SCRUB_PER_PIXEL)
        _send_move(editor, start + QPoint(20, 0))
        _send_move(editor, start + QPoint(30, 0))
        QTest.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, ctrl,
                           start + QPoint(30, 0))
        assert model.state.X[0, 1] == pytest.approx(s0.X[0, 1] + 30 * SCRUB_PER_PIXEL)
        assert len(applied) <= 4 and model.undo_stack.count() == 1
        qtbot.wait(3 * SCRUB_INTERVAL_MS)  # nothing applies after the release
        assert model.state.X[0, 1] == pytest.approx(s0.X[0, 1] + 30 * SCRUB_PER_PIXEL)
    finally:
        model.changed.disconnect(on_changed)


def test_a_scrub_whose_release_never_came_ends_and_keeps_its_last_value(main_window):
    """A dialog or another window can take the release: the next press ends the scrub,
    its pending value on its own cell, and a plain drag then selects instead of editing
    the old cell (it edited it, as if Ctrl were still held)."""
    window = main_window
    editor, model, s0, start, ctrl = _press_to_scrub(window)
    _send_move(editor, start + QPoint(5, 0))
    _send_move(editor, start + QPoint(10, 0))  # pending: within the frame
    # the release went elsewhere; a plain drag on another cell
    other = editor.scroll_to_value(2, 0)
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, other)
    assert model.state.X[0, 1] == pytest.approx(s0.X[0, 1] + 10 * SCRUB_PER_PIXEL)
    after = model.state
    _send_move(editor, other + QPoint(40, 0), modifiers=Qt.KeyboardModifier.NoModifier)
    QTest.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier, other + QPoint(40, 0))
    assert model.state.equals(after)  # it selected: no edit
    # a new Ctrl+press while a value waits: the value goes to the cell it was for
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, start)
    _send_move(editor, start + QPoint(3, 0))
    _send_move(editor, start + QPoint(6, 0))  # pending for X[0, 1]
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, other)
    QTest.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, other)
    assert model.state.X[0, 1] == pytest.approx(after.X[0, 1] + 6 * SCRUB_PER_PIXEL)
    assert model.state.X[2, 0] == after.X[2, 0]
    # the table hidden mid-drag (another tab): the scrub ends with its last value
    before_hide = model.state.X[0, 1]
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, start)
    _send_move(editor, start + QPoint(2, 0))
    _send_move(editor, start + QPoint(4, 0))  # pending
    editor.hide()
    try:
        assert editor._scrub is None
        assert model.state.X[0, 1] == pytest.approx(before_hide + 4 * SCRUB_PER_PIXEL)
    finally:
        editor.show()


def test_an_edit_repaints_only_its_cell_of_the_table(main_window):
    """The columns are re-fitted after every edit (the widest value may have grown);
    re-applying the row height they already had repainted the whole table (issue 20)."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication
    window = main_window
    editor = window.editor
    window.repaint()

    class Paints(QObject):
        rects: list = []

        def eventFilter(self, obj, event) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.rects.append((obj, event.rect()))
            return False

    paints = Paints()
    for widget in (editor.viewport(), editor.verticalHeader().viewport()):
        widget.installEventFilter(paints)
    try:
        window.model.set_cell("X", 1, 2, float(window.model.state.X[1, 2]) / 2)
        assert window.model.wait_until_idle()
        for _ in range(3):
            QApplication.processEvents()
    finally:
        for widget in (editor.viewport(), editor.verticalHeader().viewport()):
            widget.removeEventFilter(paints)
    cell = editor.visualRect(editor.table.value_index(1, 2))
    assert paints.rects and all(obj is editor.viewport() and cell.contains(rect)
                                for obj, rect in paints.rects), (cell, paints.rects)


def test_a_scrub_edits_once_per_refresh_of_the_screen_it_is_on():
    from qkv_desktop.views.editors.matrix_editor import SCRUB_INTERVAL_MS, scrub_interval_ms

    class Screen:
        def __init__(self, rate):
            self.rate = rate

        def refreshRate(self):
            return self.rate

    assert scrub_interval_ms(Screen(60.0)) == 16 == SCRUB_INTERVAL_MS
    assert scrub_interval_ms(Screen(144.0)) == 6
    assert scrub_interval_ms(Screen(0.0)) == SCRUB_INTERVAL_MS  # none reported
    assert scrub_interval_ms(None) == SCRUB_INTERVAL_MS
    assert scrub_interval_ms(Screen(1000.0)) == 4  # never a busy loop


def test_closing_the_window_lands_a_scrubs_waiting_value_first(make_window):
    """Ctrl+S then Ctrl+Q within a frame of a drag (Ctrl is held already): the value
    waiting landed after the model had shut down, a command on a cleared stack."""
    window = make_window()
    editor, model, s0, start, ctrl = _press_to_scrub(window)
    _send_move(editor, start + QPoint(5, 0))
    _send_move(editor, start + QPoint(9, 0))  # waiting for its frame
    shut = []
    real = model.shutdown
    model.shutdown = lambda: (shut.append(model.state.X[0, 1]), real())[-1]
    window.close()
    assert shut == [pytest.approx(s0.X[0, 1] + 9 * SCRUB_PER_PIXEL)]
    assert editor._scrub is None
