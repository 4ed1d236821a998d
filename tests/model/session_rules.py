"""The changes a user can make, as hypothesis rules shared by two state machines.

``SessionRules`` holds every rule that changes the session (edit, scrub, insert,
delete, move, paste, rename, dimensions, seed, options, heads, W_O, weights, mode,
scaling, undo and redo) and the shape invariant. A subclass says how a change is
made: ``test_state_machine`` calls the pure edits of ``qkv_desktop.state.edits`` on a
history of its own, without Qt; ``test_model_machine`` calls the same-named methods of
the Qt ``AttentionModel`` and uses its undo stack. Nothing here imports Qt.
"""

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from qkv_desktop.state import SessionState
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
TOKEN_NAMES = st.sampled_from(["猫", "a b", "😀", "", "x\ny"])
SCALES = st.sampled_from(["sqrt_dk", "none", 2.5, 0.5, 0.0, "bad"])
TEMPERATURES = st.sampled_from([0.05, 0.5, 1.0, 3.0, 10.0, 0.0, float("nan")])
INIT_SCALES = st.sampled_from([0.05, 0.1, 0.5, 2.0, 0.0, -1.0])
INPUT_FACTORS = st.sampled_from([100.0, 0.01, -1.0, 1e300])
HEAD_COUNTS = st.one_of(st.integers(0, 3), st.sampled_from([MAX_HEADS - 1, MAX_HEADS,
                                                           MAX_HEADS + 1]))


def bits(a) -> tuple:
    return None if a is None else (a.shape, a.dtype.str, a.tobytes())


def digest(s: SessionState) -> int:
    """A hash of every field, to count the distinct states explored."""
    arrays = [s.X, s.X_kv, s.W_O] + [getattr(w, n) for w in s.heads
                                     for n in ("W_Q", "W_K", "W_V")]
    return hash((s.tokens, s.kv_tokens, s.mode, s.seed, s.init_scale, s.options,
                 tuple(bits(a) for a in arrays)))


def assert_consistent(s: SessionState) -> None:
    """Tokens, inputs, every head's weights and W_O agree in shape; the size fits."""
    assert len(s.tokens) == s.X.shape[0]
    assert all(w.W_Q.shape == w.W_K.shape == w.W_V.shape == (s.d_model, s.d_k)
               for w in s.heads)
    if s.X_kv is not None:
        assert s.X_kv.shape == (len(s.kv_tokens), s.d_model)
    if s.W_O is not None:
        assert s.W_O.shape == (s.n_heads * s.d_k, s.d_model)
    kv = 0 if s.X_kv is None else s.X_kv.shape[0]
    check_size(s.n, kv if s.mode == "cross" else s.n, s.d_model, s.d_k, s.n_heads, kv)


class SessionRules(RuleBasedStateMachine):
    """Every change, by the name the edits and the model share; subclasses implement
    ``state``, ``change``, ``scrub`` and the history (``can_undo`` … ``set_index``)."""

    steps: dict  # {"count", "examples", "states"}, one per subclass

    # -------------------------------------------------------- what a subclass does
    @property
    def state(self) -> SessionState:
        raise NotImplementedError

    def change(self, name: str, *args, **kwargs) -> None:
        """Make change ``name``; a refusal is a ``ValueError`` that changed nothing."""
        raise NotImplementedError

    def scrub(self, row: int, col: int, values) -> None:
        """Drag X[row, col] through ``values``: one step in the history."""
        raise NotImplementedError

    def can_undo(self) -> bool:
        raise NotImplementedError

    def can_redo(self) -> bool:
        raise NotImplementedError

    def index(self) -> int:
        raise NotImplementedError

    def set_index(self, index: int) -> None:
        """Undo or redo until ``index`` steps are done."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers
    def _table(self, use_kv: bool) -> str:
        return "X_kv" if use_kv and self.state.X_kv is not None else "X"

    def _rows(self, table: str) -> int:
        return getattr(self.state, table).shape[0]

    def check_undo_all_and_redo_all(self) -> None:
        """Undoing everything gives the first state, redoing it all the last, bit for bit."""
        current, index = self.state, self.index()
        self.set_index(0)
        assert self.state.equals(self.initial)
        self.set_index(index)
        assert self.state.equals(current)

    # -------------------------------------------------------------------- rules
    @rule(kv=st.booleans(), r=INDEX, c=INDEX, value=VALUES)
    def edit_cell(self, kv, r, c, value):
        table = self._table(kv)
        n, d = getattr(self.state, table).shape
        if n:
            self.change("set_cells", table, [r % n], [c % d], [value])

    @rule(r=INDEX, c=INDEX, values=st.lists(VALUES, min_size=2, max_size=6))
    def scrub_cell(self, r, c, values):
        n, d = self.state.X.shape
        if n:
            self.scrub(r % n, c % d, values)

    @rule(kv=st.booleans(), r=INDEX, count=st.integers(1, 3))
    def insert(self, kv, r, count):
        table = self._table(kv)
        self.change("insert_tokens", table, r % (self._rows(table) + 1), count)

    @rule(kv=st.booleans(), rows=st.lists(INDEX, min_size=1, max_size=3))
    def delete(self, kv, rows):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self.change("delete_tokens", table, [r % n for r in rows])

    @rule(kv=st.booleans(), src=INDEX, dst=INDEX)
    def move(self, kv, src, dst):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self.change("move_token", table, src % n, dst % n)

    @rule(kv=st.booleans(), r=INDEX, c=INDEX, block=BLOCKS, named=st.booleans())
    def paste(self, kv, r, c, block, named):
        table = self._table(kv)
        n, d = getattr(self.state, table).shape
        names = [f"p{k}" for k in range(len(block))] if named else None
        self.change("paste_block", table, r % (n + 1), c % (d + 1), block, names)

    @rule(kv=st.booleans(), r=INDEX, name=TOKEN_NAMES)
    def rename(self, kv, r, name):
        table = self._table(kv)
        n = self._rows(table)
        if n:
            self.change("rename_token", table, r % n, name)

    @rule(d_k=st.integers(1, 6))
    def set_d_k(self, d_k):
        self.change("set_d_k", d_k)

    @rule(d_model=st.integers(0, 10))
    def set_d_model(self, d_model):
        self.change("set_d_model", d_model)

    @rule(col=INDEX)
    def remove_dimension(self, col):
        self.change("remove_dimension", col % (self.state.d_model + 1))

    @rule(seed=st.integers(0, 2000))
    def set_seed(self, seed):
        self.change("set_seed", seed)

    @rule(scale=INIT_SCALES)
    def set_init_scale(self, scale):
        self.change("set_init_scale", scale)

    @rule(scale=SCALES)
    def set_scale(self, scale):
        self.change("set_options", scale=scale, merge_key="scale")

    @rule(t=TEMPERATURES)
    def set_temperature(self, t):
        self.change("set_options", temperature=t, merge_key="temperature")

    @rule(option=st.sampled_from(["causal", "share_qk", "stable"]), on=st.booleans())
    def toggle(self, option, on):
        self.change("set_options", **{option: on})

    @rule(dtype=st.sampled_from(["float64", "float32", "float16"]))
    def set_dtype(self, dtype):
        self.change("set_options", dtype=dtype)

    @rule(heads=HEAD_COUNTS, explicit=st.booleans(), d_k=st.integers(1, 4))
    def set_heads(self, heads, explicit, d_k):
        self.change("set_heads", heads, d_k if explicit else None)

    @rule(on=st.booleans())
    def output_projection(self, on):
        self.change("set_output_projection", on)

    @rule(h=INDEX, name=st.sampled_from(["W_Q", "W_K", "W_V"]), r=INDEX, c=INDEX,
          value=VALUES)
    def set_weight(self, h, name, r, c, value):
        s = self.state
        self.change("set_weight", h % s.n_heads, name, r % s.d_model, c % s.d_k, value)

    @rule(mode=st.sampled_from(["self", "cross"]))
    def set_mode(self, mode):
        self.change("set_mode", mode)

    @rule(factor=INPUT_FACTORS)
    def scale_inputs(self, factor):
        self.change("scale_inputs", factor)

    @precondition(lambda self: self.can_undo())
    @rule()
    def undo(self):
        self.steps["count"] += 1
        self.set_index(self.index() - 1)

    @precondition(lambda self: self.can_redo())
    @rule()
    def redo(self):
        self.steps["count"] += 1
        self.set_index(self.index() + 1)

    @rule()
    def undo_all_and_back(self):
        self.check_undo_all_and_redo_all()

    # --------------------------------------------------------------- invariants
    @invariant()
    def shapes_are_consistent(self):
        self.steps["states"].add(digest(self.state))
        assert_consistent(self.state)
