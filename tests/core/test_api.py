"""The core's public API at its edges: shapes, dtypes, options, bad input and lessons."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from qkv_desktop.core import (
    Weights,
    asymmetry,
    attention,
    compare_softmax,
    get_preset,
    init_multihead_weights,
    init_weights,
    multi_head_attention,
    scaling_sweep,
    session_sweep,
    softmax,
)

FIELDS = ("Q", "K", "V", "scores", "scaled", "weights", "output", "entropy",
          "max_weight", "mean_gradient")


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)


def random_weights(rng, d_model, d_k, biases=False) -> Weights:
    mats = [rng.standard_normal((d_model, d_k)) * 0.3 for _ in range(3)]
    bias = [rng.standard_normal(d_k) * 0.3 if biases else None for _ in range(3)]
    return Weights(*mats, *bias)


def unit_weights() -> Weights:
    """1 × 1 identity projections: Q = K = V = X, so the scores are x_i·x_j."""
    return Weights(np.ones((1, 1)), np.ones((1, 1)), np.ones((1, 1)))


# ------------------------------------------------------------------- shapes


def test_no_tokens_gives_empty_results_of_the_right_shape():
    r = attention(np.zeros((0, 8)), init_weights(8, 4))
    shapes = {name: getattr(r, name).shape for name in FIELDS}
    assert shapes == {"Q": (0, 4), "K": (0, 4), "V": (0, 4), "scores": (0, 0),
                      "scaled": (0, 0), "weights": (0, 0), "output": (0, 4),
                      "entropy": (0,), "max_weight": (0,), "mean_gradient": (0,)}
    assert list(r.matrices()) == ["Q", "K", "V", "scores", "scaled", "weights", "output"]
    assert (r.n_queries, r.n_keys) == (0, 0)


def test_d_k_of_one(rng):
    X = rng.standard_normal((5, 3))
    w = random_weights(rng, 3, 1)
    r = attention(X, w)
    assert r.Q.shape == (5, 1) and r.weights.shape == (5, 5) and r.output.shape == (5, 1)
    assert r.divisor == 1.0
    np.testing.assert_allclose(r.scores, np.outer(X @ w.W_Q, X @ w.W_K), rtol=1e-14)
    np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_single_token_attends_only_to_itself(rng):
    r = attention(rng.standard_normal((1, 4)), random_weights(rng, 4, 2))
    assert r.weights.tolist() == [[1.0]]
    np.testing.assert_array_equal(r.output, r.V)
    assert r.entropy[0] == 0 and r.max_weight[0] == 1 and r.mean_gradient[0] == 0


@pytest.mark.parametrize("magnitude", [1e100, 1e200, 1e300])
@pytest.mark.parametrize("scale", ["sqrt_dk", "none", 1e-3])
def test_huge_scores_still_give_finite_weights(magnitude, scale):
    root = np.sqrt(magnitude)
    X = np.array([[root], [-root], [0.5 * root], [0.0]])
    r = attention(X, unit_weights(), scale=scale)
    assert np.abs(r.scores).max() == pytest.approx(magnitude)
    for name in ("weights", "output", "entropy", "max_weight", "mean_gradient"):
        assert np.isfinite(getattr(r, name)).all(), name
    np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    # Query 0 (score +magnitude with itself) puts all its weight on key 0.
    assert r.weights[0].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_huge_negative_scores_everywhere_give_uniform_weights():
    r = attention(np.full((3, 1), 1e150), Weights(np.ones((1, 1)), -np.ones((1, 1)),
                                                 np.ones((1, 1))), scale="none")
    np.testing.assert_allclose(r.scores, -1e300, rtol=1e-15)
    np.testing.assert_allclose(r.weights, 1 / 3, rtol=1e-15)


# --------------------------------------------------------------- bad input


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_x_is_refused_naming_the_cell(rng, bad):
    X = rng.standard_normal((4, 3))
    X[2, 1] = bad
    with pytest.raises(ValueError, match=r"^X has a non-finite value .* at \[2, 1\]"):
        attention(X, random_weights(rng, 3, 2))


def test_non_finite_x_kv_is_refused_naming_the_cell(rng):
    X_kv = rng.standard_normal((3, 3))
    X_kv[0, 2] = np.nan
    with pytest.raises(ValueError, match=r"^X_kv has a non-finite value nan at \[0, 2\]"):
        attention(rng.standard_normal((2, 3)), random_weights(rng, 3, 2), X_kv=X_kv)


@pytest.mark.parametrize("name, cell", [("W_Q", (0, 0)), ("W_K", (3, 1)), ("W_V", (2, 0))])
def test_non_finite_weight_is_refused_naming_matrix_and_cell(rng, name, cell):
    mats = {n: rng.standard_normal((4, 2)) for n in ("W_Q", "W_K", "W_V")}
    mats[name][cell] = np.inf
    where = rf"\[{cell[0]}, {cell[1]}\]"
    with pytest.raises(ValueError, match=rf"^{name} has a non-finite value inf at {where}"):
        Weights(**mats)


@pytest.mark.parametrize("name", ["b_Q", "b_K", "b_V"])
def test_non_finite_bias_is_refused_naming_it(rng, name):
    mats = [rng.standard_normal((4, 3)) for _ in range(3)]
    bias = np.zeros(3)
    bias[1] = np.nan
    with pytest.raises(ValueError, match=rf"^{name} has a non-finite value nan at \[1\]"):
        Weights(*mats, **{name: bias})


@pytest.mark.parametrize("X, message", [
    (np.zeros(4), r"X must be 2-D"),
    (np.zeros((2, 3, 4)), r"X must be 2-D"),
    (np.zeros((3, 5)), r"X has 5 columns but the weights expect d_model = 4"),
    (np.array([["a", "b", "c", "d"]]), r"X must be numeric"),
])
def test_badly_shaped_x_is_refused(X, message):
    with pytest.raises(ValueError, match=message):
        attention(X, init_weights(4, 2))


def test_x_kv_with_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match=r"X_kv has 3 columns but the weights expect "
                                         r"d_model = 4"):
        attention(np.zeros((2, 4)), init_weights(4, 2), X_kv=np.zeros((2, 3)))


@pytest.mark.parametrize("shapes, message", [
    (((4, 2), (4, 3), (4, 2)), r"W_K has shape \(4, 3\), but W_Q has \(4, 2\)"),
    (((4, 2), (4, 2), (5, 2)), r"W_V has shape \(5, 2\), but W_Q has \(4, 2\)"),
    (((4,), (4,), (4,)), r"W_Q must be a 2-D numeric matrix"),
    (((4, 0), (4, 0), (4, 0)), r"d_k must be at least 1"),
])
def test_badly_shaped_weights_are_refused(shapes, message):
    with pytest.raises(ValueError, match=message):
        Weights(*(np.zeros(s) for s in shapes))


def test_badly_shaped_bias_is_refused():
    with pytest.raises(ValueError, match=r"b_K must have shape \(2,\), got \(3,\)"):
        Weights(np.zeros((4, 2)), np.zeros((4, 2)), np.zeros((4, 2)), b_K=np.zeros(3))


@pytest.mark.parametrize("kwargs", [dict(d_model=0, d_k=2), dict(d_model=4, d_k=0),
                                    dict(d_model=2.5, d_k=2), dict(d_model=4, d_k=-1)])
def test_init_weights_refuses_bad_dimensions(kwargs):
    with pytest.raises(ValueError, match="must be a positive integer"):
        init_weights(**kwargs)


@pytest.mark.parametrize("temperature", [0, -1.0, np.nan, np.inf])
def test_bad_temperature_is_refused(temperature):
    with pytest.raises(ValueError, match="temperature must be a positive finite number"):
        attention(np.zeros((2, 4)), init_weights(4, 2), temperature=temperature)


# -------------------------------------------------------------------- dtype


@pytest.mark.parametrize("options", [
    {}, dict(causal=True), dict(stable=False), dict(scale="none"),
    dict(scale=2.5, temperature=np.float64(0.7)), dict(X_kv="float32"),
])
@pytest.mark.parametrize("biases", [False, True])
def test_float32_stays_float32_in_every_field(rng, options, biases):
    X = rng.standard_normal((5, 6)).astype(np.float32)
    if options.get("X_kv") == "float32":
        options = dict(X_kv=rng.standard_normal((3, 6)).astype(np.float32))
    # float64 weights are brought to the input's dtype, not the other way round.
    w = random_weights(rng, 6, 4, biases=biases)
    r = attention(X, w, **options)
    assert {name: getattr(r, name).dtype for name in FIELDS} == \
        {name: np.dtype(np.float32) for name in FIELDS}
    expected = attention(X.astype(np.float64), w, **options)
    np.testing.assert_allclose(r.weights, expected.weights, rtol=1e-4, atol=1e-5)


def test_float32_stays_float32_through_multi_head_and_w_o(rng):
    heads, W_O = init_multihead_weights(6, 2, heads=3, seed=1, scale=0.3, with_output=True)
    r = multi_head_attention(rng.standard_normal((4, 6)).astype(np.float32), heads,
                             W_O=W_O)
    assert r.concat.dtype == np.float32 and r.output.dtype == np.float32
    assert all(h.weights.dtype == np.float32 for h in r.heads)


@pytest.mark.parametrize("dtype", [np.int64, np.float16, np.float64])
def test_other_dtypes_compute_in_float64(rng, dtype):
    X = (rng.standard_normal((3, 4)) * 3).astype(dtype)
    r = attention(X, init_weights(4, 2))
    assert all(getattr(r, name).dtype == np.float64 for name in FIELDS)


def test_softmax_keeps_float32():
    assert softmax(np.array([[1, 2, 3]], dtype=np.float32)).dtype == np.float32


# -------------------------------------------------------------------- scale


@pytest.mark.parametrize("scale, divisor", [("sqrt_dk", 3.0), ("none", 1.0), (2.5, 2.5),
                                            (7, 7.0), (np.float32(0.5), 0.5)])
def test_scale_options_set_the_divisor(rng, scale, divisor):
    X = rng.standard_normal((4, 5))
    w = random_weights(rng, 5, 9)
    r = attention(X, w, scale=scale, temperature=2.0)
    assert r.divisor == divisor
    np.testing.assert_allclose(r.scaled, r.scores / (divisor * 2.0), rtol=1e-15)
    np.testing.assert_allclose(r.weights, softmax(r.scores / (divisor * 2.0)), rtol=1e-13)


@pytest.mark.parametrize("scale", ["sqrt", "", "2", None, True, 0, -1.0, np.nan, np.inf,
                                   [2.0]])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ValueError, match="scale"):
        attention(np.zeros((2, 4)), init_weights(4, 2), scale=scale)


# ------------------------------------------------------------------ softmax


def test_naive_softmax_overflows_quietly_where_stable_does_not():
    x = np.array([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        naive = softmax(x, stable=False)
        stable = softmax(x)
    assert np.isnan(naive[0, 0]) and naive[0, 1] == 0 and naive[0, 2] == 0
    np.testing.assert_allclose(naive[1], stable[1], rtol=1e-15)
    assert np.isfinite(stable).all()
    np.testing.assert_allclose(stable[0], [1.0, 0.0, 0.0], atol=1e-300)


def test_naive_attention_breaks_without_raising():
    X = np.array([[30.0], [-30.0], [20.0]])  # scores up to 900: exp overflows
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        naive = attention(X, unit_weights(), scale="none", stable=False)
        stable = attention(X, unit_weights(), scale="none")
    assert not np.isfinite(naive.weights).all()
    assert np.isnan(naive.entropy[0])
    assert np.isfinite(stable.weights).all() and np.isfinite(stable.entropy).all()


def test_softmax_along_another_axis():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(softmax(x, axis=0), softmax(x.T).T, rtol=1e-15)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0, rtol=1e-15)


# ------------------------------------------------------------ cross / causal


def test_cross_attention_against_a_reference(rng):
    X, X_kv = rng.standard_normal((3, 5)), rng.standard_normal((7, 5))
    w = random_weights(rng, 5, 4, biases=True)
    r = attention(X, w, X_kv=X_kv, temperature=1.5)
    Q, K, V = X @ w.W_Q + w.b_Q, X_kv @ w.W_K + w.b_K, X_kv @ w.W_V + w.b_V
    s = Q @ K.T / (2.0 * 1.5)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    assert r.weights.shape == (3, 7) and (r.n_queries, r.n_keys) == (3, 7)
    np.testing.assert_allclose(r.K, K, rtol=1e-14)
    np.testing.assert_allclose(r.weights, p, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(r.output, p @ V, rtol=1e-12, atol=1e-15)
    assert r.entropy.shape == r.max_weight.shape == r.mean_gradient.shape == (3,)


def test_causal_cross_attention_is_refused():
    with pytest.raises(ValueError, match="causal"):
        attention(np.zeros((2, 4)), init_weights(4, 2), X_kv=np.zeros((3, 4)), causal=True)


def test_causal_first_row_sees_only_itself(rng):
    r = attention(rng.standard_normal((4, 3)), random_weights(rng, 3, 2), causal=True)
    assert r.weights[0].tolist() == [1.0, 0.0, 0.0, 0.0]
    np.testing.assert_array_equal(r.output[0], r.V[0])
    assert r.entropy[0] == 0 and np.isfinite(r.entropy).all()


# ------------------------------------------------------------------ weights


@pytest.fixture
def global_rng_restored():
    state = np.random.get_state()
    yield
    np.random.set_state(state)


@pytest.mark.parametrize("d_model, d_k, seed, scale", [(8, 4, 42, 0.1), (6, 3, 123, 0.5),
                                                        (3, 5, 0, 2.0)])
def test_init_weights_is_the_tutorials_global_seeding(global_rng_restored, d_model, d_k,
                                                      seed, scale):
    np.random.seed(seed)
    expected = [np.random.randn(d_model, d_k) * scale for _ in range(3)]
    np.random.seed(999)
    before = np.random.get_state()
    w = init_weights(d_model, d_k, seed=seed, scale=scale)
    after = np.random.get_state()
    for mine, theirs in zip((w.W_Q, w.W_K, w.W_V), expected, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    assert before[0] == after[0] and before[2:] == after[2:]
    np.testing.assert_array_equal(before[1], after[1])
    assert w.b_Q is None and w.b_K is None and w.b_V is None


def test_tied_weights_use_the_key_projection(rng):
    w = random_weights(rng, 4, 3, biases=True)
    t = w.tied()
    assert t.W_Q is w.W_K and t.b_Q is w.b_K and t.W_V is w.W_V and t.b_V is w.b_V


def test_head_zero_is_init_weights_and_one_head_is_attention(rng):
    heads, W_O = init_multihead_weights(8, 4, heads=3, seed=42, scale=0.1)
    assert W_O is None and len(heads) == 3
    single = init_weights(8, 4, seed=42, scale=0.1)
    for name in ("W_Q", "W_K", "W_V"):
        np.testing.assert_array_equal(getattr(heads[0], name), getattr(single, name))
    assert not np.array_equal(heads[1].W_Q, heads[0].W_Q)

    X = get_preset("tutorial-1").X
    mh = multi_head_attention(X, heads[:1], causal=True, temperature=0.5)
    one = attention(X, single, causal=True, temperature=0.5)
    assert mh.output is None and len(mh.heads) == 1
    np.testing.assert_array_equal(mh.concat, one.output)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(mh.heads[0], name), getattr(one, name))


def test_multi_head_concatenates_and_projects(rng):
    heads, W_O = init_multihead_weights(6, 2, heads=3, seed=5, scale=0.4, with_output=True)
    assert W_O.shape == (6, 6)
    X = rng.standard_normal((4, 6))
    r = multi_head_attention(X, heads, W_O=W_O)
    expected = np.hstack([attention(X, w).output for w in heads])
    np.testing.assert_array_equal(r.concat, expected)
    np.testing.assert_allclose(r.output, expected @ W_O, rtol=1e-14)


def test_multi_head_refuses_bad_input(rng):
    heads, _ = init_multihead_weights(6, 2, heads=2, seed=5, scale=0.4)
    with pytest.raises(ValueError, match="at least one head"):
        multi_head_attention(np.zeros((2, 6)), [])
    with pytest.raises(ValueError, match="W_O has 5 rows but the heads concatenate to 4"):
        multi_head_attention(np.zeros((2, 6)), heads, W_O=np.zeros((5, 6)))
    with pytest.raises(ValueError, match="heads must be a positive integer"):
        init_multihead_weights(6, 2, heads=0)


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(ValueError, match="tutorial-1, tutorial-2, random-small"):
        get_preset("tutorial-3")


# ------------------------------------------------------------------ lessons


def test_asymmetry_of_demo_2():
    preset = get_preset("tutorial-2")
    w = init_weights(preset.X.shape[1], preset.d_k, seed=preset.seed, scale=preset.scale)
    qk = attention(preset.X, w).scores
    kk = attention(preset.X, w.tied()).scores
    assert asymmetry(kk) < 1e-15
    assert asymmetry(qk) > 0.5
    expected = np.linalg.norm(qk - qk.T) / np.linalg.norm(qk)
    assert asymmetry(qk) == pytest.approx(expected, rel=1e-14)


def test_asymmetry_is_zero_for_symmetric_scores_however_different_the_projections():
    """The diagnostics' tip: the measure is 0 when the scores are symmetric, which
    W_Q = −W_K or W_Q = 3·W_K give as well as W_Q = W_K (it said it "grows with the
    difference between the two projections": a review)."""
    import dataclasses

    preset = get_preset("tutorial-2")
    w = init_weights(preset.X.shape[1], preset.d_k, seed=preset.seed, scale=preset.scale)
    for factor in (-1.0, 3.0):
        other = dataclasses.replace(w, W_Q=factor * w.W_K)
        assert asymmetry(attention(preset.X, other).scores) < 1e-15


def test_asymmetry_edges():
    assert asymmetry(np.zeros((3, 3))) == 0.0
    assert asymmetry(np.array([[0.0, 1.0], [-1.0, 0.0]])) == pytest.approx(2.0)
    with pytest.raises(ValueError, match=r"square matrix, got shape \(2, 3\)"):
        asymmetry(np.zeros((2, 3)))


def test_compare_softmax_marks_overflow():
    c = compare_softmax(np.array([[800.0, 0.0, -5.0], [1.0, 2.0, 3.0], [710.0, 709.0, 0.0]]))
    assert c.overflow.tolist() == [[True, False, False], [False, False, False],
                                   [True, False, False]]
    assert np.isfinite(c.stable).all()
    np.testing.assert_allclose(c.stable.sum(axis=1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(c.naive[1], c.stable[1], rtol=1e-15)


def test_scaling_sweep_trends():
    d_ks = (1, 4, 16, 64, 256)
    sweep = scaling_sweep(d_ks, n_keys=8, trials=400, seed=0)
    assert sweep.d_k.tolist() == list(d_ks)
    un, sc = sweep.unscaled, sweep.scaled
    # Without ÷√d_k softmax saturates as d_k grows: towards one-hot, no gradient.
    assert (np.diff(un["max_weight"]) > 0).all()
    assert (np.diff(un["entropy"]) < 0).all()
    assert (np.diff(un["mean_gradient"]) < 0).all()
    assert un["max_weight"][-1] > 0.9
    # With it, the distribution barely changes (d_k = 1 differs a little: a product of
    # two normals is not normal) while the unscaled one runs from 0.3 to 0.94.
    assert np.ptp(sc["max_weight"]) < 0.1 < 0.5 < np.ptp(un["max_weight"])
    assert np.ptp(sc["max_weight"][1:]) < 0.03
    assert np.ptp(sc["entropy"]) < 0.15
    np.testing.assert_allclose(un["max_weight"][0], sc["max_weight"][0], rtol=1e-15)


def test_scaling_sweep_refuses_bad_dimensions():
    for d_ks in ((), (4, 0)):
        with pytest.raises(ValueError, match="positive integer"):
            scaling_sweep(d_ks)


def test_session_sweep_shapes():
    scores = attention(get_preset("random-medium").X, init_weights(16, 8, scale=0.5)).scores
    d_ks = [1, 2, 8, 64]
    sweep = session_sweep(scores, d_ks)
    assert sweep.d_k.tolist() == d_ks
    for stats in (sweep.unscaled, sweep.scaled):
        assert set(stats) == {"max_weight", "entropy", "mean_gradient", "jacobian_norm"}
        assert all(v.shape == (4,) for v in stats.values())
    assert np.ptp(sweep.unscaled["max_weight"]) == 0
    np.testing.assert_allclose(sweep.scaled["max_weight"][0], sweep.unscaled["max_weight"][0])
    assert (np.diff(sweep.scaled["entropy"]) > 0).all()
    with pytest.raises(ValueError, match="no scores"):
        session_sweep(np.zeros((0, 0)), d_ks)


def test_the_finite_check_of_a_large_input_makes_no_temporary():
    """A finite sum proves every cell finite: no array of a byte per cell (786 kB for a
    1024 × 768 X, made on every forward), and a bad cell is still named."""
    import tracemalloc

    from qkv_desktop.core.validation import check_finite

    X = np.random.default_rng(1).standard_normal((1024, 768))
    tracemalloc.start()
    try:
        check_finite(X, "X")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 14, peak
    check_finite(np.full((300, 300), 1e308), "X")  # finite cells whose sum overflows
    for bad in (np.inf, np.nan):
        Y = X.copy()
        Y[7, 9] = bad
        Y[900, 1] = -np.inf
        with pytest.raises(ValueError, match=r"^X has a non-finite value .* at \[7, 9\]"):
            check_finite(Y, "X")


def test_scores_past_float64_are_refused_not_drawn_as_masked():
    """X[智能, d3] = 1e200 (a first-time user's test): q·k of 智能 with itself is about
    +1.2e398, and the product gave −inf, drawn as a masked cell; the query then attended
    to another key. Overflowed scores are refused with a reason; large values whose
    scores stay finite still compute."""
    from qkv_desktop.core.attention import ScoreOverflowError
    from qkv_desktop.state import SessionState, compute

    state = SessionState.from_preset("tutorial-1")
    X = state.X.copy()
    X[3, 3] = 1e200
    with pytest.raises(ValueError, match="overflow float64") as caught:
        compute(state.with_(X=X))  # said for the user by the state (``ComputeError``)
    assert isinstance(caught.value.__cause__, ScoreOverflowError)
    assert caught.value.__cause__.what == "scores"
    X[3, 3] = 1e100  # scores near 1e199: finite, computed
    result = compute(state.with_(X=X))
    assert np.isfinite(result.head(0).weights).all()
    X[3, 3] = np.finfo(np.float64).max  # Q itself stays finite; the scores do not
    with pytest.raises(ValueError) as caught:
        compute(state.with_(X=X))
    assert isinstance(caught.value.__cause__, ScoreOverflowError)
