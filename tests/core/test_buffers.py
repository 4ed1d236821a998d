"""Large results reuse the memory of results nobody holds, and only theirs.

n = 1500 gives 18 MB score matrices in float64, above ``MIN_POOLED_BYTES``.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from qkv_desktop.core import attention, buffers, init_weights
from qkv_desktop.core.rows import blas_threads, one_blas_thread

N = 1500
NxN = ("scores", "scaled", "weights")


@pytest.fixture
def case():
    assert N * N * 8 >= buffers.MIN_POOLED_BYTES
    gc.collect()
    buffers.release_free()
    X = np.random.default_rng(4).standard_normal((N, 8))
    return X, init_weights(8, 4, seed=3, scale=0.5)


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_a_dropped_result_lends_its_memory_to_the_next_forward(case):
    """The next forward writes into the dropped result's three n × n arrays. (Without
    the pool the memory went back to the kernel: the array made in between would take
    one of those addresses, and the kernel would clear every page again.)"""
    X, w = case
    first = attention(X, w)
    addresses = {address(getattr(first, name)) for name in NxN}
    del first
    gc.collect()
    in_between = np.ones((N, N))  # a fresh array of the same size meanwhile
    second = attention(X, w)
    assert {address(getattr(second, name)) for name in NxN} == addresses
    assert address(in_between) not in addresses
    np.testing.assert_allclose(second.weights.sum(axis=1), 1.0, rtol=1e-14)


def test_a_result_still_held_is_never_written(case):
    """Two results alive at once (the GUI shows one while the next is computed) share
    no memory, and the first keeps its numbers."""
    X, w = case
    first = attention(X, w)
    kept = {name: getattr(first, name).copy() for name in NxN}
    second = attention(X * 2, w)
    for name in NxN:
        for other in NxN:
            assert not np.shares_memory(getattr(first, name), getattr(second, other))
        np.testing.assert_array_equal(getattr(first, name), kept[name], err_msg=name)


def test_a_view_alone_keeps_its_buffer(case):
    """A slice of the weights outlives its result (a cache, a notebook variable): that
    buffer stays out of the pool until the slice goes too."""
    X, w = case
    first = attention(X, w)
    rows = first.weights[10:20]
    held = rows.copy()
    del first
    gc.collect()
    second = attention(X * 3, w)
    for name in NxN:
        assert not np.shares_memory(rows, getattr(second, name))
    np.testing.assert_array_equal(rows, held)
    weights_address = address(rows) - 10 * N * 8
    del second
    gc.collect()
    del rows  # its buffer is free now, the last one given back
    gc.collect()
    third = attention(X, w)
    assert weights_address in {address(getattr(third, name)) for name in NxN}


def test_a_shape_nobody_asks_for_any_more_is_let_go(case):
    """After a session of another size has run for a while, the old size's free
    buffers are gone (their memory back to the system)."""
    X, w = case
    r = attention(X, w)
    del r
    gc.collect()
    assert buffers.free_buffers() >= 3
    for _ in range(buffers.STALE_AFTER + 1):
        buffers.empty((N + 1, N), np.float64)  # another shape, asked for again and again
    gc.collect()
    assert buffers.free_buffers() <= 1


def test_the_free_buffers_stay_within_their_bounds(monkeypatch):
    gc.collect()
    buffers.release_free()
    monkeypatch.setattr(buffers, "MAX_FREE_BYTES", 3 << 20)
    size = (1 << 20) + 1  # three of these are over the bound
    held = [buffers.empty((size,), np.uint8) for _ in range(3)]
    del held
    gc.collect()
    assert buffers.free_buffers() == 2
    many = [buffers.empty((1000, 1000), np.float32) for _ in range(buffers.MAX_FREE + 5)]
    del many
    gc.collect()
    assert buffers.free_buffers() <= 2 + buffers.MAX_FREE


def test_small_arrays_are_plain_numpy_arrays():
    a = buffers.empty((100, 100), np.float64)
    assert a.base is None and a.flags.owndata
    big = buffers.empty((N, N), np.float32)
    assert big.flags.writeable and big.flags.c_contiguous and big.dtype == np.float32


def test_a_buffer_of_another_shape_in_the_free_list_is_never_handed_out():
    """A lease dropped on one thread while another asks for other shapes files its
    buffer under its own shape and dtype (the free lists are per shape), so ``empty``
    returns the shape it was asked for, and the dropped buffer goes to its own shape."""
    gc.collect()
    buffers.release_free()
    held = buffers.empty((N, N), np.float64)
    kept = address(held)
    same_bytes = buffers.empty((N // 2, 2 * N), np.float64)  # another shape meanwhile
    other_dtype = buffers.empty((N, N), np.float32)
    del held  # given back while the other shapes are the latest asked for
    gc.collect()
    got = buffers.empty((N // 2, 2 * N), np.float64)
    assert got.shape == (N // 2, 2 * N) and address(got) != kept
    got32 = buffers.empty((N, N), np.float32)
    assert got32.dtype == np.float32 and address(got32) != kept
    again = buffers.empty((N, N), np.float64)
    assert again.shape == (N, N) and again.dtype == np.float64 and address(again) == kept
    del same_bytes, other_dtype


def test_release_free_lets_go_of_the_memory_outside_the_lock():
    """Unmapping hundreds of megabytes takes milliseconds, and a forward's ``empty``
    waits for the pool's lock: the buffers are dropped after it is released (found by
    review)."""
    seen = []

    class Probe:  # stands for a free buffer; its memory goes when it is dropped
        def __del__(self):
            seen.append(buffers._lock.locked())

    with buffers._lock:
        buffers._free[("probe",)] = [0, [Probe()]]
    buffers.release_free()
    assert seen == [False]
    assert buffers.free_buffers() == 0


def owner(a: np.ndarray):
    """The object at the end of ``a``'s chain of bases (a pooled array's lease)."""
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return a


@pytest.mark.parametrize("blas", ["one thread", "several threads"])
def test_q_k_and_v_of_a_large_forward_share_one_pooled_buffer(blas):
    """At n = 1024, d_k = 64 each of Q, K and V is 512 kB, below ``MIN_POOLED_BYTES``:
    they were three fresh arrays, paged in on every forward. Side by side in one
    buffer (1.5 MB) the pool serves them, and the next forward writes into it again.
    With BLAS on one thread (the app's row ranges) they are copied out of the
    projection memo's product into contiguous blocks; with BLAS on several threads
    they are the columns of the forward's own product, as views."""
    if blas == "several threads" and blas_threads() == 1:
        pytest.skip("BLAS runs on one thread here")
    gc.collect()
    buffers.release_free()
    X = np.random.default_rng(5).standard_normal((1024, 96))
    w = init_weights(96, 64, seed=2, scale=0.1)
    assert 1024 * 64 * 8 < buffers.MIN_POOLED_BYTES <= 3 * 1024 * 64 * 8

    def forward():
        if blas == "one thread":
            with one_blas_thread():
                return attention(X, w)
        return attention(X, w)

    first = forward()
    lease = owner(first.Q)
    assert isinstance(lease, buffers._Lease)
    assert owner(first.K) is lease and owner(first.V) is lease
    for name in ("Q", "K", "V"):
        block = getattr(first, name)
        if blas == "one thread":
            assert block.flags.c_contiguous, name
        else:  # a view of the product's columns: rows 3·d_k apart
            assert block.strides == (3 * 64 * 8, 8), name
    start, key = address(first.Q), lease._key
    np.testing.assert_allclose(first.K, X @ w.W_K, rtol=1e-13, atol=1e-15)  # own columns
    np.testing.assert_allclose(first.V, X @ w.W_V, rtol=1e-13, atol=1e-15)
    del first, lease, block
    gc.collect()
    # the buffer given back, and maybe another of its shape that an earlier test's
    # result let go meanwhile (the full suite's worker): the next forward takes one
    free = {address(b) for b in buffers._free[key][1]}
    assert start in free
    second = forward()
    assert address(second.Q) in free


def test_a_repeated_large_forward_allocates_little_besides_its_pooled_arrays():
    """Everything of a megabyte or more a forward needs comes from the pool once the
    result before is dropped: the weights side by side (1.2 MB at d_model = 768), the
    projections, the n × n results; besides them only the output (512 kB) and a block
    of scratch (``_WHOLE_BLOCK_BYTES`` with BLAS on several threads, else
    ``_BLOCK_BYTES``; one per row thread where the softmax runs on them). Before, the
    concatenated weights, the three projections and
    the finite check of X (a byte per cell) were made anew each time."""
    import sys
    import tracemalloc

    core = sys.modules["qkv_desktop.core.attention"]
    scratch = core._WHOLE_BLOCK_BYTES if blas_threads() > 1 else core._BLOCK_BYTES
    threads = 1
    if blas_threads() == 1 or core._softmax_in_threads(np.dtype(np.float64)):
        threads = core.for_row_chunks.__globals__["_cores"]()  # a block per row thread

    X = np.random.default_rng(6).standard_normal((1024, 768))
    w = init_weights(768, 64, seed=2, scale=0.1)
    attention(X, w)
    gc.collect()
    tracemalloc.start()
    try:
        result = attention(X, w)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the output, n × d_k, is its own; per thread its block and 128 kB for the rest
    # (row statistics, keepdims, the row dot products' buffers)
    assert peak - result.output.nbytes < threads * (scratch + (1 << 17)), peak
