"""Reading untrusted files with a size limit, and writing files atomically.

Every file the app opens may be damaged or hostile, so reading checks the size
before a single byte is read and turns every ``OSError`` into a message that names
the file. Writing goes to a temporary file in the same folder that replaces the target
only once it is complete on disk, so a crash or a full disk never leaves a half-written
session behind.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from qkv_desktop.io.temporaries import (
    create_locked,
    new_id,
    remove_stale_temporaries,
    temporary_path,
)
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text

__all__ = ["FileFormatError", "FileProblemError", "FILES", "problem", "os_reason",
           "MAX_FILE_BYTES",
           "read_limited", "decode_text", "atomic_write_bytes", "write_synced", "fsync_folder"]

MAX_FILE_BYTES = 50 * 1024 * 1024
"""Largest file (50 MB) the app reads; bigger files are refused before reading."""


FILES = "Files"
"""The translation context of the file readers' messages (``QT_TRANSLATE_NOOP("Files", …)``)."""


def problem(template: str, *args) -> Text:
    """A message of the file readers: ``template`` (marked ``QT_TRANSLATE_NOOP("Files",
    …)``) with its fields; the window says it in its language (``presentation.say``)."""
    return Text(template, args, FILES)


class FileProblemError(ValueError):
    """A file or folder the app cannot use, said as a template marked
    ``QT_TRANSLATE_NOOP("Files", …)`` and its fields (or a ``Text``): ``str(err)`` is the
    English, ``text`` what the window says in its language (``presentation.say``)."""

    def __init__(self, template: str | Text, *args) -> None:
        self.text = template if isinstance(template, Text) else problem(template, *args)
        super().__init__(str(self.text))


class FileFormatError(ValueError):
    """A file the app cannot use: ``str(err)`` is "<file name>: <problem>" in English.

    ``source`` is the file name shown to the user and ``problem`` the (English) sentence
    after it, so a dialog can show either part on its own; ``text`` is the whole message
    for the window to say in its language (``presentation.say``), the problem given as
    a ``Text`` (``problem(...)``) or, for a sentence no one marked, a plain string.
    """

    def __init__(self, source: str, problem: str | Text) -> None:
        self.text = Text(QT_TRANSLATE_NOOP("Files", "{0}: {1}"), (source, problem), FILES)
        super().__init__(str(self.text))
        self.source = source
        self.problem = str(problem)
        self.problem_text = problem  # the problem as the window says it


def read_limited(path, error: type[FileFormatError] = FileFormatError,
                 limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, or ``error`` saying why they cannot be read.

    Refuses a missing path, a directory, anything that is not a regular file (a FIFO
    would block for ever, ``/dev/zero`` never ends) and a file over ``limit`` bytes,
    the last before reading it. The checks are made on the opened file (opened
    without blocking), so a file swapped after the check cannot slip through.
    """
    path = Path(path)
    name = path.name or str(path)
    mb = f"{limit / 1024**2:g} MB" if limit >= 1024**2 else f"{limit // 1024} kB"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise error(name, problem(QT_TRANSLATE_NOOP(
            "Files", "the file does not exist ({0})"), str(path))) from None
    except IsADirectoryError:
        raise error(name, _FOLDER) from None
    except OSError as e:
        raise error(name, problem(QT_TRANSLATE_NOOP("Files", "cannot be opened: {0}"),
                                  os_reason(e))) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error(name, _FOLDER)
        if not stat.S_ISREG(st.st_mode):
            raise error(name, problem(QT_TRANSLATE_NOOP("Files", "is not a regular file")))
        if st.st_size > limit:
            raise error(name, problem(QT_TRANSLATE_NOOP(
                "Files", "is {0}; files over {1} are refused"), _size(st.st_size), mb))
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise error(name, problem(QT_TRANSLATE_NOOP("Files", "cannot be read: {0}"),
                                      os_reason(e))) from None
    if len(data) > limit:  # grew after fstat()
        raise error(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is over {0}; files that large are refused"), mb))
    return data


def _size(n: int) -> str:
    return f"{n / 1024**2:.1f} MB" if n >= 1024**2 else f"{n / 1024:.1f} kB"


_FOLDER = problem(QT_TRANSLATE_NOOP("Files", "is a folder, not a file"))


def _reasons() -> dict[int, Text]:
    said = {
        ("ENOENT",): QT_TRANSLATE_NOOP("Files", "there is no such file or folder"),
        ("EACCES", "EPERM"): QT_TRANSLATE_NOOP("Files", "permission denied"),
        ("ENOSPC",): QT_TRANSLATE_NOOP("Files", "the disk is full"),
        ("EROFS",): QT_TRANSLATE_NOOP("Files", "the disk or folder is read-only"),
        ("EEXIST",): QT_TRANSLATE_NOOP("Files", "a file or folder of that name already exists"),
        ("EISDIR",): QT_TRANSLATE_NOOP("Files", "it is a folder, not a file"),
        ("ENOTDIR",): QT_TRANSLATE_NOOP("Files", "a part of the path is not a folder"),
        ("ENAMETOOLONG",): QT_TRANSLATE_NOOP("Files", "the name is too long"),
        ("EDQUOT",): QT_TRANSLATE_NOOP("Files", "you are over your disk quota"),
        ("EMFILE", "ENFILE"): QT_TRANSLATE_NOOP(
            "Files", "too many files are open; close some programs and try again"),
        ("EIO",): QT_TRANSLATE_NOOP(
            "Files", "input/output error: the disk or the connection to it failed"),
        ("EBUSY",): QT_TRANSLATE_NOOP("Files", "the file or folder is in use"),
        ("EXDEV",): QT_TRANSLATE_NOOP("Files", "it cannot be moved to another disk"),
    }
    return {number: problem(template) for names, template in said.items()
            for number in (getattr(errno, n, None) for n in names) if number is not None}


_REASONS = _reasons()
"""The causes of a failed file operation said in the window's language, by ``errno``
(``EDQUOT`` and the like are missing on some systems: those are left out)."""


def os_reason(e: OSError) -> str | Text:
    """Why a file operation failed, for the user: the cause by ``e.errno`` as a
    ``problem(...)`` the window says in its language ("the disk is full"), else the
    operating system's own words (English whatever the window's language), else
    ``str(e)``. It names no file: the sentence it ends does."""
    return _REASONS.get(e.errno) or e.strerror or str(e)


def decode_text(data: bytes, name: str, error: type[FileFormatError], what: str | Text) -> str:
    """``data`` as UTF-8 text (a leading BOM dropped), or ``error`` saying why not.

    ``what`` ends the message for binary data, e.g. "it is not a session file" (a
    ``problem(...)`` to be said in the window's language).
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is not UTF-8 text (byte {0} at offset {1}); {2}"),
            f"0x{data[e.start]:02x}", e.start, what)) from None
    if "\x00" in text:
        raise error(name, problem(QT_TRANSLATE_NOOP(
            "Files", "contains binary data (NUL bytes); {0}"), what))
    return text


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the file is either the old or the new one.

    The bytes go to a hidden temporary file in the same folder, are flushed and
    fsync'ed, and ``os.replace`` then swaps it in (atomic on POSIX and Windows). On
    any failure the temporary file is removed and the original file is untouched;
    the ``OSError`` propagates. A new file gets the usual permissions (0o666 minus
    the umask), a replaced file keeps its own; a symlink keeps pointing at the file.
    Temporaries that killed writers left in the folder are removed first
    (``temporaries.remove_stale_temporaries``).
    """
    path = Path(os.path.realpath(path))  # through a symlink, replace its target
    remove_stale_temporaries(path.parent)
    tmp = temporary_path(path, new_id())
    fd = write_synced(tmp, data, like=path, hold=True)  # locked until it is in place
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)
    fsync_folder(path.parent)


def write_synced(tmp: Path, data: bytes, like: Path, hold: bool = False) -> int | None:
    """Create ``tmp`` with ``data`` flushed to disk, with ``like``'s permissions if it exists.

    The first half of every atomic write (single files here, file sets in
    ``staged_files``); on failure ``tmp`` is removed and the error propagates. The
    file is locked while it is written; with ``hold`` it stays open and locked and its
    descriptor is returned for the caller to close once ``tmp`` is in place.
    """
    try:
        mode = like.stat().st_mode & 0o7777
    except OSError:
        mode = None
    fd = create_locked(tmp)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    if hold:
        return fd
    os.close(fd)
    return None


def fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX only; Windows cannot open folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
