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
