"""A result's derived values (read-outs, S − max(S), the mask's numbers) are made once per
value, and a thread waits only for the value it asks for (issue 20).

With one lock for all of them, a hover or a pane's refresh on the GUI thread waited for
the lesson read-outs a worker was deriving (about a forward's time at large n). Checked
by the order things happen in, never by a timing.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from qkv_desktop.state import SessionState
from qkv_desktop.state.compute import compute

compute_module = sys.modules["qkv_desktop.state.compute"]  # the package names its function


def _result():
    rng = np.random.default_rng(1)
    state = SessionState.initialised([f"t{i}" for i in range(6)], rng.standard_normal((6, 4)),
                                     d_k=2)
    return compute(state)


def test_the_gui_thread_reads_other_values_while_a_worker_derives_the_read_outs(monkeypatch):
    result = _result()
    started, release = threading.Event(), threading.Event()
    order: list[str] = []
    real = compute_module.head_lessons

    def slow_lessons(*args):
        started.set()
        release.wait(10)  # released by the reads below, unless they wait for this
        order.append("read-outs made")
        return real(*args)
    monkeypatch.setattr(compute_module, "head_lessons", slow_lessons)
    worker = threading.Thread(target=result.lessons, args=(0,))
    worker.start()
    started.wait(10)
    shifted = result.shifted(0)  # the S − max(S) pane, or its hover
    mask = result.mask_values(0)  # the mask pane
    order.append("values read")
    release.set()
    worker.join()
    assert order == ["values read", "read-outs made"]
    assert shifted is result.shifted(0) and mask is result.mask_values(0)  # made once


def test_a_value_asked_for_by_two_threads_is_made_once(monkeypatch):
    result = _result()
    started, release = threading.Event(), threading.Event()
    made: list[str] = []
    real = compute_module.head_lessons

    def slow_lessons(*args):
        made.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return real(*args)
    monkeypatch.setattr(compute_module, "head_lessons", slow_lessons)
    got = []
    worker = threading.Thread(target=lambda: got.append(result.lessons(0)), name="worker")
    worker.start()
    started.wait(10)
    second = threading.Thread(target=lambda: got.append(result.lessons(0)), name="second")
    second.start()
    release.set()
    worker.join()
    second.join()
    assert made == ["worker"] and got[0] is got[1]
