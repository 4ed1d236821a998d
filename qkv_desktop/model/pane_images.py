"""``PaneImages``: the heatmap panes' pictures of large results, made off the GUI thread.

A pane of a 4096-token session reduces 16 million scores to the block means its pixels
can show, finds their colour levels and colours them: tens of milliseconds per pane,
eight panes per edit, which on the GUI thread stalled every edit (issue 20). So each
pane on screen says here what size it draws at (``show``); after the forward of a large
state the model's worker makes those panes' pictures (``plan``) before it hands the
result over, and the panes find them made (``presentation.pane_image``) and only wrap
their pixels. A picture not made that way (the pane was resized, another head was
chosen, a pane was just shown) is asked for with ``want``: it is made on a worker of
this object's own, and ``ready`` says when.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.presentation.pane_image import (
    PaneImage,
    display_factors,
    pane_image,
    prepared_image,
)
from qkv_desktop.presentation.pane_info import pane_relevant
from qkv_desktop.state.catalogue import matrix_shape
from qkv_desktop.state.compute import ModelResult

__all__ = ["PaneImages", "OFF_THREAD_CELLS"]

OFF_THREAD_CELLS = 1 << 18
"""Pictures of matrices with more cells than this (512 × 512) are made off the GUI
thread; a smaller one costs less than a frame and is made where it is asked for."""


def _large(result: ModelResult, key: str) -> bool:
    rows, cols = matrix_shape(result.state, key)
    return rows * cols > OFF_THREAD_CELLS


class PaneImages(QObject):
    """Which panes are on screen at which size, and their pictures of large results.

    ``ready(result, key, head)``: a picture ``want`` could not give at once is made.
    """

    ready = Signal(object, str, int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._panes: dict[str, tuple[float, float]] = {}  # key → (height, width) px
        self._wanted: dict[str, tuple[ModelResult, int, tuple[float, float]]] = {}
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._submit)
        self._jobs = LatestJobRunner("qkv-images", self)
        self._jobs.finished.connect(self._on_done)

    # ----------------------------------------------------------- the panes
    def show(self, key: str, pixels: tuple[float, float]) -> None:
        """Pane ``key`` is on screen and draws its matrix in ``pixels`` (height, width)."""
        self._panes[key] = pixels

    def hide(self, key: str) -> None:
        """Pane ``key`` is not on screen: no picture is made for it."""
        self._panes.pop(key, None)
        self._wanted.pop(key, None)

    @property
    def on_screen(self) -> dict[str, tuple[float, float]]:
        """The panes on screen and their sizes (a copy)."""
        return dict(self._panes)

    # ------------------------------------------------- with the forward
    def plan(self, head: int) -> Callable[[ModelResult], None]:
        """What the forward's worker does with a new result before handing it over:
        make the pictures of the panes on screen now, for ``head`` (all of them: it
        costs the GUI thread nothing, and a pane then only shows its picture)."""
        panes = dict(self._panes)

        def prepare(result: ModelResult) -> None:
            for key, pixels in panes.items():
                if not pane_relevant(result.state, key):
                    continue
                try:
                    pane_image(result, key, head, pixels)
                except Exception:  # noqa: BLE001,S112 -- the pane meets it again, and says so
                    continue
        return prepare

    # --------------------------------------------------- on their own
    @staticmethod
    def off_thread(result: ModelResult, key: str) -> bool:
        """Whether pane ``key``'s picture of ``result`` is made off the GUI thread (else
        the pane makes it when none is ``made``)."""
        return _large(result, key)

    @staticmethod
    def made(result: ModelResult, key: str, head: int,
             pixels: tuple[float, float]) -> PaneImage | None:
        """Pane ``key``'s picture of ``result`` for ``head`` at ``pixels``, if made."""
        factors = display_factors(matrix_shape(result.state, key), pixels)
        return prepared_image(result, key, head, factors)

    def want(self, result: ModelResult, key: str, head: int,
             pixels: tuple[float, float]) -> None:
        """Have pane ``key``'s picture of ``result`` for ``head`` at ``pixels`` made on
        the worker; ``ready`` says when."""
        request = (result, head, pixels)
        if self._wanted.get(key) != request:  # asked again (a repaint): already on its way
            self._wanted[key] = request
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
            return

        def job(report) -> list:
            for k, (key, (result, head, pixels)) in enumerate(wanted):
                report(k, len(wanted))  # superseded: stop here
                pane_image(result, key, head, pixels)
            return wanted
        self._jobs.submit(job)

    def _on_done(self, _job: int, done, error) -> None:
        if error is not None:  # a bug: log it; what was asked is not asked again
            sys.excepthook(type(error), error, error.__traceback__)
            self._wanted.clear()
            return
        for key, request in done:
            if self._wanted.get(key) == request:
                del self._wanted[key]
            self.ready.emit(request[0], key, request[1])
