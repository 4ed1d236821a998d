"""One BLAS thread in the app: its own threads share the cores, OpenBLAS's would fight them.

The window already keeps the cores busy with threads of its own: the GUI thread paints
while a worker runs the forward, and the core's stable softmax splits its rows over the
cores (``core.rows``). OpenBLAS adds a thread per core to every matrix product, and
between products those threads spin, waiting for the next one. With a core taken (by the
GUI thread, the worker, or any other program) a product waits for a thread that has no
core to run on: on the 2-core test machine under load a whole forward at n = 256 took
62 ms with OpenBLAS's threads against 2 ms with one (``compute`` alone, medians of 30),
and an edit of the window at n = 1024 took 222–295 ms against 61–68 ms (README,
Performance). So the app (not the library: a notebook keeps NumPy's own setting) asks
``threadpoolctl`` for half the cores (one on two cores, where it was measured; a larger
machine keeps BLAS threads for the long sessions' products and still leaves cores to the
app's own threads), unless the user chose a thread count with the usual environment
variables. With an OpenMP BLAS the limit holds for the thread that sets it and those it
starts; on macOS's Accelerate there is nothing to limit.
"""

from __future__ import annotations

import os

__all__ = ["limit_blas_threads", "blas_threads_for", "USER_SETTINGS"]

USER_SETTINGS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                 "BLIS_NUM_THREADS")
"""Environment variables by which a user sets BLAS's thread count: then theirs stands."""


def blas_threads_for(cores: int) -> int:
    """BLAS threads on a machine of ``cores`` cores: half of them, at least one."""
    return max(1, cores // 2)


def limit_blas_threads() -> bool:
    """Run BLAS on half the cores in this process, unless the user set a thread count
    or ``threadpoolctl`` is missing (then nothing changes). True when limited."""
    if any(os.environ.get(name) for name in USER_SETTINGS):
        return False
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # an optional speed-up; NumPy works the same without it
        return False
    # for the whole process, from now on (an OpenMP BLAS: this thread and its children)
    threadpool_limits(limits=blas_threads_for(os.cpu_count() or 1), user_api="blas")
    return True
