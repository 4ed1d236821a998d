"""Render the README's teaching-lab screenshots offscreen.

Run after changing the scaling lab or the explain panel::

    QT_QPA_PLATFORM=offscreen python resources/make_teaching_screenshots.py

It rewrites

* ``resources/screenshots/scaling-lab.png``: the scaling lab's random q, k sweep;
* ``resources/screenshots/explain-panel.png``: the main window on tutorial example 2
  with the weight 追 → 猫 pinned and the explain panel showing its computation.

A throw-away settings file is used, so the user's saved window layout plays no part.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "screenshots"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel, CellRef, SessionState
    from qkv_desktop.views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        model = AttentionModel(SessionState.from_preset("tutorial-2"))
        window = MainWindow(model, settings)
        window.files.session.folder = Path(tmp)
        window.files.session.autosave_path = Path(tmp) / "autosave.qkv.json"
        window.files.session.lock_path = Path(tmp) / "running.lock"
        window.resize(1600, 1000)
        window.show()

        def settle() -> None:
            model.wait_until_idle()
            for _ in range(10):
                app.processEvents()

        teaching = window.teaching
        model.set_selection(CellRef("weights", 1, 0, 0))
        window.resizeDocks([window.editor_dock, teaching.docks["explain"]], [370, 630],
                           Qt.Orientation.Vertical)
        settle()
        OUT.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(OUT / "explain-panel.png"), "PNG")

        teaching.show_lab()
        teaching.lab.resize(1200, 680)
        teaching.lab.tabs.setCurrentIndex(0)
        settle()
        teaching.lab.grab().save(str(OUT / "scaling-lab.png"), "PNG")
        teaching.lab.close()
        window.close()
    for name in ("explain-panel.png", "scaling-lab.png"):
        print(OUT / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
