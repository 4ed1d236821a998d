"""The core forward against plain NumPy (and torch, when it is importable).

Every figure is a median over repeated runs; the core, the references and a plain
matmul of the same dtype are interleaved within each repetition, so a machine that
gets busier or quieter during the run shifts them alike and the ratios stay honest.
"""

from __future__ import annotations

import os
import time

import numpy as np

from qkv_desktop.core import attention, init_weights

SHAPES = ((4, 8, 4), (64, 64, 64), (256, 256, 64), (1024, 768, 64), (2048, 768, 64),
          (4096, 768, 64))
QUICK_SHAPES = SHAPES[:5]
MATMUL_N = 1024
"""The square matmul whose GFLOP/s the core's rate is compared with."""


def reference(X: np.ndarray, W_Q, W_K, W_V) -> tuple[np.ndarray, np.ndarray]:
    """Attention as one would write it in plain NumPy: returns (weights, output)."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    S = Q @ K.T / np.sqrt(K.shape[1])
    S = S - S.max(axis=1, keepdims=True)
    E = np.exp(S)
    P = E / E.sum(axis=1, keepdims=True)
    return P, P @ V


def forward_flops(n: int, d_model: int, d_k: int) -> float:
    """Multiply-adds ×2 of the three projections, QKᵀ and weights·V (softmax not counted)."""
    return 2.0 * (3 * n * d_model * d_k + 2 * n * n * d_k)


def _repeats(n: int, quick: bool) -> int:
    if quick:
        return 3 if n >= 2048 else 5
    return 5 if n >= 4096 else 9 if n >= 1024 else 21


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _interleaved(runs: dict, repeats: int) -> dict[str, float]:
    """Median seconds of each run, the runs taking turns within every repetition."""
    for fn in runs.values():  # warm-up: first-touch allocations, thread pools
        fn()
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            times[name].append(_time(fn))
    return {k: float(np.median(v)) for k, v in times.items()}


def _torch_forwards(torch, X: np.ndarray, w) -> dict:
    """Closures for torch's fused SDPA and an explicit version that returns the weights."""
    F = torch.nn.functional
    tX = torch.from_numpy(X)
    tW = [torch.from_numpy(np.ascontiguousarray(m, dtype=X.dtype)) for m in (w.W_Q, w.W_K, w.W_V)]

    def sdpa():
        with torch.inference_mode():
            Q, K, V = (tX @ m for m in tW)
            return F.scaled_dot_product_attention(Q[None], K[None], V[None])

    def with_weights():
        with torch.inference_mode():
            Q, K, V = (tX @ m for m in tW)
            P = torch.softmax(Q @ K.T / float(np.sqrt(K.shape[1])), dim=-1)
            return P, P @ V

    return {"torch_sdpa": sdpa, "torch_weights": with_weights}


def bench_shape(n: int, d_model: int, d_k: int, dtype, quick: bool, torch=None) -> dict:
    """Median seconds of the core, the float64 and same-dtype references, a matmul."""
    rng = np.random.default_rng(0)
    X64 = rng.standard_normal((n, d_model))
    w = init_weights(d_model, d_k, seed=42, scale=0.1)
    X = X64.astype(dtype)
    W = [m.astype(dtype) for m in (w.W_Q, w.W_K, w.W_V)]
    A = rng.standard_normal((MATMUL_N, MATMUL_N)).astype(dtype)
    runs = {
        "core": lambda: attention(X, w),
        "ref64": lambda: reference(X64, w.W_Q, w.W_K, w.W_V),
        "matmul": lambda: A @ A,
    }
    if np.dtype(dtype) != np.float64:
        runs["ref_same"] = lambda: reference(X, *W)
    med = _interleaved(runs, _repeats(n, quick))
    if torch is not None:
        # A group of its own: torch's OpenMP threads and OpenBLAS's spin-wait after
        # each call, and interleaving the two libraries would time that contention.
        time.sleep(0.2)
        med.update(_interleaved(_torch_forwards(torch, X, w), _repeats(n, quick)))
        time.sleep(0.2)
    flops = forward_flops(n, d_model, d_k)
    matmul_gflops = 2.0 * MATMUL_N ** 3 / med["matmul"] / 1e9
    core_gflops = flops / med["core"] / 1e9
    row = {
        "n": n, "d_model": d_model, "d_k": d_k, "dtype": np.dtype(dtype).name,
        "core_ms": med["core"] * 1e3, "ref64_ms": med["ref64"] * 1e3,
        "ratio_vs_ref64": med["core"] / med["ref64"],
        "core_gflops": core_gflops, "matmul_gflops": matmul_gflops,
        "fraction_of_matmul": core_gflops / matmul_gflops,
        "repeats": _repeats(n, quick),
    }
    if "ref_same" in med:
        row["ref_same_ms"] = med["ref_same"] * 1e3
    for name in ("torch_sdpa", "torch_weights"):
        if name in med:
            row[f"{name}_ms"] = med[name] * 1e3
            row[f"ratio_vs_{name}"] = med["core"] / med[name]
    return row


def run(quick: bool = False, log=print) -> list[dict]:
    try:
        import torch
        torch.set_num_threads(len(os.sched_getaffinity(0)))
    except ImportError:
        torch = None
    rows = []
    for n, d_model, d_k in (QUICK_SHAPES if quick else SHAPES):
        for dtype in (np.float64, np.float32):
            row = bench_shape(n, d_model, d_k, dtype, quick, torch)
            log(f"  core n={n} {row['dtype']}: {row['core_ms']:.2f} ms, "
                f"×{row['ratio_vs_ref64']:.2f} of plain float64")
            rows.append(row)
    return rows
