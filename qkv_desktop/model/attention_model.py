"""``AttentionModel``: the one source of truth the views display and edit.

Every mutation is an undo command; every change schedules one recomputation for
the next event-loop turn (so a burst of edits costs one core call). Large inputs
are computed on a worker thread, latest-wins: a newer state supersedes a pending
computation and stale results are dropped, so the GUI thread never waits.
"""

from __future__ import annotations

import itertools
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from qkv_desktop.core import Weights, init_multihead_weights
from qkv_desktop.model.commands import CellsCommand, StateCommand
from qkv_desktop.state.catalogue import EDITABLE_TABLES, PROJECTION_NAMES, WEIGHT_NAMES, CellRef, cell_in
from qkv_desktop.state.compute import ModelResult, compute
from qkv_desktop.state.parsing import validate_token
from qkv_desktop.state.session_state import SessionState, check_size, head_dim_for

__all__ = ["AttentionModel", "CellRef", "ASYNC_THRESHOLD"]

ASYNC_THRESHOLD = 300_000
"""Above this many score cells (n·m·heads) the forward runs off the GUI thread."""


class AttentionModel(QObject):
    """Owns the session state, its undo stack, and the latest result.

    Signals
    -------
    changed : the state changed (emitted at once, before recomputation).
    resultChanged(ModelResult) : a new result is ready for the current state.
    busyChanged(bool) : a background computation started or finished.
    message(str) : a short explanation for the status bar (e.g. refused input).
    hoverChanged(object) / selectionChanged(object) : a ``CellRef`` or ``None``.
    currentHeadChanged(int) : the head shown in the panes.
    """

    changed = Signal()
    resultChanged = Signal(object)
    busyChanged = Signal(bool)
    message = Signal(str)
    hoverChanged = Signal(object)
    selectionChanged = Signal(object)
    currentHeadChanged = Signal(int)
    _computed = Signal(int, object, object)

    def __init__(self, state: SessionState | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._state = state or SessionState.from_preset("tutorial-1")
        self._result: ModelResult | None = None
        self._result_generation = -1
        self._done_generation = -1
        self._generation = 0
        self._gesture_ids = itertools.count(1)
        self.undo_stack = QUndoStack(self)
        self._hover: CellRef | None = None
        self._selection: CellRef | None = None
        self._current_head = 0
        self.compute_calls = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._recompute)
        self._executor: ThreadPoolExecutor | None = None
        self._running: int | None = None
        self._computed.connect(self._on_computed)
        self.recompute_now()

    # ------------------------------------------------------------------ access
    @property
    def state(self) -> SessionState:
        return self._state

    @property
    def result(self) -> ModelResult | None:
        """The latest result; it may lag the state while a large forward runs."""
        return self._result

    @property
    def busy(self) -> bool:
        return self._running is not None

    @property
    def hover(self) -> CellRef | None:
        return self._hover

    @property
    def selection(self) -> CellRef | None:
        return self._selection

    @property
    def current_head(self) -> int:
        return self._current_head

    # ---------------------------------------------------------- recomputation
    def _command_failed(self, text: str, exc: Exception) -> None:
        """An undo/redo step could not be applied: it was dropped; say so and log it."""
        self.message.emit(self.tr("“{0}” could not be applied and was removed from the "
                                  "undo history: {1}").format(text, exc))
        sys.excepthook(type(exc), exc, exc.__traceback__)

    def _set_state(self, state: SessionState) -> None:
        """Install ``state`` (called by undo commands only) and schedule a recompute."""
        self._state = state
        self._generation += 1
        if self._current_head >= state.n_heads:
            self.set_current_head(state.n_heads - 1)
        for ref in (self._hover, self._selection):
            if ref is not None and not cell_in(state, ref):
                self.set_hover(None) if ref is self._hover else self.set_selection(None)
        self.changed.emit()
        if not self._timer.isActive():
            self._timer.start()

    def _cells(self, state: SessionState) -> int:
        m = state.X_kv.shape[0] if state.mode == "cross" else state.n
        return state.n * m * state.n_heads

    def recompute_now(self) -> None:
        """Compute synchronously (start-up, tests); pending timer work is folded in."""
        self._timer.stop()
        self._finish(self._generation, *self._run(self._state))

    def _recompute(self) -> None:
        if self._cells(self._state) < ASYNC_THRESHOLD:
            self._finish(self._generation, *self._run(self._state))
            return
        if self._running is not None:
            return  # latest wins: _on_computed starts again when the current one ends
        self._start_async()

    def _run(self, state: SessionState):
        self.compute_calls += 1
        try:
            result = compute(state)
            result.lessons(self._current_head)  # here, on the worker thread when async
            return result, None
        except Exception as exc:  # reported by _finish, never lost in the worker thread
            return None, exc

    def _start_async(self) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix="qkv-compute")
        generation, state = self._generation, self._state
        self._running = generation
        self.busyChanged.emit(True)

        def job():
            result, error = self._run(state)
            self._computed.emit(generation, result, error)

        self._executor.submit(job)

    def _on_computed(self, generation: int, result, error) -> None:
        self._running = None
        if generation == self._generation:
            self._finish(generation, result, error)
        if self._done_generation != self._generation:
            self._start_async()
        else:
            self.busyChanged.emit(False)

    def _finish(self, generation: int, result: ModelResult | None, error) -> None:
        self._done_generation = generation
        if error is not None:
            if not isinstance(error, (ValueError, FloatingPointError, MemoryError)):
                sys.excepthook(type(error), error, error.__traceback__)  # a bug: log it
            self.message.emit(self.tr("Could not compute attention: {0}").format(error))
            return
        self._result, self._result_generation = result, generation
        self.resultChanged.emit(result)

    def wait_until_idle(self, timeout_ms: int = 30_000) -> bool:
        """Process events until the current state has been computed (tests, export, render).

        Returns whether ``result`` matches the state: ``False`` after a timeout or when
        the state could not be computed (the ``message`` signal said why).
        """
        from PySide6.QtCore import QDeadlineTimer, QEventLoop
        deadline = QDeadlineTimer(timeout_ms)
        while self._done_generation != self._generation or self._timer.isActive():
            if deadline.hasExpired():
                return False
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        return self._result_generation == self._generation

    def shutdown(self) -> None:
        """Stop the worker thread (the window calls this on close)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    # ------------------------------------------------------------- view state
    def set_hover(self, ref: CellRef | None) -> None:
        if ref != self._hover:
            self._hover = ref
            self.hoverChanged.emit(ref)

    def set_selection(self, ref: CellRef | None) -> None:
        if ref != self._selection:
            self._selection = ref
            self.selectionChanged.emit(ref)

    def set_current_head(self, head: int) -> None:
        head = int(np.clip(head, 0, self._state.n_heads - 1))
        if head != self._current_head:
            self._current_head = head
            self.currentHeadChanged.emit(head)

    # -------------------------------------------------------------- mutations
    def _push(self, after: SessionState, text: str, merge_key: str | None = None) -> None:
        if after.equals(self._state):
            return
        self.undo_stack.push(StateCommand(self, self._state, after, text, merge_key))

    def _check_size(self, **dims) -> None:
        """Refuse, before anything is allocated, dimensions that would not fit in memory.

        ``dims`` override the state's ``n``, ``kv`` (key/value rows), ``d_model``,
        ``d_k``, ``heads`` and ``mode``.
        """
        s = self._state
        d = dict(n=s.n, kv=0 if s.X_kv is None else s.X_kv.shape[0], d_model=s.d_model,
                 d_k=s.d_k, heads=s.n_heads, mode=s.mode)
        d.update(dims)
        mode = d.pop("mode")
        try:
            check_size(m=d["kv"] if mode == "cross" else d["n"], **d)
        except ValueError as exc:
            raise ValueError(self.tr("{0}; the change was not applied.").format(exc)) from None

    def _table(self, table: str) -> np.ndarray:
        if table not in EDITABLE_TABLES:
            raise ValueError(f"unknown table {table!r}")
        X = getattr(self._state, table)
        if X is None:
            raise ValueError(self.tr("there is no key/value sequence yet"))
        return X

    def _tokens_attr(self, table: str) -> str:
        return "tokens" if table == "X" else "kv_tokens"

    def new_gesture(self) -> int:
        """A key for ``set_cells(gesture=…)``: the edits of one drag undo as one step."""
        return next(self._gesture_ids)

    def set_cell(self, table: str, row: int, col: int, value: float,
                 gesture: object = None) -> None:
        """Set one value of X (or X_kv)."""
        self.set_cells(table, [row], [col], [value], gesture)

    def set_cells(self, table: str, rows, cols, values, gesture: object = None,
                  text: str | None = None) -> None:
        """Set cells of X (or X_kv) at (rows[k], cols[k]); all values must be finite."""
        X = self._table(table)
        rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
        values = np.asarray(values, dtype=np.float64)
        if not np.isfinite(values).all():
            raise ValueError(self.tr("only finite numbers can be used"))
        if (rows.size and (rows.min() < 0 or rows.max() >= X.shape[0]
                           or cols.min() < 0 or cols.max() >= X.shape[1])):
            raise ValueError("cell index out of range")
        old = X[rows, cols].copy()
        if np.array_equal(old, values) and gesture is None:
            return
        if text is None:
            name = self._state.tokens[rows[0]] if table == "X" else self._state.kv_tokens[rows[0]]
            text = self.tr("Edit {0}[{1}]").format(name, int(cols[0])) if rows.size == 1 \
                else self.tr("Edit {0} values").format(rows.size)
        after = CellsCommand.build(self._state, table, rows, cols, values)  # may raise
        self.undo_stack.push(CellsCommand(self, table, rows, cols, old, values, text, gesture,
                                          after))

    def rename_token(self, table: str, row: int, name: str) -> None:
        validate_token(name)
        attr = self._tokens_attr(table)
        tokens = list(getattr(self._state, attr))
        if tokens[row] == name:
            return
        old, tokens[row] = tokens[row], name
        self._push(self._state.with_(**{attr: tuple(tokens)}),
                   self.tr("Rename {0} to {1}").format(old, name))

    def insert_tokens(self, table: str, row: int, count: int = 1,
                      names: list[str] | None = None, values=None) -> None:
        """Insert ``count`` tokens before ``row`` (zero vectors unless ``values``)."""
        X = self._table(table)
        attr = self._tokens_attr(table)
        tokens = list(getattr(self._state, attr))
        self._check_size(**{"n" if table == "X" else "kv": len(tokens) + count})
        row = int(np.clip(row, 0, len(tokens)))
        if names is None:
            names = self._fresh_names(tokens, count)
        for n in names:
            validate_token(n)
        block = np.zeros((count, X.shape[1])) if values is None else np.asarray(values, float)
        if block.shape != (count, X.shape[1]) or not np.isfinite(block).all():
            raise ValueError(self.tr("a new token needs {0} finite values").format(X.shape[1]))
        newX = np.concatenate([X[:row], block, X[row:]], axis=0)
        tokens[row:row] = names
        text = self.tr("Insert token") if count == 1 else self.tr("Insert {0} tokens").format(count)
        self._push(self._state.with_(**{table: newX, attr: tuple(tokens)}), text)

    @staticmethod
    def _fresh_names(tokens: list[str], count: int) -> list[str]:
        taken, out, k = set(tokens), [], len(tokens)
        while len(out) < count:
            name = f"t{k}"
            if name not in taken:
                out.append(name)
                taken.add(name)
            k += 1
        return out

    def delete_tokens(self, table: str, rows) -> None:
        X = self._table(table)
        attr = self._tokens_attr(table)
        rows = sorted({int(r) for r in rows if 0 <= int(r) < X.shape[0]})
        if not rows:
            return
        keep = np.setdiff1d(np.arange(X.shape[0]), rows)
        if table == "X_kv" and keep.size == 0:
            raise ValueError(self.tr("the key/value sequence needs at least one token"))
        tokens = tuple(getattr(self._state, attr)[i] for i in keep)
        text = (self.tr("Delete token") if len(rows) == 1
                else self.tr("Delete {0} tokens").format(len(rows)))
        self._push(self._state.with_(**{table: X[keep], attr: tokens}), text)

    def move_token(self, table: str, src: int, dst: int) -> None:
        """Move token ``src`` so that it ends up at index ``dst``."""
        X = self._table(table)
        attr = self._tokens_attr(table)
        n = X.shape[0]
        if not (0 <= src < n and 0 <= dst < n) or src == dst:
            return
        order = list(range(n))
        order.insert(dst, order.pop(src))
        tokens = getattr(self._state, attr)
        self._push(self._state.with_(**{table: X[order],
                                        attr: tuple(tokens[i] for i in order)}),
                   self.tr("Move {0}").format(tokens[src]))

    def paste_block(self, table: str, row: int, col: int, values,
                    names: list[str] | None = None) -> None:
        """Paste a block at (row, col), growing the table as needed; all or nothing.

        ``names`` (one per block row) rename the tokens the block lands on.
        """
        X = self._table(table)
        values = np.asarray(values, dtype=np.float64)
        if values.ndim != 2 or not np.isfinite(values).all():
            raise ValueError(self.tr("only finite numbers can be pasted"))
        n_rows = max(X.shape[0], row + values.shape[0])
        n_cols = max(X.shape[1], col + values.shape[1])
        self._check_size(**{"n" if table == "X" else "kv": n_rows}, d_model=n_cols)
        attr = self._tokens_attr(table)
        tokens = list(getattr(self._state, attr))
        tokens += self._fresh_names(tokens, n_rows - len(tokens))
        if names is not None:
            for k, name in enumerate(names):
                tokens[row + k] = validate_token(name)
        newX = np.zeros((n_rows, n_cols))
        newX[:X.shape[0], :X.shape[1]] = X
        newX[row:row + values.shape[0], col:col + values.shape[1]] = values
        changes = {table: newX, attr: tuple(tokens)}
        if n_cols != self._state.d_model:  # new dimensions: the weights re-initialise
            after = self._state.reinitialised(d_model=n_cols, **changes)
        else:
            after = self._state.with_(**changes)
        self._push(after, self.tr("Paste {0}×{1} values").format(*values.shape))

    def set_d_model(self, d_model: int) -> None:
        """Add or remove dimensions at the end (new ones are 0); weights re-initialise."""
        self._check_size(d_model=int(d_model))
        self._push(self._state.reinitialised(d_model=int(d_model)),
                   self.tr("Set d_model to {0}").format(d_model), "d_model")

    def remove_dimension(self, col: int) -> None:
        """Remove dimension ``col`` from every token; weights re-initialise."""
        s = self._state
        if s.d_model <= 1 or not 0 <= col < s.d_model:
            raise ValueError(self.tr("d_model cannot go below 1"))
        X_kv = None if s.X_kv is None else np.delete(s.X_kv, col, axis=1)
        self._push(s.reinitialised(X=np.delete(s.X, col, axis=1), X_kv=X_kv),
                   self.tr("Remove dimension {0}").format(col))

    def set_d_k(self, d_k: int) -> None:
        self._check_size(d_k=int(d_k))
        self._push(self._state.reinitialised(d_k=int(d_k)),
                   self.tr("Set d_k to {0}").format(d_k), "d_k")

    def set_seed(self, seed: int) -> None:
        self._push(self._state.reinitialised(seed=int(seed)),
                   self.tr("Set seed to {0}").format(seed), "seed")

    def set_init_scale(self, scale: float) -> None:
        if not (np.isfinite(scale) and scale > 0):
            raise ValueError(self.tr("the initial weight scale must be a positive number"))
        self._push(self._state.reinitialised(init_scale=float(scale)),
                   self.tr("Set weight scale to {0}").format(scale), "init_scale")

    def set_heads(self, n_heads: int, d_k: int | None = None) -> None:
        """Use ``n_heads`` heads; all weights re-initialise from the seed.

        Without ``d_k`` the head width follows ``head_dim_for``: the current d_k while
        h·d_k fits in d_model, else d_model / h when h divides it.
        """
        s = self._state
        if n_heads == s.n_heads and d_k is None:
            return
        d_k = head_dim_for(s.d_model, n_heads, s.d_k) if d_k is None else int(d_k)
        self._check_size(heads=int(n_heads), d_k=d_k)
        self._push(s.reinitialised(n_heads=int(n_heads), d_k=d_k),
                   self.tr("Set heads to {0}").format(n_heads), "heads")

    def set_output_projection(self, enabled: bool) -> None:
        """Add or remove W_O; the heads (with any edits) are kept as they are.

        A new W_O is the one the seeded initialisation draws after the heads.
        """
        s = self._state
        if enabled == (s.W_O is not None):
            return
        W_O = None
        if enabled:
            W_O = init_multihead_weights(s.d_model, s.d_k, s.n_heads, s.seed,
                                         s.init_scale, with_output=True)[1]
        self._push(s.with_(W_O=W_O), self.tr("Output projection W_O on") if enabled
                   else self.tr("Output projection W_O off"))

    def set_weight(self, head: int, matrix: str, row: int, col: int, value: float) -> None:
        """Edit one entry of a head's W_Q, W_K or W_V."""
        if matrix not in PROJECTION_NAMES:
            raise ValueError(f"unknown weight matrix {matrix!r}")
        if not np.isfinite(value):
            raise ValueError(self.tr("only finite numbers can be used"))
        w = self._state.heads[head]
        M = getattr(w, matrix).copy()
        M[row, col] = value
        parts = {n: getattr(w, n) for n in WEIGHT_NAMES}
        parts[matrix] = M
        heads = list(self._state.heads)
        heads[head] = Weights(**parts)
        self._push(self._state.with_(heads=tuple(heads)),
                   self.tr("Edit {0}[{1},{2}]").format(matrix, row, col))

    def set_options(self, merge_key: str | None = None, **changes) -> None:
        """Change attention options (scale, temperature, causal, stable, share_qk, dtype)."""
        opts = self._state.options
        new = replace(opts, **changes)
        if new == opts:
            return
        names = ", ".join(changes)
        self._push(self._state.with_(options=new), self.tr("Change {0}").format(names), merge_key)

    def set_mode(self, mode: str) -> None:
        """Switch between self- and cross-attention (a default encoder sequence appears)."""
        s = self._state
        if mode == s.mode:
            return
        changes = {"mode": mode}
        if mode == "cross":
            self._check_size(mode=mode, kv=max(2, s.n) if s.X_kv is None else s.X_kv.shape[0])
        if mode == "cross" and s.X_kv is None:
            rng = np.random.RandomState(s.seed + 1)
            changes["kv_tokens"] = tuple(f"k{i}" for i in range(max(2, s.n)))
            changes["X_kv"] = np.round(rng.rand(max(2, s.n), s.d_model), 1)
        self._push(s.with_(**changes), self.tr("Cross-attention") if mode == "cross"
                   else self.tr("Self-attention"))

    def scale_inputs(self, factor: float) -> None:
        """Multiply every input vector by ``factor`` (the overflow lesson's ×100)."""
        s = self._state
        with np.errstate(over="ignore"):
            X = s.X * factor
            X_kv = None if s.X_kv is None else s.X_kv * factor
        if not np.isfinite(X).all() or (X_kv is not None and not np.isfinite(X_kv).all()):
            raise ValueError(self.tr("the values would become too large to be finite"))
        self._push(s.with_(X=X, X_kv=X_kv), self.tr("Multiply inputs by {0}").format(factor))

    def load_state(self, state: SessionState, text: str) -> None:
        """Replace everything with ``state`` as one undoable step (presets, models).

        Its size was checked when it was built (``SessionState`` refuses oversize ones).
        The hovered and pinned cells belong to what was replaced: they are let go.
        """
        self.set_hover(None)
        self.set_selection(None)
        self._push(state, text)

    def reset(self, state: SessionState) -> None:
        """Start afresh from ``state`` with an empty undo history (New, Open)."""
        self.undo_stack.clear()
        self.set_hover(None)
        self.set_selection(None)
        self._set_state(state)
        self.undo_stack.setClean()
