"""``IdleMemory``: a session left alone gives back the memory kept for its next forward.

The core's buffer pool (``core.buffers``) keeps the memory of dropped results, up to
512 MB (two score matrices at n = 8192 in float32), so that while the user edits the
next forward writes into it instead of fresh pages the kernel must clear first. A
session left alone kept it for nothing, for as long as the window stayed open (issue
20). After ``IDLE_MS`` without a new result the pool lets go of its free buffers and
glibc hands the freed heap back to the system (``malloc_trim``); the first forward
after that takes fresh pages once (n = 1024: a few milliseconds).

Unmapping hundreds of megabytes takes the kernel tens of milliseconds, so the release
runs on a short-lived thread of its own, never on the GUI thread.
"""

from __future__ import annotations

import ctypes
import sys
import threading

from PySide6.QtCore import QObject, QTimer

from qkv_desktop.core import buffers

__all__ = ["IdleMemory", "IDLE_MS", "release_idle_memory"]

IDLE_MS = 30_000
"""How long without a new result before the kept memory goes back: longer than any
pause within an editing session, short next to a window left open."""


def _malloc_trim() -> None:
    """glibc's ``malloc_trim(0)``: free heap pages back to the system (elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    trim(0)


def release_idle_memory() -> None:
    """Let the pool's free buffers go and trim the heap (any thread)."""
    buffers.release_free()
    _malloc_trim()


class IdleMemory(QObject):
    """Gives the kept memory back once no result has come for ``idle_ms``.

    ``active()`` (the model calls it for every result it shows) restarts the wait.
    ``released`` counts the releases started (tests).
    """

    def __init__(self, parent: QObject | None = None, idle_ms: int = IDLE_MS):
        super().__init__(parent)
        self.released = 0
        self._timer = QTimer(self, singleShot=True, interval=idle_ms, timeout=self._release)

    def active(self) -> None:
        """A result was shown: wait ``idle_ms`` again from now."""
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _release(self) -> None:
        self.released += 1
        threading.Thread(target=release_idle_memory, name="qkv-release-memory",
                         daemon=True).start()
