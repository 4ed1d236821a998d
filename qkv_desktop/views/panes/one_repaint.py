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
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
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
        # delivered after the scenes' calls posted before it, and before any event of
        # lower priority, as the first scene's own repaint would have been
        QCoreApplication.postEvent(self, QEvent(_RELEASE),
                                   Qt.EventPriority.NormalEventPriority.value)

    def _watched(self) -> QWidget | None:
        return None if self._window is None else self._window()

    def eventFilter(self, obj, event) -> bool:
        if (self._holding and obj is self._watched()
                and event.type() == QEvent.Type.UpdateRequest):
            self._held = True
            return True  # repainted by ``_release``
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() == _RELEASE:
            self._holding -= 1
            if not self._holding:
                self._release()
            return True
        return super().event(event)

    def _release(self) -> None:
        if not self._held:
            return
        self._held = False
        window = self._watched()
        if window is not None:
            self.repaints += 1
            QCoreApplication.sendEvent(window, QEvent(QEvent.Type.UpdateRequest))
