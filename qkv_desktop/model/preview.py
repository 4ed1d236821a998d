"""Live previews: states shown without an undo step, then committed as one.

The gradient lab shows every training step in all panes, but a run of 200 steps must
undo as one step, and none of its intermediate states belongs in the history. A
``LivePreview`` installs each shown state on its model directly and remembers the
state before the first one; ``commit`` turns everything shown since into one
``StateCommand``. Kept beside ``AttentionModel`` (which owns one, as ``preview``) so
that the model itself holds only the state, its undo stack and the recomputation.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot

from qkv_desktop.model.commands import StateCommand
from qkv_desktop.state.catalogue import RowMap
from qkv_desktop.state.session_state import SessionState
from qkv_desktop.state.texts import Text

if TYPE_CHECKING:
    from qkv_desktop.model.attention_model import AttentionModel

__all__ = ["LivePreview"]

_TRAINED = RowMap()
"""A preview (training) changes values and weights, never which token is in which row."""


class LivePreview(QObject):
    """The preview of one model. ``ended`` tells the trainer to stop: the preview was
    committed, or an undo, redo, New or Open replaced the state it was showing."""

    ended = Signal()

    def __init__(self, model: AttentionModel):
        super().__init__(model)
        self._model_ref = weakref.ref(model)  # the model owns this object: no cycle
        self._start: tuple[SessionState, str | Text] | None = None

    @property
    def active(self) -> bool:
        """Whether a state is shown that the undo history does not hold yet."""
        return self._start is not None

    def show(self, state: SessionState, text: str | Text) -> None:
        """Install ``state`` without an undo step; the step to come is called ``text``
        (a ``Text`` is said again on a language change, ``StateCommand``).

        An edit meanwhile commits the preview first (so the history stays a chain of
        real states).
        """
        model = self._model_ref()
        self._start = (model.state if self._start is None else self._start[0], text)
        model.install_state(state, _TRAINED)

    def commit(self) -> None:
        """The state shown by ``show`` becomes one undoable step (if it changed)."""
        if self._start is None:
            return
        (before, text), self._start = self._start, None
        self.ended.emit()
        model = self._model_ref()
        if not model.state.equals(before):
            model.undo_stack.push(StateCommand(model, before, model.state, text,
                                               moved=_TRAINED))

    @Slot()
    def drop(self) -> None:
        """Forget the preview without a step (its state has been replaced): the model
        connects its undo stack's ``indexChanged`` here, so an undo or redo ends it."""
        if self._start is not None:
            self._start = None
            self.ended.emit()
