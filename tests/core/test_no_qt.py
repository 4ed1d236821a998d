"""The maths, the session and file input stay usable from a notebook or a script.

Importing every module of ``core``, ``state`` and ``io`` in a fresh interpreter
never loads Qt (import-linter checks the same statically; this checks it at run
time, where a lazy import inside a function would also show).
"""

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import importlib, pkgutil, sys
import qkv_desktop.{package} as package
names = [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules
                if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
assert not loaded, f"qkv_desktop.{package} imported {{loaded}}"
print(len(names))
"""


@pytest.mark.parametrize("package", ["core", "state", "io"])
def test_importing_a_qt_free_package_loads_no_qt(package):
    done = subprocess.run([sys.executable, "-c", CHECK.format(package=package)], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 4, f"only {done.stdout.strip()} modules found in {package}"


def test_the_check_sees_a_qt_import(tmp_path):
    """The check itself can fail: a package that imports Qt is caught."""
    pkg = tmp_path / "qkv_desktop_probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "uses_qt.py").write_text("import PySide6.QtCore\n")
    script = CHECK.format(package="x").replace("qkv_desktop.x", "qkv_desktop_probe")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "imported" in done.stderr
