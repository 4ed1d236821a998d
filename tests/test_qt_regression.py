"""PySide6-Essentials 6.12.0 regression: void Qt calls drop a reference to ``None``.

On CPython 3.11 every call to a Qt method returning ``void`` decremented ``None``'s
reference count; after a few thousand calls the interpreter aborted in
``none_dealloc``. The check runs in a child pytest so that such an abort fails this
test instead of killing the whole run.
"""

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = "QKV_QT_REGRESSION_CHILD"


@pytest.mark.skipif(not os.environ.get(CHILD), reason="runs inside test_void_qt_calls_*")
def test_none_refcount_in_child(qtbot):
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QWidget

    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    gc.collect()
    gc.disable()  # nothing may release references to None behind the test's back
    try:
        before = sys.getrefcount(None)
        for _ in range(5000):
            widget.update()
        for _ in range(300):
            QCoreApplication.processEvents()
        after = sys.getrefcount(None)
    finally:
        gc.enable()
    assert after >= before, f"None lost {before - after} references"


def test_void_qt_calls_keep_none_alive():
    here = Path(__file__)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", f"{here}::test_none_refcount_in_child", "-q",
         "-p", "no:cacheprovider"],
        cwd=here.parents[1], env={**os.environ, CHILD: "1"},
        capture_output=True, text=True, timeout=120)
    report = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"child exited with {done.returncode}:\n{report}"
    assert "1 passed" in done.stdout, report
