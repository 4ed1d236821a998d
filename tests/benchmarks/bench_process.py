"""Start-up time and peak memory, each measured in a fresh process.

``startup`` runs ``main.py`` with ``QKV_EXIT_AFTER_FIRST_PAINT=1`` and times, from
just before the process is spawned, until it prints that the window has painted.
``python bench_process.py memory`` is the child of the memory measurement: n = 4096
in float32 through the model and the main window, then ``ru_maxrss``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
MEMORY_SHAPE = (4096, 768, 64)


def _env(**extra: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYQTGRAPH_QT_LIB="PySide6", **extra)
    home = tempfile.mkdtemp(prefix="qkv-bench-")
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = os.path.join(home, var.lower())
    return env


def startup_once() -> tuple[float, float]:
    """(seconds from spawn to the first-paint line, the child's own figure)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(REPO / "main.py")], cwd=REPO,
                            env=_env(QKV_EXIT_AFTER_FIRST_PAINT="1"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    own = None
    for line in proc.stdout:
        if line.startswith("first paint"):
            elapsed = time.perf_counter() - t0
            own = float(line.split()[2])
            break
    proc.wait(timeout=60)
    if own is None:
        raise RuntimeError(f"main.py exited ({proc.returncode}) without painting")
    return elapsed, own


def startup(quick: bool) -> dict:
    startup_once()  # warm the file cache: later runs measure the app, not the disk
    runs = [startup_once() for _ in range(3 if quick else 7)]
    return {"kind": "startup", "median_s": float(np.median([r[0] for r in runs])),
            "child_median_s": float(np.median([r[1] for r in runs])), "runs": len(runs)}


def memory() -> dict:
    """Run the memory child and return its report."""
    out = subprocess.run([sys.executable, __file__, "memory"], cwd=REPO, env=_env(),
                         capture_output=True, text=True, timeout=600)
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if out.returncode or not lines:
        raise RuntimeError(f"memory child failed ({out.returncode}): {out.stderr[-2000:]}")
    return json.loads(lines[-1])


def _memory_child() -> None:
    import resource
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    from bench_window import close, make_window, settle
    n, d_model, d_k = MEMORY_SHAPE
    window = make_window(n, d_model, d_k, "float32")
    window.model.set_cell("X", 0, 0, 1.5)  # one edit: old and new results coexist briefly
    window.model.wait_until_idle(120_000)
    settle(window)
    result = window.model.result
    assert result.head().weights.dtype == np.float32
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"kind": "memory", "n": n, "d_model": d_model, "d_k": d_k,
                      "dtype": "float32", "peak_rss_mb": peak / 2**20}), flush=True)
    close(window)
    app.quit()


if __name__ == "__main__" and sys.argv[1:] == ["memory"]:
    _memory_child()
