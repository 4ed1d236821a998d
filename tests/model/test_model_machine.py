"""Random sequences of every mutation, undo and redo on the Qt ``AttentionModel``.

The edits themselves are checked without Qt by ``test_state_machine``; this machine
checks what the live model adds on top: its undo commands (``CellsCommand`` rebuilding
from stored cells, merging), the recomputation (synchronous or on the worker) and
hover, selection and current head following the state.

After each step: shapes are consistent, the result is bit for bit a fresh
``compute`` of the state (or the state cannot be computed and the model said so),
hover and selection point into the state, and a refused change left nothing behind.
Undoing everything, at any point and at the end, gives back the initial state
bit-exactly; redoing everything gives back the state before the undo.
"""

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule, run_state_machine_as_test

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import CellRef, SessionState, compute
from tests.model.session_rules import INDEX, SessionRules, bits

MATRICES = ("X", "Q", "K", "V", "scores", "scaled", "weights", "output", "W_Q", "X_kv")

STEPS = {"count": 0, "examples": 0, "states": set()}


def ref_in_state(s: SessionState, ref: CellRef) -> bool:
    """Whether ``ref`` names a cell of the matrices ``s`` computes to (test-side rule)."""
    if not 0 <= ref.head < s.n_heads:
        return False
    w = s.heads[ref.head]
    kv = s.X_kv if s.mode == "cross" else s.X
    shapes = {"X": s.X.shape, "X_kv": None if s.X_kv is None else s.X_kv.shape,
              "Q": (s.n, s.d_k), "K": (kv.shape[0], s.d_k), "V": (kv.shape[0], s.d_k),
              "scores": (s.n, kv.shape[0]), "scaled": (s.n, kv.shape[0]),
              "weights": (s.n, kv.shape[0]), "output": (s.n, s.d_k), "W_Q": w.W_Q.shape}
    shape = shapes[ref.matrix]
    return shape is not None and ref.row < shape[0] and ref.col < shape[1]


class ModelMachine(SessionRules):
    """One ``AttentionModel``, driven only through its public mutation methods."""

    steps = STEPS

    @initialize(preset=st.sampled_from(["tutorial-1", "tutorial-2", "random-small"]))
    def start(self, preset):
        STEPS["examples"] += 1
        self.model = AttentionModel(SessionState.from_preset(preset))
        self.messages = []
        self.model.message.connect(self.messages.append)
        self.initial = self.model.state

    def teardown(self):
        if hasattr(self, "model"):
            self.check_undo_all_and_redo_all()
            self.model.shutdown()

    # ------------------------------------------------ the model makes the changes
    @property
    def state(self) -> SessionState:
        return self.model.state

    def change(self, name, *args, **kwargs) -> None:
        self._attempt(getattr(self.model, name), *args, **kwargs)

    def scrub(self, row, col, values) -> None:
        gesture = self.model.new_gesture()
        for v in values:
            self._attempt(self.model.set_cell, "X", row, col, v, gesture=gesture)

    def can_undo(self) -> bool:
        return self.model.undo_stack.canUndo()

    def can_redo(self) -> bool:
        return self.model.undo_stack.canRedo()

    def index(self) -> int:
        return self.model.undo_stack.index()

    def set_index(self, index: int) -> None:
        self.model.undo_stack.setIndex(index)

    def _attempt(self, fn, *args, **kwargs) -> None:
        """Apply a mutation; a refusal must be a ValueError that changed nothing."""
        STEPS["count"] += 1
        before, index = self.model.state, self.model.undo_stack.index()
        count = self.model.undo_stack.count()
        try:
            fn(*args, **kwargs)
        except ValueError:
            assert self.model.state is before
            assert self.model.undo_stack.index() == index
            assert self.model.undo_stack.count() == count

    # -------------------------------------------- what only the live model has
    @rule(h=INDEX)
    def current_head(self, h):
        self.model.set_current_head(h)

    @rule(matrix=st.sampled_from(MATRICES), r=INDEX, c=INDEX, pin=st.booleans())
    def hover(self, matrix, r, c, pin):
        ref = CellRef(matrix, r % 5, c % 5, self.model.current_head)
        if ref_in_state(self.model.state, ref):
            (self.model.set_selection if pin else self.model.set_hover)(ref)

    @invariant()
    def the_current_head_is_in_the_state(self):
        assert 0 <= self.model.current_head < self.model.state.n_heads

    @invariant()
    def result_is_a_fresh_compute(self):
        model = self.model
        current = model.wait_until_idle()
        try:
            fresh = compute(model.state)
        except ValueError as exc:
            assert not current and str(exc) in self.messages[-1]
            return
        assert current and model.result.state is model.state
        for h in range(model.state.n_heads):
            got, want = model.result.matrices(h), fresh.matrices(h)
            for key in want:
                assert bits(got[key]) == bits(want[key]), (h, key)
        if fresh.multi.output is None:
            assert model.result.multi.output is None
        else:
            assert bits(model.result.multi.output) == bits(fresh.multi.output)

    @invariant()
    def hover_and_selection_point_into_the_state(self):
        for ref in (self.model.hover, self.model.selection):
            assert ref is None or ref_in_state(self.model.state, ref), ref


@pytest.mark.filterwarnings("error::RuntimeWarning")  # overflow is shown, never warned about
def test_model_state_machine(qapp):
    STEPS.update(count=0, examples=0, states=set())
    run_state_machine_as_test(ModelMachine, settings=settings(
        max_examples=150, stateful_step_count=50, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow]))
    print(f"\nstate machine: {STEPS['examples']} runs, {STEPS['count']} model actions, "
          f"{len(STEPS['states'])} distinct states")
    assert len(STEPS["states"]) > 500
