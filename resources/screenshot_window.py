"""The offscreen main window the README screenshot scripts drive.

Each ``make_*_screenshot*.py`` script needs the same thing: a real ``MainWindow`` at
1600×1000 whose settings, autosave and lock live in a throw-away folder, so that the
user's saved layout plays no part and nothing is left behind.
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "resources" / "screenshots"
sys.path.insert(0, str(ROOT))  # the checkout's qkv_desktop, installed or not
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


@contextmanager
def sandboxed_window(state=None):
    """Yield ``(app, window)``: a shown window on ``state`` (tutorial-1 by default)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel
    from qkv_desktop.views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(AttentionModel(state), settings)
        session = window.files.session
        session.folder = Path(tmp)  # its autosave and lock go there too
        window.resize(1600, 1000)
        window.show()
        try:
            yield app, window
        finally:
            window.model.undo_stack.setClean()  # edits made for a picture are not work
            window.close()


def settle(app, window) -> None:
    """Let the result arrive and every pane paint."""
    window.model.wait_until_idle()
    for _ in range(10):
        app.processEvents()
