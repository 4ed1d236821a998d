"""The last large forwards' projections X·W, kept by row range so an edit recomputes one.

An edit in the app changes one cell of X, that is one row; the next forward's
X·[W_Q W_K W_V] then differs from the last one's in that row only. The row-parallel
forward computes the product in fixed ranges of rows (``attention._RANGE_ROWS``): a
range whose rows of X are bit for bit the last forward's, multiplied by the same W,
gives the same product bits, since it is the same BLAS call on the same numbers (BLAS
on one thread). So a range is compared with a private copy of its rows and only the
ranges that differ are multiplied again. Measured on the 2-core machine, one thread,
d_model = 768: the projections are about 6 of 18 ms CPU of a forward at n = 1024 and
12 of 60 ms at n = 2048, while comparing a range costs a fraction of multiplying it.

Compared as raw bits (so -0.0 differs from 0.0, and NaN is compared by its payload),
against copies the memo owns: a caller that writes into its X between two forwards
gets a fresh product for the rows it wrote. An entry serves one forward at a time;
a forward that finds its entry in use by another thread multiplies on its own.
Entries are few (``MAX_ENTRIES``: a head's query side and key side, for a few heads)
and hold a copy of X each, so only large inputs are kept (``MIN_ROWS``).
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["MemoEntry", "entry_for", "clear", "MAX_ENTRIES", "MIN_ROWS"]

MAX_ENTRIES = 4
"""Entries kept, the most recently used ones: the query and key side of two heads, or
one side of four (each holds a copy of X: 12.6 MB at 2048 × 768 in float64)."""

MIN_ROWS = 129
"""Inputs with fewer rows are multiplied whole every time: they are one range of the
forward (``attention._RANGE_ROWS``), all of it made again by any edit."""

_lock = threading.Lock()
_entries: list = []
"""The entries, most recently used first."""


class MemoEntry:
    """One input's last rows (``X``) and their product with ``W`` (``product``).
    ``stored``: the ranges whose rows ``X`` holds; ``valid``: the ranges whose product
    is those rows times ``W``. ``busy`` is held by the forward using the entry."""

    def __init__(self, X: np.ndarray, W: np.ndarray) -> None:
        self.W = W.copy()
        self.X = np.empty_like(X, order="C")
        self.product = np.empty((X.shape[0], W.shape[1]), X.dtype)
        self.stored: set[tuple[int, int]] = set()
        self.valid: set[tuple[int, int]] = set()
        self.busy = threading.Lock()

    def rebind(self, W: np.ndarray) -> None:
        """Other weights (an edit of W): every product is to be made again, the rows
        of X stay, so an unchanged X is not copied again."""
        np.copyto(self.W, W)
        self.valid.clear()

    def fill(self, X: np.ndarray, W: np.ndarray, r0: int, r1: int) -> None:
        """``product[r0:r1] = X[r0:r1] · W``, multiplying only when those rows of X
        are not the ones the product was made from. A new X is told by its range's
        first row, without a pass over the rest."""
        rows, key = X[r0:r1], (r0, r1)
        same = (key in self.stored and _same_bits(rows[:1], self.X[r0:r0 + 1])
                and _same_bits(rows, self.X[r0:r1]))
        if same and key in self.valid:
            return
        self.valid.discard(key)
        if not same:
            self.stored.discard(key)
            self.X[r0:r1] = rows
            self.stored.add(key)
        np.matmul(rows, W, out=self.product[r0:r1])
        self.valid.add(key)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    return bool(np.array_equal(a.view(unsigned), b.view(unsigned)))


def entry_for(X: np.ndarray, W: np.ndarray) -> MemoEntry | None:
    """The entry for products of inputs shaped like ``X`` with this ``W``, its ``busy``
    lock taken (the caller releases it), or None: a small or non-contiguous X, a dtype
    without a same-sized unsigned view, or the entry in use by another forward.

    Other weights of the same shapes take over the least recently used such entry once
    ``MAX_ENTRIES`` are kept (a scrub of W allocates nothing after the first few), so
    its rows of X are kept and only the products are made again."""
    if (X.shape[0] < MIN_ROWS or not X.flags.c_contiguous or X.dtype != W.dtype
            or X.dtype.kind != "f" or X.dtype.itemsize not in (4, 8)):
        return None
    with _lock:
        alike = [e for e in _entries if e.X.shape == X.shape and e.X.dtype == X.dtype
                 and e.W.shape == W.shape]
        entry = next((e for e in alike if _same_bits(e.W, W)), None)
        if entry is not None:
            if not entry.busy.acquire(blocking=False):
                return None
        elif len(_entries) >= MAX_ENTRIES and alike and alike[-1].busy.acquire(blocking=False):
            entry = alike[-1]
            entry.rebind(W)
        else:
            entry = MemoEntry(X, W)
            entry.busy.acquire()
        if entry in _entries:
            _entries.remove(entry)
        _entries.insert(0, entry)
        del _entries[MAX_ENTRIES:]
    return entry


def clear() -> None:
    """Forget every entry (their memory goes once no forward uses them)."""
    with _lock:
        _entries.clear()
