"""The core forward against plain NumPy (and torch, when it is importable).

``python tests/benchmarks/bench_core.py [--quick] [--sizes 1024,2048] [--dtypes float64]
[--blas-threads 1]`` prints one line per size and dtype (and ``--json FILE`` writes the
rows). ``--blas-threads 1`` runs everything, the references included, with BLAS on one
thread, as the app does (``app/blas_threads.py``); by default BLAS keeps NumPy's own
setting, as in a notebook. With one BLAS thread the core runs its products and softmax
in row ranges on every core (``core.rows``); with several, whole products on BLAS's
threads and the softmax on the calling thread (``core.attention._fused_forward``).

Every figure is a median over repeated runs; the core, the references and a plain
matmul of the same dtype take turns within each repetition, in an order that rotates
from one repetition to the next (so none of them always runs right after the matmul,
whose BLAS threads spin for a while after it returns). The ratio to plain NumPy is the
median of each repetition's own ratio: the two runs of one repetition are a fraction
of a second apart and share the machine's load, which on a shared machine moves
absolute times by ×2–3 from one second to the next. ``ratio_low``/``ratio_high`` are
the quartiles of those ratios, ``load`` the one-minute load average before the size.
``ratio_vs_ref64_all`` compares with plain NumPy that also keeps what the core returns
(scores, scaled scores, entropy, max weight, mean gradient), i.e. the same work.

The core takes two inputs in turn that differ in every row, so its projections are
made anew each time (``core.projection_memo`` reuses the rows an edit left alone).

``--settle SECONDS`` sleeps that long before every timed run. With BLAS on several
threads, OpenBLAS's workers spin for about 0.1 s after each product (measured on the
2-core machine: 100 ms of CPU, whatever the thread count is set to afterwards), so
back to back the run after a reference or the matmul shares the cores with them: the
core's row threads lose a core, while a reference's products use the spinning worker
and its one-thread softmax leaves the other core to it. ``--settle 0.15`` times each
run with those workers asleep, as a forward called after a pause would be; the
default (0) keeps the back-to-back figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from qkv_desktop.core import attention, init_weights  # noqa: E402

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


def reference_same_outputs(X: np.ndarray, W_Q, W_K, W_V) -> dict[str, np.ndarray]:
    """Plain NumPy producing what ``attention`` returns: the goal's reference
    (``reference``) keeps only the weights and the output, the app also keeps the
    scores, the scaled scores and three statistics per row."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    scores = Q @ K.T
    scaled = scores / np.sqrt(K.shape[1])
    E = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    P = E / E.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(P > 0, P * np.log(P), 0).sum(axis=1)
    return {"Q": Q, "K": K, "V": V, "scores": scores, "scaled": scaled, "weights": P,
            "output": P @ V, "entropy": entropy, "max_weight": P.max(axis=1),
            "mean_gradient": (P * (1 - P)).mean(axis=1)}


def forward_flops(n: int, d_model: int, d_k: int) -> float:
    """Multiply-adds ×2 of the three projections, QKᵀ and weights·V (softmax not counted)."""
    return 2.0 * (3 * n * d_model * d_k + 2 * n * n * d_k)


def _repeats(n: int, quick: bool) -> int:
    if quick:  # n = 1024: 9 turns (0.7 s); 5 left its ratio's median ±0.03 from run to run
        return 5 if n >= 2048 else 9
    return 5 if n >= 4096 else 9 if n >= 1024 else 21


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _take_turns(runs: dict, repeats: int, settle: float = 0.0) -> dict[str, list[float]]:
    """Seconds of each run in every repetition; the runs take turns, the order rotating.
    ``settle``: seconds slept before each timed run (see the module's docstring)."""
    for fn in runs.values():  # warm-up: first-touch allocations, thread pools
        fn()
    names = list(runs)
    times: dict[str, list[float]] = {k: [] for k in names}
    for rep in range(repeats):
        k = rep % len(names)
        for name in names[k:] + names[:k]:
            if settle:
                time.sleep(settle)
            times[name].append(_time(runs[name]))
    return times


def _interleaved(runs: dict, repeats: int) -> dict[str, float]:
    """Median seconds of each run, the runs taking turns within every repetition."""
    return {k: float(np.median(v)) for k, v in _take_turns(runs, repeats).items()}


def _paired_ratio(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Median and quartiles of a[i] / b[i], each pair from the same repetition."""
    q1, med, q3 = np.percentile(np.asarray(a) / np.asarray(b), [25, 50, 75])
    return float(med), float(q1), float(q3)


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


def _blas_threads() -> int | None:
    """BLAS's thread count outside the core (the references' setting), if known."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    counts = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    return max(counts) if counts else None


def bench_shape(n: int, d_model: int, d_k: int, dtype, quick: bool, torch=None,
                repeats: int | None = None, settle: float = 0.0) -> dict:
    """Median seconds of the core, the float64 and same-dtype references, a matmul."""
    rng = np.random.default_rng(0)
    X64 = rng.standard_normal((n, d_model))
    w = init_weights(d_model, d_k, seed=42, scale=0.1)
    X = X64.astype(dtype)
    W = [m.astype(dtype) for m in (w.W_Q, w.W_K, w.W_V)]
    A = rng.standard_normal((MATMUL_N, MATMUL_N)).astype(dtype)
    # The core's projections keep their last rows (core.projection_memo, for edits):
    # two inputs that differ in every row take turns, so every run is a forward of a new
    # X, as the references' are.
    inputs = [X, np.nextafter(X, np.inf)]
    turn = iter(range(1 << 62))
    runs = {
        "core": lambda: attention(inputs[next(turn) % 2], w),
        "ref64": lambda: reference(X64, w.W_Q, w.W_K, w.W_V),
        "ref64_all": lambda: reference_same_outputs(X64, w.W_Q, w.W_K, w.W_V),
        "matmul": lambda: A @ A,
    }
    if np.dtype(dtype) != np.float64:
        runs["ref_same"] = lambda: reference(X, *W)
    load = os.getloadavg()[0]
    repeats = _repeats(n, quick) if repeats is None else repeats
    times = _take_turns(runs, repeats, settle)
    med = {k: float(np.median(v)) for k, v in times.items()}
    ratio, ratio_low, ratio_high = _paired_ratio(times["core"], times["ref64"])
    ratio_all, _, _ = _paired_ratio(times["core"], times["ref64_all"])
    if torch is not None:
        # A group of its own: torch's OpenMP threads and OpenBLAS's spin-wait after
        # each call, and interleaving the two libraries would time that contention.
        time.sleep(0.2)
        med.update(_interleaved(_torch_forwards(torch, X, w), repeats))
        time.sleep(0.2)
    flops = forward_flops(n, d_model, d_k)
    matmul_gflops = 2.0 * MATMUL_N ** 3 / med["matmul"] / 1e9
    core_gflops = flops / med["core"] / 1e9
    row = {
        "n": n, "d_model": d_model, "d_k": d_k, "dtype": np.dtype(dtype).name,
        "core_ms": med["core"] * 1e3, "ref64_ms": med["ref64"] * 1e3,
        "ratio_vs_ref64": ratio, "ratio_low": ratio_low, "ratio_high": ratio_high,
        "ref64_all_ms": med["ref64_all"] * 1e3, "ratio_vs_ref64_all": ratio_all,
        "core_gflops": core_gflops, "matmul_gflops": matmul_gflops,
        "fraction_of_matmul": core_gflops / matmul_gflops,
        "repeats": repeats, "load": load, "blas_threads": _blas_threads(), "settle_s": settle,
    }
    if "ref_same" in med:
        row["ref_same_ms"] = med["ref_same"] * 1e3
    for name in ("torch_sdpa", "torch_weights"):
        if name in med:
            row[f"{name}_ms"] = med[name] * 1e3
            row[f"ratio_vs_{name}"] = med["core"] / med[name]
    return row


def run(quick: bool = False, log=print, shapes=None, dtypes=(np.float64, np.float32),
        repeats: int | None = None, settle: float = 0.0) -> list[dict]:
    try:
        import torch
        torch.set_num_threads(len(os.sched_getaffinity(0)))
    except ImportError:
        torch = None
    rows = []
    for n, d_model, d_k in shapes or (QUICK_SHAPES if quick else SHAPES):
        for dtype in dtypes:
            row = bench_shape(n, d_model, d_k, dtype, quick, torch, repeats, settle)
            settled = f", {settle:g} s before each run" if settle else ""
            log(f"  core n={n} {row['dtype']}: {row['core_ms']:.2f} ms, plain float64 "
                f"{row['ref64_ms']:.2f} ms, ×{row['ratio_vs_ref64']:.2f} "
                f"(quartiles {row['ratio_low']:.2f}–{row['ratio_high']:.2f}; "
                f"{row['repeats']} turns, load {row['load']:.1f}, BLAS threads "
                f"{row['blas_threads']}{settled}); plain with the same "
                f"outputs {row['ref64_all_ms']:.2f} ms, ×{row['ratio_vs_ref64_all']:.2f}")
            rows.append(row)
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 2048, fewer turns")
    parser.add_argument("--sizes", help="comma-separated n, e.g. 1024,2048,4096")
    parser.add_argument("--dtypes", default="float64,float32")
    parser.add_argument("--repeats", type=int, help="turns per size (default by size)")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--blas-threads", type=int,
                        help="BLAS threads for everything, e.g. 1 as in the app")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds slept before each timed run (BLAS's workers asleep)")
    args = parser.parse_args(argv)
    if args.blas_threads:
        from threadpoolctl import threadpool_limits
        threadpool_limits(limits=args.blas_threads, user_api="blas")
    shapes = None
    if args.sizes:
        by_n = {n: (n, d_model, d_k) for n, d_model, d_k in SHAPES}
        shapes = [by_n.get(int(n), (int(n), 768, 64)) for n in args.sizes.split(",")]
    dtypes = [np.dtype(d).type for d in args.dtypes.split(",")]
    rows = run(args.quick, shapes=shapes, dtypes=dtypes, repeats=args.repeats,
               settle=args.settle)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
