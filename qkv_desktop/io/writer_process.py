"""Saving a session from a process of its own, so that formatting it never holds our GIL.

A large session's text takes a second or more of Python work to format (every number
written with ``repr`` so that it reads back bit-exact). On a thread of the app's own
process that work competes with the GUI thread for the GIL: the GUI then waits up to
the interpreter's switch interval each time it enters Python, and an autosave at
n = 2048 × 768 froze the window for 40–120 ms at a time. ``SessionWriter`` hands
``save_session`` to one long-lived child process instead (``ProcessPoolExecutor``
with the ``spawn`` start method: a fresh interpreter, no copy of the Qt state). The
arrays do not cross the pipe: pickling them would copy 12.5 MB per matrix holding the
GIL (a GUI stall of 7–50 ms at n = 2048 × 768). They go through one shared memory block
instead (``io.shared_arrays``: NumPy's copy into it releases the GIL), and only the
block's name, the arrays' places in it and the rest of the state (a few kilobytes)
are pickled. The child formats, writes atomically and reports back; the caller's
thread just waits, and unlinks the block however the save ended. Where no shared
memory can be made, the state goes through the pipe as a whole, as before.

The child is started on the first save (never at start-up), exits with the app, and
also exits if the app is killed (it watches its parent). If it cannot be started or
dies, the save is done in the calling process instead: an edit is never lost to the
mechanism that was meant to make saving smoother.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from qkv_desktop.io.session import save_session
from qkv_desktop.io.shared_arrays import SharedArrays, SharedArraysHandle

__all__ = ["SessionWriter"]


def _exit_with_parent() -> None:
    """The child's initializer: leave as soon as the app that started it is gone (a
    ``kill -9`` of the app would otherwise leave an idle writer behind)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="qkv-writer-parent", daemon=True).start()


class SessionWriter:
    """``save(state, path, extra)`` = ``save_session`` run in the writer process.

    Thread-safe; meant to be called from a worker thread, which it blocks until the
    file is on disk. Errors of ``save_session`` (``OSError``, ``ValueError``) are
    raised here as if it had run in this process.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_exit_with_parent)
            return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def save(self, state, path, extra: dict | None = None) -> None:
        try:
            shared = SharedArrays(state)
        except OSError:  # no shared memory here: the arrays go through the pipe
            self._save_in_child(save_session, state, state, path, extra)
            return
        try:
            self._save_in_child(_save_shared, shared.handle, state, path, extra)
        except SharedBlockUnreadable:  # the child could not open it: through the pipe
            self._save_in_child(save_session, state, state, path, extra)
        finally:
            shared.release()

    def _save_in_child(self, function, argument, state, path, extra: dict | None) -> None:
        """``function(argument, path, extra)`` in the child; ``save_session(state, …)``
        here if the child cannot be started or dies."""
        pool = self._executor()
        try:
            future = pool.submit(function, argument, path, extra)
        except BrokenProcessPool:  # the child died since the last save
            self._discard(pool)
            save_session(state, path, extra=extra)
            return
        except (OSError, RuntimeError):  # cannot start a process, or shutting down
            save_session(state, path, extra=extra)
            return
        try:
            future.result()
        except BrokenProcessPool:  # the child died (killed, out of memory): write here
            self._discard(pool)
            save_session(state, path, extra=extra)

    def shutdown(self) -> None:
        """Stop the writer process (after the save in progress); the next save starts
        a new one."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)


class SharedBlockUnreadable(OSError):
    """The writer process could not read the arrays' shared block (the caller then
    sends the state through the pipe); not an error of the save itself."""


def _save_shared(handle: SharedArraysHandle, path, extra: dict | None) -> None:
    """The child's half of ``SessionWriter.save``: the state out of shared memory, saved."""
    try:
        state = handle.load()
    except OSError as exc:  # e.g. no such block (a sandbox without /dev/shm for us)
        raise SharedBlockUnreadable(str(exc)) from None
    save_session(state, path, extra=extra)
