"""The PyInstaller bundle builds, starts, renders, and leaves out what we do not use.

Slow (about a minute): run with ``pytest -m slow tests/test_standalone_build.py``.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PyInstaller", reason="PyInstaller is not installed (pip install pyinstaller)")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "resources" / "packaging" / "qkv-desktop.spec"
BUILD_TIMEOUT_S = 900
RUN_TIMEOUT_S = 180


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    """The built one-folder app (``dist/qkv-desktop``)."""
    work = tmp_path_factory.mktemp("pyinstaller")
    done = subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level=WARN",
         "--distpath", str(work / "dist"), "--workpath", str(work / "build")],
        cwd=work, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    folder = work / "dist" / "qkv-desktop"
    assert folder.is_dir()
    return folder


def run_bundle(bundle: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    exe = bundle / ("qkv-desktop.exe" if sys.platform == "win32" else "qkv-desktop")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONPATH", None)  # the bundle must not need the checkout
    return subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT_S, check=False)


def test_frozen_app_takes_a_screenshot(bundle, tmp_path):
    from PySide6.QtGui import QImage

    out = tmp_path / "out.png"
    done = run_bundle(bundle, "--screenshot", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 200 and image.height() > 200


def test_frozen_app_renders_a_preset(bundle, tmp_path):
    out = tmp_path / "figures"
    done = run_bundle(bundle, "render", "--preset", "tutorial-1", "--out", str(out),
                      cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    written = sorted(p.name for p in out.iterdir())
    assert any(name.endswith(".png") for name in written), written
    assert all((out / name).stat().st_size > 0 for name in written)


def test_bundle_carries_the_icon_and_no_unused_qt(bundle):
    internal = bundle / "_internal"
    assert (internal / "qkv_desktop/resources/icons/qkv-desktop.svg").is_file()
    assert (internal / "qkv_desktop/resources/qkv-desktop.desktop").is_file()
    qt_modules = {p.name.split(".")[0] for p in (internal / "PySide6").iterdir()}
    assert {"QtCore", "QtGui", "QtWidgets", "QtSvg"} <= qt_modules
    assert not qt_modules & {"QtQml", "QtQuick", "QtNetwork", "QtTest", "QtSql",
                             "QtMultimedia", "QtWebEngineCore", "QtPdf", "QtDesigner"}
    names = [p.name for p in internal.rglob("*")]
    for unused in ("Qt6Qml", "Qt6Quick", "Qt6WebEngine", "Qt6Multimedia", "Qt6Sql",
                   "Qt6Designer", "Qt6Pdf", "Qt6Test", "_tkinter", "matplotlib"):
        assert not any(unused in name for name in names), unused
