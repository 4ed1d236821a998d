"""Row-parallel work on large matrices: NumPy's element-wise loops release the GIL.

``exp``, ``divide`` and row reductions run on one core inside NumPy; the softmax of
an n×m score matrix splits into independent row ranges, so handing those ranges to
a few threads makes it about as many times faster (BLAS products are threaded by
the BLAS library already and are not run here).

The rows are handed out as many small ranges that each thread takes in turn, not as
one fixed share per thread: on a machine whose cores other programs also use, a thread
may get no core for several scheduler ticks, and with fixed shares the others would
sit idle waiting for its rows. Measured on 2 shared cores (softmax alone, n = 4096):
in runs where a thread was held up, medians of 150–330 ms with fixed halves against
125–200 ms in turns; in the other runs the two are the same within ±5 %.

While they take turns, each thread is held on a CPU of its own (``PIN_THREADS``): the
threads hand the GIL to each other between NumPy calls, and Linux wakes a thread that
waited for it on the waker's CPU when its own CPU has not yet gone idle. Both threads
then share one core while the other core idles, for milliseconds, until the load
balancer moves one (seen with ``perf sched timehist`` in the window's edit at
n = 1024: a row thread runnable for 3.1 ms on CPU 1 while CPU 0 idled, and 5–8 ms of
each thread's 16 ms forward spent waiting for a CPU). Measured on the quiet 2-core
machine, ``tests/benchmarks/trace_edit.py --sizes 1024,2048 --edits 7 --summary``
with ``--no-pin`` and without, two rounds in turns, the median edit's last paint:
n = 1024, 23.9 and 27.0 ms free against 21.6 and 19.9 held; n = 2048, 46.2 and 46.6
against 46.2 and 42.2. With a busy loop on one core: 33.9 and 24.5 against 24.0 and
24.3 ms; 62.5 and 61.4 against 54.8 and 56.8. A scrub at n = 1024
(``bench_window.py``): 38–52 ms between frames free, 31–32 held.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from qkv_desktop.core.helper_pool import HelperPool, cores

__all__ = ["for_row_chunks", "one_blas_thread", "blas_threads", "MIN_PARALLEL_CELLS",
           "RANGES_PER_THREAD", "PIN_THREADS"]

MIN_PARALLEL_CELLS = 1 << 19
"""Below this many cells (n ≈ 700) one thread is faster than handing work to others."""

RANGES_PER_THREAD = 4
"""Row ranges per thread: enough that a thread held up by the scheduler leaves at most
an eighth of the rows (on 2 cores) for the other to wait on, few enough that each range
is many cache-sized row blocks (n = 2048: 256 rows)."""

PIN_THREADS = hasattr(os, "sched_setaffinity")
"""Hold each thread of ``for_row_chunks`` on a CPU of its own while it takes turns
(Linux; other systems have no per-thread affinity in ``os``). Each thread's own
affinity comes back when its turns end. ``False`` leaves the placement to the
scheduler (``trace_edit.py --no-pin`` measures the difference)."""

_helpers = HelperPool("qkv-rows")
"""The helper threads, one fewer than the cores (the caller is the last one)."""
_cores = cores  # a module name: tests pretend another count for the split of the work


def _forget_blas_in_child() -> None:
    """A forked child inherits the BLAS bookkeeping's lock as it was (held, perhaps, by
    a thread the child does not have): it starts its own (the pool forgets itself)."""
    global _blas_lock, _blas_users, _blas_saved
    _blas_lock, _blas_users, _blas_saved = threading.Lock(), 0, []


_blas_controllers: list | None = None
_blas_lock = threading.Lock()
_blas_users = 0
_blas_saved: list = []


def _blas_libraries() -> list:
    """(controller, setter, per_thread) of each loaded BLAS library, found once through
    threadpoolctl (none without it: the products then keep BLAS's own threads).

    threadpoolctl ≥ 3.8 lets only one Python thread set OpenBLAS's thread count (the
    first that did; calls from others do nothing), so a forward on a worker thread, as
    in the app, could not set it: the setter is then its unguarded one. The core's
    calls agree among themselves (``one_blas_thread`` counts them). ``per_thread``: an
    OpenBLAS built on OpenMP, whose setting (``omp_set_num_threads``) is the calling
    thread's alone, so each row thread sets its own."""
    global _blas_controllers
    if _blas_controllers is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:
            _blas_controllers = []
        else:
            libs = ThreadpoolController().select(user_api="blas").lib_controllers
            _blas_controllers = [
                (lib, getattr(lib, "_real_set_num_threads", lib.set_num_threads),
                 lib.internal_api == "openblas"
                 and getattr(lib, "threading_layer", None) == "openmp")
                for lib in libs]
    return _blas_controllers


def blas_threads() -> int:
    """The most threads a loaded BLAS library runs a product on (1 without threadpoolctl)."""
    return max((lib.get_num_threads() or 1 for lib, _setter, _own in _blas_libraries()),
               default=1)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while the core runs products of its own.

    The setting is the process's (OpenBLAS on pthreads, MKL and BLIS have no per-thread
    one), so it is made when the first such block starts and undone when the last one
    ends: two forwards on two threads at once, or one inside another, leave the user's
    setting as it was. A library already on one thread (the app's setting) is not
    touched. An OpenBLAS on OpenMP has a setting per thread: each block sets and
    restores the calling thread's, and ``for_row_chunks`` enters a block in each of its
    helper threads. The controllers are asked directly: ``threadpool_limits``
    describes every library on each call, about 14 µs, a third of a whole forward at
    n = 4, and threadpoolctl ≥ 3.8 lets only the first Python thread that set a limit
    set it again (``_blas_libraries``).

    Other threads of the caller: while a forward runs, a product that another of its
    threads starts also runs on one BLAS thread (slower, never wrong), and a limit
    that another thread sets meanwhile is replaced by the caller's old setting when the
    last forward ends. Setting one thread does not stop OpenBLAS's workers that are
    still spinning after an earlier product of the caller's (about 0.1 s at full CPU,
    measured on the 2-core machine); until they sleep they share the cores with the
    row threads.
    """
    global _blas_users, _blas_saved
    libraries = _blas_libraries()
    with _blas_lock:
        if _blas_users == 0:
            _blas_saved = [(setter, lib.get_num_threads())
                           for lib, setter, per_thread in libraries if not per_thread]
            for setter, threads in _blas_saved:
                if threads != 1:
                    setter(1)
        _blas_users += 1
    own = [(setter, lib.get_num_threads()) for lib, setter, per_thread in libraries
           if per_thread]  # this thread's setting
    for setter, threads in own:
        if threads != 1:
            setter(1)
    try:
        yield
    finally:
        for setter, threads in own:
            if threads != 1:
                setter(threads)
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0:
                for setter, threads in _blas_saved:
                    if threads != 1:
                        setter(threads)
                _blas_saved = []


if hasattr(os, "register_at_fork"):  # not on Windows, which never forks
    os.register_at_fork(after_in_child=_forget_blas_in_child)


def for_row_chunks(fn: Callable[[int, int], None], n_rows: int, n_cells: int, *,
                   blas: bool = False, range_rows: int | None = None,
                   min_cells: int = MIN_PARALLEL_CELLS) -> None:
    """Call ``fn(r0, r1)`` on contiguous row ranges that together cover ``range(n_rows)``.

    With at least ``min_cells`` cells (``MIN_PARALLEL_CELLS`` unless told) the rows are
    cut into ``RANGES_PER_THREAD`` ranges per core, and one thread per core (the calling
    thread among them) takes the next range whenever it finishes one, each on a CPU of
    its own (``PIN_THREADS``), so a thread that the scheduler holds up delays at most
    its current range. ``fn`` must write only its own rows. An exception in any range
    is raised here after all threads have stopped (a thread stops at its first
    exception; the others finish the remaining ranges).
    ``fn`` must not call ``for_row_chunks`` itself: the helper threads would wait on
    each other. Nor may it start threads: they would inherit its thread's single CPU.

    ``blas=True``: ``fn`` runs matrix products, and BLAS runs on one thread while the
    ranges do (``one_blas_thread``, in the helper threads too), since the ranges
    already take every core; below the threshold too, where the products are small
    enough that waking BLAS's threads costs more than they give (n = 256, quiet
    machine: 2.2 ms against 1.7), and so that the numbers never depend on BLAS's
    thread count.
    ``range_rows``: above the threshold, ranges of this many rows whatever the number
    of cores (the last one shorter), for an ``fn`` whose numbers depend on its range:
    a BLAS product may round a row differently with other rows beside it, and fixed
    ranges give every core count the same bits.
    """
    if blas:
        with one_blas_thread():
            _for_row_chunks(fn, n_rows, n_cells, range_rows, blas, min_cells)
    else:
        _for_row_chunks(fn, n_rows, n_cells, range_rows, blas, min_cells)


def _cpus_for(threads: int) -> list[int] | None:
    """A CPU for each of ``threads`` threads, from the calling thread's allowed ones,
    the one it runs on first (its cache stays warm), or ``None``: pinning off, or not
    one thread for every allowed CPU. Only that case was measured; with fewer threads
    than CPUs, two calls at once (or two processes) would hold their threads on the
    same few CPUs while others idle, where the scheduler left free spreads them."""
    if not PIN_THREADS:
        return None
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (OSError, AttributeError):
        return None
    if len(allowed) != threads:
        return None
    here = _current_cpu()
    if here in allowed:
        allowed.remove(here)
        allowed.insert(0, here)
    return allowed


_sched_getcpu = None
"""libc's ``sched_getcpu`` once looked up, ``False`` where there is none."""


def _current_cpu() -> int | None:
    """The CPU the calling thread runs on (libc's ``sched_getcpu``), or ``None``."""
    global _sched_getcpu
    if _sched_getcpu is None:
        try:
            import ctypes
            _sched_getcpu = ctypes.CDLL(None, use_errno=True).sched_getcpu
        except Exception:  # noqa: BLE001 -- no such call here (not glibc; Windows: TypeError)
            _sched_getcpu = False
    if _sched_getcpu is False:
        return None
    cpu = _sched_getcpu()
    return cpu if cpu >= 0 else None


@contextmanager
def _on_cpu(cpu: int | None) -> Iterator[None]:
    """The calling thread held on ``cpu`` (``None``: as it is), then as before. A CPU
    taken away meanwhile (a container, ``taskset``) leaves the thread as it is."""
    before = None
    if cpu is not None:
        try:
            before = os.sched_getaffinity(0)
            os.sched_setaffinity(0, (cpu,))
        except OSError:
            before = None
    try:
        yield
    finally:
        if before is not None:
            try:
                os.sched_setaffinity(0, before)
            except OSError:
                pass


def _for_row_chunks(fn: Callable[[int, int], None], n_rows: int, n_cells: int,
                    range_rows: int | None, blas: bool, min_cells: int) -> None:
    if n_cells < min_cells or n_rows <= 1:
        fn(0, n_rows)
        return
    if range_rows is None:
        threads = min(_cores(), n_rows)
        if threads <= 1:
            fn(0, n_rows)
            return
        ranges = min(n_rows, RANGES_PER_THREAD * threads)
        bounds = [n_rows * k // ranges for k in range(ranges + 1)]
    else:
        bounds = [*range(0, n_rows, max(1, range_rows)), n_rows]
        ranges = len(bounds) - 1
        threads = min(_cores(), ranges)
    if threads <= 1:
        for k in range(ranges):
            fn(bounds[k], bounds[k + 1])
        return
    turns, turn_lock = itertools.count(), threading.Lock()
    cpus = _cpus_for(threads)
    seats = itertools.count(1)  # the caller sits at 0, on its own CPU; helpers as they start

    def take_turns(seat: int) -> None:
        with _on_cpu(None if cpus is None else cpus[seat]):
            while True:
                with turn_lock:  # each range is taken exactly once
                    k = next(turns)
                if k >= ranges:
                    return
                fn(bounds[k], bounds[k + 1])

    def helper() -> None:
        if blas:  # an OpenMP BLAS: this thread's own setting
            with one_blas_thread():
                take_turns(next(seats))
        else:
            take_turns(next(seats))

    pool = _helpers.executor()
    futures = [pool.submit(helper) for _ in range(threads - 1)]
    try:
        take_turns(0)
    finally:
        # Every range is taken: a helper that has not started (the pool busy with
        # another call's turns) has nothing left to do, and waiting for it to start
        # made a forward on the GUI thread wait for that other call (n = 400: 2.4 ms
        # alone, 118 ms behind the read-outs' row ranges of a large result).
        for f in futures:
            f.cancel()
        errors = [f.exception() for f in futures if not f.cancelled()]  # waits for the rest
    for error in errors:
        if error is not None:
            raise error
