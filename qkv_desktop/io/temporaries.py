"""The hidden files an atomic write leaves next to its target, and removing stale ones.

Every write goes to ``.<name>.<id>.tmp`` beside its target first; a file set also
keeps ``.<name>.<id>.old`` (its own hard link or copy of a file it replaces, for
rolling back) and one ``.qkv-staging.<id>.lock``. A process killed during a write
leaves them behind, and nothing else would ever delete them (476 MB after 20 kills
of a large save). ``remove_stale_temporaries`` deletes the files of this naming
whose writer is gone; it runs before each save into a folder and, for the autosave
folder, at start-up.

A writer holds an exclusive ``flock`` on one file of its ``id`` (the temporary of a
single file, the ``.lock`` of a set) from before the first byte until it is done.
The kernel releases it when the process dies, however it dies, so "no file of this
id is locked" means the writer is gone, whatever its process id now belongs to. On
Windows, where an open file cannot be deleted, a temporary still being written
simply refuses to go.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

__all__ = ["new_id", "temporary_path", "create_locked", "remove_stale_temporaries"]

_OURS = re.compile(r"^\..+\.(?P<id>[0-9a-f]{12})\.(?:tmp|old|lock)$")
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def new_id() -> str:
    """Twelve hex digits naming one write (a file, or a set of files)."""
    return uuid.uuid4().hex[:12]


def temporary_path(path: Path, write_id: str, kind: str = "tmp") -> Path:
    """``.<name>.<id>.<kind>`` beside ``path`` (kind: tmp, old or lock)."""
    return path.with_name(f".{path.name}.{write_id}.{kind}")


def create_locked(path: Path) -> int:
    """Create ``path`` (it must not exist) and hold an exclusive lock on it; the fd."""
    fd = os.open(path, _FLAGS, 0o666)
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a file system without locks: cleaning then relies on age
            pass
    return fd


def remove_stale_temporaries(folder) -> list[Path]:
    """Delete the files of our naming in ``folder`` whose writer has gone; the deleted.

    Never raises: a folder that cannot be listed, or a file that cannot be opened or
    deleted, is left as it is.
    """
    groups: dict[str, list[Path]] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                match = _OURS.match(entry.name)
                if match and entry.is_file(follow_symlinks=False):
                    groups.setdefault(match["id"], []).append(Path(entry.path))
    except OSError:
        return []
    removed = []
    for paths in groups.values():
        if _in_use(paths):
            continue
        for path in paths:
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path)
    return removed


def _in_use(paths: list[Path]) -> bool:
    """Whether a live writer holds the lock of any of ``paths`` (one write's files)."""
    if fcntl is None:
        return False  # Windows: deleting a file still open fails, which keeps it
    fds = []
    try:
        for path in paths:
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except OSError:
                continue
            fds.append(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            except OSError:
                continue
        return False
    finally:
        for fd in fds:
            os.close(fd)
