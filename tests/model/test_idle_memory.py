"""A session left alone gives back the memory kept for its next forward (issue 20: the
buffer pool kept up to 512 MB free for as long as the window stayed open). Counted
(free buffers, releases, threads), never timed."""

from __future__ import annotations

import gc
import threading

import numpy as np

from qkv_desktop.core import buffers
from qkv_desktop.model import AttentionModel, idle_memory
from qkv_desktop.state import SessionState
from tests.views.helpers import spin_until

N = 640  # 3.3 MB score matrices: pooled, and computed on the forward's worker


def _state() -> SessionState:
    rng = np.random.default_rng(9)
    return SessionState.initialised([f"t{i}" for i in range(N)], rng.standard_normal((N, 6)),
                                    d_k=4)


def test_an_idle_session_lets_the_pools_free_buffers_go_off_the_gui_thread(qapp, monkeypatch):
    threads: list[str] = []
    real = idle_memory.release_idle_memory
    monkeypatch.setattr(idle_memory, "release_idle_memory", lambda: threads.append(
        threading.current_thread().name) or real())
    gc.collect()
    buffers.release_free()
    model = AttentionModel(_state())
    try:
        model.idle_memory._timer.setInterval(10 ** 6)  # not idle yet: edits keep coming
        for k in range(3):
            model.set_cell("X", k, 1, 2.0 + k)
            assert model.wait_until_idle()
        gc.collect()
        assert buffers.free_buffers() > 0  # dropped results' memory, kept for the next forward
        assert model.idle_memory.released == 0
        model.idle_memory.stop()
        model.idle_memory._timer.setInterval(20)
        model.set_cell("X", 4, 1, -1.0)  # the last edit; then the session is left alone
        assert model.wait_until_idle()
        spin_until(lambda: threads and buffers.free_buffers() == 0)
        assert model.idle_memory.released == 1
        assert threads == ["qkv-release-memory"]
        model.set_cell("X", 5, 1, 3.0)  # and the session goes on as before
        assert model.wait_until_idle()
        assert model.result.state is model.state
    finally:
        model.shutdown()
