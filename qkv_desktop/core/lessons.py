"""Computations behind the tutorial's lessons: √d_k scaling, symmetry and overflow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .softmax import softmax

__all__ = [
    "RowStats", "row_stats", "DotProductDemo", "dot_product_demo", "ScalingSweep",
    "scaling_sweep", "session_sweep", "asymmetry", "SoftmaxComparison",
    "compare_softmax", "DEMO_SCORES",
]

DEMO_SCORES = (2.0, 1.5, 0.5, -0.5, -1.0)
"""The fixed score vector of the tutorial's last table."""


@dataclass(frozen=True)
class RowStats:
    """Softmax weights of score rows with their max, entropy (nats) and mean p(1−p)."""

    weights: np.ndarray
    max_weight: np.ndarray
    entropy: np.ndarray
    mean_gradient: np.ndarray


def row_stats(scores, divisor: float = 1.0) -> RowStats:
    """Softmax of ``scores / divisor`` along the last axis, with per-row statistics."""
    p = softmax(np.asarray(scores, dtype=np.float64) / divisor)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return RowStats(p, p.max(axis=-1), -plogp.sum(axis=-1), (p * (1 - p)).mean(axis=-1))


@dataclass(frozen=True)
class DotProductDemo:
    """One row of demo 3: random dot products of variance d_k, unscaled and scaled."""

    d_k: int
    dot_products: np.ndarray
    unscaled: RowStats
    scaled: RowStats


def dot_product_demo(d_ks: Sequence[int] = (4, 16, 64, 256), n: int = 5,
                     seed: int = 42) -> list[DotProductDemo]:
    """Demo 3: for each d_k in turn, ``randn(n) * √d_k`` from one seeded stream."""
    rng = np.random.RandomState(seed)
    out = []
    for d_k in d_ks:
        dots = rng.randn(n) * np.sqrt(d_k)
        out.append(DotProductDemo(d_k, dots, row_stats(dots), row_stats(dots, np.sqrt(d_k))))
    return out


@dataclass(frozen=True)
class ScalingSweep:
    """Mean max weight, entropy and p(1−p) against d_k, without and with ÷√d_k."""

    d_k: np.ndarray
    unscaled: dict[str, np.ndarray]
    scaled: dict[str, np.ndarray]


def _stats_dict(stats: RowStats, axis) -> dict[str, np.ndarray]:
    return {"max_weight": stats.max_weight.mean(axis=axis),
            "entropy": stats.entropy.mean(axis=axis),
            "mean_gradient": stats.mean_gradient.mean(axis=axis)}


def scaling_sweep(d_ks: Sequence[int] = tuple(2 ** k for k in range(10)), n_keys: int = 8,
                  trials: int = 64, seed: int = 0) -> ScalingSweep:
    """Seeded unit-variance q and k of each dimension d_k: how softmax saturates.

    For every d_k, ``trials`` queries each score ``n_keys`` keys; the statistics are
    averaged over the trials.
    """
    d_ks = np.asarray(d_ks, dtype=int)
    if d_ks.size == 0 or (d_ks < 1).any():
        raise ValueError("every d_k in the sweep must be a positive integer")
    rng = np.random.RandomState(seed)
    un, sc = [], []
    for d_k in d_ks:
        q = rng.randn(trials, 1, d_k)
        k = rng.randn(trials, n_keys, d_k)
        s = (q * k).sum(axis=-1)  # (trials, n_keys)
        un.append(_stats_dict(row_stats(s), None))
        sc.append(_stats_dict(row_stats(s, np.sqrt(d_k)), None))
    stack = lambda rows: {key: np.array([r[key] for r in rows]) for key in rows[0]}  # noqa: E731
    return ScalingSweep(d_ks, stack(un), stack(sc))


def session_sweep(scores, d_ks: Sequence[int]) -> ScalingSweep:
    """The session's own QKᵀ divided by √d for each d in ``d_ks``, against no division.

    It answers "what would ÷√d_k do to *these* scores?"; the unscaled curves are flat.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.size == 0:
        raise ValueError("the session has no scores to sweep")
    d_ks = np.asarray(d_ks, dtype=int)
    base = _stats_dict(row_stats(scores), None)
    un = {k: np.full(d_ks.shape, v) for k, v in base.items()}
    rows = [_stats_dict(row_stats(scores, np.sqrt(d)), None) for d in d_ks]
    sc = {key: np.array([r[key] for r in rows]) for key in rows[0]}
    return ScalingSweep(d_ks, un, sc)


def asymmetry(S) -> float:
    """‖S − Sᵀ‖ / ‖S‖ (Frobenius): 0 for a symmetric matrix such as KKᵀ, 0 for S = 0."""
    S = np.asarray(S, dtype=np.float64)
    if S.ndim != 2 or S.shape[0] != S.shape[1]:
        raise ValueError(f"asymmetry needs a square matrix, got shape {S.shape}")
    norm = np.linalg.norm(S)
    return 0.0 if norm == 0 else float(np.linalg.norm(S - S.T) / norm)


@dataclass(frozen=True)
class SoftmaxComparison:
    """The stable and naive softmax of the same scores, and where the naive one broke."""

    stable: np.ndarray
    naive: np.ndarray
    overflow: np.ndarray  # bool mask: naive result is inf or nan


def compare_softmax(scores, axis: int = -1) -> SoftmaxComparison:
    """Both softmax formulas on ``scores``; ``overflow`` marks the naive failures."""
    naive = softmax(scores, axis=axis, stable=False)
    return SoftmaxComparison(softmax(scores, axis=axis), naive, ~np.isfinite(naive))
