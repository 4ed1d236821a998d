"""The forward with every position and mask option on against the same forward without.

``python tests/benchmarks/bench_positions.py [--n 2048]`` prints the median time of
``attention`` at n tokens (d_model 768, d_k 64) without options, with each option
alone and with all of them at once (RoPE, window, ALiBi, prefix, sinks and a custom
mask, causal), and the ratio to the plain forward. The target is all-on ≤ 1.3× off;
nothing here asserts a time (the machine is shared), it is printed for the reader.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_core import _interleaved  # noqa: E402

from qkv_desktop.core import attention, init_weights  # noqa: E402

TARGET = 1.3


def cases(n: int) -> dict[str, dict]:
    mask = np.ones((n, n), bool)
    mask[:, n // 2] = False  # one key hidden from everyone: a custom mask of real size
    return {
        "causal": {"causal": True},
        "+ RoPE": {"causal": True, "positions": "rope"},
        "+ sinusoidal": {"causal": True, "positions": "sinusoidal"},
        "+ window 256": {"causal": True, "window": 256},
        "+ ALiBi": {"causal": True, "alibi_slope": 0.0625},
        "+ prefix 64": {"prefix": 64},
        "+ custom mask": {"causal": True, "mask": mask},
        "all on": {"causal": True, "positions": "rope", "window": 256, "alibi_slope": 0.0625,
                   "prefix": 64, "sinks": 4, "mask": mask},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.n, 768)).astype(args.dtype)
    w = init_weights(768, 64, seed=0, scale=0.05)
    runs = {"no options": lambda: attention(X, w)}
    runs.update({name: (lambda kw=kw: attention(X, w, **kw)) for name, kw in cases(args.n).items()})
    times = _interleaved(runs, args.repeats)
    base = times["no options"]
    print(f"attention forward, n = {args.n}, d_model 768, d_k 64, {args.dtype}, "
          f"median of {args.repeats}")
    for name, t in times.items():
        print(f"  {name:<20} {t * 1e3:8.1f} ms   {t / base:5.2f}× the forward without options")
    ratio = times["all on"] / base
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"all options on: {ratio:.2f}× (target ≤ {TARGET}×: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
