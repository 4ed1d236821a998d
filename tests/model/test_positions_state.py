"""Positions and masks in the Qt-free session state and in compute()."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from qkv_desktop.core import alibi_slopes, attention
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import SessionState


def _state(n_heads=1, mode="self", **options) -> SessionState:
    rng = np.random.default_rng(0)
    s = SessionState.initialised([f"t{i}" for i in range(6)], rng.standard_normal((6, 8)),
                                 d_k=4, n_heads=n_heads)
    if mode == "cross":
        s = s.with_(mode="cross", kv_tokens=("a", "b", "c"), X_kv=rng.standard_normal((3, 8)))
    return s.with_(options=replace(s.options, **options))


def test_compute_passes_every_option_to_the_core():
    s = _state(causal=True, positions="rope", rope_base=1e5, window=3, prefix=2, sinks=1,
               alibi=(0.5,), custom_mask=True, masked=((4, 3),))
    r = compute(s).head()
    mask = np.ones((6, 6), bool)
    mask[4, 3] = False
    ref = attention(s.X, s.heads[0], causal=True, positions="rope", rope_base=1e5, window=3,
                    prefix=2, sinks=1, alibi_slope=0.5, mask=mask)
    assert r.weights.tobytes() == ref.weights.tobytes()
    assert r.Q_rope is not None and r.bias[5, 0] == -2.5


def test_per_head_alibi_slopes_and_new_heads_get_the_papers():
    s = _state(n_heads=2, alibi=(0.1, 0.7))
    r = compute(s)
    assert [h.alibi_slope for h in r.heads] == [0.1, 0.7]
    four = s.reinitialised(n_heads=4)
    assert four.options.alibi == tuple(alibi_slopes(4))
    with pytest.raises(ValueError, match="3 ALiBi slopes for 2 heads"):
        s.with_(options=replace(s.options, alibi=(0.1, 0.2, 0.3)))


def test_masked_cells_outside_the_matrix_are_dropped_when_tokens_go():
    s = _state(masked=((5, 1), (1, 5), (2, 2)))
    smaller = s.with_(tokens=s.tokens[:4], X=s.X[:4])
    assert smaller.options.masked == ((2, 2),)


def test_a_mask_that_empties_a_row_is_refused_naming_the_token():
    s = _state(causal=True, custom_mask=True)
    with pytest.raises(ValueError, match="the mask leaves the query “t0” \\(row 0\\)"):
        s.with_(options=replace(s.options, masked=((0, 0),)))
    everything = tuple((3, j) for j in range(6))
    with pytest.raises(ValueError, match="“t3” \\(row 3\\)"):
        s.with_(options=replace(s.options, causal=False, masked=everything))


def test_cross_attention_ignores_causal_and_prefix_but_keeps_window_and_sinks():
    s = _state(mode="cross", causal=True, prefix=2, window=2, sinks=1)
    spec = s.mask_spec()
    assert not spec.causal and spec.prefix is None and spec.window == 2
    r = compute(s).head()
    assert r.weights.shape == (6, 3) and np.allclose(r.weights.sum(axis=1), 1)


def test_cross_window_without_sinks_that_empties_late_queries_is_refused():
    s = _state(mode="cross")
    with pytest.raises(ValueError, match="“t4” \\(row 4\\)"):
        s.with_(options=replace(s.options, window=2))


def test_no_options_computes_bit_identically_to_plain_attention():
    s = _state(causal=True)
    ref = attention(s.X, s.heads[0], causal=True)
    assert compute(s).head().weights.tobytes() == ref.weights.tobytes()


def test_the_custom_mask_applies_only_while_it_is_on_and_its_cells_are_kept():
    on = _state(custom_mask=True, masked=((2, 1),))
    off = on.with_(options=replace(on.options, custom_mask=False))
    assert off.options.masked == ((2, 1),)
    assert compute(on).head().weights[2, 1] == 0 and compute(off).head().weights[2, 1] > 0


def test_the_mask_is_built_once_per_state_and_cannot_be_changed():
    s = _state(custom_mask=True, masked=((2, 1),))
    spec = s.mask_spec()
    assert s.mask_spec() is spec and not spec.custom.flags.writeable
    assert s.with_(options=replace(s.options, masked=((2, 2),))).mask_spec().custom[2, 1]


def test_painted_cells_follow_their_tokens_when_tokens_move_come_and_go():
    """A cell painted for the query t4 and the key t1 stayed at row 4, column 1 when a
    token moved, over two other tokens (found by a first-time user); a deletion before
    it moved the mask onto other pairs and dropped the last row's cells."""
    from qkv_desktop.state import edits

    s = _state(custom_mask=True, masked=((4, 1), (2, 2), (5, 0)))
    pairs = lambda st: {(st.tokens[i], st.key_tokens[j]) for i, j in st.options.masked}  # noqa: E731
    before = pairs(s)
    moved = edits.move_token(s, "X", 4, 0).state  # t4 to the top
    assert moved.options.masked == ((0, 2), (3, 3), (5, 1))
    assert pairs(moved) == before
    assert compute(moved).head().weights[0, 2] == 0  # t4 still does not see t1
    inserted = edits.insert_tokens(s, "X", 1).state  # a new token before t1
    assert pairs(inserted) == before and inserted.options.masked == ((3, 3), (5, 2), (6, 0))
    deleted = edits.delete_tokens(s, "X", [1]).state  # t1 goes, and its cells with it
    assert deleted.options.masked == ((1, 1), (4, 0))
    assert pairs(deleted) == before - {("t4", "t1")}


def test_in_cross_attention_the_rows_follow_X_and_the_columns_X_kv():
    from qkv_desktop.state import edits

    s = _state(mode="cross", custom_mask=True, masked=((4, 1), (0, 2)))
    moved_key = edits.move_token(s, "X_kv", 2, 0).state  # key c first
    assert moved_key.options.masked == ((0, 0), (4, 2))
    moved_query = edits.move_token(s, "X", 0, 5).state  # query t0 last
    assert moved_query.options.masked == ((3, 1), (5, 2))


def test_a_token_edit_is_never_refused_for_the_painted_mask_it_carries():
    """Painted cells following their tokens could leave a query no key (its other keys
    masked, the causal mask hiding the rest): the delete or move was refused (found by
    a reviewer). That query's painted cells are unmasked instead, and a note says so."""
    from qkv_desktop.state import edits

    s = _state(custom_mask=True, masked=((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (4, 2)))
    deleted = edits.delete_tokens(s, "X", [0])  # t1 would see none of t1…t5
    assert deleted.state.options.masked == ((3, 1),)  # t4 → t2 kept; t1's unmasked
    assert "“t1”" in str(deleted.note) and "Ctrl+Z" in str(deleted.note)
    causal = _state(causal=True, custom_mask=True, masked=((1, 1), (3, 0)))
    moved = edits.move_token(causal, "X", 0, 5)  # t1 first: it may see only itself
    assert moved.state.tokens[0] == "t1" and (0, 0) not in moved.state.options.masked
    assert (2, 5) in moved.state.options.masked  # t3 still does not see t0
    assert moved.note is not None
    plain = edits.move_token(s, "X", 4, 0)
    assert plain.note is None  # nothing emptied: no note
