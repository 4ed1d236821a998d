"""File → Import token vectors as a pure edit (``edits.load_vectors``) and as a load.

The state the import makes was built in the File menu's view; it is the state layer's
now, with a note that says what came in and what was reset.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qkv_desktop.state import edits
from qkv_desktop.state.edits import EditError
from qkv_desktop.state.session_state import SessionState


@pytest.fixture
def state() -> SessionState:
    return SessionState.from_preset("tutorial-1")  # 我 爱 人工 智能, d_model 8


def _painted(state: SessionState, cells) -> SessionState:
    return state.with_(options=dataclasses.replace(state.options, custom_mask=True,
                                                   masked=tuple(cells)))


def test_vectors_of_the_same_width_keep_the_weights_and_the_note_says_what_came_in(state):
    X = np.arange(24.0).reshape(3, 8)
    edit = edits.load_vectors(state, ("a", "b", "c"), X, "v.csv")
    after = edit.state
    assert after.tokens == ("a", "b", "c") and after.X.tobytes() == X.tobytes()
    assert after.heads is state.heads and after.W_O is state.W_O  # weights kept
    assert str(edit.text) == "Import v.csv"
    assert str(edit.note) == "Imported v.csv: X is now 3 × 8 (tokens × d_model)."
    assert state.X.shape == (4, 8)  # the state it came from is untouched


def test_a_file_without_names_gives_t0_t1(state):
    after = edits.load_vectors(state, None, np.ones((2, 8)), "x.npy").state
    assert after.tokens == ("t0", "t1")


def test_another_width_draws_new_weights_and_says_so(state):
    cross = edits.set_mode(state, "cross").state
    edit = edits.load_vectors(cross, None, np.ones((5, 3)), "x.npy")
    after = edit.state
    assert after.d_model == 3 and after.heads[0].W_Q.shape == (3, state.d_k)
    assert after.equals(cross.reinitialised(X=np.ones((5, 3)),
                                            tokens=("t0", "t1", "t2", "t3", "t4")))
    assert after.X_kv.shape == (4, 3)  # cut to the new width
    assert str(edit.note) == (
        "Imported x.npy: X is now 5 × 3 (tokens × d_model). d_model went from 8 to 3, so "
        "new weights were drawn from seed 42 and the vectors of X_kv were cut or padded "
        "with zeros to 3 values.")
    plain = edits.load_vectors(state, None, np.ones((5, 3)), "x.npy")
    assert "d_model went from 8 to 3, so new weights were drawn from seed 42." in str(plain.note)
    assert "X_kv" not in str(plain.note)


def test_new_tokens_clear_the_painted_mask_and_the_same_tokens_keep_it(state):
    """Kept, the cell painted for 人工 → 爱 masked whatever token came in at row 2."""
    painted = _painted(state, [(2, 1), (3, 0)])
    edit = edits.load_vectors(painted, ("a", "b", "c", "d"), np.ones((4, 8)), "v.csv")
    assert edit.state.options.masked == () and edit.state.options.custom_mask
    assert str(edit.note).endswith("The painted mask was cleared: it was for the old tokens.")
    same = edits.load_vectors(painted, state.tokens, np.ones((4, 8)), "v.csv")
    assert same.state.options.masked == ((2, 1), (3, 0))
    assert str(same.note) == "Imported v.csv: X is now 4 × 8 (tokens × d_model)."


def test_a_painted_mask_never_makes_an_import_refused(state):
    """Row 0 masked all but key 3: over two new tokens, kept cells would have emptied it
    (the import was refused: "the mask leaves the query … no key")."""
    painted = _painted(state, [(0, 0), (0, 1), (0, 2)])
    after = edits.load_vectors(painted, ("a", "b"), np.ones((2, 8)), "v.csv").state
    assert after.n == 2 and after.options.masked == ()


def test_bad_vectors_are_refused_in_a_translatable_text(state):
    with pytest.raises(EditError, match="2 tokens but X has 3 rows"):
        edits.load_vectors(state, ("a", "b"), np.ones((3, 8)), "v.csv")


def test_an_import_is_a_load_one_step_with_its_note_and_the_edits_it_replaced(model):
    notes = []
    model.noted.connect(notes.append)
    model.set_cell("X", 0, 0, 0.25)
    edited = model.state
    model.load_vectors(("a", "b"), np.ones((2, 8)), "v.csv")
    assert model.state.tokens == ("a", "b")
    assert model.undo_stack.text(model.undo_stack.index() - 1) == "Import v.csv"
    assert model.undo_stack.command(model.undo_stack.index() - 1).loads
    assert notes == ["Imported v.csv: X is now 2 × 8 (tokens × d_model). Your edits were "
                     "replaced; Ctrl+Z brings them back."]
    assert model.messages == notes  # said once, in the note (the fixture keeps notes too)
    model.undo_stack.undo()
    assert model.state.equals(edited)
    model.undo_stack.setClean()
    model.load_vectors(("a", "b"), np.ones((2, 8)), "v.csv")
    assert notes[-1] == "Imported v.csv: X is now 2 × 8 (tokens × d_model). Ctrl+Z undoes it."
    steps = model.undo_stack.count()
    model.load_vectors(("a", "b"), np.ones((2, 8)), "v.csv")  # the same again: no step
    assert model.undo_stack.count() == steps and len(notes) == 2
    with pytest.raises(ValueError, match="2 tokens but X has 3 rows"):
        model.load_vectors(("a", "b"), np.ones((3, 8)), "v.csv")
