"""The core stays usable from a notebook or a script: importing it never loads Qt."""

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
import qkv_desktop.core
loaded = sorted(m for m in sys.modules
                if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
assert not loaded, f"qkv_desktop.core imported {loaded}"
assert "qkv_desktop.core.attention" in sys.modules
"""


def test_importing_the_core_loads_no_qt():
    done = subprocess.run([sys.executable, "-c", CHECK], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
