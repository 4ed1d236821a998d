"""``OncePerFrame``: the values of a drag applied about once per display frame.

A mouse reports 125 to 1000 moves a second; a drag that made each move an edit (an
undo step merged into the drag's, a table update, a state for the next forward, about
1 ms on the GUI thread at any n) kept the GUI thread busy: at n = 1024, where a frame
takes 30–35 ms, eight moves a frame held it for 16–20 ms at a time (issue 20). The
first move after a pause applies at once; the moves of the next frame only replace
the value waiting, which applies when that frame ends (not in step with the screen's
refresh), and the release applies the last one. Used by the tables' Ctrl+drag scrub
(``MatrixEditor``) and the RoPE lab's base slider.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QScreen

__all__ = ["OncePerFrame", "SCRUB_INTERVAL_MS", "scrub_interval_ms"]

SCRUB_INTERVAL_MS = 16
"""About one edit per display frame of a 60 Hz screen (``scrub_interval_ms`` for others)."""

_NOTHING = object()


def scrub_interval_ms(screen: QScreen | None) -> int:
    """One display frame of ``screen`` in whole milliseconds, rounded down (a frame's
    edit is never late for it), or ``SCRUB_INTERVAL_MS`` when it reports no refresh
    rate: a 144 Hz screen shows a scrub at up to 144 frames a second."""
    rate = screen.refreshRate() if screen is not None else 0.0
    return max(4, int(1000 / rate)) if rate and rate > 0 else SCRUB_INTERVAL_MS


class OncePerFrame(QObject):
    """Hands the newest value ``offer``-ed to ``apply`` at most once a frame.

    ``begin(screen)`` at the press (the frame of the screen the drag is on), ``offer``
    at each move, ``end()`` at the release (the value waiting applies, nothing after).
    """

    def __init__(self, parent: QObject, apply: Callable[[object], None]):
        super().__init__(parent)
        self._apply = apply
        self._pending = _NOTHING
        self._timer = QTimer(self, singleShot=True, interval=SCRUB_INTERVAL_MS,
                             timeout=self.flush)

    def begin(self, screen: QScreen | None) -> None:
        """A drag starts on ``screen``: one frame of it between applied values."""
        self._timer.setInterval(scrub_interval_ms(screen))

    @property
    def waiting(self) -> bool:
        """Whether a value is offered and not applied yet."""
        return self._pending is not _NOTHING

    def offer(self, value) -> None:
        """The drag's newest value: applied now if no frame is running, else when it ends."""
        self._pending = value
        if not self._timer.isActive():
            self.flush()

    def flush(self) -> None:
        """Apply the value waiting (if any), then let the next one wait a frame."""
        if self._pending is _NOTHING:
            return
        value, self._pending = self._pending, _NOTHING
        self._timer.start()
        self._apply(value)

    def end(self) -> None:
        """The drag ended: the value waiting applies (the one the drag ended on), and
        nothing waits after it."""
        self.flush()
        self._timer.stop()
        self._pending = _NOTHING
