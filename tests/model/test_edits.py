"""The session's edits as pure functions: no Qt, no QApplication.

Each edit returns the whole new state and its undo text, or raises ``EditError`` and
leaves the state as it was (states are immutable, so "as it was" is checked by
identity and bits).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from qkv_desktop.state import edits
from qkv_desktop.state.edits import EditError
from qkv_desktop.state.session_state import MAX_CELLS, SessionState


@pytest.fixture
def state() -> SessionState:
    return SessionState.from_preset("tutorial-1")  # 4 tokens, d_model 8


def test_insert_tokens_uses_fresh_names_and_zero_vectors(state):
    edit = edits.insert_tokens(state, "X", 1, count=2)
    assert edit.state.tokens[1:3] == ("new", "new2")  # not "t4": it is not the fifth
    assert not edit.state.X[1:3].any()
    assert str(edit.text) == "Insert 2 tokens" and edit.merge_key is None
    # after the last token it is Add token, as the button said (undo read "Insert")
    assert str(edits.insert_tokens(state, "X", 4).text) == "Add token"
    assert str(edits.insert_tokens(state, "X", 4, count=3).text) == "Add 3 tokens"
    assert str(edits.insert_tokens(state, "X", 3).text) == "Insert token"


def test_an_inserted_token_gets_a_name_that_reads_as_new_and_never_clashes(state):
    once = edits.insert_tokens(state, "X", 1).state
    assert once.tokens == ("我", "new", "爱", "人工", "智能")
    twice = edits.insert_tokens(once, "X", 1, stem="新").state
    assert twice.tokens[1] == "新"
    again = edits.insert_tokens(edits.insert_tokens(once, "X", 0).state, "X", 4).state
    assert again.tokens == ("new2", "我", "new", "爱", "new3", "人工", "智能")
    assert edits.new_token_names(["new", "new3", "a"], 2) == ["new2", "new4"]


def test_pasted_rows_are_named_as_inserted_tokens_are(state):
    """They were t<k> from the count, the rule an insert had left (a pasted row is no
    more the k-th token than an inserted one)."""
    grown = edits.paste_block(state, "X", 3, 0, np.ones((3, 8))).state
    assert grown.tokens == ("我", "爱", "人工", "智能", "new", "new2")
    named = edits.paste_block(grown, "X", 6, 0, np.ones((1, 8)), stem="新").state
    assert named.tokens[-1] == "新"


def test_paste_grows_rows_and_columns_and_reinitialises_the_weights(state):
    block = np.arange(6.0).reshape(2, 3)
    edit = edits.paste_block(state, "X", 3, 7, block)
    after = edit.state
    assert after.X.shape == (5, 10) and after.tokens[4] == "new"
    np.testing.assert_array_equal(after.X[3:5, 7:10], block)
    np.testing.assert_array_equal(after.X[:3], np.pad(state.X[:3], ((0, 0), (0, 2))))
    assert after.heads[0].W_Q.shape == (10, state.d_k)
    assert str(edit.text) == "Paste 2×3 values"


def test_a_paste_too_large_is_refused_before_anything_is_built(state):
    with pytest.raises(EditError, match="the change was not applied"):
        edits.paste_block(state, "X", MAX_CELLS, 0, np.ones((1, 1)))


def test_cross_mode_starts_with_the_default_seeded_sequence(state):
    after = edits.set_mode(state, "cross").state
    tokens, X_kv = edits.default_kv(state)
    assert after.kv_tokens == tokens == ("k0", "k1", "k2", "k3")
    np.testing.assert_array_equal(after.X_kv, X_kv)
    assert edits.set_mode(after, "cross") is None  # no change, no undo step
    back = edits.set_mode(after, "self").state
    assert back.X_kv is after.X_kv  # the sequence is kept for the next switch


def _painted(state: SessionState, cells) -> SessionState:
    return state.with_(options=dataclasses.replace(state.options, custom_mask=True,
                                                   masked=tuple(cells)))


def test_switching_to_cross_clears_the_painted_mask_in_the_same_step_and_says_so(state):
    """Its columns were X's tokens: kept, (2, 1) "人工 does not see 爱" masked the key k1,
    and cells past a shorter X_kv vanished without a word."""
    painted = _painted(state, [(2, 1), (3, 0)])
    edit = edits.set_mode(painted, "cross")
    assert edit.state.mode == "cross" and edit.state.options.masked == ()
    assert edit.state.options.custom_mask  # the pane stays, to paint the new keys
    assert str(edit.text) == "Cross-attention"
    assert "painted mask was cleared" in str(edit.note) and "Ctrl+Z" in str(edit.note)
    assert "X_kv" in str(edit.note)
    back = edits.set_mode(edit.state, "self")
    assert back.state.options.masked == () and back.note is None  # nothing painted
    # painted in cross-attention, the cells are X_kv's keys: back to self clears them
    cross = _painted(edit.state, [(0, 1)])
    to_self = edits.set_mode(cross, "self")
    assert to_self.state.options.masked == () and "X_kv" in str(to_self.note)


def test_a_mask_that_would_empty_a_row_of_a_shorter_x_kv_no_longer_blocks_the_switch(state):
    """Painted in self-attention, row 0 hid keys 0 and 1 (it still saw 2 and 3); over a
    two-token X_kv those cells hid every key, and the switch itself was refused."""
    two = state.with_(kv_tokens=("a", "b"), X_kv=np.ones((2, state.d_model)))
    painted = _painted(two, [(0, 0), (0, 1)])
    edit = edits.set_mode(painted, "cross")
    assert edit.state.mode == "cross" and edit.state.options.masked == ()
    assert edit.note is not None


def test_a_mask_whose_keys_are_the_same_tokens_after_the_switch_is_kept_silently(state):
    same = state.with_(kv_tokens=state.tokens, X_kv=state.X)
    painted = _painted(same, [(2, 1)])
    edit = edits.set_mode(painted, "cross")
    assert edit.state.options.masked == ((2, 1),) and edit.note is None
    assert edits.set_mode(edit.state, "self").note is None
    assert edits.set_mode(state, "cross").note is None  # no painted cells: nothing to say


def test_w_o_is_the_seeded_draw_after_the_heads(state):
    multi = edits.set_heads(state, 2).state
    on = edits.set_output_projection(multi, True)
    assert str(on.text) == "Output projection W_O on"
    assert on.state.W_O.shape == (multi.n_heads * multi.d_k, multi.d_model)
    np.testing.assert_array_equal(on.state.W_O, multi.reinitialised(with_output=True).W_O)
    assert edits.set_output_projection(on.state, False).state.W_O is None


def test_set_cells_keeps_old_and_new_values_for_undo(state):
    edit = edits.set_cells(state, "X", [0, 2], [1, 3], [5.0, -1.0])
    assert edit.changed and str(edit.text) == "Edit 2 values"
    np.testing.assert_array_equal(edit.old, state.X[[0, 2], [1, 3]])
    assert edit.state.X[0, 1] == 5.0 and edit.state.X[2, 3] == -1.0
    one = edits.set_cells(state, "X", [1], [0], [state.X[1, 0]])
    assert not one.changed and str(one.text) == f"X[{state.tokens[1]}, d0] 0.1 → 0.1"


@pytest.mark.parametrize("call, message", [
    (lambda s: edits.set_cells(s, "X", [0], [0], [np.nan]), "only finite numbers"),
    (lambda s: edits.set_weight(s, 0, "W_Q", 0, 0, np.inf), "only finite numbers"),
    (lambda s: edits.delete_tokens(edits.set_mode(s, "cross").state, "X_kv", range(4)),
     "at least one token"),
    (lambda s: edits.insert_tokens(s, "X_kv", 0), "no key/value sequence"),
    (lambda s: edits.remove_dimension(s.reinitialised(d_model=1), 0), "below 1"),
    (lambda s: edits.set_init_scale(s, 0.0), "positive number"),
    (lambda s: edits.scale_inputs(s.with_(X=s.X + 1e300), 1e10), "too large"),
    (lambda s: edits.set_heads(s, 2, d_k=MAX_CELLS), "the change was not applied"),
])
def test_refused_edits_say_why_in_a_translatable_text(state, call, message):
    with pytest.raises(EditError, match=message) as info:
        call(state)
    assert str(info.value) == str(info.value.text)  # the English, with its arguments


def test_set_options_follows_the_options_fields_and_ignores_no_ops(state):
    edit = edits.set_options(state, "temperature", temperature=0.5)
    assert edit.state.options.temperature == 0.5 and edit.merge_key == "temperature"
    assert str(edit.text) == "Change temperature"
    assert edits.set_options(state, causal=False) is None
    with pytest.raises(TypeError):
        edits.set_options(state, no_such_option=True)


def test_an_options_undo_text_names_the_option_as_its_control_does(state):
    """"Undo Change rope_base" showed the field's internal name."""
    assert str(edits.set_options(state, rope_base=500.0).text) == "Change RoPE base"
    assert str(edits.set_options(state, stable=False, share_qk=True).text) == \
        "Change naive softmax, share W_Q = W_K"
    assert str(edits.set_options(state, custom_mask=True).text) == "Change custom mask"


def test_every_option_has_a_name_for_the_interface():
    """A new field of ``Options`` must say what the interface calls it, so an undo text
    never shows its internal name."""
    from dataclasses import fields

    from qkv_desktop.state.session_state import OPTION_NAMES, Options
    assert set(OPTION_NAMES) == {f.name for f in fields(Options)}
    for key, name in OPTION_NAMES.items():
        assert name and (name != key or " " not in key and "_" not in key), (key, name)
    assert OPTION_NAMES["rope_base"] == "RoPE base" and OPTION_NAMES["stable"] == "naive softmax"


def test_weight_edit_keeps_the_biases_and_the_other_heads(state):
    multi = edits.set_heads(state, 2).state
    after = edits.set_weight(multi, 1, "W_K", 0, 1, 9.0).state
    assert after.heads[1].W_K[0, 1] == 9.0 and after.heads[0] is multi.heads[0]
    assert after.heads[1].W_Q is multi.heads[1].W_Q
    assert multi.heads[1].W_K[0, 1] != 9.0  # the old state is untouched


def test_the_edits_module_runs_without_qt():
    import subprocess
    import sys
    code = ("import sys, qkv_desktop.state.edits as e; "
            "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_float32_session_beyond_float32_range_cannot_be_made_by_edits():
    """Typing 1e300 and then ticking float32 (or the other way round) is refused, so no
    state — and no autosave — holds what float32 cannot compute or reopen."""
    import pytest

    from qkv_desktop.state.edits import EditError, set_cells, set_options
    from qkv_desktop.state.session_state import SessionState
    big = set_cells(SessionState.from_preset("tutorial-1"), "X", [0], [0], [1e300]).state
    with pytest.raises(EditError, match="too large for float32"):
        set_options(big, dtype="float32")
    small32 = set_options(SessionState.from_preset("tutorial-1"), dtype="float32").state
    with pytest.raises(EditError, match="too large for float32"):
        set_cells(small32, "X", [0], [0], [1e300])


def test_a_core_failure_is_said_in_the_users_words(monkeypatch):
    """The core's errors are English sentences for a notebook; ``compute`` turns the two
    a session can meet into marked texts (``ComputeError``) naming the session's
    token, which the model translates."""
    import importlib

    from qkv_desktop.core import EmptyRowError
    from qkv_desktop.state.compute import ComputeError, compute
    compute_module = importlib.import_module("qkv_desktop.state.compute")
    from qkv_desktop.state.texts import EditError

    state = SessionState.from_preset("tutorial-1")

    def empty_row(*_args, **_kwargs):
        raise EmptyRowError(1, 4)
    monkeypatch.setattr(compute_module, "multi_head_attention", empty_row)
    with pytest.raises(ComputeError) as caught:
        compute(state)
    assert isinstance(caught.value, EditError)
    assert caught.value.text.args == (state.tokens[1], 1)
    assert str(caught.value).startswith(f"query {state.tokens[1]} (row 1) has no key left")
    monkeypatch.undo()
    X = state.X.copy()
    X[0, 0] = 1e200
    with pytest.raises(ComputeError, match="the scores q·k overflow float64") as caught:
        compute(state.with_(X=X))
    assert str(caught.value).startswith(f"X[{state.tokens[0]}, d0] = 1e+200 is too large: ")
    # a weight is named as its table names it, with its head when there are several
    w = state.heads[0]
    big_k, big_q = w.W_K.copy(), w.W_Q.copy()
    big_k[2, 1], big_q[:, 1] = -3e200, 2e200  # q·k past float64 in head 2
    heads = (w, dataclasses.replace(w, W_Q=big_q, W_K=big_k))
    with pytest.raises(ComputeError) as caught:
        compute(state.with_(heads=heads))
    assert str(caught.value).startswith("W_K of head 2[d2, 1] = -3e+200 is too large: ")


@pytest.mark.parametrize("preset, presses", [("tutorial-1", 2), ("tutorial-2", 1)])
def test_the_readmes_overflow_recipe_overflows_after_the_presses_it_says(preset, presses):
    """README: "× 100 the inputs (twice on tutorial-1, once on tutorial-2)" with naive
    softmax makes weights overflow; one press fewer leaves them finite (the recipe once
    said one press, on a session that stays finite after it: a review)."""
    from qkv_desktop.state.compute import compute

    state = edits.set_options(SessionState.from_preset(preset), stable=False).state
    for press in range(1, presses + 1):
        state = edits.scale_inputs(state, 100).state
        weights = compute(state).head(0).weights
        assert np.isfinite(weights).all() == (press < presses), (press, weights)
    stable = edits.set_options(state, stable=True).state  # the stable softmax: fine
    assert np.isfinite(compute(stable).head(0).weights).all()
