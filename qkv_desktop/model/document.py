"""File handling for the window: New/Open/Save/Revert, recent files, autosave, recovery.

The controller owns which file the session belongs to and whether it is modified
(the undo stack's clean state); it reads and writes through ``qkv_desktop.io.session``.

Autosave writes the session to the app's data folder from a worker thread, which hands
the formatting and the atomic write to a process of its own (``io.writer_process``:
formatting a large session takes seconds of Python work, which on a thread of this
process would hold the GIL the GUI thread needs; the state is immutable, so the
worker needs no copy):
``AUTOSAVE_DELAY_MS`` after edits stop, and while edits go on at least every
``AUTOSAVE_MAX_DELAY_MS``, so a crash costs at most that many seconds of work.

Each running instance has its own autosave, ``autosave-<id>.qkv.json``, and holds a
``QLockFile`` beside it, ``autosave-<id>.lock``. Qt's lock records the process id, the
host and the application, so a lock left by a killed process is recognised as stale
even when its process id now belongs to another program (after a reboot). At start
every autosave whose lock is stale (or missing) is an orphan of a crashed instance,
and each is offered for recovery; a second instance never touches the first's files.
A lock file Qt cannot read (empty or garbled, e.g. after a crash mid-write or a full
disk) names no owner, so Qt could only judge it by age, which a stale time of 0 turns
off; ``_take_lock`` treats such a file as stale once it is ``UNREADABLE_LOCK_GRACE_S``
old, so its autosave is still offered instead of being skipped for ever.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QDateTime, QLockFile, QObject, QSettings, QStandardPaths, QTimer, Signal

from qkv_desktop.io.session import SUFFIX, load_session, save_session
from qkv_desktop.io.temporaries import remove_stale_temporaries
from qkv_desktop.io.writer_process import SessionWriter
from qkv_desktop.model import AttentionModel
from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.presentation.texts import say
from qkv_desktop.state import SessionState
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text

__all__ = ["SessionController", "AUTOSAVE_DELAY_MS", "AUTOSAVE_MAX_DELAY_MS", "MAX_RECENT",
           "data_dir", "stop_autosave_writer"]

AUTOSAVE_DELAY_MS = 3000
"""Autosave this long after the last edit."""
AUTOSAVE_MAX_DELAY_MS = 10000
"""…and at the latest this long after the first unsaved edit, however edits go on."""
MAX_RECENT = 8
_PREFIX = "autosave-"
_AUTOSAVE_WRITER = SessionWriter()
"""One writer process for every controller of the app, started by the first autosave."""


def data_dir() -> Path:
    """The app's writable data folder (autosave, lock, logs)."""
    path = Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation))
    path.mkdir(parents=True, exist_ok=True)
    return path


UNREADABLE_LOCK_GRACE_S = 10.0
"""An unreadable lock file younger than this may be one Qt is writing right now."""


def _lock_file(path: Path) -> QLockFile:
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    return lock


def _take_lock(lock: QLockFile) -> bool:
    """``tryLock(0)``, and also take over a lock file that names no owner.

    Qt recognises a lock as stale from the process id, host and application it
    records; a file without them (``getLockInfo`` gives pid 0) is held for ever with
    a stale time of 0. Such a file, once older than ``UNREADABLE_LOCK_GRACE_S``, is
    removed (``removeStaleLockFile``) and the lock taken again.
    """
    if lock.tryLock(0):
        return True
    if lock.error() != QLockFile.LockError.LockFailedError:
        return False
    pid, _host, _app = lock.getLockInfo()
    if pid > 0:
        return False  # Qt read an owner and found it alive
    try:
        age = abs(time.time() - Path(lock.fileName()).stat().st_mtime)
    except OSError:  # gone meanwhile: its owner unlocked it
        return lock.tryLock(0)
    if age < UNREADABLE_LOCK_GRACE_S:
        return False
    lock.removeStaleLockFile()
    return lock.tryLock(0)


class SessionController(QObject):
    """Ties the model to files. ``ask(question) -> bool`` is how it asks the user.

    Signals ``fileChanged(path_or_empty)`` and ``recentChanged()``; errors go to
    ``error(str)`` so the window can show them, and the open session is never touched
    by a failed open.
    """

    fileChanged = Signal(str)
    recentChanged = Signal()
    error = Signal(str)
    opened = Signal(object, object)  # state, the file's extra objects (e.g. "layout")

    def __init__(self, model: AttentionModel, settings: QSettings,
                 folder: Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.model = model
        self.settings = settings
        self.path: Path | None = None
        self.instance = uuid.uuid4().hex[:12]
        self._lock: QLockFile | None = None
        self._orphans: list[tuple[Path, QLockFile | None]] = []
        self.folder = folder or data_dir()
        self._timer = QTimer(self)  # restarts on every edit …
        self._timer.setSingleShot(True)
        self._timer.setInterval(AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.autosave)
        self._deadline = QTimer(self)  # … this one does not: the maximum delay
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(AUTOSAVE_MAX_DELAY_MS)
        self._deadline.timeout.connect(self.autosave)
        self._writer = LatestJobRunner("qkv-autosave", self)
        self._writer.finished.connect(self._on_autosave_finished)
        model.changed.connect(self._on_model_changed)
        # the head on show is in the autosave too (a crash brought back head 1)
        model.currentHeadChanged.connect(self._on_model_changed)

    # --------------------------------------------------------------- state
    @property
    def folder(self) -> Path:
        """The data folder; setting it (before ``acquire_lock``) moves this instance's files."""
        return self._folder

    @folder.setter
    def folder(self, folder: Path) -> None:
        self._folder = Path(folder)
        self.autosave_path = self._folder / f"{_PREFIX}{self.instance}{SUFFIX}"
        self.lock_path = self._folder / f"{_PREFIX}{self.instance}.lock"

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

    def leave_file(self) -> None:
        """The session no longer belongs to its file (a preset or a model's head
        replaced it): Save asks
        for a name, and the file keeps what it holds. Undo does not bring the name
        back; Save As starts in the file's folder."""
        self._set_path(None)

    def open(self, path) -> bool:
        """Open ``path``; on any problem emit ``error`` and leave the session as it was."""
        path = Path(path)
        try:
            loaded = load_session(path)
        except ValueError as exc:
            self.error.emit(say(exc))  # the file's problem in the window's language
            return False
        self.model.reset(loaded.state)
        self.model.set_current_head(loaded.shown_head)
        self._set_path(path)
        self.opened.emit(loaded.state, loaded.extra)
        return True

    def _extra(self, autosave: bool = False) -> dict:
        """The file's extra objects: the head the panes show (a view of the session, not
        an edit: choosing one is not undone and leaves the file unmodified) and the
        autosave's note of the original file. (Where a session came from is part of its
        state: ``SessionState.provenance``.)"""
        layout: dict = {"head": self.model.current_head}
        if autosave:
            layout["file"] = str(self.path) if self.path else None
        return {"layout": layout}

    def save(self) -> bool:
        if self.path is None:
            return False
        return self.save_as(self.path)

    def save_as(self, path) -> bool:
        path = Path(path)
        if not path.name.endswith(SUFFIX):
            path = path.with_name(path.name + SUFFIX)
        try:
            save_session(self.model.state, path, extra=self._extra())
        except (OSError, ValueError) as exc:
            if isinstance(exc, OSError) and not path.parent.is_dir():
                # "no such file or folder" named neither: the folder is what is missing
                self.error.emit(self.tr("Could not save {0}: the folder {1} does not "
                                        "exist.").format(path.name, path.parent))
            else:
                self.error.emit(self.tr("Could not save {0}: {1}").format(path.name, say(exc)))
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
        if not self._deadline.isActive():
            self._deadline.start()

    def autosave(self) -> None:
        """Write the session to the data folder on the writer thread and return at once.

        One write at a time, latest wins (``LatestJobRunner``): a write still queued when
        a newer one is asked for is skipped. A failure of the latest write is reported
        through ``error`` (and retried on the next change).
        """
        self._timer.stop()
        self._deadline.stop()
        if not self.modified:
            return
        state, path = self.model.state, self.autosave_path
        extra = self._extra(autosave=True)
        self._writer.submit(lambda _report: write_autosave(state, path, extra))

    def wait_for_autosave(self) -> None:
        """Block until every autosave asked for so far has been written or skipped."""
        self._writer.wait()

    def _on_autosave_finished(self, _job: int, _value, error) -> None:
        if error is not None:
            self.error.emit(self.tr("Autosave failed: {0}").format(say(error)))

    def discard_autosave(self) -> None:
        """Delete the autosave; pending writes are dropped and one in progress ends first."""
        self._timer.stop()
        self._deadline.stop()
        self._writer.cancel()
        self.wait_for_autosave()
        self.autosave_path.unlink(missing_ok=True)

    def acquire_lock(self) -> bool:
        """Lock this instance's autosave and find the orphans of crashed instances.

        Returns True if there are orphaned autosaves to offer (``offer_recovery``).
        Stale temporaries of interrupted autosaves are removed from the folder first.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(self.folder)
        if self._lock is None:
            self._lock = _lock_file(self.lock_path)
            if not _take_lock(self._lock):
                raise OSError(f"cannot lock {self.lock_path} ({self._lock.error().name})")
        self._release_orphans()
        others = {p.name[len(_PREFIX):-len(SUFFIX)] for p in self.folder.glob(f"{_PREFIX}*{SUFFIX}")}
        others |= {p.stem[len(_PREFIX):] for p in self.folder.glob(f"{_PREFIX}*.lock")}
        others.discard(self.instance)
        for other in others:
            autosave = self.folder / f"{_PREFIX}{other}{SUFFIX}"
            lock = _lock_file(self.folder / f"{_PREFIX}{other}.lock")
            if not _take_lock(lock):
                continue  # a running instance's
            if autosave.exists():  # its owner is gone: the orphan is ours to offer now
                self._orphans.append((autosave, lock))
            else:
                lock.unlock()  # a crash before its first autosave: only the lock was left
        self._orphans.sort(key=lambda orphan: _mtime(orphan[0]), reverse=True)
        return bool(self._orphans)

    def _release_orphans(self) -> None:
        for _path, lock in self._orphans:
            lock.unlock()
        self._orphans.clear()

    def release_lock(self) -> None:
        """A clean exit: this instance's autosave and lock go; other instances' stay."""
        if self._lock is None:
            return
        self.discard_autosave()
        self._release_orphans()
        self._lock.unlock()
        self._lock = None

    def offer_recovery(self, ask: Callable[[str], bool]) -> bool:
        """Offer each orphaned autosave, newest first; restore the first one accepted.

        An accepted autosave becomes this instance's own (so a crash now still keeps
        it); a declined one is deleted; after a restore, the others stay on disk and
        are offered at the next start. An unreadable one is reported and kept.
        """
        self.acquire_lock()
        restored = False
        for path, _lock in self._orphans:
            if restored:
                break
            try:
                loaded = load_session(path)
            except ValueError as exc:
                self.error.emit(self.tr("The autosaved work could not be read: {0}")
                                .format(say(exc)))
                continue
            original = (loaded.extra.get("layout") or {}).get("file")
            when = QDateTime.fromSecsSinceEpoch(int(_mtime(path))).toString("yyyy-MM-dd HH:mm")
            name = Path(original).name if original else self.tr("Untitled")
            if not ask(self.tr("QKV Desktop did not close properly last time. Restore the "
                               "unsaved work on {0} from the autosave of {1}?")
                       .format(name, when)):
                path.unlink(missing_ok=True)
                continue
            self.wait_for_autosave()
            os.replace(path, self.autosave_path)  # ours from now on
            self.model.load_state(loaded.state, Text(  # an undo text for any language
                QT_TRANSLATE_NOOP("SessionController", "Restore autosaved work"),
                context="SessionController"))
            self.model.set_current_head(loaded.shown_head)
            self.opened.emit(loaded.state, loaded.extra)
            if original:
                self.path = Path(original)
                self.fileChanged.emit(original)
            restored = True
        self._release_orphans()
        return restored


def stop_autosave_writer() -> None:
    """Stop the autosave writer process, after the save in progress, and release its
    queues (the app calls this as it exits; a later autosave would start another)."""
    _AUTOSAVE_WRITER.shutdown()


def write_autosave(state: SessionState, path: Path, extra: dict) -> None:
    """Save an autosave from the writer process (``save_session`` there); called on
    the controller's worker thread, which it blocks until the file is on disk."""
    _AUTOSAVE_WRITER.save(state, path, extra)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()
