"""Row-parallel work on large matrices: NumPy's element-wise loops release the GIL.

``exp``, ``divide`` and row reductions run on one core inside NumPy; the softmax of
an n×m score matrix splits into independent row ranges, so handing those ranges to
a few threads makes it about as many times faster (BLAS products are threaded by
the BLAS library already and are not run here).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["for_row_chunks", "MIN_PARALLEL_CELLS"]

MIN_PARALLEL_CELLS = 1 << 19
"""Below this many cells (n ≈ 700) one thread is faster than handing work to others."""

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _executor(workers: int) -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="qkv-rows")
        return _pool


def for_row_chunks(fn: Callable[[int, int], None], n_rows: int, n_cells: int) -> None:
    """Call ``fn(r0, r1)`` on contiguous row ranges that together cover ``range(n_rows)``.

    With at least ``MIN_PARALLEL_CELLS`` cells the ranges run at the same time, one
    per core (the calling thread takes the last); ``fn`` must write only its own rows.
    An exception in any range is raised here after all ranges have finished.
    """
    chunks = min(_cores(), n_rows) if n_cells >= MIN_PARALLEL_CELLS else 1
    if chunks <= 1:
        fn(0, n_rows)
        return
    bounds = [n_rows * k // chunks for k in range(chunks + 1)]
    pool = _executor(chunks - 1)
    futures = [pool.submit(fn, a, b) for a, b in zip(bounds[:-2], bounds[1:-1], strict=True)]
    try:
        fn(bounds[-2], bounds[-1])
    finally:
        errors = [f.exception() for f in futures]  # waits for every range
    for error in errors:
        if error is not None:
            raise error
