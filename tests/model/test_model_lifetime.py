"""A model let go is freed at once by reference counting, not by the cyclic collector.

A reference cycle through the model's Qt children (a bound method of the model kept in
a child's attributes) leaves the model to Python's cyclic garbage collector, which may
run at any allocation, and PySide 6.11 crashes when it deletes the model's
``QUndoStack`` of Python commands (a segfault in ``QUndoStack::clear``, seen in CI in
``test_model_machine``). So: no such cycle, checked with the collector off.
"""

import gc
import weakref
from pathlib import Path

import pytest

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState


def _used_model() -> AttentionModel:
    """A model that went through what a session does: edits, a scrub, undo, redo."""
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    assert model.wait_until_idle()
    model.set_cell("X", 0, 0, 2.0)
    gesture = model.new_gesture()
    for v in (0.5, 0.75, 1.0):
        model.set_cell("X", 1, 1, v, gesture=gesture)
    model.set_d_k(2)
    assert model.wait_until_idle()
    model.undo_stack.undo()
    model.undo_stack.redo()
    assert model.wait_until_idle()
    return model


def test_a_model_let_go_after_shutdown_is_freed_at_once(qapp, no_cyclic_gc):
    model = _used_model()
    model.shutdown()
    ref = weakref.ref(model)
    del model
    assert ref() is None, [type(r) for r in gc.get_referrers(ref())]


def test_a_model_let_go_without_shutdown_is_freed_at_once(qapp, no_cyclic_gc):
    model = _used_model()
    ref = weakref.ref(model)
    del model
    assert ref() is None, [type(r) for r in gc.get_referrers(ref())]


_COLLECTED_IN_A_CYCLE = """
import gc, os
os.environ["PYQTGRAPH_QT_LIB"] = "PySide6"
from PySide6.QtWidgets import QApplication
app = QApplication([])
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState

SHUT_DOWN = {shut_down}


class Holder:  # like a test's state machine: the model reached only through a cycle
    pass

for i in range(60):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    model.set_cell("X", 0, 0, 0.5 + i)
    gesture = model.new_gesture()
    for v in (0.25, 0.5, 0.75):
        model.set_cell("X", 1, 1, v - i, gesture=gesture)
    model.undo_stack.undo()
    model.set_cell("X", 2, 0, -0.5 - i)
    assert model.wait_until_idle()
    if SHUT_DOWN:
        model.shutdown()
    holder = Holder()
    holder.model, holder.me = model, holder
    del model, holder
    if i % 7 == 6:
        gc.collect()
print("collected")
"""


@pytest.mark.parametrize("shut_down", [True, False], ids=["shut down", "not shut down"])
def test_a_model_collected_through_a_reference_cycle_does_not_crash(tmp_path, shut_down):
    """Before the undo history went first (``shutdown``, or the model's finalizer when
    nobody called it), this segfaulted at the first collection (``QUndoStack::clear``
    deleting commands PySide had freed)."""
    import os
    import subprocess
    import sys
    script = tmp_path / "cycle.py"
    script.write_text(_COLLECTED_IN_A_CYCLE.replace("{shut_down}", str(shut_down)))
    done = subprocess.run([sys.executable, "-X", "faulthandler", str(script)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                               # the checkout, not installed: as pytest finds it
                               "PYTHONPATH": os.pathsep.join(
                                   [str(Path(__file__).parents[2])]
                                   + [p for p in [os.environ.get("PYTHONPATH")] if p])})
    assert done.returncode == 0 and "collected" in done.stdout, done.stderr[-2000:]
