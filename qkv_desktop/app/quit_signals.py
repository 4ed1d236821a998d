"""Ctrl+C in the terminal, ``kill`` and a closed terminal end the app through its exit.

Python runs a signal's handler only when it next runs Python code, and Qt's event loop
runs none while the app is idle: Ctrl+C in the terminal did nothing, and SIGTERM or
SIGHUP ended the process at once, its exit handlers never run. The autosave writer's
queues (``io.writer_process``: a process pool's semaphores) were then never released,
and multiprocessing's resource tracker printed "There appear to be 5 leaked semaphore
objects to clean up at shutdown" to the terminal; the edits since the last autosave
were lost too.

``ended_by_signals`` has each of these signals write a byte to a socket
(``signal.set_wakeup_fd``) that wakes Qt's event loop, so the handler runs at once; it
notes the signal, and the socket's slot, run by the event loop between two events,
writes the autosave of unsaved work and keeps it, as after a crash (the next start
offers to restore it; a session without unsaved work leaves nothing behind), stops the
model's workers and ends the event loop with the shell's code for the signal (128 + its
number); the app then exits as from File → Quit, its exit handlers run.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QEvent, QSocketNotifier

__all__ = ["ended_by_signals", "SIGNALS"]

SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""Ctrl+C, ``kill`` (and a logout), the terminal closed; those the platform has."""


@contextmanager
def ended_by_signals(app, window) -> Iterator[None]:
    """While in this block (around ``app.exec()``), ``SIGNALS`` end ``app``, which then
    returns 128 + the signal's number, after keeping ``window``'s unsaved work in its
    autosave. Leaving the block puts the previous handlers back (they no longer hold
    ``app`` and ``window``) and, after a signal, deletes the window still open."""
    wake, woken = socket.socketpair()
    for end in (wake, woken):
        end.setblocking(False)
    notifier = QSocketNotifier(woken.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:  # Python has run the handler by the time this runs
        try:
            while woken.recv(64):
                pass
        except BlockingIOError:
            pass
        if ended and not quitting:
            quitting.append(True)
            quit_for(ended[0])

    notifier.activated.connect(drain)

    def end(signum: int, _frame) -> None:
        """The handler only notes the signal: Python runs it between two bytecodes of
        whatever Python code runs then (a slot, a paint); the app ends from ``drain``,
        a slot of the event loop, where no other work is half done."""
        signal.signal(signum, signal.SIG_DFL)  # a second Ctrl+C ends it at once
        ended.append(signum)

    def quit_for(signum: int) -> None:
        window.finish_edits()  # a number typed, a scrub's last value: unsaved work too
        window.hide()  # as closing it does, before the model it shows stops
        window.end_session(keep_autosave=True)  # kept for recovery, as after a crash
        app.exit(128 + signum)

    ended: list[int] = []
    quitting: list[bool] = []
    previous = {}
    for name in SIGNALS:
        if hasattr(signal, name):
            previous[name] = signal.signal(getattr(signal, name), end)
    old_fd = signal.set_wakeup_fd(wake.fileno(), warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for name, handler in previous.items():
            signal.signal(getattr(signal, name), handler)
        notifier.setEnabled(False)
        del notifier
        wake.close()
        woken.close()
        if ended:  # the window, still open, goes while the application is whole: left
            # to the interpreter's teardown, it crashed there now and then (rc 139)
            window.deleteLater()
            app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
