"""The token tables: the query sequence X and, in cross mode, the key/value sequence X_kv.

Both are ``MatrixEditor``s with the same editing, paste and undo. The window's token
actions (add, insert, delete, move, copy, paste) act on ``active_editor()``: the
table that last had the keyboard focus, whose caption is shown in bold.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.views.editors.matrix_editor import MatrixEditor
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["TokenTables"]


class TokenTables(Retranslating, QWidget):
    """X above X_kv in a splitter; X_kv and the captions appear only in cross mode."""

    def __init__(self, model: AttentionModel, editor: MatrixEditor | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("tokenTables")
        self.editor = editor or MatrixEditor(model, "X")
        self.kv_editor = MatrixEditor(model, "X_kv")
        self.x_caption = QLabel(objectName="xCaption")
        self.kv_caption = QLabel(objectName="kvCaption")
        self._active = self.editor

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        for caption, table in ((self.x_caption, self.editor), (self.kv_caption, self.kv_editor)):
            box = QWidget()
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.setSpacing(2)
            layout.addWidget(caption)
            layout.addWidget(table, 1)
            self.splitter.addWidget(box)
            table.installEventFilter(self)
        self._kv_box = self.splitter.widget(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.retranslate()
        model.changed.connect(self._on_model_changed)
        self._on_model_changed()

    def retranslate(self) -> None:
        self.x_caption.setText(self.tr("Queries: X (the sequence that asks, e.g. decoder)"))
        self.kv_caption.setText(self.tr("Keys and values: X_kv (the other sequence, "
                                        "e.g. encoder)"))
        self.kv_caption.setToolTip(self.tr("In cross-attention K = X_kv·W_K and "
                                           "V = X_kv·W_V; the token actions act on the "
                                           "table you clicked last."))

    # -------------------------------------------------------------- access
    @property
    def cross(self) -> bool:
        return self.model.state.mode == "cross"

    def active_editor(self) -> MatrixEditor:
        """The table the token actions act on: X_kv only if it was focused last in cross mode."""
        return self._active if self.cross else self.editor

    def active_table(self) -> str:
        return self.active_editor().table.source

    def set_active(self, editor: MatrixEditor) -> None:
        self._active = editor
        self._update_captions()

    # ------------------------------------------------------------- updates
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusIn and watched in (self.editor, self.kv_editor):
            self.set_active(watched)
        return super().eventFilter(watched, event)

    def _on_model_changed(self) -> None:
        cross = self.cross
        self._kv_box.setVisible(cross)
        self.x_caption.setVisible(cross)
        self._update_captions()

    def _update_captions(self) -> None:
        active = self.active_editor()
        for caption, table in ((self.x_caption, self.editor), (self.kv_caption, self.kv_editor)):
            font = QFont(caption.font())
            font.setBold(table is active)
            caption.setFont(font)
