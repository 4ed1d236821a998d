"""Large sessions: off-thread, latest-wins recomputation, reduced panes, float32 throughout.

The worker is made to wait on an event where a test needs a computation to be
"still running", so nothing here depends on how fast this machine is.
"""

import dataclasses
import threading

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import AttentionModel, attention_model
from qkv_desktop.model.off_thread import OFF_THREAD_CELLS, off_thread
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.presentation.pane_image import block_mean
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.session_state import Options
from tests.views.helpers import cell_scene_pos, spin_until

N_LARGE = 640  # n² = 409 600 score cells: above OFF_THREAD_CELLS, yet quick to compute


def large_state(n: int = N_LARGE, d_model: int = 6, d_k: int = 4, **options) -> SessionState:
    rng = np.random.default_rng(7)
    state = SessionState.initialised([f"t{i}" for i in range(n)],
                                     rng.standard_normal((n, d_model)), d_k=d_k, init_scale=1.0)
    return state.with_(options=Options(**options)) if options else state


class GatedCompute:
    """Wraps the model's ``compute``: records the thread and state of every call, and
    holds the first ``hold`` calls until ``release()``."""

    def __init__(self, monkeypatch, hold: int = 0):
        self.real = attention_model.compute
        self.calls: list[tuple[str, SessionState]] = []
        self.hold = hold
        self.gate = threading.Event()
        self.entered = threading.Event()
        monkeypatch.setattr(attention_model, "compute", self)

    def __call__(self, state, on_rows=None):
        self.calls.append((threading.current_thread().name, state))
        if len(self.calls) <= self.hold:
            self.entered.set()
            assert self.gate.wait(30), "the test never released the computation"
        return self.real(state, on_rows)

    def release(self) -> None:
        self.gate.set()


def test_the_threshold_puts_this_size_on_the_worker():
    assert N_LARGE * N_LARGE > OFF_THREAD_CELLS and off_thread(large_state())


def test_a_large_edit_is_computed_on_the_worker_thread(qtbot, monkeypatch):
    model = AttentionModel(large_state())
    gated = GatedCompute(monkeypatch)
    model.set_cell("X", 3, 1, 2.5)
    assert model.wait_until_idle()
    assert len(gated.calls) == 1
    thread, state = gated.calls[0]
    assert thread != threading.main_thread().name and thread.startswith("qkv-compute")
    assert state.X[3, 1] == 2.5 and model.result.state is state
    model.shutdown()


def test_a_newer_edit_supersedes_a_pending_one_and_a_finished_one_is_shown_meanwhile(
        qtbot, monkeypatch):
    model = AttentionModel(large_state())
    gated = GatedCompute(monkeypatch, hold=1)
    delivered = []
    model.resultChanged.connect(delivered.append)
    model.set_cell("X", 0, 0, 1.0)  # A: starts on the worker and waits at the gate
    spin_until(gated.entered.is_set)
    assert model.busy
    model.set_cell("X", 1, 0, 2.0)  # B: superseded before it ever starts
    model.set_cell("X", 2, 0, 3.0)  # C: the latest
    spin_until(lambda: not model._timer.isActive())
    assert len(gated.calls) == 1 and delivered == []  # nothing runs while A is busy
    gated.release()
    assert model.wait_until_idle()
    assert [s.X[:3, 0].tolist() for _, s in gated.calls] == [[1.0, *large_state().X[1:3, 0]],
                                                             [1.0, 2.0, 3.0]]
    # A's result is older than the state but newer than what was shown: one frame
    # of it while C computes, then C's; B was never computed
    assert [r.state for r in delivered] == [gated.calls[0][1], model.state]
    assert model.result is delivered[-1]
    np.testing.assert_array_equal(delivered[-1].head().scores,
                                  gated.real(model.state).head().scores)
    assert not model.busy
    model.shutdown()


class SteppedCompute:
    """Wraps the model's ``compute``: every call announces itself and waits for ``step``."""

    def __init__(self, monkeypatch):
        self.real = attention_model.compute
        self.states: list[SessionState] = []
        self.started = threading.Semaphore(0)
        self.go = threading.Semaphore(0)
        monkeypatch.setattr(attention_model, "compute", self)

    def __call__(self, state, on_rows=None):
        self.states.append(state)
        self.started.release()
        assert self.go.acquire(timeout=30), "the test never let the computation end"
        return self.real(state, on_rows)

    def wait_started(self) -> None:
        spin_until(lambda: self.started.acquire(blocking=False))


def test_a_scrub_on_a_large_session_shows_one_frame_per_forward(qtbot, monkeypatch):
    """While a Ctrl+drag goes on faster than a forward, every forward that ends is
    shown (the panes follow the drag), and no forward is queued behind another."""
    model = AttentionModel(large_state())
    stepped = SteppedCompute(monkeypatch)
    delivered = []
    model.resultChanged.connect(delivered.append)
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)
    stepped.wait_started()
    for k in range(2, 6):
        model.set_cell("X", 0, 0, k + 0.5, gesture=gesture)  # the drag moves on…
        model.set_cell("X", 0, 0, float(k), gesture=gesture)  # …twice within a frame
        spin_until(lambda: not model._timer.isActive())
        stepped.go.release()  # the forward of the previous value ends
        spin_until(lambda k=k: len(delivered) == k - 1, limit=30_000)
        assert delivered[-1].state.X[0, 0] == k - 1
        stepped.wait_started()
    stepped.go.release()
    assert model.wait_until_idle()
    assert [r.state.X[0, 0] for r in delivered] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert len(stepped.states) == len(delivered)  # one forward per frame shown
    assert model.undo_stack.count() == 1
    model.shutdown()


@pytest.fixture
def large_window(make_window):
    return make_window(large_state(), size=(1600, 1000))


def test_the_busy_indicator_shows_while_computing_and_hides_after(large_window, monkeypatch):
    window = large_window
    model = window.model
    gated = GatedCompute(monkeypatch, hold=1)
    assert window.busy.isHidden()
    model.set_cell("X", 5, 2, -1.25)
    spin_until(gated.entered.is_set)
    spin_until(lambda: not window.busy.isHidden())  # after BUSY_DELAY_MS
    assert model.busy
    # The GUI thread is free meanwhile: hover works, on the result shown so far.
    model.set_hover(CellRef("scores", 5, 2))
    assert window.hover_label.text() == describe_cell(model.result, model.hover) != ""
    gated.release()
    assert model.wait_until_idle()
    assert window.busy.isHidden() and not model.busy


def test_a_forward_shorter_than_the_delay_never_shows_or_paints_the_busy_indicator(
        large_window, monkeypatch):
    """The animated bar repainted the window 10–70 times per edit at 2048–4096 tokens."""
    from PySide6.QtCore import QEvent, QObject

    from qkv_desktop.views import main_window
    monkeypatch.setattr(main_window, "BUSY_DELAY_MS", 600_000)
    window = large_window
    model = window.model
    shown = []

    class Watch(QObject):
        def eventFilter(self, obj, event) -> bool:
            if event.type() in (QEvent.Type.Show, QEvent.Type.Paint):
                shown.append(event.type())
            return False

    watch = Watch()
    window.busy.installEventFilter(watch)
    gated = GatedCompute(monkeypatch, hold=1)
    model.set_cell("X", 5, 2, -1.25)
    spin_until(gated.entered.is_set)
    for _ in range(5):
        QApplication.processEvents()
    assert model.busy and window.busy.isHidden()
    gated.release()
    assert model.wait_until_idle()
    QApplication.processEvents()
    assert shown == [] and window.busy.isHidden() and not window._busy_delay.isActive()


def test_large_panes_are_reduced_but_hover_reports_exact_values(large_window):
    window = large_window
    model = window.model
    result = model.result
    pane = window.panes.panes["scores"]
    exact = result.head().scores
    shown = pane.image.image
    assert shown.shape[0] < exact.shape[0] and shown.shape[1] < exact.shape[1]
    fy, fx = pane.plot._factors
    np.testing.assert_allclose(shown, block_mean(exact, fy, fx), rtol=1e-12)
    assert shown[0, 0] == pytest.approx(exact[:fy, :fx].mean(), rel=1e-12)
    # The reduced image still spans the whole matrix, so cells stay where they are.
    span = pane.image.mapRectToParent(pane.image.boundingRect())
    assert [span.x(), span.y(), span.width(), span.height()] == pytest.approx(
        [0, 0, exact.shape[1], exact.shape[0]])
    i, j = 301, 77
    pane._on_mouse_moved(cell_scene_pos(pane, i, j))
    assert model.hover == CellRef("scores", i, j)
    text = window.hover_label.text()
    assert text == describe_cell(result, model.hover)
    assert f"= {format_value(exact[i, j])}" in text
    assert format_value(shown[i // fy, j // fx]) != format_value(exact[i, j])  # not the mean


def test_a_hidden_pane_does_no_work_until_shown_again(make_window):
    window = make_window()
    model, pane = window.model, window.panes.panes["weights"]
    window.panes.set_visible("weights", False)
    before = pane.overlay.data
    model.set_cell("X", 0, 0, 4.0)
    assert model.wait_until_idle()
    assert pane.overlay.data is before  # not redrawn while hidden
    window.panes.set_visible("weights", True)
    np.testing.assert_array_equal(pane.overlay.data, model.result.head().weights)
    np.testing.assert_array_equal(pane.image.image, model.result.head().weights)


def test_the_float32_option_keeps_float32_end_to_end(large_window):
    window = large_window
    model = window.model
    assert model.result.head().weights.dtype == np.float64
    window.controls.float32.setChecked(True)
    assert model.state.options.dtype == "float32"
    assert model.wait_until_idle()
    result = model.result
    head = result.head()
    # the result's own arrays, not what a hover may have cached on it meanwhile (the
    # int8 ``mask_reasons`` of a cell tip: the test failed after a hover elsewhere)
    for name in (f.name for f in dataclasses.fields(head)):
        value = getattr(head, name)
        if isinstance(value, np.ndarray):
            assert value.dtype == np.float32, name
    for key in ("X", "Q", "scores", "scaled", "weights", "output"):
        pane = window.panes.panes[key]
        if key != "X":
            assert pane.overlay.data.dtype == np.float32, key
            assert pane.image.image.dtype == np.float32, key
    window.controls.float32.setChecked(False)
    assert model.wait_until_idle()
    assert model.result.head().weights.dtype == np.float64


def test_float32_with_heads_and_w_o_stays_float32():
    model = AttentionModel(large_state(n=8, d_model=8, d_k=2, dtype="float32"))
    model.set_heads(2)
    model.set_output_projection(True)
    assert model.wait_until_idle()
    multi = model.result.multi
    assert multi.concat.dtype == np.float32 and multi.output.dtype == np.float32
    assert all(h.scores.dtype == np.float32 for h in multi.heads)


def test_the_lesson_read_outs_start_after_the_panes_painted_the_result(large_window):
    """Started with the result, the read-outs' threads took both cores of a 2-core
    machine from the panes' repaint of it (issue 20)."""
    from PySide6.QtCore import QEvent, QObject
    window = large_window
    model = window.model
    order = []
    panes = [p.plot.viewport() for p in window.panes.panes.built() if p.isVisible()]

    class Paints(QObject):
        def eventFilter(self, obj, event) -> bool:
            if event.type() == QEvent.Type.Paint and obj in panes:
                order.append(obj)
            return False

    paints = Paints()
    for viewport in panes:
        viewport.installEventFilter(paints)
    jobs = model._lessons._jobs
    real_submit = jobs.submit

    def submit(fn):
        order.append("read-outs")
        return real_submit(fn)
    jobs.submit = submit
    try:
        delivered = []
        model.resultChanged.connect(lambda _r: order.clear() or delivered.append(1))
        model.set_cell("X", 5, 2, -1.25)
        assert model.wait_until_idle()
    finally:
        jobs.submit = real_submit
        for viewport in panes:
            viewport.removeEventFilter(paints)
    assert delivered and "read-outs" in order
    assert set(order[:order.index("read-outs")]) == set(panes), order


def test_a_forward_of_the_closed_session_is_not_shown_after_an_open(qtbot, monkeypatch):
    """A large session's forward still on the worker, then Open of a file whose values
    do not compute: when that forward ended, the closed session's numbers came back
    under the new file's name (found by a reviewer)."""
    model = AttentionModel(large_state())
    gated = GatedCompute(monkeypatch, hold=1)
    delivered = []
    model.resultChanged.connect(delivered.append)
    model.set_cell("X", 0, 0, 1.0)  # the old session's forward waits at the gate
    spin_until(gated.entered.is_set)
    small = SessionState.from_preset("tutorial-1")
    X = small.X.copy()
    X[0, 0] = 1e200
    model.reset(small.with_(X=X))
    spin_until(lambda: bool(model.compute_error))
    assert model.result is None
    gated.release()
    spin_until(lambda: not model.busy)
    qtbot.wait(100)
    assert model.result is None and delivered == [] and model.steps_to_computed() == 0
    model.shutdown()
