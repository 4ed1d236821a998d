"""From a ``SessionState`` to every matrix the app shows: one core call per head."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from qkv_desktop.core import (
    AttentionResult,
    EmptyRowError,
    MultiHeadResult,
    ScoreOverflowError,
    multi_head_attention,
)
from qkv_desktop.state.catalogue import HEAD_EXPORT, MATRIX
from qkv_desktop.state.core_options import core_dtype, core_options
from qkv_desktop.state.readouts import HeadLessons, KKComparison, head_lessons, kk_comparison
from qkv_desktop.state.session_state import SessionState, check_dtype_range
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, EditError, Text

__all__ = ["ModelResult", "compute", "check_dtype_range", "ComputeError"]

_QUIET = {"over": "ignore", "invalid": "ignore", "divide": "ignore", "under": "ignore"}
"""Overflow to inf and the NaN that follows are results the panes show (magenta, the
overflow lesson), not faults: NumPy must not print warnings about them on stderr."""


@dataclass(frozen=True, eq=False)
class ModelResult:
    """The state a result was computed from, and the per-head core results.

    The lesson read-outs (``lessons``, ``kk``) are computed once per head, on first
    use, and kept: the result is immutable, so every view reads the same numbers. The
    model fills the current head's in its compute step, off the GUI thread for large
    inputs (``AttentionModel`` asks for the current head's right after ``compute``).
    """

    state: SessionState
    multi: MultiHeadResult
    _cache: dict = field(default_factory=dict, init=False, repr=False)
    _making: dict = field(default_factory=dict, init=False, repr=False)
    """key → the lock of the one thread making that value."""
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def heads(self) -> tuple[AttentionResult, ...]:
        return self.multi.heads

    def head(self, h: int = 0) -> AttentionResult:
        return self.multi.heads[self.state.head_index(h)]

    def matrix(self, name: str, h: int = 0) -> np.ndarray | None:
        """Matrix ``name`` of the catalogue for head ``h``; ``None`` if this session has none.

        The weights are the ones used, i.e. W_Q is W_K when ``share_qk`` ties them.
        """
        spec = MATRIX.get(name)
        return None if spec is None else spec.value(self, h)

    def matrices(self, h: int = 0) -> dict[str, np.ndarray]:
        """X, the head's weights and every intermediate, keyed as in ``matrices.npz``."""
        return {name: self.matrix(name, h) for name in HEAD_EXPORT}

    def _cached(self, key: tuple, make):
        """``make()``, once per key, whichever threads ask (a worker and the GUI thread).

        A value made is read without a lock. Each value has a lock of its own while it
        is made: a thread waits only for the value it asks for. With one lock for all,
        a hover or a pane's refresh on the GUI thread (S − max(S), the mask) waited
        while a worker derived the lesson read-outs, which cost about a forward.
        """
        try:
            return self._cache[key]
        except KeyError:
            pass
        with self._lock:
            lock = self._making.setdefault(key, threading.Lock())
        with lock:
            if key not in self._cache:
                with np.errstate(**_QUIET):
                    self._cache[key] = make()
        return self._cache[key]

    def lessons(self, h: int = 0, check=None) -> HeadLessons:
        """Asymmetry, row uniformity and overflow read-outs of head ``h`` (cached).

        ``check()`` is called between their parts and may raise to stop them: nothing
        is kept then, and the next caller computes them afresh."""
        h = self.state.head_index(h)
        o = self.state.options
        return self._cached(("lessons", h), lambda: head_lessons(
            self.multi.heads[h], self.state.mode == "cross", o.stable, check))

    def shifted(self, h: int = 0) -> np.ndarray:
        """The stable softmax's shifted scores of head ``h``: each row of the scaled scores
        minus its maximum (every entry ≤ 0, so exp never overflows; masked cells stay −∞,
        and a row without a finite maximum is left as it is, as ``core.softmax`` does)."""
        h = self.state.head_index(h)

        def make():
            scaled = self.multi.heads[h].scaled
            top = scaled.max(axis=1, keepdims=True) if scaled.size else scaled[:, :1]
            return scaled - np.where(np.isfinite(top), top, 0).astype(scaled.dtype)
        return self._cached(("shifted", h), make)

    def shown_weights(self, h: int = 0) -> np.ndarray:
        """Head ``h``'s weights as a pane draws them: a masked cell −∞ (grey, hatched,
        no number, as in the scaled scores), not a 0 that reads like a tiny weight (a
        first-time user took the causal zeros for weights). The weights themselves,
        their hover and their files keep the 0. Made once, and only under a mask."""
        h = self.state.head_index(h)
        r = self.multi.heads[h]
        if not (r.mask_spec is not None and r.mask_spec.restricts):
            return r.weights
        return self._cached(("shown weights", h), lambda: np.where(
            r.allowed, r.weights, r.weights.dtype.type(-np.inf)))

    def masked(self, i: int, j: int, h: int = 0) -> bool:
        """Whether the mask (causal, window or custom) hides key j from query i in head
        ``h``: its scaled score is −∞ and its weight exactly 0. Only row i is worked out
        (a hover asks this on every move; the whole n × m mask is not built for it)."""
        r = self.head(h)
        spec = r.mask_spec
        if spec is None or not spec.restricts or not (0 <= i < r.n_queries
                                                        and 0 <= j < r.n_keys):
            return False
        return bool(spec.hidden_rows(i, i + 1, r.n_keys)[0, j])

    def mask_values(self, h: int = 0) -> np.ndarray:
        """The mask as numbers in the scores' dtype (1 allowed, 0 masked), for its pane:
        made once (an n × m array; the pane, its hover and its picture all read it)."""
        h = self.state.head_index(h)
        r = self.multi.heads[h]
        return self._cached(("mask", h), lambda: r.allowed.astype(r.scores.dtype))

    def kk(self, h: int = 0) -> KKComparison:
        """KKᵀ of head ``h`` and its asymmetry, for the QKᵀ | KKᵀ comparison (cached)."""
        h = self.state.head_index(h)
        return self._cached(("kk", h), lambda: kk_comparison(
            self.multi.heads[h], self.state.options.temperature,
            self_attention=self.state.mode == "self"))


def compute(state: SessionState, on_rows=None) -> ModelResult:
    """Run the core on ``state`` (all heads); raises ``ValueError`` on bad input.

    ``on_rows(h, r0, r1, matrices)``: ``core.multi_head_attention``'s, told each range of
    finished rows of head h's n × m matrices (the panes' pictures start from them)."""
    o = state.options
    check_dtype_range(state)
    dtype = core_dtype(o)
    heads = [w.tied() if o.share_qk else w for w in state.heads]
    X = state.X.astype(dtype, copy=False)
    X_kv = None
    if state.mode == "cross":
        X_kv = state.X_kv.astype(dtype, copy=False)
    try:
        with np.errstate(**_QUIET):
            multi = multi_head_attention(X, heads, W_O=state.W_O, X_kv=X_kv, alibi=o.alibi,
                                         on_rows=on_rows, **core_options(state))
    except ScoreOverflowError as exc:
        raise _overflow_error(exc, state) from exc
    except EmptyRowError as exc:
        raise ComputeError(QT_TRANSLATE_NOOP(
            "Edits", "query {0} (row {1}) has no key left to attend to: the mask hides "
                     "every key, and a softmax over nothing is undefined"),
            state.tokens[exc.row] if exc.row < len(state.tokens) else "?", exc.row) from exc
    return ModelResult(state, multi)


class ComputeError(EditError):
    """A state whose attention cannot be computed, said in the user's words (the
    core's errors are English sentences for a notebook; these are marked for
    translation, ``EditError``)."""


def _overflow_error(exc: ScoreOverflowError, state: SessionState) -> ComputeError:
    """The overflow in the user's words, starting with the value that caused it (the
    largest |value| of the inputs and weights): the edit that broke the state may not
    be the last one, and a learner must find the cell to mend."""
    largest, culprit = f"{exc.largest:.3g}", _largest_value(state)
    if exc.what == "scores":
        return ComputeError(QT_TRANSLATE_NOOP(
            "Edits", "{2} is too large: the scores q·k overflow {0} (its largest number "
                     "is {1}). Smaller values of X or of the weights compute"),
            exc.dtype, largest, culprit)
    return ComputeError(QT_TRANSLATE_NOOP(
        "Edits", "{3} is too large: {0} = X·W_{0} overflows {1} (its largest number is "
                 "{2}). Smaller values of X or of W_{0} compute"),
        exc.what, exc.dtype, largest, culprit)


def _largest_value(state: SessionState) -> Text:
    """``X[我, d1] = 1e+200``: the entry of largest magnitude among X (X_kv in
    cross-attention) and every head's W_Q, W_K, W_V, named as the tables name it."""
    named = [("X", state.X, state.tokens)]
    if state.mode == "cross" and state.X_kv is not None:
        named.append(("X_kv", state.X_kv, state.key_tokens))
    for h, w in enumerate(state.heads):
        for name in ("W_Q", "W_K", "W_V"):
            label = name if state.n_heads == 1 else Text(
                QT_TRANSLATE_NOOP("Edits", "{0} of head {1}"), (name, h + 1))
            named.append((label, getattr(w, name), None))
    best = None
    for label, a, rows in named:
        if a is None or not a.size:
            continue
        k = int(np.argmax(np.abs(a)))
        i, j = divmod(k, a.shape[1])
        if best is None or abs(a[i, j]) > abs(best[3]):
            row = rows[i] if rows is not None else f"d{i}"
            col = f"d{j}" if rows is not None else str(j)
            best = (label, row, col, float(a[i, j]))
    if best is None:
        return Text("?")
    label, row, col, value = best
    return Text("{0}[{1}, {2}] = {3}", (label, row, col, f"{value:.4g}"))
