"""Positions and masks against references written here from the papers' formulas.

Every reference is a plain loop over (query, key) cells or over dimensions, written
from the definitions (Vaswani et al. 2017 for the sinusoidal table, Su et al. 2021 for
RoPE as complex multiplication, Press et al. 2022 for ALiBi), never by calling the
code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qkv_desktop.core import (
    EmptyRowError,
    Weights,
    alibi_bias,
    alibi_slopes,
    attention,
    multi_head_attention,
    rope,
    sinusoidal_positions,
)
from qkv_desktop.core.masks import CAUSAL, CUSTOM, PREFIX, SINK, WINDOW, MaskSpec

# --------------------------------------------------------------- references


def ref_rope(x, positions, base=10000.0, pairing="half"):
    """Pair (a, b) as the complex number a + ib, times e^{i·pos·base^(−2k/d)}."""
    n, d = x.shape
    out = np.array(x, dtype=np.float64)
    for r in range(n):
        for k in range(d // 2):
            ia, ib = (k, k + d // 2) if pairing == "half" else (2 * k, 2 * k + 1)
            theta = positions[r] * base ** (-2 * k / d)
            z = complex(x[r, ia], x[r, ib]) * complex(math.cos(theta), math.sin(theta))
            out[r, ia], out[r, ib] = z.real, z.imag
    return out


def ref_sinusoidal(n, d, base=10000.0):
    pe = [[0.0] * d for _ in range(n)]
    for pos in range(n):
        for col in range(d):
            k = col // 2
            angle = pos / base ** (2 * k / d)
            pe[pos][col] = math.sin(angle) if col % 2 == 0 else math.cos(angle)
    return np.array(pe).reshape(n, d)


def ref_allowed(n, m, causal=False, window=None, prefix=None, sinks=0, mask=None):
    """Cell by cell, the rules as the issue states them."""
    out = np.zeros((n, m), dtype=bool)
    ordered = causal or prefix is not None
    for i in range(n):
        for j in range(m):
            ok = True
            if ordered and j > i:
                ok = prefix is not None and i < prefix and j < prefix
            if window is not None and not (j < sinks):
                if ordered:
                    ok = ok and (i - j < window)
                else:
                    ok = ok and abs(i - j) < window
            if mask is not None:
                ok = ok and bool(mask[i][j])
            out[i, j] = ok
    return out


def ref_attention(X, w, *, causal=False, window=None, prefix=None, sinks=0, mask=None,
                  alibi_slope=None, positions=None, base=10000.0, pairing="half", X_kv=None):
    """softmax(QKᵀ/√d_k + bias) V, one query at a time, masked keys left out of the sum."""
    X = np.asarray(X, dtype=np.float64)
    src = X if X_kv is None else np.asarray(X_kv, dtype=np.float64)
    if positions == "sinusoidal":
        X = X + ref_sinusoidal(*X.shape)
        src = X if X_kv is None else src + ref_sinusoidal(*src.shape)
    Q, K, V = X @ w.W_Q, src @ w.W_K, src @ w.W_V
    if positions == "rope":
        Q, K = ref_rope(Q, range(len(Q)), base, pairing), ref_rope(K, range(len(K)), base, pairing)
    allowed = ref_allowed(len(Q), len(K), causal, window, prefix, sinks, mask)
    out = np.zeros((len(Q), V.shape[1]))
    weights = np.zeros((len(Q), len(K)))
    for i in range(len(Q)):
        s = {}
        for j in range(len(K)):
            if allowed[i, j]:
                s[j] = float(Q[i] @ K[j]) / math.sqrt(Q.shape[1])
                if alibi_slope is not None:
                    s[j] -= alibi_slope * abs(i - j)
        top = max(s.values())
        z = sum(math.exp(v - top) for v in s.values())
        for j, v in s.items():
            weights[i, j] = math.exp(v - top) / z
            out[i] += weights[i, j] * V[j]
    return weights, out


def random_weights(rng, d_model, d_k):
    return Weights(*(rng.standard_normal((d_model, d_k)) * 0.5 for _ in range(3)))


# ------------------------------------------------------------------- RoPE


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize("d", [2, 6, 16])
def test_rope_is_the_complex_rotation(pairing, d):
    x = np.random.default_rng(d).standard_normal((5, d))
    pos = [0, 1, 2, 7, 40]
    np.testing.assert_allclose(rope(x, pos, base=500.0, pairing=pairing),
                               ref_rope(x, pos, 500.0, pairing), rtol=0, atol=1e-12)


def test_rope_pairings_differ_and_half_is_hugging_face_rotate_half():
    x = np.arange(8.0)[None, :] + 1
    half, inter = rope(x, [3], pairing="half"), rope(x, [3], pairing="interleaved")
    assert not np.allclose(half, inter)
    # HF LLaMA: q·cos + rotate_half(q)·sin with cos/sin repeated over both halves
    theta = 3 * 10000.0 ** (-np.arange(0, 8, 2) / 8)
    cos, sin = np.cos(np.concatenate([theta, theta])), np.sin(np.concatenate([theta, theta]))
    rotate_half = np.concatenate([-x[:, 4:], x[:, :4]], axis=1)
    np.testing.assert_allclose(half, x * cos + rotate_half * sin, atol=1e-12)


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_rope_float32_stays_float32_and_position_zero_is_identity(pairing):
    x = np.random.default_rng(3).standard_normal((1, 2)).astype(np.float32)
    assert rope(x, [0], pairing=pairing).dtype == np.float32
    np.testing.assert_array_equal(rope(x, [0], pairing=pairing), x)
    y = rope(x, [9], pairing=pairing)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, ref_rope(x.astype(np.float64), [9], pairing=pairing),
                               atol=1e-6)


vectors = st.lists(st.floats(-10, 10), min_size=8, max_size=8).map(
    lambda v: np.array(v)[None, :])


@settings(max_examples=60, deadline=None)
@given(q=vectors, k=vectors, m=st.integers(0, 300), n=st.integers(0, 300),
       shift=st.integers(-100, 1000), pairing=st.sampled_from(["half", "interleaved"]),
       base=st.sampled_from([100.0, 1e4, 1e6]))
def test_rope_score_depends_only_on_the_distance(q, k, m, n, shift, pairing, base):
    kw = {"base": base, "pairing": pairing}
    s = (rope(q, [m], **kw) @ rope(k, [n], **kw).T).item()
    shifted = (rope(q, [m + shift], **kw) @ rope(k, [n + shift], **kw).T).item()
    assert shifted == pytest.approx(s, abs=1e-8 * (1 + np.abs(q).sum() * np.abs(k).sum()))


@settings(max_examples=60, deadline=None)
@given(x=vectors, pos=st.integers(-1000, 10**6), pairing=st.sampled_from(["half", "interleaved"]))
def test_rope_preserves_norms(x, pos, pairing):
    assert np.linalg.norm(rope(x, [pos], pairing=pairing)) == pytest.approx(
        np.linalg.norm(x), rel=1e-12, abs=1e-12)


# ------------------------------------------------------------- sinusoidal


@pytest.mark.parametrize("n,d", [(1, 2), (7, 8), (5, 5), (0, 4), (3, 1)])
def test_sinusoidal_table_is_the_papers(n, d):
    np.testing.assert_allclose(sinusoidal_positions(n, d), ref_sinusoidal(n, d), atol=1e-15)
    assert sinusoidal_positions(n, d).shape == (n, d)


def test_sinusoidal_base_and_bad_input():
    np.testing.assert_allclose(sinusoidal_positions(4, 6, base=50.0), ref_sinusoidal(4, 6, 50.0))
    for bad in ({"n": -1, "d": 4}, {"n": 2, "d": 0}, {"n": 2, "d": 4, "base": 0.0}):
        with pytest.raises(ValueError):
            sinusoidal_positions(**bad)


# ------------------------------------------------------------------ ALiBi


def test_alibi_slopes_follow_the_paper():
    assert alibi_slopes(8).tolist() == [2.0 ** -k for k in range(1, 9)]
    assert alibi_slopes(1).tolist() == [2.0 ** -8]
    assert alibi_slopes(4).tolist() == [2.0 ** -2, 2.0 ** -4, 2.0 ** -6, 2.0 ** -8]
    # 6 heads: the 4-head slopes, then every other 8-head slope (2^-1, 2^-3)
    assert alibi_slopes(6).tolist() == [2.0 ** -2, 2.0 ** -4, 2.0 ** -6, 2.0 ** -8,
                                        2.0 ** -1, 2.0 ** -3]
    # 12 heads: the 8-head slopes, then 16-head slopes 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
    assert alibi_slopes(12) == pytest.approx(
        [2.0 ** -k for k in range(1, 9)] + [2.0 ** -(k + 0.5) for k in range(4)])
    with pytest.raises(ValueError):
        alibi_slopes(0)


def test_alibi_bias_is_minus_slope_times_distance():
    b = alibi_bias(3, 4, 0.5)
    assert b.tolist() == [[-0.5 * abs(i - j) for j in range(4)] for i in range(3)]
    assert not np.signbit(np.diagonal(b)).any()  # +0, never "−0.0000"


# ------------------------------------------------------------------ masks


MASK_CASES = [
    {"causal": True},
    {"causal": True, "window": 2},
    {"window": 2},
    {"causal": True, "window": 3, "sinks": 1},
    {"window": 1, "sinks": 2},
    {"prefix": 3},
    {"prefix": 2, "window": 2, "sinks": 1},
    {"causal": True, "mask": "random"},
    {"window": 3, "mask": "random"},
]


def _case(case, n, m, rng):
    case = dict(case)
    if case.get("mask") == "random":
        mask = rng.random((n, m)) < 0.7
        mask[np.arange(n), np.minimum(np.arange(n), m - 1)] = True  # keep every row alive
        case["mask"] = mask
    return case


@pytest.mark.parametrize("case", MASK_CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_attention_with_masks_matches_the_reference(case, dtype):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((7, 4))
    w = random_weights(rng, 4, 2)
    case = _case(case, 7, 7, rng)
    r = attention(X.astype(dtype), w, **case)
    ref_w, ref_out = ref_attention(X, w, **case)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert r.weights.dtype == dtype and r.scaled.dtype == dtype
    np.testing.assert_allclose(r.weights, ref_w, atol=tol)
    np.testing.assert_allclose(r.output, ref_out, atol=tol)
    allowed = ref_allowed(7, 7, **{k: v for k, v in case.items()})
    np.testing.assert_array_equal(r.allowed, allowed)
    assert (r.weights[~allowed] == 0).all()
    assert np.isneginf(r.scaled[~allowed]).all()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("stable", [True, False])
def test_every_option_at_once_matches_the_reference(dtype, stable):
    rng = np.random.default_rng(11)
    X = rng.standard_normal((9, 6))
    w = random_weights(rng, 6, 4)
    mask = np.ones((9, 9), bool)
    mask[5, 3] = mask[8, 0] = False
    kw = {"window": 3, "prefix": 2, "sinks": 1, "mask": mask, "alibi_slope": 0.25}
    for positions in ("rope", "sinusoidal"):
        r = attention(X.astype(dtype), w, positions=positions, rope_pairing="interleaved",
                      rope_base=100.0, stable=stable, **kw)
        ref_w, ref_out = ref_attention(X, w, positions=positions, pairing="interleaved",
                                       base=100.0, **kw)
        tol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(r.weights, ref_w, atol=tol)
        np.testing.assert_allclose(r.output, ref_out, atol=tol)
        assert r.output.dtype == dtype
    assert r.X_pos is not None and r.Q_rope is None


def test_rope_attention_carries_the_rotated_matrices():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((5, 3))
    w = random_weights(rng, 3, 4)
    r = attention(X, w, causal=True, positions="rope", rope_base=1e5)
    np.testing.assert_allclose(r.Q_rope, ref_rope(r.Q, range(5), 1e5), atol=1e-12)
    np.testing.assert_allclose(r.K_rope, ref_rope(r.K, range(5), 1e5), atol=1e-12)
    np.testing.assert_allclose(r.scores, r.Q_rope @ r.K_rope.T, atol=1e-12)
    assert list(r.matrices())[:4] == ["Q", "K", "Q_rope", "K_rope"]
    plain = attention(X, w)
    assert plain.Q_rope is None and plain.bias is None and plain.allowed.all()
    with pytest.raises(ValueError, match="even number"):
        attention(X, random_weights(rng, 3, 3), positions="rope")


def test_alibi_attention_matches_the_reference_with_and_without_causal():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((6, 4))
    w = random_weights(rng, 4, 2)
    for causal in (False, True):
        r = attention(X, w, causal=causal, alibi_slope=0.5)
        np.testing.assert_allclose(r.weights, ref_attention(X, w, causal=causal,
                                                            alibi_slope=0.5)[0], atol=1e-12)
        np.testing.assert_allclose(r.bias, [[-0.5 * abs(i - j) for j in range(6)]
                                            for i in range(6)])


def test_one_token_and_d_2():
    rng = np.random.default_rng(9)
    w = random_weights(rng, 2, 2)
    X = rng.standard_normal((1, 2))
    for kw in ({"causal": True, "window": 1}, {"prefix": 1, "sinks": 1},
               {"positions": "rope", "alibi_slope": 2.0}, {"positions": "sinusoidal"},
               {"mask": np.array([[True]])}):
        r = attention(X, w, **kw)
        assert r.weights.tolist() == [[1.0]]
        np.testing.assert_allclose(r.output, ref_attention(X, w, **kw)[1], atol=1e-12)


def test_cross_attention_masks_and_positions():
    rng = np.random.default_rng(4)
    X, X_kv = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    w = random_weights(rng, 4, 2)
    mask = np.array([[1, 1, 0, 0, 1], [0, 1, 1, 1, 1], [1, 0, 0, 0, 0]], bool)
    for kw in ({"window": 3}, {"mask": mask, "alibi_slope": 0.3},
               {"positions": "sinusoidal", "window": 2, "sinks": 1}, {"positions": "rope"}):
        r = attention(X, w, X_kv=X_kv, **kw)
        np.testing.assert_allclose(r.weights, ref_attention(X, w, X_kv=X_kv, **kw)[0],
                                   atol=1e-12)
    with pytest.raises(ValueError, match="cross-attention"):
        attention(X, w, X_kv=X_kv, prefix=1)


@pytest.mark.parametrize("stable", [True, False])
def test_a_row_with_no_allowed_key_is_refused_naming_it(stable):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((4, 3))
    w = random_weights(rng, 3, 2)
    mask = np.ones((4, 4), bool)
    mask[2] = False
    mask[3, :] = False
    with pytest.raises(EmptyRowError, match="query row 2 ") as err:
        attention(X, w, mask=mask, stable=stable)
    assert err.value.row == 2 and isinstance(err.value, ValueError)
    mask = np.ones((4, 4), bool)
    mask[1, 0] = False  # with causal, row 1's only keys are 0 and 1
    mask[1, 1] = False
    with pytest.raises(ValueError, match="query row 1 "):
        attention(X, w, causal=True, mask=mask, stable=stable)
    # a window that leaves late queries of a short key sequence nothing
    with pytest.raises(ValueError, match="query row 3 "):
        attention(X, w, X_kv=X[:2], window=2, stable=stable)
    attention(X, w, X_kv=X[:2], window=2, sinks=1, stable=stable)  # a sink saves them


def test_empty_rows_are_found_in_parallel_blocks():
    """Large enough to run in row ranges on several threads: the first empty row wins."""
    rng = np.random.default_rng(0)
    n = 800
    X = rng.standard_normal((n, 4))
    w = random_weights(rng, 4, 2)
    mask = np.ones((n, n), bool)
    mask[[650, 333, 790]] = False
    with pytest.raises(EmptyRowError, match="query row 333 "):
        attention(X, w, mask=mask)


def test_bad_options_are_refused():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((3, 2))
    w = random_weights(rng, 2, 2)
    for kw, msg in (({"window": 0}, "window"), ({"window": 1.5}, "window"),
                    ({"prefix": -1}, "prefix"), ({"sinks": -2}, "sinks"),
                    ({"alibi_slope": -1.0}, "ALiBi"), ({"alibi_slope": float("nan")}, "ALiBi"),
                    ({"mask": np.ones((3, 3))}, "boolean"), ({"mask": np.ones((2, 3), bool)},
                                                             "2 × 3"),
                    ({"positions": "alibi"}, "positions"),
                    ({"positions": "rope", "rope_pairing": "odd"}, "pairing")):
        with pytest.raises(ValueError, match=msg):
            attention(X, w, **kw)


def test_mask_reasons_name_the_rule_that_hid_or_kept_each_cell():
    custom = np.ones((6, 6), bool)
    custom[4, 4] = False
    custom[0, 1] = False
    codes = MaskSpec(causal=True, window=2, prefix=2, sinks=1, custom=custom).reasons(6, 6)
    assert codes[0, 1] == CUSTOM          # a prefix cell the custom mask hides
    assert codes[1, 0] == 0               # plain allowed
    assert codes[1, 2] == CAUSAL          # a future key
    assert codes[4, 2] == WINDOW          # too far back
    assert codes[4, 0] == SINK            # too far back but a sink
    assert codes[4, 4] == CUSTOM
    codes = MaskSpec(prefix=3).reasons(4, 4)
    assert codes[0, 2] == PREFIX and codes[3, 3] == 0 and codes[2, 3] == CAUSAL


# --------------------------------------------------------------- multi-head


def test_multi_head_alibi_uses_one_paper_slope_per_head():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((5, 8))
    heads = [random_weights(rng, 8, 2) for _ in range(6)]
    r = multi_head_attention(X, heads, alibi=True, causal=True)
    slopes = [2.0 ** -2, 2.0 ** -4, 2.0 ** -6, 2.0 ** -8, 2.0 ** -1, 2.0 ** -3]
    for h, w in enumerate(heads):
        assert r.heads[h].alibi_slope == slopes[h]
        np.testing.assert_allclose(r.heads[h].weights,
                                   ref_attention(X, w, causal=True, alibi_slope=slopes[h])[0],
                                   atol=1e-12)
    custom = multi_head_attention(X, heads[:2], alibi=[0.1, 0.7])
    assert [hr.alibi_slope for hr in custom.heads] == [0.1, 0.7]
    with pytest.raises(ValueError, match="2 ALiBi slopes for 6 heads"):
        multi_head_attention(X, heads, alibi=[0.1, 0.2])


# ---------------------------------------------------- no positions: order-blind


def test_without_positions_attention_is_permutation_equivariant_and_with_them_not():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 4))
    w = random_weights(rng, 4, 4)
    perm = rng.permutation(6)
    a, b = attention(X, w), attention(X[perm], w)
    np.testing.assert_allclose(b.output, a.output[perm], atol=1e-12)
    for positions in ("rope", "sinusoidal"):
        a, b = attention(X, w, positions=positions), attention(X[perm], w, positions=positions)
        assert not np.allclose(b.output, a.output[perm], atol=1e-6)


def test_a_causal_mask_alone_already_tells_the_order():
    """The Positions tab says "none (order-blind without a mask or ALiBi)": with the causal mask
    and no positions, shuffling the tokens changes more than the output's order (a
    review: "order-blind" was said of every session without positions)."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 4))
    w = random_weights(rng, 4, 4)
    perm = rng.permutation(6)
    a, b = attention(X, w, causal=True), attention(X[perm], w, causal=True)
    assert not np.allclose(b.output, a.output[perm], atol=1e-6)


def test_alibi_alone_tells_the_order_too():
    """ALiBi is no mask, but its bias −m·|i − j| depends on the positions: the Positions
    tab's "order-blind" excepts it (a domain review: 1.4e-17 without it on tutorial-2
    shuffled, 0.041 with a slope of 0.25)."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 4))
    w = random_weights(rng, 4, 4)
    perm = rng.permutation(6)
    a, b = attention(X, w, alibi_slope=0.25), attention(X[perm], w, alibi_slope=0.25)
    assert not np.allclose(b.output, a.output[perm], atol=1e-6)


@pytest.mark.parametrize("h", [1, 2, 4, 8, 16])
def test_alibi_slopes_of_a_power_of_two_are_the_tips_formula(h):
    """The ALiBi tip: 2^(−8k/h) for head k = 1 … h when h is a power of two."""
    np.testing.assert_allclose(alibi_slopes(h), [2.0 ** (-8 * k / h) for k in range(1, h + 1)])


def test_alibi_slopes_of_other_head_counts_interleave_powers_of_two():
    """Otherwise the paper's code: the slopes of the power of two below, then every
    other slope of twice it (the tip no longer claims 2^(−8k/h) for these)."""
    np.testing.assert_array_equal(alibi_slopes(3), [2.0 ** -4, 2.0 ** -8, 2.0 ** -2])
    assert not np.allclose(alibi_slopes(3), [2.0 ** (-8 * k / 3) for k in (1, 2, 3)])
