"""Checks shared by the core's entry points."""

from __future__ import annotations

import numpy as np

_SUM_FIRST = 1 << 16
"""Cells from which ``check_finite`` sums first (below, ``isfinite`` costs less than the
error-state switch the sum needs)."""


def check_finite(a: np.ndarray, name: str) -> None:
    """Raise ``ValueError`` naming the first non-finite cell of ``a``.

    A large float array is summed first: a NaN or an infinity anywhere makes the sum
    NaN or infinite, so a finite sum proves every cell finite, in one pass that
    allocates nothing (``isfinite`` makes a temporary of a byte per cell). Only an
    array whose sum is not finite (a bad cell, or finite values whose sum overflows)
    is looked at cell by cell."""
    if a.size >= _SUM_FIRST and a.dtype.kind == "f":
        with np.errstate(over="ignore", invalid="ignore"):
            if np.isfinite(np.add.reduce(a, axis=None)):
                return
    if a.size and not np.isfinite(a).all():
        bad = np.argwhere(~np.isfinite(a))[0]
        where = ", ".join(str(int(i)) for i in bad)
        raise ValueError(f"{name} has a non-finite value {float(a[tuple(bad)])} at [{where}]")


def as_matrix(X, name: str, dtype=None) -> np.ndarray:
    """``X`` as a 2-D finite float matrix (float64 unless it already is float32)."""
    a = np.asarray(X)
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-D (tokens × d_model), got shape {a.shape}")
    if a.dtype.kind not in "fiu":
        raise ValueError(f"{name} must be numeric, got dtype {a.dtype}")
    if dtype is None:
        dtype = a.dtype if a.dtype in (np.float32, np.float64) else np.float64
    a = a.astype(dtype, copy=False)
    check_finite(a, name)
    return a
