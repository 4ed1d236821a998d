"""The lesson read-outs kept on a ``ModelResult``: computed once, equal to the lessons'."""

import numpy as np
import pytest

from qkv_desktop.core.lessons import asymmetry, nearly_uniform, product_asymmetry, row_uniformity
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.state import readouts as lesson_readouts
from qkv_desktop.state.compute import compute


def test_lessons_match_the_core_lessons_and_are_cached(monkeypatch):
    result = compute(SessionState.from_preset("tutorial-2"))
    r = result.head(0)
    lessons = result.lessons(0)
    assert lessons.asymmetry == pytest.approx(asymmetry(r.scores), rel=1e-12)
    assert lessons.asymmetry > 0.5
    u = row_uniformity(r.scaled, r.weights)
    np.testing.assert_array_equal(lessons.uniformity.entropy, r.entropy)  # the core's own
    np.testing.assert_allclose(lessons.uniformity.entropy, u.entropy, rtol=1e-12)
    np.testing.assert_array_equal(lessons.uniformity.deviation, u.deviation)
    assert lessons.nearly_uniform == nearly_uniform(u)
    assert lessons.overflow is None and lessons.top is None  # stable softmax
    kk = result.kk(0)
    np.testing.assert_array_equal(kk.kk, r.K @ r.K.T)
    assert kk.asymmetry == 0.0
    monkeypatch.setattr(lesson_readouts, "row_uniformity",
                        lambda *a: pytest.fail("read-outs computed twice"))
    assert result.lessons(0) is lessons and result.kk(0) is kk


def test_lessons_of_cross_attention_and_of_a_naive_overflow(qtbot):
    s = SessionState.from_preset("tutorial-2")
    naive = compute(s.with_(X=s.X * 1e4, options=s.options.__class__(stable=False)))
    lessons = naive.lessons(0)
    bad = ~np.isfinite(naive.head(0).weights)
    assert lessons.overflow == (int(bad.sum()), int(bad.any(axis=1).sum())) and bad.any()
    model = AttentionModel(s)
    model.set_mode("cross")
    assert model.wait_until_idle()
    assert model.result.lessons(0).asymmetry is None


def test_the_model_computes_the_current_heads_lessons_before_announcing_them(qtbot):
    """After the result (issue 20: the panes first), before ``lessonsChanged``."""
    model = AttentionModel(SessionState.from_preset("random-small"))
    announced = []
    model.lessonsChanged.connect(
        lambda r: announced.append(("lessons", 1) in r._cache and ("kk", 1) not in r._cache))
    model.set_heads(2)
    model.set_current_head(1)
    model.set_cell("X", 0, 0, 0.5)
    assert model.wait_until_idle()
    assert ("lessons", 1) in model.result._cache and ("kk", 1) not in model.result._cache
    assert announced[-1] is True


@pytest.mark.parametrize("options", [{}, {"causal": True}, {"positions": "rope"},
                                     {"window": 3}, {"alibi_slope": 0.5}])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_fast_read_outs_agree_with_the_plain_ones(options, dtype):
    """Reusing the forward's row statistics, one pass for the spread and the asymmetry
    from Q and K give the numbers the plain formulas give."""
    from qkv_desktop.core import attention, init_weights
    X = np.random.default_rng(1).standard_normal((50, 16)).astype(dtype)
    r = attention(X, init_weights(16, 8, seed=3, scale=0.5), **options)
    fast, plain = lesson_readouts.head_lessons(r, False, True), row_uniformity(r.scaled, r.weights)
    u = fast.uniformity
    tol = 1e-6 if dtype == np.float32 else 1e-12  # float32: the forward's own precision
    np.testing.assert_allclose(u.entropy, plain.entropy, rtol=tol, atol=tol)
    np.testing.assert_allclose(u.fraction, plain.fraction, rtol=tol, atol=tol)
    for name in ("visible", "deviation", "max_weight", "argmax"):
        np.testing.assert_array_equal(getattr(u, name), getattr(plain, name), err_msg=name)
    shown = np.where(np.isneginf(r.scaled), np.nan, r.scaled)
    np.testing.assert_array_equal(u.span, np.nanmax(shown, axis=1) - np.nanmin(shown, axis=1))
    assert fast.asymmetry == pytest.approx(asymmetry(r.scores), rel=tol)


def test_the_asymmetry_of_tied_projections_is_measured_on_the_scores():
    """Q = K: the Gram formula would be all rounding, so the scores themselves are used."""
    from qkv_desktop.core.lessons import product_asymmetry
    Q = np.random.default_rng(2).standard_normal((300, 8))
    assert product_asymmetry(Q, Q) == asymmetry(Q @ Q.T) < 1e-15
    assert product_asymmetry(np.zeros((3, 2)), np.zeros((3, 2))) == 0.0
    with pytest.raises(ValueError, match="same 2-D shape"):
        product_asymmetry(np.zeros((3, 2)), np.zeros((4, 2)))


def test_row_uniformity_takes_the_forwards_statistics_instead_of_a_logarithm(monkeypatch):
    from qkv_desktop.core import lessons
    result = compute(SessionState.from_preset("tutorial-2")).head(0)
    real_log = np.log

    def no_matrix_log(x, *args, **kwargs):
        assert np.ndim(x) < 2, "a logarithm of the whole weights matrix"
        return real_log(x, *args, **kwargs)

    monkeypatch.setattr(lessons.np, "log", no_matrix_log)
    u = row_uniformity(result.scaled, result.weights, result.entropy, result.max_weight)
    np.testing.assert_array_equal(u.entropy, result.entropy)
    np.testing.assert_array_equal(u.max_weight, result.max_weight)


def test_seeded_weights_are_drawn_again_only_for_other_weights(monkeypatch):
    """``seeded_weights`` keeps its last answer while the weights, seed, scale and width
    are the same objects: an edit of X does not draw the seeded weights again."""
    import dataclasses

    from qkv_desktop.state import readouts, session_state
    drawn = []
    real = session_state.init_multihead_weights
    monkeypatch.setattr(session_state, "init_multihead_weights",
                        lambda *a, **k: drawn.append(a) or real(*a, **k))
    state = SessionState.from_preset("tutorial-1")
    rescaled = state.reinitialised(init_scale=1.0)
    relabelled = state.reinitialised(seed=7).with_(seed=42)  # seed 7's weights, "42"
    w = state.heads[0]
    typed = state.with_(heads=(dataclasses.replace(w, W_V=w.W_V * 2),))
    drawn.clear()

    def drawing(states) -> tuple[list[bool], int]:
        before = len(drawn)
        answers = [readouts.seeded_weights(s) for s in states]
        return answers, len(drawn) - before

    assert drawing([state, state.with_(X=state.X + 0.5), state]) == ([True] * 3, 1)
    assert drawing([typed, typed.with_(X=typed.X - 1)]) == ([False, False], 1)
    assert drawing([rescaled, relabelled]) == ([True, False], 2)


def test_only_an_edit_of_the_inputs_keeps_the_structure():
    """``same_structure``: X's values may differ; its shape, the weights, the options,
    the tokens may not."""
    from qkv_desktop.state.session_state import Options, same_structure
    state = SessionState.from_preset("tutorial-1")
    edited = state.with_(X=state.X * 2)
    assert same_structure(state.structure(), edited.structure())
    assert not same_structure(state.structure(), state.reinitialised(d_model=4).structure())
    assert not same_structure(state.structure(),
                              state.with_(options=Options(temperature=2.0)).structure())
    assert not same_structure(state.structure(),
                              state.with_(tokens=tuple(reversed(state.tokens))).structure())
    assert not same_structure(state.structure(), state.reinitialised(seed=3).structure())


@pytest.mark.parametrize("size", [1.0, 1e80, 1e150, 1e-150])
def test_the_asymmetry_of_huge_or_tiny_finite_scores_is_a_number_not_nan(size):
    """Scores of 1e80 read "QKᵀ asymmetry = NaN": ‖S‖² overflowed to ∞ and ∞/∞ is NaN,
    though every score was finite (a first user). The ratio does not depend on the
    scale: scaled by a power of two first, it is the same number at every size."""
    rng = np.random.default_rng(5)
    Q, K = rng.standard_normal((6, 3)), rng.standard_normal((6, 3))
    S = Q @ K.T
    expected = np.linalg.norm(S - S.T) / np.linalg.norm(S)
    q = Q * np.sqrt(size)
    assert product_asymmetry(q, K * np.sqrt(size)) == pytest.approx(expected, rel=1e-12)
    assert asymmetry(S * size) == pytest.approx(expected, rel=1e-12)
    assert asymmetry(np.array([[1e300, 2e300], [-3e300, 5e300]])) == pytest.approx(
        np.linalg.norm([[0, 5], [-5, 0]]) / np.linalg.norm([[1, 2], [-3, 5]]), rel=1e-12)


def test_a_symmetric_float32_matrix_with_a_huge_value_has_asymmetry_zero():
    """Scaled by a power of two, a float32 matrix's two triangles must be scaled alike:
    one side kept in float32 went subnormal beside 1e38, and a symmetric matrix read an
    asymmetry of 4e-48 (a review)."""
    S = np.array([[1e38, 3e-10], [3e-10, 1.0]], np.float32)
    assert asymmetry(S) == 0.0
