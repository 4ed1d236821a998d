"""The RoPE lab's lessons against plain references (core.rope_lessons)."""

from __future__ import annotations

import math

import numpy as np

from qkv_desktop.core import Weights
from qkv_desktop.core.rope_lessons import (
    distance_decay,
    pair_rotations,
    permutation_check,
    shift_check,
)


def test_pair_rotations_turn_each_pair_by_position_times_its_frequency():
    q, k = np.array([1.0, 0.0, 0.0, 2.0]), np.array([0.0, 1.0, 1.0, 0.0])
    pr = pair_rotations(q, k, 3, 1, base=100.0, pairing="interleaved")
    theta = [1.0, 100.0 ** (-2 / 4)]
    np.testing.assert_allclose(pr.theta, theta)
    np.testing.assert_allclose(pr.q, [[1, 0], [0, 2]])
    # pair 0 of q: (1, 0) turned by 3·1 rad
    np.testing.assert_allclose(pr.q_rot[0], [math.cos(3), math.sin(3)], atol=1e-15)
    # pair 1 of k: (1, 0) turned by 1·0.1 rad
    np.testing.assert_allclose(pr.k_rot[1], [math.cos(0.1), math.sin(0.1)], atol=1e-15)
    assert pr.score == float(np.sum(pr.q_rot * pr.k_rot))
    half = pair_rotations(q, k, 3, 1, base=100.0, pairing="half")
    np.testing.assert_allclose(half.q, [[1, 0], [0, 2]])  # pairs (0, 2) and (1, 3)


def test_shifting_every_position_keeps_the_scores():
    rng = np.random.default_rng(0)
    Q, K = rng.standard_normal((5, 8)), rng.standard_normal((5, 8))
    s0, s1, diff = shift_check(Q, K, 37, base=1e4)
    assert diff < 1e-12 and np.allclose(s0, s1)
    assert not np.allclose(s0, Q @ K.T)  # RoPE did change the scores


def test_score_decays_with_distance_and_slower_for_a_larger_base():
    curves = distance_decay(16, (1e4, 1e6), 64)
    assert curves.shape == (2, 65)
    np.testing.assert_allclose(curves[:, 0], 1.0)
    # reference: q = k = 1/√d, score = (2/d)·Σ_i cos(Δ·θ_i)
    theta = 1e4 ** (-np.arange(0, 16, 2) / 16)
    np.testing.assert_allclose(curves[0, 10], 2 / 16 * np.cos(10 * theta).sum(), atol=1e-12)
    assert curves[0, 40] < curves[1, 40] < 1


def test_attention_without_positions_is_permutation_equivariant():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((6, 4))
    w = Weights(*(rng.standard_normal((4, 4)) for _ in range(3)))
    perm = [3, 0, 5, 1, 4, 2]
    assert permutation_check(X, w, perm) < 1e-12
    assert permutation_check(X, w, perm, positions="rope") > 1e-3
    assert permutation_check(X, w, perm, causal=True) > 1e-3
