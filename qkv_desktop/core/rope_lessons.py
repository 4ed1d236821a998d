"""The RoPE lab's numbers: rotations per pair, the relative-position property, decay, order.

Four lessons, each a small pure function the lab window draws:

* ``pair_rotations``: one query and one key as 2-D vectors per pair of dimensions, before
  and after RoPE turns them by their positions (the angle each position adds, per
  frequency);
* ``shift_check``: shift every position by k and the scores stay equal (RoPE scores
  depend only on m − n); the largest difference says how equal;
* ``distance_decay``: the score of two fixed vectors as their distance grows, for a few
  bases (the RoFormer paper's long-term decay);
* ``permutation_check``: without positions, attention is permutation-equivariant
  (shuffle the tokens and the output rows shuffle alike); with positions it is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.attention import attention
from qkv_desktop.core.positions import ROPE_PAIRINGS, rope, rope_angles
from qkv_desktop.core.weights import Weights

__all__ = ["PairRotations", "pair_rotations", "shift_check", "distance_decay",
           "permutation_check", "pair_indices"]


def pair_indices(d: int, pairing: str) -> tuple[np.ndarray, np.ndarray]:
    """The two dimensions of each pair: (i, i + d/2) for "half", (2i, 2i + 1) otherwise."""
    if pairing not in ROPE_PAIRINGS:
        raise ValueError(f"pairing must be 'half' or 'interleaved', got {pairing!r}")
    if pairing == "half":
        return np.arange(d // 2), np.arange(d // 2, d)
    return np.arange(0, d, 2), np.arange(1, d, 2)


@dataclass(frozen=True)
class PairRotations:
    """q and k, pair by pair: ``q``/``k`` (pairs × 2) before, ``q_rot``/``k_rot`` after.

    ``theta`` is each pair's angle per position (base^(−2i/d)); ``q_angle`` and
    ``k_angle`` the angles their positions add; ``score`` the dot product after RoPE,
    which is Σ over pairs of |q_i||k_i| cos(angle between them).
    """

    q: np.ndarray
    k: np.ndarray
    q_rot: np.ndarray
    k_rot: np.ndarray
    theta: np.ndarray
    q_angle: np.ndarray
    k_angle: np.ndarray
    score: float


def pair_rotations(q, k, m: float, n: float, base: float = 10000.0,
                   pairing: str = "half") -> PairRotations:
    """Query ``q`` at position m and key ``k`` at position n, as 2-D vectors per pair."""
    q = np.asarray(q, dtype=np.float64).reshape(1, -1)
    k = np.asarray(k, dtype=np.float64).reshape(1, -1)
    d = q.shape[1]
    a, b = pair_indices(d, pairing)
    q_rot = rope(q, [m], base=base, pairing=pairing)
    k_rot = rope(k, [n], base=base, pairing=pairing)
    theta = rope_angles([1.0], d, base)[0]
    pairs = lambda x: np.stack([x[0, a], x[0, b]], axis=1)  # noqa: E731
    return PairRotations(pairs(q), pairs(k), pairs(q_rot), pairs(k_rot), theta,
                         m * theta, n * theta, float((q_rot @ k_rot.T)[0, 0]))


def shift_check(Q, K, shift: int, base: float = 10000.0,
                pairing: str = "half") -> tuple[np.ndarray, np.ndarray, float]:
    """RoPE scores with positions 0…, then with every position + ``shift``.

    Returns (scores, shifted scores, max |difference|): the difference is rounding
    only, because a rotation by m then by −n is a rotation by m − n.
    """
    Q, K = np.asarray(Q, dtype=np.float64), np.asarray(K, dtype=np.float64)
    pq, pk = np.arange(len(Q)), np.arange(len(K))
    s0 = rope(Q, pq, base=base, pairing=pairing) @ rope(K, pk, base=base, pairing=pairing).T
    s1 = (rope(Q, pq + shift, base=base, pairing=pairing)
          @ rope(K, pk + shift, base=base, pairing=pairing).T)
    return s0, s1, float(np.abs(s1 - s0).max()) if s0.size else 0.0


def distance_decay(d: int, bases, max_distance: int, pairing: str = "half") -> np.ndarray:
    """Score of q = k = (1, …, 1)/√d at distance 0 … max_distance, one row per base.

    At distance 0 the score is 1; it falls (with ripples) as the distance grows, and
    slower for a larger base, whose pairs turn more slowly.
    """
    v = np.ones((1, d)) / np.sqrt(d)
    dist = np.arange(max_distance + 1)
    rows = []
    for base in bases:
        k = rope(v, [0], base=base, pairing=pairing)
        qs = rope(np.repeat(v, len(dist), axis=0), dist, base=base, pairing=pairing)
        rows.append((qs @ k.T)[:, 0])
    return np.array(rows)


def permutation_check(X, weights: Weights, perm, **options) -> float:
    """max |attention(X[perm]).output − attention(X).output[perm]| for ``options``.

    0 (up to rounding) without positions or masks: the tokens form a set. With
    positions (or a causal mask) the order matters and the difference is not 0.
    """
    perm = np.asarray(perm)
    a = attention(X, weights, **options).output
    b = attention(np.asarray(X)[perm], weights, **options).output
    return float(np.abs(b - a[perm]).max()) if a.size else 0.0
