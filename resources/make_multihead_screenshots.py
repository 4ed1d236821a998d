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

import sys

ENCODER = ("I\t0.9\t0.1\t0.3\t0.1\t0.5\t0.1\t0.0\t0.4\n"
           "really\t0.2\t0.5\t0.1\t0.1\t0.4\t0.3\t0.1\t0.2\n"
           "love\t0.1\t0.9\t0.1\t0.1\t0.3\t0.7\t0.2\t0.1\n"
           "AI\t0.2\t0.1\t0.6\t0.7\t0.1\t0.2\t0.5\t0.4\n"
           ".\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\n")
"""The encoder tokens and their 8-dimensional vectors, pasted as a user would."""


def main() -> int:
    from PySide6.QtCore import Qt
    from screenshot_window import SCREENSHOTS as OUT
    from screenshot_window import sandboxed_window, settle

    from qkv_desktop.state import SessionState

    def shoot(name: str, arrange) -> None:
        with sandboxed_window(SessionState.from_preset("tutorial-1")) as (app, window):
            arrange(window)
            settle(app, window)
            # strongest zlib compression keeps each file well under 300 KB
            window.grab().save(str(OUT / name), "PNG", 0)
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
