"""One background worker whose newest job wins: the model's large forwards, autosave,
and the Open model dialog all run through ``LatestJobRunner``.

Each runner owns one worker thread (a single-worker ``ThreadPoolExecutor``), so its
jobs run one at a time and in order. Submitting a job supersedes every earlier one:
a superseded job that has not started is skipped, one that is running is asked to
stop at its next ``report`` call, and whatever a superseded job still produces is
dropped on the GUI thread. Only the newest job's outcome reaches ``finished``, so a
slow old answer can never overwrite a newer one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, Signal

__all__ = ["LatestJobRunner", "Cancelled"]


class Cancelled(Exception):
    """Raised by ``report`` inside a job that was superseded or cancelled; never shown."""


class LatestJobRunner(QObject):
    """Run ``fn(report)`` on a worker thread; only the latest job's outcome is delivered.

    ``report(done, total)`` (optional for a job to call) raises ``Cancelled`` once the
    job is superseded or cancelled, and otherwise forwards its progress.

    Signals (on the GUI thread)
    ---------------------------
    finished(job, value, error) : the latest job ended; ``error`` is the exception it
        raised, or ``None`` (then ``value`` is what it returned).
    progressed(job, done, total) : the latest job's ``report``.
    busyChanged(bool) : jobs are queued or running / all have ended.
    """

    finished = Signal(int, object, object)
    progressed = Signal(int, int, int)
    busyChanged = Signal(bool)
    _ended = Signal(int, bool, object, object)  # job, ran, value, error (worker → GUI)
    _reported = Signal(int, int, int)

    def __init__(self, thread_name: str, parent: QObject | None = None):
        super().__init__(parent)
        self._thread_name = thread_name
        self._executor: ThreadPoolExecutor | None = None
        self._latest = 0
        self._pending: set[int] = set()  # jobs queued or running, by number
        # Busy from the first submit until no job is left once a result is delivered: a
        # ``finished`` handler that submits the next job keeps it busy without a flicker.
        self._busy = False
        self._cancel = threading.Event()
        self._ended.connect(self._on_ended)
        self._reported.connect(self._on_reported)

    @property
    def latest(self) -> int:
        """The number of the newest job submitted (0 before the first)."""
        return self._latest

    @property
    def busy(self) -> bool:
        """Whether any job is still queued or running."""
        return bool(self._pending)

    def submit(self, fn: Callable[[Callable[[int, int], None]], object]) -> int:
        """Queue ``fn(report)``, superseding every earlier job; returns its number."""
        self._cancel.set()
        self._latest += 1
        job, cancel = self._latest, threading.Event()
        self._cancel = cancel

        def report(done: int, total: int, _message: str = "") -> None:
            if cancel.is_set():
                raise Cancelled
            self._reported.emit(job, done, total)

        def work() -> None:
            if cancel.is_set():  # superseded before it started: skip
                self._ended.emit(job, False, None, None)
                return
            try:
                value, error = fn(report), None
            except Cancelled:
                self._ended.emit(job, False, None, None)
                return
            except Exception as exc:  # noqa: BLE001 -- handed to the GUI thread, never lost
                value, error = None, exc
            self._ended.emit(job, True, value, error)

        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix=self._thread_name)
        if not self._busy:
            self._busy = True
            self.busyChanged.emit(True)
        self._pending.add(job)
        self._executor.submit(work)
        return job

    def cancel(self) -> None:
        """Supersede every job without a new one: none of them will be delivered."""
        self._cancel.set()
        self._latest += 1

    def wait(self) -> None:
        """Block until every job submitted so far has run or been skipped."""
        if self._executor is not None:
            self._executor.submit(lambda: None).result()

    def shutdown(self) -> None:
        """Cancel, and wait for the thread (at most the rest of the running job)."""
        self.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        self._pending.clear()  # what a job still sends is ignored (see _on_ended)
        self._busy = False

    def _on_ended(self, job: int, ran: bool, value, error) -> None:
        if job not in self._pending:
            return  # shut down meanwhile: nobody is waiting for it
        self._pending.discard(job)
        if ran and job == self._latest:
            self.finished.emit(job, value, error)
        if not self._pending and self._busy:
            self._busy = False
            self.busyChanged.emit(False)

    def _on_reported(self, job: int, done: int, total: int) -> None:
        if job == self._latest:
            self.progressed.emit(job, done, total)
