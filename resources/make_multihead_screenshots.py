"""Render the README's multi-head and cross-attention screenshots offscreen.

Run after changing the heads controls, the small multiples or the token tables::

    QT_QPA_PLATFORM=offscreen python resources/make_multihead_screenshots.py

Everything is driven through the widgets, as a user would. It rewrites

* ``resources/screenshots/multihead.png``: tutorial example 1 with weight scale 2,
  h = 4 heads, W_O on and head 2 chosen: the small multiples of every head's weights,
  the concatenation and the W_O projection;
* ``resources/screenshots/cross-attention.png``: the same sentence as queries attending
  to an English encoder sequence ("I really love AI .") in the second token table.

A throw-away settings file is used, so the user's saved window layout plays no part.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "screenshots"

ENCODER = ("I\t0.9\t0.1\t0.3\t0.1\t0.5\t0.1\t0.0\t0.4\n"
           "really\t0.2\t0.5\t0.1\t0.1\t0.4\t0.3\t0.1\t0.2\n"
           "love\t0.1\t0.9\t0.1\t0.1\t0.3\t0.7\t0.2\t0.1\n"
           "AI\t0.2\t0.1\t0.6\t0.7\t0.1\t0.2\t0.5\t0.4\n"
           ".\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\n")
"""The encoder tokens and their 8-dimensional vectors, pasted as a user would."""


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel, SessionState
    from qkv_desktop.views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    OUT.mkdir(parents=True, exist_ok=True)

    def shoot(name: str, arrange) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
            model = AttentionModel(SessionState.from_preset("tutorial-1"))
            window = MainWindow(model, settings)
            window.files.session.folder = Path(tmp)
            window.files.session.autosave_path = Path(tmp) / "autosave.qkv.json"
            window.files.session.lock_path = Path(tmp) / "running.lock"
            window.files.maybe_save = lambda: True
            window.resize(1600, 1000)
            window.show()
            arrange(window)
            model.wait_until_idle()
            for _ in range(10):
                app.processEvents()
            # strongest zlib compression keeps each file well under 300 KB
            window.grab().save(str(OUT / name), "PNG", 0)
            window.close()
        print(OUT / name)

    def multihead(window) -> None:
        c = window.controls
        c.init_scale.setValue(2.0)
        c.heads.setValue(4)
        c.output_projection.setChecked(True)
        c.head.setCurrentIndex(1)

    def cross(window) -> None:
        c = window.controls
        c.init_scale.setValue(1.0)
        c.mode.setCurrentIndex(c.mode.findData("cross"))
        kv = window.kv_editor
        kv.setFocus()
        kv.setCurrentIndex(kv.table.index(0, 0))
        kv.paste(ENCODER)
        window.resizeDocks([window.editor_dock, window.teaching.docks["explain"]], [680, 320],
                           Qt.Orientation.Vertical)

    shoot("multihead.png", multihead)
    shoot("cross-attention.png", cross)
    return 0


if __name__ == "__main__":
    sys.exit(main())
