"""``OneRepaint``: the panes' repaints after a new result, as one repaint of the window.

Each pane is a ``QGraphicsView`` with its own scene. When a scene has processed its
changed items (a queued call, one per scene), Qt sends the window's pending
``UpdateRequest`` at once (``QGraphicsViewPrivate::dispatchPendingUpdateRequests``):
the window is repainted and flushed once per pane, eight times per edit, each time
walking the window's widgets for the region of one pane (issue 20: 5 % of an edit's
instructions at n = 4). The panes' pixels do not depend on that order.

``hold()`` (once the panes have taken a new result, so after their scenes queued those
calls) holds the window's repaint requests back until the calls queued by then have
run, then repaints the window once, with every pane's changes, still before any event
of lower priority (the read-outs that ``AfterPaint`` starts after the paint). A request
held is never lost: the window is repainted as soon as those calls have run. A
``hold()`` while holding moves the release after the calls queued by then (pictures
made on a worker reach the panes one by one: ``PaneImages.delivered`` ends them).

The repaint itself waits for a 0 ms timer, started by ``hold()``. Qt's GLib dispatcher
delivers every posted event before it looks at a timer, so the recompute, the window's
repaint and the read-outs after it were one block of the GUI thread: 16–24 ms at
n = 4, where an input event or a 16 ms frame timer waited for all of it (issue 20).
The timer lets the timers already due, and the input that came meanwhile, go between
the recompute and the paint; the paint is no later (the timer is due at once), and no
timer started after the result (a scrub's next recompute) comes before it.
``AfterPaint`` waits for it: its own signal is a 0 ms timer started after this one.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget

__all__ = ["OneRepaint"]

_RELEASE = QEvent.Type(QEvent.registerEventType())


class OneRepaint(QObject):
    """Holds back the repaints of ``widget``'s window from ``hold()`` until the events
    queued by then have been delivered, then repaints the window once."""

    def __init__(self, widget: QWidget):
        super().__init__(widget)  # the widget and its window: asked, never kept (no cycle)
        self._window: weakref.ref[QWidget] | None = None
        self._holding = 0
        """Release events posted and not yet delivered: the last one releases."""
        self._held = False  # a repaint request came while holding
        self._release_timer = QTimer(self)
        """The repaint, once the calls held for are delivered (a 0 ms timer: timers due
        and input go first)."""
        self._release_timer.setSingleShot(True)
        self._release_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._release_timer.setInterval(0)
        self._release_timer.timeout.connect(self._release)
        self.repaints = 0
        """Window repaints made here, for held requests (tests)."""

    def hold(self) -> None:
        """Hold the window's repaint requests until the events posted so far are
        delivered: call it after the panes have taken the new result (their scenes'
        queued calls, which ask for the repaints, are then posted)."""
        window = self.parent().window()
        if window is not self._watched():
            if self._watched() is not None:
                self._watched().removeEventFilter(self)
            self._window = weakref.ref(window)
            window.installEventFilter(self)
        self._holding += 1
        # Started now, so due before the timers started after the result: the next
        # edit of a scrub (``OncePerFrame``) would start a recompute that, due first,
        # replaced this result before its paint. It repaints once the release is
        # delivered (Qt delivers posted events before it looks at timers).
        if not self._release_timer.isActive():
            self._release_timer.start()
        # delivered after the scenes' calls posted before it, and before any event of
        # lower priority (the release then starts the repaint's timer ahead of
        # ``AfterPaint``'s)
        QCoreApplication.postEvent(self, QEvent(_RELEASE),
                                   Qt.EventPriority.NormalEventPriority.value)

    def _watched(self) -> QWidget | None:
        return None if self._window is None else self._window()

    def eventFilter(self, obj, event) -> bool:
        if ((self._holding or self._release_timer.isActive()) and obj is self._watched()
                and event.type() == QEvent.Type.UpdateRequest):
            self._held = True
            return True  # repainted by ``_release``
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() == _RELEASE:
            self._holding -= 1
            if not self._holding and not self._release_timer.isActive():
                self._release_timer.start()  # (it fired while a release was on its way)
            return True
        return super().event(event)

    def _release(self) -> None:
        if self._holding or not self._held:
            return  # (a release on its way starts the timer again)
        self._held = False
        window = self._watched()
        if window is not None:
            self.repaints += 1
            QCoreApplication.sendEvent(window, QEvent(QEvent.Type.UpdateRequest))
