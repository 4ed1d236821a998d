"""The catalogue of a session's matrices: one entry per matrix, read by every layer.

Each ``MatrixSpec`` says what a matrix is called (as in ``matrices.npz`` and in a
``CellRef``), which tokens or dimensions label its rows and columns (and so its
shape), whether it differs from head to head, whether the user edits it, whether a
head's data export holds it, whether it has a pane, when the session has it at all,
and where its values are in a result. The model's hover checks, the linking rules,
the panes' labels, the data export and the status-bar text all ask this module, so
a new matrix (a RoPE-rotated Q, a KV cache, grouped key/value heads) is one entry
here plus its pane's title and cell sentence.

Label kinds, i.e. what one row or column of a matrix stands for:

``queries``  a token of X (n);
``keys``     a token attended over: of X_kv in cross mode, else of X (m);
``kv``       a token of the stored key/value sequence X_kv, in either mode;
``dims``     a model dimension (d_model);
``d_k``      a dimension of one head (d_k);
``heads``    a dimension of one head, once per head (h·d_k).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.weights import WEIGHT_NAMES

__all__ = ["CellRef", "MatrixSpec", "MATRICES", "MATRIX", "WEIGHT_NAMES", "PROJECTION_NAMES",
           "BIAS_NAMES", "HEAD_EXPORT", "OPTIONAL_EXPORT", "FIGURE_GROUPS", "HIDDEN_BY_DEFAULT",
           "HEAD_INDEPENDENT", "UNIT_RANGE", "BOOLEAN",
           "NM_MATRICES", "EDITABLE_TABLES", "TOKEN_KINDS", "extent", "matrix_shape", "cell_in",
           "axis_labels", "head_file_name", "RowMap", "move_cell", "HEADS_OVERVIEW",
           "pane_relevant", "relevant_panes"]

PROJECTION_NAMES = WEIGHT_NAMES[:3]
"""The per-head projections ``W_Q, W_K, W_V`` (d_model × d_k)."""
BIAS_NAMES = WEIGHT_NAMES[3:]
"""Their optional biases ``b_Q, b_K, b_V`` (d_k)."""


@dataclass(frozen=True)
class CellRef:
    """A cell of a named matrix (``"X"``, ``"Q"``, ``"weights"``…) of one head."""

    matrix: str
    row: int
    col: int
    head: int = 0


@dataclass(frozen=True)
class MatrixSpec:
    """One matrix of a session (see the module notes for the label kinds).

    ``value(result, head)`` returns the matrix from a ``ModelResult`` (or ``None`` when
    this session has none). ``present(state)`` says whether the session has it to show;
    ``None`` means every session has it.

    ``optional_export`` puts a matrix that only some sessions have (cross-attention's
    X_kv, the sinusoidal X_pos, RoPE's rotated Q and K, the mask, the ALiBi bias, the
    multi-head concatenation, W_O and its projection) into the data export after the
    ``head_export`` ones, when the session has it (``present``).
    ``figure_group`` says where an optional pane's figure goes among the extra figures
    (``FIGURE_GROUPS``); the panes every session has are in ``"head"``.

    ``hidden_by_default`` gives a pane that starts hidden (View menu to show it): it is
    not one of the standard panes, so the default grid, the rendered figures and the
    figure export stay as they were until the user asks for it.

    ``unit_range``: every value is in [0, 1] by construction, whatever the edits (the
    softmax weights, the mask's 1 and 0). Such a matrix is drawn on a fixed [0, 1]
    colour scale, and its value labels keep no room for a minus sign.

    ``boolean``: every value is 1 or 0, a yes or no (the mask: allowed, masked). Its
    values are written 1 and 0 (``numbers.format_boolean``), as a boolean matrix reads;
    "1.0000" suggested a measured quantity that might have been 0.9999.
    """

    name: str
    rows: str
    cols: str
    value: Callable
    per_head: bool = True
    editable: bool = False
    head_export: bool = False
    pane: bool = True
    present: Callable | None = None
    optional_export: bool = False
    figure_group: str = "head"
    hidden_by_default: bool = False
    unit_range: bool = False
    boolean: bool = False


def _weights(name: str) -> Callable:
    def value(result, head):
        s = result.state
        w = s.heads[s.head_index(head)]
        return getattr(w.tied() if s.options.share_qk else w, name)
    return value


def _head_attr(name: str) -> Callable:
    return lambda result, head: getattr(result.head(head), name)


def _positions(kind: str) -> Callable:
    """Whether the session tells the scores positions this way ("rope", "sinusoidal")."""
    return lambda state: state.options.positions == kind


def _masked(state) -> bool:
    """Whether any rule can hide a key (causal, window, prefix), or the custom mask is on
    (the pane is where it is painted, so it shows even before the first cell)."""
    return state.options.custom_mask or state.mask_spec().restricts


def _allowed(result, head):
    """The mask pane's values: 1 where the query may attend to the key, 0 where masked."""
    return result.mask_values(head)


MATRICES: tuple[MatrixSpec, ...] = (
    MatrixSpec("X", "queries", "dims", lambda r, h: r.state.X, per_head=False,
               editable=True, head_export=True),
    MatrixSpec("X_kv", "kv", "dims", lambda r, h: r.state.X_kv, per_head=False,
               editable=True, present=lambda s: s.mode == "cross", optional_export=True,
               figure_group="sequence"),
    *(MatrixSpec(name, "dims", "d_k", _weights(name), editable=True, head_export=True,
                 pane=False) for name in PROJECTION_NAMES),
    MatrixSpec("X_pos", "queries", "dims", lambda r, h: r.head(0).X_pos, per_head=False,
               present=_positions("sinusoidal"), optional_export=True,
               figure_group="positions"),
    MatrixSpec("Q", "queries", "d_k", _head_attr("Q"), head_export=True),
    MatrixSpec("K", "keys", "d_k", _head_attr("K"), head_export=True),
    MatrixSpec("Q_rope", "queries", "d_k", _head_attr("Q_rope"), present=_positions("rope"),
               optional_export=True, figure_group="positions"),
    MatrixSpec("K_rope", "keys", "d_k", _head_attr("K_rope"), present=_positions("rope"),
               optional_export=True, figure_group="positions"),
    MatrixSpec("V", "keys", "d_k", _head_attr("V"), head_export=True),
    MatrixSpec("scores", "queries", "keys", _head_attr("scores"), head_export=True),
    MatrixSpec("mask", "queries", "keys", _allowed, per_head=False, present=_masked,
               optional_export=True, figure_group="positions", unit_range=True,
               boolean=True),
    MatrixSpec("bias", "queries", "keys", _head_attr("bias"),
               present=lambda s: s.options.alibi is not None, optional_export=True,
               figure_group="positions"),
    MatrixSpec("scaled", "queries", "keys", _head_attr("scaled"), head_export=True),
    MatrixSpec("S_shift", "queries", "keys", lambda r, h: r.shifted(h), hidden_by_default=True),
    MatrixSpec("weights", "queries", "keys", _head_attr("weights"), head_export=True,
               unit_range=True),
    MatrixSpec("output", "queries", "d_k", _head_attr("output"), head_export=True),
    MatrixSpec("concat", "queries", "heads", lambda r, h: r.multi.concat, per_head=False,
               present=lambda s: s.n_heads > 1, optional_export=True, figure_group="heads"),
    MatrixSpec("W_O", "heads", "dims", lambda r, h: r.state.W_O, per_head=False, pane=False,
               present=lambda s: s.W_O is not None, optional_export=True),
    MatrixSpec("projected", "queries", "dims", lambda r, h: r.multi.output, per_head=False,
               present=lambda s: s.W_O is not None, optional_export=True,
               figure_group="heads"),
)
"""Every matrix, in display order (X_kv next to X, the multi-head results at the end)."""

MATRIX = {spec.name: spec for spec in MATRICES}

HEAD_EXPORT = tuple(s.name for s in MATRICES if s.head_export)
"""What one head's data export holds, in order (the keys of ``matrices.npz``)."""
OPTIONAL_EXPORT = tuple(s.name for s in MATRICES if s.optional_export)
"""Added to the data export after ``HEAD_EXPORT``, in order, when the session has them."""
FIGURE_GROUPS = ("sequence", "head", "positions", "heads")
"""The order of the exported figures' groups: the key/value sequence, each head's panes
(per head only for h > 1), the position and mask panes, the multi-head results."""
HIDDEN_BY_DEFAULT = frozenset(s.name for s in MATRICES if s.pane and s.hidden_by_default)
"""Panes hidden until the user shows them from the View menu (not among the standard panes)."""
HEAD_INDEPENDENT = frozenset(s.name for s in MATRICES if not s.per_head)
"""Matrices that are the same whichever head is chosen."""
UNIT_RANGE = frozenset(s.name for s in MATRICES if s.unit_range)
"""Matrices whose every value is in [0, 1] (``MatrixSpec.unit_range``)."""
BOOLEAN = frozenset(s.name for s in MATRICES if s.boolean)
"""Matrices whose every value is 1 or 0, written so (``MatrixSpec.boolean``)."""
NM_MATRICES = tuple(s.name for s in MATRICES if (s.rows, s.cols) == ("queries", "keys"))
"""The n×m attention matrices: one cell per (query, key) pair."""
EDITABLE_TABLES = tuple(s.name for s in MATRICES if s.editable and not s.per_head)
"""The token tables the user edits (X, and X_kv in cross mode)."""

TOKEN_KINDS = frozenset({"queries", "keys", "kv"})
"""Label kinds whose rows or columns are tokens (the others are dimensions)."""


HEADS_OVERVIEW = "heads"
"""The grid's small multiples of every head's weights: a pane, not a matrix, that a
session with more than one head shows."""


def pane_relevant(state, key: str) -> bool:
    """Whether pane ``key`` (a matrix's, or ``HEADS_OVERVIEW``) has anything to show for
    ``state``: the rule of ``relevant_panes``, for one pane."""
    if key == HEADS_OVERVIEW:
        return state.n_heads > 1
    spec = MATRIX.get(key)
    if spec is None or not spec.pane:
        return False
    return spec.present is None or spec.present(state)


def relevant_panes(state) -> frozenset[str]:
    """The panes that have something to show for ``state``: the ones the pane grid lays
    out (unless the user hid them) and the View menu leaves enabled. The others (RoPE's
    without RoPE, X_kv outside cross mode, concat with one head…) are left out of the
    grid and greyed in the menu, their tick kept for a session that has them."""
    keys = [s.name for s in MATRICES if s.pane] + [HEADS_OVERVIEW]
    return frozenset(k for k in keys if pane_relevant(state, k))


def extent(state, kind: str) -> int:
    """How many rows or columns of label ``kind`` a matrix of ``state`` has."""
    kv = 0 if state.X_kv is None else state.X_kv.shape[0]
    return {"queries": state.n, "keys": kv if state.mode == "cross" else state.n, "kv": kv,
            "dims": state.d_model, "d_k": state.d_k,
            "heads": state.n_heads * state.d_k}[kind]


def matrix_shape(state, name: str) -> tuple[int, int] | None:
    """The shape matrix ``name`` has in ``state`` (``None`` for an unknown name)."""
    spec = MATRIX.get(name)
    if spec is None:
        return None
    return extent(state, spec.rows), extent(state, spec.cols)


def cell_in(state, ref: CellRef) -> bool:
    """Whether ``ref`` names a cell of ``state``'s matrices (head and indices in range)."""
    shape = matrix_shape(state, ref.matrix)
    return (shape is not None and 0 <= ref.head < state.n_heads
            and 0 <= ref.row < shape[0] and 0 <= ref.col < shape[1])


class RowMap:
    """Where a change took the rows of the token tables X and X_kv, exactly as the edit
    moved them: a table it does not name kept its rows (``RowMap()`` moves none).

    Built by the token edits (insert, delete, move, a paste that grows the table) from
    ``sources``, the row each new row was before (-1: a new one). Token names cannot
    say it: duplicates ("[PAD] [PAD]", "very very") are common, and a move keeps every
    name. Read-only; ``inverse`` is the map of the undo.
    """

    __slots__ = ("_moved",)

    def __init__(self, moved: dict | None = None):
        self._moved = dict(moved or {})  # table -> (new row of each old row or -1, new count)

    @classmethod
    def of(cls, table: str, sources, old_count: int) -> RowMap:
        """The map of ``table``'s rows whose new row ``k`` was row ``sources[k]`` (-1: new)."""
        sources = np.asarray(sources, dtype=np.intp)
        to = np.full(old_count, -1, dtype=np.intp)
        kept = sources >= 0
        to[sources[kept]] = np.flatnonzero(kept)
        to.flags.writeable = False
        return cls({table: (to, len(sources))})

    def row(self, table: str, i: int) -> int | None:
        """Where row ``i`` of ``table`` went (None: deleted, or not a row before)."""
        if table not in self._moved:
            return i
        to, _count = self._moved[table]
        return int(to[i]) if 0 <= i < len(to) and to[i] >= 0 else None

    def moves(self, table: str) -> bool:
        """Whether the change took any row of ``table`` elsewhere (or changed its count)."""
        return table in self._moved

    def inverse(self) -> RowMap:
        """The map back: where each row after the change was before it."""
        return RowMap({table: self.of(table, to, count)._moved[table]
                       for table, (to, count) in self._moved.items()})

    def then(self, other: RowMap) -> RowMap:
        """This change followed by ``other`` (two undo steps merged into one)."""
        moved = dict(self._moved)
        for table, (to2, count2) in other._moved.items():
            if table in moved:
                to = moved[table][0]
                ok = (to >= 0) & (to < len(to2))
                to = np.where(ok, to2[np.where(ok, to, 0)] if len(to2) else -1, -1)
                to.flags.writeable = False
                moved[table] = (to, count2)
            else:
                moved[table] = (to2, count2)
        return RowMap(moved)


def _table_of(state, kind: str) -> str | None:
    """The token table whose rows label axis ``kind`` (None: not a token axis)."""
    if kind == "queries":
        return "X"
    if kind == "kv":
        return "X_kv"
    if kind == "keys":
        return "X_kv" if state.mode == "cross" else "X"
    return None


def move_cell(ref: CellRef, old, new, rows: RowMap | None) -> CellRef | None:
    """``ref``, a cell of ``old``'s matrices, as the cell of the same tokens in ``new``,
    the rows of the token tables having moved as ``rows`` says (None when one of its
    tokens is gone, or with no map: a load, an import).

    Before, the pin stayed at (i, j) when a token was inserted, deleted or moved above
    it, and the Explain panel explained another pair of tokens without a word.
    """
    if rows is None:
        return None
    spec = MATRIX.get(ref.matrix)
    if spec is None:
        return None
    index = [ref.row, ref.col]
    for axis, kind in enumerate((spec.rows, spec.cols)):
        table = _table_of(old, kind)
        if table is None:
            continue
        if table != _table_of(new, kind):
            return None  # the keys of another sequence (self- ↔ cross-attention)
        if not rows.moves(table) and extent(old, kind) != extent(new, kind):
            return None  # rows added or removed, and the change did not say which
        index[axis] = rows.row(table, index[axis])
        if index[axis] is None:
            return None
    moved = CellRef(ref.matrix, index[0], index[1], ref.head)
    return moved if cell_in(new, moved) else None


def head_file_name(name: str, h: int) -> str:
    """The name of head ``h``'s (0-based) copy of matrix or pane file ``name`` in an export
    of every head: ``weights_h2`` for h = 1, counted from 1 as the window counts. The
    figures (``weights_h2.png``) and the data (``W_Q_h2.csv``, key ``W_Q_h2``) share it,
    so a head's figure and numbers carry the same suffix."""
    return f"{name}_h{h + 1}"


def axis_labels(state, kind: str, index: Callable[[int], str] = str) -> list[str]:
    """Labels of the rows or columns of label ``kind``: token names, ``index(i)``, or
    for the concatenation's columns ``h1·d0 … h2·d0 …`` (``0 1 0 1`` would not say
    which head a column comes from)."""
    if kind == "queries":
        return list(state.tokens)
    if kind == "keys":
        return list(state.key_tokens)
    if kind == "kv":
        return list(state.kv_tokens)
    if kind == "heads":  # the concatenation: head (from 1, as the window counts) · dimension
        return [f"h{h + 1}·d{c}" for h in range(state.n_heads) for c in range(state.d_k)]
    return [index(c) for c in range(extent(state, kind))]
