"""Issue 20: autosave formats and writes the session in a process of its own, so the
GUI thread never waits for the GIL while a large session is formatted; the file it
writes still reads back bit-exact, and an edit is never lost if that process dies.

The arrays reach that process through shared memory (``io.shared_arrays``), not the
pipe: what is pickled for the pipe is counted here, and no shared memory block may
be left behind by a save that succeeded, failed, or lost its writer process."""

from __future__ import annotations

import multiprocessing.reduction
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings

from qkv_desktop.io import session as session_io
from qkv_desktop.io import writer_process
from qkv_desktop.io.session import load_session, save_session
from qkv_desktop.io.shared_arrays import BLOCK_PREFIX
from qkv_desktop.io.writer_process import SessionWriter
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.document import SessionController
from qkv_desktop.state import SessionState
from tests.io.test_shared_arrays import needs_dev_shm, rich_state

EXTRA = {"layout": {"file": "/somewhere/ü.qkv.json"}}


def _blocks() -> set[str]:
    """This process's shared memory blocks still in /dev/shm."""
    return {p.name for p in Path("/dev/shm").glob(f"{BLOCK_PREFIX}{os.getpid()}-*")}


@pytest.fixture
def writer():
    writer = SessionWriter()
    yield writer
    writer.shutdown()


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


@needs_dev_shm
def test_the_writer_process_writes_the_bytes_save_session_writes(tmp_path, writer):
    state = rich_state()
    save_session(state, tmp_path / "here.qkv.json", extra=EXTRA)
    writer.save(state, tmp_path / "child.qkv.json", EXTRA)
    assert (tmp_path / "child.qkv.json").read_bytes() == (tmp_path / "here.qkv.json").read_bytes()
    assert _blocks() == set()


@needs_dev_shm
def test_the_pipe_carries_no_array_bytes(tmp_path, writer, monkeypatch):
    """Everything the app pickles for the writer process's pipe, counted: the handle
    of the shared block and the tokens, a few kilobytes, not the 1 MB of X."""
    state = SessionState.initialised([f"t{i}" for i in range(512)],
                                     np.random.default_rng(1).standard_normal((512, 256)),
                                     d_k=64)
    writer.save(state, tmp_path / "warm.qkv.json")  # the child is running
    pickled: list[bytes] = []
    dumps = multiprocessing.reduction.ForkingPickler.dumps

    def counting_dumps(obj, protocol=None):
        data = dumps(obj, protocol)
        pickled.append(bytes(data))
        return data

    monkeypatch.setattr(multiprocessing.reduction.ForkingPickler, "dumps", counting_dumps)
    edited = state.with_(X=state.X * 2)
    writer.save(edited, tmp_path / "a.qkv.json")
    assert load_session(tmp_path / "a.qkv.json").state.equals(edited)
    sent = sum(map(len, pickled))
    assert pickled and sent < edited.X.nbytes / 20, (sent, edited.X.nbytes)
    assert not any(edited.X[3].tobytes() in data for data in pickled)


@needs_dev_shm
def test_a_writer_process_dying_during_the_save_loses_nothing_and_leaks_no_block(
        tmp_path, writer):
    state = rich_state()
    writer.save(state, tmp_path / "warm.qkv.json")
    (child,) = writer._executor()._processes
    os.kill(child, signal.SIGSTOP)  # it cannot finish the next save …
    edited = state.with_(X=state.X + 1)
    errors: list[BaseException] = []

    def save() -> None:
        try:
            writer.save(edited, tmp_path / "b.qkv.json", EXTRA)
        except BaseException as exc:  # noqa: BLE001 -- reported below
            errors.append(exc)

    saving = threading.Thread(target=save)
    saving.start()
    try:
        deadline = time.monotonic() + 60
        while not _blocks() and saving.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _blocks(), "the save did not hand its arrays to shared memory"
    finally:
        os.kill(child, signal.SIGKILL)  # … and dies holding the shared block
    saving.join(120)
    assert not saving.is_alive() and not errors
    save_session(edited, tmp_path / "here.qkv.json", extra=EXTRA)
    assert (tmp_path / "b.qkv.json").read_bytes() == (tmp_path / "here.qkv.json").read_bytes()
    assert _blocks() == set()
    writer.save(state, tmp_path / "c.qkv.json")  # a new child takes over
    assert load_session(tmp_path / "c.qkv.json").state.equals(state)
    assert _blocks() == set()


@needs_dev_shm
def test_a_failed_save_leaks_no_block(tmp_path, writer):
    with pytest.raises(OSError):
        writer.save(rich_state(), tmp_path / "no such folder" / "a.qkv.json")
    assert _blocks() == set()


def test_without_shared_memory_the_state_goes_through_the_pipe(tmp_path, writer,
                                                                monkeypatch):
    def no_shared_memory(_obj):
        raise OSError("no space left on /dev/shm")

    monkeypatch.setattr(writer_process, "SharedArrays", no_shared_memory)
    state = rich_state()
    writer.save(state, tmp_path / "a.qkv.json", EXTRA)
    save_session(state, tmp_path / "here.qkv.json", extra=EXTRA)
    assert (tmp_path / "a.qkv.json").read_bytes() == (tmp_path / "here.qkv.json").read_bytes()


@needs_dev_shm
def test_a_block_the_writer_cannot_open_is_sent_through_the_pipe(tmp_path, writer,
                                                                 monkeypatch):
    """The writer process failing to open the arrays' block (another /dev/shm, a
    sandbox) is no failed autosave: the state goes through the pipe instead (found by
    review: the error reached the autosave)."""
    import dataclasses

    from qkv_desktop.io import shared_arrays
    real = shared_arrays.SharedArrays

    class Unopenable(real):
        def __init__(self, obj):
            super().__init__(obj)
            self.real_handle = self.handle
            self.handle = dataclasses.replace(self.handle, block=self.handle.block + "-gone")

    monkeypatch.setattr(writer_process, "SharedArrays", Unopenable)
    state = rich_state()
    writer.save(state, tmp_path / "a.qkv.json", EXTRA)
    save_session(state, tmp_path / "here.qkv.json", extra=EXTRA)
    assert (tmp_path / "a.qkv.json").read_bytes() == (tmp_path / "here.qkv.json").read_bytes()
    assert _blocks() == set()
