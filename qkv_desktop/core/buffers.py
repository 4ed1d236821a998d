"""Large result arrays reuse the memory of results nobody holds any more.

A forward at n tokens writes three new n × n arrays (scores, scaled scores, weights).
Above glibc's largest mmap threshold (32 MB: n ≥ 2048 in float64, 2896 in float32)
every such array is fresh memory from the kernel, and the kernel clears each page on
its first write: measured on the 2-core test machine at n = 2048, filling a fresh
32 MB array took 5.2 ms against 2.8 ms for the same array a second time, 23 against
17 ms at n = 4096. An edit, a scrub or a benchmark computes the same shapes over and
over, while the result before last has been dropped: its memory is what the next
forward should write into.

``empty`` hands out such a buffer. The array it returns has a ``_Lease`` as its base,
so every view of it keeps the lease alive (NumPy's views point to the first base that
is not an ndarray view). When the last of them goes, the lease's ``__del__`` gives the
memory back; a buffer is therefore never written while any array made from it is
still held, be it by the GUI, a cache or a notebook variable. Free buffers are kept
for the shape last asked for only, a few of them, so a finished session of another
size does not keep its memory.
"""

from __future__ import annotations

import collections
import threading

import numpy as np

__all__ = ["empty", "free_buffers", "release_free", "MIN_POOLED_BYTES", "MAX_FREE", "MAX_FREE_BYTES"]

MIN_POOLED_BYTES = 1 << 24
"""Arrays of at least 16 MB are pooled; smaller ones glibc's heap already reuses
(n = 1024 float64, 8 MB: fresh and reused fills took the same 0.4 ms)."""

MAX_FREE = 12
"""Free buffers kept for the current shape: three per head for four heads."""

MAX_FREE_BYTES = 1 << 29
"""…and 512 MB at most, so a window that holds two results at once while it computes
a third adds at most this to its peak (two buffers at n = 8192 in float32)."""

_lock = threading.Lock()
_current: tuple | None = None
_free: collections.deque = collections.deque()


class _Lease:
    """The base object of a pooled array: it owns the buffer while any view lives."""

    __slots__ = ("_buffer", "_key", "__array_interface__")

    def __init__(self, buffer: np.ndarray, key: tuple) -> None:
        self._buffer = buffer
        self._key = key
        self.__array_interface__ = buffer.__array_interface__

    def __del__(self) -> None:
        # Runs on whichever thread drops the last view, possibly inside ``empty``
        # on this thread: the deque's append is atomic, no lock is taken here.
        try:
            if self._key == _current and (len(_free) + 1) * self._buffer.nbytes \
                    <= MAX_FREE_BYTES and len(_free) < MAX_FREE:
                _free.append(self._buffer)
        except Exception:  # noqa: BLE001 - at interpreter exit the module may be gone
            pass


def empty(shape: tuple[int, ...], dtype) -> np.ndarray:
    """An uninitialised array like ``np.empty(shape, dtype)``, writable and C-ordered:
    for large arrays, the memory of an array of the same shape that is no longer held,
    if there is one."""
    global _current
    dtype = np.dtype(dtype)
    if int(np.prod(shape)) * dtype.itemsize < MIN_POOLED_BYTES:
        return np.empty(shape, dtype)
    key = (tuple(shape), dtype.str)
    buffer = None
    with _lock:
        if key != _current:
            _current = key
            _free.clear()
        else:
            # A lease dropped on another thread may have checked the shape just before
            # it changed and appended its buffer after the clear: never hand that one out.
            while _free:
                candidate = _free.pop()
                if candidate.shape == key[0] and candidate.dtype == dtype:
                    buffer = candidate
                    break
    if buffer is None:
        buffer = np.empty(shape, dtype)
    return np.asarray(_Lease(buffer, key))


def free_buffers() -> int:
    """How many free buffers the pool holds."""
    return len(_free)


def release_free() -> None:
    """Let go of the free buffers (their memory goes back to the system)."""
    _free.clear()
