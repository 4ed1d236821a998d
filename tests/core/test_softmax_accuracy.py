"""The core's softmax is as accurate as plain NumPy's; its row statistics nearly so.

Both are measured against a reference in higher precision computed from the same scaled
scores (``result.scaled``, which ``test_row_parallel.py`` checks against plain NumPy
bit for bit), so only the softmax's own rounding is compared: float64 against
``np.longdouble`` (x87 extended, 64-bit mantissa, 11 bits more than float64; skipped
where ``longdouble`` is just ``double``), float32 against float64.

Plain NumPy is the formula one would write, in the input's dtype: ``e = exp(s − max);
p = e / Σe``, ``−Σ p·log p``, ``max p``, ``mean p(1 − p)``.

- Weights: the core's are plain NumPy's, bit for bit (the same operations in the same
  order on each row, whichever thread and block does the row), so their error is the
  same: in ulps of each weight, 1.5–2 for rows of small scores and up to ≈ 500 where
  the scores reach ±1000, which is the rounding of ``s − max`` (an absolute error of
  half an ulp of |s| in the exponent becomes a relative error of the weight), not of
  ``exp``.
- Statistics, from row sums of the shifted scores in the same pass (H = log Z − Σ p·z,
  max p = 1/Z, mean p(1 − p) = (1 − Σ p²)/m): entropy within 0.84 units of eps·log m
  (plain NumPy 1.3), max weight as plain NumPy's, mean gradient within 5.6 units of
  eps·max(value, 1/m) (plain NumPy 2.6), i.e. a relative error below 1e-15 in float64:
  invisible at any printed precision, allowed here up to 1.5 units for the entropy and
  8 for the others (``BOUNDS``).
"""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.core import attention, init_weights

EXTENDED = np.finfo(np.longdouble).nmant >= 63

BOUNDS = {"entropy": 1.5, "max_weight": 8, "mean_gradient": 8}
"""The statistics' largest errors allowed, in the units of ``check_case``. The row sums
Σ p·z and Σ p² are BLAS dot products (``np.vecdot``; ``einsum`` before NumPy 2.0):
entropy within 0.84 units on these cases with NumPy 2.4's ``vecdot``. ``einsum``'s sums
stay within the bound too here (the review found no case between the two)."""


def wider(dtype) -> type:
    return np.longdouble if np.dtype(dtype) == np.float64 else np.float64


def cases():
    """(name, X, weights, options): near-uniform rows, peaked rows, masks, big and small."""
    rng = np.random.default_rng(2026)
    out = []
    for n, d_model, d_k, scale in ((5, 8, 4, 0.5), (64, 32, 16, 1.0), (300, 48, 16, 3.0),
                                   (800, 24, 8, 0.3), (800, 24, 8, 4.0)):
        X = rng.standard_normal((n, d_model))
        w = init_weights(d_model, d_k, seed=int(rng.integers(1 << 30)), scale=scale)
        out.append((f"n={n} scale={scale}", X, w, {}))
        out.append((f"n={n} scale={scale} causal T=0.7", X, w,
                    {"causal": True, "temperature": 0.7}))
    return out


CASES = cases()


def reference_weights(scaled: np.ndarray, wide) -> np.ndarray:
    s = scaled.astype(wide)
    finite_max = np.max(np.where(np.isneginf(s), -np.inf, s), axis=1, keepdims=True)
    e = np.exp(s - finite_max)
    return e / e.sum(axis=1, keepdims=True)


def numpy_weights(scaled: np.ndarray) -> np.ndarray:
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def ulp_error(values: np.ndarray, exact: np.ndarray) -> float:
    """max |values − exact| / ulp(exact), the ulp in ``values``' dtype."""
    ulp = np.spacing(np.abs(exact).astype(values.dtype))
    return float(np.max(np.abs(values.astype(exact.dtype) - exact) / ulp))


def stats_of(p: np.ndarray, wide=None):
    """Entropy, max weight and mean p(1−p) of each row, as plain NumPy writes them."""
    if wide is not None:
        p = p.astype(wide)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0)
    return -plogp.sum(axis=1), p.max(axis=1), (p * (1 - p)).mean(axis=1)


def check_case(X, w, options, dtype):
    r = attention(X.astype(dtype), w, **options)
    wide = wider(dtype)
    exact = reference_weights(r.scaled, wide)
    numpy_p = numpy_weights(r.scaled)
    np.testing.assert_array_equal(r.weights, numpy_p)
    core_err, numpy_err = ulp_error(r.weights, exact), ulp_error(numpy_p, exact)
    assert core_err <= numpy_err

    m = r.weights.shape[1]
    eps = np.finfo(dtype).eps
    exact_stats, numpy_stats = stats_of(exact), stats_of(numpy_p)
    units = (np.full(len(exact_stats[0]), eps * np.log(m)),        # entropy: 0 ≤ H ≤ log m
             np.spacing(exact_stats[1].astype(dtype)).astype(wide),  # an ulp of max p ≥ 1/m
             eps * np.maximum(exact_stats[2], 1.0 / m))              # mean p(1−p) may be 0
    for name, core, plain, truth, unit in zip(
            ("entropy", "max_weight", "mean_gradient"),
            (r.entropy, r.max_weight, r.mean_gradient), numpy_stats, exact_stats, units,
            strict=True):
        core_e = float(np.max(np.abs(core.astype(wide) - truth) / unit))
        plain_e = float(np.max(np.abs(plain.astype(wide) - truth) / unit))
        assert core_e <= BOUNDS[name], (name, core_e, plain_e)


@pytest.mark.skipif(not EXTENDED, reason="np.longdouble is no wider than float64 here")
@pytest.mark.parametrize("name,X,w,options", CASES, ids=[c[0] for c in CASES])
def test_float64_weights_and_statistics_against_extended_precision(name, X, w, options):
    check_case(X, w, options, np.float64)


@pytest.mark.parametrize("name,X,w,options", CASES, ids=[c[0] for c in CASES])
def test_float32_weights_and_statistics_against_float64(name, X, w, options):
    check_case(X, w, options, np.float32)
