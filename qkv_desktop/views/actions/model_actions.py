"""File → Open model… in the main window, and the status-bar label of the data's source.

``ModelActions`` is built with the window, so it holds only what the window shows
from the start: the menu entry, the source label and the (hidden) decoder panel. The
dialog and the checkpoint readers behind it are imported when the user first opens a
model, not at start-up (issue 20: start-up imports only what the first paint needs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QSizePolicy

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.source_text import source_text
from qkv_desktop.state.provenance import Provenance
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text
from qkv_desktop.views.dialogs.decoder_panel import DecoderPanel
from qkv_desktop.views.elided_label import ElidedLabel
from qkv_desktop.views.retranslate import FollowsWindowLanguage

if TYPE_CHECKING:
    from qkv_desktop.io.checkpoint import BertCheckpoint
    from qkv_desktop.io.gguf_checkpoint import LlamaCheckpoint, NextToken
    from qkv_desktop.views.dialogs.model_dialog import ModelDialog

__all__ = ["ModelActions", "ModelSource"]


@dataclass(frozen=True)
class ModelSource:
    """The session's ``provenance`` (held by the state: model, text, layer, head) with
    what only this window has: the opened ``checkpoint`` (None for a session reopened
    from a file), to switch layers and heads, and a decoder's ``next_tokens`` (top 5
    after the text). The provenance's fields read through (``source.layer``).
    """

    provenance: Provenance
    checkpoint: object | None = None
    next_tokens: tuple[NextToken, ...] = ()

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy, pickle and friends probe for these
            raise AttributeError(name)
        return getattr(self.provenance, name)


class ModelActions(FollowsWindowLanguage, QObject):
    """File → Open model… for ``window``, and a status-bar label naming the data's source.

    The label reads the state's ``provenance``: it names the checkpoint, layer and head
    the session came from and says what changed since: "edited", "weights edited", or
    that the weights are no longer the model's (d_model, d_k or h changed, or weights
    imported). The provenance is part of the state, so undo, redo, the session file and
    its autosave keep it, and a preset or File → New (states without one) clears it. A
    decoder's session also gets the decoder panel (``DecoderPanel``): next tokens, GQA,
    RoPE, the attention sink, and instant switching between layers and heads.

    ``sourceChanged(name)``: the checkpoint the weights come from, or ``None`` (for
    seeded random weights). ``modelLoaded(name)``: the dialog loaded a head of ``name``.
    """

    sourceChanged = Signal(object)
    modelLoaded = Signal(str)
    """A head of checkpoint ``name`` was loaded from the dialog (a new session's data)."""

    _KEPT = 3
    """How many opened checkpoints stay live for switching after undo (they are large)."""

    def __init__(self, window: QMainWindow, model: AttentionModel, settings: QSettings | None,
                 menu: QMenu, before: QAction | None = None):
        super().__init__(window)
        self.window, self.model, self.settings = window, model, settings
        self.checkpoint: BertCheckpoint | LlamaCheckpoint | None = None
        self.dialog: ModelDialog | None = None
        self._live: dict[str, object] = {}  # location → checkpoint loaded from
        self._next: dict[tuple[str, str], tuple[NextToken, ...]] = {}  # (location, text)
        self.panel = DecoderPanel(model, self.switch_head, self.load_layer, window)
        self.panel.hide()
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel)
        self.open_model_action = QAction(window, objectName="openModel")
        self.open_model_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.open_model_action.triggered.connect(self.open_dialog)
        menu.insertAction(before, self.open_model_action)
        self.source_label = ElidedLabel(objectName="modelSource")  # cut, not the window widened
        self.source_label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.source_label.hide()
        window.statusBar().addPermanentWidget(self.source_label)
        model.changed.connect(self._update_source)
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
        """Where the current session came from (the state's provenance), if anywhere."""
        p = self.model.state.provenance
        if p is None:
            return None
        return ModelSource(p, self._live.get(p.location), self._next.get((p.location, p.text),
                                                                         ()))

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
        """Keep the checkpoint (and prediction) the state's provenance refers to live."""
        where = source.location
        self._live.pop(where, None)
        self._live[where] = source.checkpoint
        while len(self._live) > self._KEPT:
            self._live.pop(next(iter(self._live)))
        self._next = {k: v for k, v in self._next.items() if k[0] in self._live}
        if source.next_tokens:
            self._next[(where, source.text)] = source.next_tokens
        self._update_source()
        self.modelLoaded.emit(source.name)

    def switch_head(self, layer: int, head: int) -> None:
        """Show another layer or head of the current decoder load, as one undoable step.

        The checkpoint has every layer's input cached, so this takes milliseconds.
        ``ValueError`` (a layer or head out of range) leaves the session as it was.
        Not a new session: what the learner typed in a lab stays (``load_state``).
        """
        current = self.source
        if current is None or current.checkpoint is None:
            raise ValueError(self.tr("the session did not come from an opened model"))
        from qkv_desktop.io.model_sources import provenance_for
        ckpt = current.checkpoint
        state = ckpt.session_state(current.text, layer, head)
        state = state.with_(provenance=provenance_for(ckpt, current.text, layer, head))
        self.model.load_state(state, Text(  # an undo text said again in a new language
            QT_TRANSLATE_NOOP("ModelActions", "Load {0}, layer {1} · head {2}"),
            (current.name, layer + 1, head + 1), "ModelActions"),
            named=False, new_session=False)  # ``source_label`` names it

    def load_layer(self, layer: int, head: int) -> None:
        """Every query head of ``layer`` as one multi-head session (with W_O), showing
        ``head``: the heads overview then groups the heads by the key/value head they
        share. One undoable step; ``ValueError`` leaves the session as it was."""
        current = self.source
        if current is None or current.checkpoint is None:
            raise ValueError(self.tr("the session did not come from an opened model"))
        from qkv_desktop.io.model_sources import provenance_for
        ckpt = current.checkpoint
        state = ckpt.layer_state(current.text, layer)
        state = state.with_(provenance=provenance_for(ckpt, current.text, layer, head,
                                                      scope="layer"))
        self.model.load_state(state, Text(
            QT_TRANSLATE_NOOP("ModelActions", "Load {0}, layer {1} · all {2} heads"),
            (current.name, layer + 1, ckpt.n_heads), "ModelActions"), named=False,
            new_session=False)
        self.model.set_current_head(head)

    def _update_source(self) -> None:
        source = self.source
        self.sourceChanged.emit(
            None if source is None or source.weights == "replaced" else source.name)
        self.panel.show_source(source)
        if source is None:
            self.source_label.hide()
            self.source_label.setText("")
            return
        text = source_text(source)
        self.source_label.setText(text)
        self.source_label.set_note(self.tr("Loaded from {0}\nSentence: {1}")
                                     .format(source.location, source.text))
        self.source_label.show()
