"""Undo commands: every change to the session is one of these on the model's stack.

``StateCommand`` swaps whole immutable states (cheap: unchanged arrays are shared)
and is used for structural changes. ``CellsCommand`` stores only the edited cells,
so a long editing session does not keep a copy of X per keystroke.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtGui import QUndoCommand

from .state import SessionState

if TYPE_CHECKING:
    from .attention_model import AttentionModel

__all__ = ["StateCommand", "CellsCommand", "MERGE_WINDOW_S"]

MERGE_WINDOW_S = 1.5
"""Consecutive changes of the same control within this many seconds undo as one step."""

_STATE_ID = 1
_CELLS_ID = 2


class StateCommand(QUndoCommand):
    """Replace the model's state; merges with the next one of the same ``merge_key``."""

    def __init__(self, model: "AttentionModel", before: SessionState, after: SessionState,
                 text: str, merge_key: str | None = None):
        super().__init__(text)
        self._model, self.before, self.after = model, before, after
        self.merge_key = merge_key
        self._stamp = time.monotonic()

    def redo(self) -> None:
        self._model._set_state(self.after)

    def undo(self) -> None:
        self._model._set_state(self.before)

    def id(self) -> int:
        return _STATE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, StateCommand) or other.merge_key != self.merge_key:
            return False
        if other._stamp - self._stamp > MERGE_WINDOW_S:
            return False
        self.after, self._stamp = other.after, other._stamp
        if self.after is self.before:
            self.setObsolete(True)
        return True


class CellsCommand(QUndoCommand):
    """Set cells of X or X_kv; a scrub gesture (same ``gesture`` key) merges into one."""

    def __init__(self, model: "AttentionModel", table: str, rows: np.ndarray,
                 cols: np.ndarray, old: np.ndarray, new: np.ndarray, text: str,
                 gesture: object = None):
        super().__init__(text)
        self._model, self.table = model, table
        self.rows, self.cols, self.old, self.new = rows, cols, old, new
        self.gesture = gesture

    def _apply(self, values: np.ndarray) -> None:
        state = self._model.state
        X = getattr(state, self.table).copy()
        X[self.rows, self.cols] = values
        self._model._set_state(state.with_(**{self.table: X}))

    def redo(self) -> None:
        self._apply(self.new)

    def undo(self) -> None:
        self._apply(self.old)

    def id(self) -> int:
        return _CELLS_ID if self.gesture is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (not isinstance(other, CellsCommand) or other.gesture != self.gesture
                or other.table != self.table
                or not np.array_equal(other.rows, self.rows)
                or not np.array_equal(other.cols, self.cols)):
            return False
        self.new = other.new
        return True
