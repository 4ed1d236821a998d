"""How a training step fails, in fields a caller can say in the user's language.

The gradient lab's red line held the core's English "W_Q has a non-finite value inf at
[0, 1]" inside its Chinese sentence: an overflow is now ``WeightsOverflowed`` with the
matrix, the cell and the value (``str()`` still the English, for a notebook).
"""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.core.training import WeightsOverflowed, target_pattern, train_step
from qkv_desktop.core.weights import Weights
from qkv_desktop.state.texts import Text


def test_an_overflowing_step_names_the_matrix_the_cell_and_the_value():
    X = np.eye(3)
    w = Weights(np.eye(3), np.eye(3), np.eye(3) * 1e300)
    target = target_pattern("first", 3) * 1e300  # a huge error: every step overflows
    with pytest.raises(WeightsOverflowed) as caught:
        train_step(X, w, target, "output", 1e10)
    exc = caught.value
    assert isinstance(exc, ValueError)
    assert exc.name == "W_Q" and len(exc.index) == 2 and not np.isfinite(exc.value)  # the first
    assert all(isinstance(i, int) for i in exc.index)
    assert str(exc).startswith("W_Q has a non-finite value")


def test_a_plural_text_fills_its_count_without_qt():
    assert str(Text("Train %n steps", context="GradientLab", count=3)) == "Train 3 steps"
    assert str(Text("{0}: %n rows", ("X",), count=2)) == "X: 2 rows"


def test_the_default_learning_rate_is_one_over_the_longest_vector_squared():
    """0.5 for the tutorial's vectors (‖x‖² about 1); for longer ones 1 / max‖x‖², rounded
    down to one digit, over the rows of X and of X_kv: a step on W_V then cannot
    overshoot (the largest eigenvalue of (2/n)(PX)(PX)ᵀ is at most 2·max‖x‖²)."""
    from qkv_desktop.core.training import DEFAULT_LEARNING_RATE, default_learning_rate
    from qkv_desktop.state import SessionState

    tutorial = SessionState.from_preset("tutorial-1").X
    assert default_learning_rate(tutorial) == DEFAULT_LEARNING_RATE == 0.5
    X = np.zeros((3, 4))
    X[1, :2] = 2.0, np.sqrt(137.0 - 4.0)  # max‖x‖² = 137 (all-MiniLM-L6-v2's first layer)
    assert default_learning_rate(X) == 0.007
    assert default_learning_rate(np.eye(2), X_kv=X) == 0.007  # the keys' and values' rows
    assert default_learning_rate(np.full((2, 2), 1e3)) == 5e-7  # 1 / 2e6
    assert default_learning_rate(np.full((2, 2), 1e6)) == 1e-8  # never below the boxes'
    # the overflow lesson's "× 100 the inputs": the rate stays below 1 / max‖x‖²
    big = SessionState.from_preset("tutorial-1").X * 100
    assert default_learning_rate(big) <= 1 / np.max(np.sum(big * big, axis=1))
    lr = default_learning_rate(X)
    rng = np.random.default_rng(0)
    w = Weights(rng.normal(size=(4, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 2)))
    target = rng.normal(size=(3, 2)) * 10
    losses = []
    for _ in range(50):  # the target output: the loss falls at this rate
        step = train_step(X, w, target, "output", lr)
        losses.append(step.loss)
        w = step.after
    assert losses[-1] < losses[0] and np.all(np.isfinite(losses))


def test_a_runs_points_hold_the_loss_of_their_own_weights():
    """``training_run``'s point after step k: its loss and gradients are those at its
    weights (the lab said the loss from before step 200 beside the weights after it),
    and a learning rate changed during the run applies from the next step on."""
    from qkv_desktop.core.training import loss_and_grads, training_run
    from qkv_desktop.core.weights import init_weights
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 4))
    w = init_weights(4, 3, seed=1)
    T = target_pattern("previous", 5)
    rates = iter([0.5, 0.5, 0.1, 0.1])
    points = []
    for point in training_run(X, w, T, "pattern", lambda: next(rates), causal=True):
        points.append(point)
        if point.step == 4:
            break
    assert [p.step for p in points] == [1, 2, 3, 4]
    before = w
    for point, lr in zip(points, (0.5, 0.5, 0.1, 0.1), strict=True):
        loss, grads = loss_and_grads(X, point.weights, T, "pattern", causal=True)
        assert point.loss == loss
        np.testing.assert_array_equal(point.grads.W_Q, grads.W_Q)
        step = train_step(X, before, T, "pattern", lr, causal=True)  # the same descent
        np.testing.assert_array_equal(point.weights.W_Q, step.after.W_Q)
        assert step.loss != point.loss  # (train_step's loss is the one before its step)
        before = point.weights
