"""The main window: the editor on the left, linked heatmap panes on the right."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QLabel, QMainWindow, QMessageBox, QProgressBar,
                               QTabWidget, QToolBar, QVBoxLayout, QWidget)

from ..core import PRESETS
from ..model import AttentionModel, SessionState
from .cell_text import describe_cell
from .controls import ControlsPanel
from .matrix_editor import MatrixEditor
from .pane_grid import DEFAULT_ORDER, PaneGrid

__all__ = ["MainWindow", "DEFAULT_SIZE"]

DEFAULT_SIZE = (1600, 1000)
MESSAGE_MS = 6000


class MainWindow(QMainWindow):
    """Holds the views of one ``AttentionModel`` and the menus that act on it."""

    def __init__(self, model: AttentionModel | None = None, settings: QSettings | None = None):
        super().__init__()
        self.model = model or AttentionModel()
        self.settings = settings or QSettings()
        self.setObjectName("MainWindow")
        self.resize(*DEFAULT_SIZE)

        self.panes = PaneGrid(self.model, parent=self)
        self.setCentralWidget(self.panes)
        self._build_editor()
        self._build_status_bar()
        self._build_actions()
        self._build_menus()

        self.model.message.connect(self._on_message)
        self.model.hoverChanged.connect(self._on_hover_changed)
        self.model.busyChanged.connect(self._on_busy_changed)
        self.model.undo_stack.cleanChanged.connect(self._update_title)
        for pane in self.panes.panes.values():
            pane.exportRequested.connect(self._on_export_pane)
            pane.copyRequested.connect(self._on_copy_pane)
        self._update_title()
        self._restore_settings()

    # ------------------------------------------------------------ building
    def _build_editor(self) -> None:
        self.controls = ControlsPanel(self.model)
        self.editor = MatrixEditor(self.model, "X")
        self.weight_editors = {name: MatrixEditor(self.model, name)
                               for name in ("W_Q", "W_K", "W_V")}
        self.tabs = QTabWidget(objectName="editorTabs")
        self.tabs.addTab(self.editor, self.tr("Tokens (X)"))
        for name, ed in self.weight_editors.items():
            self.tabs.addTab(ed, name)
        self.token_bar = QToolBar(self.tr("Tokens"), objectName="tokenBar")
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.controls)
        layout.addWidget(self.token_bar)
        layout.addWidget(self.tabs, 1)
        self.editor_dock = QDockWidget(self.tr("Editor"), self, objectName="editorDock")
        self.editor_dock.setWidget(box)
        self.editor_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.editor_dock)
        self.resizeDocks([self.editor_dock], [520], Qt.Orientation.Horizontal)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.hover_label = QLabel(objectName="hoverLabel")
        self.hover_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.busy = QProgressBar(objectName="busy")
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setToolTip(self.tr("Computing in the background…"))
        self.busy.hide()
        bar.addPermanentWidget(self.hover_label, 1)
        bar.addPermanentWidget(self.busy)

    def _action(self, text: str, slot, shortcut=None, tip: str = "", name: str = "") -> QAction:
        action = QAction(text, self)
        if name:
            action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        stack = self.model.undo_stack
        self.undo_action = stack.createUndoAction(self, self.tr("&Undo"))
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.setObjectName("undo")
        self.redo_action = stack.createRedoAction(self, self.tr("&Redo"))
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        self.redo_action.setObjectName("redo")
        ctrl = Qt.KeyboardModifier.ControlModifier
        self.add_token_action = self._action(
            self.tr("Add token"), self._on_add_token, QKeySequence(ctrl | Qt.Key.Key_Return),
            self.tr("Append a token with a zero vector (Ctrl+Enter)"), "addToken")
        self.insert_token_action = self._action(
            self.tr("Insert token"), self._on_insert_token, QKeySequence(ctrl | Qt.Key.Key_I),
            self.tr("Insert a token above the current one (Ctrl+I)"), "insertToken")
        self.delete_token_action = self._action(
            self.tr("Delete token"), self._on_delete_tokens,
            QKeySequence(ctrl | Qt.Key.Key_Delete),
            self.tr("Delete the selected tokens (Ctrl+Del)"), "deleteToken")
        alt = Qt.KeyboardModifier.AltModifier
        self.move_up_action = self._action(
            self.tr("Move up"), lambda: self._on_move_token(-1), QKeySequence(alt | Qt.Key.Key_Up),
            self.tr("Move the current token up (Alt+Up)"), "moveUp")
        self.move_down_action = self._action(
            self.tr("Move down"), lambda: self._on_move_token(1),
            QKeySequence(alt | Qt.Key.Key_Down),
            self.tr("Move the current token down (Alt+Down)"), "moveDown")
        self.add_dim_action = self._action(
            self.tr("Add dimension"), self._on_add_dimension, None,
            self.tr("Add a dimension (d_model + 1); the weights re-initialise"), "addDim")
        self.remove_dim_action = self._action(
            self.tr("Remove dimension"), self._on_remove_dimension, None,
            self.tr("Remove the current column's dimension; the weights re-initialise"),
            "removeDim")
        for a in (self.add_token_action, self.insert_token_action, self.delete_token_action,
                  self.move_up_action, self.move_down_action):
            self.token_bar.addAction(a)
        self.token_bar.addSeparator()
        self.token_bar.addAction(self.add_dim_action)
        self.token_bar.addAction(self.remove_dim_action)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu(self.tr("&File"))
        self.quit_action = self._action(self.tr("&Quit"), self.close,
                                        QKeySequence.StandardKey.Quit, name="quit")
        self.file_menu.addAction(self.quit_action)

        self.edit_menu = bar.addMenu(self.tr("&Edit"))
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(self._action(self.tr("&Copy"), self.editor.copy_selection,
                                              None, self.tr("Copy the selected cells as TSV"),
                                              "copy"))
        self.edit_menu.addAction(self._action(self.tr("&Paste"), lambda: self.editor.paste(),
                                              None, self.tr("Paste a TSV/CSV block"), "paste"))
        self.edit_menu.addSeparator()
        for a in (self.add_token_action, self.insert_token_action, self.delete_token_action,
                  self.move_up_action, self.move_down_action, self.add_dim_action,
                  self.remove_dim_action):
            self.edit_menu.addAction(a)

        self.view_menu = bar.addMenu(self.tr("&View"))
        self.pane_actions = {}
        for key in DEFAULT_ORDER:
            a = QAction(self.panes.panes[key].title.text() or key, self, checkable=True)
            a.setChecked(True)
            a.setObjectName(f"show_{key}")
            a.toggled.connect(lambda on, k=key: self._on_pane_visibility(k, on))
            self.pane_actions[key] = a
            self.view_menu.addAction(a)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.editor_dock.toggleViewAction())
        self.view_menu.addAction(self._action(self.tr("Reset layout"), self._on_reset_layout,
                                              name="resetLayout"))

        self.presets_menu = bar.addMenu(self.tr("&Presets"))
        for name in PRESETS:
            self.presets_menu.addAction(self._action(name, lambda _=False, n=name:
                                                     self.load_preset(n), name=f"preset_{name}"))
        self.help_menu = bar.addMenu(self.tr("&Help"))
        self.help_menu.addAction(self._action(self.tr("&About QKV Desktop"), self._on_about,
                                              name="about"))

    # ------------------------------------------------------------ commands
    def load_preset(self, name: str) -> None:
        self.model.load_state(SessionState.from_preset(name), self.tr("Load preset {0}").format(name))

    def _current_row(self) -> int:
        idx = self.editor.currentIndex()
        return idx.row() if idx.isValid() else -1

    def _guard(self, fn, *args) -> None:
        try:
            fn(*args)
        except ValueError as exc:
            self._on_message(self.tr("Not applied: {0}").format(exc))

    def _on_add_token(self) -> None:
        self._guard(self.model.insert_tokens, "X", self.model.state.n)

    def _on_insert_token(self) -> None:
        self._guard(self.model.insert_tokens, "X", max(self._current_row(), 0))

    def _on_delete_tokens(self) -> None:
        self._guard(self.model.delete_tokens, "X", self.editor.selected_rows())

    def _on_move_token(self, delta: int) -> None:
        row = self._current_row()
        if row < 0:
            return
        dst = row + delta
        self._guard(self.model.move_token, "X", row, dst)
        if 0 <= dst < self.model.state.n:
            self.editor.setCurrentIndex(self.editor.table.index(dst, self.editor.currentIndex().column()))

    def _on_add_dimension(self) -> None:
        self._guard(self.model.set_d_model, self.model.state.d_model + 1)

    def _on_remove_dimension(self) -> None:
        col = self.editor.currentIndex().column() - 1
        self._guard(self.model.remove_dimension,
                    col if col >= 0 else self.model.state.d_model - 1)

    def _on_pane_visibility(self, key: str, visible: bool) -> None:
        self.panes.set_visible(key, visible)

    def _on_reset_layout(self) -> None:
        self.panes.set_arrangement(DEFAULT_ORDER, ())
        for a in self.pane_actions.values():
            a.setChecked(True)
        self.editor_dock.show()
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.editor_dock)
        self.editor_dock.setFloating(False)

    def _on_export_pane(self, key: str) -> None:
        self._on_message(self.tr("Export is not available yet"))

    def _on_copy_pane(self, key: str) -> None:
        self._on_message(self.tr("Copy image is not available yet"))

    def _on_about(self) -> None:
        from .. import __version__
        QMessageBox.about(self, self.tr("About QKV Desktop"),
                          self.tr("QKV Desktop {0}\nSee, touch and understand self-attention.")
                          .format(__version__))

    # ------------------------------------------------------------- updates
    def _on_message(self, text: str) -> None:
        self.statusBar().showMessage(text, MESSAGE_MS)

    def _on_hover_changed(self, ref) -> None:
        result = self.model.result
        text = describe_cell(result, ref) if ref is not None and result is not None else ""
        self.hover_label.setText(text)

    def _on_busy_changed(self, busy: bool) -> None:
        self.busy.setVisible(busy)

    def _update_title(self, *_args) -> None:
        self.setWindowTitle(self.tr("QKV Desktop"))

    # ------------------------------------------------------------ settings
    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        order = s.value("panes/order")
        hidden = s.value("panes/hidden")
        if isinstance(order, list):
            self.panes.set_arrangement(order, hidden if isinstance(hidden, list) else [])
            for key, action in self.pane_actions.items():
                action.setChecked(key not in self.panes.hidden)

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("panes/order", list(self.panes.order))
        s.setValue("panes/hidden", sorted(self.panes.hidden))

    def closeEvent(self, event) -> None:
        self.save_settings()
        self.model.shutdown()
        super().closeEvent(event)
