"""Start-up timing: with ``QKV_EXIT_AFTER_FIRST_PAINT=1`` the app quits once painted.

The start-up benchmark (``tests/benchmarks/run.py``) sets the variable, starts the
app and reads the line this prints when the main window has painted for the first
time; the app then exits without running its event loop any further.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

__all__ = ["ENV", "requested", "exit_after_first_paint", "reported",
           "seconds_since_process_start"]

ENV = "QKV_EXIT_AFTER_FIRST_PAINT"
_IMPORTED = time.perf_counter()
_reported = False


def requested() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def seconds_since_process_start() -> float:
    """Wall time since the process started (from /proc; since this import elsewhere)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _IMPORTED


class _FirstPaint(QObject):
    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            obj.removeEventFilter(self)
            # The rest of the window paints in this same pass: report after it.
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        global _reported
        print(f"first paint {seconds_since_process_start():.3f} s", flush=True)
        _reported = True
        QCoreApplication.exit(0)


def reported() -> bool:
    """The first paint was reported. It may come before the main event loop runs (where
    events are processed before it, or in a dialog's loop), where ``exit`` leaves only
    that loop: the caller then must not start the main loop (a start-up run whose
    recovery question was open printed its time and then waited for ever)."""
    return _reported


def exit_after_first_paint(window) -> None:
    """Print the time to ``window``'s first paint, then quit the event loop."""
    probe = _FirstPaint(window)
    window.installEventFilter(probe)
