"""The File menu, the title, drag-and-drop, and crash recovery with a real killed process."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent

from qkv_desktop.io.session import load_session, save_session
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.document import SessionController
from qkv_desktop.state import SessionState
from qkv_desktop.views.main_window import MainWindow

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(AttentionModel(), settings)
    w.files.session.folder = tmp_path / "data"
    w.files.session.folder.mkdir()
    # Closing asks about unsaved changes; the tests' edits are meant to be thrown away.
    qtbot.addWidget(w, before_close_func=lambda win: win.model.undo_stack.setClean())
    return w


def test_title_shows_file_name_and_star(window, tmp_path):
    path = tmp_path / "lesson.qkv.json"
    assert window.files.session.save_as(path)
    assert window.windowTitle().startswith("lesson.qkv.json — ")
    window.model.set_cell("X", 0, 0, 3.5)
    assert window.windowTitle().startswith("lesson.qkv.json* — ")
    window.model.undo_stack.undo()
    assert "*" not in window.windowTitle()


def test_save_and_save_as_say_where_the_session_went(window, tmp_path, monkeypatch):
    """The title losing its "*" was all a save showed; the status bar now names the file
    (and a failed save still says why, through the session's error)."""
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "lesson.qkv.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.model.set_cell("X", 0, 0, 3.5)
    assert window.files.on_save()  # no file yet: Save As
    assert window.statusBar().currentMessage() == "Saved lesson.qkv.json"
    window.statusBar().clearMessage()
    window.model.set_cell("X", 0, 0, 4.5)
    assert window.files.on_save()
    assert window.statusBar().currentMessage() == "Saved lesson.qkv.json"
    assert path.exists()


def test_imported_vectors_say_what_changed_and_undo_takes_them_back(window, tmp_path,
                                                                      monkeypatch, speak):
    from PySide6.QtWidgets import QFileDialog

    csv = tmp_path / "three.csv"
    csv.write_text("token,a,b\nx,1,2\ny,3,4\nz,5,6\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(csv), "")))
    before = window.model.state
    window.files.on_import_vectors()
    s = window.model.state
    assert s.tokens == ("x", "y", "z") and s.X.tolist() == [[1, 2], [3, 4], [5, 6]]
    said = window.statusBar().currentMessage()
    assert said.startswith("Imported three.csv: X is now 3 × 2 (tokens × d_model).")
    assert "d_model went from 8 to 2, so new weights were drawn from seed 42" in said
    window.undo_action.trigger()
    assert window.model.state.equals(before)
    speak("zh_CN")
    window.files.on_import_vectors()
    assert window.statusBar().currentMessage().startswith(
        "已导入 three.csv：X 现在是 3 × 2（词元数 × d_model）。d_model 从 8 变为 2")
    assert window.undo_action.text().endswith("导入 three.csv")


def test_importing_weights_says_what_came_in_and_undo_brings_the_old_back(
        window, tmp_path, monkeypatch, speak):
    """File → Import weights: the heads' W_Q, W_K, W_V replaced in one load whose note
    the status bar shows; Undo restores them; the same in Chinese."""
    import numpy as np
    from PySide6.QtWidgets import QFileDialog

    before = window.model.state
    stack = np.stack([np.full((before.d_model, before.d_k), v) for v in (0.1, 0.2, 0.3)])
    path = tmp_path / "w.npy"
    np.save(path, stack)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.files.on_import_weights()
    assert window.model.state.heads[0].W_K.tolist() == stack[1].tolist()
    assert window.statusBar().currentMessage().startswith(
        "Imported w.npy: W_Q, W_K and W_V, d_model × d_k = 8 × 4, h = 1.")
    window.undo_action.trigger()
    assert window.model.state.equals(before)
    # the note ("… Ctrl+Z undoes it") spoke of the step just undone: off the bar
    assert window.statusBar().currentMessage() == ""
    window.redo_action.trigger()
    assert window.statusBar().currentMessage() == ""  # not said again
    window.undo_action.trigger()
    speak("zh_CN")
    window.files.on_import_weights()
    assert window.statusBar().currentMessage().startswith("已导入 w.npy：")


def test_save_open_round_trip_is_bit_exact(window, tmp_path):
    window.model.set_cell("X", 1, 2, 1 / 3)
    window.model.set_options(temperature=0.37)
    path = tmp_path / "s"
    assert window.files.session.save_as(path)
    saved = window.model.state
    window.files.session.new()
    assert not window.model.state.equals(saved)
    assert window.files.session.open(tmp_path / "s.qkv.json")
    assert window.model.state.equals(saved)
    assert window.files.session.recent_files()[0] == str(tmp_path / "s.qkv.json")


def test_the_head_on_show_comes_back_with_the_session(window, tmp_path):
    """With three heads, the user showed head 3, saved, and reopened: head 1 was shown."""
    window.model.set_heads(3)
    window.controls.head.setCurrentIndex(2)  # "show: head 3"
    assert window.model.current_head == 2
    assert window.files.session.save_as(tmp_path / "h")
    window.files.session.new()
    window.model.set_heads(3)
    assert window.model.current_head == 0
    assert window.files.session.open(tmp_path / "h.qkv.json")
    assert window.model.current_head == 2
    assert window.controls.head.currentText() == "head 3"


def test_the_head_on_show_is_autosaved_and_recovered(tmp_path, qtbot):
    """Choosing a head is no edit, but the autosave written after it has it, and the
    recovered session shows it (a crash brought back head 1)."""
    folder = tmp_path / "data"
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    crashed = SessionController(AttentionModel(), settings, folder)
    crashed.acquire_lock()
    crashed._timer.setInterval(20)
    crashed.model.set_heads(2)
    crashed.autosave()
    crashed.wait_for_autosave()
    assert load_session(crashed.autosave_path).shown_head == 0
    crashed.model.set_current_head(1)  # after the last edit's autosave
    qtbot.waitUntil(lambda: load_session(crashed.autosave_path).shown_head == 1)
    crashed._lock.unlock()  # as a killed process leaves it: the autosave stays
    crashed._lock = None

    model = AttentionModel()
    recovered = SessionController(model, settings, folder)
    assert recovered.offer_recovery(lambda _question: True)
    assert model.state.n_heads == 2 and model.current_head == 1
    recovered.release_lock()


def test_bad_file_leaves_session_untouched(window, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("qkv_desktop.views.actions.file_actions.QMessageBox.warning",
                        lambda *a: shown.append(a[2]))
    window.model.set_cell("X", 0, 0, 2.0)
    before = window.model.state
    bad = tmp_path / "broken.qkv.json"
    bad.write_text('{"format": "qkv-desktop-session", "version": 1, "tokens": ["a"], "X": [[1, 2')
    assert not window.files.session.open(bad)
    assert window.model.state is before
    assert shown and "broken.qkv.json" in shown[0]


def test_drop_opens_session(window, tmp_path):
    state = SessionState.from_preset("tutorial-2")
    path = tmp_path / "dropped.qkv.json"
    save_session(state, path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert window.model.state.equals(state)


def test_revert_restores_saved(window, tmp_path, monkeypatch):
    path = tmp_path / "r.qkv.json"
    window.files.session.save_as(path)
    saved = window.model.state
    window.model.set_cell("X", 0, 0, 9.0)
    monkeypatch.setattr(window.files, "ask", lambda q: True)
    window.files.on_revert()
    assert window.model.state.equals(saved)


def test_autosave_writes_after_changes_stop(window, qtbot):
    session = window.files.session
    session._timer.setInterval(50)
    window.model.set_cell("X", 0, 0, 7.25)
    qtbot.waitUntil(session.autosave_path.exists, timeout=3000)
    assert load_session(session.autosave_path).state.X[0, 0] == 7.25


CHILD = textwrap.dedent("""
    import sys, time
    from qkv_desktop.app.launcher import create_window
    app, window = create_window()
    session = window.files.session
    assert not session.acquire_lock()
    window.show()
    window.model.set_cell("X", 2, 3, 12.5)
    window.model.rename_token("X", 0, "edited")
    deadline = time.monotonic() + 20
    while not session.autosave_path.exists() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    print("autosaved" if session.autosave_path.exists() else "timeout", flush=True)
    time.sleep(60)
""")


def test_crash_recovery_after_kill_9(tmp_path, qtbot):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env, cwd=REPO,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline().strip()
        assert line == "autosaved", child.stderr.read() if child.poll() is not None else line
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert child.returncode == -signal.SIGKILL
    folder = tmp_path / "xdg" / "QKV Desktop" / "QKV Desktop"
    assert len(list(folder.glob("autosave-*.lock"))) == 1

    model = AttentionModel()
    controller = SessionController(model, QSettings(str(tmp_path / "s.ini"),
                                                    QSettings.Format.IniFormat), folder)
    questions = []
    assert controller.offer_recovery(lambda q: questions.append(q) or True)
    assert questions, "the user was not asked"
    assert model.state.X[2, 3] == 12.5 and model.state.tokens[0] == "edited"
    assert controller.modified  # restored work is unsaved work
    model.undo_stack.undo()
    assert model.state.equals(SessionState.from_preset("tutorial-1"))
    controller.release_lock()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("autosave")) == []


def test_clean_exit_offers_nothing(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    model = AttentionModel()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    first = SessionController(model, settings, folder)
    assert not first.acquire_lock()
    model.set_cell("X", 0, 0, 1.5)
    first.autosave()
    first.release_lock()
    second = SessionController(AttentionModel(), settings, folder)
    assert not second.offer_recovery(lambda q: pytest.fail("asked after a clean exit"))
    np.testing.assert_array_equal(second.model.state.X, SessionState.from_preset("tutorial-1").X)


def test_autosave_writes_on_a_worker_thread_latest_wins(tmp_path, monkeypatch):
    """The GUI thread only queues the write; of two queued writes only the newer runs,
    and discarding waits for a write in progress before deleting the file."""
    import threading

    from qkv_desktop.model import document as session_controller

    gate, writes = threading.Event(), []
    real = session_controller.write_autosave

    def gated_save(state, path, extra):
        writes.append((threading.current_thread().name, state))
        assert gate.wait(30), "the test never released the write"
        real(state, path, extra)

    monkeypatch.setattr(session_controller, "write_autosave", gated_save)
    model = AttentionModel()
    controller = SessionController(model, QSettings(str(tmp_path / "s.ini"),
                                                    QSettings.Format.IniFormat), tmp_path)
    model.set_cell("X", 0, 0, 1.5)
    controller.autosave()  # A: starts on the writer thread and waits at the gate
    model.set_cell("X", 0, 0, 2.5)
    controller.autosave()  # B: superseded before it starts
    model.set_cell("X", 0, 0, 3.5)
    controller.autosave()  # C: the latest
    assert not controller.autosave_path.exists()  # nothing was written on this thread
    gate.set()
    controller.wait_for_autosave()
    assert [s.X[0, 0] for _, s in writes] == [1.5, 3.5]
    assert all(name.startswith("qkv-autosave") for name, _ in writes)
    assert load_session(controller.autosave_path).state.X[0, 0] == 3.5
    gate.clear()
    model.set_cell("X", 0, 0, 4.5)
    controller.autosave()
    threading.Timer(0.2, gate.set).start()
    controller.discard_autosave()  # waits for the gated write, then deletes
    assert not controller.autosave_path.exists()


def test_a_preset_over_a_saved_session_leaves_its_file_alone(window, tmp_path, monkeypatch):
    """Ctrl+S after a look at a preset wrote the preset over the learner's file (a
    review): the preset is an untitled session, Save asks for a name, and undo still
    brings the work back."""
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "lesson.qkv.json"
    window.model.set_cell("X", 0, 0, 3.5)
    assert window.files.session.save_as(path)
    work = window.model.state
    window.load_preset("tutorial-2")
    assert window.windowTitle().startswith("Untitled* — ")
    said = window.statusBar().currentMessage()
    assert "Save asks for a file name, and lesson.qkv.json keeps what it holds" in said
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (asked.append(a) or "", "")))
    assert not window.files.on_save()  # the dialog cancelled: nothing written
    assert asked
    assert load_session(path).state.equals(work)
    window.undo_action.trigger()
    assert window.model.state.equals(work)


def test_a_preset_equal_to_the_saved_session_keeps_its_file(window, tmp_path):
    path = tmp_path / "lesson.qkv.json"
    window.load_preset("tutorial-2")
    assert window.files.session.save_as(path)
    window.load_preset("tutorial-2")  # nothing changes: the session stays the file's
    assert window.windowTitle().startswith("lesson.qkv.json — ")


def test_a_float32_file_beyond_float32_names_the_option_by_its_control(window, tmp_path,
                                                                       monkeypatch):
    """Every option in a session file's error is named by its control's label, then its
    key ("RoPE base (options.rope_base)"); a float32 file with a value beyond float32
    said only "options.dtype is "float32", but …", a key no control shows."""
    import json

    from qkv_desktop.io.session import session_to_json
    shown = []
    monkeypatch.setattr("qkv_desktop.views.actions.file_actions.QMessageBox.warning",
                        lambda *a: shown.append(a[2]))
    text = json.loads(session_to_json(SessionState.from_preset("tutorial-1")))
    text["X"][0][0] = 1e300
    text["options"]["dtype"] = "float32"
    bad = tmp_path / "f32.qkv.json"
    bad.write_text(json.dumps(text))
    before = window.model.state
    assert not window.files.session.open(bad)
    assert window.model.state is before
    assert len(shown) == 1
    assert ('float32 (options.dtype) is "float32", but X has values beyond ±3.4e38'
            in shown[0]), shown[0]
