"""A load (preset, model, import) over edits is one undo step, and the status bar says so."""

from qkv_desktop.state import SessionState


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


def test_a_load_after_undos_says_so_and_counts_as_the_last_load(model):
    """The push of a load after undos drops the steps undone: the stack's count falls
    although a step was pushed (found by review: nothing was said, and the next load
    said edits were replaced)."""
    for k in range(8):
        model.set_cell("X", k % 3, k % 2, 0.5 + k)
    for _ in range(3):
        model.undo_stack.undo()
    edited = model.state
    _load(model)
    assert len(model.messages) == 1 and "Ctrl+Z" in model.messages[0]
    assert not model.edited_since_load_or_save()
    _load(model, "tutorial-1")  # straight after a load: nothing of the user's replaced
    assert len(model.messages) == 1
    model.undo_stack.undo()
    model.undo_stack.undo()
    assert model.state.equals(edited)
