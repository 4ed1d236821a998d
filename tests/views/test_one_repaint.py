"""The panes' repaints of a new result are one repaint of the window (issue 20): each
pane's scene used to repaint and flush the window for its own pane, eight times per
edit at n = 4. Pinned by the window repaints that painted panes, never by a time."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from tests.views.helpers import spin_until


class _Log(QObject):
    """In order: each repaint request the window takes ("window") and each pane
    viewport's paint (its key)."""

    def __init__(self, window, viewports: dict):
        super().__init__()
        self.window, self.keys, self.events = window, dict(viewports), []
        window.installEventFilter(self)  # after ``OneRepaint``'s: sees requests it holds
        for v in viewports:
            v.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Type.UpdateRequest:
            self.events.append("window")
        elif event.type() == QEvent.Type.Paint and obj in self.keys:
            self.events.append(self.keys[obj])
        return False

    def repaints_with_panes(self) -> list[list[str]]:
        """The panes painted by each window repaint that painted any."""
        groups: list[list[str]] = []
        for e in self.events:
            if e == "window":
                groups.append([])
            elif groups:
                groups[-1].append(e)
        return [g for g in groups if g]


def _edit(window, row: int, col: int, delta: float) -> None:
    model = window.model
    model.set_cell("X", row, col, float(model.state.X[row, col]) + delta)
    assert model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


def test_an_edit_repaints_its_panes_in_one_window_repaint(make_window):
    window = make_window()
    shown = [window.panes.panes[k] for k in window.panes.shown() if k in window.panes.panes]
    _edit(window, 0, 0, 0.5)  # (the grid's repaints are held from the first result on)
    log = _Log(window, {p.plot.viewport(): p.key for p in shown})
    grid = window.panes.one_repaint
    for k in range(4):
        log.events.clear()
        before = grid.repaints
        _edit(window, k % window.model.state.n, 1, 0.25 * (k + 1))
        groups = log.repaints_with_panes()
        # the first window repaint after the result painted every pane (before: only X,
        # and each other pane a window repaint of its own)
        assert sorted(groups[0]) == sorted(p.key for p in shown), groups
        assert grid.repaints == before + 1


def test_the_read_outs_of_a_result_start_after_its_one_repaint(make_window, monkeypatch):
    """``AfterPaint`` starts the lesson read-outs once the panes are painted: still so
    when the panes' repaints are one (it is posted at low priority, the held repaint at
    normal)."""
    from qkv_desktop.model import lessons_scheduler
    window = make_window()
    pane = window.panes.panes["weights"]
    events = []
    real = lessons_scheduler.LessonsScheduler._start
    monkeypatch.setattr(lessons_scheduler.LessonsScheduler, "_start",
                        lambda self, *a: events.append("read-outs") or real(self, *a))
    log = _Log(window, {pane.plot.viewport(): "weights"})
    log.events = events
    X = window.model.state.X
    window.model.set_cell("X", 1, 2, float(X[1, 2]) + 0.5)
    assert window.model.wait_until_idle()
    assert "read-outs" in events and "weights" in events
    assert events.index("weights") < events.index("read-outs"), events


def test_a_hold_with_nothing_to_repaint_holds_nothing_back(make_window):
    """A result that changes no pane stops holding once the events queued with it are
    delivered; a repaint asked for later (a hover, a status message) is made as before."""
    window = make_window()
    grid = window.panes.one_repaint
    grid.hold()
    QApplication.processEvents()
    assert not grid._holding
    painted = []

    class Watch(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                painted.append(obj)
            return False

    watch = Watch()
    window.statusBar().installEventFilter(watch)
    window.statusBar().update()
    for _ in range(3):
        QApplication.processEvents()
    assert painted


def test_pictures_made_on_a_worker_reach_their_panes_in_one_window_repaint(make_window,
                                                                          monkeypatch):
    """A frame of a scrub on a large session goes to the panes before its pictures
    (the drag moved on while its forward ran); they are made on the pictures' worker
    and announced one by one. Each pane's scene then repainted the window for its own
    pane: eight repaints per frame at n = 1024, the GUI thread's longest stall during a
    scrub (issue 20). Now the window is repainted once for all of them."""
    from tests.views.test_async_compute import SteppedCompute, large_state
    window = make_window(large_state(), size=(1600, 1000))
    model = window.model
    assert model.wait_until_idle()
    shown = [window.panes.panes[k] for k in window.panes.shown() if k in window.panes.panes]
    log = _Log(window, {p.plot.viewport(): p.key for p in shown})
    ready = []
    model.images.ready.connect(lambda _r, key, _h: ready.append(key))
    model.images.delivered.connect(lambda: log.events.append("delivered"))
    stepped = SteppedCompute(monkeypatch)
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)
    stepped.wait_started()
    model.set_cell("X", 0, 0, 2.0, gesture=gesture)  # the drag moves on during the forward
    stepped.go.release()  # the first forward ends: a frame, its pictures on the worker
    stepped.wait_started()
    spin_until(lambda: "delivered" in log.events, limit=30_000)
    for _ in range(3):
        QApplication.processEvents()
    after = log.events[log.events.index("delivered"):]
    stepped.go.release()
    assert model.wait_until_idle()
    assert len(ready) >= 3, ready
    groups = _Log.repaints_with_panes(type("Events", (), {"events": after})())
    assert len(groups) == 1, groups
    assert set(ready) <= set(groups[0]), (ready, groups)


def test_a_second_hold_moves_the_release_after_the_calls_queued_by_then(make_window):
    """A hold while holding (pictures announced after a new result, in the same pass of
    the queued events) must release after the scenes' calls queued by the second: with
    one flag, the first hold's release came first and each pane repainted on its own."""
    from PySide6.QtCore import QCoreApplication

    kind = QEvent.Type(QEvent.registerEventType())

    class Later(QObject):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def event(self, event):
            if event.type() == kind:
                self.fn()
                return True
            return super().event(event)

    window = make_window()
    model = window.model
    shown = [window.panes.panes[k] for k in window.panes.shown() if k in window.panes.panes]
    _edit(window, 0, 0, 0.5)
    log = _Log(window, {p.plot.viewport(): p.key for p in shown})
    grid = window.panes.one_repaint

    def new_result():  # the panes take a result now, and the grid holds again
        model.set_cell("X", 1, 1, float(model.state.X[1, 1]) + 0.3)
        model.recompute_now()

    first, then = Later(grid.hold), Later(new_result)
    log.events.clear()
    QCoreApplication.postEvent(first, QEvent(kind))
    QCoreApplication.postEvent(then, QEvent(kind))
    for _ in range(5):
        QApplication.processEvents()
    groups = log.repaints_with_panes()
    assert len(groups) == 1 and sorted(groups[0]) == sorted(p.key for p in shown), groups
    assert not grid._holding


def test_a_timer_due_after_the_recompute_runs_before_the_panes_repaint(make_window,
                                                                      monkeypatch):
    """The window's repaint of a result waits for a 0 ms timer (issue 20): Qt delivers
    every posted event before it looks at a timer, so the recompute, the one repaint and
    the read-outs were one block of the GUI thread (16–24 ms at n = 4) that a frame's
    timer or the next mouse move waited for. A timer that came due while the recompute
    ran now fires before the panes paint, and the read-outs still follow the paint."""
    import time

    from qkv_desktop.model import attention_model, lessons_scheduler
    window = make_window()
    model = window.model
    pane = window.panes.panes["weights"]
    _edit(window, 0, 0, 0.5)
    log = _Log(window, {pane.plot.viewport(): "weights"})
    real_run = attention_model.AttentionModel._run

    def slow_run(self, *args, **kwargs):  # a recompute that outlasts the timer's 1 ms
        time.sleep(0.01)
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(attention_model.AttentionModel, "_run", slow_run)
    real = lessons_scheduler.LessonsScheduler._start
    monkeypatch.setattr(lessons_scheduler.LessonsScheduler, "_start",
                        lambda self, *a: log.events.append("read-outs") or real(self, *a))
    timer = QTimer()
    timer.setSingleShot(True)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(lambda: log.events.append("timer"))
    log.events.clear()
    model.set_cell("X", 1, 2, float(model.state.X[1, 2]) + 0.5)
    timer.start(1)  # due while the recompute runs (started by the edit, due at once)
    assert model.wait_until_idle()
    events = [e for e in log.events if e != "window"]
    assert {"timer", "weights", "read-outs"} <= set(events), events
    assert events.index("timer") < events.index("weights") < events.index("read-outs"), events


def _scene_view(qtbot):
    """A window with one ``QGraphicsView`` whose item changes colour at each ``change()``,
    its viewport's paints logged, and a ``OneRepaint`` on it."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QVBoxLayout, QWidget

    from qkv_desktop.views.panes.one_repaint import OneRepaint
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(300, 300)
    scene = QGraphicsScene(0, 0, 100, 100)
    item = scene.addRect(0, 0, 50, 50)
    view = QGraphicsView(scene)
    QVBoxLayout(window).addWidget(view)
    window.show()
    qtbot.waitExposed(window)
    log = _Log(window, {view.viewport(): "view"})
    count = iter(range(1, 10 ** 6))

    def change():
        item.setBrush(QColor(next(count) % 256, 0, 0))

    return window, OneRepaint(view), change, log, scene


def test_a_stream_of_holds_still_repaints_the_window(qtbot):
    """One hold per pass of the event loop (a result each pass): the timer fired while a
    later hold's release was on its way, and a repaint that waited for that release
    waited again at the next, so the window was never repainted while the stream lasted
    (a code review: 0 repaints in 100 passes, where the posted release made 99)."""
    from PySide6.QtCore import QCoreApplication, QElapsedTimer
    window, grid, change, log, _scene = _scene_view(qtbot)
    kind = QEvent.Type(QEvent.registerEventType())

    class Stream(QObject):
        n = 0

        def event(self, event):
            if event.type() != kind:
                return super().event(event)
            self.n += 1
            change()
            grid.hold()
            if self.n < 60:
                QCoreApplication.postEvent(self, QEvent(kind))
            return True

    stream = Stream()
    before = grid.repaints
    log.events.clear()
    QCoreApplication.postEvent(stream, QEvent(kind))
    clock = QElapsedTimer()
    clock.start()
    while stream.n < 60 and clock.elapsed() < 10_000:
        QApplication.processEvents()
    assert stream.n == 60
    assert grid.repaints - before >= 20, grid.repaints - before  # while it lasted
    assert log.events.count("view") >= 20, log.events


def test_the_read_outs_wait_for_a_repaint_a_later_hold_came_before(qtbot):
    """``AfterPaint`` after a result's hold, then another hold in the next pass (a
    picture made on a worker) before the repaint's timer fired: the repaint was put off
    behind ``AfterPaint``'s timer, and the read-outs started before the paint."""
    from PySide6.QtCore import QCoreApplication

    from qkv_desktop.model.after_paint import AfterPaint
    window, grid, change, log, _scene = _scene_view(qtbot)
    kind = QEvent.Type(QEvent.registerEventType())

    class Later(QObject):
        def event(self, event):
            if event.type() != kind:
                return super().event(event)
            log.events.append("2nd hold")
            change()
            grid.hold()
            return True

    later = Later()
    after = AfterPaint()
    after.painted.connect(lambda: log.events.append("painted"))
    log.events.clear()
    change()
    grid.hold()
    after.request()
    QCoreApplication.postEvent(later, QEvent(kind))
    for _ in range(10):
        QApplication.processEvents()
    events = [e for e in log.events if e != "window"]
    assert "painted" in events and "view" in events, events
    assert events.index("view") < events.index("painted"), events


def test_the_repaint_of_a_result_comes_before_the_next_edits_recompute(make_window):
    """The next value of a scrub can apply between a result and its paint (its frame
    timer is due then): the recompute it starts must not run before that paint, or the
    result is replaced unseen and its forward was for nothing (a two-second scrub at
    n = 4 lost 5–13 forwards so)."""
    window = make_window()
    model = window.model
    pane = window.panes.panes["weights"]
    _edit(window, 0, 0, 0.5)
    log = _Log(window, {pane.plot.viewport(): "weights"})
    results = []
    model.resultChanged.connect(lambda r: results.append(r))

    def next_edit(_result):
        model.resultChanged.disconnect(next_edit)
        model.set_cell("X", 2, 1, float(model.state.X[2, 1]) + 0.5)  # its timer starts

    model.resultChanged.connect(next_edit)
    log.events.clear()
    model.set_cell("X", 1, 2, float(model.state.X[1, 2]) + 0.5)
    model.resultChanged.connect(lambda _r: log.events.append("result"))
    assert model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()
    events = [e for e in log.events if e != "window"]
    assert len(results) == 2, results
    # the first result was painted before the second came
    assert events == ["result", "weights", "result", "weights"], events
