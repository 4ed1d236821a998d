"""The main window: the editor on the left, linked heatmap panes on the right."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from qkv_desktop.core import PRESETS
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.presentation.pane_info import pane_condition
from qkv_desktop.presentation.texts import join_sentences, say
from qkv_desktop.state import SessionState
from qkv_desktop.state.catalogue import PROJECTION_NAMES
from qkv_desktop.state.session_state import same_structure
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text
from qkv_desktop.views.actions.export_actions import ExportActions
from qkv_desktop.views.actions.file_actions import FileActions
from qkv_desktop.views.actions.model_actions import ModelActions
from qkv_desktop.views.editors.controls import ControlsPanel
from qkv_desktop.views.editors.matrix_editor import MatrixEditor
from qkv_desktop.views.editors.position_controls import PositionsMaskPanel
from qkv_desktop.views.editors.spin_boxes import apply_typing
from qkv_desktop.views.editors.token_tables import TokenTables
from qkv_desktop.views.i18n import LANGUAGES, current_language, switch_language
from qkv_desktop.views.layout import fit_to_screen, scrolling
from qkv_desktop.views.menu_tips import TipsBeside
from qkv_desktop.views.panes.pane_grid import DEFAULT_HIDDEN, DEFAULT_ORDER, HEADS_KEY, PaneGrid
from qkv_desktop.views.preset_names import preset_description, preset_name, preset_text
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.status_bar import StatusBar
from qkv_desktop.views.teaching.docks import install_teaching
from qkv_desktop.views.teaching.run_labs import install_run_labs
from qkv_desktop.views.teaching.tour import Tour
from qkv_desktop.views.window_shortcuts import WindowShortcutsWin, redo_keys
from qkv_desktop.views.zoom import ViewScale

__all__ = ["MainWindow", "DEFAULT_SIZE"]

DEFAULT_SIZE = (1600, 1000)
MESSAGE_MS = 6000
NOTE_MS = 20000
"""A note of what an edit replaced and how to take it back: read after a look at the
panes it changed, not within 6 s (found by a first-time user)."""
LAYOUT_VERSION = 2
EDITOR_SHARE = 0.45
"""The most of the window's width the editor dock takes on its own (first run, resize)."""
EDITOR_MIN_WIDTH = 360
BUSY_DELAY_MS = 500
"""A background forward shows the busy indicator only once it has run this long: the
animated bar repainted the window 10–70 times per edit at 2048–4096 tokens, for
forwards that end before anyone could read it."""
"""Bump when the docks change, so a layout saved by an older version is ignored."""


class MainWindow(Retranslating, QMainWindow):
    """Holds the views of one ``AttentionModel`` and the menus that act on it."""

    def __init__(self, model: AttentionModel | None = None, settings: QSettings | None = None):
        super().__init__()
        self.model = model or AttentionModel()
        self._last_compute_error = ""
        self._named: tuple | None = None  # what the View menu's pane names are for
        self.settings = settings or QSettings()
        self.setObjectName("MainWindow")
        self.resize(*fit_to_screen(DEFAULT_SIZE, self.screen()))

        self.panes = PaneGrid(self.model, parent=self)
        # the panes, or a page that says nothing has computed (``_show_panes_or_nothing``)
        self.nothing_computed = QLabel(objectName="nothingComputed", wordWrap=True,
                                       alignment=Qt.AlignmentFlag.AlignCenter)
        self.pane_pages = QStackedWidget(objectName="panePages")
        self.pane_pages.addWidget(scrolling(self.panes, "paneScroll"))
        self.pane_pages.addWidget(self.nothing_computed)
        self.setCentralWidget(self.pane_pages)
        self._build_editor()
        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self.retranslate()

        self.model.message.connect(self._on_message)
        self.model.noted.connect(self._on_note)
        self.model.undo_stack.indexChanged.connect(self._on_step_changed)
        self.model.refused.connect(self._on_refusal)
        self.model.landed.connect(self._on_change_landed)
        self.model.computeErrorChanged.connect(self._on_compute_error_changed)
        self.model.hoverChanged.connect(self._on_hover_changed)
        self.model.resultChanged.connect(self._on_result_changed)
        self.model.resultCleared.connect(self._show_panes_or_nothing)
        self.model.currentHeadChanged.connect(self._on_head_changed)
        self.model.busyChanged.connect(self._on_busy_changed)
        self._show_panes_or_nothing()  # a session opened at start-up that does not compute
        self.files = FileActions(self, self.model, self.settings, self.file_menu)
        self.models = ModelActions(self, self.model, self.settings, self.file_menu,
                                   before=self.files.import_vectors_action)
        self.models.sourceChanged.connect(self.controls.set_weight_source)
        self.models.modelLoaded.connect(self._on_model_loaded)
        self.exports = ExportActions(self, self.model, self.settings, self.file_menu,
                                     self.panes, before=self.quit_action,
                                     session_file=lambda: self.files.session.path)
        self.setAcceptDrops(True)
        self.teaching = install_teaching(self)
        # -- Lab menu: KV cache, online softmax / FlashAttention tiles, gradients (issue 23)
        self.run_labs = install_run_labs(self)
        self.tour = Tour(self)
        self.shortcuts_win = WindowShortcutsWin(self).install()
        self.view_scale = ViewScale(self, self.settings, self.view_menu,
                                    before=self.language_menu.menuAction())
        self.view_scale.presentingChanged.connect(self.teaching.banners.set_presenting)
        self._restore_settings()

    # ------------------------------------------------------------ building
    def _build_editor(self) -> None:
        self.controls = ControlsPanel(self.model)
        self.editor = MatrixEditor(self.model, "X")
        self.weight_editors = {name: MatrixEditor(self.model, name)
                               for name in PROJECTION_NAMES}
        self.tabs = QTabWidget(objectName="editorTabs")
        # Extra bottom padding: the default style clips the "_" of W_Q on unselected tabs.
        self.tabs.setStyleSheet("QTabBar::tab { padding: 3px 10px 5px 10px; }")
        self.token_tables = TokenTables(self.model, self.editor)
        self.kv_editor = self.token_tables.kv_editor
        self.tabs.addTab(self.token_tables, "")
        for name, ed in self.weight_editors.items():
            self.tabs.addTab(ed, name)
        self.positions_panel = PositionsMaskPanel(self.model)
        self.positions_scroll = QScrollArea(objectName="positionsScroll", widgetResizable=True)
        self.positions_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.positions_scroll.setWidget(self.positions_panel)  # never raises the window's height
        self.tabs.addTab(self.positions_scroll, "")
        self.token_bar = QToolBar(objectName="tokenBar")
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.controls)
        layout.addWidget(self.token_bar)
        layout.addWidget(self.tabs, 1)
        self.editor_dock = QDockWidget(self, objectName="editorDock")
        self.editor_dock.setWidget(scrolling(box, "editorScroll", horizontal=False))
        self.editor_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.editor_dock)
        self.resizeDocks([self.editor_dock], [self.editor_width()], Qt.Orientation.Horizontal)

    def editor_width(self) -> int:
        """Wide enough for every column of X (d7 was cut), at most 45% of the window."""
        table = self.editor
        need = (table.verticalHeader().sizeHint().width() + table.frameWidth() * 2
                + table.horizontalHeader().length() + table.verticalScrollBar().sizeHint().width()
                + 16)
        return max(EDITOR_MIN_WIDTH, min(max(need, self.controls.sizeHint().width() + 16),
                                         int(self.width() * EDITOR_SHARE)))

    def resizeEvent(self, event) -> None:
        """A narrower window narrows the editor first, down to its share: QMainWindow
        takes all of it from the panes (1256 → 1000 px left the editor 565 px, 57 %,
        and the grid two columns of 206 px). A wider window leaves it as it is."""
        super().resizeEvent(event)
        dock = self.editor_dock
        if 0 < event.size().width() < event.oldSize().width() and not dock.isFloating():
            share = max(EDITOR_MIN_WIDTH, int(event.size().width() * EDITOR_SHARE))
            if dock.isVisible() and dock.width() > share:
                self.resizeDocks([dock], [share], Qt.Orientation.Horizontal)

    def _build_status_bar(self) -> None:
        bar = StatusBar(self)
        self.setStatusBar(bar)
        self.hover_label = bar.hover_label
        self.busy = QProgressBar(objectName="busy")
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.hide()
        bar.addPermanentWidget(self.busy)
        self._busy_delay = QTimer(self, singleShot=True,
                                  timeout=lambda: self.busy.setVisible(self.model.busy))

    def _action(self, slot, shortcut=None, name: str = "") -> QAction:
        """An action without text: ``retranslate`` gives every action its texts."""
        action = QAction(self)
        if name:
            action.setObjectName(name)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        stack = self.model.undo_stack
        # Not QUndoStack.createUndoAction: its "Undo" prefix could not be retranslated.
        # a number typed and not yet applied is a step of its own, before the undo
        self.undo_action = self._action(lambda: (apply_typing(), stack.undo()),
                                        QKeySequence.StandardKey.Undo, "undo")
        self.redo_action = self._action(lambda: (apply_typing(), stack.redo()), None, "redo")
        self.redo_action.setShortcuts(redo_keys())  # the platform's, and Ctrl+Y
        for signal in (stack.canUndoChanged, stack.canRedoChanged, stack.undoTextChanged,
                       stack.redoTextChanged):
            signal.connect(self._update_undo_actions)
        ctrl = Qt.KeyboardModifier.ControlModifier
        self.add_token_action = self._action(
            self._on_add_token, QKeySequence(ctrl | Qt.Key.Key_Return), "addToken")
        self.insert_token_action = self._action(
            self._on_insert_token, QKeySequence(ctrl | Qt.Key.Key_I), "insertToken")
        self.delete_token_action = self._action(
            self._on_delete_tokens, QKeySequence(ctrl | Qt.Key.Key_Delete), "deleteToken")
        alt = Qt.KeyboardModifier.AltModifier
        self.move_up_action = self._action(
            lambda: self._on_move_token(-1), QKeySequence(alt | Qt.Key.Key_Up), "moveUp")
        self.move_down_action = self._action(
            lambda: self._on_move_token(1), QKeySequence(alt | Qt.Key.Key_Down), "moveDown")
        self.add_dim_action = self._action(self._on_add_dimension, name="addDim")
        self.remove_dim_action = self._action(self._on_remove_dimension, name="removeDim")
        for a in (self.add_token_action, self.insert_token_action, self.delete_token_action,
                  self.move_up_action, self.move_down_action):
            self.token_bar.addAction(a)
        self.token_bar.addSeparator()
        self.token_bar.addAction(self.add_dim_action)
        self.token_bar.addAction(self.remove_dim_action)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.quit_action = self._action(self.close, QKeySequence.StandardKey.Quit, "quit")
        self.file_menu.addAction(self.quit_action)

        self.edit_menu = bar.addMenu("")
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)
        self.edit_menu.addSeparator()
        tables = self.token_tables
        self.copy_action = self._action(lambda: tables.active_editor().copy_selection(),
                                        name="copy")
        self.paste_action = self._action(lambda: tables.active_editor().paste(), name="paste")
        self.edit_menu.addAction(self.copy_action)
        self.edit_menu.addAction(self.paste_action)
        self.edit_menu.addSeparator()
        for a in (self.add_token_action, self.insert_token_action, self.delete_token_action,
                  self.move_up_action, self.move_down_action, self.add_dim_action,
                  self.remove_dim_action):
            self.edit_menu.addAction(a)

        self.view_menu = bar.addMenu("")
        self.pane_actions = {}
        for key in (*DEFAULT_ORDER, HEADS_KEY):
            a = QAction(self, checkable=True)
            a.setChecked(key not in DEFAULT_HIDDEN)
            a.setObjectName(f"show_{key}")
            a.toggled.connect(lambda on, k=key: self._on_pane_visibility(k, on))
            self.pane_actions[key] = a
            self.view_menu.addAction(a)
        self.view_tips = TipsBeside(self.view_menu)  # what each pane shows, beside it
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.editor_dock.toggleViewAction())
        self.reset_layout_action = self._action(self._on_reset_layout, name="resetLayout")
        self.view_menu.addAction(self.reset_layout_action)
        self.view_menu.addSeparator()
        self.language_menu = self.view_menu.addMenu("")
        self.language_menu.setObjectName("languageMenu")
        self.language_group = QActionGroup(self, exclusive=True)
        self.language_actions = {}
        for code, name in LANGUAGES.items():  # each language named in itself, never translated
            a = QAction(name, self, checkable=True, objectName=f"language_{code}")
            a.triggered.connect(lambda _=False, c=code: self.set_language(c))
            self.language_group.addAction(a)
            self.language_menu.addAction(a)
            self.language_actions[code] = a

        self.presets_menu = bar.addMenu("")
        self.preset_actions = {name: self._action(lambda _=False, n=name: self.load_preset(n),
                                                  name=f"preset_{name}") for name in PRESETS}
        self.presets_menu.addActions(list(self.preset_actions.values()))
        self.preset_tips = TipsBeside(self.presets_menu)  # the one line on what each shows
        self.help_menu = bar.addMenu("")
        self.tour_action = self._action(lambda: self.tour.start(), name="gettingStarted")
        self.help_menu.addAction(self.tour_action)
        self.about_action = self._action(self._on_about, name="about")
        self.help_menu.addAction(self.about_action)

    # ------------------------------------------------------------ language
    def retranslate(self) -> None:
        """Give every text of the window's own widgets and actions the current language.

        Called once when built and on every ``LanguageChange``. Child widgets (the
        panes, the controls, the tables, the docks' contents) retranslate themselves.
        """
        self.tabs.setTabText(0, self.tr("Tokens (X)"))
        self.nothing_computed.setText(self.tr(
            "Nothing to show: the values of this session do not compute (the banner above "
            "says why). The panes appear once the table's values compute."))
        self.tabs.setTabText(self.tabs.indexOf(self.positions_scroll), self.tr("Positions, mask"))
        self.token_bar.setWindowTitle(self.tr("Tokens"))
        self.editor_dock.setWindowTitle(self.tr("Editor"))
        self.busy.setToolTip(self.tr("Computing in the background…"))
        for menu, title in ((self.file_menu, self.tr("&File")), (self.edit_menu, self.tr("&Edit")),
                            (self.view_menu, self.tr("&View")),
                            (self.language_menu, self.tr("&Language")),
                            (self.presets_menu, self.tr("&Presets")),
                            (self.help_menu, self.tr("&Help"))):
            menu.setTitle(title)
        actions = (
            (self.quit_action, self.tr("&Quit"), ""),
            (self.copy_action, self.tr("&Copy"), self.tr("Copy the selected cells as TSV")),
            (self.paste_action, self.tr("&Paste"), self.tr("Paste a TSV/CSV block")),
            (self.add_token_action, self.tr("Add token"),
             self.tr("Append a token with a zero vector (Ctrl+Enter)")),
            (self.insert_token_action, self.tr("Insert token"),
             self.tr("Insert a token above the current one (Ctrl+I)")),
            (self.delete_token_action, self.tr("Delete token"),
             self.tr("Delete the selected tokens (Ctrl+Del)")),
            (self.move_up_action, self.tr("Move up"),
             self.tr("Move the current token up (Alt+Up)")),
            (self.move_down_action, self.tr("Move down"),
             self.tr("Move the current token down (Alt+Down)")),
            (self.add_dim_action, self.tr("Add dimension"),
             self.tr("Add a dimension (d_model + 1); the weights re-initialise")),
            (self.remove_dim_action, self.tr("Remove dimension"),
             self.tr("Remove the current column's dimension; the weights re-initialise")),
            (self.reset_layout_action, self.tr("Reset layout"), ""),
            (self.tour_action, self.tr("&Getting started"),
             self.tr("A short guided tour of the window, step by step")),
            (self.about_action, self.tr("&About QKV Desktop"), ""),
        )
        for action, text, tip in actions:
            action.setText(text)
            action.setToolTip(tip)  # empty: Qt shows the text
            action.setStatusTip(tip)
        for name, action in self.preset_actions.items():
            action.setText(preset_name(name))
            action.setToolTip(preset_description(name))
            action.setStatusTip(preset_description(name))
        self._update_pane_actions(again=True)
        self.model.retranslate_steps()
        self.model.retranslate_failure()
        self._update_undo_actions()
        self.language_actions[current_language()].setChecked(True)
        self._on_hover_changed(self.model.hover)

    def set_language(self, lang: str) -> None:
        """View → Language: switch the whole interface now and remember the choice."""
        switch_language(QApplication.instance(), lang, self.settings)
        self._on_message(self.tr("Interface language: {0}").format(LANGUAGES[lang]))

    def _update_undo_actions(self, *_args) -> None:
        stack = self.model.undo_stack
        if not isValid(stack):  # a stack being destroyed clears itself, which signals
            return
        for action, can, text, plain, named in (
                (self.undo_action, stack.canUndo(), stack.undoText(), self.tr("&Undo"),
                 self.tr("&Undo {0}")),
                (self.redo_action, stack.canRedo(), stack.redoText(), self.tr("&Redo"),
                 self.tr("&Redo {0}"))):
            action.setEnabled(can)
            action.setText(named.format(text) if text else plain)

    # ------------------------------------------------------------ commands
    def load_preset(self, name: str) -> None:
        """Load preset ``name`` as one undoable step, as a new session (``_leave_file``)."""
        state = SessionState.from_preset(name)
        leaves = self.files.session.path is not None and not state.equals(self.model.state)
        self.model.load_state(state, Text(  # said in any language
            QT_TRANSLATE_NOOP("MainWindow", "Load preset {0}"), (preset_text(name),),
            "MainWindow"), self._leave_file(say(preset_text(name))) if leaves else None)

    def _on_model_loaded(self, name: str) -> None:
        """A model's head loaded from the dialog is a new session, as a preset is; its
        note follows the load's own ("your edits were replaced…")."""
        if self.files.session.path is not None and self.files.session.modified:
            # a note on the load's step, as its own was: off the bar once it is undone
            self._on_note(join_sentences([self.statusBar().said(), self._leave_file(name)]))

    def _leave_file(self, what: str) -> str:
        """Make the session untitled (a preset or a model replaced it: Ctrl+S after a
        look at Tutorial 1 wrote the tutorial over the learner's file), and say so.
        Undo brings the data back, not the file name: Save then asks for one."""
        file = self.files.session.path.name
        self.files.session.leave_file()
        return self.tr("{0} is a new session: Save asks for a file name, and {1} keeps "
                       "what it holds.").format(what, file)

    def _current_row(self) -> int:
        idx = self.token_tables.active_editor().currentIndex()
        return idx.row() if idx.isValid() else -1

    def _guard(self, fn, *args) -> None:
        try:
            fn(*args)
        except ValueError as exc:
            self.model.refused.emit(self.tr("Not applied: {0}").format(say(exc)))

    def _on_add_token(self) -> None:
        editor = self.token_tables.active_editor()
        self._insert_token_at(editor, editor.table.rowCount())

    def _on_insert_token(self) -> None:
        self._insert_token_at(self.token_tables.active_editor(), max(self._current_row(), 0))

    def _insert_token_at(self, editor, row: int) -> None:
        """Insert a token at ``row`` and make its name the current cell: the table was
        rebuilt without one, so Delete token, typed in right after, did nothing."""
        before = editor.table.rowCount()
        self._guard(self.model.insert_tokens, editor.table.source, row)
        if editor.table.rowCount() > before:
            editor.setCurrentIndex(editor.table.index(row, 0))

    def _on_delete_tokens(self) -> None:
        editor = self.token_tables.active_editor()
        rows = editor.selected_rows()
        if not rows:
            self.model.refused.emit(self.tr("Select the tokens to delete: click a cell of "
                                            "each token's row first."))
            return
        self._guard(self.model.delete_tokens, editor.table.source, rows)

    def _on_move_token(self, delta: int) -> None:
        editor = self.token_tables.active_editor()
        row = self._current_row()
        if row < 0:
            return
        dst = row + delta
        self._guard(self.model.move_token, editor.table.source, row, dst)
        if 0 <= dst < editor.table.rowCount():
            editor.setCurrentIndex(editor.table.index(dst, editor.currentIndex().column()))

    def _on_add_dimension(self) -> None:
        self._guard(self.model.set_d_model, self.model.state.d_model + 1)

    def _on_remove_dimension(self) -> None:
        col = self.token_tables.active_editor().currentIndex().column() - 1
        self._guard(self.model.remove_dimension,
                    col if col >= 0 else self.model.state.d_model - 1)

    def _on_pane_visibility(self, key: str, visible: bool) -> None:
        self.panes.set_visible(key, visible)

    def _on_reset_layout(self) -> None:
        self.panes.set_arrangement(DEFAULT_ORDER, DEFAULT_HIDDEN)
        for key, a in self.pane_actions.items():
            a.setChecked(key not in DEFAULT_HIDDEN)
        self.editor_dock.show()
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.editor_dock)
        self.editor_dock.setFloating(False)

    def _on_about(self) -> None:
        from qkv_desktop.views.identity import about_text
        QMessageBox.about(self, self.tr("About QKV Desktop"), about_text())

    # ------------------------------------------------------------- updates
    def _on_message(self, text: str) -> None:
        self.statusBar().showMessage(text, MESSAGE_MS)

    _note, _note_step = "", -1
    """The note on the status bar (``model.noted``) and the undo step it was said at."""

    def _on_note(self, text: str) -> None:
        """A note on the step just made ("… Ctrl+Z brings it back"), for ``NOTE_MS``, or
        until the undo stack leaves that step (``_on_step_changed``)."""
        self.statusBar().showMessage(text, NOTE_MS)
        self._note, self._note_step = text, self.model.undo_stack.index()

    def _on_step_changed(self, step: int) -> None:
        """Undone, redone or followed by another edit, the step a note spoke of is no
        longer the one Ctrl+Z acts on: the note is old news, off the bar (it stayed up
        to 20 s after the Ctrl+Z it asked for)."""
        if self._note and step != self._note_step:
            if self.statusBar().said() == self._note:
                self.statusBar().clearMessage()
            self._note = ""

    _refusal = ""
    """The refusal (``model.refused``: an edit, a paste, an option not applied) the
    status bar says, if any."""

    def _on_refusal(self, text: str) -> None:
        """Every refusal comes here, whoever refused (a table, the controls, the window's
        own token actions, a lesson's link): said like any message, and noted as one."""
        self._on_message(text)
        self._refusal = text

    def _on_change_landed(self) -> None:
        """A change landed: a refusal or a note said before it is old news, off the
        status bar at once, as the editor's balloon is (a refusal stayed up to 6 s after
        a good edit; "1e-400 … was stored as 0" stayed over the next value typed into
        that cell, which merged into the same undo step, a first user). Other messages
        ("Saved …") stay their time. (A change's own note comes after its change; a
        preview's weights, the gradient lab's training, land no change.)"""
        for old in (self._refusal, self._note):
            if old and self.statusBar().said() == old:
                self.statusBar().clearMessage()
        self._refusal = self._note = ""

    def _on_compute_error_changed(self, error: str) -> None:
        """Once the state computes again, its failure is no longer news: take it off the
        bar (a later message, such as a refused value, stays)."""
        if not error and self.statusBar().said() == self._last_compute_error:
            self.statusBar().clearMessage()
        self._last_compute_error = error or self._last_compute_error
        self._show_panes_or_nothing()

    def _show_panes_or_nothing(self) -> None:
        """The panes, unless no values of this session have computed (opened so, or so at
        start-up): then a page that says so, not empty axes or the panes of the session
        closed before (``AttentionModel.resultCleared``)."""
        self.pane_pages.setCurrentIndex(1 if self._nothing_computed() else 0)
        self._update_pane_actions()

    def _nothing_computed(self) -> bool:
        """No value of this session has computed: the window shows no pane at all."""
        return self.model.result is None and bool(self.model.compute_error)

    def _on_head_changed(self, _head: int) -> None:
        # (a method, not a lambda over ``self``: the model's connection would hold the
        # lambda, and through it the window, as long as the model lives)
        self._update_pane_actions()

    def _update_pane_actions(self, *, again: bool = False) -> None:
        """View menu: each pane named by its title now (its formula, shape and mode).

        Named anew only for a result whose titles may differ (``same_structure``), a
        head switch, or ``again`` (a language): every edit of X brings a result, and
        titling all 17 panes was a large part of the window's own update (issue 20)."""
        result = self.model.result
        named = (None if result is None else result.state.structure(),
                 self.model.current_head)
        last, self._named = self._named, named
        same = (last is not None and last[1] == named[1]
                and (last[0] is None) == (named[0] is None)
                and (named[0] is None or same_structure(last[0], named[0])))
        self._enable_pane_actions()
        if same and not again:
            return
        for key, action in self.pane_actions.items():
            caption = self.panes.caption(key)
            if caption != action.text():  # a renamed action re-lays out its menu
                action.setText(caption)
            if again:
                self._tip_pane_action(key, action)

    def _enable_pane_actions(self) -> None:
        """Grey the View menu's panes the grid does not show: the ones this session has
        nothing for (RoPE's without RoPE; ``PaneGrid.relevant``), and every one while no
        value of the session computes. Their ticks are kept for when they show:
        ticked and absent read as a pane gone missing."""
        shown = frozenset() if self._nothing_computed() else self.panes.relevant()
        for key, action in self.pane_actions.items():
            if action.isEnabled() != (key in shown):
                action.setEnabled(key in shown)
                self._tip_pane_action(key, action)

    def _tip_pane_action(self, key: str, action: QAction) -> None:
        """What the pane shows; greyed, also when it shows (``pane_condition``) or that
        nothing shows while the session's values do not compute."""
        tip = self.panes.tip(key)
        if not action.isEnabled():
            why = pane_condition(key) if not self._nothing_computed() else self.tr(
                "Greyed while the session's values do not compute (see the message above "
                "the panes).")
            tip = join_sentences([tip, why]) if why else tip
        action.setToolTip(tip)
        action.setStatusTip(tip)

    def _on_result_changed(self, _result) -> None:
        self._show_panes_or_nothing()  # (and the View menu's panes named and greyed)
        self._on_hover_changed(self.model.hover)  # the hovered value, recomputed

    def _on_hover_changed(self, ref) -> None:
        result = self.model.result
        text = describe_cell(result, ref) if ref is not None and result is not None else ""
        self.statusBar().set_hover_text(text)

    def _on_busy_changed(self, busy: bool) -> None:
        if busy:
            self._busy_delay.start(BUSY_DELAY_MS)
        else:
            self._busy_delay.stop()
            self.busy.hide()

    def dragEnterEvent(self, event) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.files.open_path(urls[0].toLocalFile())

    # ------------------------------------------------------------ settings
    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state, LAYOUT_VERSION)
        self.teaching.follow_restored_layout()
        order = _string_list(s.value("panes/order"))
        hidden = _string_list(s.value("panes/hidden"))
        if order is not None:
            self.panes.set_arrangement(order, hidden or [])
            for key, action in self.pane_actions.items():
                action.setChecked(key not in self.panes.hidden)

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState(LAYOUT_VERSION))
        s.setValue("panes/order", list(self.panes.order))
        s.setValue("panes/hidden", sorted(self.panes.hidden))

    def event(self, event) -> bool:
        """A status tip (a menu item or tool button under the pointer) goes to the
        status bar's ``show_tip``: ``QMainWindow`` showed it as a message and cleared the
        bar after, and the note or refusal said there was gone."""
        if event.type() == QEvent.Type.StatusTip:
            self.statusBar().show_tip(event.tip())
            return True
        return super().event(event)

    def closeEvent(self, event) -> None:
        self.finish_edits()
        if not self.files.maybe_save():
            event.ignore()
            return
        self.end_session()
        super().closeEvent(event)

    def finish_edits(self) -> None:
        """Apply what is half done: a value a scrub left waiting, a number typed in a
        box (before asking about unsaved changes, or writing them to the autosave)."""
        for editor in self.findChildren(MatrixEditor):
            editor.end_scrub()
        apply_typing()

    def end_session(self, keep_autosave: bool = False) -> None:
        """The window's session ends (closed, or the app ended by a signal): the
        unsaved work written to the autosave and kept for the next start
        (``keep_autosave``), or the autosave let go as a clean exit leaves it; the
        settings saved; the model's workers stopped."""
        session = self.files.session
        if keep_autosave and session.modified:
            session.autosave()
            session.wait_for_autosave()
        else:
            session.release_lock()
        self.save_settings()
        self.model.shutdown()


def _string_list(value) -> list[str] | None:
    """A list of strings saved with ``QSettings``, as it reads back: the INI format
    stores a one-element list as a plain string ("S_shift") and an empty one as
    invalid, so a single hidden pane would come back as "none hidden"."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return None
