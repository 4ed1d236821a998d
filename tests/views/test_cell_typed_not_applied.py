"""A value typed in a table cell and not yet applied (no Enter) when the learner saves,
undoes or quits: a review typed 0.777 into X, pressed Ctrl+S, and the status bar said
"Saved" while the file kept the old value under the editor showing the new one; Ctrl+Q
quit without asking and the typed value was gone."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from qkv_desktop.io.session import load_session
from tests.views.helpers import type_text


def _typed_in_cell(window, row: int, col: int, text: str, monkeypatch):
    """Open cell (row, col) of X, type ``text``, press nothing else; the editor has the
    focus (set here: offscreen windows get none)."""
    editor = window.editor
    index = editor.table.value_index(row, col)
    editor.setCurrentIndex(index)
    assert editor.edit(index, editor.EditTrigger.AllEditTriggers, None)
    line = editor.indexWidget(index)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(line, Qt.Key.Key_Delete)
    type_text(line, text)
    monkeypatch.setattr(QApplication, "focusWidget", staticmethod(lambda: line))
    return line


def test_save_with_a_cell_typed_and_not_applied_saves_that_value(main_window, monkeypatch,
                                                                 tmp_path):
    window = main_window
    path = tmp_path / "s.qkv.json"
    assert window.files.session.save_as(path)
    _typed_in_cell(window, 1, 0, "0.777", monkeypatch)
    assert window.model.state.X[1, 0] != 0.777  # not applied yet
    assert window.files.on_save()
    assert window.model.wait_until_idle()
    assert window.model.state.X[1, 0] == 0.777
    assert load_session(path).state.X[1, 0] == 0.777
    assert not window.isWindowModified()
    assert window.editor.state() != window.editor.State.EditingState  # closed, as Enter


def test_closing_with_a_cell_typed_and_not_applied_keeps_it_as_unsaved_work(main_window,
                                                                             monkeypatch):
    """Closing first applies it: the session is then modified, so closing asks."""
    window = main_window
    assert not window.files.session.modified
    _typed_in_cell(window, 0, 1, "0.5", monkeypatch)
    window.finish_edits()  # what closing, Ctrl+Q and a quit signal do first
    assert window.model.wait_until_idle()
    assert window.model.state.X[0, 1] == 0.5
    assert window.files.session.modified


def test_undo_with_a_cell_typed_applies_it_first_and_undoes_it(main_window, monkeypatch):
    """Edit → Undo (the menu: in the open editor Ctrl+Z undoes its typing) undoes the
    typed value, as a step of its own, not the step before it."""
    window = main_window
    window.model.set_options(temperature=2.0)
    assert window.model.wait_until_idle()
    before = window.model.state.X[0, 0]
    _typed_in_cell(window, 0, 0, "2.5", monkeypatch)
    window.undo_action.trigger()
    assert window.model.wait_until_idle()
    assert window.model.state.X[0, 0] == before
    assert window.model.state.options.temperature == 2.0
    window.redo_action.trigger()
    assert window.model.wait_until_idle()
    assert window.model.state.X[0, 0] == 2.5


@pytest.mark.parametrize("text", ["abc", ""])
def test_a_refused_cell_value_on_save_is_said_at_the_cell_and_the_file_keeps_the_old(main_window,
                                                                         monkeypatch,
                                                                         tmp_path, text):
    window = main_window
    path = tmp_path / "s.qkv.json"
    assert window.files.session.save_as(path)
    before = window.model.state.X[1, 0]
    _typed_in_cell(window, 1, 0, text, monkeypatch)
    window.files.on_save()
    assert window.model.wait_until_idle()
    assert window.model.state.X[1, 0] == before == load_session(path).state.X[1, 0]
    balloon = window.editor.balloon  # said at the cell, where the learner looks
    if text:
        assert balloon.isVisible() and "abc" in balloon.text()
