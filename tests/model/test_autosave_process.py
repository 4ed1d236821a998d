"""Issue 20: autosave formats and writes the session in a process of its own, so the
GUI thread never waits for the GIL while a large session is formatted; the file it
writes still reads back bit-exact, and an edit is never lost if that process dies."""

from __future__ import annotations

import os
import signal

import numpy as np
from PySide6.QtCore import QSettings

from qkv_desktop.io import session as session_io
from qkv_desktop.io.session import load_session
from qkv_desktop.io.writer_process import SessionWriter
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.document import SessionController
from qkv_desktop.state import SessionState


def _controller(tmp_path, state) -> SessionController:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    return SessionController(AttentionModel(state), settings, tmp_path / "data")


def _awkward_state() -> SessionState:
    """Numbers whose text is easy to get wrong: subnormal, huge, -0.0, 0.1, many digits."""
    X = np.random.default_rng(3).standard_normal((6, 5))
    X[0, :4] = [5e-324, -0.0, 1.7976931348623157e308, 0.1]
    return SessionState.initialised([f"t{i}" for i in range(6)], X, d_k=3)


def test_autosave_round_trips_bit_exact_and_is_formatted_in_another_process(
        tmp_path, monkeypatch):
    def not_here(*_args, **_kwargs):
        raise AssertionError("the session was formatted in the GUI's process")

    monkeypatch.setattr(session_io, "session_to_json", not_here)  # this process only
    doc = _controller(tmp_path, _awkward_state())
    doc.acquire_lock()
    doc.model.set_cell("X", 1, 2, 1 / 3)
    doc.autosave()
    doc.wait_for_autosave()
    monkeypatch.undo()
    loaded = load_session(doc.autosave_path).state
    assert loaded.equals(doc.model.state)
    np.testing.assert_array_equal(loaded.X, doc.model.state.X)
    assert np.signbit(loaded.X[0, 1]) and loaded.X[1, 2] == 1 / 3
    doc.release_lock()


def test_a_writer_process_that_died_does_not_lose_the_save(tmp_path):
    writer = SessionWriter()
    state = _awkward_state()
    writer.save(state, tmp_path / "a.qkv.json")
    for pid in list(writer._executor()._processes):  # the child, killed behind our back
        os.kill(pid, signal.SIGKILL)
    edited = state.with_(X=state.X + 1)
    writer.save(edited, tmp_path / "b.qkv.json")  # written here, or by a new child
    assert load_session(tmp_path / "b.qkv.json").state.equals(edited)
    writer.save(state, tmp_path / "c.qkv.json")
    assert load_session(tmp_path / "c.qkv.json").state.equals(state)
    writer.shutdown()
