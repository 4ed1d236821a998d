"""``PaneImages``: the heatmap panes' pictures of large results, made off the GUI thread.

A pane of a 4096-token session reduces 16 million scores to the block means its pixels
can show, finds their colour levels and colours them: tens of milliseconds per pane,
eight panes per edit, which on the GUI thread stalled every edit (issue 20). So each
plot on screen (a pane, a head's thumbnail: a *slot*) says here which matrix it draws
at which size (``show``); after the forward of a large state the model's worker makes
those pictures (``plan``) before it hands the result over, and the plots find them
made (``presentation.pane_image``) and only wrap their pixels. A picture not made that
way (a plot was resized, another head was chosen, a pane was just shown) is asked for
with ``want``: it is made on a worker of this object's own, and ``ready`` says when.

The pictures of one result are made side by side, the largest first
(``picture_threads``): one after the other they took as long as the forward.
"""

from __future__ import annotations

import functools
import math
import sys
import threading
import weakref
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QTimer, Signal

from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.model.off_thread import off_thread
from qkv_desktop.model.picture_threads import side_by_side
from qkv_desktop.presentation.colormaps import SEQUENTIAL_MATRICES
from qkv_desktop.presentation.pane_image import (
    PaneImage,
    RowsReduced,
    display_factors,
    keep_reduced,
    pane_image,
    prepared_image,
)
from qkv_desktop.presentation.pane_info import pane_relevant
from qkv_desktop.state.catalogue import matrix_shape
from qkv_desktop.state.compute import ModelResult

__all__ = ["PaneImages"]


def _make(result: ModelResult, key: str, head: int, pixels: tuple[float, float]) -> None:
    """One picture for ``PaneImages.plan``; a failure is left for its pane to meet and
    report (it asks for the picture again, on the pictures' worker)."""
    try:
        pane_image(result, key, head, pixels)
    except Exception:  # noqa: BLE001,S110 -- the pane meets it again, and says so
        pass


class PicturePlan:
    """The pictures a forward's worker makes of its result, for the plots on screen.

    ``on_rows`` (the core's ``on_rows``, through ``compute``) reduces each finished
    range of a plot's scores, scaled scores or weights to its block means while the
    row thread that computed it still has it in cache, beside the forward's other
    ranges (``presentation.pane_image.RowsReduced``); ``keep(result)`` leaves them with
    the result, so its pictures start from them wherever they are made. Calling the
    plan, ``plan(result, also)``, makes the pictures side by side, the largest first,
    and runs the jobs ``also`` (callables that do not raise) beside them, first.

    It holds plain data only: made on the GUI thread, used on the forward's threads.
    """

    def __init__(self, slots: list[tuple[str, int | None, tuple[float, float]]], head: int):
        self._slots, self._head = slots, head
        self._reduced: dict[tuple[int, str], list[RowsReduced]] = {}
        self._lock = threading.Lock()

    def _jobs(self, state) -> list[tuple[str, int, tuple[float, float]]]:
        todo = [(key, self._head if fixed is None else fixed, pixels)
                for key, fixed, pixels in self._slots]
        return [(key, h, pixels) for key, h, pixels in todo
                if pane_relevant(state, key) and h < state.n_heads]

    def on_rows(self, h: int, r0: int, r1: int, matrices: dict) -> None:
        """Rows ``r0:r1`` of head ``h``'s n × m matrices are final (a row thread)."""
        for key, data in matrices.items():
            for reduced in self._reducers(h, key, data):
                try:
                    reduced.add(data, r0, r1)
                except Exception:  # noqa: BLE001,S112 -- the picture reads its matrix after
                    continue

    def _reducers(self, h: int, key: str, data) -> list[RowsReduced]:
        try:
            return self._reduced[h, key]
        except KeyError:
            pass
        with self._lock:  # the first range of this matrix: one list, whichever thread
            if (h, key) not in self._reduced:
                wanted = {display_factors(data.shape, pixels)
                          for k, fixed, pixels in self._slots
                          if k == key and (self._head if fixed is None else fixed) == h}
                self._reduced[h, key] = [
                    RowsReduced(data.shape, data.dtype, factors, key not in SEQUENTIAL_MATRICES)
                    for factors in sorted(wanted) if factors != (1, 1)]
            return self._reduced[h, key]

    def keep(self, result: ModelResult) -> None:
        """Leave the block means gathered during ``result``'s forward with it."""
        for (h, key), reducers in self._reduced.items():
            for reduced in reducers:
                keep_reduced(result, key, h, reduced)

    def __call__(self, result: ModelResult, also: Sequence[Callable[[], None]] = ()) -> None:
        state = result.state
        todo = self._jobs(state)
        todo.sort(key=lambda job: -math.prod(matrix_shape(state, job[0])))
        side_by_side([*also, *(functools.partial(_make, result, *job) for job in todo)])


class PaneImages(QObject):
    """Which panes are on screen at which size, and their pictures of large results.

    ``ready(result, key, head)``: a picture ``want`` could not give at once is made.
    ``delivered()``: the pictures of one job have all been announced by ``ready`` (the
    panes' repaints for them can be one: ``OneRepaint``).
    ``settled()``: no picture asked for is left to make (``pending`` is false again).
    """

    ready = Signal(object, str, int)
    delivered = Signal()
    settled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # slot → (matrix key, head or None for the current one, (height, width) pixels)
        self._slots: dict[str, tuple[str, int | None, tuple[float, float]]] = {}
        # slot → (result, matrix key, head, pixels) asked of the worker
        self._wanted: dict[str, tuple[ModelResult, str, int, tuple[float, float]]] = {}
        self._failed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        """Per result, the (key, head) whose picture failed: not asked again, at any
        size (a pane waiting for it repaints, and each repaint would fail and report
        again); the next result is tried afresh."""
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._submit)
        self._jobs = LatestJobRunner("qkv-images", self)
        self._jobs.finished.connect(self._on_done)
        self._jobs.busyChanged.connect(self._announce_if_settled)

    # ----------------------------------------------------------- the plots
    def show(self, slot: str, key: str, pixels: tuple[float, float],
             head: int | None = None) -> None:
        """The plot ``slot`` is on screen and draws matrix ``key`` of ``head`` (``None``:
        the current head) in ``pixels`` (height, width)."""
        self._slots[slot] = (key, head, pixels)

    def hide(self, slot: str) -> None:
        """The plot ``slot`` is not on screen: no picture is made for it."""
        self._slots.pop(slot, None)
        if self._wanted.pop(slot, None) is not None:
            self._announce_if_settled()

    @property
    def on_screen(self) -> dict[str, tuple[str, int | None, tuple[float, float]]]:
        """The plots on screen: what they draw and their sizes (a copy)."""
        return dict(self._slots)

    # ------------------------------------------------- with the forward
    def plan(self, head: int) -> PicturePlan:
        """What the forward's worker does for the plots on screen now, ``head`` the
        current one: reduce their n × m matrices while the forward computes them
        (``PicturePlan.on_rows``), then make all their pictures before it hands the
        result over (calling the plan; it costs the GUI thread nothing, and a plot then
        only shows its picture)."""
        return PicturePlan(list(self._slots.values()), head)

    # --------------------------------------------------- on their own
    @staticmethod
    def off_thread(result: ModelResult) -> bool:
        """Whether the pictures of ``result`` are made off the GUI thread (else a pane
        makes its own when none is ``made``): those of a state computed there, by the
        one rule (``model.off_thread``)."""
        return off_thread(result.state)

    @staticmethod
    def made(result: ModelResult, key: str, head: int,
             pixels: tuple[float, float]) -> PaneImage | None:
        """Pane ``key``'s picture of ``result`` for ``head`` at ``pixels``, if made."""
        factors = display_factors(matrix_shape(result.state, key), pixels)
        return prepared_image(result, key, head, factors)

    def want(self, slot: str, result: ModelResult, key: str, head: int,
             pixels: tuple[float, float]) -> None:
        """Have the plot ``slot``'s picture of matrix ``key`` of ``result`` for ``head``
        at ``pixels`` made on the worker; ``ready`` says when."""
        request = (result, key, head, pixels)
        if (key, head) in self._failed.get(result, ()):
            return  # it failed once for this result: reported then, not again
        if self._wanted.get(slot) != request:  # asked again (a repaint): on its way
            self._wanted[slot] = request
            self._timer.start()

    @property
    def pending(self) -> bool:
        """Whether a picture asked for is still being made."""
        return bool(self._wanted) or self._jobs.busy or self._timer.isActive()

    def wait(self) -> None:
        """Block until the pictures asked for so far are made (tests, export)."""
        if self._timer.isActive():
            self._timer.stop()
            self._submit()
        self._jobs.wait()

    def shutdown(self) -> None:
        """Stop the worker thread."""
        self._timer.stop()
        self._wanted.clear()
        self._jobs.shutdown()

    def _submit(self) -> None:
        """One job for every picture wanted; it supersedes the one running, whose
        pictures made so far are kept with their results."""
        wanted = list(self._wanted.items())
        if not wanted:
            self._announce_if_settled()
            return

        def job(report) -> list:
            for k, (_slot, request) in enumerate(wanted):
                report(k, len(wanted))  # superseded: stop here
                try:
                    pane_image(*request)
                except Exception as exc:
                    exc.qkv_request = request  # which picture failed, for ``_on_done``
                    raise
            return wanted
        self._jobs.submit(job)

    def _on_done(self, _job: int, done, error) -> None:
        if error is not None:  # a bug, or out of memory: reported once, not asked again
            failed = getattr(error, "qkv_request", None)
            known = False
            if failed is not None:
                result, key, head, _pixels = failed
                known = (key, head) in self._failed.get(result, ())
                self._failed.setdefault(result, set()).add((key, head))
                # every size of it asked for meanwhile fails the same way: none is made
                self._wanted = {s: r for s, r in self._wanted.items()
                                if r[:3] != failed[:3]}
                if self._wanted:  # the others of the job: made in a job of their own
                    self._timer.start()
            else:
                self._wanted.clear()
            if not known:
                sys.excepthook(type(error), error, error.__traceback__)
            return
        for slot, request in done:
            if self._wanted.get(slot) == request:
                del self._wanted[slot]
            result, key, head, _pixels = request
            self.ready.emit(result, key, head)
        self.delivered.emit()

    def _announce_if_settled(self, *_args) -> None:
        """``settled``, if nothing is left to make (the worker went idle, a wanted
        picture's plot was hidden, or the plots asked for nothing after all)."""
        if not self.pending:
            self.settled.emit()
