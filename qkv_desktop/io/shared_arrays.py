"""Handing an object with large NumPy arrays to another process without pickling the arrays.

Pickling an array copies its bytes while holding the GIL: 12.5 MB (X of a session of
2,048 tokens × 768) took 7–50 ms on the development machine, and every millisecond
of it was a millisecond the GUI thread could not run. NumPy's copy into a
``multiprocessing.shared_memory`` block releases the GIL, and so does the kernel's
filling of the block's fresh pages. ``SharedArrays(obj)`` therefore pickles ``obj``
with each numeric array replaced by a reference (``pickle``'s persistent ids), copies
the arrays into one shared block, and ``handle`` is what crosses the pipe: the block's
name, where each array lies in it, and the small pickle of everything else (tokens,
options; a few kilobytes). ``SharedArraysHandle.load()`` in the other process rebuilds
``obj`` with copies of the arrays and detaches from the block at once.

The creating process owns the block: ``release()`` (or leaving the ``with`` block)
unlinks it, whatever became of the other process. ``multiprocessing``'s resource
tracker, shared with every ``spawn``ed child, unlinks it if the owner is killed before
that, so no segment outlives the app in ``/dev/shm``.
"""

from __future__ import annotations

import io
import os
import pickle
import secrets
from dataclasses import dataclass
from multiprocessing import shared_memory

import numpy as np

__all__ = ["SharedArrays", "SharedArraysHandle", "BLOCK_PREFIX"]

BLOCK_PREFIX = "qkv-"
"""Every block's name starts with this and the creating process id (``qkv-<pid>-…``)."""
_ALIGN = 64  # each array starts on a cache line
_SHAREABLE_KINDS = "biufc"  # numbers and booleans: plain bytes, no Python objects


@dataclass(frozen=True)
class SharedArraysHandle:
    """What the other process needs to rebuild the object: small and cheap to pickle."""

    block: str | None
    """The shared block's name (``None`` when the object holds no array)."""
    layout: tuple[tuple[int, str, tuple[int, ...]], ...]
    """(offset in the block, dtype, shape) of each array, by persistent id."""
    payload: bytes
    """The object pickled with its arrays as persistent ids."""

    def load(self):
        """The object, with its arrays copied out of the block (read-only, like the
        original's frozen arrays); the block is closed before this returns."""
        if self.block is None:
            return _ArrayUnpickler(io.BytesIO(self.payload), []).load()
        block = shared_memory.SharedMemory(name=self.block)
        view = None
        try:
            arrays = []
            for offset, dtype, shape in self.layout:
                view = np.ndarray(shape, dtype=dtype, buffer=block.buf, offset=offset)
                copy = view.copy()
                copy.flags.writeable = False
                arrays.append(copy)
            return _ArrayUnpickler(io.BytesIO(self.payload), arrays).load()
        finally:
            del view  # a view still held (an error mid-copy) would keep the block open
            block.close()


class SharedArrays:
    """``obj``'s arrays in one shared memory block, everything else in ``handle.payload``.

    Raises ``OSError`` when no block can be made (no shared memory, ``/dev/shm`` full:
    ``_reserve``); nothing is left behind then.
    """

    def __init__(self, obj) -> None:
        arrays: list[np.ndarray] = []
        buffer = io.BytesIO()
        _ArrayPickler(buffer, arrays).dump(obj)
        layout, size = [], 0
        for a in arrays:
            layout.append((size, a.dtype.str, a.shape))
            size += -(-a.nbytes // _ALIGN) * _ALIGN
        self._block = None
        if arrays:
            self._block = shared_memory.SharedMemory(
                name=f"{BLOCK_PREFIX}{os.getpid()}-{secrets.token_hex(6)}", create=True,
                size=max(size, 1))
            try:
                _reserve(self._block, size)
                for a, (offset, _dtype, _shape) in zip(arrays, layout, strict=True):
                    view = np.ndarray(a.shape, dtype=a.dtype, buffer=self._block.buf,
                                      offset=offset)
                    np.copyto(view, a)  # releases the GIL
                    del view
            except BaseException:
                self.release()
                raise
        self.handle = SharedArraysHandle(self._block.name if self._block else None,
                                         tuple(layout), buffer.getvalue())

    @property
    def name(self) -> str | None:
        """The block's name, ``None`` once released (or when there were no arrays)."""
        return self._block.name if self._block is not None else None

    def release(self) -> None:
        """Close and unlink the block (idempotent)."""
        block, self._block = self._block, None
        if block is None:
            return
        block.close()
        try:
            block.unlink()
        except FileNotFoundError:  # already unlinked (e.g. by the resource tracker)
            pass

    def __enter__(self) -> SharedArrays:
        return self

    def __exit__(self, *_exc) -> None:
        self.release()


def _reserve(block: shared_memory.SharedMemory, size: int) -> None:
    """Allocate the block's pages now, so that a full ``/dev/shm`` is an ``OSError``
    (``ENOSPC``) here and not a ``SIGBUS`` that kills the app when the copy touches a
    page the kernel cannot provide (a container's ``/dev/shm`` is 64 MB by default;
    X alone is 50 MB at 8,192 × 768). Where the platform has no ``posix_fallocate``
    (macOS, Windows) there is no such limit to meet."""
    fd = getattr(block, "_fd", -1)
    if fd >= 0 and hasattr(os, "posix_fallocate"):
        os.posix_fallocate(fd, 0, size)  # releases the GIL


class _ArrayPickler(pickle.Pickler):
    """Pickles numeric arrays as their index in ``arrays`` (each distinct array once)."""

    def __init__(self, file, arrays: list[np.ndarray]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._arrays = arrays
        self._index: dict[int, int] = {}

    def persistent_id(self, obj):
        if type(obj) is not np.ndarray or obj.dtype.kind not in _SHAREABLE_KINDS:
            return None
        key = id(obj)  # ``obj`` lives in the object being pickled, so its id is stable
        if key not in self._index:
            self._index[key] = len(self._arrays)
            self._arrays.append(obj)
        return self._index[key]


class _ArrayUnpickler(pickle.Unpickler):
    def __init__(self, file, arrays: list[np.ndarray]) -> None:
        super().__init__(file)
        self._arrays = arrays

    def persistent_load(self, pid):
        return self._arrays[pid]
