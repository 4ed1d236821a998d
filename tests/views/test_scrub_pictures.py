"""A scrub on a large session: the pictures of a frame the drag has moved past are made
while the newest state's forward runs, not before it (issue 20, a review's risk).

The forward's worker made every pane's picture of each result before handing it over,
also when the state had moved on meanwhile, so each frame of a Ctrl+drag cost a
forward plus all its pictures on one thread. Now such a result goes over at once; the
pictures' worker makes its pictures while the forward's worker computes the newest
state. A frame whose forward ends before the pictures of the one on display waits for
them: every frame is painted whole, and no forward runs more than one frame ahead.
Stepped by hand (gates on both workers), never timed.
"""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import attention_model
from qkv_desktop.presentation import pane_image
from qkv_desktop.state import SessionState
from tests.views.helpers import spin_until

N = 640  # 409,600 score cells: computed and drawn off the GUI thread, yet quick


def _state() -> SessionState:
    rng = np.random.default_rng(11)
    return SessionState.initialised([f"t{i}" for i in range(N)], rng.standard_normal((N, 6)),
                                    d_k=4)


class Gates:
    """Every forward waits for ``forward.release()``; every picture made on the pictures'
    worker waits for ``pictures.set()``. Records which thread made which picture."""

    def __init__(self, monkeypatch):
        self.forwards: list[SessionState] = []
        self.started = threading.Semaphore(0)
        self.forward = threading.Semaphore(0)
        self.pictures = threading.Event()
        self.made: list[tuple[str, float]] = []  # (thread, X[0, 0] of the result's state)
        real_compute, real_image = attention_model.compute, pane_image.pane_image

        def compute(state, on_rows=None):
            self.forwards.append(state)
            self.started.release()
            assert self.forward.acquire(timeout=30), "the test never let the forward end"
            return real_compute(state, on_rows)

        def image(result, *args):
            thread = threading.current_thread().name
            if thread.startswith("qkv-images"):
                assert self.pictures.wait(30), "the test never let the pictures be made"
            self.made.append((thread, float(result.state.X[0, 0])))
            return real_image(result, *args)
        monkeypatch.setattr(attention_model, "compute", compute)
        monkeypatch.setattr(pane_image, "pane_image", image)
        from qkv_desktop.model import pane_images
        monkeypatch.setattr(pane_images, "pane_image", image)

    def forward_started(self) -> None:
        spin_until(lambda: self.started.acquire(blocking=False))


def test_a_passed_frames_pictures_are_made_while_the_next_forward_runs(make_window,
                                                                      monkeypatch):
    window = make_window(_state())
    model = window.model
    on_screen = len(model.images.on_screen)
    gates = Gates(monkeypatch)
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)  # A's forward starts
    gates.forward_started()
    model.set_cell("X", 0, 0, 2.0, gesture=gesture)  # the drag moves on to B
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # A's forward ends: B is the state, A a passed frame
    spin_until(lambda: model.result.state.X[0, 0] == 1.0)  # A shown without its pictures…
    gates.forward_started()  # …and B's forward runs while they are made
    assert [x for _t, x in gates.made] == []  # nothing made for A on the forward's worker
    assert model.images.pending  # A's pictures: asked of the pictures' worker
    gates.pictures.set()
    spin_until(lambda: not model.images.pending)
    assert len(gates.made) == on_screen
    assert {(t.split("_")[0], x) for t, x in gates.made} == {("qkv-images", 1.0)}
    gates.forward.release()  # B is the newest state: its pictures come with it
    assert model.wait_until_idle()
    final = [(t.split("_")[0], x) for t, x in gates.made[on_screen:]]
    assert final == [("qkv-compute", 2.0)] * on_screen
    for key in model.images.on_screen:
        assert window.panes.panes[key].overlay.data is model.result.matrix(key)
    assert model.undo_stack.count() == 1


def test_a_frame_that_ends_before_the_pictures_of_the_one_shown_waits_for_them(make_window,
                                                                               monkeypatch):
    window = make_window(_state())
    model = window.model
    gates = Gates(monkeypatch)
    delivered = []
    model.resultChanged.connect(lambda r: delivered.append(float(r.state.X[0, 0])))
    gesture = model.new_gesture()
    model.set_cell("X", 0, 0, 1.0, gesture=gesture)  # A
    gates.forward_started()
    model.set_cell("X", 0, 0, 2.0, gesture=gesture)  # B
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # A ends, is shown; its pictures wait at their gate
    gates.forward_started()  # B's forward
    model.set_cell("X", 0, 0, 3.0, gesture=gesture)  # C: B will be a passed frame too
    spin_until(lambda: not model._timer.isActive())
    gates.forward.release()  # B ends while A's pictures are still being made
    spin_until(lambda: len(gates.forwards) == 2 and model._held is not None)
    for _ in range(50):
        QApplication.processEvents()
    assert delivered == [1.0]  # B waits: A is painted whole first…
    assert len(gates.forwards) == 2  # …and no forward runs two frames ahead
    gates.pictures.set()  # A's pictures made: B shown, its own pictures asked, C computes
    gates.forward_started()
    assert delivered == [1.0, 2.0]
    gates.forward.release()
    assert model.wait_until_idle()
    assert delivered == [1.0, 2.0, 3.0]
    assert [s.X[0, 0] for s in gates.forwards] == [1.0, 2.0, 3.0]  # one forward per frame
