"""Multi-head and cross-attention in the model layer, against plain NumPy written here.

The references below use nothing from the package: per-head projections, scaled
scores, a row softmax, the concatenation and the W_O projection, with K and V taken
from the key/value sequence in cross mode.
"""

import numpy as np
import pytest

from qkv_desktop.core import attention, init_multihead_weights, init_weights
from qkv_desktop.state import SessionState, compute
from qkv_desktop.state.linking import concat_links
from qkv_desktop.state.session_state import head_dim_for

RTOL = 1e-12


def ref_head(X, W_Q, W_K, W_V, X_kv=None, causal=False):
    """One head of scaled dot-product attention, the textbook way."""
    src = X if X_kv is None else X_kv
    Q, K, V = X @ W_Q, src @ W_K, src @ W_V
    scores = Q @ K.T
    scaled = scores / np.sqrt(W_Q.shape[1])
    if causal:
        scaled = np.where(np.tril(np.ones_like(scaled, dtype=bool)), scaled, -np.inf)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return {"Q": Q, "K": K, "V": V, "scores": scores, "weights": weights,
            "output": weights @ V}


def ref_multi(state):
    X_kv = state.X_kv if state.mode == "cross" else None
    heads = [ref_head(state.X, w.W_Q, w.W_K, w.W_V, X_kv) for w in state.heads]
    concat = np.hstack([h["output"] for h in heads])
    projected = None if state.W_O is None else concat @ state.W_O
    return heads, concat, projected


def bits(a):
    return a.shape, a.dtype.str, a.tobytes()


# ------------------------------------------------------------------ the d_k rule
@pytest.mark.parametrize("d_model, heads, d_k, expected", [
    (8, 4, 4, 2), (8, 8, 4, 1), (8, 2, 8, 4),                # too wide: d_model / h
    (8, 2, 4, 4), (8, 1, 4, 4), (8, 1, 2, 2),                # h·d_k fits: keep d_k
    (8, 3, 4, 4), (8, 5, 2, 2), (6, 4, 3, 3),                # h does not divide: keep d_k
])
def test_head_dim_keeps_d_k_while_it_fits(d_model, heads, d_k, expected):
    assert head_dim_for(d_model, heads, d_k) == expected


def test_two_heads_and_back_keep_tutorial_1s_d_k(model):
    """Issue 17: h = 2 → 1 used to make d_k = d_model = 8 and lose tutorial-1's d_k = 4."""
    model.set_heads(2)
    assert model.state.d_k == 4
    model.set_heads(1)
    assert (model.state.n_heads, model.state.d_k) == (1, 4)


@pytest.mark.parametrize("heads", [0, -1, 1.5])
def test_head_dim_refuses_a_bad_head_count(heads):
    with pytest.raises(ValueError, match="heads"):
        head_dim_for(8, heads, 4)


def test_set_heads_follows_the_rule_and_an_explicit_d_k_wins(model):
    model.set_heads(4)
    assert (model.state.n_heads, model.state.d_k) == (4, 2)
    model.set_heads(3)  # 8 % 3 != 0: d_k stays
    assert (model.state.n_heads, model.state.d_k) == (3, 2)
    model.set_heads(2, d_k=3)
    assert (model.state.n_heads, model.state.d_k) == (2, 3)
    for s in (model.state,):
        assert all(w.W_Q.shape == (8, 3) for w in s.heads)


def test_set_heads_to_the_same_count_changes_nothing(model):
    before = model.state
    model.set_heads(1)
    assert model.state is before and model.undo_stack.count() == 0


def test_set_heads_undoes_bit_exactly(model):
    before = model.state
    model.set_heads(2)
    model.undo_stack.undo()
    assert model.state.equals(before)


# ----------------------------------------------------------- h = 1 is single head
def test_one_head_is_bit_identical_to_the_single_head_path():
    p = SessionState.from_preset("tutorial-1")
    single = attention(p.X, init_weights(8, 4, seed=42, scale=0.1))
    r = compute(p)
    assert p.n_heads == 1
    for name, a in single.matrices().items():
        assert bits(getattr(r.head(0), name)) == bits(a), name
    assert bits(r.multi.concat) == bits(single.output)


def test_head_one_of_many_is_the_single_head(model):
    single = compute(model.state).head(0)
    model.set_heads(2)  # d_k stays 4 = 8 / 2, so head 1 draws the same weights
    model.recompute_now()
    for name, a in single.matrices().items():
        assert bits(getattr(model.result.head(0), name)) == bits(a), name


# ------------------------------------------------------------ multi-head numbers
def test_every_head_concat_and_W_O_match_numpy(model):
    model.set_init_scale(1.0)
    model.set_heads(2)
    model.set_output_projection(True)
    model.recompute_now()
    s, r = model.state, model.result
    assert s.W_O.shape == (8, 8)
    heads, concat, projected = ref_multi(s)
    for h, ref in enumerate(heads):
        for name, a in ref.items():
            np.testing.assert_allclose(getattr(r.head(h), name), a, rtol=RTOL, atol=1e-15,
                                       err_msg=f"head {h} {name}")
    np.testing.assert_allclose(r.multi.concat, concat, rtol=RTOL)
    np.testing.assert_allclose(r.multi.output, projected, rtol=RTOL)
    # the heads really differ, so the comparison above is not trivially symmetric
    assert not np.allclose(r.head(0).weights, r.head(1).weights)


def test_the_seeded_heads_come_one_after_another_from_one_stream():
    heads, W_O = init_multihead_weights(8, 4, 3, seed=42, scale=0.1, with_output=True)
    rng = np.random.RandomState(42)
    draws = [rng.randn(8, 4) * 0.1 for _ in range(9)]
    for h, w in enumerate(heads):
        for k, name in enumerate(("W_Q", "W_K", "W_V")):
            assert bits(getattr(w, name)) == bits(draws[3 * h + k])
    assert bits(W_O) == bits(rng.randn(12, 8) * 0.1)


def test_W_O_on_keeps_edited_heads_and_off_removes_it(model):
    model.set_heads(2)
    model.set_weight(1, "W_K", 2, 3, 7.5)
    heads = model.state.heads
    model.set_output_projection(True)
    s = model.state
    assert all(a is b for a, b in zip(s.heads, heads, strict=True))
    expected = init_multihead_weights(8, 4, 2, 42, 0.1, with_output=True)[1]
    assert bits(s.W_O) == bits(expected)
    model.set_output_projection(False)
    assert model.state.W_O is None
    model.undo_stack.undo()
    assert bits(model.state.W_O) == bits(expected)


# ------------------------------------------------------------------ cross mode
def _cross(model, n_kv=5):
    model.set_init_scale(1.0)
    model.set_mode("cross")
    X_kv = np.random.RandomState(9).rand(n_kv, 8).round(2)
    model.paste_block("X_kv", 0, 0, X_kv, [f"e{i}" for i in range(n_kv)])
    model.delete_tokens("X_kv", range(n_kv, model.state.X_kv.shape[0]))
    model.recompute_now()
    return X_kv


def test_cross_weights_are_n_by_n_kv_and_match_numpy(model):
    X_kv = _cross(model)
    s, r = model.state, model.result
    assert s.mode == "cross" and s.kv_tokens == ("e0", "e1", "e2", "e3", "e4")
    assert r.head(0).weights.shape == (4, 5)
    w = s.heads[0]
    ref = ref_head(s.X, w.W_Q, w.W_K, w.W_V, X_kv=X_kv)
    for name, a in ref.items():
        np.testing.assert_allclose(getattr(r.head(0), name), a, rtol=RTOL, atol=1e-15,
                                   err_msg=name)
    assert r.head(0).K.shape == r.head(0).V.shape == (5, 4)  # one row per encoder token


def test_cross_with_several_heads_and_W_O_matches_numpy(model):
    _cross(model, n_kv=3)
    model.set_heads(4)
    model.set_output_projection(True)
    model.recompute_now()
    s, r = model.state, model.result
    heads, concat, projected = ref_multi(s)
    for h, ref in enumerate(heads):
        np.testing.assert_allclose(r.head(h).weights, ref["weights"], rtol=RTOL)
        assert r.head(h).weights.shape == (4, 3)
    np.testing.assert_allclose(r.multi.concat, concat, rtol=RTOL)
    np.testing.assert_allclose(r.multi.output, projected, rtol=RTOL)
    assert r.multi.output.shape == (4, 8)


def test_causal_mask_is_ignored_in_cross_mode_and_back_in_self_mode(model):
    model.set_options(causal=True)
    model.recompute_now()
    assert (model.result.head(0).weights[0, 1:] == 0).all()
    X_kv = _cross(model)
    s, r = model.state, model.result
    assert s.options.causal  # kept for the way back, but not applied
    w = s.heads[0]
    np.testing.assert_allclose(r.head(0).weights, ref_head(s.X, w.W_Q, w.W_K, w.W_V,
                                                            X_kv=X_kv)["weights"], rtol=RTOL)
    assert (r.head(0).weights > 0).all()
    model.set_mode("self")
    model.recompute_now()
    s = model.state
    np.testing.assert_allclose(model.result.head(0).weights,
                               ref_head(s.X, w.W_Q, w.W_K, w.W_V, causal=True)["weights"],
                               rtol=RTOL)


def test_the_default_encoder_sequence_undoes_with_the_mode_switch(model):
    before = model.state
    model.set_mode("cross")
    assert model.state.X_kv.shape == (4, 8) and model.state.kv_tokens[0] == "k0"
    model.undo_stack.undo()
    assert model.state.equals(before)


# ------------------------------------------------------------------- linking
def test_concat_links_follow_the_head_blocks():
    # head 2 (index 1) of 3 heads with d_k = 2, d_model = 5
    assert concat_links("output", 1, 1, 1, 3, 2, 5) == {"concat": [(1, 3, 1, 1)],
                                                        "projected": [(1, 0, 1, 5)]}
    own = concat_links("concat", 0, 3, 1, 3, 2, 5)
    assert own["output"] == [(0, 1, 1, 1)] and own["concat"][0] == (0, 2, 1, 2)
    other = concat_links("concat", 0, 5, 1, 3, 2, 5)  # a column of head 3
    assert "output" not in other and other["concat"][0] == (0, 4, 1, 2)
    assert concat_links("projected", 2, 4, 0, 3, 2, 5) == {
        "projected": [(2, 4, 1, 1)], "concat": [(2, 0, 1, 6)], "output": [(2, 0, 1, 2)]}
