"""What the user points at: the hovered cell, the pinned cell and the head on show.

None of it is part of the session's state (it is not undone), but every pane follows
it, so it lives beside the state in the model. The head on show is saved with the
session as a view of it (the file's ``layout.head``, ``SessionController``). ``ViewSelection`` is the base
of ``AttentionModel``; ``follow`` keeps it valid when the state changes.

The hover is where the cursor is: a position in the pane, kept while the pane keeps its
shape. The pin is a pair of tokens: it follows them through an insert, delete or move
(the change's ``RowMap``). Until the result of such a change comes, the panes and the
Explain panel still show the result before it, where the pin was elsewhere: views show
``shown_selection``, the pin as the result on display has it, never the pin of another
state on that result.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from qkv_desktop.state.catalogue import CellRef, RowMap, cell_in, matrix_shape, move_cell
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
        self._pins: list[tuple[int, CellRef | None]] = [(-1, None)]
        """The pin from each generation on (the last: ``selection``), back to the one of
        the result on display (``shown_selection``)."""
        self._shown_generation = -1
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
    def shown_selection(self) -> CellRef | None:
        """The pinned cell as the result on display has it: what views outline and
        explain. It is ``selection`` but between a change that moved the pin with its
        tokens and that change's result, when it is where the pin was in that result."""
        for since, ref in reversed(self._pins):
            if since <= self._shown_generation:
                return ref
        return None

    def pins_shown(self, generation: int) -> None:
        """The result of state ``generation`` is on display (before ``resultChanged``)."""
        self._shown_generation = generation
        while len(self._pins) > 1 and self._pins[1][0] <= generation:
            del self._pins[0]

    @property
    def current_head(self) -> int:
        return self._current_head

    def set_hover(self, ref: CellRef | None) -> None:
        if ref != self._hover:
            self._hover = ref
            self.hoverChanged.emit(ref)

    def set_selection(self, ref: CellRef | None) -> None:
        """Pin ``ref`` (a click: a cell of the result on display), or unpin."""
        if ref != self._selection:
            self._pins = [(-1, ref)]
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

    def follow(self, state: SessionState, before: SessionState, moved: RowMap | None,
               generation: int) -> None:
        """Keep the head and the cells within ``state``, state ``generation``, which
        replaced ``before`` moving the token rows as ``moved`` says (None: unknown).

        The pin follows its tokens (``move_cell``); it is let go when one of them is
        deleted, or with no map (a load). The hover stays where it is while its matrix
        keeps its shape, else it goes (the pane under the cursor sets it again).
        """
        self.set_current_head(state.head_index(self._current_head))  # emits if it moved
        hover = self._hover
        if hover is not None and (matrix_shape(before, hover.matrix)
                                  != matrix_shape(state, hover.matrix)
                                  or not cell_in(state, hover)):
            self.set_hover(None)
        if self._selection is None:
            return
        pin = move_cell(self._selection, before, state, moved)
        if pin != self._selection:
            self._pins.append((generation, pin))
            self._selection = pin
            self.selectionChanged.emit(pin)
