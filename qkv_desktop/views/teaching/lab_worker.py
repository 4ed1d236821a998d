"""Run a lab's long computation (training) on a thread of its own, with a Stop that works.

The job is a plain function ``job(report, stopped)``: it calls ``report(value)`` as it
goes and checks ``stopped()`` (or waits on it) between steps. ``progress``, ``finished``
and ``failed`` arrive on the GUI thread (queued signals), so the window never freezes
and the job never touches a widget.
"""

from __future__ import annotations

import sys
import threading

from PySide6.QtCore import QObject, Signal

__all__ = ["LabWorker"]


class LabWorker(QObject):
    """One job at a time; ``stop()`` asks it to end and returns at once."""

    progress = Signal(object)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, job) -> None:
        if self.running:
            raise RuntimeError("a job is already running")
        self._stop = threading.Event()
        stop = self._stop

        def run() -> None:
            try:
                result = job(self.progress.emit, stop)
            except ValueError as exc:  # bad input or a diverging run: the user's to fix
                self.failed.emit(str(exc))
            except Exception as exc:  # noqa: BLE001 -- a bug: logged, and reported
                sys.excepthook(type(exc), exc, exc.__traceback__)
                self.failed.emit(str(exc))
            else:
                self.finished.emit(result)

        self._thread = threading.Thread(target=run, name="qkv-lab", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float = 5.0) -> None:
        """Stop and wait for the thread (closing the window)."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout)
