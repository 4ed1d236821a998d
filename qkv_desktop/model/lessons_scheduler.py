"""``LessonsScheduler``: the lesson read-outs of a result follow its picture, never delay it.

The read-outs (asymmetry, row uniformity, the banners' spread) cost about a forward at
large sizes. So the model first gives the panes a result (``resultChanged``) and then
hands it here: once the window has painted what it was asked to repaint by then (the
panes' new picture), a small result's read-outs are computed on the GUI thread, a
large one's on a worker of their own (a ``LatestJobRunner``, so a newer result
supersedes it). ``lessonsChanged`` is emitted once per result, when
``result.lessons(head)`` returns at once.

"Once the window has painted" is ``AfterPaint``: the 0 ms timer used before fired
before the panes' repaint when the result came from the forward's worker, so the
read-outs' row threads started before that paint (at n = 1024 in the first edit of
five; issue 20). During a scrub of a large session a frame comes before its pictures,
and its read-outs wait for them (``hold``).

A newer forward makes the read-outs running on the worker moot (``stop``): they stop
at their next range of rows rather than take the cores from that forward. At
n = 2048 they cost about 8 ms of CPU on the rows' threads, and an edit right after the
panes painted (typing, the benchmark's edits back to back) shared the cores with them.
"""

from __future__ import annotations

import sys
import threading

from PySide6.QtCore import QObject, Signal

from qkv_desktop.model.after_paint import AfterPaint
from qkv_desktop.model.jobs import Cancelled, LatestJobRunner
from qkv_desktop.state.compute import ModelResult

__all__ = ["LessonsScheduler"]


def _with_lessons(result: ModelResult, head: int, stop: threading.Event) -> ModelResult:
    """``result`` with the read-outs of ``head`` computed (and cached on it); ``Cancelled``
    at the next range of rows once ``stop`` is set."""

    def check() -> None:
        if stop.is_set():
            raise Cancelled
    result.lessons(head, check)
    return result


class LessonsScheduler(QObject):
    """Computes the read-outs of the result on display, then emits ``lessonsChanged``.

    ``set_head`` (connected to the model's ``currentHeadChanged``) says which head's
    read-outs to compute when their turn comes; a signal, not a reference back to the
    model, so the two form no Python reference cycle for the garbage collector.
    """

    lessonsChanged = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._head = 0
        self._result: ModelResult | None = None  # the result on display
        self._announced: ModelResult | None = None  # the last announced by lessonsChanged
        self._off_thread = False
        self._after_paint = AfterPaint(self)
        self._after_paint.painted.connect(self._start)
        self._jobs = LatestJobRunner("qkv-lessons", self)
        self._jobs.finished.connect(self._on_done)
        self._stop = threading.Event()  # the read-outs on the worker stop once set

    def follow(self, result: ModelResult, off_thread: bool) -> None:
        """``result`` is now on display: compute its read-outs once the window has
        painted it (``off_thread``: on the worker)."""
        self._result, self._off_thread = result, off_thread
        self._after_paint.request()

    def hold(self, result: ModelResult) -> None:
        """``result`` is now on display; its read-outs wait for ``follow`` (its pictures
        are still being made). Until then none is announced: the views read the
        read-outs of the result on display, and would compute them on the GUI thread.
        A read-out not started yet is dropped: a scrub that shows the next frame before
        this one's read-outs began gets the newest frame's, not every frame's, so their
        two row threads do not run through the drag."""
        self._result = result
        self._after_paint.cancel()

    def _start(self) -> None:
        if self._off_thread:  # the read-outs cost about a forward: off the GUI thread
            self._submit()
        else:
            self._compute_here()

    def _submit(self) -> None:
        """The read-outs of the result on display, on the worker: started with the
        result, their two row threads took both cores of a 2-core machine from the
        panes' paint of it (issue 20)."""
        result, head = self._result, self._head
        if result is not None and result is not self._announced:
            self._stop.set()  # the job before, if still running
            stop = self._stop = threading.Event()
            self._jobs.submit(lambda _report: _with_lessons(result, head, stop))

    def stop(self) -> None:
        """A newer result is being computed: the read-outs running on the worker stop at
        their next range of rows, announced for nobody. The result on display still
        waits for its read-outs (``pending``); ``follow`` starts them again if it stays
        (the newer forward failed)."""
        self._stop.set()

    def set_head(self, head: int) -> None:
        """The current head is now ``head``."""
        self._head = head

    @property
    def pending(self) -> bool:
        """Whether the result on display still waits for its ``lessonsChanged``."""
        return self._result is not None and self._result is not self._announced

    def shutdown(self) -> None:
        """Stop the worker thread."""
        self._after_paint.cancel()
        self._jobs.shutdown()

    def _compute_here(self) -> None:
        """A small result's read-outs, on the GUI thread, after the panes painted it."""
        if self._result is not None:
            try:
                self._result.lessons(self._head)
            except Exception as exc:  # noqa: BLE001 -- a bug: logged, the views meet it again
                sys.excepthook(type(exc), exc, exc.__traceback__)
        self._announce()

    def _on_done(self, _job: int, done, error) -> None:
        if error is not None:  # a bug: log it; the views meet it again when they ask
            sys.excepthook(type(error), error, error.__traceback__)
        elif done is not self._result:
            return  # a newer result is on display, its read-outs not made: they follow
        self._announce()

    def _announce(self) -> None:
        """``lessonsChanged`` for the result on display, once per result."""
        if self.pending:
            self._announced = self._result
            self.lessonsChanged.emit(self._result)
