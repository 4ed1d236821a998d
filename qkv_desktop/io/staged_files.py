"""Several files that appear together or not at all (figure sets, matrix exports).

``io.files.atomic_write_bytes`` makes one file appear whole; a render or a data export
writes a dozen, and a failure half-way (a full disk, a bad value in the seventh
matrix) must not leave a mix of new and old files behind. ``StagedFiles`` writes every
file to a hidden temporary next to its target first and renames them all into place
only on ``commit``.

It never moves or deletes anything it did not create: a target must be missing or a
regular file (checked for all of them before the first rename), an old file it
replaces is kept for rolling back as a hard link (or a copy) of its own, and rolling
back deletes only the files it put in place.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from qkv_desktop.io.files import FileProblemError, fsync_folder, os_reason, write_synced
from qkv_desktop.io.temporaries import (
    create_locked,
    new_id,
    remove_stale_temporaries,
    temporary_path,
)
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP

__all__ = ["StagedFiles"]


class StagedFiles:
    """Files staged with ``add`` that ``commit`` moves into place together.

    Use as a context manager: leaving the block without ``commit`` (e.g. through an
    exception) deletes the temporaries and leaves the targets untouched. ``commit``
    checks every target first, then keeps a link to each file it replaces and puts
    those back if a rename fails, so the targets end up either all new or all as
    they were. A target that is a folder (or anything but a regular file) is refused
    with ``ValueError`` before anything is moved. A new file gets the usual
    permissions (0o666 minus the umask), a replaced file keeps its own; a symlink
    keeps pointing at the file it replaces.
    """

    def __init__(self) -> None:
        self._id = new_id()
        self._staged: dict[Path, tuple[Path, Path]] = {}  # given -> (real target, temp)
        self._locks: dict[Path, tuple[Path, int]] = {}  # folder -> (lock file, fd)

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, *exc) -> None:
        self.discard()

    def add(self, path: str | os.PathLike, data: bytes) -> Path:
        """Write ``data`` to a temporary for ``path`` (flushed to disk); return ``path``."""
        path = Path(path)
        if path in self._staged:
            raise FileProblemError(QT_TRANSLATE_NOOP("Files", "{0} is staged twice"),
                                   repr(os.fspath(path)))
        real = Path(os.path.realpath(path))  # through a symlink, replace its target
        _check_target(path, real)
        self._lock(real.parent)
        tmp = temporary_path(real, self._id)
        write_synced(tmp, data, like=real)
        self._staged[path] = (real, tmp)
        return path

    def _lock(self, folder: Path) -> None:
        """The first file into ``folder``: clean what killed writers left, then lock."""
        if folder in self._locks:
            return
        remove_stale_temporaries(folder)
        lock = folder / f".qkv-staging.{self._id}.lock"
        self._locks[folder] = (lock, create_locked(lock))

    def commit(self) -> list[Path]:
        """Move every staged file into place; all or none of them on failure."""
        for path, (real, _tmp) in self._staged.items():
            _check_target(path, real)  # all of them, before the first rename
        done: list[tuple[Path, Path | None]] = []  # (target, our link to its old file)
        try:
            for real, tmp in self._staged.values():
                backup = None
                if os.path.lexists(real):
                    backup = temporary_path(real, self._id, "old")
                    _keep_copy(real, backup)
                done.append((real, backup))
                os.replace(tmp, real)
        except BaseException:
            for real, backup in reversed(done):
                if backup is not None:
                    os.replace(backup, real)
                elif not os.path.lexists(self._temp_of(real)):  # ours: it was renamed
                    real.unlink(missing_ok=True)
            raise
        finally:
            for _real, backup in done:
                if backup is not None:
                    backup.unlink(missing_ok=True)
        for folder in self._locks:
            fsync_folder(folder)
        written = list(self._staged)
        self._staged.clear()
        self._release()
        return written

    def _temp_of(self, real: Path) -> Path:
        return temporary_path(real, self._id)

    def discard(self) -> None:
        """Delete the temporaries of everything not committed."""
        for _real, tmp in self._staged.values():
            tmp.unlink(missing_ok=True)
        self._staged.clear()
        self._release()

    def _release(self) -> None:
        for lock, fd in self._locks.values():
            lock.unlink(missing_ok=True)
            os.close(fd)
        self._locks.clear()


def _check_target(path: Path, real: Path) -> None:
    """``FileProblemError`` (a ``ValueError``) unless ``real`` is missing or a regular
    file (never a folder)."""
    try:
        st = os.lstat(real)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileProblemError(QT_TRANSLATE_NOOP("Files", "{0} cannot be written: {1}"),
                               repr(os.fspath(path)), os_reason(exc)) from None
    if stat.S_ISDIR(st.st_mode):
        raise FileProblemError(QT_TRANSLATE_NOOP(
            "Files", "{0} is a folder; nothing was written or moved"), repr(os.fspath(path)))
    if not stat.S_ISREG(st.st_mode):
        raise FileProblemError(QT_TRANSLATE_NOOP(
            "Files", "{0} exists and is not a regular file; nothing was written or moved"),
            repr(os.fspath(path)))


def _keep_copy(path: Path, backup: Path) -> None:
    """A second name for ``path``'s current file (a hard link, else a copy): ours to delete."""
    try:
        os.link(path, backup)
    except OSError:
        shutil.copy2(path, backup)
