"""What the user points at: the hovered cell, the pinned cell and the head on show.

None of it is part of the session (it is not saved and not undone), but every pane
follows it, so it lives beside the state in the model. ``ViewSelection`` is the base
of ``AttentionModel``; ``follow(state)`` keeps it valid when the state changes shape.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from qkv_desktop.state.catalogue import CellRef, cell_in, follow_cell
from qkv_desktop.state.session_state import SessionState

__all__ = ["ViewSelection"]


class ViewSelection(QObject):
    """Hover, selection (pin) and current head, with a signal for each.

    Signals ``hoverChanged(object)`` / ``selectionChanged(object)`` carry a ``CellRef``
    or ``None``; ``currentHeadChanged(int)`` the head shown in the panes. Subclasses
    provide ``state``.
    """

    hoverChanged = Signal(object)
    selectionChanged = Signal(object)
    currentHeadChanged = Signal(int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._hover: CellRef | None = None
        self._selection: CellRef | None = None
        self._current_head = 0

    @property
    def state(self) -> SessionState:
        raise NotImplementedError

    @property
    def hover(self) -> CellRef | None:
        return self._hover

    @property
    def selection(self) -> CellRef | None:
        return self._selection

    @property
    def current_head(self) -> int:
        return self._current_head

    def set_hover(self, ref: CellRef | None) -> None:
        if ref != self._hover:
            self._hover = ref
            self.hoverChanged.emit(ref)

    def set_selection(self, ref: CellRef | None) -> None:
        if ref != self._selection:
            self._selection = ref
            self.selectionChanged.emit(ref)

    def set_current_head(self, head: int) -> None:
        head = self.state.head_index(head)
        if head != self._current_head:
            self._current_head = head
            self.currentHeadChanged.emit(head)

    def clear(self) -> None:
        """No hover and no pinned cell (a new session)."""
        self.set_hover(None)
        self.set_selection(None)

    def follow(self, state: SessionState, before: SessionState | None = None) -> None:
        """Keep the head and the cells within ``state`` (checked against the state, not
        the result, which keeps the old shapes until the recomputation has run). With the
        state ``before`` the change, a cell follows its tokens (``follow_cell``): an
        insert above a pinned cell moves the pin with it, a deleted token unpins it."""
        self.set_current_head(state.head_index(self._current_head))  # emits if it moved
        for ref, setter in ((self._hover, self.set_hover), (self._selection, self.set_selection)):
            if ref is None:
                continue
            if before is not None:
                setter(follow_cell(before, state, ref))
            elif not cell_in(state, ref):
                setter(None)
