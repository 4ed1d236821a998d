"""Run a piece of Qt test code in a subprocess on a real X display (see ``x_display``).

The test process itself is bound to the offscreen platform (``conftest.py``), and a
process has one Qt platform for life. ``run_on_display`` writes a script that builds
a real main window on the ``xcb`` platform, runs ``body`` with ``app`` and ``window``
in scope, and returns what ``body`` put in the dict ``out`` (as JSON).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_PROLOGUE = '''
import json, sys
sys.path.insert(0, {repo!r})
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.main_window import MainWindow

app = QApplication(sys.argv[:1])
assert app.platformName() == "xcb", app.platformName()
window = MainWindow(AttentionModel(SessionState.from_preset({preset!r})),
                    QSettings({settings!r}, QSettings.Format.IniFormat))
window.files.maybe_save = lambda: True
window.resize({width}, {height})
window.show()
window.activateWindow()
assert QTest.qWaitForWindowActive(window, 10000), "the window never became active"
assert window.model.wait_until_idle()


def wait_active(widget):
    """Process events until ``widget``'s window is the active one (Xvfb has no window
    manager: activation arrives as an X focus event some time after showing)."""
    from PySide6.QtCore import QDeadlineTimer
    deadline = QDeadlineTimer(10000)
    while QApplication.activeWindow() is not widget.window():
        assert not deadline.hasExpired(), "the window never became active"
        widget.window().activateWindow()
        app.processEvents()


wait_active(window)
out = {{}}
'''

_EPILOGUE = '''
print("RESULT " + json.dumps(out), flush=True)
window.close()
window.model.shutdown()
window.deleteLater()
from PySide6.QtCore import QCoreApplication, QEvent
QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
del window
'''


def run_on_display(display: str, tmp_path: Path, body: str, preset: str = "tutorial-1",
                   size: tuple[int, int] = (1400, 900)) -> dict:
    """Run ``body`` under X on ``display``; the dict it filled in, or AssertionError."""
    script = tmp_path / "under_x.py"
    script.write_text(_PROLOGUE.format(repo=str(REPO), preset=preset,
                                       settings=str(tmp_path / "settings.ini"),
                                       width=size[0], height=size[1])
                      + textwrap.dedent(body) + _EPILOGUE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", PYQTGRAPH_QT_LIB="PySide6",
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_RUNTIME_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=300)
    lines = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    return json.loads(lines[-1][len("RESULT "):])
