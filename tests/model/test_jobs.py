"""The one latest-wins runner behind the model's forwards, autosave and the model dialog."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QCoreApplication

from qkv_desktop.model.jobs import Cancelled, LatestJobRunner


@pytest.fixture
def runner(qapp):
    r = LatestJobRunner("qkv-test")
    r.outcomes, r.busy_log, r.progress = [], [], []
    r.finished.connect(lambda job, value, error: r.outcomes.append((job, value, error)))
    r.busyChanged.connect(r.busy_log.append)
    r.progressed.connect(lambda job, done, total: r.progress.append((job, done, total)))
    yield r
    r.shutdown()


def settle(runner: LatestJobRunner) -> None:
    """Wait for the worker, then deliver what it queued to this (the GUI) thread."""
    runner.wait()
    QCoreApplication.sendPostedEvents()
    QCoreApplication.processEvents()


def test_only_the_newest_job_is_delivered_and_queued_ones_are_skipped(runner):
    gate, ran = threading.Event(), []

    def job(name):
        def run(report):
            ran.append((name, threading.current_thread().name))
            if name == "A":
                assert gate.wait(30)
            return name
        return run

    first = runner.submit(job("A"))  # runs, and waits at the gate
    runner.submit(job("B"))          # superseded before it starts: skipped
    last = runner.submit(job("C"))
    assert runner.busy and runner.latest == last != first
    gate.set()
    settle(runner)
    assert [name for name, _ in ran] == ["A", "C"]
    assert all(thread.startswith("qkv-test") for _, thread in ran)
    assert runner.outcomes == [(last, "C", None)]  # A's value was stale: dropped
    assert runner.busy_log == [True, False] and not runner.busy


def test_a_superseded_running_job_stops_at_its_next_report(runner):
    started, stop_here, steps = threading.Event(), threading.Event(), []

    def long_job(report):
        report(0, 3)
        started.set()
        assert stop_here.wait(30)
        for k in range(1, 4):
            report(k, 3)  # raises Cancelled once superseded
            steps.append(k)
        return "finished"

    runner.submit(long_job)
    assert started.wait(30)
    runner.cancel()
    stop_here.set()
    settle(runner)
    assert steps == [] and runner.outcomes == []
    assert runner.busy_log == [True, False]


def test_errors_reach_the_gui_thread_and_progress_is_forwarded(runner):
    def failing(report):
        report(1, 2)
        raise OSError("disk full")

    job = runner.submit(failing)
    settle(runner)
    assert runner.progress == [(job, 1, 2)]
    [(done_job, value, error)] = runner.outcomes
    assert done_job == job and value is None and isinstance(error, OSError)


def test_cancelled_is_not_an_error(runner):
    runner.submit(lambda report: (_ for _ in ()).throw(Cancelled()))
    settle(runner)
    assert runner.outcomes == [] and not runner.busy


def test_a_job_submitted_when_the_last_is_delivered_stays_busy_without_a_new_start(runner):
    """The model submits the next forward from the ``finished`` handler of the last (a
    scrub, edits made meanwhile). The runner stayed busy throughout, so it must not say
    busy again: the main window restarted its 500 ms delay at each such 'start', and a
    chain of forwards of 300–499 ms each never showed the busy bar."""
    chain = iter(range(3))

    def next_job(job, value, error):
        step = next(chain, None)
        if step is not None:
            runner.submit(lambda report, step=step: step)

    runner.finished.connect(next_job)
    runner.submit(lambda report: "first")
    for _ in range(5):
        settle(runner)
    assert [value for _, value, _ in runner.outcomes] == ["first", 0, 1, 2]
    assert runner.busy_log == [True, False] and not runner.busy
