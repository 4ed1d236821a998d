"""Edited copies of a large matrix that share its unchanged memory (copy-on-write).

A state is immutable, so typing one value into X made a whole new X: 12.5 MB at
2048 × 768, 50 MB at 8192, copied on the GUI thread at every edit. Fresh memory is the
expensive part: on this project's VM a copy into new pages took 1–3 ms typically and
100–480 ms when the kernel had to find them (issue 20: the n = 8192 edit froze).

``edited_copy`` lets the operating system share instead. On Linux the matrix is kept in
a memory file (``memfd``, a *base*); every edited copy is a private mapping of that
file (``MAP_PRIVATE``) with the edited cells written into it, so only the pages holding
edited cells are copied, by the kernel, when they are written. The cells a copy differs
from its base by are remembered (a *diff*) and written into each later copy too; when a
diff grows past ``REBASE_CELLS`` the next copy becomes a base of its own (one full copy).
Where there is no ``memfd`` (macOS, Windows) or for small matrices, it is a plain copy.

``edit_of(old, new)`` says which cells ``new`` was written at when it is ``old``'s
edited copy, so a view can update those cells (and its extremes) instead of scanning
the whole matrix for what changed.
"""

from __future__ import annotations

import collections
import ctypes
import functools
import mmap
import os
import threading
import weakref
from dataclasses import dataclass

import numpy as np

__all__ = ["edited_copy", "edit_of", "made_from", "share_for_edits", "shares_pages", "SHARED_BYTES",
           "REBASE_CELLS"]

SHARED_BYTES = 1 << 20
"""Matrices of at least this many bytes share memory with their edited copies; a
smaller one is copied (a copy costs less than mapping it)."""
REBASE_CELLS = 4096
"""A copy that differs from its base by more cells than this becomes a base itself: each
copy writes its whole diff, and each written cell may copy a page."""
REBASE_PAGES = 1 / 8
"""…or whose diff touches more than this share of the matrix's pages: each copy writes
its whole diff again, so scattered edits (one per row) would soon copy most pages one
fault at a time, dearer than one plain copy (12 against 8 ms at 2048 × 768 after 2000
edits of distinct rows, before this rule)."""
OPEN_BASES = 4
"""Bases that keep their memory file open to make further copies. An undo history holds
every X it passes through; each X that is not an edited copy (a paste, a token
inserted, a d_model changed) gets a base of its own when shared, that is a file
descriptor and a full copy of X in memory. Closing the file of all but the newest few
frees the memory of those nobody maps and their descriptors; an edit of such an X
(after undoing back to it) makes a new base, as a rebase does."""
_PAGE = mmap.PAGESIZE

_SHARING = hasattr(os, "memfd_create") and hasattr(mmap, "MAP_PRIVATE")

if _SHARING:
    _libc = ctypes.CDLL(None, use_errno=True)
    _libc.mmap.restype = ctypes.c_void_p
    _libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                           ctypes.c_int, ctypes.c_long]
    _libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    _MAP_FAILED = ctypes.c_void_p(-1).value


class _Mapping:
    """A private mapping of a base, the owner of an edited copy's memory.

    Made with libc's ``mmap`` rather than Python's: Python's ``mmap.mmap`` keeps a
    duplicate of the file descriptor for as long as the mapping lives, so every edited
    copy an undo history holds would hold a descriptor too, and after about a thousand
    edits (a common soft limit is 1024) the app could open no file, not even to save.
    A mapping needs no descriptor once made. The array's ``base`` is this object, so
    every view keeps the mapping; the last one to go unmaps it.
    """

    __slots__ = ("_address", "_length", "__array_interface__")

    def __init__(self, fd: int, nbytes: int, shape: tuple[int, ...], dtype: np.dtype):
        address = _libc.mmap(None, nbytes, mmap.PROT_READ | mmap.PROT_WRITE,
                             mmap.MAP_PRIVATE, fd, 0)
        if address is None or address == _MAP_FAILED:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))
        self._address, self._length = address, nbytes
        self.__array_interface__ = {"shape": tuple(shape), "typestr": dtype.str,
                                    "data": (address, False), "version": 3}

    def __del__(self) -> None:
        try:
            _libc.munmap(self._address, self._length)
        except Exception:  # noqa: BLE001 - at interpreter exit libc's wrapper may be gone
            pass


def _close_file(box: list[int]) -> None:
    """Close the memory file in ``box`` once (by the base's ``close`` or finaliser)."""
    with _LOCK:
        fd = box.pop() if box else None
    if fd is not None:
        os.close(fd)


class _Base:
    """A memory file holding one matrix's bytes. Its copies map it and need no file; the
    file stays open only while the base is one of the ``OPEN_BASES`` newest, to make
    more copies. The memory goes once the file is closed and no copy maps it."""

    def __init__(self, data: np.ndarray):
        self.shape, self.dtype, self.nbytes = data.shape, data.dtype, data.nbytes
        fd = os.memfd_create("qkv-matrix", os.MFD_CLOEXEC)
        self._file = [fd]  # a box, so that an early close and the finaliser agree
        weakref.finalize(self, _close_file, self._file)
        os.ftruncate(fd, self.nbytes)
        with mmap.mmap(fd, self.nbytes, flags=mmap.MAP_SHARED) as shared:
            view = np.frombuffer(shared, dtype=self.dtype).reshape(self.shape)
            view[...] = data
            del view  # the mapping closes only once no array exports it
        _keep_open(self)

    def close(self) -> None:
        _close_file(self._file)

    def private_copy(self) -> np.ndarray:
        """A writable array over a private mapping: it reads the base's pages and copies
        one only when it writes into it. ``OSError`` once the base's file is closed."""
        with _LOCK:
            fd = self._file[0] if self._file else None
            if fd is not None:
                _OPEN.move_to_end(id(self), last=True)
                mapping = _Mapping(fd, self.nbytes, self.shape, self.dtype)
        if fd is None:
            raise OSError("this base's memory file is closed")
        return np.asarray(mapping)


_OPEN: collections.OrderedDict[int, weakref.ref] = collections.OrderedDict()
"""id(base) → a weak reference to it, the least recently used first."""


def _forget_open(key: int, ref: weakref.ref) -> None:
    with _LOCK:
        if _OPEN.get(key) is ref:
            del _OPEN[key]


def _keep_open(base: _Base) -> None:
    """Count ``base`` among the open ones, closing the file of the least recently used
    beyond ``OPEN_BASES``."""
    with _LOCK:
        _OPEN[id(base)] = weakref.ref(base, functools.partial(_forget_open, id(base)))
        evicted = []
        while len(_OPEN) > OPEN_BASES:
            evicted.append(_OPEN.popitem(last=False)[1]())
    for old in evicted:
        if old is not None:
            old.close()


def _pages(keys, itemsize: int) -> frozenset[int]:
    """The pages the flat cell indices ``keys`` fall on."""
    return frozenset(key * itemsize // _PAGE for key in keys)


@dataclass(frozen=True)
class _Lineage:
    """How an array came about: its base, the cells (flat index → value) it differs from
    the base by, and the array it is an edited copy of, with the cells written then."""

    base: _Base | None  # None: a plain copy, which only says which cells it was written at
    diff: dict[int, float]
    parent: weakref.ref | None = None
    edited: tuple[np.ndarray, np.ndarray] | None = None
    pages: frozenset[int] = frozenset()  # the pages the diff falls on


_LINEAGE: dict[int, tuple[weakref.ref, _Lineage]] = {}
"""id(array) → (a weak reference to it, its lineage); an entry leaves with its array."""
_LOCK = threading.RLock()
"""The forward's worker shares a matrix while the GUI thread edits. Reentrant: a
finaliser or weak-reference callback (which take it) may run inside a section that holds
it, when the collector frees a base or an array there."""


def _remember(array: np.ndarray, lineage: _Lineage) -> None:
    key = id(array)

    def forget(ref, key=key) -> None:
        with _LOCK:
            if _LINEAGE.get(key, (None,))[0] is ref:
                del _LINEAGE[key]
    with _LOCK:
        _LINEAGE[key] = (weakref.ref(array, forget), lineage)


def _lineage(array: np.ndarray) -> _Lineage | None:
    with _LOCK:
        entry = _LINEAGE.get(id(array))
    if entry is None or entry[0]() is not array:
        return None
    return entry[1]


def _shareable(array: np.ndarray) -> bool:
    return (_SHARING and array.nbytes >= SHARED_BYTES and array.ndim == 2
            and array.dtype.kind == "f")


def share_for_edits(array: np.ndarray) -> None:
    """Make ``array``'s first edited copy share its memory too (a worker thread calls it
    after a forward, so that the first edit does not copy the whole matrix on the GUI
    thread). ``array`` must be read-only: its base is a copy of it as it is now."""
    if not _shareable(array) or array.flags.writeable or _lineage(array) is not None:
        return
    try:
        base = _Base(array)
    except OSError:  # no memory file to be had: the edit copies, as it would anyway
        return
    _remember(array, _Lineage(base, {}))


def edited_copy(array: np.ndarray, rows, cols, values) -> np.ndarray:
    """A read-only copy of ``array`` with ``values`` at (``rows``, ``cols``).

    The copy shares ``array``'s unchanged pages where the system allows (see the module
    notes); it is bit-for-bit the array a plain copy would give.
    """
    rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
    if not _shareable(array):
        return _plain_copy(array, rows, cols, values)
    values = np.broadcast_to(np.asarray(values, dtype=array.dtype), rows.shape)
    flat = np.ravel_multi_index((rows, cols), array.shape)
    edited = dict(zip(flat.tolist(), values.tolist(), strict=True))
    known = _lineage(array)
    out = None
    if known is not None and known.base is not None \
            and len(known.diff) + len(edited) <= REBASE_CELLS:
        diff = {**known.diff, **edited}
        pages = known.pages | _pages(edited, array.itemsize)
        if len(pages) <= REBASE_PAGES * array.nbytes / _PAGE:
            try:
                out, base = known.base.private_copy(), known.base
            except OSError:  # its file closed, or no address space: a base of its own
                out = None
    if out is None:  # a new base holding ``array`` as it is; the copy differs by the edit
        try:
            base, diff = _Base(array), edited
            pages = _pages(edited, array.itemsize)
            out = base.private_copy()
        except OSError:  # no memory file to be had: a plain copy
            return _plain_copy(array, rows, cols, values)
    keys = np.fromiter(diff.keys(), dtype=np.intp, count=len(diff))
    out.reshape(-1)[keys] = np.fromiter(diff.values(), dtype=array.dtype, count=len(diff))
    out.flags.writeable = False
    _remember(out, _Lineage(base, diff, weakref.ref(array), (rows, cols), pages))
    return out


def _plain_copy(array: np.ndarray, rows: np.ndarray, cols: np.ndarray, values) -> np.ndarray:
    """A read-only plain copy with ``values`` written in. A large one still remembers
    which cells it was written at, so that where there is no memory file (macOS,
    Windows) the views and the range check follow the edit by its cells all the same."""
    out = array.copy()
    out[rows, cols] = values
    out.flags.writeable = False
    if array.nbytes >= SHARED_BYTES:
        _remember(out, _Lineage(None, {}, weakref.ref(array), (rows, cols)))
    return out


def edit_of(old: np.ndarray, new: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The (rows, cols) written when ``new`` was made as ``edited_copy(old, …)``, else
    ``None`` (then anything may differ)."""
    made = made_from(new)
    return None if made is None or made[0] is not old else made[1]


def made_from(new: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None:
    """(the array ``new`` is an edited copy of, the (rows, cols) written), while that
    array is alive; ``None`` for any other array."""
    known = _lineage(new)
    parent = None if known is None or known.parent is None else known.parent()
    return None if parent is None else (parent, known.edited)


def shares_pages(array: np.ndarray) -> bool:
    """Whether ``array`` is a private mapping of a base (its unchanged pages shared)."""
    if _lineage(array) is None:
        return False
    base = array.base
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, _Mapping)
