"""``AfterPaint``: a signal once the window has painted what it was asked to.

A widget's repaint is an ``UpdateRequest`` event posted at low priority; events of one
priority are delivered in the order they were posted. So an event of our own, posted
at low priority after a widget asked for a repaint, arrives once that repaint is done.
A 0 ms timer alone does not: when the request to repaint was made while Qt delivered
posted events (a worker's result arrives as one), the repaint waits for Qt's next
pass, and due timers fire before it. Work that would compete with the panes' paint for
the CPU or the GIL (the lesson read-outs' row threads, the next frame of a scrub)
starts here instead (issue 20).

The panes' repaint of a result is itself made from a 0 ms timer, started once they
have taken the result (``views/panes/one_repaint.py``: timers due and input go between
the recompute and the paint). So the event starts a 0 ms timer of its own, and
``painted`` is emitted from it: Qt fires timers that are due in the order of their due
times, so after the repaint's; and from there one more event at low priority, after
any repaint asked for by then (a scene's changes reach the window through a chain of
queued calls, which can end after the timer's repaint).

The owner connects to ``painted`` rather than handing over a callback: a bound method
kept in the attributes of a Qt child of its owner is a reference cycle through a
Qt-owned object, which only Python's cyclic garbage collector can break, and PySide
6.11 crashes when that collector deletes a ``QUndoStack`` of Python commands
(``QUndoStack::clear`` in ``~QUndoStack``). A signal connection holds no reference.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal

__all__ = ["AfterPaint"]

_AFTER_PAINT = QEvent.Type(QEvent.registerEventType())
_AFTER_TIMERS = QEvent.Type(QEvent.registerEventType())


class AfterPaint(QObject):
    """``request()``: ``painted`` is emitted once the repaints asked for by then are
    painted (once, however often it was requested meanwhile); ``cancel()`` drops it."""

    painted = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._outstanding = 0  # events posted and not yet arrived
        self._wanted = False  # ``painted`` is emitted when the last one arrives
        # then after the timers started before it (the panes' repaint)
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._emit)

    @property
    def pending(self) -> bool:
        """Whether ``painted`` is still to be emitted."""
        return self._wanted

    def request(self) -> None:
        """Emit ``painted`` after the repaints asked for so far (a repaint asked for
        after an earlier request, before its event arrived, is waited for too)."""
        self._wanted = True
        self._outstanding += 1
        QCoreApplication.postEvent(self, QEvent(_AFTER_PAINT),
                                   Qt.EventPriority.LowEventPriority.value)

    def cancel(self) -> None:
        self._wanted = False
        self._timer.stop()

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (_AFTER_PAINT, _AFTER_TIMERS):
            return super().event(event)
        self._outstanding -= 1
        if self._wanted and not self._outstanding:
            if kind == _AFTER_PAINT:
                self._timer.start()  # after the repaint's timer…
            else:
                self._wanted = False
                self.painted.emit()
        return True

    def _emit(self) -> None:
        """…and after the repaints its paint asked for meanwhile (a scene's update
        that reached the window after the timer's repaint is one more posted event)."""
        if self._wanted and not self._outstanding:
            self._outstanding += 1
            QCoreApplication.postEvent(self, QEvent(_AFTER_TIMERS),
                                       Qt.EventPriority.LowEventPriority.value)
