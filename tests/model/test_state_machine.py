"""Random sequences of every mutation, undo and redo on ``AttentionModel``.

After each step: shapes are consistent, the result is bit for bit a fresh
``compute`` of the state (or the state cannot be computed and the model said so),
hover and selection point into the state, and a refused change left nothing behind.
Undoing everything, at any point and at the end, gives back the initial state
bit-exactly; redoing everything gives back the state before the undo.
"""

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import CellRef, SessionState, compute
from qkv_desktop.state.session_state import MAX_HEADS, check_size

# Small, ordinary values plus the awkward ones: signed zero, a subnormal, big values
# that overflow float32 (refused by compute in float32 mode) and the naive softmax.
# Also values up to the float64 limit (issue 19: they crashed the panes' paint).
VALUES = st.one_of(
    st.floats(-3, 3, allow_nan=False, width=64),
    st.sampled_from([0.0, -0.0, 1e-310, 1e-3, 250.0, -900.0, 1e39, 6e153, 9e307, -9e307,
                     1.7976931348623157e308, -1.7976931348623157e308]),
)
BLOCKS = st.integers(1, 3).flatmap(lambda r: st.integers(1, 3).flatmap(
    lambda c: st.lists(st.lists(VALUES, min_size=c, max_size=c), min_size=r, max_size=r)))
INDEX = st.integers(0, 50)  # taken modulo the current size
MATRICES = ("X", "Q", "K", "V", "scores", "scaled", "weights", "output", "W_Q", "X_kv")

STEPS = {"count": 0, "examples": 0, "states": set()}


def bits(a) -> tuple:
    return None if a is None else (a.shape, a.dtype.str, a.tobytes())


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


def digest(s: SessionState) -> int:
    """A hash of every field, to count the distinct states explored."""
    arrays = [s.X, s.X_kv, s.W_O] + [getattr(w, n) for w in s.heads
                                     for n in ("W_Q", "W_K", "W_V")]
    return hash((s.tokens, s.kv_tokens, s.mode, s.seed, s.init_scale, s.options,
                 tuple(bits(a) for a in arrays)))


class ModelMachine(RuleBasedStateMachine):
    """One ``AttentionModel``, driven only through its public mutation methods."""

    @initialize(preset=st.sampled_from(["tutorial-1", "tutorial-2", "random-small"]))
    def start(self, preset):
        STEPS["examples"] += 1
        self.model = AttentionModel(SessionState.from_preset(preset))
        self.messages = []
        self.model.message.connect(self.messages.append)
        self.initial = self.model.state

    def teardown(self):
        if hasattr(self, "model"):
            self._check_undo_all_and_redo_all()
            self.model.shutdown()

    # ------------------------------------------------------------ helpers
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

    def _table(self, use_kv: bool) -> str:
        return "X_kv" if use_kv and self.model.state.X_kv is not None else "X"

    def _rows(self, table: str) -> int:
        return getattr(self.model.state, table).shape[0]

    def _check_undo_all_and_redo_all(self) -> None:
        stack = self.model.undo_stack
        current, index = self.model.state, stack.index()
        stack.setIndex(0)
        assert self.model.state.equals(self.initial)
        stack.setIndex(index)
        assert self.model.state.equals(current)

    # -------------------------------------------------------------- rules
    @rule(kv=st.booleans(), r=INDEX, c=INDEX, value=VALUES)
    def edit_cell(self, kv, r, c, value):
        table = self._table(kv)
        n, d = getattr(self.model.state, table).shape
        if n:
            self._attempt(self.model.set_cell, table, r % n, c % d, value)

    @rule(r=INDEX, c=INDEX, values=st.lists(VALUES, min_size=2, max_size=6))
    def scrub(self, r, c, values):
        n, d = self.model.state.X.shape
        if n:
            gesture = self.model.new_gesture()
            for v in values:
                self._attempt(self.model.set_cell, "X", r % n, c % d, v, gesture=gesture)

    @rule(kv=st.booleans(), r=INDEX, count=st.integers(1, 3))
    def insert(self, kv, r, count):
        table = self._table(kv)
        self._attempt(self.model.insert_tokens, table, r % (self._rows(table) + 1), count)

    @rule(kv=st.booleans(), rows=st.lists(INDEX, min_size=1, max_size=3))
    def delete(self, kv, rows):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self._attempt(self.model.delete_tokens, table, [r % n for r in rows])

    @rule(kv=st.booleans(), src=INDEX, dst=INDEX)
    def move(self, kv, src, dst):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self._attempt(self.model.move_token, table, src % n, dst % n)

    @rule(kv=st.booleans(), r=INDEX, c=INDEX, block=BLOCKS, named=st.booleans())
    def paste(self, kv, r, c, block, named):
        table = self._table(kv)
        n, d = getattr(self.model.state, table).shape
        names = [f"p{k}" for k in range(len(block))] if named else None
        self._attempt(self.model.paste_block, table, r % (n + 1), c % (d + 1), block, names)

    @rule(kv=st.booleans(), r=INDEX, name=st.sampled_from(["猫", "a b", "😀", "", "x\ny"]))
    def rename(self, kv, r, name):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self._attempt(self.model.rename_token, table, r % n, name)

    @rule(d_k=st.integers(1, 6))
    def set_d_k(self, d_k):
        self._attempt(self.model.set_d_k, d_k)

    @rule(d_model=st.integers(0, 10))
    def set_d_model(self, d_model):
        self._attempt(self.model.set_d_model, d_model)

    @rule(col=INDEX)
    def remove_dimension(self, col):
        self._attempt(self.model.remove_dimension, col % (self.model.state.d_model + 1))

    @rule(seed=st.integers(0, 2000))
    def set_seed(self, seed):
        self._attempt(self.model.set_seed, seed)

    @rule(scale=st.sampled_from([0.05, 0.1, 0.5, 2.0, 0.0, -1.0]))
    def set_init_scale(self, scale):
        self._attempt(self.model.set_init_scale, scale)

    @rule(scale=st.sampled_from(["sqrt_dk", "none", 2.5, 0.5, 0.0, "bad"]))
    def set_scale(self, scale):
        self._attempt(self.model.set_options, scale=scale, merge_key="scale")

    @rule(t=st.sampled_from([0.05, 0.5, 1.0, 3.0, 10.0, 0.0, float("nan")]))
    def set_temperature(self, t):
        self._attempt(self.model.set_options, temperature=t, merge_key="temperature")

    @rule(option=st.sampled_from(["causal", "share_qk", "stable"]), on=st.booleans())
    def toggle(self, option, on):
        self._attempt(self.model.set_options, **{option: on})

    @rule(dtype=st.sampled_from(["float64", "float32", "float16"]))
    def set_dtype(self, dtype):
        self._attempt(self.model.set_options, dtype=dtype)

    @rule(heads=st.one_of(st.integers(0, 3), st.sampled_from([MAX_HEADS - 1, MAX_HEADS,
                                                               MAX_HEADS + 1])),
          explicit=st.booleans(), d_k=st.integers(1, 4))
    def set_heads(self, heads, explicit, d_k):
        self._attempt(self.model.set_heads, heads, d_k if explicit else None)

    @rule(on=st.booleans())
    def output_projection(self, on):
        self._attempt(self.model.set_output_projection, on)

    @rule(h=INDEX, name=st.sampled_from(["W_Q", "W_K", "W_V"]), r=INDEX, c=INDEX,
          value=VALUES)
    def set_weight(self, h, name, r, c, value):
        s = self.model.state
        self._attempt(self.model.set_weight, h % s.n_heads, name, r % s.d_model,
                      c % s.d_k, value)

    @rule(mode=st.sampled_from(["self", "cross"]))
    def set_mode(self, mode):
        self._attempt(self.model.set_mode, mode)

    @rule(factor=st.sampled_from([100.0, 0.01, -1.0, 1e300]))
    def scale_inputs(self, factor):
        self._attempt(self.model.scale_inputs, factor)

    @rule(h=INDEX)
    def current_head(self, h):
        self.model.set_current_head(h)

    @rule(matrix=st.sampled_from(MATRICES), r=INDEX, c=INDEX, pin=st.booleans())
    def hover(self, matrix, r, c, pin):
        ref = CellRef(matrix, r % 5, c % 5, self.model.current_head)
        if ref_in_state(self.model.state, ref):
            (self.model.set_selection if pin else self.model.set_hover)(ref)

    @precondition(lambda self: self.model.undo_stack.canUndo())
    @rule()
    def undo(self):
        STEPS["count"] += 1
        self.model.undo_stack.undo()

    @precondition(lambda self: self.model.undo_stack.canRedo())
    @rule()
    def redo(self):
        STEPS["count"] += 1
        self.model.undo_stack.redo()

    @rule()
    def undo_all_and_back(self):
        self._check_undo_all_and_redo_all()

    # ---------------------------------------------------------- invariants
    @invariant()
    def shapes_are_consistent(self):
        s = self.model.state
        STEPS["states"].add(digest(s))
        assert len(s.tokens) == s.X.shape[0]
        assert all(w.W_Q.shape == w.W_K.shape == w.W_V.shape == (s.d_model, s.d_k)
                   for w in s.heads)
        if s.X_kv is not None:
            assert s.X_kv.shape == (len(s.kv_tokens), s.d_model)
        if s.W_O is not None:
            assert s.W_O.shape == (s.n_heads * s.d_k, s.d_model)
        kv = 0 if s.X_kv is None else s.X_kv.shape[0]
        check_size(s.n, kv if s.mode == "cross" else s.n, s.d_model, s.d_k, s.n_heads, kv)
        assert 0 <= self.model.current_head < s.n_heads

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
