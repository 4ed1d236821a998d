"""Live previews (the gradient lab's training): no undo step until committed, then one."""

from __future__ import annotations

import numpy as np

from qkv_desktop.core import Weights
from qkv_desktop.state import SessionState


def nudged(state: SessionState, k: float) -> SessionState:
    w = state.heads[0]
    return state.with_(heads=(Weights(w.W_Q + k, w.W_K, w.W_V),))


def test_previews_become_one_undoable_step(model):
    before = model.state
    ended = []
    model.preview.ended.connect(lambda: ended.append(True))
    for k in (1, 2, 3):
        model.preview.show(nudged(before, k), f"Train {k} steps")
        assert model.wait_until_idle()
        assert model.undo_stack.count() == 0 and model.preview.active
        np.testing.assert_array_equal(model.result.state.heads[0].W_Q, before.heads[0].W_Q + k)
    shown = model.state
    model.preview.commit()
    assert ended == [True] and not model.preview.active
    assert model.undo_stack.count() == 1 and model.undo_stack.undoText() == "Train 3 steps"
    assert model.state is shown
    model.undo_stack.undo()
    assert model.state is before
    model.undo_stack.redo()
    assert model.state is shown


def test_an_edit_commits_the_preview_before_itself(model):
    before = model.state
    model.preview.show(nudged(before, 1), "Train 1 steps")
    model.set_cell("X", 0, 0, 0.5)
    assert not model.preview.active and model.undo_stack.count() == 2
    model.undo_stack.undo()
    model.undo_stack.undo()
    assert model.state is before
    model.preview.show(nudged(before, 2), "Train 1 steps")
    model.set_options(causal=True)
    assert model.undo_stack.count() == model.undo_stack.index() == 2  # training, then causal
    model.undo_stack.undo()
    np.testing.assert_array_equal(model.state.heads[0].W_Q, before.heads[0].W_Q + 2)


def test_undo_or_reset_drops_the_preview(model):
    model.set_options(causal=True)
    edited = model.state
    ended = []
    model.preview.ended.connect(lambda: ended.append(True))
    model.preview.show(nudged(edited, 1), "Train 1 steps")
    model.undo_stack.undo()
    assert ended == [True] and not model.preview.active
    assert not model.state.options.causal
    model.preview.show(nudged(model.state, 1), "Train 1 steps")
    model.reset(SessionState.from_preset("tutorial-2"))
    assert not model.preview.active and len(ended) == 2
    model.preview.commit()  # nothing to commit
    assert model.undo_stack.count() == 0


def test_a_preview_changes_the_state_but_lands_no_change(model):
    """``changed`` for every state shown, ``landed`` only for those the undo history
    holds: what takes a refusal or a note off the screen (the training's frames took
    them off at once)."""
    changed, landed = [], []
    model.changed.connect(lambda: changed.append(True))
    model.landed.connect(lambda: landed.append(True))
    before = model.state
    for k in (1, 2):
        model.preview.show(nudged(before, k), "Train")
    assert len(changed) == 2 and landed == []
    model.preview.commit()
    assert len(landed) == 1
    model.undo_stack.undo()
    model.set_cell("X", 0, 0, 0.5)
    assert len(landed) == 3 and len(changed) == 5
