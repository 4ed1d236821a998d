"""One rule says where a state is computed and drawn (issue 20, ``model.off_thread``).

There were two thresholds: the forward went to a worker above 300,000 score cells (all
heads), a pane's picture above 262,144 cells of its matrix. A state between them was
computed on the GUI thread and its pictures made one round later on the pictures'
worker; so was a session of few tokens and many dimensions (X larger than the scores).
Now a state's forward and its pictures are made on the same side. Recorded by thread,
never timed.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import attention_model
from qkv_desktop.model.off_thread import OFF_THREAD_CELLS, off_thread, state_cells
from qkv_desktop.presentation import pane_image
from qkv_desktop.state import SessionState
from qkv_desktop.views.panes import heatmap_plot


def _state(n: int, d_model: int) -> SessionState:
    rng = np.random.default_rng(5)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)), d_k=4)


def _record(monkeypatch) -> dict[str, list[str]]:
    """The threads of every forward and every pane picture made."""
    threads: dict[str, list[str]] = {"compute": [], "picture": []}
    real_compute = attention_model.compute
    monkeypatch.setattr(attention_model, "compute", lambda s, on_rows=None: threads[
        "compute"].append(threading.current_thread().name) or real_compute(s, on_rows))
    real_prepare = pane_image.prepare_image

    def prepare(data, *args, **kwargs):
        threads["picture"].append(threading.current_thread().name)
        return real_prepare(data, *args, **kwargs)
    for module in (pane_image, heatmap_plot):
        monkeypatch.setattr(module, "prepare_image", prepare)
    return threads


def _edit(window) -> None:
    window.model.set_cell("X", 3, 1, 1.5)
    for _ in range(5):
        assert window.model.wait_until_idle()
        QApplication.processEvents()


@pytest.mark.parametrize(("n", "d_model"), [
    (520, 8),  # 270,400 score cells: the forward stayed here, the pictures went out
    (400, 768),  # 160,000 score cells, X of 307,200: X's picture went out alone
])
def test_a_large_state_is_computed_and_drawn_on_the_forwards_worker(make_window, monkeypatch,
                                                                     n, d_model):
    state = _state(n, d_model)
    assert off_thread(state) and state_cells(state) > OFF_THREAD_CELLS
    window = make_window(state)
    threads = _record(monkeypatch)
    rounds = window.model.images._jobs.latest
    _edit(window)
    assert threads["compute"] and all(t.startswith("qkv-compute") for t in threads["compute"])
    assert threads["picture"] and all(t.startswith("qkv-compute") for t in threads["picture"])
    assert len(threads["picture"]) == len(window.model.images.on_screen)
    assert window.model.images._jobs.latest == rounds  # no round on the pictures' worker


def test_a_small_state_is_computed_and_drawn_at_once_on_the_gui_thread(make_window,
                                                                       monkeypatch):
    state = _state(500, 8)  # 250,000 cells
    assert not off_thread(state)
    window = make_window(state)
    threads = _record(monkeypatch)
    rounds = window.model.images._jobs.latest
    _edit(window)
    assert set(threads["compute"]) == {"MainThread"}
    assert threads["picture"] and set(threads["picture"]) == {"MainThread"}
    assert window.model.images._jobs.latest == rounds
