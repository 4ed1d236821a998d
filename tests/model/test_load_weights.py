"""File → Import weights as a pure edit (``edits.load_weights``) and as a load.

The File menu's view built the state itself, redrawing everything from the seed for
the imported heads: a W_O the user had typed in was replaced by a seeded one without a
word. The same number of heads now keeps W_O; another number says it drew a new one.
"""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.core import Weights
from qkv_desktop.state import edits
from qkv_desktop.state.session_state import SessionState


@pytest.fixture
def state() -> SessionState:
    s = SessionState.from_preset("tutorial-1")  # d_model 8, d_k 4, one head
    return s.reinitialised(with_output=True)


def _head(d_model: int, d_k: int, k: float) -> Weights:
    w = np.full((d_model, d_k), k)
    return Weights(w, w + 1, w + 2)


def test_the_same_number_of_heads_keeps_w_o_and_everything_else(state):
    typed = state.W_O.copy()
    typed[0, 0] = 7.0
    state = state.with_(W_O=typed)
    edit = edits.load_weights(state, _head(8, 4, 0.5), "w.npz")
    after = edit.state
    assert after.heads[0].W_Q.tolist() == np.full((8, 4), 0.5).tolist()
    assert after.heads[0].W_V.tolist() == np.full((8, 4), 2.5).tolist()
    assert after.W_O is state.W_O and after.W_O[0, 0] == 7.0  # the typed W_O stays
    assert after.X is state.X and after.tokens == state.tokens
    assert str(edit.text) == "Import w.npz"
    assert str(edit.note) == ("Imported w.npz: W_Q, W_K and W_V, d_model × d_k = 8 × 4, "
                              "h = 1.")


def test_another_number_of_heads_draws_w_o_and_says_so(state):
    edit = edits.load_weights(state, [_head(8, 4, 0.1), _head(8, 4, 0.2)], "w.npy")
    after = edit.state
    assert after.n_heads == 2 and after.W_O.shape == (8, 8)
    assert [h.W_Q[0, 0] for h in after.heads] == [0.1, 0.2]
    assert str(edit.note).endswith(
        "The heads went from 1 to 2, so W_O was drawn again from seed 42.")
    without = state.with_(W_O=None)
    note = str(edits.load_weights(without, [_head(8, 4, 0.1)] * 2, "w.npy").note)
    assert "W_O" not in note.split(":", 1)[1].replace("W_Q, W_K and W_V", "")


def test_an_import_of_weights_is_one_load_with_its_note(model):
    """A load: one undo step, the note said, Undo restores."""
    notes: list[str] = []
    model.noted.connect(notes.append)
    before = model.state
    model.load_weights(_head(before.d_model, before.d_k, 0.25), "w.npy")
    assert model.state.heads[0].W_K[0, 0] == 1.25
    assert model.undo_stack.command(model.undo_stack.index() - 1).loads
    assert notes and notes[-1].startswith(
        "Imported w.npy: W_Q, W_K and W_V, d_model × d_k = 8 × 4, h = 1.")
    model.undo_stack.undo()
    assert model.state.equals(before)
