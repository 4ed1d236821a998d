"""The File menu: sessions, recent files, drag-and-drop, imports, asking before losing work."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from qkv_desktop.io.session import SUFFIX
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.document import SessionController
from qkv_desktop.presentation.texts import say
from qkv_desktop.views.editors.spin_boxes import apply_typing
from qkv_desktop.views.retranslate import FollowsWindowLanguage
from qkv_desktop.views.start_folder import start_folder

__all__ = ["FileActions"]


class FileActions(FollowsWindowLanguage, QObject):
    """Builds the session part of the File menu and performs it for ``window``."""

    def __init__(self, window: QMainWindow, model: AttentionModel, settings: QSettings,
                 menu: QMenu, data_folder: Path | None = None):
        super().__init__(window)
        self.window, self.model = window, model
        self.session = SessionController(model, settings, data_folder, self)
        self.session.error.connect(self._on_error)
        self.session.fileChanged.connect(lambda _p: self._update_title())
        self.session.recentChanged.connect(self._rebuild_recent)
        model.undo_stack.cleanChanged.connect(self._on_clean_changed)

        def action(slot, key, name):  # texts come from retranslate
            a = QAction(window, objectName=name)
            if key is not None:
                a.setShortcut(QKeySequence(key))
            a.triggered.connect(slot)
            return a

        Key = QKeySequence.StandardKey
        self.new_action = action(self.on_new, Key.New, "new")
        self.open_action = action(self.on_open, Key.Open, "open")
        self.recent_menu = QMenu(window, objectName="recentMenu")
        self.save_action = action(self.on_save, Key.Save, "save")
        self.save_as_action = action(self.on_save_as, Key.SaveAs, "saveAs")
        self.revert_action = action(self.on_revert, None, "revert")
        self.import_vectors_action = action(self.on_import_vectors, None, "importVectors")
        self.import_weights_action = action(self.on_import_weights, None, "importWeights")
        first = menu.actions()[0] if menu.actions() else None
        for a in (self.new_action, self.open_action):
            menu.insertAction(first, a)
        menu.insertMenu(first, self.recent_menu)
        for a in (self.save_action, self.save_as_action, self.revert_action):
            menu.insertAction(first, a)
        menu.insertSeparator(first)
        menu.insertAction(first, self.import_vectors_action)
        menu.insertAction(first, self.import_weights_action)
        menu.insertSeparator(first)
        self._rebuild_recent()
        self.retranslate()
        self.follow_language_of(window)
        self.open_event_filter = _FileOpenFilter(self)

    def retranslate(self) -> None:
        """The File menu's texts and the window title in the current language."""
        for a, text, tip in (
                (self.new_action, self.tr("&New"),
                 self.tr("Start a new session from the tutorial example")),
                (self.open_action, self.tr("&Open…"), self.tr("Open a session file (.qkv.json)")),
                (self.save_action, self.tr("&Save"), ""),
                (self.save_as_action, self.tr("Save &As…"), ""),
                (self.revert_action, self.tr("Re&vert"),
                 self.tr("Discard changes since the last save")),
                (self.import_vectors_action, self.tr("Import token vectors…"),
                 self.tr("Read X from CSV, TSV or .npy")),
                (self.import_weights_action, self.tr("Import weights…"),
                 self.tr("Read W_Q, W_K, W_V from .npz or .npy"))):
            a.setText(text)
            a.setToolTip(tip)  # empty: Qt shows the text
            a.setStatusTip(tip)
        self.recent_menu.setTitle(self.tr("Open &Recent"))
        self._update_title()


    # ------------------------------------------------------------ helpers
    def ask(self, question: str) -> bool:
        """A yes/no question (tests replace this)."""
        answer = QMessageBox.question(self.window, self.tr("QKV Desktop"), question)
        return answer == QMessageBox.StandardButton.Yes

    def maybe_save(self) -> bool:
        """Before the session is replaced: save, discard or cancel. True = go on."""
        if not self.session.modified:
            return True
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Unsaved changes"),
                          self.tr("{0} has unsaved changes. Save them first?")
                          .format(self.session.display_name()),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self.window)
        choice = box.exec()
        if choice == QMessageBox.StandardButton.Save:
            return self.on_save()
        return choice == QMessageBox.StandardButton.Discard

    def _on_error(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10000)
        QMessageBox.warning(self.window, self.tr("QKV Desktop"), text)

    def _on_clean_changed(self, clean: bool) -> None:
        # The signal's value, not the stack: it may be in its destructor (app closing).
        self._update_title(modified=not clean)

    def _update_title(self, modified: bool | None = None) -> None:
        # The star is in the text: setWindowModified would need a "[*]" placeholder.
        star = "*" if (self.session.modified if modified is None else modified) else ""
        self.window.setWindowTitle(self.tr("{0}{1} — QKV Desktop").format(
            self.session.display_name(), star))

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.session.recent_files()
        for path in recent:
            a = self.recent_menu.addAction(Path(path).name)
            a.setToolTip(path)
            a.setStatusTip(path)
            a.triggered.connect(lambda _=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))

    def _dir(self) -> str:
        """Where Open, Save As and the imports start (``start_folder``)."""
        return str(start_folder(self.session.settings.value("files/last_dir")))

    def _chosen(self, path: str) -> None:
        """A file chosen to import: the next dialog starts in its folder, as after an
        Open or a Save (the dialogs went back to Documents after every import)."""
        self.session.settings.setValue("files/last_dir", str(Path(path).parent))

    # ------------------------------------------------------------ actions
    def on_new(self) -> None:
        if self.maybe_save():
            self.session.new()

    def open_path(self, path) -> bool:
        if not self.maybe_save():
            return False
        return self.session.open(path)

    def on_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Open session"), self._dir(),
            self.tr("QKV sessions (*{0});;All files (*)").format(SUFFIX))
        if path:
            self.open_path(path)

    def on_save(self) -> bool:
        apply_typing()  # a number typed in a box and not yet applied is saved too
        if not self.session.path:
            return self.on_save_as()
        return self._said_saved(self.session.save())

    def on_save_as(self) -> bool:
        apply_typing()
        start = str(Path(self._dir()) / (self.session.path.name if self.session.path
                                         else f"session{SUFFIX}"))
        path, _ = QFileDialog.getSaveFileName(
            self.window, self.tr("Save session"), start,
            self.tr("QKV sessions (*{0})").format(SUFFIX))
        return bool(path) and self._said_saved(self.session.save_as(path))

    def _said_saved(self, saved: bool) -> bool:
        """Say in the status bar where the session went: the title losing its "*" is
        all a save showed, and first-time users missed it."""
        if saved:
            self.window.statusBar().showMessage(
                self.tr("Saved {0}").format(self.session.path.name), 5000)
        return saved

    def on_revert(self) -> None:
        if self.session.path and self.session.modified and self.ask(
                self.tr("Discard all changes since {0} was saved?")
                .format(self.session.display_name())):
            self.session.revert()

    def on_import_vectors(self) -> None:
        from qkv_desktop.io.imports import import_vectors
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Import token vectors"), self._dir(),
            self.tr("Vectors (*.csv *.tsv *.txt *.npy);;All files (*)"))
        if not path:
            return
        self._chosen(path)
        try:  # the new state and what it changed: ``edits.load_vectors``
            self.model.load_vectors(*import_vectors(path), Path(path).name)
        except ValueError as exc:
            self._on_error(say(exc))

    def on_import_weights(self) -> None:
        from qkv_desktop.io.imports import import_weights
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Import weights"), self._dir(),
            self.tr("Weights (*.npz *.npy);;All files (*)"))
        if not path:
            return
        self._chosen(path)
        s = self.model.state
        try:
            self.model.load_weights(import_weights(path, s.d_model, s.d_k), Path(path).name)
        except ValueError as exc:
            self._on_error(say(exc))


class _FileOpenFilter(QObject):
    """macOS delivers a double-clicked session as a ``QFileOpenEvent``, not an argument."""

    def __init__(self, actions: FileActions):
        super().__init__(actions)
        self._actions = actions

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.FileOpen and event.file():
            self._actions.open_path(event.file())
            return True
        return False
