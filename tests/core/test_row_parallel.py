"""Large inputs take the blocked, row-parallel softmax: it must give the serial numbers.

Per row the operations are the same whichever thread does them, so the results are
bit-identical to one thread doing every row, and agree with plain NumPy.
"""

import importlib
import os
import signal
import threading
import time

import numpy as np
import pytest

from qkv_desktop.core import attention, init_weights
from qkv_desktop.core import rows as row_module
from qkv_desktop.core.lessons import row_uniformity

attention_module = importlib.import_module("qkv_desktop.core.attention")  # not the function
FIELDS = ("scores", "scaled", "weights", "output", "entropy", "max_weight", "mean_gradient")


def big_case(n: int = 800, dtype=np.float64):
    X = np.random.default_rng(3).standard_normal((n, 12)).astype(dtype)
    return X, init_weights(12, 6, seed=5, scale=0.8)


@pytest.mark.parametrize("threads", [1, 2])
def test_large_inputs_are_split_into_parallel_row_ranges(monkeypatch, threads):
    """With BLAS on one thread, the projections and then the rest of the forward (QKᵀ,
    the softmax, weights·V) share fixed row ranges among the threads, with BLAS
    products inside them; with BLAS on two, whole products on BLAS's threads, and the
    softmax on the calling thread where NumPy's float64 ``exp`` is a vector loop (else
    in ranges on the row threads: ``test_forward_rows.py``)."""
    from threadpoolctl import threadpool_limits

    seen = []
    real = row_module.for_row_chunks

    def spy(fn, n_rows, n_cells, **options):
        seen.append((n_rows, n_cells, options))
        return real(fn, n_rows, n_cells, **options)

    monkeypatch.setattr(attention_module, "for_row_chunks", spy)
    monkeypatch.setattr(attention_module, "_SCALAR_F64_EXP", False)
    X, w = big_case()
    with threadpool_limits(limits=threads, user_api="blas"):
        attention(X, w)
    fixed = {"blas": True, "range_rows": attention_module._RANGE_ROWS,
             "min_cells": attention_module._MIN_RANGED_CELLS}
    expected = [(800, 640_000, fixed)] * 2 if threads == 1 else []
    assert seen == expected and 640_000 >= row_module.MIN_PARALLEL_CELLS


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_parallel_rows_are_bit_identical_to_one_thread(monkeypatch, causal, dtype):
    """The row ranges are fixed by the shape, not by the number of cores: one core
    computes the same ranges in turn, and gets the same bits."""
    from threadpoolctl import threadpool_limits

    X, w = big_case(dtype=dtype)
    with threadpool_limits(limits=1, user_api="blas"):  # the app's setting: row threads
        parallel = attention(X, w, causal=causal, temperature=0.7)
        monkeypatch.setattr(row_module, "_cores", lambda: 1)
        serial = attention(X, w, causal=causal, temperature=0.7)
    for name in FIELDS:
        a, b = getattr(parallel, name), getattr(serial, name)
        assert a.dtype == np.dtype(dtype), name
        np.testing.assert_array_equal(a, b, err_msg=name)
    u_par = row_uniformity(parallel.scaled, parallel.weights)
    u_ser = row_uniformity(serial.scaled, serial.weights)
    for name in ("visible", "entropy", "fraction", "deviation", "max_weight", "argmax"):
        np.testing.assert_array_equal(getattr(u_par, name), getattr(u_ser, name), err_msg=name)


@pytest.mark.parametrize("causal", [False, True])
def test_with_several_blas_threads_and_a_vector_exp_the_softmax_stays_on_the_calling_thread(
        monkeypatch, causal):
    """NumPy's default (BLAS on every core, as in a notebook) where NumPy's float64
    ``exp`` has a vector loop (AVX-512): the forward starts no row thread. OpenBLAS's
    workers spin for about 0.1 s after each product, one per core, so a row thread
    would share a core with one of them; measured there, the forward was faster without
    (``attention._softmax_in_threads``, and ``test_forward_rows.py`` for the scalar
    ``exp``). The numbers are the row threads'."""
    from threadpoolctl import threadpool_limits

    monkeypatch.setattr(attention_module, "_SCALAR_F64_EXP", False)

    X, w = big_case(n=1024)
    with threadpool_limits(limits=1, user_api="blas"):
        with_row_threads = attention(X, w, causal=causal)

    def no_helpers():
        raise AssertionError("a row thread was asked for")

    monkeypatch.setattr(row_module._helpers, "executor", no_helpers)
    monkeypatch.setattr(row_module, "_cores", lambda: 2)
    with threadpool_limits(limits=2, user_api="blas"):
        if row_module.blas_threads() < 2:
            pytest.skip("this BLAS has no thread setting")
        r = attention(X, w, causal=causal)
    assert 1024 * 1024 >= row_module.MIN_PARALLEL_CELLS
    for name in ("scaled", "weights", "entropy", "max_weight", "mean_gradient"):
        np.testing.assert_allclose(getattr(r, name), getattr(with_row_threads, name),
                                   rtol=1e-13, atol=1e-300, err_msg=name)


def test_large_causal_attention_agrees_with_plain_numpy():
    X, w = big_case()
    r = attention(X, w, causal=True)
    scores = (X @ w.W_Q) @ (X @ w.W_K).T
    scaled = scores / np.sqrt(w.d_k)
    scaled[np.triu_indices(800, 1)] = -np.inf
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(r.scaled, scaled)  # true division, bit for bit
    np.testing.assert_allclose(r.weights, p, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(r.output, p @ (X @ w.W_V), rtol=1e-11, atol=1e-14)


def test_an_error_in_one_row_range_reaches_the_caller():
    def fn(r0, r1):
        if r0 > 0:
            raise ValueError(f"bad rows {r0}:{r1}")

    with pytest.raises(ValueError, match="bad rows"):
        row_module.for_row_chunks(fn, 10, row_module.MIN_PARALLEL_CELLS)


def test_a_thread_held_up_leaves_its_rows_to_the_others(monkeypatch):
    """The first range a helper thread takes stalls until every other range is done.

    Fixed shares (one half per thread) cannot finish that way: the calling thread would
    do its half and wait for the stalled thread's other rows. With ranges taken in turn
    the calling thread takes them all, and the stalled range is released once the rest
    are done. The caller's first range waits until the helper has taken one, so the
    caller cannot run off with every range before the helper starts. (The waits'
    timeouts only keep a broken version from hanging the run.)
    """

    monkeypatch.setattr(row_module, "_cores", lambda: 2)
    caller = threading.get_ident()
    done, lock = [], threading.Condition()
    ranges = 2 * row_module.RANGES_PER_THREAD
    released, helper_started = [], []

    def fn(r0, r1):
        with lock:
            if threading.get_ident() == caller:
                lock.wait_for(lambda: helper_started, timeout=20)
            elif not helper_started:
                helper_started.append(True)
                lock.notify_all()
                released.append(lock.wait_for(lambda: len(done) == ranges - 1, timeout=20))
            done.append((r0, r1))
            lock.notify_all()

    row_module.for_row_chunks(fn, 1000, row_module.MIN_PARALLEL_CELLS)
    assert released == [True]
    assert len(done) == ranges
    covered = sorted(done)
    assert covered[0][0] == 0 and covered[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in zip(covered, covered[1:], strict=False))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_runs_row_parallel_work():
    """A child forked after large row-parallel work (``multiprocessing``'s default on
    Linux) inherited the thread pool without its threads, and its first large softmax
    waited for ever."""
    n = 1024
    scores = np.random.default_rng(0).standard_normal((n, n))
    out = np.empty_like(scores)

    def exp_rows(r0: int, r1: int) -> None:
        np.exp(scores[r0:r1], out=out[r0:r1])

    row_module.for_row_chunks(exp_rows, n, n * n)  # the pool now exists, with its threads
    if row_module._cores() < 2:
        pytest.skip("one core: no helper threads to lose")
    pid = os.fork()
    if pid == 0:  # the child: exit 0 once its row-parallel work is done
        code = 1
        try:
            row_module.for_row_chunks(exp_rows, n, n * n)
            code = 0 if np.array_equal(out, np.exp(scores)) else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's row-parallel work never finished")


needs_two_cpus = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs per-thread CPU affinity (Linux) and two CPUs")


def _affinity_per_range(monkeypatch, n_rows: int = 1000) -> dict:
    """Run ``for_row_chunks`` on two threads, each taking at least one range, and
    return each thread's CPU set per range.

    Whichever thread comes first waits in its range for the other: the helper, alone
    on its CPU, could otherwise take all the trivial ranges before the caller took one
    (seen once in CI), and the caller's first range could likewise take them all."""

    monkeypatch.setattr(row_module, "_cores", lambda: 2)
    seen: dict[int, list] = {}
    lock = threading.Condition()

    def fn(r0, r1):
        me = threading.get_ident()
        with lock:
            seen.setdefault(me, []).append(os.sched_getaffinity(0))
            lock.notify_all()
            lock.wait_for(lambda: len(seen) > 1, timeout=20)

    row_module.for_row_chunks(fn, n_rows, row_module.MIN_PARALLEL_CELLS)
    return seen


def _helper_affinity() -> set:
    return row_module._helpers.executor().submit(os.sched_getaffinity, 0).result()


@needs_two_cpus
def test_each_thread_takes_its_turns_on_a_cpu_of_its_own(monkeypatch):
    """The GIL's hand-offs made Linux wake a row thread on the other's CPU, where both
    shared one core for milliseconds while the other idled (``perf sched``): while they
    take turns, each thread is held on one CPU, a different one each, and afterwards
    each has its own CPUs back."""
    monkeypatch.setattr(row_module, "PIN_THREADS", True)
    before = os.sched_getaffinity(0)
    seen = _affinity_per_range(monkeypatch)
    assert len(seen) == 2
    cpus = []
    for sets in seen.values():
        assert all(len(s) == 1 for s in sets) and len({frozenset(s) for s in sets}) == 1
        cpus.append(next(iter(sets[0])))
    assert len(set(cpus)) == 2 and set(cpus) <= before
    assert os.sched_getaffinity(0) == before
    assert _helper_affinity() == before


@needs_two_cpus
def test_without_pinning_the_threads_keep_their_cpus(monkeypatch):
    monkeypatch.setattr(row_module, "PIN_THREADS", False)
    before = os.sched_getaffinity(0)
    seen = _affinity_per_range(monkeypatch)
    assert len(seen) == 2
    assert all(s == before for sets in seen.values() for s in sets)


@needs_two_cpus
def test_a_caller_held_to_one_cpu_is_not_moved(monkeypatch):
    """A caller that the user (``taskset``) or a container holds to fewer CPUs than
    there are threads keeps its setting: no thread is moved to a CPU it was denied."""
    monkeypatch.setattr(row_module, "PIN_THREADS", True)
    before = os.sched_getaffinity(0)
    one = {min(before)}
    os.sched_setaffinity(0, one)
    try:
        seen = _affinity_per_range(monkeypatch)
        assert all(s == one for s in seen[threading.get_ident()])
        assert os.sched_getaffinity(0) == one
    finally:
        os.sched_setaffinity(0, before)


def test_threads_are_held_only_when_there_is_one_for_every_cpu(monkeypatch):
    """With fewer threads than CPUs, two calls at once would hold theirs on the same
    few CPUs while the others idle: the scheduler places them then."""
    monkeypatch.setattr(row_module, "PIN_THREADS", True)
    monkeypatch.setattr(row_module.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3},
                        raising=False)
    monkeypatch.setattr(row_module, "_current_cpu", lambda: 2)
    assert row_module._cpus_for(2) is None
    assert row_module._cpus_for(4) == [2, 0, 1, 3]  # the caller stays where it runs


def test_a_caller_does_not_wait_for_a_helper_busy_with_another_call(monkeypatch):
    """Once every range is taken, a helper that has not started has nothing to do: the
    caller must not wait until the pool, busy with another call's turns, starts it
    (a forward on the GUI thread waited 118 ms so behind the read-outs' rows)."""
    monkeypatch.setattr(row_module, "_cores", lambda: 2)
    pool = row_module._helpers.executor()
    release = threading.Event()
    busy = [pool.submit(release.wait, 60) for _ in range(pool._max_workers)]
    try:
        done = []
        row_module.for_row_chunks(lambda r0, r1: done.append((r0, r1)), 1000,
                                  row_module.MIN_PARALLEL_CELLS)
        assert not release.is_set() and not any(f.done() for f in busy)
        assert sorted(done)[0][0] == 0 and sorted(done)[-1][1] == 1000
    finally:
        release.set()
        for f in busy:
            f.result()
