"""Several files that appear together or not at all (figure sets, matrix exports).

``io.files.atomic_write_bytes`` makes one file appear whole; a render or a data export
writes a dozen, and a failure half-way (a full disk, a bad value in the seventh
matrix) must not leave a mix of new and old files behind. ``StagedFiles`` writes every
file to a hidden temporary next to its target first and renames them all into place
only on ``commit``.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from qkv_desktop.io.files import write_synced

__all__ = ["StagedFiles"]


class StagedFiles:
    """Files staged with ``add`` that ``commit`` moves into place together.

    Use as a context manager: leaving the block without ``commit`` (e.g. through an
    exception) deletes the temporaries and leaves the targets untouched. ``commit``
    first moves any files it replaces aside and puts them back if a rename fails, so
    the targets end up either all new or all as they were. A new file gets the usual
    permissions (0o666 minus the umask), a replaced file keeps its own.
    """

    def __init__(self) -> None:
        self._staged: dict[Path, Path] = {}  # target -> temporary

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, *exc) -> None:
        self.discard()

    def add(self, path: str | os.PathLike, data: bytes) -> Path:
        """Write ``data`` to a temporary for ``path`` (flushed to disk); return ``path``."""
        path = Path(path)
        if path in self._staged:
            raise ValueError(f"{os.fspath(path)!r} is staged twice")
        tmp = _hidden(path, "tmp")
        write_synced(tmp, data, like=path)
        self._staged[path] = tmp
        return path

    def commit(self) -> list[Path]:
        """Move every staged file into place; all or none of them on failure."""
        done: list[tuple[Path, Path | None]] = []  # (target, its old file moved aside)
        try:
            for path, tmp in self._staged.items():
                backup = None
                if path.exists() or path.is_symlink():
                    backup = _hidden(path, "old")
                    os.replace(path, backup)
                done.append((path, backup))
                os.replace(tmp, path)
        except BaseException:
            for path, backup in reversed(done):
                if backup is not None:
                    os.replace(backup, path)
                elif not self._staged[path].exists():
                    path.unlink(missing_ok=True)
            raise
        for _, backup in done:
            if backup is not None:
                backup.unlink(missing_ok=True)
        written = list(self._staged)
        self._staged.clear()
        return written

    def discard(self) -> None:
        """Delete the temporaries of everything not committed."""
        for tmp in self._staged.values():
            tmp.unlink(missing_ok=True)
        self._staged.clear()


def _hidden(path: Path, kind: str) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.{kind}")
