"""The row-parallel forward: where its products run, and the whole products' bits.

With BLAS on one thread (the app's setting) and above ``MIN_PARALLEL_CELLS``, the
forward computes X·W, QKᵀ, the softmax and weights·V in fixed row ranges that its
threads take in turn. With BLAS on more threads (NumPy's default, a notebook) the
products are whole products on BLAS's threads and the row threads run the softmax.
Either way every number at the app's shapes (d_k = 64) is the one the whole products
give, where the BLAS gives a range of rows the bits it gives them in a whole product
(not every BLAS does: then the numbers agree to rounding, and the bits do not depend
on the number of cores).
"""

from __future__ import annotations

import importlib
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from qkv_desktop.core import attention, init_weights
from qkv_desktop.core import rows as row_module

attention_module = importlib.import_module("qkv_desktop.core.attention")  # not the function


def blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def plain_weights(scaled: np.ndarray) -> np.ndarray:
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_row_parallel_forward_gives_the_whole_products_bits(dtype, causal, threads,
                                                                monkeypatch):
    """n = 1024, d_model = 768, d_k = 64 (a GPT-2-sized head): Q, K, V, QKᵀ, the
    scaled scores, the weights and the output are those of plain NumPy's whole
    products and softmax, bit for bit, with BLAS on one thread or two, where this BLAS
    rounds a range of rows as it rounds them in a whole product; elsewhere equal to
    rounding, and the same bits on one core or two."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((1024, 768)).astype(dtype)
    w = init_weights(768, 64, seed=11, scale=0.1)
    assert X.shape[0] ** 2 >= row_module.MIN_PARALLEL_CELLS  # the parallel path
    W = w.astype(dtype)
    with threadpool_limits(limits=threads, user_api="blas"):
        r = attention(X, w, causal=causal)
        Q, K, V = X @ W.W_Q, X @ W.W_K, X @ W.W_V
        scores = Q @ K.T
    scaled = scores / dtype(8.0)
    if causal:
        scaled[np.triu_indices(1024, 1)] = -np.inf
    weights = plain_weights(scaled)
    with threadpool_limits(limits=threads, user_api="blas"):
        output = weights @ V
    exact = blas_rounds_a_range_as_the_whole(X, W.W_Q, threads)
    for name, plain in (("Q", Q), ("K", K), ("V", V), ("scores", scores), ("scaled", scaled),
                        ("weights", weights), ("output", output)):
        got = getattr(r, name)
        assert got.dtype == np.dtype(dtype), name
        if exact:
            np.testing.assert_array_equal(got, plain, err_msg=name)
        else:  # a BLAS that rounds a range otherwise: the whole products' numbers to
            # rounding (sums of 768 terms that cancel: a few units of the last place of
            # the largest number, not of each), and the same bits on one thread or two
            finite = np.isfinite(plain)
            scale = float(np.abs(plain[finite]).max())
            np.testing.assert_array_equal(finite, np.isfinite(got), err_msg=name)
            np.testing.assert_allclose(got[finite], plain[finite], rtol=0,
                                       atol=64 * np.finfo(dtype).eps * scale, err_msg=name)
    if not exact:  # the ranges are fixed by the shape: one core gives the same bits
        monkeypatch.setattr(row_module, "_cores", lambda: 1)
        with threadpool_limits(limits=threads, user_api="blas"):
            other = attention(X, w, causal=causal)
        for name in ("Q", "K", "V", "scores", "weights", "output"):
            np.testing.assert_array_equal(getattr(other, name), getattr(r, name),
                                          err_msg=name)


def blas_rounds_a_range_as_the_whole(X, W, threads) -> bool:
    """Whether this BLAS gives rows multiplied as one ``_RANGE_ROWS`` range the bits it
    gives them in the whole product. OpenBLAS 0.3.31's Haswell kernels do in float64
    on the machines seen so far; in float32 on an Intel machine, but not on an AMD
    EPYC (1–8 ulp apart in 15 % of Q's cells): no row-parallel forward can then give
    the whole product's bits, only its numbers to rounding."""
    rows = attention_module._RANGE_ROWS
    with threadpool_limits(limits=threads, user_api="blas"):
        return bool(np.array_equal(X[rows:2 * rows] @ W, (X @ W)[rows:2 * rows]))


def test_with_one_blas_thread_the_products_run_in_the_row_threads(monkeypatch):
    """With BLAS on one thread (the app's setting), the projections and then QKᵀ, the
    softmax and weights·V run in the row ranges, on at least two threads of the
    core's own, each with BLAS on one thread."""
    if row_module._cores() < 2:
        pytest.skip("one core: the forward runs its ranges on the calling thread")
    real = row_module.for_row_chunks
    seen: list[tuple[int, set[int]]] = []
    started = threading.Condition()
    caller = threading.get_ident()

    calls = []

    def spy(fn, n_rows, n_cells, **options):
        calls.append(options)
        helper_began: list[int] = []

        def watched(r0: int, r1: int) -> None:
            me = threading.get_ident()
            with started:  # the caller waits until a helper has a range too
                if me != caller:
                    helper_began.append(me)
                    started.notify_all()
                elif not helper_began:
                    started.wait_for(lambda: helper_began, timeout=20)
            seen.append((me, blas_threads()))
            fn(r0, r1)

        return real(watched, n_rows, n_cells, **options)

    monkeypatch.setattr(attention_module, "for_row_chunks", spy)
    X = np.random.default_rng(3).standard_normal((800, 12))
    with threadpool_limits(limits=1, user_api="blas"):
        attention(X, init_weights(12, 6, seed=5, scale=0.8))
    fixed = {"blas": True, "range_rows": attention_module._RANGE_ROWS,
             "min_cells": attention_module._MIN_RANGED_CELLS}
    assert calls == [fixed, fixed]  # the projections, then the rest
    assert seen and all(threads == {1} for _, threads in seen)
    assert len({thread for thread, _ in seen}) >= 2


@pytest.mark.parametrize(("n", "ranges"), [(256, 1), (384, 3), (512, 4)])
def test_from_about_360_tokens_the_forward_shares_ranges_of_128_rows(monkeypatch, n, ranges):
    """Ranges pay from n ≈ 362 (``_MIN_RANGED_CELLS``: in the window at n = 512 the
    forward took 3.8–4.1 ms in ranges against 5.5–5.8 in one); below that the forward
    is one range on the calling thread. Either way the numbers at these shapes are the whole
    products' and plain NumPy's softmax, bit for bit."""
    real = row_module.for_row_chunks
    fused_ranges: list[tuple[int, int]] = []

    def spy(fn, n_rows, n_cells, **options):
        def seen(r0: int, r1: int) -> None:
            fused_ranges.append((r0, r1))
            fn(r0, r1)
        return real(seen if n_cells == n * n else fn, n_rows, n_cells, **options)

    monkeypatch.setattr(attention_module, "for_row_chunks", spy)
    X = np.random.default_rng(7).standard_normal((n, n))
    w = init_weights(n, 64, seed=11, scale=0.1)
    with threadpool_limits(limits=1, user_api="blas"):
        r = attention(X, w)
        Q, K, V = X @ w.W_Q, X @ w.W_K, X @ w.W_V
        scores = Q @ K.T
        weights = plain_weights(scores / 8.0)
        output = weights @ V
    assert len([rng for rng in fused_ranges if rng[0] == 0]) == 2  # projections, then the rest
    expected = [(a, min(n, a + 128)) for a in range(0, n, 128)] if ranges > 1 else [(0, n)]
    assert sorted(set(fused_ranges)) == expected and len(expected) == ranges
    for name, plain in (("Q", Q), ("K", K), ("V", V), ("scores", scores),
                        ("weights", weights), ("output", output)):
        np.testing.assert_array_equal(getattr(r, name), plain, err_msg=name)


def test_overlapping_forwards_leave_the_blas_setting_as_it_was():
    """Two forwards on two threads at once: the first to finish must not give BLAS its
    threads back while the other still runs its ranges; the last one does."""
    with threadpool_limits(limits=2, user_api="blas"):
        first, second = row_module.one_blas_thread(), row_module.one_blas_thread()
        first.__enter__()
        second.__enter__()
        assert blas_threads() == {1}
        first.__exit__(None, None, None)
        assert blas_threads() == {1}
        second.__exit__(None, None, None)
        assert blas_threads() == {2}


def test_an_empty_row_in_a_range_still_names_the_first_one():
    """A range stops at its first row without a key; the error names the first of all,
    and BLAS gets its threads back."""
    from qkv_desktop.core import EmptyRowError

    n = 800
    mask = np.ones((n, n), dtype=bool)
    mask[300, :] = False
    mask[700, :] = False
    X = np.random.default_rng(1).standard_normal((n, 12))
    with threadpool_limits(limits=2, user_api="blas"):
        with pytest.raises(EmptyRowError) as caught:
            attention(X, init_weights(12, 6, seed=5, scale=0.8), mask=mask)
        assert blas_threads() == {2}
    assert caught.value.row == 300


@pytest.mark.parametrize("n, m, d_model, d_k", [(300, 500, 48, 32), (1000, 1000, 20, 16)])
def test_with_blas_threads_the_numbers_are_the_whole_products(n, m, d_model, d_k):
    """With NumPy's two BLAS threads (a notebook) the products are whole products on
    them, the old core's numbers: OpenBLAS rounds these shapes differently with two
    threads than with one, and with fewer rows per call."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((n, d_model))
    X_kv = rng.standard_normal((m, d_model)) if m != n else None
    w = init_weights(d_model, d_k, seed=3, scale=0.5)
    with threadpool_limits(limits=2, user_api="blas"):
        r = attention(X, w, X_kv=X_kv)
        scores = r.Q @ r.K.T
        output = r.weights @ r.V
    np.testing.assert_array_equal(r.scores, scores)
    np.testing.assert_array_equal(r.output, output)


def test_one_blas_thread_sets_it_from_a_worker_thread_too():
    """threadpoolctl (3.8) lets only the first Python thread that set OpenBLAS's thread
    count set it again; the app's forward runs on a worker thread, so one_blas_thread
    sets it itself."""
    inside = {}

    def work() -> None:
        with row_module.one_blas_thread():
            inside["threads"] = blas_threads()

    with threadpool_limits(limits=2, user_api="blas"):  # the main thread sets it first
        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        after = blas_threads()
    assert inside["threads"] == {1}
    assert after == {2}


class PerThreadBlas:
    """A BLAS whose thread count is each thread's own, as OpenBLAS built on OpenMP
    (``omp_set_num_threads``): 4 in every thread until the thread sets another."""

    def __init__(self) -> None:
        self.local = threading.local()

    def get_num_threads(self) -> int:
        return getattr(self.local, "threads", 4)

    def set_num_threads(self, threads: int) -> None:
        self.local.threads = threads


def test_with_a_per_thread_blas_every_row_thread_multiplies_on_one_thread(monkeypatch):
    """An OpenMP OpenBLAS limits only the thread that asks: the caller's limit would
    leave the helper threads' products on all of OpenMP's threads (other bits, and more
    threads than cores). Each row thread sets its own, and gives it back afterwards."""
    if row_module._cores() < 2:
        pytest.skip("one core: the forward runs its ranges on the calling thread")
    fake = PerThreadBlas()
    monkeypatch.setattr(row_module, "_blas_controllers", [(fake, fake.set_num_threads, True)])
    seen: dict[int, set[int]] = {}
    lock = threading.Lock()
    both = threading.Barrier(2, timeout=20)  # each thread's first range waits for the other's

    def rows(r0: int, r1: int) -> None:
        me = threading.get_ident()
        with lock:
            first = me not in seen
            seen.setdefault(me, set()).add(fake.get_num_threads())
        if first:
            both.wait()

    row_module.for_row_chunks(rows, 1024, 1024 * 1024, blas=True, range_rows=128)
    assert len(seen) >= 2 and all(counts == {1} for counts in seen.values())
    assert fake.get_num_threads() == 4  # the caller's setting is back

    after: dict[str, int] = {}

    def helper_setting() -> None:  # the pool's helper thread has its own back too
        after["threads"] = fake.get_num_threads()

    row_module._helpers.executor().submit(helper_setting).result()
    assert after["threads"] == 4


@pytest.mark.parametrize("scalar_exp", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_with_blas_threads_the_softmax_takes_the_row_threads_where_exp_is_scalar(
        monkeypatch, dtype, scalar_exp):
    """BLAS on two threads (a notebook): QKᵀ and weights·V are whole products, and the
    softmax runs on the row threads only for float64 where NumPy's ``exp`` has no vector
    loop (``_SCALAR_F64_EXP``: no AVX-512); its numbers are plain NumPy's either way."""
    monkeypatch.setattr(attention_module, "_SCALAR_F64_EXP", scalar_exp)
    real = row_module.for_row_chunks
    calls = []

    def spy(fn, n_rows, n_cells, **options):
        calls.append((n_rows, n_cells, options))
        return real(fn, n_rows, n_cells, **options)

    monkeypatch.setattr(attention_module, "for_row_chunks", spy)
    X = np.random.default_rng(5).standard_normal((800, 48)).astype(dtype)
    w = init_weights(48, 16, seed=3, scale=0.3)
    with threadpool_limits(limits=2, user_api="blas"):
        if row_module.blas_threads() < 2:
            pytest.skip("this BLAS has no thread setting")
        r = attention(X, w)
    threaded = scalar_exp and dtype == np.float64
    assert calls == ([(800, 800 * 800, {"range_rows": attention_module._RANGE_ROWS})]
                     if threaded else [])
    assert r.scores.dtype == r.weights.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(r.scaled, r.scores / dtype(4.0))
    np.testing.assert_array_equal(r.weights, plain_weights(r.scaled))
