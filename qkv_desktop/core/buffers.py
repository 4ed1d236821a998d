"""The forward's arrays reuse the memory of results nobody holds any more.

Every array of 128 kB or more that NumPy allocates comes from glibc, which takes
it from the kernel (mmap, or a heap that it trims again once a few such arrays are
freed at its top); the kernel then clears each page on its first write. A forward
allocates three n × n arrays (scores, scaled scores, weights) and several n × d_k ones.
Measured on the 2-core test machine, one thread, attention() at d_model = 768:
n = 512: 1810 page faults and 7.0 ms CPU per call with fresh memory, 7 faults and
4.8 ms with this pool; n = 1024: 1922 faults, 22.9 ms against 0 and 16.5 ms. An edit,
a scrub or a benchmark computes the same shapes again and again, while the result
before last has been dropped: its memory is what the next forward should write into.

``empty`` hands out such memory. The array it returns has a ``_Lease`` as its base,
so every view of it keeps the lease alive. When the last of them goes, the lease's
``__del__`` gives the buffer back; a buffer is therefore never written while any
array made from it is still held, be it by the GUI, a cache or a notebook variable.
The free buffers are bounded: at most ``MAX_FREE`` per shape and ``MAX_FREE_BYTES``
in all (the shapes asked for longest ago go first), and a shape not asked for in the
last ``STALE_AFTER`` requests is let go, so a session of another size does not keep
the memory of the last one.
"""

from __future__ import annotations

import collections
import math
import threading

import numpy as np

__all__ = ["empty", "free_buffers", "release_free", "MIN_POOLED_BYTES", "MAX_FREE",
           "MAX_FREE_BYTES", "STALE_AFTER"]

MIN_POOLED_BYTES = 1 << 20
"""Arrays from 1 MB are pooled (n ≥ 363 in float64). Smaller ones fault too, but the
kernel has just cleared them, so they arrive in the cache, while a pooled buffer
comes back cold: at n = 256 (512 kB), with plain NumPy's forward run between two
calls, pooling them cost 2.3–2.4 ms CPU per call against 2.1–2.2 ms; at n = 512
(2 MB) it saved 6.4 / 5.8 against 7.2 / 7.8 ms."""

MAX_FREE = 12
"""Free buffers kept per shape: three n × n ones per head for four heads."""

MAX_FREE_BYTES = 1 << 29
"""Free buffers kept in all, 512 MB: a window holding two results while it computes a
third adds at most this to its peak (two n × n buffers at n = 8192 in float32)."""

STALE_AFTER = 64
"""Requests (about ten forwards) after which a shape's free buffers are let go."""

_lock = threading.Lock()
_free: collections.OrderedDict = collections.OrderedDict()
"""(shape, dtype) → [last request's number, free buffers], least recently asked first."""
_free_bytes = 0
_requests = 0
_returned: collections.deque = collections.deque()
"""Buffers given back while the lock was held, filed by the next ``empty``."""


class _Lease:
    """The base object of a pooled array: it owns the buffer while any view lives."""

    __slots__ = ("_buffer", "_key", "__array_interface__")

    def __init__(self, buffer: np.ndarray, key: tuple) -> None:
        self._buffer = buffer
        self._key = key
        self.__array_interface__ = buffer.__array_interface__

    def __del__(self) -> None:
        # Runs on whichever thread drops the last view, possibly inside ``empty`` on
        # this very thread: it never waits for the lock (the deque's append is atomic).
        try:
            if _lock.acquire(blocking=False):
                try:
                    _file(self._key, self._buffer)
                finally:
                    _lock.release()
            else:
                _returned.append((self._key, self._buffer))
        except Exception:  # noqa: BLE001 - at interpreter exit the module may be gone
            pass


def _file(key: tuple, buffer: np.ndarray) -> None:
    """Keep a given-back buffer if its shape is still wanted and the bounds allow (lock held)."""
    global _free_bytes
    entry = _free.get(key)
    if entry is None or len(entry[1]) >= MAX_FREE:
        return
    entry[1].append(buffer)
    _free_bytes += buffer.nbytes
    while _free_bytes > MAX_FREE_BYTES:
        _drop_oldest()


def _drop_oldest() -> None:
    global _free_bytes
    for entry in _free.values():
        if entry[1]:
            _free_bytes -= entry[1].pop(0).nbytes
            return


def empty(shape: tuple[int, ...], dtype) -> np.ndarray:
    """An uninitialised array like ``np.empty(shape, dtype)``, writable and C-ordered:
    for arrays from ``MIN_POOLED_BYTES``, the memory of an array of the same shape and
    dtype that nobody holds any more, if there is one."""
    global _free_bytes, _requests
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    if math.prod(shape) * dtype.itemsize < MIN_POOLED_BYTES:
        return np.empty(shape, dtype)
    key = (shape, dtype.str)
    buffer = None
    with _lock:
        _requests += 1
        while _returned:
            _file(*_returned.popleft())
        entry = _free.get(key)
        if entry is None:
            entry = _free[key] = [_requests, []]
        else:
            entry[0] = _requests
            _free.move_to_end(key)
            if entry[1]:
                buffer = entry[1].pop()
                _free_bytes -= buffer.nbytes
        while _free:  # shapes nobody asked for lately
            oldest_key, (asked, buffers) = next(iter(_free.items()))
            if asked >= _requests - STALE_AFTER:
                break
            _free_bytes -= sum(b.nbytes for b in buffers)
            del _free[oldest_key]
    if buffer is None:
        buffer = np.empty(shape, dtype)
    return np.asarray(_Lease(buffer, key))


def free_buffers() -> int:
    """How many free buffers the pool holds."""
    with _lock:
        return sum(len(buffers) for _asked, buffers in _free.values())


def release_free() -> None:
    """Let go of every free buffer (their memory goes back to the system).

    The buffers are taken out under the lock and dropped after it: unmapping hundreds
    of megabytes takes milliseconds, and a forward's ``empty`` waits for the lock."""
    global _free, _returned, _free_bytes
    with _lock:
        dropped = (_free, _returned)
        _free, _returned = collections.OrderedDict(), collections.deque()
        _free_bytes = 0
    del dropped  # the memory goes back here, outside the lock
