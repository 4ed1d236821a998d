"""An edit of one cell of a large X multiplies one row range of the projections again,
and the numbers are always those of a forward from scratch (``core.projection_memo``).

The memo serves the row ranges, which run with BLAS on one thread, the app's setting;
with BLAS on several (a notebook) the projections are one whole product on them."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from qkv_desktop.core import attention, init_weights, projection_memo
from qkv_desktop.core import rows as row_module

FIELDS = ("Q", "K", "V", "scores", "scaled", "weights", "output", "entropy", "max_weight",
          "mean_gradient")


@pytest.fixture(autouse=True)
def empty_memo():
    from threadpoolctl import threadpool_limits

    projection_memo.clear()
    with threadpool_limits(limits=1, user_api="blas"):  # as in the app
        yield
    projection_memo.clear()


def fresh(X, w, **options):
    """The forward without the memo (which is left as it was)."""
    saved = projection_memo.MIN_ROWS
    projection_memo.MIN_ROWS = 1 << 62
    try:
        return attention(X, w, **options)
    finally:
        projection_memo.MIN_ROWS = saved


def assert_same_bits(a, b) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
        x, y = getattr(a, name), getattr(b, name)
        assert x.tobytes() == y.tobytes(), name  # the sign of a zero too


def count_projection_rows(monkeypatch, d_model: int, columns: int) -> list[int]:
    """Rows of X multiplied by the side-by-side W of the projections, call by call."""
    calls: list[int] = []
    real = np.matmul

    def counting(a, b, *args, **kwargs):
        if getattr(b, "shape", None) == (d_model, columns):
            calls.append(a.shape[0])
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(np, "matmul", counting)
    return calls


def test_an_edit_of_one_cell_multiplies_only_its_range_of_rows(monkeypatch):
    """n = 1024: a forward multiplies 8 ranges of 128 rows; after an edit of X[300, 5]
    (a new array, as the app's edits make), only rows 256–383 are multiplied again, and
    every number is the fresh forward's."""
    rng = np.random.default_rng(2)
    X = rng.standard_normal((1024, 16))
    w = init_weights(16, 4, seed=9, scale=0.5)
    assert 1024 * 1024 >= row_module.MIN_PARALLEL_CELLS
    calls = count_projection_rows(monkeypatch, 16, 12)
    attention(X, w)
    assert sorted(calls) == [128] * 8
    calls.clear()
    edited = X.copy()
    edited[300, 5] += 0.25
    got = attention(edited, w)
    assert calls == [128]
    monkeypatch.undo()
    assert_same_bits(got, fresh(edited, w))


def test_a_caller_writing_into_its_x_gets_the_new_rows_multiplied():
    """The same array, written in place between forwards (a notebook), including a
    zero's sign (compared as bits) and a change of one ulp: each result equals a fresh
    forward's bits."""
    rng = np.random.default_rng(4)
    X = rng.standard_normal((800, 12))
    w = init_weights(12, 6, seed=5, scale=0.8)
    X[700] = 0.0
    for step in range(6):
        got = attention(X, w)
        assert_same_bits(got, fresh(X, w))
        attention(X, w)  # remembered again for the next edit
        if step == 0:
            X[700] = -0.0
        elif step in (1, 2):
            X[10, 3] = np.nextafter(X[10, 3], np.inf)
        else:
            X[rng.integers(800), rng.integers(12)] = rng.standard_normal()


def test_other_weights_or_shapes_never_use_anothers_product():
    """Heads with other weights, a float32 copy and another length each get their own
    numbers, and at most MAX_ENTRIES inputs are kept."""
    rng = np.random.default_rng(6)
    X = rng.standard_normal((900, 10))
    heads = [init_weights(10, 5, seed=s, scale=0.7) for s in range(6)]
    for w in heads:
        attention(X, w)
    for w in heads:
        assert_same_bits(attention(X, w), fresh(X, w))
        attention(X, w)
    X32 = X.astype(np.float32)
    assert_same_bits(attention(X32, heads[0]), fresh(X32, heads[0]))
    assert_same_bits(attention(X[:850], heads[0]), fresh(X[:850], heads[0]))
    assert len(projection_memo._entries) <= projection_memo.MAX_ENTRIES


def test_forwards_on_two_threads_at_once_each_get_their_numbers():
    """Two threads alternate two inputs of one shape with the same weights: whichever
    finds the shared entry in use multiplies on its own, and every result is right."""
    rng = np.random.default_rng(8)
    inputs = [rng.standard_normal((800, 12)) for _ in range(2)]
    w = init_weights(12, 6, seed=5, scale=0.8)
    expected = [fresh(X, w) for X in inputs]
    projection_memo.clear()
    errors: list[BaseException] = []

    def work(first: int) -> None:
        try:
            for k in range(8):
                which = (first + k) % 2
                assert_same_bits(attention(inputs[which], w), expected[which])
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_a_scrub_of_the_weights_reuses_the_memory_and_gives_fresh_numbers(monkeypatch):
    """Every forward of a W scrub has other weights: after MAX_ENTRIES entries the
    least recently used one takes them (no new copy of X), and the numbers are a
    fresh forward's."""
    from dataclasses import replace

    rng = np.random.default_rng(10)
    X = rng.standard_normal((800, 12))
    w = init_weights(12, 6, seed=5, scale=0.8)
    made = []
    real_init = projection_memo.MemoEntry.__init__

    def counting_init(self, *args):
        made.append(1)
        real_init(self, *args)

    monkeypatch.setattr(projection_memo.MemoEntry, "__init__", counting_init)
    for step in range(12):
        W_Q = w.W_Q.copy()
        W_Q[step % 12, step % 6] += 0.01 * (step + 1)
        w = replace(w, W_Q=W_Q)
        assert_same_bits(attention(X, w), fresh(X, w))
    assert len(made) == projection_memo.MAX_ENTRIES
    assert len(projection_memo._entries) == projection_memo.MAX_ENTRIES
