"""The teaching lab's computations against plain, obvious reference code."""

import math

import numpy as np
import pytest

from qkv_desktop.core import attention, get_preset, init_weights
from qkv_desktop.core.lessons import cell_breakdown, exp_limit, nearly_uniform, row_uniformity


def _preset_result(name, **options):
    p = get_preset(name)
    w = init_weights(p.X.shape[1], p.d_k, seed=p.seed, scale=p.scale)
    return attention(p.X, w, **options)


def _plain_entropy(row):
    return -sum(p * math.log(p) for p in row if p > 0)


def test_row_uniformity_against_a_plain_loop():
    r = _preset_result("tutorial-2")
    u = row_uniformity(r.scaled, r.weights)
    for i, row in enumerate(r.weights.tolist()):
        n = len(row)
        assert u.visible[i] == n
        assert u.entropy[i] == pytest.approx(_plain_entropy(row), rel=1e-12)
        assert u.fraction[i] == pytest.approx(_plain_entropy(row) / math.log(n), rel=1e-12)
        assert u.deviation[i] == pytest.approx(max(abs(p - 1 / n) for p in row), rel=1e-12)
        assert u.max_weight[i] == max(row)
        assert u.argmax[i] == row.index(max(row))


def test_row_uniformity_counts_only_the_keys_a_causal_query_sees():
    r = _preset_result("random-small", causal=True)
    u = row_uniformity(r.scaled, r.weights)
    assert u.visible.tolist() == [1, 2, 3, 4, 5]
    assert u.fraction[0] == 1.0 and u.deviation[0] == 0.0
    for i in range(1, 5):
        seen = r.weights[i, : i + 1].tolist()
        assert u.fraction[i] == pytest.approx(_plain_entropy(seen) / math.log(i + 1), rel=1e-12)
        assert u.deviation[i] == pytest.approx(max(abs(p - 1 / (i + 1)) for p in seen))


def test_tutorial_1_is_uniform_to_within_0_004_and_its_diagonal_is_not_higher():
    r = _preset_result("tutorial-1")
    u = row_uniformity(r.scaled, r.weights)
    assert nearly_uniform(u)
    assert u.deviation.max() < 0.004
    # The commentary says the diagonal is usually higher; in these numbers it is not.
    assert not all(u.argmax == np.arange(4))


def test_larger_weights_are_not_uniform():
    p = get_preset("tutorial-1")
    r = attention(p.X, init_weights(8, 4, seed=42, scale=3.0))
    assert not nearly_uniform(row_uniformity(r.scaled, r.weights))


def test_nearly_uniform_edge_cases():
    one_key = row_uniformity(np.zeros((3, 1)), np.ones((3, 1)))
    assert not nearly_uniform(one_key)  # no row has a choice to make
    broken = row_uniformity(np.array([[800.0, 0.0]]), np.array([[np.nan, 0.0]]))
    assert np.isnan(broken.entropy[0]) and np.isnan(broken.fraction[0])
    assert not nearly_uniform(broken)
    flat = row_uniformity(np.zeros((2, 4)), np.full((2, 4), 0.25))
    assert nearly_uniform(flat) and flat.deviation.max() == 0
    with pytest.raises(ValueError, match="same 2-D shape"):
        row_uniformity(np.zeros((2, 3)), np.zeros((3, 2)))


def test_exp_limit_is_where_exp_overflows():
    for dtype in (np.float64, np.float32):
        x = dtype(exp_limit(dtype))
        with np.errstate(over="ignore"):
            assert np.isfinite(np.exp(x * dtype(0.9999)))
            assert np.isinf(np.exp(x * dtype(1.001)))
    assert exp_limit(np.float64) == pytest.approx(709.78, abs=0.01)


@pytest.mark.parametrize("options", [{}, {"temperature": 0.5, "scale": "none"},
                                     {"causal": True}, {"scale": 3.0, "temperature": 2.0}])
def test_cell_breakdown_retraces_the_result(options):
    r = _preset_result("tutorial-2", **options)
    T = options.get("temperature", 1.0)
    n, m = r.scores.shape
    for i in range(n):
        for j in range(m):
            b = cell_breakdown(r, i, j, temperature=T)
            q, k = r.Q[i].tolist(), r.K[j].tolist()
            assert b.products.tolist() == [a * c for a, c in zip(q, k, strict=True)]
            assert b.score == pytest.approx(sum(a * c for a, c in zip(q, k, strict=True)), rel=1e-12)
            assert b.masked == (options.get("causal", False) and j > i)
            if b.masked:
                assert b.weight == 0.0 and b.exps[j] == 0.0
                continue
            assert b.scaled == pytest.approx(b.score / (b.divisor * T), rel=1e-12)
            visible = [s for s in r.scaled[i].tolist() if s != -math.inf]
            assert b.shift == max(visible)
            total = sum(math.exp(s - max(visible)) for s in visible)
            assert b.row_sum == pytest.approx(total, rel=1e-12)
            assert b.exps[j] / b.row_sum == pytest.approx(b.weight, rel=1e-12)
            out = [sum(r.weights[i, jj] * r.V[jj, c] for jj in range(m))
                   for c in range(r.V.shape[1])]
            np.testing.assert_allclose(b.output_row, out, rtol=1e-12)


def test_cell_breakdown_of_the_naive_softmax_shows_the_overflow():
    p = get_preset("tutorial-2")
    w = init_weights(6, 3, seed=123, scale=0.5)
    r = attention(p.X * 100, w, stable=False)
    b = cell_breakdown(r, 2, 2, stable=False)
    assert b.shift == 0.0
    assert np.isinf(b.exps[2]) and math.isinf(b.row_sum)
    assert math.isnan(b.weight)
    with pytest.raises(ValueError, match=r"outside the 3×3 scores"):
        cell_breakdown(r, 3, 0)


def test_a_projection_breakdown_near_the_float64_limit_warns_nothing():
    import warnings

    from qkv_desktop.core.lessons import projection_breakdown
    X = np.array([[1.7e308, 1.7e308]])
    W = np.array([[2.0], [2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = projection_breakdown(X, W, None, 0, 0)
    assert np.isinf(b.value) and np.isinf(b.products).all()
