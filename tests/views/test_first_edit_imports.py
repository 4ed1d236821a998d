"""A session's first edit imports no module (issue 20: every stall of an edit ≤ 16 ms).

A module imported after PySide6 has its source read by shiboken's import hook. The X
table announced an edit's cells through ``np.unique``, whose first call imports
``numpy.ma``: 10–15 ms of the GUI thread in the first edit of every session, most of
the longest stall of an edit that follows opening a session. Run in a child process,
where nothing else has imported ``numpy.ma`` yet; counted, never timed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import os, sys, tempfile
import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.state.cow_matrix import shares_pages
from qkv_desktop.views.main_window import MainWindow
n = 400  # X of 2.4 MB: an edit of it is an edited copy that says which cells it wrote
state = SessionState.initialised([f"t{i}" for i in range(n)],
                                 np.random.default_rng(0).standard_normal((n, 768)), d_k=64)
model = AttentionModel(state)
window = MainWindow(model, QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"),
                                     QSettings.Format.IniFormat))
window.show()
for _ in range(3):
    model.wait_until_idle()
    app.processEvents()
before = set(sys.modules)
model.set_cell("X", 5, 7, 2.5)
for _ in range(5):
    model.wait_until_idle()
    app.processEvents()
print("edited copy:", shares_pages(model.state.X), flush=True)
print("imported:", " ".join(sorted(set(sys.modules) - before)) or "-", flush=True)
os._exit(0)
"""


def test_the_first_edit_of_a_large_x_imports_no_module(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen",
               PYQTGRAPH_QT_LIB="PySide6", PYTHONPATH=str(REPO_ROOT))
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / var.lower())
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "edited copy: True" in proc.stdout, proc.stdout
    assert "imported: -" in proc.stdout, proc.stdout
