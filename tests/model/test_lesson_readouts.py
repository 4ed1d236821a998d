"""The lesson read-outs kept on a ``ModelResult``: computed once, equal to the lessons'."""

import numpy as np
import pytest

from qkv_desktop.core.lessons import asymmetry, nearly_uniform, row_uniformity
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.state import readouts as lesson_readouts
from qkv_desktop.state.compute import compute


def test_lessons_match_the_core_lessons_and_are_cached(monkeypatch):
    result = compute(SessionState.from_preset("tutorial-2"))
    r = result.head(0)
    lessons = result.lessons(0)
    assert lessons.asymmetry == asymmetry(r.scores) and lessons.asymmetry > 0.5
    u = row_uniformity(r.scaled, r.weights)
    np.testing.assert_array_equal(lessons.uniformity.entropy, u.entropy)
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


def test_the_model_computes_the_current_heads_lessons_with_the_result(qtbot):
    model = AttentionModel(SessionState.from_preset("random-small"))
    model.set_heads(2)
    model.set_current_head(1)
    model.set_cell("X", 0, 0, 0.5)
    assert model.wait_until_idle()
    assert ("lessons", 1) in model.result._cache and ("kk", 1) not in model.result._cache
