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

__all__ = ["freeze_after_start_up", "AFTER_MS"]

AFTER_MS = 1000
"""How long after ``show()``: past the first paint (not an event the window itself is
sure to get: its children cover it), before the user's first edit."""


def _freeze() -> None:
    gc.collect()  # the garbage of start-up must not be frozen with it
    gc.freeze()


def freeze_after_start_up(window) -> None:
    """Collect and freeze, once, the objects alive ``AFTER_MS`` after this call."""
    QTimer.singleShot(AFTER_MS, window, _freeze)
