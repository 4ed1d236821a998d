"""Edit → repaint in the real main window, offscreen; run in its own process.

``python bench_window.py [--quick]`` prints one JSON object per measurement, each
with ``kind``, ``n``, ``dtype``, ``median_ms`` and ``gui_stall_ms``:

* ``edit``: from just before ``model.set_cell`` until the event loop returns after
  the last visible heatmap pane has painted the new result: the model's
  recomputation (on the worker thread for large n), every view's update and every
  pane's paint are inside it, as they are for a user. ``baseline_ms`` and ``ratio``
  compare it with the ``baseline`` row of the same n, measured right before it.
  ``gui_cpu_ms`` is the GUI thread's CPU time per edit, less the heartbeat's own ticks
  (``time.thread_time``: the load does not distort it); on Linux the longest stall's
  parts, ``gui_working_ms`` (on a CPU: the app's own work in one go) and
  ``gui_blocked_ms`` (the GIL, a lock), tell the app's share of a stall from the time
  the GUI thread waited for a CPU.
* ``baseline``: the same edit in bare pyqtgraph: eight ``ImageItem``s in one
  ``GraphicsLayoutWidget`` of the same size; plain NumPy forward, ``setImage`` on
  all eight, process events until the view has painted.
* ``scrub``: a two-second Ctrl+drag on a value of X, one mouse move per event-loop
  turn (faster than any mouse); ``fps`` is how many distinct results the weights
  pane painted per second, ``recomputes_per_frame`` and ``paints_per_frame`` how
  much work each of those frames cost, ``median_ms`` the median time between frames,
  ``settle_ms`` how long after the release the last value was on screen, and
  ``unpainted_forwards`` how many forwards of the drag were never painted.
* ``autosave``: three autosaves of the edited n = ``AUTOSAVE_N`` session; ``median_ms``
  from asking until the file is on disk, ``gui_stall_ms`` the GUI's longest stall, and
  (on Linux) ``gui_blocked_ms`` the longest part of a stall in which the GUI thread
  was blocked in the app (the GIL, a lock) rather than waiting for a CPU; each
  ``edit`` row has one autosave's ``autosave_ms`` and ``autosave_blocked_ms``.
* ``labels``: edit → repaint of a matrix small enough for value text in every cell.
* ``idle``: the heartbeat of an event loop that does nothing for two seconds: on a
  shared machine, the stall that other processes cause alone (read the others' stalls
  against it).
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
LONG_SHAPES = ((4096, 768, 64),)
"""Measured only when ``--sizes`` names them (issue 20: no GUI stall over 16 ms at any
n ≤ 4096); a full run would spend minutes on their forwards."""
SCRUB_SIZES = (4, 256, 1024)
AUTOSAVE_N = 2048
"""The size whose autosave gets a line of its own (three autosaves, the GUI's stalls)."""
SCRUB_SECONDS = 2.0
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
        self.timer.timeout.connect(self._on_timeout)
        self.last = None
        self.longest = 0.0
        self.own_cpu = 0.0
        """The GUI thread's CPU time in the heartbeat's own ticks since ``start`` (at
        1000 ticks a second, reading ``/proc`` at each, about 0.1 ms per millisecond of
        a long edit: ``gui_cpu_ms`` leaves it out)."""

    def start(self) -> None:
        self.last, self.longest, self.own_cpu = time.perf_counter(), 0.0, 0.0
        self.timer.start()

    def _on_timeout(self) -> None:
        cpu = time.thread_time()
        self._tick()
        self.own_cpu += time.thread_time() - cpu

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return self.longest

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now


def _thread_schedstat() -> tuple[float, float] | None:
    """(seconds on a CPU, seconds runnable but waiting for one) of the calling thread,
    from Linux's ``/proc/thread-self/schedstat``; ``None`` elsewhere."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            on_cpu, waiting, _slices = f.read().split()
    except (OSError, ValueError):
        return None
    return int(on_cpu) / 1e9, int(waiting) / 1e9


class _SplitHeartbeat(_Heartbeat):
    """The heartbeat, with each gap split into time on a CPU, time waiting for a CPU
    (the machine's other processes: the load) and the rest, time the GUI thread was
    off the CPU and not runnable: blocked in this process, waiting for the GIL or a
    lock. ``blocked`` is the longest such part of one gap, in seconds (``None``
    without ``/proc/thread-self/schedstat``). On a shared machine the stall moves with
    the load; ``blocked`` is what the app's own threads cost the GUI."""

    def start(self) -> None:
        self._stat = _thread_schedstat()
        self.blocked = None if self._stat is None else 0.0
        self.working = None if self._stat is None else 0.0
        """The longest time on a CPU within one gap: the GUI thread's own work in one go."""
        super().start()

    def _tick(self) -> None:
        stat = _thread_schedstat()
        if stat is not None and self._stat is not None:
            gap = time.perf_counter() - self.last
            off_cpu = gap - (stat[0] - self._stat[0]) - (stat[1] - self._stat[1])
            self.blocked = max(self.blocked, off_cpu)
            self.working = max(self.working, stat[0] - self._stat[0])
        self._stat = stat
        super()._tick()


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
    from qkv_desktop.app.blas_threads import limit_blas_threads
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.model import document as session_controller
    from qkv_desktop.state import SessionState
    from qkv_desktop.state.session_state import Options
    from qkv_desktop.views.main_window import MainWindow
    # The autosave (3 s after the last change, at most 10 s after the first) is timed on
    # its own (``autosave_seconds``); left on, it would land inside some edit cycle.
    session_controller.AUTOSAVE_DELAY_MS = 10 ** 9
    session_controller.AUTOSAVE_MAX_DELAY_MS = 10 ** 9
    limit_blas_threads()  # as the app does at start-up (the baseline shares the process)
    rng = np.random.default_rng(0)
    # the dtype from the start: 8192 tokens fit in float32 only
    state = SessionState.initialised([f"t{i}" for i in range(n)],
                                     rng.standard_normal((n, d_model)).round(3), d_k=d_k,
                                     options=Options(dtype=dtype))
    settings = QSettings(os.path.join(_HOME, f"bench-{n}.ini"), QSettings.Format.IniFormat)
    model = AttentionModel(state)
    window = MainWindow(model, settings)
    window.resize(*size)
    window.show()
    model.wait_until_idle()
    settle(window)
    _heap_as_in_the_app()
    return window


def _heap_as_in_the_app() -> None:
    """The garbage collector as the app sets it up at start-up (``app.startup_heap``):
    collections on the GUI thread only, from a timer, and what the window built frozen
    out of the full collection's walk. Without it, a full collection in a process that
    had built several windows walked all of them: 50 ms in the middle of a scrub at
    n = 1024 (``gc.callbacks``, 2026-12-05), where the app walks only what the session
    made since its start."""
    from qkv_desktop.app import startup_heap
    app = QApplication.instance()
    if not hasattr(app, "_qkv_garbage_collector"):
        startup_heap.collect_on_the_gui_thread(app)
    startup_heap.freeze_heap()


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


def idle_stall(seconds: float = 2.0) -> float:
    """The longest gap (seconds) of an idle event loop's 1 ms heartbeat."""
    app = QApplication.instance()
    beat = _Heartbeat()
    beat.start()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
    return beat.stop()


def edit_cycles(window, edits: int, warmup: int = 2) -> tuple[list[float], float]:
    """Seconds from ``set_cell`` to the last pane painted, for ``edits`` edits, and the
    longest the GUI thread was blocked meanwhile (seconds)."""
    times, beat = _edit_cycles(window, edits, warmup)
    return times, beat.longest


def edit_figures(window, edits: int, warmup: int = 2) -> tuple[list[float], dict]:
    """``edit_cycles``'s seconds, and its stall split (``_SplitHeartbeat``, on Linux): the
    longest gap (``gui_stall_ms``), its longest part on a CPU (``gui_working_ms``: the
    app's own work in one go) and blocked in the app (``gui_blocked_ms``: the GIL, a
    lock), and the GUI thread's CPU time per edit (``gui_cpu_ms``, ``time.thread_time``:
    what the load does not distort)."""
    times, beat = _edit_cycles(window, edits, warmup, split=True)
    figures = {"gui_stall_ms": beat.longest * 1e3, "gui_cpu_ms": beat.cpu_per_edit * 1e3}
    if beat.blocked is not None:
        figures.update(gui_working_ms=beat.working * 1e3, gui_blocked_ms=beat.blocked * 1e3)
    return times, figures


def _edit_cycles(window, edits: int, warmup: int, split: bool = False):
    app = QApplication.instance()
    model = window.model
    panes = [p for p in window.panes.panes.built() if p.isVisible()]
    watch = _PaintWatch(p.plot.viewport() for p in panes)
    model.resultChanged.connect(watch.reset)  # paints before the new result do not count
    n, d = model.state.X.shape
    times = []
    beat = _SplitHeartbeat() if split else _Heartbeat()
    for k in range(warmup + edits):
        if k == warmup:
            beat.start()
            cpu0 = time.thread_time()
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
    beat.stop()
    beat.cpu_per_edit = (time.thread_time() - cpu0 - beat.own_cpu) / max(edits, 1)
    return times, beat


def autosave_seconds(window) -> float:
    """How long the autosave of the edited session blocks the GUI thread: the longest
    gap of the event loop from asking for the autosave until it is on disk (a worker
    thread hands the session to the writer process and waits)."""
    return autosave_stall(window)[0]


def autosave_stall(window) -> tuple[float, float | None]:
    """``autosave_seconds`` and the longest part of a gap the GUI thread was blocked
    in this process (the GIL, a lock) rather than waiting for a CPU (``_SplitHeartbeat``),
    in seconds."""
    session = window.files.session
    app = QApplication.instance()
    beat = _SplitHeartbeat()
    beat.start()
    session.autosave()
    while session._writer.busy:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
    return beat.stop(), beat.blocked


def _autosave_figures(window) -> dict:
    """An edit row's ``autosave_ms`` (the GUI's longest stall during one autosave) and,
    on Linux, ``autosave_blocked_ms`` (the part of a stall spent blocked in the app)."""
    stall, blocked = autosave_stall(window)
    return {"autosave_ms": stall * 1e3,
            **({} if blocked is None else {"autosave_blocked_ms": blocked * 1e3})}


def _reference_forward(X: np.ndarray, W_Q, W_K, W_V) -> list[np.ndarray]:
    """The eight matrices of one head, in plain NumPy (the baseline's "model")."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    S = Q @ K.T
    scaled = S / np.sqrt(K.shape[1])
    E = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    P = E / E.sum(axis=1, keepdims=True)
    return [X, Q, K, V, S, scaled, P, P @ V]


def baseline_cycles(n: int, d_model: int, d_k: int, edits: int,
                    warmup: int = 2) -> tuple[list[float], float]:
    """What bare pyqtgraph costs for the same edit: seconds per edit and the longest stall.

    Eight ``ImageItem``s in one ``GraphicsLayoutWidget`` (two rows of four plots with
    their axes, the window's size); an edit of X is the plain NumPy forward, then
    ``setImage`` with fixed levels on all eight, then events until the view painted.
    """
    import pyqtgraph as pg
    app = QApplication.instance()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, d_model)).round(3)
    W = [rng.standard_normal((d_model, d_k)) * 0.1 for _ in range(3)]
    view = pg.GraphicsLayoutWidget()
    view.resize(*SIZE)
    lut = pg.colormap.get("viridis").getLookupTable(nPts=256)
    images = []
    for k in range(8):
        plot = view.addPlot(row=k // 4, col=k % 4)
        plot.invertY(True)
        image = pg.ImageItem(axisOrder="row-major")
        image.setLookupTable(lut)
        plot.addItem(image)
        images.append(image)
    view.show()
    settle(view)
    watch = _PaintWatch([view.viewport()])
    beat = _Heartbeat()
    times = []
    for k in range(warmup + edits):
        if k == warmup:
            beat.start()
        X[(7 * k) % n, (3 * k) % d_model] += 0.25 * (1 + k % 3)
        watch.reset()
        t0 = time.perf_counter()
        for image, M in zip(images, _reference_forward(X, *W), strict=True):
            image.setImage(M, autoLevels=False, levels=(float(M.min()), float(M.max())))
        while not watch.all_painted():
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
        if k >= warmup:
            times.append(time.perf_counter() - t0)
    stall = beat.stop()
    view.close()
    view.deleteLater()
    app.processEvents()
    return times, stall


class _FrameWatch(QObject):
    """Counts the frames of one pane: paints that show a result the previous did not.

    What a paint shows is the matrix the pane draws (``overlay.data``, one array per
    result), not the latest result delivered: a result whose picture is still being
    made on a worker is not on screen yet, and it is its own frame once painted."""

    def __init__(self, pane):
        super().__init__()
        self.pane = pane
        self.viewport = pane.plot.viewport()
        self.frames: list[float] = []  # when each new result was first painted
        self.paints = 0
        self.painted = None  # the matrix of the last frame
        self.viewport.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.viewport and event.type() == QEvent.Type.Paint:
            self.paints += 1
            if self.pane.overlay.data is not self.painted:
                self.painted = self.pane.overlay.data
                self.frames.append(time.perf_counter())
        return False


def scrub(window, seconds: float = SCRUB_SECONDS) -> dict:
    """A Ctrl+drag on X[0, 1] lasting ``seconds``, one mouse move per event-loop turn.

    The moves are sent from a 0 ms timer, so they arrive as fast as the event loop
    takes them: a window that recomputed and repainted for each would fall behind and
    keep showing older values. Returns the frame rate and the work per frame.
    """
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    app = QApplication.instance()
    model, editor = window.model, window.editor
    pane = window.panes.panes["weights"]
    start = editor.scroll_to_value(0, 1)
    viewport = editor.viewport()
    ctrl, left = Qt.KeyboardModifier.ControlModifier, Qt.MouseButton.LeftButton

    def send(kind, dx: int) -> None:
        pos = QPointF(start + QPoint(dx, 0))
        buttons = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else left
        event = QMouseEvent(kind, pos, viewport.mapToGlobal(pos), left, buttons, ctrl)
        QApplication.sendEvent(viewport, event)

    watch = _FrameWatch(pane)
    calls0 = model.compute_calls
    send(QEvent.Type.MouseButtonPress, 0)
    beat = _Heartbeat()
    moves = [0]

    def move() -> None:
        moves[0] += 1
        send(QEvent.Type.MouseMove, moves[0] % 200)

    mover = QTimer()
    mover.setInterval(0)
    mover.timeout.connect(move)
    beat.start()
    t0 = time.perf_counter()
    mover.start()
    while time.perf_counter() - t0 < seconds:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
    mover.stop()
    calls = model.compute_calls - calls0  # the forwards of the drag, not of the settling
    send(QEvent.Type.MouseButtonRelease, moves[0] % 200)
    released = time.perf_counter()
    target = model.state.X[0, 1]
    while not (model._done_generation == model._generation and not model.busy
               and watch.painted is model.result.matrix("weights", model.current_head)):
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)
        if time.perf_counter() - released > EDIT_TIMEOUT_S:
            raise RuntimeError("the scrub never settled")
    settle_s = (watch.frames[-1] - released) if watch.frames[-1] > released else 0.0
    forwards_total = model.compute_calls - calls0  # with the one after the release
    stall = beat.stop()
    shown = model.result.state.X[0, 1]
    frames = [t for t in watch.frames if t <= t0 + seconds]
    gaps = np.diff(frames) if len(frames) > 1 else np.array([seconds])
    n_frames = max(len(frames), 1)
    return {"fps": len(frames) / seconds, "moves": moves[0],
            "frames": len(frames), "recomputes": calls, "paints": watch.paints,
            "recomputes_per_frame": calls / n_frames,
            "paints_per_frame": watch.paints / n_frames,
            "median_ms": float(np.median(gaps)) * 1e3, "settle_ms": settle_s * 1e3,
            # forwards never painted, counted until the drag settled: a frame whose
            # pictures are still being made when the two seconds end is painted after
            "unpainted_forwards": forwards_total - len(watch.frames),
            "gui_stall_ms": stall * 1e3, "final_value_shown": bool(shown == target)}


def label_count(window) -> tuple[int, int]:
    """(panes that drew value labels, labels drawn) when every pane is painted whole (an
    edit that keeps a pane's levels repaints only the cells it changed)."""
    panes = [p for p in window.panes.panes.built() if p.isVisible()]
    for pane in panes:
        pane.plot.viewport().repaint()
    counts = [p.overlay.labels_drawn for p in panes]
    return sum(1 for c in counts if c), sum(counts)


def run(quick: bool, sizes=None, labels: bool = True) -> list[dict]:
    """Every measurement, printed as it is made; ``sizes`` limits the n measured."""
    rows = [{"kind": "idle", "n": 0, "dtype": "", "median_ms": 0.0,
             "gui_stall_ms": idle_stall() * 1e3, "load_avg": os.getloadavg()[0]}]
    print(json.dumps(rows[-1]), flush=True)
    edits = 8 if quick else 20
    for n, d_model, d_k in EDIT_SHAPES + LONG_SHAPES:
        if n not in (sizes if sizes is not None else [s[0] for s in EDIT_SHAPES]):
            continue
        times, stall = baseline_cycles(n, d_model, d_k, edits)
        base = {"kind": "baseline", "n": n, "d_model": d_model, "d_k": d_k,
                "dtype": "float64", "median_ms": float(np.median(times)) * 1e3,
                "max_ms": float(np.max(times)) * 1e3, "edits": len(times),
                "gui_stall_ms": stall * 1e3}
        rows.append(base)
        print(json.dumps(base), flush=True)
        for dtype in ("float64", "float32") if n >= 1024 else ("float64",):
            window = make_window(n, d_model, d_k, dtype)
            times, figures = edit_figures(window, edits)
            median = float(np.median(times)) * 1e3
            rows.append({"kind": "edit", "n": n, "d_model": d_model, "d_k": d_k,
                         "dtype": dtype, "median_ms": median,
                         "max_ms": float(np.max(times)) * 1e3, "edits": len(times),
                         **figures,
                         "baseline_ms": base["median_ms"], "ratio": median / base["median_ms"],
                         "panes": sum(p.isVisible() for p in window.panes.panes.built()),
                         **_autosave_figures(window)})
            if n == AUTOSAVE_N and dtype == "float64":
                print(json.dumps(rows[-1]), flush=True)
                stalls, blocked, walls = [], [], []
                for _ in range(3):
                    t0 = time.perf_counter()
                    stall, block = autosave_stall(window)
                    walls.append(time.perf_counter() - t0)
                    stalls.append(stall)
                    blocked.append(block)
                rows.append({"kind": "autosave", "n": n, "d_model": d_model, "d_k": d_k,
                             "dtype": dtype, "median_ms": float(np.median(walls)) * 1e3,
                             "gui_stall_ms": float(np.median(stalls)) * 1e3,
                             "max_stall_ms": float(np.max(stalls)) * 1e3,
                             **({} if None in blocked else
                                {"gui_blocked_ms": float(np.median(blocked)) * 1e3,
                                 "max_blocked_ms": float(np.max(blocked)) * 1e3})})
            if n in SCRUB_SIZES and dtype == "float64":
                print(json.dumps(rows[-1]), flush=True)
                rows.append({"kind": "scrub", "n": n, "d_model": d_model, "d_k": d_k,
                             "dtype": dtype, "seconds": SCRUB_SECONDS, **scrub(window)})
            close(window)
            print(json.dumps(rows[-1]), flush=True)
    if not labels:
        return rows
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
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer edits per size")
    parser.add_argument("--sizes", help="only these n, e.g. 4,256 (and no labels row)")
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    chosen = None if args.sizes is None else {int(v) for v in args.sizes.split(",")}
    run(args.quick, chosen, labels=chosen is None)
