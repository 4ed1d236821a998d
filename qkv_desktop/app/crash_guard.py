"""The last line of defence: an unexpected exception is logged and shown, never fatal.

PySide6 reports an exception raised in a slot or in a Python override of a Qt
virtual (``paintEvent``, ``QUndoCommand.redo``…) through ``sys.excepthook``. By
default that prints to a terminal the user never sees and the app goes on as if
nothing happened. ``CrashGuard`` replaces the hook: it appends the traceback to a
size-capped log in the app data folder (``logging.handlers.RotatingFileHandler``)
and shows a non-modal message that says where the log is. The session is still the
one before the failing action, because model commands are atomic (see ``qkv_desktop.model.commands``).
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QStandardPaths
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from shiboken6 import isValid

if TYPE_CHECKING:
    from logging.handlers import RotatingFileHandler

__all__ = ["CrashGuard", "default_log_path", "LOG_MAX_BYTES", "LOG_BACKUPS"]

LOG_MAX_BYTES = 1_000_000
"""The log rotates past this size, keeping ``LOG_BACKUPS`` older files: at most ~3 MB."""
LOG_BACKUPS = 2


def _crash_log(path: Path) -> RotatingFileHandler:
    """The standard size-capped log (``qkv-desktop.log``, ``.1``, ``.2``), except that a
    failure to write is raised to ``CrashGuard``, which then prints the traceback.

    Made at the first uncaught exception: ``logging.handlers`` (with ``socket`` behind
    it) is not imported at start-up, which it would slow for nothing (issue 20)."""
    from logging.handlers import RotatingFileHandler

    class CrashLog(RotatingFileHandler):
        def handleError(self, record) -> None:
            raise  # re-raises: logging calls this inside emit's except block

    return CrashLog(path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8",
                    delay=True)


def default_log_path() -> Path:
    """``<AppDataLocation>/logs/qkv-desktop.log`` (set the application name first)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "logs" / "qkv-desktop.log"


class CrashGuard:
    """Installs itself as ``sys.excepthook``; ``uninstall`` restores the previous hook.

    Parameters
    ----------
    parent : QWidget, optional
        The window the message box belongs to (it stays non-modal).
    log_path : Path, optional
        Where tracebacks go; ``default_log_path()`` when omitted.
    """

    def __init__(self, parent: QWidget | None = None, log_path: Path | None = None):
        self.parent = parent
        self.log_path = Path(log_path) if log_path is not None else default_log_path()
        self.box: QMessageBox | None = None
        self.count = 0
        self._previous = None
        self._handler: RotatingFileHandler | None = None

    def install(self) -> CrashGuard:
        self._previous = sys.excepthook
        sys.excepthook = self.handle
        return self

    def uninstall(self) -> None:
        if sys.excepthook == self.handle:
            sys.excepthook = self._previous or sys.__excepthook__

    def handle(self, exc_type, exc, tb) -> None:
        """Log and show one uncaught exception; Ctrl+C still interrupts."""
        if issubclass(exc_type, KeyboardInterrupt):
            (self._previous or sys.__excepthook__)(exc_type, exc, tb)
            return
        self.count += 1
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        try:
            self._log(text)
        except OSError as err:  # an unwritable log must not hide the error itself
            sys.stderr.write(f"qkv-desktop: cannot write {self.log_path}: {err}\n{text}")
        if QApplication.instance() is not None and not QApplication.closingDown():
            self._show(exc_type, exc, text)

    def _log(self, text: str) -> None:
        """Append one entry through ``logging``'s rotating handler (opened on first use)."""
        if self._handler is None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._handler = _crash_log(self.log_path)
            self._handler.setFormatter(logging.Formatter(
                "%(asctime)s uncaught exception\n%(message)s\n", "%Y-%m-%d %H:%M:%S"))
        self._handler.handle(logging.makeLogRecord({"msg": text, "levelno": logging.ERROR,
                                                    "levelname": "ERROR"}))

    def _show(self, exc_type, exc, text: str) -> None:
        """One box, reused: a burst of errors (e.g. in painting) must not stack dialogs."""
        if self.box is None or not isValid(self.box):  # none yet, or its window is gone
            self.box = QMessageBox(self.parent if isValid(self.parent) else None)
            self.box.setObjectName("crashGuardBox")
            self.box.setIcon(QMessageBox.Icon.Warning)
            self.box.setStandardButtons(QMessageBox.StandardButton.Close)
            self.box.setModal(False)
        self.box.setWindowTitle(QCoreApplication.translate("CrashGuard", "Something went wrong"))
        self.box.setText(
            QCoreApplication.translate(
                "CrashGuard", "An unexpected error happened: {0}: {1}\n\nNothing was "
                "half-applied: your session is intact and the app keeps running. The details "
                "were written to {2}").format(exc_type.__name__, exc, self.log_path))
        self.box.setDetailedText(text)
        self.box.show()
        self.box.raise_()
