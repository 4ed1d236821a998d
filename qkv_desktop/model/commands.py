"""Undo commands: every change to the session is one of these on the model's stack.

``StateCommand`` swaps whole immutable states (cheap: unchanged arrays are shared)
and is used for structural changes. ``CellsCommand`` stores only the edited cells,
so a long editing session does not keep a copy of X per keystroke.

Applying a command is atomic: the new state is built completely before it is
installed. A command's first ``redo`` (inside ``push``) only installs a state built
before the command was even created, so a change that cannot be made raises before
any Qt object exists. A later ``undo`` or ``redo`` that fails marks its command obsolete, so
``QUndoStack`` drops it and the stack never holds a step that did not happen.

No exception ever leaves ``undo``/``redo``: they are C++ virtuals called by Qt, and
PySide 6.11 can crash (double free at the next garbage collection) when a Python
exception unwinds through them. A failure is handed to the model instead
(``report_command_failure``), which reports it (status message and ``sys.excepthook``,
i.e. the crash log). A command installs its state with the model's public
``install_state``; the states themselves are built by ``qkv_desktop.state.edits``.

A command also says where its change took the rows of the token tables (a ``RowMap``
from the edit, and its inverse for the undo), so the pinned cell follows its tokens
through the change, its undo and its redo. A command without one (a load) unpins.
"""

from __future__ import annotations

import time
import weakref
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtGui import QUndoCommand

from qkv_desktop.presentation.texts import say
from qkv_desktop.state.catalogue import RowMap
from qkv_desktop.state.edits import CellEdit, cell_text, write_cells
from qkv_desktop.state.session_state import SessionState
from qkv_desktop.state.texts import Text

if TYPE_CHECKING:
    from qkv_desktop.model.attention_model import AttentionModel

__all__ = ["StateCommand", "CellsCommand", "MERGE_WINDOW_S"]

MERGE_WINDOW_S = 1.5
"""Consecutive changes of the same control within this many seconds undo as one step."""

_STATE_ID = 1
_CELLS_ID = 2


_UNMOVED = RowMap()


def _install(command: QUndoCommand, model: AttentionModel, build,
             moved: RowMap | None) -> None:
    """Install the state ``build()`` returns (its token rows moved as ``moved`` says); on
    failure drop ``command`` and report it.

    Used by ``undo`` and by every ``redo`` after the first (see the module notes).
    """
    try:
        state = build()
    except Exception as exc:  # noqa: BLE001 -- must not unwind through Qt
        command.setObsolete(True)
        model.report_command_failure(command.text(), exc)
        return
    model.install_state(state, moved)


class _ModelCommand(QUndoCommand):
    """A command that acts on its model through a weak reference.

    The model owns the undo stack, which owns the commands; a strong reference back
    would make a cycle through Qt-owned objects that the garbage collector may tear
    down in an order PySide does not survive.
    """

    said: Text | None = None
    """The step's text as a ``Text`` (an edit's), said again in a new language by
    ``retranslate``; ``None`` for a text given already said (it stays as given)."""

    @property
    def _model(self) -> AttentionModel:
        return self._model_ref()

    def _name(self, text: str | Text) -> None:
        """The step's text: ``text`` said in the interface language, and kept to be
        said again if it is a ``Text``."""
        self.said = text if isinstance(text, Text) else None
        self.setText(say(text))

    def retranslate(self) -> None:
        """Say the step's text in the current interface language: "Undo 交叉注意力"
        stayed Chinese after View → Language → English."""
        if self.said is not None:
            self.setText(say(self.said))


class StateCommand(_ModelCommand):
    """Replace the model's state; merges with the next one of the same ``merge_key``:
    a control's name within ``MERGE_WINDOW_S``, a drag's (name, gesture) for the whole
    drag (a slow drag that paused was two steps)."""

    def __init__(self, model: AttentionModel, before: SessionState, after: SessionState,
                 text: str | Text, merge_key: str | tuple[str, int] | None = None,
                 moved: RowMap | None = None):
        super().__init__()
        self._name(text)
        self._model_ref, self.before, self.after = weakref.ref(model), before, after
        self.merge_key = merge_key
        self._moves(moved)
        self._stamp = time.monotonic()
        self.loads = False  # replaces the state by a load (preset, model): load_state
        # The head on show on each side of the step: a step that takes heads away (a
        # one-head preset loaded while head 2 was on show) leaves head 1 on show, and
        # its undo gave the two heads back with head 1 still on show (a review)
        self.head_before, self.head_after = model.current_head, None

    def _moves(self, moved: RowMap | None) -> None:
        """Where the step takes the token rows (None: unknown, a load) and back."""
        self.moved, self.back = moved, None if moved is None else moved.inverse()

    def redo(self) -> None:
        _install(self, self._model, lambda: self.after, self.moved)
        if self.head_after is not None and self._heads_changed():
            self._model.set_current_head(self.head_after)

    def undo(self) -> None:
        self.head_after = self._model.current_head
        _install(self, self._model, lambda: self.before, self.back)
        if self._heads_changed():  # any other step leaves the head the learner chose
            self._model.set_current_head(self.head_before)

    def _heads_changed(self) -> bool:
        return not self.isObsolete() and self.before.n_heads != self.after.n_heads

    def id(self) -> int:
        return _STATE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, StateCommand) or other.merge_key != self.merge_key:
            return False
        drag = isinstance(self.merge_key, tuple)
        if not drag and other._stamp - self._stamp > MERGE_WINDOW_S:
            return False
        self.after, self._stamp = other.after, other._stamp
        # the step's end: typing 16 into d_k said "Set d_k to 1"
        self._name(other.said or other.text())
        self._moves(None if self.moved is None or other.moved is None
                    else self.moved.then(other.moved))
        if self.after is self.before:
            self.setObsolete(True)
        return True


class CellsCommand(_ModelCommand):
    """Set cells of X or X_kv; a scrub gesture (same ``gesture`` key) merges into one."""

    def __init__(self, model: AttentionModel, edit: CellEdit, text: str | Text,
                 gesture: object = None):
        super().__init__()
        self._name(text)
        self._model_ref, self.table = weakref.ref(model), edit.table
        self.rows, self.cols, self.old, self.new = edit.rows, edit.cols, edit.old, edit.new
        self.cell = edit.cell if text == edit.text else None  # its text names the cell
        self.gesture = gesture
        self._first = edit.state  # built before the command exists (see the notes)
        # the provenance before and after: an undo back to a loaded model head is unedited
        self._provenance = (model.state.provenance, edit.state.provenance)

    def _build(self, values: np.ndarray, provenance) -> SessionState:
        state = write_cells(self._model.state, self.table, self.rows, self.cols, values)
        return state if state.provenance == provenance else state.with_(provenance=provenance)

    def redo(self) -> None:
        first, self._first = self._first, None
        _install(self, self._model,
                 (lambda: first) if first is not None
                 else (lambda: self._build(self.new, self._provenance[1])), _UNMOVED)

    def undo(self) -> None:
        _install(self, self._model, lambda: self._build(self.old, self._provenance[0]),
                 _UNMOVED)

    def id(self) -> int:
        return _CELLS_ID if self.gesture is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (not isinstance(other, CellsCommand) or other.gesture != self.gesture
                or other.table != self.table
                or not np.array_equal(other.rows, self.rows)
                or not np.array_equal(other.cols, self.cols)):
            return False
        self.new = other.new
        if self.cell is not None:  # a scrub: its first and its last value
            self._name(cell_text(self.cell, self.old[0], self.new[0]))
        return True
