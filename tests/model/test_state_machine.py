"""Random sequences of every edit, undo and redo on ``SessionState``, without Qt.

The edits of ``qkv_desktop.state.edits`` are pure functions ``state -> Edit``; this
machine applies them to a history of its own (undo as the model's commands do it: a
whole-state step goes back to the state before, a cell step writes the old values
back with ``write_cells``) and calls ``compute`` directly. After each step: shapes are
consistent, the edit left its input untouched (a refused one too), and the state
computes to matrices of the catalogue's shapes or is refused with a ``ValueError``.
Undoing everything, at any point and at the end, gives back the initial state
bit-exactly; redoing everything gives back the state before the undo.

No QApplication: ``test_the_machine_runs_without_qt`` runs it in a fresh interpreter
and checks that no Qt module was loaded. ``test_model_machine`` drives the same rules
through the Qt ``AttentionModel``.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, run_state_machine_as_test

from qkv_desktop.state import SessionState, compute, edits
from qkv_desktop.state.catalogue import matrix_shape
from qkv_desktop.state.edits import CellEdit, write_cells
from tests.model.session_rules import SessionRules, digest

REPO_ROOT = Path(__file__).resolve().parents[2]

STEPS = {"count": 0, "examples": 0, "states": set(), "computed": 0}


class EditMachine(SessionRules):
    """A ``SessionState`` and its undo history, changed only by the pure edits."""

    steps = STEPS

    @initialize(preset=st.sampled_from(["tutorial-1", "tutorial-2", "random-small"]))
    def start(self, preset):
        STEPS["examples"] += 1
        self.current = self.initial = SessionState.from_preset(preset)
        self.history: list[tuple] = []  # (undo, redo): state -> state, as the commands do
        self.done = 0

    def teardown(self):
        if hasattr(self, "current"):
            self.check_undo_all_and_redo_all()

    # ------------------------------------------------------- the edits, by name
    @property
    def state(self) -> SessionState:
        return self.current

    def _edit(self, name, *args, **kwargs):
        """``edits.<name>(state, …)``; a refusal is ``None``, and must leave no trace."""
        STEPS["count"] += 1
        before = digest(self.current)
        try:
            edit = getattr(edits, name)(self.current, *args, **kwargs)
        except ValueError:  # EditError included
            edit = None
        assert digest(self.current) == before, f"{name} changed its input state"
        return edit

    def change(self, name, *args, **kwargs) -> None:
        edit = self._edit(name, *args, **kwargs)
        if edit is not None:
            self._record(edit, edit)

    def scrub(self, row, col, values) -> None:
        """The cell's values one after another; the gesture undoes as one step, as a
        merged ``CellsCommand`` does: from the first old value to the last new one."""
        start, first, last = self.current, None, None
        for v in values:
            edit = self._edit("set_cells", "X", [row], [col], [v])
            if edit is None:
                break
            first, last = (edit if first is None else first), edit
            self.current = edit.state
        self.current = start
        if first is not None:
            self._record(first, last)

    def _record(self, first: edits.Edit, last: edits.Edit) -> None:
        """Push the step from the current state to ``last.state`` (no step if equal)."""
        before, after = self.current, last.state
        if after.equals(before):
            return
        if isinstance(first, CellEdit):
            t, rows, cols, old, new = first.table, first.rows, first.cols, first.old, last.new
            step = (lambda s: write_cells(s, t, rows, cols, old),
                    lambda s: write_cells(s, t, rows, cols, new))
        else:
            step = (lambda _s: before, lambda _s: after)
        del self.history[self.done:]
        self.history.append(step)
        self.done += 1
        self.current = after

    def can_undo(self) -> bool:
        return self.done > 0

    def can_redo(self) -> bool:
        return self.done < len(self.history)

    def index(self) -> int:
        return self.done

    def set_index(self, index: int) -> None:
        while self.done > index:
            self.done -= 1
            self.current = self.history[self.done][0](self.current)
        while self.done < index:
            self.current = self.history[self.done][1](self.current)
            self.done += 1

    # --------------------------------------------------------------- invariants
    @invariant()
    def computes_to_the_catalogue_shapes_or_is_refused(self):
        s = self.current
        try:
            result = compute(s)
        except ValueError:
            return  # the model shows "Could not compute attention" and keeps the state
        STEPS["computed"] += 1
        assert result.state is s
        for h in sorted({0, s.n_heads - 1}):
            for name, a in result.matrices(h).items():
                if a is not None and a.ndim == 2:
                    assert a.shape == matrix_shape(s, name), (h, name, a.shape)
            result.lessons(h)  # the read-outs the panes show, on the same result
        weights = result.matrix("weights")
        finite = np.isfinite(weights).all(axis=1)
        np.testing.assert_allclose(weights[finite].sum(axis=1), 1.0, rtol=1e-2)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # overflow is shown, never warned about
def test_edit_state_machine():
    STEPS.update(count=0, examples=0, states=set(), computed=0)
    run_state_machine_as_test(EditMachine, settings=settings(
        max_examples=150, stateful_step_count=50, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow]))
    print(f"\nedit machine: {STEPS['examples']} runs, {STEPS['count']} edits, "
          f"{len(STEPS['states'])} distinct states, {STEPS['computed']} computed")
    assert len(STEPS["states"]) > 500 and STEPS["computed"] > 500


NO_QT = """
import sys
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test
from tests.model import test_state_machine as machine
run_state_machine_as_test(machine.EditMachine, settings=settings(
    max_examples=5, stateful_step_count=20, deadline=None, database=None, derandomize=True))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
assert not loaded, f"the edit machine loaded {loaded}"
print(machine.STEPS["count"])
"""


def test_the_machine_runs_without_qt():
    """The machine, the edits and compute it drives need no Qt: run in a fresh
    interpreter (pytest-qt has loaded PySide6 into this one), nothing of Qt loads."""
    done = subprocess.run([sys.executable, "-c", NO_QT], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 20  # it really ran edits
