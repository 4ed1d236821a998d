"""A pool of helper threads, one per core but the caller's, started on first use.

Row ranges (``core.rows``) and pane pictures (``model.picture_threads``) each hand work
to helpers while the calling thread takes its share. Each keeps a pool of its own: the
pictures would otherwise queue behind the row ranges of a forward or of the read-outs
running meanwhile, and a picture whose rows went through ``core.rows`` would wait on a
pool its own job holds. What a pool is, is written once, here.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["HelperPool", "cores"]


def cores() -> int:
    """The CPUs this process may run on (all of them where that cannot be asked)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class HelperPool:
    """``executor()``: a ``ThreadPoolExecutor`` of ``cores() - 1`` threads (at least
    one) named ``prefix_…``, made at the first call.

    A forked child (``multiprocessing``'s default start method on Linux before Python
    3.14) inherits the pool object but none of its threads: its first task would wait
    for ever. The child forgets the pool and makes its own when it needs one.
    """

    def __init__(self, prefix: str):
        self.prefix = prefix
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        if hasattr(os, "register_at_fork"):  # not on Windows, which never forks
            os.register_at_fork(after_in_child=self._forget)

    def executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=max(1, cores() - 1),
                                                thread_name_prefix=self.prefix)
            return self._pool

    def _forget(self) -> None:
        self._pool, self._lock = None, threading.Lock()
