"""``freeze_after_start_up``: what start-up built is taken out of the collector's walk.

A full garbage collection (generation 2) walks every object the collector tracks. Once
the window is up these are about 80,000: Qt wrappers, pyqtgraph items, modules, and
almost all of them live as long as the window. Walking them took about 37 ms on the
GUI thread, a stall of two frames whenever the collector chose to run during an edit
(issue 20). A second after the window is shown (the first paint comes at 0.6 s) they
are collected once and frozen (``gc.freeze``): later collections walk only what the
session made since, a few thousand objects (0.1 ms). Frozen objects are still freed
by reference counting; only a reference cycle among them, dropped later, is never
reclaimed, which for objects of the window's lifetime costs nothing.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QTimer

__all__ = ["freeze_after_start_up", "freeze_heap", "collect_on_the_gui_thread", "AFTER_MS"]

AFTER_MS = 1000
"""How long after ``show()``: past the first paint (not an event the window itself is
sure to get: its children cover it), before the user's first edit."""


def freeze_heap() -> None:
    """Collect, then freeze every object alive now (the benchmarks' windows do this
    where the app's timer would)."""
    gc.collect()  # the garbage of start-up must not be frozen with it
    gc.freeze()


def freeze_after_start_up(window) -> None:
    """Collect and freeze, once, the objects alive ``AFTER_MS`` after this call."""
    QTimer.singleShot(AFTER_MS, window, freeze_heap)


def collect_on_the_gui_thread(app) -> None:
    """Python's cyclic collector runs on the GUI thread only, from a timer
    (pyqtgraph's ``GarbageCollector``: automatic collection off, a check each second).

    The collector runs in whichever thread allocates past its threshold: a worker
    reading a model file or running a forward. A reference cycle holding Qt objects
    (a closed dialog, a menu) was then destroyed on that thread, and ``~QObject``, holding
    Qt's connection lock, waited for the GIL while the GUI thread, holding the GIL,
    waited for that lock to delete another object: the app froze for good (seen in the
    tests: the SmolLM2 loader's thread inside ``QObject::~QObject`` → ``PyGILState_Ensure``,
    the GUI thread in ``QMenu::~QMenu`` → ``QBasicMutex::lockInternal``)."""
    from pyqtgraph.util.garbage_collector import GarbageCollector
    app._qkv_garbage_collector = GarbageCollector(interval=1.0)  # kept as long as the app
