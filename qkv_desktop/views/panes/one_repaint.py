"""``OneRepaint``: the panes' repaints after a new result, as one repaint of the window.

Each pane is a ``QGraphicsView`` with its own scene. When a scene has processed its
changed items (a queued call, one per scene), Qt sends the window's pending
``UpdateRequest`` at once (``QGraphicsViewPrivate::dispatchPendingUpdateRequests``):
the window is repainted and flushed once per pane, eight times per edit, each time
walking the window's widgets for the region of one pane (issue 20: 5 % of an edit's
instructions at n = 4). The panes' pixels do not depend on that order.

``hold()`` (once the panes have taken a new result, so after their scenes queued those
calls) holds the window's repaint requests back, and starts a 0 ms timer that repaints
the window once, with every pane's changes. Qt's GLib dispatcher delivers every posted
event (those calls, and the hold's own release) before it looks at a timer, so the
repaint comes after them. A ``hold()`` while holding moves the release after the calls
queued by then (pictures made on a worker reach the panes one by one:
``PaneImages.delivered`` ends them); a request held then is repainted once they have
run. A request held is never lost, and a stream of holds (one each pass of the event
loop) still repaints every time the timer fires.

Why a timer, not the release itself: the recompute, the window's repaint and the
read-outs after it were one block of the GUI thread, 16–24 ms at n = 4, where an input
event or a 16 ms frame timer waited for all of it (issue 20). The timer lets the timers
already due, and the input that came meanwhile, go between the recompute and the
paint; the paint is no later (the timer is due at once), and no timer started after
the result (a scrub's next recompute) comes before it. ``AfterPaint`` waits for it: its
own signal is a 0 ms timer started after this one.
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
        """Release events posted and not yet delivered."""
        self._held = False  # a repaint request came while holding
        self._sending = False  # the repaint's own request, not to be held
        self._release_timer = QTimer(self, singleShot=True, interval=0,
                                     timeout=self._release)
        """The repaint: due at once, after the events posted before it and the timers
        due before it."""
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
        # started now, so due before any timer started after the result: a scrub's next
        # edit (``OncePerFrame``) would start a recompute that, due first, replaced this
        # result before its paint
        if not self._release_timer.isActive():
            self._release_timer.start()
        QCoreApplication.postEvent(self, QEvent(_RELEASE),
                                   Qt.EventPriority.NormalEventPriority.value)

    def _watched(self) -> QWidget | None:
        return None if self._window is None else self._window()

    def eventFilter(self, obj, event) -> bool:
        if (not self._sending and (self._holding or self._release_timer.isActive())
                and obj is self._watched() and event.type() == QEvent.Type.UpdateRequest):
            self._held = True
            return True  # repainted by ``_release``
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() == _RELEASE:
            self._holding -= 1
            if not self._holding and self._held and not self._release_timer.isActive():
                self._release_timer.start()  # what was held since the timer fired
            return True
        return super().event(event)

    def _release(self) -> None:
        """Repaint what is held (all of it, even while a later hold's release is on its
        way: a stream of holds must not hold the window back for good)."""
        if not self._held:
            return
        self._held = False
        window = self._watched()
        if window is not None:
            self.repaints += 1
            self._sending = True
            try:
                QCoreApplication.sendEvent(window, QEvent(QEvent.Type.UpdateRequest))
            finally:
                self._sending = False
