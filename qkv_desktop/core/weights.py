"""Projection weights of one attention head and their tutorial initialisation."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from qkv_desktop.core.validation import check_finite

__all__ = ["Weights", "WEIGHT_NAMES", "init_weights", "init_head_weights"]


@dataclass(frozen=True, eq=False)
class Weights:
    """The three projections W_Q, W_K, W_V (d_model × d_k) and optional biases (d_k,).

    Shapes and finiteness are checked on construction so that every later step can
    trust them; a ``ValueError`` names the offending matrix and cell.
    """

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    b_Q: np.ndarray | None = None
    b_K: np.ndarray | None = None
    b_V: np.ndarray | None = None

    def __post_init__(self) -> None:
        mats = {}
        projections, biases = WEIGHT_NAMES[:3], WEIGHT_NAMES[3:]
        for name in projections:
            m = np.asarray(getattr(self, name))
            if m.dtype.kind not in "fiu" or m.ndim != 2:
                raise ValueError(f"{name} must be a 2-D numeric matrix, got shape {m.shape}")
            if m.dtype.kind != "f":
                m = m.astype(np.float64)
            check_finite(m, name)
            mats[name] = m
        shape = mats["W_Q"].shape
        for name in projections[1:]:
            if mats[name].shape != shape:
                raise ValueError(
                    f"{name} has shape {mats[name].shape}, but W_Q has {shape}; "
                    "all three must be d_model × d_k"
                )
        if shape[1] < 1:
            raise ValueError("d_k must be at least 1")
        for name in biases:
            b = getattr(self, name)
            if b is None:
                continue
            b = np.asarray(b)
            if b.dtype.kind not in "fiu" or b.shape != (shape[1],):
                raise ValueError(f"{name} must have shape ({shape[1]},), got {b.shape}")
            if b.dtype.kind != "f":
                b = b.astype(np.float64)
            check_finite(b, name)
            object.__setattr__(self, name, b)
        for name, m in mats.items():
            object.__setattr__(self, name, m)

    @property
    def d_model(self) -> int:
        return self.W_Q.shape[0]

    @property
    def d_k(self) -> int:
        return self.W_Q.shape[1]

    def astype(self, dtype) -> Weights:
        """The same weights in another float dtype (``self`` when it already matches)."""
        if all(getattr(self, n) is None or getattr(self, n).dtype == dtype for n in WEIGHT_NAMES):
            return self  # already checked on construction: no second validation
        conv = lambda a: None if a is None else a.astype(dtype, copy=False)  # noqa: E731
        return Weights(*(conv(getattr(self, n)) for n in WEIGHT_NAMES))

    def tied(self) -> Weights:
        """W_Q (and b_Q) replaced by W_K, so Q = K and QKᵀ becomes demo 2's symmetric KKᵀ."""
        return Weights(self.W_K, self.W_K, self.W_V, self.b_K, self.b_K, self.b_V)


WEIGHT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Weights))
"""``("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V")``: a head's arrays, in field order.

Sessions, imports and the matrix catalogue (``qkv_desktop.state.catalogue``) read the
names from here, so they follow the dataclass."""


def init_head_weights(rng: np.random.RandomState, d_model: int, d_k: int,
                      scale: float) -> Weights:
    """Draw W_Q, W_K, W_V in that order from ``rng``, as the tutorial does."""
    return Weights(*(rng.randn(d_model, d_k) * scale for _ in range(3)))


def init_weights(d_model: int, d_k: int, seed: int = 42, scale: float = 0.1) -> Weights:
    """The tutorial's initialisation: seed, then ``randn(d_model, d_k) * scale`` three times.

    A local ``RandomState`` gives the same numbers as ``np.random.seed(seed)`` without
    touching NumPy's global random state.
    """
    _check_dims(d_model, d_k)
    if not np.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale}")
    return init_head_weights(np.random.RandomState(seed), d_model, d_k, scale)


def _check_dims(d_model: int, d_k: int) -> None:
    if int(d_model) != d_model or d_model < 1:
        raise ValueError(f"d_model must be a positive integer, got {d_model}")
    if int(d_k) != d_k or d_k < 1:
        raise ValueError(f"d_k must be a positive integer, got {d_k}")
