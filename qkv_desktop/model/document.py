"""File handling for the window: New/Open/Save/Revert, recent files, autosave, recovery.

The controller owns which file the session belongs to and whether it is modified
(the undo stack's clean state); it reads and writes through ``qkv_desktop.io.session``.
Autosave writes the session to the app's data folder a few seconds after edits stop,
on a worker thread (formatting a large session takes seconds; the state is
immutable, so the worker needs no copy); a lock file with our process id tells
the next start whether we exited cleanly, and if not it offers to restore the autosaved work.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal

from qkv_desktop.io.session import SUFFIX, load_session, save_session
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.state import SessionState

__all__ = ["SessionController", "AUTOSAVE_DELAY_MS", "MAX_RECENT", "data_dir"]

AUTOSAVE_DELAY_MS = 3000
MAX_RECENT = 8


def data_dir() -> Path:
    """The app's writable data folder (autosave, lock, logs)."""
    path = Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


class SessionController(QObject):
    """Ties the model to files. ``ask(question) -> bool`` is how it asks the user.

    Signals ``fileChanged(path_or_empty)`` and ``recentChanged()``; errors go to
    ``error(str)`` so the window can show them, and the open session is never touched
    by a failed open.
    """

    fileChanged = Signal(str)
    recentChanged = Signal()
    error = Signal(str)

    def __init__(self, model: AttentionModel, settings: QSettings,
                 folder: Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.model = model
        self.settings = settings
        self.path: Path | None = None
        self.folder = folder or data_dir()
        self.autosave_path = self.folder / f"autosave{SUFFIX}"
        self.lock_path = self.folder / "running.lock"
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.autosave)
        self._writer = LatestJobRunner("qkv-autosave", self)
        self._writer.finished.connect(self._on_autosave_finished)
        model.changed.connect(self._on_model_changed)

    # --------------------------------------------------------------- state
    @property
    def modified(self) -> bool:
        return not self.model.undo_stack.isClean()

    def display_name(self) -> str:
        return self.path.name if self.path else self.tr("Untitled")

    def recent_files(self) -> list[str]:
        value = self.settings.value("files/recent", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in (value or []) if isinstance(v, str)]

    def _remember(self, path: Path) -> None:
        recent = [str(path)] + [p for p in self.recent_files() if p != str(path)]
        self.settings.setValue("files/recent", recent[:MAX_RECENT])
        self.recentChanged.emit()

    def _set_path(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            self._remember(path)
            self.settings.setValue("files/last_dir", str(path.parent))
        self.fileChanged.emit(str(path) if path else "")

    # -------------------------------------------------------------- actions
    def new(self, state: SessionState | None = None) -> None:
        self.model.reset(state or SessionState.from_preset("tutorial-1"))
        self._set_path(None)

    def open(self, path) -> bool:
        """Open ``path``; on any problem emit ``error`` and leave the session as it was."""
        path = Path(path)
        try:
            loaded = load_session(path)
        except ValueError as exc:
            self.error.emit(str(exc))
            return False
        self.model.reset(loaded.state)
        self._set_path(path)
        return True

    def save(self) -> bool:
        if self.path is None:
            return False
        return self.save_as(self.path)

    def save_as(self, path) -> bool:
        path = Path(path)
        if not path.name.endswith(SUFFIX):
            path = path.with_name(path.name + SUFFIX)
        try:
            save_session(self.model.state, path)
        except (OSError, ValueError) as exc:
            self.error.emit(self.tr("Could not save {0}: {1}").format(path.name, exc))
            return False
        self.model.undo_stack.setClean()
        self._set_path(path)
        self.discard_autosave()
        return True

    def revert(self) -> bool:
        return self.path is not None and self.open(self.path)

    # ----------------------------------------------------- autosave/recovery
    def _on_model_changed(self) -> None:
        self._timer.start()

    def autosave(self) -> None:
        """Write the session to the data folder on the writer thread and return at once.

        One write at a time, latest wins (``LatestJobRunner``): a write still queued when
        a newer one is asked for is skipped. A failure of the latest write is reported
        through ``error`` (and retried on the next change).
        """
        if not self.modified:
            return
        state, path = self.model.state, self.autosave_path
        extra = {"layout": {"file": str(self.path) if self.path else None}}
        self._writer.submit(lambda _report: save_session(state, path, extra=extra))

    def wait_for_autosave(self) -> None:
        """Block until every autosave asked for so far has been written or skipped."""
        self._writer.wait()

    def _on_autosave_finished(self, _job: int, _value, error) -> None:
        if error is not None:
            self.error.emit(self.tr("Autosave failed: {0}").format(error))

    def discard_autosave(self) -> None:
        """Delete the autosave; pending writes are dropped and one in progress ends first."""
        self._timer.stop()
        self._writer.cancel()
        self.wait_for_autosave()
        self.autosave_path.unlink(missing_ok=True)

    def acquire_lock(self) -> bool:
        """Mark this process as running. Returns True if a previous run crashed."""
        crashed = False
        try:
            pid = int(self.lock_path.read_text().strip() or 0)
            crashed = pid != os.getpid() and not _pid_alive(pid)
        except (OSError, ValueError):
            crashed = self.autosave_path.exists()
        self.lock_path.write_text(str(os.getpid()))
        return crashed and self.autosave_path.exists()

    def release_lock(self) -> None:
        """A clean exit: no autosave and no lock are left behind (if the lock is ours)."""
        try:
            ours = int(self.lock_path.read_text().strip() or 0) == os.getpid()
        except (OSError, ValueError):
            ours = False
        if ours:
            self.discard_autosave()
            self.lock_path.unlink(missing_ok=True)

    def offer_recovery(self, ask: Callable[[str], bool]) -> bool:
        """If the last run crashed with unsaved work, ask and restore it."""
        if not self.acquire_lock():
            return False
        try:
            loaded = load_session(self.autosave_path)
        except ValueError as exc:
            self.error.emit(self.tr("The autosaved work could not be read: {0}").format(exc))
            return False
        if not ask(self.tr("QKV Desktop did not close properly last time. "
                           "Restore the unsaved work from the autosave?")):
            self.discard_autosave()
            return False
        self.model.load_state(loaded.state, self.tr("Restore autosaved work"))
        original = (loaded.extra.get("layout") or {}).get("file")
        if original:
            self.path = Path(original)
            self.fileChanged.emit(original)
        return True
