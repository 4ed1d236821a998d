"""Views that do their work only when a user can see them."""

from __future__ import annotations

from PySide6.QtCore import QTimer

__all__ = ["RefreshWhenShown"]


class RefreshWhenShown:
    """Mixin for a ``QWidget`` whose ``refresh()`` skips work while it is hidden.

    ``refresh()`` records what it drew in ``self._shown`` as ``(result, head)``; when
    the widget is shown, or painted while out of date, it catches up.
    """

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    def paintEvent(self, event) -> None:
        """A dock brought to the front of its tab group may get no show event: catch up."""
        if self._shown != (self.model.result, self.model.current_head):
            QTimer.singleShot(0, self.refresh)
        super().paintEvent(event)
