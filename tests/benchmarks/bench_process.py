"""Start-up time and peak memory, each measured in a fresh process.

``startup`` runs ``main.py`` with ``QKV_EXIT_AFTER_FIRST_PAINT=1`` and times, from
just before the process is spawned, until it prints that the window has painted;
the CPU seconds the process used until it exits are less sensitive to other
processes than wall time. Its baseline, taking turns with it, is a bare process
that imports NumPy, PySide6 and pyqtgraph and paints eight ``ImageItem``s in one
``GraphicsLayoutWidget`` (``python bench_process.py bare``).
``python bench_process.py memory`` is the child of the memory measurement: n = 8192
in float32 (the longest session the app accepts, ``MAX_TOKENS_FLOAT32``) through the
model and the main window, one edit, then ``ru_maxrss``, with the seconds to open and
to edit and the GUI thread's longest stall meanwhile.
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
MEMORY_SHAPE = (8192, 768, 64)


_PYCACHE = tempfile.mkdtemp(prefix="qkv-bench-pycache-")
"""Compiled modules for the children, as an installed app has them: the warm-up run
writes them, the measured runs read them (even where PYTHONDONTWRITEBYTECODE is set)."""


def _env(**extra: str) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYQTGRAPH_QT_LIB="PySide6",
               PYTHONPYCACHEPREFIX=_PYCACHE, **extra)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    home = tempfile.mkdtemp(prefix="qkv-bench-")
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = os.path.join(home, var.lower())
    return env


def startup_once(bare: bool = False) -> tuple[float, float, float]:
    """(seconds from spawn to the first-paint line, the child's own figure, the child's
    CPU seconds) for the app, or for the bare pyqtgraph baseline."""
    cmd = [sys.executable, __file__, "bare"] if bare else [sys.executable, str(REPO / "main.py")]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=_env(QKV_EXIT_AFTER_FIRST_PAINT="1"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    own = None
    for line in proc.stdout:
        if line.startswith("first paint"):
            elapsed = time.perf_counter() - t0
            own = float(line.split()[2])
            break
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if own is None:
        raise RuntimeError(f"{cmd[-1]} exited ({proc.returncode}) without painting")
    return elapsed, own, usage.ru_utime + usage.ru_stime


def startup(quick: bool) -> dict:
    """The app's start-up and the bare baseline's, taking turns (medians)."""
    startup_once(), startup_once(bare=True)  # warm the file cache: measure the app, not the disk
    app, bare = [], []
    for _ in range(3 if quick else 7):
        app.append(startup_once())
        bare.append(startup_once(bare=True))
    med = lambda runs, k: float(np.median([r[k] for r in runs]))  # noqa: E731
    return {"kind": "startup", "median_s": med(app, 0), "child_median_s": med(app, 1),
            "cpu_s": med(app, 2), "bare_median_s": med(bare, 0), "bare_cpu_s": med(bare, 2),
            "ratio": med(app, 0) / med(bare, 0), "cpu_ratio": med(app, 2) / med(bare, 2),
            "runs": len(app)}


def _bare_child() -> None:
    """The start-up baseline: the libraries the app needs and eight painted images."""
    import pyqtgraph as pg
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    view = pg.GraphicsLayoutWidget()
    view.resize(1600, 1000)
    for k in range(8):
        plot = view.addPlot(row=k // 4, col=k % 4)
        plot.addItem(pg.ImageItem(np.random.default_rng(k).standard_normal((4, 4)),
                                  axisOrder="row-major"))

    class Probe(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                QTimer.singleShot(0, self.report)
            return False

        def report(self):
            from qkv_desktop.app.first_paint import seconds_since_process_start
            print(f"first paint {seconds_since_process_start():.3f} s", flush=True)
            app.exit(0)

    probe = Probe()
    view.viewport().installEventFilter(probe)
    view.show()
    app.exec()


def memory() -> dict:
    """Run the memory child and return its report."""
    out = subprocess.run([sys.executable, __file__, "memory"], cwd=REPO, env=_env(),
                         capture_output=True, text=True, timeout=1800)
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
    from bench_window import close, edit_figures, make_window
    n, d_model, d_k = MEMORY_SHAPE
    t0 = time.perf_counter()
    window = make_window(n, d_model, d_k, "float32")
    opened = time.perf_counter() - t0
    # one edit: old and new results coexist briefly
    times, figures = edit_figures(window, edits=1, warmup=0)
    result = window.model.result
    assert result.head().weights.dtype == np.float32
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"kind": "memory", "n": n, "d_model": d_model, "d_k": d_k,
                      "dtype": "float32", "peak_rss_mb": peak / 2**20, "open_s": opened,
                      "edit_ms": times[0] * 1e3, **figures}), flush=True)
    close(window)
    app.quit()


if __name__ == "__main__" and sys.argv[1:] == ["memory"]:
    _memory_child()
if __name__ == "__main__" and sys.argv[1:] == ["bare"]:
    sys.path.insert(0, str(REPO))
    _bare_child()
