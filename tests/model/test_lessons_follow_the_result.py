"""The panes get a result before its lesson read-outs are computed (issue 20).

The read-outs (asymmetry, row uniformity, the banners' spread) cost about as much as the
forward at n = 1024; computed before ``resultChanged`` they delayed the picture of every
edit. Now ``resultChanged`` comes first and ``lessonsChanged`` follows: on the next
event-loop turn for small inputs, from a worker thread of its own for large ones.
"""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.state.compute import ModelResult

N_LARGE = 640  # above OFF_THREAD_CELLS score cells, yet quick


def _record(model, monkeypatch) -> list[tuple[str, object]]:
    """Events in order: ("result", r), ("lessons computed", thread name), ("lessons", r)."""
    events: list[tuple[str, object]] = []
    real = ModelResult.lessons

    def lessons(self, h=0, check=None):
        if ("lessons", h) not in self._cache:
            events.append(("lessons computed", threading.current_thread().name))
        return real(self, h, check)

    monkeypatch.setattr(ModelResult, "lessons", lessons)
    model.resultChanged.connect(lambda r: events.append(("result", r)))
    model.lessonsChanged.connect(lambda r: events.append(("lessons", r)))
    return events


def test_a_small_edit_shows_the_result_then_its_lessons_on_the_next_turn(qapp, monkeypatch):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    events = _record(model, monkeypatch)
    model.set_cell("X", 0, 0, 0.5)
    model.recompute_now()  # what the zero-interval timer does, at once
    assert [kind for kind, _ in events] == ["result"]  # the read-outs wait for a turn
    assert model.lessons_pending
    assert model.wait_until_idle()
    assert [kind for kind, _ in events] == ["result", "lessons computed", "lessons"]
    assert events[1][1] == threading.main_thread().name  # small: on the GUI thread
    assert events[2][1] is model.result and not model.lessons_pending
    model.shutdown()


def test_a_large_edit_computes_its_lessons_off_the_gui_thread_after_the_result(
        qapp, monkeypatch):
    rng = np.random.default_rng(3)
    state = SessionState.initialised([f"t{i}" for i in range(N_LARGE)],
                                     rng.standard_normal((N_LARGE, 6)), d_k=4)
    model = AttentionModel(state)
    assert model.wait_until_idle()
    events = _record(model, monkeypatch)
    model.set_cell("X", 1, 2, 3.0)
    assert model.wait_until_idle()
    QApplication.processEvents()
    kinds = [kind for kind, _ in events]
    assert kinds == ["result", "lessons computed", "lessons"], kinds
    assert events[1][1].startswith("qkv-lessons")  # neither the GUI nor the forward's thread
    assert events[0][1] is events[2][1] is model.result
    model.shutdown()
