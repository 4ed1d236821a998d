"""File → Open model…: the menu entry, and where the session's data came from.

``ModelActions`` adds the menu entry, keeps the opened checkpoint for the next visit,
and shows in the status bar which model, layer and head the session came from (without
touching ``SessionState``). The dialog itself (``model_dialog``) and the checkpoint
readers it needs (safetensors, GGUF, tokenizers) are imported when the entry is first
used, so that start-up does not pay for them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu
from shiboken6 import isValid

from qkv_desktop.model import AttentionModel
from qkv_desktop.model.commands import StateCommand
from qkv_desktop.state import SessionState
from qkv_desktop.views.dialogs.decoder_panel import DecoderPanel
from qkv_desktop.views.retranslate import FollowsWindowLanguage

if TYPE_CHECKING:
    from qkv_desktop.io.checkpoint import BertCheckpoint
    from qkv_desktop.io.gguf_checkpoint import LlamaCheckpoint, NextToken
    from qkv_desktop.views.dialogs.model_dialog import ModelDialog

__all__ = ["ModelActions", "ModelSource"]


@dataclass(frozen=True)
class ModelSource:
    """Where a session came from: a checkpoint, a sentence, a layer and a head.

    ``layer`` and ``head`` are 0-based indices; the window shows them counted from 1,
    out of ``n_layers`` and ``n_heads``.

    ``checkpoint`` is the opened model (None for a session reopened from a file);
    ``next_tokens`` is a decoder's top-5 prediction after the text.
    """

    name: str
    folder: Path
    text: str
    layer: int
    head: int
    n_layers: int = 0
    n_heads: int = 0
    kind: str = "encoder"
    checkpoint: object | None = None
    next_tokens: tuple[NextToken, ...] = ()
    scope: str = "head"  # "layer": every query head of the layer, as a multi-head session

    def provenance(self) -> dict:
        """The session file's "model" object (``io.session``)."""
        ckpt = self.checkpoint
        if ckpt is not None and hasattr(ckpt, "provenance"):
            return ckpt.provenance(self.text, self.layer, self.head, self.scope)
        return {"name": self.name, "kind": self.kind, "source": "folder",
                "location": str(self.folder), "text": self.text, "layer": int(self.layer),
                "head": int(self.head), "n_layers": int(self.n_layers),
                "n_heads": int(self.n_heads)}

    @classmethod
    def from_provenance(cls, value: dict) -> ModelSource:
        return cls(value["name"], Path(value.get("location", "")), value["text"],
                   value["layer"], value["head"], value.get("n_layers", 0),
                   value.get("n_heads", 0), value.get("kind", "encoder"),
                   scope=value.get("scope", "head"))


class ModelActions(FollowsWindowLanguage, QObject):
    """File → Open model… for ``window``, and a status-bar label naming the data's source.

    The label follows the undo stack: it names the checkpoint, layer and head of the
    most recent model load still in effect, says "edited" once the session has changed
    since, and disappears when that load is undone or the session is replaced. With a
    ``session`` controller the source is saved in the session file (its "model" object)
    and shown again when the file is reopened. A decoder's session also gets the
    decoder panel (``DecoderPanel``): next tokens, GQA, RoPE, the attention sink, and
    instant switching between layers and heads.

    ``sourceChanged(name)``: the checkpoint the weights come from, or ``None`` (for
    seeded random weights).
    """

    sourceChanged = Signal(object)

    def __init__(self, window: QMainWindow, model: AttentionModel, settings: QSettings | None,
                 menu: QMenu, before: QAction | None = None, session=None):
        super().__init__(window)
        self.window, self.model, self.settings = window, model, settings
        self.checkpoint: BertCheckpoint | LlamaCheckpoint | None = None
        self.dialog: ModelDialog | None = None
        self._sources: dict[SessionState, ModelSource] = {}
        self._restored: tuple[SessionState, ModelSource] | None = None
        self.panel = DecoderPanel(model, self.switch_head, self.load_layer, window)
        self.panel.hide()
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel)
        if session is not None:
            session.extras.append(self.session_extra)
            session.opened.connect(self._on_session_opened)
            session.fileChanged.connect(self._on_file_changed)
        self.open_model_action = QAction(window, objectName="openModel")
        self.open_model_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.open_model_action.triggered.connect(self.open_dialog)
        menu.insertAction(before, self.open_model_action)
        self.source_label = QLabel(objectName="modelSource")
        self.source_label.hide()
        window.statusBar().addPermanentWidget(self.source_label)
        model.undo_stack.indexChanged.connect(self._update_source)
        self.follow_language_of(window)
        self.retranslate()

    def retranslate(self) -> None:
        self.open_model_action.setText(self.tr("Open &model…"))
        tip = self.tr("Explore one attention head of a real model: a BERT encoder or a LLaMA "
                      "decoder such as SmolLM2 (Ctrl+Shift+O)")
        self.open_model_action.setToolTip(tip)
        self.open_model_action.setStatusTip(tip)
        self._update_source()


    @property
    def source(self) -> ModelSource | None:
        """Where the current session came from, if from a model load still in effect."""
        found = self._current_load()
        return found[0] if found else None

    def open_dialog(self) -> ModelDialog:
        """Show the dialog (window-modal, not blocking); it deletes itself when closed."""
        from qkv_desktop.views.dialogs.model_dialog import ModelDialog
        dialog = ModelDialog(self.model, self.settings, self.checkpoint, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.checkpointOpened.connect(self._remember_checkpoint)
        dialog.loaded.connect(self._on_loaded)
        dialog.finished.connect(lambda _r: setattr(self, "dialog", None))
        self.dialog = dialog
        dialog.open()
        return dialog

    def _remember_checkpoint(self, checkpoint) -> None:
        self.checkpoint = checkpoint

    def _on_loaded(self, source: ModelSource) -> None:
        self._sources[self.model.state] = source
        self._update_source()

    def switch_head(self, layer: int, head: int) -> None:
        """Show another layer or head of the current decoder load, as one undoable step.

        The checkpoint has every layer's input cached, so this takes milliseconds.
        ``ValueError`` (a layer or head out of range) leaves the session as it was.
        """
        current = self.source
        if current is None or current.checkpoint is None:
            raise ValueError(self.tr("the session did not come from an opened model"))
        ckpt = current.checkpoint
        state = ckpt.session_state(current.text, layer, head)
        source = replace(current, layer=layer, head=head, scope="head")
        self.model.load_state(state, self.tr("Load {0}, layer {1} · head {2}")
                              .format(current.name, layer + 1, head + 1))
        self._on_loaded(source)

    def load_layer(self, layer: int, head: int) -> None:
        """Every query head of ``layer`` as one multi-head session (with W_O), showing
        ``head``: the heads overview then groups the heads by the key/value head they
        share. One undoable step; ``ValueError`` leaves the session as it was."""
        current = self.source
        if current is None or current.checkpoint is None:
            raise ValueError(self.tr("the session did not come from an opened model"))
        ckpt = current.checkpoint
        state = ckpt.layer_state(current.text, layer)
        source = replace(current, layer=layer, head=head, scope="layer")
        self.model.load_state(state, self.tr("Load {0}, layer {1} · all {2} heads")
                              .format(current.name, layer + 1, ckpt.n_heads))
        self.model.set_current_head(head)
        self._on_loaded(source)

    def session_extra(self) -> dict:
        """The session file's "model" object, while a model load is in effect."""
        source = self.source
        return {} if source is None else {"model": source.provenance()}

    def _on_session_opened(self, state: SessionState, extra: dict) -> None:
        value = (extra or {}).get("model")
        self._restored = None if value is None else (state, ModelSource.from_provenance(value))
        self._update_source()

    def _on_file_changed(self, path: str) -> None:
        if not path:  # a new, unsaved session: not from the model any more
            self._restored = None
            self._update_source()

    def _current_load(self) -> tuple[ModelSource, bool] | None:
        """(source, edited since) of the newest model load at or below the undo index, or
        of the session file it was reopened from."""
        found = self._current_load_state()
        if found is not None:
            return self._sources[found[0]], found[1]
        if self._restored is not None:  # reopened from a file; cleared by File → New
            state, source = self._restored
            return source, self.model.state is not state
        return None

    def _current_load_state(self) -> tuple[SessionState, bool] | None:
        """(state loaded, edited since) of the newest model load at or below the undo index."""
        stack = self.model.undo_stack
        top = stack.index() - 1
        for i in range(top, -1, -1):
            command = stack.command(i)
            if isinstance(command, StateCommand) and command.after in self._sources:
                return command.after, i != top
        return None

    def _weights_source(self) -> str | None:
        """The checkpoint the weights still come from: a change of d_model, d_k or h
        re-initialised them from the seed, whatever else is still the checkpoint's."""
        found = self._current_load_state()
        if found is not None:
            loaded, name = found[0], self._sources[found[0]].name
        elif self._restored is not None:  # reopened from a session file
            loaded, name = self._restored[0], self._restored[1].name
        else:
            return None
        now = self.model.state
        same = (loaded.d_model, loaded.d_k, loaded.n_heads) == (now.d_model, now.d_k, now.n_heads)
        return name if same else None

    def _update_source(self, _index: int = 0) -> None:
        stack = self.model.undo_stack
        if not isValid(stack):  # Qt clears a stack it is destroying, which emits indexChanged
            return
        alive = {c.after for c in map(stack.command, range(stack.count()))
                 if isinstance(c, StateCommand)}
        self._sources = {s: src for s, src in self._sources.items() if s in alive}
        found = self._current_load()
        self.sourceChanged.emit(self._weights_source())
        self.panel.show_source(found[0] if found else None)
        if found is None:
            self.source_label.hide()
            self.source_label.clear()
            return
        source, edited = found
        if source.scope == "layer":
            text = self.tr("{0} · layer {1} of {2} · all {3} heads").format(
                source.name, source.layer + 1, source.n_layers, source.n_heads)
        else:
            text = self.tr("{0} · layer {1} of {2} · head {3} of {4}").format(
                source.name, source.layer + 1, source.n_layers, source.head + 1,
                source.n_heads)
        if edited:
            text = self.tr("{0} (edited)").format(text)
        self.source_label.setText(text)
        self.source_label.setToolTip(self.tr("Loaded from {0}\nSentence: {1}")
                                     .format(source.folder, source.text))
        self.source_label.show()
