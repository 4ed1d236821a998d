"""Every change a user can make to a session, as a pure ``SessionState`` → ``Edit`` function.

An edit builds the whole new state (or raises ``EditError`` and changes nothing) and
says, in a ``Text``, what to call the step in the undo history. No Qt: these run in
tests, scripts and the hypothesis state machine without a QApplication. The Qt model
(``qkv_desktop.model.AttentionModel``) pushes each ``Edit`` as one undo command and
translates its texts (context ``"Edits"``; lupdate reads the ``QT_TRANSLATE_NOOP``
marks below). An edit that would change nothing returns ``None``.

The domain rules live here: fresh token names, the default key/value sequence of
cross-attention, the seeded W_O, a paste that grows the table, and the memory check
that refuses a size before anything is allocated.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from qkv_desktop.core import Weights, init_multihead_weights
from qkv_desktop.state.catalogue import EDITABLE_TABLES, PROJECTION_NAMES, WEIGHT_NAMES, RowMap
from qkv_desktop.state.cow_matrix import edited_copy
from qkv_desktop.state.parsing import validate_token
from qkv_desktop.state.readouts import seeded_weights
from qkv_desktop.state.session_state import OPTION_NAMES, SessionState, check_size, head_dim_for
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, CellValue, EditError, Listed, Text

__all__ = ["Text", "Edit", "CellEdit", "cell_text", "EditError", "QT_TRANSLATE_NOOP",
           "new_token_names", "NEW_TOKEN",
           "default_kv", "output_projection", "check_dims", "write_cells", "set_cells",
           "rename_token", "insert_tokens", "delete_tokens", "move_token", "paste_block",
           "set_d_model", "remove_dimension", "set_d_k", "set_seed", "set_init_scale",
           "set_heads", "set_output_projection", "set_weight", "set_options", "set_mode",
           "scale_inputs", "set_masked", "load_vectors"]


@dataclass(frozen=True)
class Edit:
    """The state after an edit, the undo step's name, what consecutive ones merge by,
    and where it took the rows of the token tables (``moved``: the pinned cell follows
    its tokens by it; most edits move no row)."""

    state: SessionState
    text: Text
    merge_key: str | tuple[str, int] | None = None
    """A control's name: its consecutive edits within ``MERGE_WINDOW_S`` undo as one
    step. (name, gesture) (``AttentionModel.new_gesture``): every edit of that one drag
    undoes as one step, however long it pauses."""
    moved: RowMap = RowMap()
    note: Text | None = None
    """A sentence for the user once the edit is made, besides its undo name (what it
    replaced that the user may not expect)."""


@dataclass(frozen=True, eq=False)
class CellEdit(Edit):
    """Values written into cells of X or X_kv: the cells, their old and new values."""

    table: str = "X"
    rows: np.ndarray = None
    cols: np.ndarray = None
    old: np.ndarray = None
    new: np.ndarray = None
    cell: str | None = None  # "X[我, d0]" when one cell: its text is cell_text(cell, …)

    @property
    def changed(self) -> bool:
        return not np.array_equal(self.old, self.new)


_FINITE = QT_TRANSLATE_NOOP("Edits", "only finite numbers can be used")
NEW_TOKEN = QT_TRANSLATE_NOOP("Edits", "new")
"""The name of a token inserted or pasted past the end (then new2, new3…), its one
source: the English here, which the model's edits give in the interface language."""


# -- rules ---------------------------------------------------------------------------

def new_token_names(tokens, count: int, stem: str = NEW_TOKEN) -> list[str]:
    """``count`` names for tokens inserted among ``tokens``: ``stem``, ``stem2``,
    ``stem3``…, none of them taken. Inserted, added or pasted, a new token is named so.

    Not ``t<k>`` from the count: inserted at row 1 of the tutorial's 我 爱 人工 智能,
    "t4" reads as the fifth token, which it is not."""
    taken, out, k = set(tokens), [], 1
    while len(out) < count:
        name = stem if k == 1 else f"{stem}{k}"
        if name not in taken:
            out.append(name)
            taken.add(name)
        k += 1
    return out


def default_kv(state: SessionState) -> tuple[tuple[str, ...], np.ndarray]:
    """The key/value sequence cross-attention starts with: max(2, n) seeded tokens."""
    count = max(2, state.n)
    rng = np.random.RandomState(state.seed + 1)
    return tuple(f"k{i}" for i in range(count)), np.round(rng.rand(count, state.d_model), 1)


def output_projection(state: SessionState) -> np.ndarray:
    """The W_O the seeded initialisation draws after the heads (h·d_k × d_model)."""
    return init_multihead_weights(state.d_model, state.d_k, state.n_heads, state.seed,
                                  state.init_scale, with_output=True)[1]


def check_dims(state: SessionState, **dims) -> None:
    """Refuse, before anything is allocated, dimensions that would not fit in memory.

    ``dims`` override the state's ``n``, ``kv`` (key/value rows), ``d_model``, ``d_k``,
    ``heads``, ``mode`` and ``dtype`` (float32 holds more attention cells).
    """
    d = dict(n=state.n, kv=0 if state.X_kv is None else state.X_kv.shape[0],
             d_model=state.d_model, d_k=state.d_k, heads=state.n_heads, mode=state.mode,
             dtype=state.options.dtype)
    d.update(dims)
    mode = d.pop("mode")
    try:
        check_size(m=d["kv"] if mode == "cross" else d["n"], **d)
    except ValueError as exc:
        raise EditError(QT_TRANSLATE_NOOP("Edits", "{0}; the change was not applied."),
                        exc) from None


def _table(state: SessionState, table: str) -> np.ndarray:
    if table not in EDITABLE_TABLES:
        raise ValueError(f"unknown table {table!r}")
    X = getattr(state, table)
    if X is None:
        raise EditError(QT_TRANSLATE_NOOP("Edits", "there is no key/value sequence yet"))
    return X


def _tokens_attr(table: str) -> str:
    return "tokens" if table == "X" else "kv_tokens"


def _rows_key(table: str) -> str:
    return "n" if table == "X" else "kv"


# -- token tables --------------------------------------------------------------------

def write_cells(state: SessionState, table: str, rows, cols, values) -> SessionState:
    """``state`` with ``values`` written at (rows, cols) of ``table``; may raise.

    The new matrix shares the old one's unchanged memory (``cow_matrix``): an edit of
    one value no longer copies all of X on the GUI thread. It is read-only, so the new
    state keeps it as it is, without a second copy.
    """
    return state.with_(**{table: edited_copy(getattr(state, table), rows, cols, values)})


def set_cells(state: SessionState, table: str, rows, cols, values) -> CellEdit:
    """Set cells of X (or X_kv) at (rows[k], cols[k]); all values must be finite."""
    X = _table(state, table)
    rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
    values = np.asarray(values, dtype=np.float64)
    if not np.isfinite(values).all():
        raise EditError(_FINITE)
    if (rows.size and (rows.min() < 0 or rows.max() >= X.shape[0]
                       or cols.min() < 0 or cols.max() >= X.shape[1])):
        raise ValueError("cell index out of range")
    old = X[rows, cols].copy()
    cell = None
    if rows.size == 1:
        name = getattr(state, _tokens_attr(table))[rows[0]]
        cell = f"{table}[{name}, d{int(cols[0])}]"
        text = cell_text(cell, old[0], values[0])
    else:
        text = Text(QT_TRANSLATE_NOOP("Edits", "Edit {0} values"), (rows.size,))
    return CellEdit(write_cells(state, table, rows, cols, values), text, table=table, rows=rows,
                    cols=cols, old=old, new=values, cell=cell)


def cell_text(cell: str, old: float, new: float) -> Text:
    """The undo step of one edited value, as a learner reads it: ``X[我, d0] 0.8000 →
    0.9000`` (no words: the same in every language). The values are ``CellValue``
    fields, written by ``say`` with the tables' four decimals."""
    return Text("{0} {1} → {2}", (cell, CellValue(float(old)), CellValue(float(new))))


def rename_token(state: SessionState, table: str, row: int, name: str) -> Edit | None:
    validate_token(name)
    attr = _tokens_attr(table)
    tokens = list(getattr(state, attr))
    if tokens[row] == name:
        return None
    old, tokens[row] = tokens[row], name
    return Edit(state.with_(**{attr: tuple(tokens)}),
                Text(QT_TRANSLATE_NOOP("Edits", "Rename {0} to {1}"), (old, name)))


def insert_tokens(state: SessionState, table: str, row: int, count: int = 1,
                  names: list[str] | None = None, values=None, stem: str = NEW_TOKEN) -> Edit:
    """Insert ``count`` tokens before ``row`` (zero vectors unless ``values``), named
    ``names`` or ``new_token_names(…, stem)`` (the model passes ``NEW_TOKEN``
    translated)."""
    X = _table(state, table)
    attr = _tokens_attr(table)
    tokens = list(getattr(state, attr))
    check_dims(state, **{_rows_key(table): len(tokens) + count})
    row = int(np.clip(row, 0, len(tokens)))
    if names is None:
        names = new_token_names(tokens, count, stem)
    for n in names:
        validate_token(n)
    block = np.zeros((count, X.shape[1])) if values is None else np.asarray(values, float)
    if block.shape != (count, X.shape[1]) or not np.isfinite(block).all():
        raise EditError(QT_TRANSLATE_NOOP("Edits", "a new token needs {0} finite values"),
                        X.shape[1])
    newX = np.concatenate([X[:row], block, X[row:]], axis=0)
    tokens[row:row] = names
    if row == len(tokens) - count:  # after the last: the undo says what the button did
        text = (Text(QT_TRANSLATE_NOOP("Edits", "Add token")) if count == 1
                else Text(QT_TRANSLATE_NOOP("Edits", "Add {0} tokens"), (count,)))
    else:
        text = (Text(QT_TRANSLATE_NOOP("Edits", "Insert token")) if count == 1
                else Text(QT_TRANSLATE_NOOP("Edits", "Insert {0} tokens"), (count,)))
    moved = RowMap.of(table, [*range(row), *[-1] * count, *range(row, X.shape[0])],
                      X.shape[0])
    after, note = _mask_follows(state, moved, **{table: newX, attr: tuple(tokens)})
    return Edit(after, text, moved=moved, note=note)


def delete_tokens(state: SessionState, table: str, rows) -> Edit | None:
    X = _table(state, table)
    attr = _tokens_attr(table)
    rows = sorted({int(r) for r in rows if 0 <= int(r) < X.shape[0]})
    if not rows:
        return None
    keep = np.setdiff1d(np.arange(X.shape[0]), rows)
    if keep.size == 0:  # (a session file with no token is refused the same way)
        if table == "X_kv":
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "the key/value sequence needs at least one token"))
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "a session needs at least one token: the last one stays"))
    tokens = tuple(getattr(state, attr)[i] for i in keep)
    text = (Text(QT_TRANSLATE_NOOP("Edits", "Delete token")) if len(rows) == 1
            else Text(QT_TRANSLATE_NOOP("Edits", "Delete {0} tokens"), (len(rows),)))
    moved = RowMap.of(table, keep, X.shape[0])
    after, note = _mask_follows(state, moved, **{table: X[keep], attr: tokens})
    return Edit(after, text, moved=moved, note=note)


def move_token(state: SessionState, table: str, src: int, dst: int) -> Edit | None:
    """Move token ``src`` so that it ends up at index ``dst``."""
    X = _table(state, table)
    attr = _tokens_attr(table)
    n = X.shape[0]
    if not (0 <= src < n and 0 <= dst < n) or src == dst:
        return None
    order = list(range(n))
    order.insert(dst, order.pop(src))
    tokens = getattr(state, attr)
    moved = RowMap.of(table, order, n)
    after, note = _mask_follows(state, moved, **{table: X[order],
                                                 attr: tuple(tokens[i] for i in order)})
    return Edit(after, Text(QT_TRANSLATE_NOOP("Edits", "Move {0}"), (tokens[src],)),
                moved=moved, note=note)


def _mask_follows(state: SessionState, moved: RowMap, **changes
                  ) -> tuple[SessionState, Text | None]:
    """``state`` with ``changes`` (a token edit's new table and names) and the custom
    mask's cells taken where ``moved`` takes their tokens, and a note or None.

    A cell painted for the query "我" and the key "智能" stays theirs when a token is
    moved, inserted or deleted before them (it stayed at its row and column, over two
    other tokens; a deleted token's cells go with it). The rows are X's; the columns
    are X_kv's in cross-attention, else X's. Where the cells, so taken, would leave a
    query no key to attend to beside the other rules (a causal mask, a window), that
    query's painted cells are unmasked and the note says so: the edit itself is never
    refused for a mask the user may not even have on screen."""
    o = state.options
    if not o.masked:
        return state.with_(**changes), None
    keys = "X_kv" if state.mode == "cross" else "X"
    cells = [(moved.row("X", i), moved.row(keys, j)) for i, j in o.masked]
    cells = [(i, j) for i, j in cells if i is not None and j is not None]
    base = state.with_(**changes, options=replace(o, masked=()))
    note = None
    if o.custom_mask and cells:
        n, m = base.n, base.n_keys
        hidden = base.mask_spec().hidden_rows(0, n, m)
        rows, cols = zip(*cells, strict=True)
        hidden[list(rows), list(cols)] = True
        empty = set(np.flatnonzero(hidden.all(axis=1)).tolist())
        if empty:
            cells = [(i, j) for i, j in cells if i not in empty]
            names = [base.tokens[i] for i in sorted(empty)]
            note = (Text(QT_TRANSLATE_NOOP(
                "Edits", "The painted mask would have left the query “{0}” no key to "
                         "attend to: its painted cells were unmasked (Ctrl+Z brings them "
                         "back)."), (names[0],)) if len(names) == 1 else Text(
                QT_TRANSLATE_NOOP(
                    "Edits", "The painted mask would have left {0} queries no key to "
                             "attend to: their painted cells were unmasked (Ctrl+Z brings "
                             "them back)."), (len(names),)))
    return base.with_(options=replace(o, masked=tuple(cells))), note


def paste_block(state: SessionState, table: str, row: int, col: int, values,
                names: list[str] | None = None, stem: str = NEW_TOKEN) -> Edit:
    """Paste a block at (row, col), growing the table as needed; all or nothing.

    New rows are named as inserted tokens are (``new_token_names`` with ``stem``,
    ``NEW_TOKEN`` translated by the model); ``names`` (one per block row) rename the tokens the
    block lands on. New columns are new dimensions, so the weights re-initialise.
    """
    X = _table(state, table)
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2 or not np.isfinite(values).all():
        raise EditError(QT_TRANSLATE_NOOP("Edits", "only finite numbers can be pasted"))
    n_rows = max(X.shape[0], row + values.shape[0])
    n_cols = max(X.shape[1], col + values.shape[1])
    check_dims(state, **{_rows_key(table): n_rows}, d_model=n_cols)
    attr = _tokens_attr(table)
    tokens = list(getattr(state, attr))
    tokens += new_token_names(tokens, n_rows - len(tokens), stem)
    if names is not None:
        for k, name in enumerate(names):
            tokens[row + k] = validate_token(name)
    newX = np.zeros((n_rows, n_cols))
    newX[:X.shape[0], :X.shape[1]] = X
    newX[row:row + values.shape[0], col:col + values.shape[1]] = values
    changes = {table: newX, attr: tuple(tokens)}
    text = Text(QT_TRANSLATE_NOOP("Edits", "Paste {0}×{1} values"), values.shape)
    grown = RowMap.of(table, [*range(X.shape[0]), *[-1] * (n_rows - X.shape[0])], X.shape[0])
    moved = grown if n_rows != X.shape[0] else RowMap()
    if n_cols != state.d_model:  # new dimensions: new weights
        return _redrawing(state, state.reinitialised(d_model=n_cols, **changes), text,
                          moved=moved)
    return Edit(state.with_(**changes), text, moved=moved)


def scale_inputs(state: SessionState, factor: float) -> Edit:
    """Multiply every input vector by ``factor`` (the overflow lesson's ×100)."""
    with np.errstate(over="ignore"):
        X = state.X * factor
        X_kv = None if state.X_kv is None else state.X_kv * factor
    if not np.isfinite(X).all() or (X_kv is not None and not np.isfinite(X_kv).all()):
        raise EditError(QT_TRANSLATE_NOOP("Edits",
                                          "the values would become too large to be finite"))
    return Edit(state.with_(X=X, X_kv=X_kv),
                Text(QT_TRANSLATE_NOOP("Edits", "Multiply inputs by {0}"), (factor,)))


# -- imported vectors ---------------------------------------------------------------

_IMPORTED = QT_TRANSLATE_NOOP("Edits", "Imported {0}: X is now {1} × {2} (tokens × d_model).")
_IMPORT_REDRAWN = QT_TRANSLATE_NOOP(
    "Edits", "d_model went from {0} to {1}, so new weights were drawn from seed {2}.")
_IMPORT_REDRAWN_KV = QT_TRANSLATE_NOOP(
    "Edits", "d_model went from {0} to {1}, so new weights were drawn from seed {2} and "
             "the vectors of X_kv were cut or padded with zeros to {1} values.")
_IMPORT_MASK = QT_TRANSLATE_NOOP(
    "Edits", "The painted mask was cleared: it was for the old tokens.")


def load_vectors(state: SessionState, tokens, X, source: str) -> Edit:
    """X and its tokens read from the file ``source`` (``io.imports.import_vectors``:
    names, or None for a file without them, and an n × d_model array).

    Unnamed tokens are t0, t1, …. Another d_model draws new weights from the seed (and
    cuts or pads X_kv to it); the same keeps the weights. Painted cells belong to the
    tokens they were painted for: new tokens clear them (kept, they fell on whatever
    tokens came in at their rows). The note says what came in and what was reset (the
    model, which makes the edit a load, adds how to undo it).
    """
    X = np.asarray(X, dtype=np.float64)
    tokens = tuple(tokens) if tokens else tuple(f"t{i}" for i in range(X.shape[0]))
    changes: dict = {"X": X, "tokens": tokens}
    cleared = bool(state.options.masked) and tokens != state.tokens
    if cleared:
        changes["options"] = replace(state.options, masked=())
    resized = X.ndim == 2 and X.shape[1] != state.d_model
    after = state.reinitialised(**changes) if resized else state.with_(**changes)
    note = Text(_IMPORTED, (source, after.n, after.d_model))
    if resized:
        note = Text(_TWO_NOTES, (note, Text(
            _IMPORT_REDRAWN if state.X_kv is None else _IMPORT_REDRAWN_KV,
            (state.d_model, after.d_model, after.seed))))
    if cleared:
        note = Text(_TWO_NOTES, (note, Text(_IMPORT_MASK)))
    return Edit(after, Text(QT_TRANSLATE_NOOP("Edits", "Import {0}"), (source,)), note=note)


_WEIGHTS_IMPORTED = QT_TRANSLATE_NOOP(
    "Edits", "Imported {0}: W_Q, W_K and W_V, d_model × d_k = {2} × {3}, h = {1}.")
_WEIGHTS_NEW_HEADS = QT_TRANSLATE_NOOP(
    "Edits", "The heads went from {0} to {1}, so W_O was drawn again from seed {2}.")


def load_weights(state: SessionState, heads, source: str) -> Edit:
    """W_Q, W_K, W_V (and biases) of one head or of each head, read from the file
    ``source`` for the state's d_model and d_k (``io.imports.import_weights``).

    The same number of heads keeps everything else, W_O included (a typed-in W_O was
    replaced by a seeded one when every import redrew the state). Another number of
    heads needs a W_O of another size: it is drawn from the seed, and the note says so.
    """
    heads = tuple(heads) if isinstance(heads, (list, tuple)) else (heads,)
    if len(heads) == state.n_heads:
        after = state.with_(heads=heads)
    else:
        after = state.reinitialised(n_heads=len(heads)).with_(heads=heads)
    note = Text(_WEIGHTS_IMPORTED, (source, len(heads), state.d_model, state.d_k))
    if len(heads) != state.n_heads and state.W_O is not None:
        note = Text(_TWO_NOTES, (note, Text(_WEIGHTS_NEW_HEADS,
                                            (state.n_heads, len(heads), state.seed))))
    return Edit(after, Text(QT_TRANSLATE_NOOP("Edits", "Import {0}"), (source,)), note=note)


# -- dimensions and initialisation ----------------------------------------------------

_REDRAWN = QT_TRANSLATE_NOOP(
    "Edits", "New weights were drawn from seed {0}: the weights you had (typed in or "
             "loaded) are replaced. Ctrl+Z brings them back.")


_SPLIT = QT_TRANSLATE_NOOP(
    "Edits", "d_k is now {0}: {1} heads of d_k = {2} would need h·d_k = {3}, more than "
             "d_model = {4}, so the heads split d_model into {1} × {0}. Fewer heads keep "
             "d_k = {0}; Ctrl+Z brings d_k {2} back.")

_TWO_NOTES = QT_TRANSLATE_NOOP("Edits", "{0} {1}")
"""Two notes of one edit, one after the other (in Chinese without the space)."""


def _redrawing(state: SessionState, after: SessionState, text: Text,
               merge_key: str | None = None, moved: RowMap | None = None,
               note: Text | None = None) -> Edit:
    """An edit whose weights are drawn again from the seed: it says so when the weights
    it replaces were not the seeded ones (typed in, imported, a checkpoint's), which a
    change of d_k or of the seed would otherwise drop without a word. ``note``: what
    else the edit did that the user may not expect, said first."""
    redrawn = None if seeded_weights(state) else Text(_REDRAWN, (after.seed,))
    if note is not None and redrawn is not None:
        note = Text(_TWO_NOTES, (note, redrawn))
    return Edit(after, text, merge_key, RowMap() if moved is None else moved,
                note or redrawn)


def set_d_model(state: SessionState, d_model: int) -> Edit:
    """Add or remove dimensions at the end (new ones are 0); weights re-initialise."""
    check_dims(state, d_model=int(d_model))
    return _redrawing(state, state.reinitialised(d_model=int(d_model)),
                      Text(QT_TRANSLATE_NOOP("Edits", "Set d_model to {0}"), (d_model,)),
                      "d_model")


def remove_dimension(state: SessionState, col: int) -> Edit:
    """Remove dimension ``col`` from every token; weights re-initialise."""
    if state.d_model <= 1 or not 0 <= col < state.d_model:
        raise EditError(QT_TRANSLATE_NOOP("Edits", "d_model cannot go below 1"))
    X_kv = None if state.X_kv is None else np.delete(state.X_kv, col, axis=1)
    return _redrawing(state, state.reinitialised(X=np.delete(state.X, col, axis=1), X_kv=X_kv),
                      Text(QT_TRANSLATE_NOOP("Edits", "Remove dimension {0}"), (col,)))


def set_d_k(state: SessionState, d_k: int) -> Edit:
    check_dims(state, d_k=int(d_k))
    return _redrawing(state, state.reinitialised(d_k=int(d_k)),
                      Text(QT_TRANSLATE_NOOP("Edits", "Set d_k to {0}"), (d_k,)), "d_k")


def set_seed(state: SessionState, seed: int) -> Edit:
    return _redrawing(state, state.reinitialised(seed=int(seed)),
                      Text(QT_TRANSLATE_NOOP("Edits", "Set seed to {0}"), (seed,)), "seed")


def set_init_scale(state: SessionState, scale: float) -> Edit:
    if not (np.isfinite(scale) and scale > 0):
        raise EditError(QT_TRANSLATE_NOOP("Edits",
                                          "the initial weight scale must be a positive number"))
    return _redrawing(state, state.reinitialised(init_scale=float(scale)),
                      Text(QT_TRANSLATE_NOOP("Edits", "Set weight scale to {0}"), (scale,)),
                      "init_scale")


def set_heads(state: SessionState, n_heads: int, d_k: int | None = None) -> Edit | None:
    """Use ``n_heads`` heads; all weights re-initialise from the seed.

    Without ``d_k`` the head width follows ``head_dim_for``: the current d_k while
    h·d_k fits in d_model, else d_model / h when h divides it. A d_k changed so is
    said (a note): the tutorial's numbers were d_k's, and nothing else showed it went.
    """
    if n_heads == state.n_heads and d_k is None:
        return None
    note = None
    if d_k is None:
        d_k = head_dim_for(state.d_model, n_heads, state.d_k)
        if d_k != state.d_k:
            note = Text(_SPLIT, (d_k, int(n_heads), state.d_k, int(n_heads) * state.d_k,
                                 state.d_model))
    d_k = int(d_k)
    check_dims(state, heads=int(n_heads), d_k=d_k)
    return _redrawing(state, state.reinitialised(n_heads=int(n_heads), d_k=d_k),
                      Text(QT_TRANSLATE_NOOP("Edits", "Set heads to {0}"), (n_heads,)), "heads",
                      note=note)


def set_output_projection(state: SessionState, enabled: bool) -> Edit | None:
    """Add or remove W_O; the heads (with any edits) are kept as they are."""
    if enabled == (state.W_O is not None):
        return None
    if enabled:
        return Edit(state.with_(W_O=output_projection(state)),
                    Text(QT_TRANSLATE_NOOP("Edits", "Output projection W_O on")))
    return Edit(state.with_(W_O=None), Text(QT_TRANSLATE_NOOP("Edits",
                                                              "Output projection W_O off")))


def set_weight(state: SessionState, head: int, matrix: str, row: int, col: int,
               value: float) -> Edit:
    """Edit one entry of a head's W_Q, W_K or W_V."""
    if matrix not in PROJECTION_NAMES:
        raise ValueError(f"unknown weight matrix {matrix!r}")
    if not np.isfinite(value):
        raise EditError(_FINITE)
    w = state.heads[head]
    parts = {n: getattr(w, n) for n in WEIGHT_NAMES}
    parts[matrix] = parts[matrix].copy()
    parts[matrix][row, col] = value
    heads = list(state.heads)
    heads[head] = Weights(**parts)
    return Edit(state.with_(heads=tuple(heads)),
                cell_text(f"{matrix}[d{row}, {col}]", getattr(w, matrix)[row, col], value))


# -- options and mode -----------------------------------------------------------------

def set_options(state: SessionState, merge_key: str | tuple[str, int] | None = None,
                **changes) -> Edit | None:
    """Change attention options (any fields of ``Options``)."""
    new = replace(state.options, **changes)
    if new == state.options:
        return None
    if new.dtype != state.options.dtype:
        check_dims(state, dtype=new.dtype)  # float64 holds a quarter of float32's cells
    names = Listed(Text(OPTION_NAMES[key]) for key in changes)  # as the controls say them
    return Edit(state.with_(options=new),
                Text(QT_TRANSLATE_NOOP("Edits", "Change {0}"), (names,)), merge_key)


def set_masked(state: SessionState, cells, masked: bool, gesture: object = None) -> Edit | None:
    """Mask (or unmask) cells (query row, key column) of the custom mask.

    Masking switches the custom mask on. The cells of one drag (the same ``gesture``)
    merge into one undo step. A change that would leave a query without any key is
    refused (``ValueError`` from the state, naming the query).
    """
    o = state.options
    cells = {(int(i), int(j)) for i, j in cells}
    current = set(o.masked)
    new = (current | cells) if masked else (current - cells)
    if new == current and (o.custom_mask or not masked):
        return None
    after = state.with_(options=replace(o, masked=tuple(new), custom_mask=o.custom_mask or masked))
    text = (Text(QT_TRANSLATE_NOOP("Edits", "Mask cells")) if masked
            else Text(QT_TRANSLATE_NOOP("Edits", "Unmask cells")))
    return Edit(after, text, None if gesture is None else f"mask-paint-{gesture}")


_MASK_CLEARED = {
    "cross": QT_TRANSLATE_NOOP(
        "Edits", "The painted mask was cleared: its columns were the tokens of X, and in "
                 "cross-attention the keys are those of X_kv. Ctrl+Z brings it back."),
    "self": QT_TRANSLATE_NOOP(
        "Edits", "The painted mask was cleared: its columns were the tokens of X_kv, and in "
                 "self-attention the keys are those of X. Ctrl+Z brings it back."),
}
"""The note of a switch between self- and cross-attention that clears the painted mask."""


def set_mode(state: SessionState, mode: str) -> Edit | None:
    """Switch between self- and cross-attention (a default key/value sequence appears).

    The painted mask's columns are keys: X's tokens in self-attention, X_kv's in
    cross-attention. Kept across the switch, its cells fell on other keys (column 1,
    "爱", became the key "k1") or, past the new sequence's end, were dropped without a
    word. So the switch clears them, in the same undo step, with a note that says so;
    Ctrl+Z brings cells and mode back. When the keys are the same tokens either way
    (X_kv named as X), the mask still means what it meant and is kept, without a note.
    """
    if mode == state.mode:
        return None
    changes = {"mode": mode}
    keys = state.tokens
    if mode == "cross":
        check_dims(state, mode=mode,
                   kv=max(2, state.n) if state.X_kv is None else state.X_kv.shape[0])
        if state.X_kv is None:
            changes["kv_tokens"], changes["X_kv"] = default_kv(state)
        keys = changes.get("kv_tokens", state.kv_tokens)
    cleared = bool(state.options.masked) and tuple(keys) != state.key_tokens
    if cleared:
        changes["options"] = replace(state.options, masked=())
    after = state.with_(**changes)  # (refuses a mode that is neither)
    text = (Text(QT_TRANSLATE_NOOP("Edits", "Cross-attention")) if mode == "cross"
            else Text(QT_TRANSLATE_NOOP("Edits", "Self-attention")))
    return Edit(after, text, note=Text(_MASK_CLEARED[mode]) if cleared else None)
