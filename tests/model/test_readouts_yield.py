"""The read-outs of the result on display stop when a newer forward starts (issue 20).

They run on a worker after the panes have painted, on the rows' threads: about 8 ms of
CPU at n = 2048. An edit right after a paint (typing; the benchmark's edits back to
back) ran its forward beside them, the forward's helper queued behind theirs in the
rows' pool. Now a forward submitted stops them at their next range of rows; the new
result's read-outs follow its paint, and a result that stays on display (the newer
forward failed) gets its read-outs after all. Counted, never timed.
"""

from __future__ import annotations

import threading

import numpy as np

from qkv_desktop.core import lessons as core_lessons
from qkv_desktop.model import AttentionModel, attention_model
from qkv_desktop.state import SessionState

N = 1024  # row ranges: the read-outs run in several


def _state() -> SessionState:
    rng = np.random.default_rng(4)
    return SessionState.initialised([f"t{i}" for i in range(N)],
                                    rng.standard_normal((N, 8)), d_k=4)


class _Gate:
    """Every range of the read-outs' rows waits until ``go`` is set; ``done[k]`` counts
    the ranges the k-th read-out computed."""

    def __init__(self, monkeypatch):
        self.waiting, self.go = threading.Event(), threading.Event()
        self.done: list[int] = []
        real = core_lessons.for_row_chunks

        def for_row_chunks(fn, n_rows, n_cells, **kw):
            k = len(self.done)
            self.done.append(0)

            def gated(r0, r1):
                self.waiting.set()
                assert self.go.wait(30), "the test never let the read-outs go on"
                fn(r0, r1)
                self.done[k] += 1
            return real(gated, n_rows, n_cells, **kw)
        monkeypatch.setattr(core_lessons, "for_row_chunks", for_row_chunks)


def _read_outs_started(qapp, monkeypatch):
    """A model whose first edit's read-outs have started and wait at the gate: (the
    model, the gate, the results whose read-outs were announced)."""
    model = AttentionModel(_state())
    assert model.wait_until_idle()
    gate = _Gate(monkeypatch)
    announced = []
    model.lessonsChanged.connect(announced.append)
    model.set_cell("X", 1, 1, 2.0)
    while not gate.waiting.is_set():
        qapp.processEvents()
    return model, gate, announced


def test_a_newer_forward_stops_the_read_outs_running_and_its_own_follow(qapp, monkeypatch):
    model, gate, announced = _read_outs_started(qapp, monkeypatch)
    first = model.result
    assert first.state.X[1, 1] == 2.0
    model.set_cell("X", 2, 2, 3.0)
    qapp.processEvents()  # the next forward is submitted
    assert model.busy
    gate.go.set()
    assert model.wait_until_idle()
    assert ("lessons", 0) not in first._cache  # stopped, and nothing half-made kept
    assert announced == [model.result]  # only the newest result's read-outs announced
    assert model.result.state.X[2, 2] == 3.0 and ("lessons", 0) in model.result._cache
    # the first read-out stopped before any of its ranges; the second computed them all
    assert len(gate.done) == 2 and gate.done[0] == 0 and gate.done[1] > 1
    model.shutdown()


def test_a_result_that_stays_gets_its_read_outs_when_the_newer_forward_fails(qapp,
                                                                             monkeypatch):
    model, gate, announced = _read_outs_started(qapp, monkeypatch)
    shown = model.result

    def refuse(state, on_rows=None):
        raise ValueError("this state cannot be computed")
    monkeypatch.setattr(attention_model, "compute", refuse)
    model.set_cell("X", 2, 2, 3.0)
    qapp.processEvents()
    gate.go.set()
    model.wait_until_idle()
    assert model.compute_error and model.result is shown
    assert announced == [shown] and ("lessons", 0) in shown._cache
    model.shutdown()
