"""Where the file dialogs start: the folder the user last used while it exists, else the
Documents folder a first-time user expects (the home folder on a system without one).
The Documents location is the system's (``QStandardPaths``), replaced here."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QFileDialog

from qkv_desktop.model import AttentionModel
from qkv_desktop.views.actions.export_actions import ExportAllDialog
from qkv_desktop.views.start_folder import start_folder


@pytest.fixture
def documents(monkeypatch, tmp_path):
    """A Documents folder at ``tmp_path / "Documents"`` (made by the test, or not)."""
    docs = tmp_path / "Documents"
    real = QStandardPaths.writableLocation

    def location(kind):
        if kind == QStandardPaths.StandardLocation.DocumentsLocation:
            return str(docs)
        return real(kind)
    monkeypatch.setattr(QStandardPaths, "writableLocation", staticmethod(location))
    return docs


@pytest.fixture
def starts(monkeypatch):
    """The folder (or file) each file dialog was opened at, in order; every dialog is
    cancelled."""
    seen = []

    def open_file(parent, caption, start, *a, **k):
        seen.append(Path(start))
        return "", ""

    def folder(parent, caption, start, *a, **k):
        seen.append(Path(start))
        return ""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(open_file))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(open_file))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(folder))

    def ask_choice(cls, parent, choice, *a, **k):
        seen.append(choice.folder)
    monkeypatch.setattr(ExportAllDialog, "ask", classmethod(ask_choice))
    return seen


def _open_every_dialog(window, starts) -> list[Path]:
    """Open, Save As, Import vectors, Export data and Export pane: where each started."""
    del starts[:]
    window.files.on_open()
    window.files.on_save_as()
    window.files.on_import_vectors()
    window.exports.export_data()
    window.exports.export_pane("Q")
    return [p if p.suffix == "" else p.parent for p in starts]


@pytest.fixture
def window(main_window, monkeypatch):
    settings = main_window.files.session.settings
    assert settings is main_window.settings
    for key in ("files/last_dir", "export/folder"):
        settings.remove(key)
    monkeypatch.setattr(main_window.files.session, "path", None)
    yield main_window
    for key in ("files/last_dir", "export/folder"):
        settings.remove(key)


def test_a_first_time_user_starts_in_documents(window, documents, starts):
    documents.mkdir()
    assert _open_every_dialog(window, starts) == [documents] * 5
    assert starts[1] == documents / "session.qkv.json"  # Save As names the file


def test_without_a_documents_folder_the_dialogs_start_at_home(window, documents, starts):
    assert not documents.exists()
    assert _open_every_dialog(window, starts) == [Path.home()] * 5


def test_the_last_folder_comes_first_while_it_exists(window, documents, starts, tmp_path):
    documents.mkdir()
    sessions, exports = tmp_path / "sessions", tmp_path / "exports"
    sessions.mkdir()
    exports.mkdir()
    window.settings.setValue("files/last_dir", str(sessions))
    window.settings.setValue("export/folder", str(exports))
    assert _open_every_dialog(window, starts) == [sessions] * 3 + [exports] * 2
    sessions.rmdir()  # deleted (or a USB stick taken out) since: not a dead folder
    exports.rmdir()
    assert _open_every_dialog(window, starts) == [documents] * 5


@pytest.mark.parametrize("action", ["on_import_vectors", "on_import_weights"])
def test_an_import_makes_its_folder_the_next_dialogs_start(window, documents, tmp_path,
                                                           monkeypatch, action):
    """After importing from a folder, Save As and the next import start there (they
    went back to Documents: only Open and Save moved the last folder)."""
    documents.mkdir()
    data = tmp_path / "data"
    data.mkdir()
    seen = []

    def chosen(parent, caption, start, *a, **k):
        seen.append(Path(start))
        return (str(data / "gone.npy"), "") if len(seen) == 1 else ("", "")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(chosen))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(chosen))
    monkeypatch.setattr(type(window.files), "_on_error", lambda self, text: None)
    getattr(window.files, action)()  # the file is refused (missing): the folder counts
    window.files.on_import_vectors()
    window.files.on_save_as()
    assert seen[0] == documents and seen[1] == data and seen[2].parent == data


def test_an_export_of_a_saved_session_starts_beside_it_before_documents(
        window, documents, starts, tmp_path, monkeypatch):
    documents.mkdir()
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    monkeypatch.setattr(window.files.session, "path", lessons / "lesson.qkv.json")
    window.exports.export_data()
    assert starts[-1] == lessons


def test_the_model_dialog_starts_in_the_last_model_folder_else_documents(
        qtbot, tmp_path, documents, starts):
    from qkv_desktop.views.dialogs.model_dialog import ModelDialog
    documents.mkdir()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    model = AttentionModel()
    dialog = ModelDialog(model, settings)
    qtbot.addWidget(dialog)
    try:
        dialog.choose_folder()
        dialog.choose_file()
        assert starts == [documents, documents]
        models = tmp_path / "models"
        models.mkdir()
        settings.setValue("models/last_dir", str(models))
        dialog.choose_folder()
        assert starts[-1] == models
        models.rmdir()
        dialog.choose_file()
        assert starts[-1] == documents
    finally:
        model.shutdown()


@pytest.mark.parametrize("value", ["", "relative/folder", 3, ["a", "b"], None])
def test_a_damaged_setting_is_passed_over(value, documents):
    documents.mkdir()
    assert start_folder(value) == documents


def test_a_lab_exports_into_documents(window, run_labs, documents, starts):
    """The labs' Export view / Export steps started in the folder the app was launched
    from (a bare file name)."""
    documents.mkdir()
    lab = run_labs.show("kv_cache")
    lab._ask_export_view()
    lab._ask_export_steps()
    assert starts == [documents / "kv-cache.png", documents / "kv-cache-steps.pdf"]


def test_a_lab_export_starts_in_the_last_export_folder_and_moves_it(
        window, run_labs, documents, tmp_path, monkeypatch):
    """"Export steps (PDF)…" started in the home folder as "kvCacheLab-steps.pdf" (its
    object name), whatever folder the window's exports had last written to. It starts
    where they do, with a readable name, and the folder chosen is theirs next."""
    documents.mkdir()
    exports, handouts = tmp_path / "exports", tmp_path / "handouts"
    exports.mkdir()
    handouts.mkdir()
    window.settings.setValue("export/folder", str(exports))
    seen = []

    def chosen(parent, caption, start, *a, **k):
        seen.append(Path(start))
        return (str(handouts / "kv.pdf"), "") if len(seen) == 1 else ("", "")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(chosen))
    lab = run_labs.show("kv_cache")
    monkeypatch.setattr(lab, "export_steps", lambda path: None)
    lab._ask_export_steps()
    lab._ask_export_view()
    assert seen[:2] == [exports / "kv-cache-steps.pdf", handouts / "kv-cache.png"]
    assert window.exports.folder() == handouts
