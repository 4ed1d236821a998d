"""Edit → repaint in the real main window, offscreen; run in its own process.

``python bench_window.py [--quick]`` prints one JSON object per measurement. A
measurement starts just before ``model.set_cell`` and ends when the event loop
returns after the last visible heatmap pane has painted the new result: the model's
recomputation (on the worker thread for large n), every view's update and every
pane's paint are inside it, as they are for a user.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
_HOME = tempfile.mkdtemp(prefix="qkv-bench-")
for _var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[_var] = os.path.join(_HOME, _var.lower())
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop, QObject, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

EDIT_SHAPES = ((4, 8, 4), (64, 64, 64), (256, 256, 64), (1024, 768, 64), (2048, 768, 64))
LABEL_SHAPE = (16, 4, 4)
SIZE = (1600, 1000)
EDIT_TIMEOUT_S = 60.0


class _Heartbeat(QObject):
    """A 1 ms timer on the GUI thread: the longest gap between its ticks is the longest
    time the event loop was blocked (by a computation, a view update or a paint)."""

    def __init__(self):
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.longest = 0.0

    def start(self) -> None:
        self.last, self.longest = time.perf_counter(), 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return self.longest

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now


class _PaintWatch(QObject):
    """Records which pane viewports have painted since ``reset``."""

    def __init__(self, viewports):
        super().__init__()
        self.viewports = list(viewports)
        self.painted: set = set()
        for v in self.viewports:
            v.installEventFilter(self)

    def reset(self, *_args) -> None:
        self.painted.clear()

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted.add(obj)
        return False

    def all_painted(self) -> bool:
        return all(v in self.painted for v in self.viewports)


def make_window(n: int, d_model: int, d_k: int, dtype: str, size=SIZE):
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.model import document as session_controller
    from qkv_desktop.state import SessionState
    from qkv_desktop.state.session_state import Options
    from qkv_desktop.views.main_window import MainWindow
    # The autosave (3 s after the last change) is timed on its own (``autosave_seconds``);
    # left on, it would land inside whichever edit cycle came 3 s after another.
    session_controller.AUTOSAVE_DELAY_MS = 10 ** 9
    rng = np.random.default_rng(0)
    state = SessionState.initialised([f"t{i}" for i in range(n)],
                                     rng.standard_normal((n, d_model)).round(3), d_k=d_k)
    state = state.with_(options=Options(dtype=dtype))
    settings = QSettings(os.path.join(_HOME, f"bench-{n}.ini"), QSettings.Format.IniFormat)
    model = AttentionModel(state)
    window = MainWindow(model, settings)
    window.resize(*size)
    window.show()
    model.wait_until_idle()
    settle(window)
    return window


def settle(window) -> None:
    app = QApplication.instance()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.005)


def close(window) -> None:
    window.model.undo_stack.setClean()  # nothing to save: close without asking
    window.close()
    window.deleteLater()
    QApplication.instance().processEvents()


def edit_cycles(window, edits: int, warmup: int = 2) -> tuple[list[float], float]:
    """Seconds from ``set_cell`` to the last pane painted, for ``edits`` edits, and the
    longest the GUI thread was blocked meanwhile (seconds)."""
    app = QApplication.instance()
    model = window.model
    panes = [p for p in window.panes.panes.values() if p.isVisible()]
    watch = _PaintWatch(p.plot.viewport() for p in panes)
    model.resultChanged.connect(watch.reset)  # paints before the new result do not count
    n, d = model.state.X.shape
    times = []
    beat = _Heartbeat()
    for k in range(warmup + edits):
        if k == warmup:
            beat.start()
        row, col = (7 * k) % n, (3 * k) % d
        value = float(model.state.X[row, col]) + 0.25 * (1 + k % 3)
        watch.reset()
        t0 = time.perf_counter()
        model.set_cell("X", row, col, value)
        while not (model._done_generation == model._generation and not model.busy
                   and watch.all_painted()):
            flags = (QEventLoop.ProcessEventsFlag.WaitForMoreEvents if model.busy
                     else QEventLoop.ProcessEventsFlag.AllEvents)
            app.processEvents(flags)
            if time.perf_counter() - t0 > EDIT_TIMEOUT_S:
                raise RuntimeError(f"no repaint within {EDIT_TIMEOUT_S} s at n = {n}")
        if k >= warmup:
            times.append(time.perf_counter() - t0)
    model.resultChanged.disconnect(watch.reset)
    return times, beat.stop()


def autosave_seconds(window) -> float:
    """How long the autosave of the edited session blocks the GUI thread: the longest
    gap of the event loop from asking for the autosave until it is on disk (the write
    runs on a worker thread and competes for the GIL)."""
    session = window.files.session
    app = QApplication.instance()
    beat = _Heartbeat()
    beat.start()
    session.autosave()
    while session._writer.busy:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
    return beat.stop()


def label_count(window) -> tuple[int, int]:
    """(panes that drew value labels, labels drawn) in the latest paint."""
    counts = [p.overlay.labels_drawn for p in window.panes.panes.values() if p.isVisible()]
    return sum(1 for c in counts if c), sum(counts)


def run(quick: bool) -> list[dict]:
    rows = []
    edits = 8 if quick else 20
    for n, d_model, d_k in EDIT_SHAPES:
        for dtype in ("float64", "float32") if n >= 1024 else ("float64",):
            window = make_window(n, d_model, d_k, dtype)
            times, stall = edit_cycles(window, edits)
            rows.append({"kind": "edit", "n": n, "d_model": d_model, "d_k": d_k,
                         "dtype": dtype, "median_ms": float(np.median(times)) * 1e3,
                         "max_ms": float(np.max(times)) * 1e3, "edits": len(times),
                         "gui_stall_ms": stall * 1e3,
                         "panes": sum(p.isVisible() for p in window.panes.panes.values()),
                         "autosave_ms": autosave_seconds(window) * 1e3})
            close(window)
            print(json.dumps(rows[-1]), flush=True)
    n, d_model, d_k = LABEL_SHAPE
    window = make_window(n, d_model, d_k, "float64")
    times, stall = edit_cycles(window, edits)
    panes, labels = label_count(window)
    rows.append({"kind": "labels", "n": n, "d_model": d_model, "d_k": d_k,
                 "dtype": "float64", "median_ms": float(np.median(times)) * 1e3,
                 "max_ms": float(np.max(times)) * 1e3, "edits": len(times),
                 "gui_stall_ms": stall * 1e3,
                 "labelled_panes": panes, "labels": labels})
    close(window)
    print(json.dumps(rows[-1]), flush=True)
    return rows


if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    run("--quick" in sys.argv)
