"""Where the file dialogs start: the folder the user last used, else their Documents.

Open, Save As, the imports, the exports and the model dialog all start in a folder the
user chose before (a setting such as ``files/last_dir``); before the first time, or when
that folder has been deleted or renamed meanwhile, they start where a first-time user
looks for their files: the Documents folder, or the home folder on a system without one.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths

__all__ = ["start_folder", "documents_folder"]


def documents_folder() -> Path:
    """The user's Documents folder if it exists, else the home folder."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(docs) if docs and Path(docs).is_dir() else Path.home()


def start_folder(*remembered) -> Path:
    """The first of ``remembered`` (settings values, paths or ``None``, best first) that
    is an existing folder, else ``documents_folder()``. A value that is not a non-empty
    absolute path (a damaged settings file) is passed over like a deleted folder."""
    for folder in remembered:
        if isinstance(folder, str | Path) and str(folder) and Path(folder).is_absolute() \
                and Path(folder).is_dir():
            return Path(folder)
    return documents_folder()
