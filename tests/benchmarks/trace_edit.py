"""A timeline of one X edit in the real window, every thread: where the time goes.

``python trace_edit.py [--sizes 1024,2048] [--dtype float64] [--edits 5]`` builds
``bench_window``'s window, makes a few edits and prints, for the median edit, each
step's start and end (ms after ``set_cell``) and its thread: the edit pushed, the
forward and its stages and row ranges, each picture, the result's delivery, each pane's
paint, the read-outs. Then the serial gaps: stretches where no traced work ran, and
the phases' medians over the edits (``summary``: CPU figures the load distorts less).

The tracing wraps the app's functions from outside (``_patch``), in this process only:
the app carries no tracing code, so nothing of it runs when not tracing.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bench_window  # noqa: E402  (sets the environment up, like run.py)
import numpy as np  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

_EVENTS: list[tuple] = []  # (what, thread, start ns, end ns, thread CPU ns)
_LOCK = threading.Lock()


def _record(what: str, start: int, end: int, cpu: int = 0) -> None:
    with _LOCK:
        _EVENTS.append((what, threading.current_thread().name, start, end, cpu))


def _timed(label, fn):
    """``fn`` recording its span as ``label`` (a string, or a function of its arguments)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            _record(label(*args, **kwargs) if callable(label) else label, t0,
                    time.perf_counter_ns(), time.thread_time_ns() - c0)
    return wrapper


def _patch() -> None:
    import importlib

    from qkv_desktop.model import attention_model, lessons_scheduler, pane_images
    from qkv_desktop.model.jobs import LatestJobRunner
    from qkv_desktop.views.panes import heatmap_plot

    attention = importlib.import_module("qkv_desktop.core.attention")
    M = attention_model.AttentionModel
    M.set_cell = _timed("edit: set_cell (undo push)", M.set_cell)
    M._recompute = _timed("recompute scheduled (timer)", M._recompute)
    M._run = _timed("worker: forward + pictures (_run)", M._run)
    M._show = _timed("deliver: _show (resultChanged)", M._show)
    attention_model.compute = _timed("forward: compute()", attention_model.compute)
    attention_model._share_for_edits = _timed("share_for_edits", attention_model._share_for_edits)
    attention._projections = _timed("forward: projections", attention._projections)
    attention._fused_forward = _timed("forward: QK^T+softmax+PV", attention._fused_forward)
    plain = attention.for_row_chunks

    def for_row_chunks(fn, n_rows, n_cells, **kw):
        def traced(r0, r1):
            t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
            fn(r0, r1)
            _record(f"  range {r0}-{r1}", t0, time.perf_counter_ns(),
                    time.thread_time_ns() - c0)
        return plain(traced, n_rows, n_cells, **kw)
    attention.for_row_chunks = for_row_chunks
    pane_images._make = _timed(lambda result, key, head, pixels: f"picture {key}",
                               pane_images._make)
    lessons_scheduler._with_lessons = _timed("read-outs (worker)",
                                             lessons_scheduler._with_lessons)
    S = lessons_scheduler.LessonsScheduler
    S._start = _timed("read-outs start (after paint)", S._start)
    LatestJobRunner._on_ended = _timed(lambda self, *a: f"deliver: {self._thread_name} ended",
                                       LatestJobRunner._on_ended)
    P = heatmap_plot.HeatmapPlot
    P.paintEvent = _timed(lambda self, *_a: f"paint pane {getattr(self, 'trace_key', '?')}",
                          lambda self, event: heatmap_plot.pg.PlotWidget.paintEvent(self, event))


class _App(QApplication):
    """Times each top-level repaint (``UpdateRequest``) of the window."""

    def notify(self, receiver, event):
        if event.type() != QEvent.Type.UpdateRequest:
            return super().notify(receiver, event)
        t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
        try:
            return super().notify(receiver, event)
        finally:
            _record(f"window repaint ({type(receiver).__name__})", t0, time.perf_counter_ns(),
                    time.thread_time_ns() - c0)


def trace(n: int, d_model: int, d_k: int, dtype: str, edits: int) -> list[list]:
    window = bench_window.make_window(n, d_model, d_k, dtype)
    for pane in window.panes.panes.built():
        pane.plot.trace_key = pane.key
    app = QApplication.instance()
    model = window.model
    timelines = []
    for k in range(edits + 2):
        bench_window.settle(window)
        model.wait_until_idle()
        _EVENTS.clear()
        row, col = (7 * k) % n, (3 * k) % d_model
        t0 = time.perf_counter_ns()
        model.set_cell("X", row, col, float(model.state.X[row, col]) + 0.25)
        # as bench_window's edit cycles wait (sleeping while the worker runs), then
        # until the read-outs are in
        wait = QEventLoop.ProcessEventsFlag.WaitForMoreEvents
        while (model._done_generation != model._generation or model.busy
               or model.lessons_pending or model.images.pending):
            app.processEvents(wait if model.busy or model.lessons_pending
                              else QEventLoop.ProcessEventsFlag.AllEvents)
        app.processEvents()
        if k >= 2:
            timelines.append([(w, th, (s - t0) / 1e6, (e - t0) / 1e6, c / 1e6)
                              for w, th, s, e, c in _EVENTS])
    bench_window.close(window)
    return timelines


def _last_paint(timeline) -> float:
    return max((e for w, _t, _s, e, _c in timeline if w.startswith("paint pane")),
               default=0.0)


def show(timeline, title: str) -> None:
    print(f"\n== {title}: last pane painted at {_last_paint(timeline):.1f} ms")
    print(f"{'start':>8} {'end':>8} {'wall':>7} {'cpu':>7}  thread")
    for what, thread, start, end, cpu in sorted(timeline, key=lambda e: e[2]):
        print(f"{start:8.2f} {end:8.2f} {end - start:7.2f} {cpu:7.2f}  {thread:28s} {what}")
    spans = sorted((s, e) for w, _t, s, e, _c in timeline if not w.startswith("  range"))
    gaps, reach = [], 0.0
    for s, e in spans:
        if s > reach + 0.3:
            gaps.append((reach, s))
        reach = max(reach, e)
    print("gaps (no traced work): " + ", ".join(f"{a:.1f}–{b:.1f}" for a, b in gaps))


def summary(timeline) -> dict:
    """One edit's phases: the forward (wall, and CPU of all its threads), the pictures
    after it (wall until handed over, and the busiest thread's CPU: the critical path
    on a quiet machine), the delivery and paints on the GUI thread (CPU)."""
    def spans(prefix):
        return [e for e in timeline if e[0].startswith(prefix)]
    forward = spans("forward: compute()")
    run = spans("worker: forward + pictures")
    if not forward or not run:
        return {}
    f_end = forward[0][3]
    after = [e for e in spans("picture ") if e[2] >= f_end - 0.01]
    per_thread: dict[str, float] = {}
    for _w, thread, _s, _e, cpu in after:
        per_thread[thread] = per_thread.get(thread, 0.0) + cpu
    gui = [e for e in timeline if e[1] == "MainThread" and (e[0].startswith("deliver: qkv-compute")
                                                           or e[0].startswith("window repaint"))]
    ranges = [e for e in timeline if e[0].startswith("  range") and forward[0][2] <= e[2] <= f_end]
    return {"set_cell_cpu": sum(e[4] for e in spans("edit: set_cell")),
            "forward_wall": forward[0][3] - forward[0][2],
            "forward_ranges_cpu": sum(e[4] for e in ranges),
            "pictures_after_wall": run[0][3] - f_end,
            "pictures_after_busiest_cpu": max(per_thread.values(), default=0.0),
            "pictures_after_cpu": sum(per_thread.values()),
            "gui_delivery_paint_cpu": sum(e[4] for e in gui),
            "last_paint": _last_paint(timeline)}


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024,2048")
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--d-model", type=int, default=768,
                        help="0: n, as bench_window's rows of n = 64 and 256")
    parser.add_argument("--d-k", type=int, default=64)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--all", action="store_true", help="print every edit's timeline")
    parser.add_argument("--summary", action="store_true", help="the phases' medians only")
    parser.add_argument("--no-pin", action="store_true",
                        help="leave the row threads' CPUs to the scheduler "
                             "(qkv_desktop.core.rows.PIN_THREADS = False)")
    args = parser.parse_args()
    if args.no_pin:
        from qkv_desktop.core import rows
        rows.PIN_THREADS = False
    app = _App(sys.argv[:1])
    _patch()
    for n in (int(v) for v in args.sizes.split(",")):
        lines = trace(n, args.d_model or n, args.d_k, args.dtype, args.edits)
        order = np.argsort([_last_paint(t) for t in lines])
        print(f"\nn = {n} {args.dtype}: last paint per edit (ms): "
              + ", ".join(f"{_last_paint(t):.1f}" for t in lines)
              + f"; load {os.getloadavg()[0]:.2f}")
        if not args.summary:
            for k in (range(len(lines)) if args.all else [order[len(order) // 2]]):
                show(lines[k], f"n = {n} {args.dtype}, edit {k}")
        rows = [summary(t) for t in lines]
        print("medians over the edits (ms): " + ", ".join(
            f"{key} {np.median([r[key] for r in rows]):.2f}" for key in rows[0]))
