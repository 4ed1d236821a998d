"""Work that competes with the panes' paint starts only once they have painted (issue 20).

The lesson read-outs of a result were started by a 0 ms timer, which fired before the
repaint it followed when the result came from a worker; during a scrub of a large
session a frame's read-outs started when it was delivered, before its pictures were
made, so their row threads ran during its paint. A frame held while the one before it
was pictured was shown (its pictures and the next forward started) in the same turn
as those pictures arrived, during their paint. Ordered by events and counted by
thread, never timed (``model.after_paint``).
"""

from __future__ import annotations

import importlib
import threading

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from tests.views.helpers import spin_until
from tests.views.test_scrub_pictures import Gates, _state

compute_module = importlib.import_module("qkv_desktop.state.compute")  # (the package
# exports the function ``compute`` under the module's name)


class Order(QObject):
    """Records, in order, the paints of the visible panes and each read-out computed
    (``head_lessons``) with its thread."""

    def __init__(self, window, monkeypatch):
        super().__init__()
        self.panes = [p.plot.viewport() for p in window.panes.panes.built() if p.isVisible()]
        self.events: list = []
        for viewport in self.panes:
            viewport.installEventFilter(self)
        real = compute_module.head_lessons

        def head_lessons(*args, **kwargs):
            self.events.append(("read-outs", threading.current_thread().name))
            return real(*args, **kwargs)
        monkeypatch.setattr(compute_module, "head_lessons", head_lessons)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and obj in self.panes:
            self.events.append(obj)
        return False

    def read_outs(self) -> list[int]:
        return [k for k, e in enumerate(self.events) if isinstance(e, tuple)]


def test_a_small_results_read_outs_are_computed_after_the_panes_painted_it(make_window,
                                                                           monkeypatch):
    window = make_window()
    model = window.model
    assert model.wait_until_idle()
    order = Order(window, monkeypatch)
    model.set_cell("X", 1, 2, 0.75)
    assert model.wait_until_idle()
    first = order.read_outs()
    assert len(first) == 1, order.events  # one head: its read-outs once
    assert order.events[first[0]] == ("read-outs", "MainThread")  # small: here
    assert set(order.events[:first[0]]) == set(order.panes), order.events


def test_a_scrub_frames_read_outs_wait_for_its_pictures_and_paint(make_window, monkeypatch):
    """A frame the drag moved past is delivered before its pictures; its read-outs
    start once they are made and painted, on their worker, and the banners never make
    them on the GUI thread meanwhile."""
    window = make_window(_state())
    model = window.model
    assert model.wait_until_idle()
    gates = Gates(monkeypatch)
    order = Order(window, monkeypatch)
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)  # A's forward starts
    gates.forward_started()
    model.set_cell("X", 0, 0, 2.0, gesture=gesture)  # the drag moves on to B
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # A ends: shown at once, its pictures wait at their gate
    spin_until(lambda: model.result.state.X[0, 0] == 1.0)
    gates.forward_started()  # B's forward runs
    for _ in range(50):
        QApplication.processEvents()
    assert model.images.pending
    assert order.read_outs() == []  # nothing for A while its pictures are being made
    assert model.lessons_pending
    painted_before = len([e for e in order.events if not isinstance(e, tuple)])
    gates.pictures.set()  # A's pictures made: painted, then its read-outs
    spin_until(lambda: order.read_outs())
    first = order.read_outs()[0]
    assert len([e for e in order.events[:first] if not isinstance(e, tuple)]) > painted_before
    assert set(order.events[painted_before:first]) == set(order.panes), order.events
    gates.forward.release()
    assert model.wait_until_idle()
    threads = {order.events[k][1].split("_")[0] for k in order.read_outs()}
    assert threads == {"qkv-lessons"}, order.events  # never on the GUI thread



class Painted(QObject):
    """Records a widget's paints."""

    def __init__(self, widget, order):
        super().__init__()
        self.order = order
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.order.append("paint")
        return False


@pytest.mark.parametrize("off_thread", [False, True])
def test_read_outs_follow_the_repaint_asked_for_with_their_result(qtbot, monkeypatch,
                                                                  off_thread):
    """As the model hands a result over: from a posted event (the forward's worker's
    signal) or a timer, the panes asked to repaint, then ``follow``. The old 0 ms
    timer ran the read-outs before that repaint."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QWidget

    from qkv_desktop.model.lessons_scheduler import LessonsScheduler
    from qkv_desktop.state import SessionState, compute
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(200, 100)
    widget.show()
    order: list[str] = []
    painted = Painted(widget, order)
    spin_until(lambda: "paint" in order)  # its first paint, on being shown
    order.clear()
    real = compute_module.head_lessons

    def head_lessons(*args, **kwargs):
        order.append("read-outs")
        return real(*args, **kwargs)
    monkeypatch.setattr(compute_module, "head_lessons", head_lessons)
    scheduler = LessonsScheduler()
    results = [compute(SessionState.from_preset("tutorial-1")) for _ in range(2)]

    def hand_over(result):
        widget.update()
        scheduler.follow(result, off_thread=off_thread)
    QTimer.singleShot(0, lambda: hand_over(results[0]))  # Qt 6: a posted call
    spin_until(lambda: "read-outs" in order and not scheduler.pending)
    timer = QTimer(singleShot=True, interval=0, timeout=lambda: hand_over(results[1]))
    first = len(order)
    timer.start()  # the small path: the model's recompute timer
    spin_until(lambda: order.count("read-outs") == 2 and not scheduler.pending)
    for part in (order[:first], order[first:]):
        assert "paint" in part and part.index("paint") < part.index("read-outs"), order
    scheduler.shutdown()
    del painted


def test_a_large_results_read_outs_start_after_the_panes_painted_it(make_window,
                                                                    monkeypatch):
    """The event loop as the app runs it (waiting for events): the result arrives from
    the forward's worker as a posted event, and the read-outs' 0 ms timer fired in the
    same pass, before the panes' repaint was delivered."""
    from PySide6.QtCore import QEventLoop
    window = make_window(_state())
    model = window.model
    assert model.wait_until_idle()
    order = Order(window, monkeypatch)
    jobs = model._lessons._jobs
    real_submit = jobs.submit

    def submit(fn):
        order.events.append(("submitted", threading.current_thread().name))
        return real_submit(fn)
    monkeypatch.setattr(jobs, "submit", submit)
    app = QApplication.instance()
    for value in (0.5, -0.5, 1.5):
        del order.events[:]
        model.set_cell("X", 3, 1, value)
        while model.busy or model._timer.isActive() or model.lessons_pending:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        first = order.events.index(("submitted", "MainThread"))
        assert set(order.events[:first]) == set(order.panes), order.events


def test_a_held_frame_is_shown_after_the_frame_before_it_is_painted(make_window,
                                                                   monkeypatch):
    """B's forward ends while A's pictures are made: B waits (``_held``). Once A's
    pictures are made, A is painted before B is shown and C's forward starts."""
    window = make_window(_state())
    model = window.model
    assert model.wait_until_idle()
    gates = Gates(monkeypatch)
    order = Order(window, monkeypatch)
    model.resultChanged.connect(lambda r: order.events.append(("shown", r.state.X[0, 0])))
    real_started = gates.started.release
    monkeypatch.setattr(gates.started, "release",
                        lambda: order.events.append("forward") or real_started())
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)  # A
    gates.forward_started()
    model.set_cell("X", 0, 0, 2.0, gesture=gesture)  # B
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # A ends, is shown; its pictures wait at their gate
    gates.forward_started()  # B's forward
    model.set_cell("X", 0, 0, 3.0, gesture=gesture)  # C
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # B ends while A's pictures are still being made: held
    spin_until(lambda: model._held is not None)
    mark = len(order.events)
    gates.pictures.set()  # A's pictures made
    gates.forward_started()  # C's forward, once B is shown
    after = order.events[mark:]
    shown = after.index(("shown", 2.0))
    assert set(after[:shown]) == set(order.panes), after  # A painted whole first…
    assert after.index("forward") > shown  # …then B shown, and C's forward started
    gates.forward.release()
    assert model.wait_until_idle()


def test_after_paint_waits_for_a_repaint_asked_for_after_an_earlier_request(qtbot):
    """``request`` twice, a repaint asked for between the two: the callback runs once,
    after that repaint (the first request's event arrives before it)."""
    from PySide6.QtWidgets import QWidget

    from qkv_desktop.model.after_paint import AfterPaint
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(120, 80)
    widget.show()
    order: list[str] = []
    painted = Painted(widget, order)
    spin_until(lambda: "paint" in order)  # its first paint, on being shown
    order.clear()
    after = AfterPaint()
    after.painted.connect(lambda: order.append("callback"))
    after.request()
    widget.update()
    after.request()
    assert after.pending
    spin_until(lambda: "callback" in order)
    for _ in range(20):
        QApplication.processEvents()
    assert order == ["paint", "callback"]
    assert not after.pending
    after.request()
    after.cancel()
    for _ in range(20):
        QApplication.processEvents()
    assert order == ["paint", "callback"]  # cancelled: not run
    del painted
