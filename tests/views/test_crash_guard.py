"""The safety net: a bug in a slot is logged and shown, the app and the session survive.

pytest-qt normally turns an exception in a slot into a test failure by replacing
``sys.excepthook``; these tests switch that off (``qt_no_exception_capture``) so that
the app's own hook, ``CrashGuard``, is the one that sees the exception.
"""

import sys

import numpy as np
import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from qkv_desktop.app import crash_guard
from qkv_desktop.app.crash_guard import CrashGuard, default_log_path
from qkv_desktop.state import SessionState, compute
from tests.views.helpers import type_into_cell

pytestmark = pytest.mark.qt_no_exception_capture


class _Emitter(QObject):
    fire = Signal()


@pytest.fixture
def guard(main_window, tmp_path):
    g = CrashGuard(main_window, tmp_path / "logs" / "qkv-desktop.log").install()
    yield g
    g.uninstall()
    if g.box is not None:
        g.box.close()
        g.box.deleteLater()


def injected(*_args, **_kwargs):
    raise RuntimeError("injected failure")


def assert_reported(g: CrashGuard, count: int = 1) -> None:
    text = g.log_path.read_text(encoding="utf-8")
    assert text.count("Traceback (most recent call last)") == count
    assert "RuntimeError" in text and "injected failure" in text
    assert g.box is not None and g.box.isVisible()
    assert not g.box.isModal() and QApplication.activeModalWidget() is None
    assert "injected failure" in g.box.text() and str(g.log_path) in g.box.text()


def test_an_exception_in_a_slot_is_logged_and_shown_without_blocking(guard):
    emitter = _Emitter()
    emitter.fire.connect(injected)
    emitter.fire.emit()  # returns: PySide reports the slot's exception to the hook
    assert_reported(guard)
    emitter.fire.emit()
    assert guard.count == 2
    assert_reported(guard, count=2)  # one box, reused; two log entries


def test_a_failing_edit_leaves_the_session_as_it_was(main_window, guard, monkeypatch):
    window, model = main_window, main_window.model
    s0 = model.state
    monkeypatch.setattr(SessionState, "with_", injected)
    type_into_cell(window.editor, 1, 1, "0.5", event_loop=True)  # Enter from the loop
    assert_reported(guard)
    assert model.state is s0
    assert model.undo_stack.count() == 0 and not model.undo_stack.canUndo()
    monkeypatch.undo()
    type_into_cell(window.editor, 1, 1, "0.5")  # the app goes on working
    assert model.state.X[1, 1] == 0.5 and model.undo_stack.count() == 1


def test_a_failing_redo_is_dropped_and_the_stack_stays_usable(main_window, guard,
                                                             monkeypatch):
    window, model = main_window, main_window.model
    s0 = model.state
    type_into_cell(window.editor, 0, 0, "2")
    window.undo_action.trigger()
    assert model.state.equals(s0)
    monkeypatch.setattr(SessionState, "with_", injected)
    window.redo_action.trigger()  # QUndoStack::redo in C++ calls the Python command
    assert_reported(guard)
    assert model.state.equals(s0)
    assert model.undo_stack.count() == 0 and not model.undo_stack.canRedo()
    monkeypatch.undo()
    window.add_token_action.trigger()
    window.undo_action.trigger()
    assert model.state.equals(s0)


def test_a_view_failing_after_a_change_leaves_a_consistent_session(main_window, guard):
    window, model = main_window, main_window.model
    s0 = model.state
    model.changed.connect(injected)
    try:
        type_into_cell(window.editor, 2, 2, "0.25")
    finally:
        model.changed.disconnect(injected)
    assert_reported(guard)
    assert model.state.X[2, 2] == 0.25 and model.undo_stack.count() == 1
    assert model.wait_until_idle()  # the change was applied whole and computed
    assert np.array_equal(model.result.head().weights, compute(model.state).head().weights)
    window.undo_action.trigger()
    assert model.state.equals(s0)


def test_the_log_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(crash_guard, "LOG_MAX_BYTES", 4000)
    g = CrashGuard(None, tmp_path / "logs" / "qkv-desktop.log")
    for k in range(60):
        try:
            raise RuntimeError(f"error {k} " + "x" * 300)
        except RuntimeError as exc:
            g.handle(RuntimeError, exc, exc.__traceback__)
    logs = sorted(p.name for p in g.log_path.parent.iterdir())
    assert logs == ["qkv-desktop.log", "qkv-desktop.log.1", "qkv-desktop.log.2"]
    assert all(p.stat().st_size <= 4000 for p in g.log_path.parent.iterdir())
    assert "error 59" in g.log_path.read_text(encoding="utf-8")
    assert g.box is not None and g.box.isVisible()
    g.box.close()


def test_keyboard_interrupt_goes_to_the_previous_hook(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda *a: seen.append(a[0]))
    g = CrashGuard(None, tmp_path / "x.log").install()
    try:
        g.handle(KeyboardInterrupt, KeyboardInterrupt(), None)
    finally:
        g.uninstall()
    assert seen == [KeyboardInterrupt] and not g.log_path.exists()
    assert sys.excepthook is not g.handle


def test_the_default_log_lives_in_the_app_data_folder(qapp):
    path = default_log_path()
    assert path.name == "qkv-desktop.log" and path.parent.name == "logs"


def test_the_app_installs_the_guard(qapp, tmp_path, monkeypatch):
    from qkv_desktop.app.launcher import run_gui
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    assert run_gui(None, screenshot=str(tmp_path / "s.png"), size=(900, 700)) == 0
    assert isinstance(getattr(sys.excepthook, "__self__", None), CrashGuard)


def test_the_message_outlives_the_window_it_was_shown_for(qapp, tmp_path):
    from PySide6.QtWidgets import QWidget
    from shiboken6 import delete
    parent = QWidget()
    g = CrashGuard(parent, tmp_path / "x.log")
    g.handle(RuntimeError, RuntimeError("first"), None)
    delete(parent)  # the window and its message box are gone
    g.handle(RuntimeError, RuntimeError("second"), None)
    assert g.box.isVisible() and "second" in g.box.text()
    g.box.close()
