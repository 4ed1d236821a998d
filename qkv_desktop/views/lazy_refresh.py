"""Views that do their work only when a user can see them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QTimer

__all__ = ["RefreshWhenShown", "refreshes_held"]

_held = 0


@contextmanager
def refreshes_held() -> Iterator[None]:
    """While the docks are moved about (``Teaching.place_docks``): a view shown in
    passing, on its way behind a tab, does no work. Taking a dock out of a tab group
    showed each of its docks for a moment, and the QKᵀ | KKᵀ view reduced a 2048 × 2048
    matrix on the GUI thread. A view left on screen is painted, and catches up then
    (``paintEvent``)."""
    global _held
    _held += 1
    try:
        yield
    finally:
        _held -= 1


class RefreshWhenShown:
    """Mixin for a ``QWidget`` whose ``refresh()`` skips work while it is hidden.

    ``refresh()`` starts with ``due = self._due()`` and returns when it is ``None``;
    when the widget is shown, or painted while out of date, it catches up. The one
    mechanism for every lazy view: the heatmap panes, the teaching docks, the RoPE lab
    and the scaling lab's session tab (a view whose own controls change the picture
    calls ``redraw_due`` first). ``_on_screen`` says what "shown" means for a view;
    ``redraw_due`` forgets what is on display (e.g. after a language switch).

    A view connects the model's ``resultCleared`` to ``_on_result_cleared``: what it
    shows was the session closed before (an Open whose values do not compute), so a
    docked view is greyed out until a result of this session comes, and a lab window
    says so above its content (greyed, its Close button and Esc went too).
    """

    _shown = None  # the (result, head) on display

    def _on_screen(self) -> bool:
        """Whether a user can see the view now (on screen, not covered by its dock tab)."""
        return not _held and self.isVisible() and not self.visibleRegion().isEmpty()

    def redraw_due(self) -> None:
        """Draw again at the next ``refresh`` even if the result has not changed."""
        self._shown = None

    def _on_result_cleared(self) -> None:
        self._shown = None
        if not self.isWindow():
            self.setEnabled(False)
        elif hasattr(self, "show_error"):  # a lab window keeps its controls and Close
            self._cleared_said = True
            self.show_error(QCoreApplication.translate(
                "RefreshWhenShown", "The session opened does not compute (the main "
                "window says why): this shows the session before it until it does."))

    def _due(self):
        """``(result, head)`` to draw now, or ``None`` when hidden or already shown."""
        result = self.model.result
        if result is not None and not self.isEnabled():  # ``_on_result_cleared``'s
            self.setEnabled(True)  # (drawn anew: ``_shown`` is None)
        if result is not None and getattr(self, "_cleared_said", False):
            self._cleared_said = False
            self.show_error("")
        if result is None or not self._on_screen():
            return None
        due = (result, self.model.current_head)
        if self._shown == due:
            return None
        self._shown = due
        return due

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    def paintEvent(self, event) -> None:
        """A dock brought to the front of its tab group may get no show event: catch up."""
        if self._shown != (self.model.result, self.model.current_head):
            QTimer.singleShot(0, self.refresh)
        super().paintEvent(event)
