"""Properties attention must have for any input, checked with Hypothesis.

Hypothesis draws the shapes, options and a seed; the arrays come from that seed, so
large matrices stay cheap to generate and every failure is reproducible.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from qkv_desktop.core import Weights, attention, softmax

seeds = st.integers(0, 2**32 - 1)
scales = st.one_of(st.sampled_from(["sqrt_dk", "none"]), st.floats(0.25, 8.0))
temperatures = st.floats(0.25, 4.0)


@st.composite
def problems(draw, max_n=16, max_d=16, biases=None):
    """``(X, Weights)`` with n tokens of d_model dimensions and d_k-wide projections."""
    n = draw(st.integers(1, max_n))
    d_model = draw(st.integers(1, max_d))
    d_k = draw(st.integers(1, max_d))
    with_bias = draw(st.booleans()) if biases is None else biases
    rng = np.random.default_rng(draw(seeds))
    w_scale = draw(st.floats(0.05, 0.5))
    X = rng.standard_normal((n, d_model))
    mats = [rng.standard_normal((d_model, d_k)) * w_scale for _ in range(3)]
    bias = [rng.standard_normal(d_k) * w_scale if with_bias else None for _ in range(3)]
    return X, Weights(*mats, *bias)


def reference(X, w: Weights, divisor: float, temperature: float, X_kv=None):
    """Scaled dot-product attention written out plainly, one NumPy line per step."""
    src = X if X_kv is None else X_kv
    Q = X @ w.W_Q + (0 if w.b_Q is None else w.b_Q)
    K = src @ w.W_K + (0 if w.b_K is None else w.b_K)
    V = src @ w.W_V + (0 if w.b_V is None else w.b_V)
    scores = Q @ K.T
    scaled = scores / (divisor * temperature)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(p), 0.0)
    return {"Q": Q, "K": K, "V": V, "scores": scores, "scaled": scaled, "weights": p,
            "output": p @ V, "entropy": -plogp.sum(axis=1),
            "max_weight": p.max(axis=1), "mean_gradient": (p * (1 - p)).mean(axis=1)}


def assert_matches(result, expected: dict, atol: float = 1e-12):
    for name, value in expected.items():
        np.testing.assert_allclose(getattr(result, name), value, rtol=1e-12, atol=atol,
                                   err_msg=name)


@given(problems(max_n=64, max_d=64), scales, temperatures)
def test_agrees_with_plain_numpy_reference(problem, scale, temperature):
    X, w = problem
    r = attention(X, w, scale=scale, temperature=temperature)
    divisor = {"sqrt_dk": np.sqrt(w.d_k), "none": 1.0}.get(scale, scale)
    assert r.divisor == divisor
    assert_matches(r, reference(X, w, divisor, temperature))


@given(problems(), scales, temperatures, st.booleans())
def test_rows_are_probability_distributions(problem, scale, temperature, causal):
    X, w = problem
    p = attention(X, w, scale=scale, temperature=temperature, causal=causal).weights
    assert ((p >= 0) & (p <= 1)).all()
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@given(problems(), seeds)
def test_permuting_tokens_permutes_everything_alike(problem, seed):
    X, w = problem
    perm = np.random.default_rng(seed).permutation(len(X))
    r, rp = attention(X, w), attention(X[perm], w)
    for name in ("Q", "K", "V", "output"):
        np.testing.assert_allclose(getattr(rp, name), getattr(r, name)[perm],
                                   rtol=1e-12, atol=1e-14, err_msg=name)
    for name in ("scores", "weights"):
        np.testing.assert_allclose(getattr(rp, name), getattr(r, name)[perm][:, perm],
                                   rtol=1e-12, atol=1e-14, err_msg=name)
    np.testing.assert_allclose(rp.entropy, r.entropy[perm], rtol=1e-12, atol=1e-14)


@given(problems(), st.lists(st.floats(-1e3, 1e3), min_size=16, max_size=16))
def test_softmax_ignores_a_constant_added_to_a_row(problem, shifts):
    X, w = problem
    scaled = attention(X, w).scaled
    shifted = scaled + np.array(shifts[: len(scaled)])[:, None]
    np.testing.assert_allclose(softmax(shifted), softmax(scaled), rtol=1e-9, atol=1e-12)


@given(problems(biases=False), seeds)
def test_key_bias_shifts_each_score_row_by_a_constant(problem, seed):
    """q·(k + b) = q·k + q·b: a key bias moves a query's scores together, not its weights."""
    X, w = problem
    b_K = np.random.default_rng(seed).standard_normal(w.d_k)
    r = attention(X, w)
    rb = attention(X, Weights(w.W_Q, w.W_K, w.W_V, b_K=b_K))
    shift = rb.scores - r.scores
    np.testing.assert_allclose(shift, shift[:, :1] + np.zeros_like(shift), atol=1e-12)
    np.testing.assert_allclose(rb.weights, r.weights, rtol=1e-9, atol=1e-12)


@given(problems(), scales)
def test_tied_weights_give_symmetric_scores(problem, scale):
    X, w = problem
    r = attention(X, w.tied(), scale=scale)
    np.testing.assert_array_equal(r.Q, r.K)
    # BLAS may sum q_i·q_j and q_j·q_i in different orders: equal up to rounding.
    for S in (r.scores, r.scaled):
        np.testing.assert_allclose(S, S.T, rtol=0, atol=1e-14 * (1 + np.abs(S).max()))


@given(problems(), scales, temperatures)
def test_causal_masks_the_future(problem, scale, temperature):
    X, w = problem
    r = attention(X, w, scale=scale, temperature=temperature, causal=True)
    above = np.triu(np.ones(r.weights.shape, dtype=bool), k=1)
    assert (r.weights[above] == 0).all()
    assert np.isneginf(r.scaled[above]).all()
    assert np.isfinite(r.scaled[~above]).all()
    assert r.weights[0, 0] == 1.0
    # Every prefix is ordinary attention over the tokens seen so far.
    last = attention(X, w, scale=scale, temperature=temperature)
    np.testing.assert_allclose(r.output[-1], last.output[-1], rtol=1e-12, atol=1e-14)
