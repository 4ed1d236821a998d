"""A load (preset, model, import) over edits is one undo step, and the status bar says so."""

import gc

import pytest

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState


@pytest.fixture
def model(qapp):
    m = AttentionModel(SessionState.from_preset("tutorial-1"))
    m.messages = []
    m.message.connect(m.messages.append)
    yield m
    m.shutdown()
    del m
    gc.collect()


def _load(model, preset="tutorial-2"):
    model.load_state(SessionState.from_preset(preset), f"Load preset {preset}")


def test_a_load_over_edits_says_that_undo_brings_them_back(model):
    model.set_cell("X", 0, 0, 0.25)
    edited = model.state
    _load(model)
    assert len(model.messages) == 1
    text = model.messages[0]
    assert "Load preset tutorial-2" in text and "Ctrl+Z" in text and "edits" in text
    model.undo_stack.undo()  # what the message promises
    assert model.state.equals(edited)


def test_a_load_says_nothing_when_nothing_was_edited_since_the_last_load_or_save(model):
    _load(model)  # the start state: nothing edited
    _load(model, "tutorial-1")  # right after a load
    model.set_cell("X", 0, 0, 0.25)
    model.undo_stack.setClean()  # saved
    _load(model)
    model.undo_stack.setIndex(0)  # every step undone: the session as it was opened
    _load(model, "tutorial-2")
    assert model.messages == []


def test_an_edit_after_a_load_counts_again(model):
    _load(model)
    model.set_cell("X", 0, 0, 0.25)
    _load(model, "tutorial-1")
    assert len(model.messages) == 1
