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

import sys


def main() -> int:
    from PySide6.QtCore import Qt
    from screenshot_window import SCREENSHOTS as OUT
    from screenshot_window import sandboxed_window, settle

    from qkv_desktop.state import CellRef, SessionState

    with sandboxed_window(SessionState.from_preset("tutorial-2")) as (app, window):
        model = window.model
        teaching = window.teaching
        model.set_selection(CellRef("weights", 1, 0, 0))
        window.resizeDocks([window.editor_dock, teaching.docks["explain"]], [370, 630],
                           Qt.Orientation.Vertical)
        settle(app, window)
        OUT.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(OUT / "explain-panel.png"), "PNG")

        teaching.show_lab()
        teaching.lab.resize(1200, 680)
        teaching.lab.tabs.setCurrentIndex(0)
        settle(app, window)
        teaching.lab.grab().save(str(OUT / "scaling-lab.png"), "PNG")
        teaching.lab.close()
    for name in ("explain-panel.png", "scaling-lab.png"):
        print(OUT / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
