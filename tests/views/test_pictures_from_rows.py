"""The panes' pictures start while the forward runs, and an edit of X re-reduces its rows.

At n = 2048 the forward's worker made the pictures after the forward: the scores, the
scaled scores and the weights were read from memory again, 15–20 ms of CPU, and the
X pane's picture read all of X again after an edit of one cell (issue 20). Now the
core hands each finished range of rows to the pictures (``on_rows``), which reduce it
in the row thread that computed it, and X's picture reduces only the block rows an
edit wrote. Every picture is the same bits as one made from the whole matrix.
Counted (threads, rows read), never timed.
"""

from __future__ import annotations

import threading

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qkv_desktop.core import attention, init_weights
from qkv_desktop.model import pane_images
from qkv_desktop.presentation import pane_image
from qkv_desktop.presentation.colormaps import levels_for, lut_for
from qkv_desktop.state import SessionState, edits
from qkv_desktop.state.compute import compute
from qkv_desktop.state.cow_matrix import share_for_edits
from qkv_desktop.state.session_state import Options

ROW_KEYS = ("scores", "scaled", "weights")


def _state(n: int, d_model: int = 16, seed: int = 5, **options) -> SessionState:
    rng = np.random.default_rng(seed)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)).round(3), d_k=8,
                                    options=Options(**options))


def _whole_picture(result, key: str, pixels) -> pane_image.PaneImage:
    """The picture made the old way: the whole matrix reduced after the forward."""
    data = pane_image.pane_matrix(result, key, 0)
    factors = pane_image.display_factors(data.shape, pixels)
    shown, top = pane_image.block_means_and_top(data, *factors,
                                                top=key not in ("weights",))
    return pane_image.prepare_image(data, lut_for(key), levels_for(key, data, top), factors,
                                    shown=shown)


def _same(a: pane_image.PaneImage, b: pane_image.PaneImage) -> None:
    assert a.factors == b.factors and a.levels == b.levels
    assert a.shown.dtype == b.shown.dtype and a.shown.tobytes() == b.shown.tobytes()
    assert a.pixels.tobytes() == b.pixels.tobytes()
    assert (a.mask is None) == (b.mask is None)
    if a.mask is not None:
        assert a.mask.tobytes() == b.mask.tobytes()


def test_the_core_tells_each_range_of_rows_once_final_in_the_row_threads():
    """``on_rows`` covers every row once, from the row threads, and a range's rows of
    the three n × m matrices are already what the result holds."""
    rng = np.random.default_rng(0)
    n = 1024
    X = rng.standard_normal((n, 32))
    told: list[tuple[int, int, str]] = []
    copies: dict[tuple[int, int], dict] = {}

    def on_rows(r0, r1, matrices):
        told.append((r0, r1, threading.current_thread().name))
        copies[r0, r1] = {k: m[r0:r1].copy() for k, m in matrices.items()}

    result = attention(X, init_weights(32, 8), causal=True, on_rows=on_rows)
    covered = np.zeros(n, int)
    for r0, r1, _thread in told:
        covered[r0:r1] += 1
    assert (covered == 1).all() and len(told) > 1
    assert {t for _r0, _r1, t in told} <= {threading.current_thread().name} | {
        t.name for t in threading.enumerate() if t.name.startswith("qkv-rows")}
    for (r0, r1), rows in copies.items():
        for key, values in rows.items():
            assert values.tobytes() == getattr(result, key)[r0:r1].tobytes()


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 90), m=st.integers(1, 40), fy=st.integers(1, 9), fx=st.integers(1, 9),
       cuts=st.lists(st.integers(1, 89), max_size=8), dtype=st.sampled_from(["f8", "f4"]),
       bad=st.lists(st.tuples(st.integers(0, 89), st.integers(0, 39),
                              st.sampled_from([np.inf, -np.inf, np.nan, 3e38])), max_size=4),
       top=st.booleans(), seed=st.integers(0, 2 ** 16))
def test_block_means_gathered_range_by_range_are_the_whole_matrixs(n, m, fy, fx, cuts, dtype,
                                                                    bad, top, seed):
    """Ranges of any lengths, handed over in any order: the block means and the largest
    |value| are ``block_means_and_top``'s of the whole matrix, bit for bit (non-finite,
    huge and float32 cells included); a range missing gives nothing."""
    rng = np.random.default_rng(seed)
    data = (rng.standard_normal((n, m)) * 10).astype(dtype)
    for r, c, v in bad:
        if r < n and c < m:
            data[r, c] = v
    bounds = sorted({0, n, *(c for c in cuts if c < n)})
    ranges = list(zip(bounds, bounds[1:], strict=False))
    rng.shuffle(ranges)
    reduced = pane_image.RowsReduced(data.shape, data.dtype, (fy, fx), top)
    for r0, r1 in ranges[1:]:
        reduced.add(data, r0, r1)
    assert reduced.finish(data) is None  # a range is missing
    reduced.add(data, *ranges[0])
    assert reduced._done.all()  # the straddling block rows too: finish reads no rows
    shown, largest = reduced.finish(data)
    whole, whole_top = pane_image.block_means_and_top(data, fy, fx, top=top)
    assert shown.dtype == whole.dtype and shown.tobytes() == whole.tobytes()
    assert largest == whole_top


def test_a_block_row_across_ranges_is_reduced_once_by_the_range_that_completes_it(
        monkeypatch):
    """Ranges added from several threads at once, in any order: each block row that
    straddles ranges is reduced exactly once, in an ``add`` (the second of its ranges to
    come), not after the forward in ``finish``; the picture is the whole matrix's."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    data = rng.standard_normal((1000, 300))
    fy, fx = 7, 3
    bounds = sorted({0, 1000, *rng.choice(np.arange(1, 1000), 60, replace=False).tolist()})
    ranges = list(zip(bounds, bounds[1:], strict=False))
    rng.shuffle(ranges)
    straddling = {b for r in bounds[1:-1] if r % fy for b in [r // fy]}
    rows_read: list[int] = []
    real = pane_image._block_row
    monkeypatch.setattr(pane_image, "_block_row",
                        lambda d, b, *f: rows_read.append(b) or real(d, b, *f))
    reduced = pane_image.RowsReduced(data.shape, data.dtype, (fy, fx), True)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda r: reduced.add(data, *r), ranges))
    assert sorted(rows_read) == sorted(straddling)
    rows_read.clear()
    shown, largest = reduced.finish(data)
    assert rows_read == []
    whole, top = pane_image.block_means_and_top(data, fy, fx)
    assert shown.tobytes() == whole.tobytes() and largest == top


def test_the_pictures_of_the_n_by_n_panes_are_reduced_in_the_row_threads(make_window,
                                                                         monkeypatch):
    """After an edit, the scores', scaled scores' and weights' block means are made
    from the rows the forward's row threads just finished, by those threads, before
    the forward ends: no thread reads one of those matrices whole after it (the old
    code did, on the forward's worker). The pictures are the whole matrix's."""
    window = make_window(_state(1024))  # 1M score cells: off the GUI thread, in row ranges
    model = window.model
    assert model.wait_until_idle()
    real = pane_image.block_means_and_top
    calls: list[tuple[tuple, str, bool]] = []  # shape read, thread, during the forward
    in_forward = threading.Event()

    def spy(data, fy, fx, top=True, **kw):
        calls.append((data.shape, threading.current_thread().name, in_forward.is_set()))
        return real(data, fy, fx, top, **kw)

    real_compute = pane_images.PicturePlan.on_rows

    def on_rows(self, *args):
        in_forward.set()
        return real_compute(self, *args)

    monkeypatch.setattr(pane_image, "block_means_and_top", spy)
    monkeypatch.setattr(pane_images.PicturePlan, "on_rows", on_rows)
    model.set_cell("X", 5, 2, 2.5)
    assert model.wait_until_idle()
    n = model.state.n
    on_screen = {key for key, _h, _p in model.images.on_screen.values()}
    assert set(ROW_KEYS) <= on_screen
    assert (n, n) not in {shape for shape, _t, _d in calls}  # no n × n matrix read whole
    ranged = [(shape, thread) for shape, thread, during in calls
              if during and shape[0] < n and shape[1] == n]
    assert len(ranged) >= 3 * (n // 128 - 1)
    assert {thread.split("_")[0] for _r, thread in ranged} <= {"qkv-compute", "qkv-rows"}
    for key in ROW_KEYS:
        pixels = model.images.on_screen[key][2]
        _same(pane_image.pane_image(model.result, key, 0, pixels),
              _whole_picture(compute(model.state), key, pixels))
        assert window.panes.panes[key].overlay.data is model.result.matrix(key)


def test_pictures_gathered_from_rows_of_a_masked_session_are_the_whole_matrixs():
    """Causal: the scaled scores' −inf cells and the weights' zeros, reduced range by
    range in the plan, give the pictures of the whole matrices."""
    state = _state(1100, causal=True)
    sizes = [(233, 171), (400, 300), (97, 1000)]
    plan = pane_images.PicturePlan([(k, None, px) for k in ROW_KEYS for px in sizes], 0)
    result = compute(state, on_rows=plan.on_rows)
    plan.keep(result)
    for key in ROW_KEYS:
        for px in sizes:
            _same(pane_image.pane_image(result, key, 0, px), _whole_picture(result, key, px))


def test_an_edit_of_x_reduces_only_the_block_rows_it_wrote(monkeypatch):
    """The X pane's picture of an edited X reduces the block rows holding the edited
    cells, not all of X; its levels follow the edit, also when the cell that held the
    largest |value| is edited away. Bit for bit the whole matrix's picture."""
    rng = np.random.default_rng(9)
    state = _state(1100, d_model=768)
    share_for_edits(state.X)
    pixels = (233, 171)
    pane_image.pane_image(compute(state), "X", 0, pixels)
    real = pane_image.block_means_and_top
    rows_read: list[int] = []

    def spy(data, fy, fx, top=True, **kw):
        rows_read.append(data.shape[0])
        return real(data, fy, fx, top, **kw)

    monkeypatch.setattr(pane_image, "block_means_and_top", spy)
    history = [state]  # as the undo history holds them
    for k in range(12):
        row, col = int(rng.integers(state.n)), int(rng.integers(768))
        if k % 4 == 0:  # the cell holding the largest |value|
            row, col = np.unravel_index(np.argmax(np.abs(state.X)), state.X.shape)
        value = float(rng.standard_normal()) * (40 if k == 5 else 1)
        state = edits.set_cells(state, "X", [row], [col], [value]).state
        history.append(state)
        rows_read.clear()
        result = compute(state)
        image = pane_image.pane_image(result, "X", 0, pixels)
        assert rows_read and max(rows_read) <= image.factors[0]  # one block row
        monkeypatch.setattr(pane_image, "block_means_and_top", real)
        _same(image, _whole_picture(result, "X", pixels))
        monkeypatch.setattr(pane_image, "block_means_and_top", spy)
