"""Hostile and odd input typed into cells and token names: refused or parsed, always said.

Every entry goes through the real table model (``MatrixTableModel.setData``, what the
cell editor calls on Enter), so the message a user would see is checked too.
"""

import pytest
from PySide6.QtCore import Qt

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.state.parsing import MAX_TOKEN_LENGTH
from qkv_desktop.views.editors.matrix_table import MatrixTableModel

EDIT = Qt.ItemDataRole.EditRole

CELLS = {
    # text: (accepted value or None, words the message must contain)
    "abc": (None, "is not a number"),
    "nan": (None, "only finite numbers"),
    "NaN": (None, "only finite numbers"),
    "inf": (None, "only finite numbers"),
    "-inf": (None, "only finite numbers"),
    "1e400": (None, "too large"),
    "-1e400": (None, "too large"),
    "": (None, "empty cell"),
    "   ": (None, "empty cell"),
    "0x10": (None, "hexadecimal"),
    "1,5": (None, "decimal separator"),
    "١٢": (None, "is not a number"),
    "１２": (12.0, None),  # full-width digits, as a Chinese input method types them
    "\u22120.5": (-0.5, None),  # the minus sign the app itself writes
    "1" * 10_000: (None, "10000 characters long"),
    "1e-400": (0.0, "stored as 0"),
    " 2.5 ": (2.5, None),
    "-3e-2": (-0.03, None),
}


@pytest.fixture
def table(qapp):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    table = MatrixTableModel(model, "X")
    table.messages = []
    model.message.connect(table.messages.append)
    model.refused.connect(table.messages.append)  # a refusal is said there
    model.noted.connect(table.messages.append)  # a note on the step made ("stored as 0")
    yield table
    model.shutdown()


@pytest.mark.parametrize("text", CELLS, ids=lambda t: repr(t[:12]))
def test_cell_corpus(table, text):
    value, words = CELLS[text]
    model = table.model
    before = model.state
    ok = table.setData(table.value_index(1, 2), text, EDIT)
    assert ok is (value is not None)
    if value is None:
        assert model.state is before and model.undo_stack.count() == 0
        assert len(table.messages) == 1 and table.messages[0].startswith("Not applied: ")
    else:
        assert model.state.X[1, 2] == value
        assert model.undo_stack.count() == 1
    if words:
        assert words in table.messages[-1]
    else:
        assert table.messages == []


@pytest.mark.parametrize("text", CELLS, ids=lambda t: repr(t[:12]))
def test_cell_corpus_is_deterministic(table, text):
    """The same text gives the same outcome and message every time."""
    outcomes = []
    for _ in range(2):
        table.messages.clear()
        table.setData(table.value_index(0, 0), text, EDIT)
        outcomes.append((table.model.state.X[0, 0], tuple(table.messages)))
        table.model.undo_stack.setIndex(0)
    assert outcomes[0] == outcomes[1]


TOKENS = {
    # name: accepted?, words of the refusal
    "": (False, "cannot be empty"),
    "   ": (False, "cannot be empty"),
    "x" * 10_000: (False, f"at most {MAX_TOKEN_LENGTH} characters"),
    "x" * MAX_TOKEN_LENGTH: (True, None),
    "שלום": (True, None),  # right-to-left
    "مرحبا": (True, None),
    "\u202eevil": (True, None),  # a bidi override is a format character, not a control
    "😀🐈": (True, None),
    "👩‍👩‍👧": (True, None),  # joined emoji
    "a\x07b": (False, "control characters"),
    "\x1b[31mred": (False, "control characters"),
    "line\nbreak": (False, "control characters"),
    "tab\there": (False, "control characters"),
    "cr\r": (False, "control characters"),
}


@pytest.mark.parametrize("name", TOKENS, ids=lambda t: repr(t[:12]))
def test_token_corpus(table, name):
    accepted, words = TOKENS[name]
    model = table.model
    before = model.state
    ok = table.setData(table.index(2, 0), name, EDIT)
    assert ok is accepted
    if accepted:
        assert model.state.tokens[2] == name
        assert table.data(table.index(2, 0), Qt.ItemDataRole.DisplayRole) == name
        model.undo_stack.undo()
        assert model.state.equals(before)
    else:
        assert model.state is before and model.undo_stack.count() == 0
        assert words in table.messages[-1]
