"""The panes' pictures of a large result (issue 20: n = 2048 edit → repaint ≤ 60 ms).

After the forward, its worker made the eight pictures one after the other, each
reading its n × n matrix from memory three times (block means, minimum, maximum):
as long again as the forward, on one core. Now the pictures of a result are made side
by side, the largest first, and each reads its matrix once, in cache-sized bands.
Counted (threads, calls, bytes), never timed.
"""

from __future__ import annotations

import threading
import tracemalloc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qkv_desktop.core import helper_pool
from qkv_desktop.core.helper_pool import HelperPool
from qkv_desktop.model import attention_model, pane_images, picture_threads
from qkv_desktop.presentation import colormaps, pane_image
from qkv_desktop.presentation.colormaps import levels_for, lut_for, max_abs_finite
from qkv_desktop.state import SessionState
from qkv_desktop.state.catalogue import matrix_shape
from qkv_desktop.state.cow_matrix import shares_pages


def _state(n: int, d_model: int = 6, seed: int = 7) -> SessionState:
    rng = np.random.default_rng(seed)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)), d_k=4)


def test_the_pictures_of_a_result_are_made_two_at_a_time_the_largest_first(make_window,
                                                                           monkeypatch):
    """The first two pictures of an edit's result are being made at the same moment, on
    two threads of the forward's side; they are of the two largest matrices, and every
    pane on screen gets its one picture. (One after the other, the first picture waited
    alone at the gate.)"""
    monkeypatch.setattr(picture_threads, "_cores", lambda: 2)
    monkeypatch.setattr(helper_pool, "cores", lambda: 2)
    monkeypatch.setattr(picture_threads, "_pool", HelperPool(picture_threads.HELPER_PREFIX))
    window = make_window(_state(640))  # 409,600 score cells: off the GUI thread
    model = window.model
    assert model.wait_until_idle()
    gate = threading.Barrier(2, timeout=10)
    made: list[tuple[str, str, bool]] = []  # (pane, thread, met the other at the gate)
    real = pane_images.pane_image

    def image(result, key, *args):
        together = True
        if len(made) < 2:
            try:
                gate.wait()
            except threading.BrokenBarrierError:
                together = False
        made.append((key, threading.current_thread().name, together))
        return real(result, key, *args)

    monkeypatch.setattr(pane_images, "pane_image", image)
    model.set_cell("X", 3, 1, 1.5)
    assert model.wait_until_idle()
    first = made[:2]
    assert [together for _k, _t, together in first] == [True, True]
    assert len({thread for _k, thread, _ in first}) == 2
    assert all(thread.startswith("qkv-compute") for _k, thread, _ in made)
    on_screen = model.images.on_screen
    assert sorted(key for key, _t, _ in made) == sorted(key for key, _h, _p in on_screen.values())
    sizes = sorted((np.prod(matrix_shape(model.state, key)) for key, _h, _p in on_screen.values()),
                   reverse=True)
    assert sorted(np.prod(matrix_shape(model.state, k)) for k, _t, _ in first) == sorted(sizes[:2])
    for key, _h, _p in on_screen.values():
        assert window.panes.panes[key].overlay.data is model.result.matrix(key)


def test_a_new_xs_base_for_edits_is_made_beside_the_pictures(make_window, monkeypatch):
    """The copy-on-write base of a new X (a session loaded, a paste: about 100 ms at
    8192 × 768) is made while the pictures are, on another thread, not after them; the
    next edit of X then shares its pages."""
    monkeypatch.setattr(picture_threads, "_cores", lambda: 2)
    monkeypatch.setattr(helper_pool, "cores", lambda: 2)
    monkeypatch.setattr(picture_threads, "_pool", HelperPool(picture_threads.HELPER_PREFIX))
    window = make_window(_state(640))
    model = window.model
    assert model.wait_until_idle()
    gate, claim = threading.Barrier(2, timeout=10), threading.Lock()
    met: dict[str, str | None] = {}

    def meet(what: str) -> None:
        with claim:
            if what in met:
                return
            met[what] = None
        try:
            gate.wait()
        except threading.BrokenBarrierError:
            return
        met[what] = threading.current_thread().name

    real_share, real_image = attention_model._share_for_edits, pane_images.pane_image
    monkeypatch.setattr(attention_model, "_share_for_edits",
                        lambda state: meet("base") or real_share(state))
    monkeypatch.setattr(pane_images, "pane_image",
                        lambda *args: meet("picture") or real_image(*args))
    model.load_state(_state(640, d_model=256, seed=8), "a new X")  # 1.3 MB: shareable
    assert model.wait_until_idle()
    assert met["base"] and met["picture"] and met["base"] != met["picture"]
    assert met["base"].startswith("qkv-compute") and met["picture"].startswith("qkv-compute")
    model.set_cell("X", 3, 1, 1.5)
    assert model.wait_until_idle()
    assert shares_pages(model.state.X)


def test_a_picture_reads_its_matrix_once_in_bands(monkeypatch):
    """The colour levels of a 2048 × 2048 picture come from the bands its block means
    are made of: no reduction of the whole matrix for them, and the reduction holds at
    most a band's sums (before: a min and a max of the whole matrix, and sums of an
    eighth of it)."""
    data = np.random.default_rng(2).standard_normal((2048, 2048))
    scanned = []
    for module in (colormaps, pane_image):
        real = module.max_abs_finite
        monkeypatch.setattr(module, "max_abs_finite",
                            lambda a, *hint, _real=real: scanned.append(a.size) or _real(a, *hint))
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        shown, top = pane_image.block_means_and_top(data, 8, 7)
        levels = levels_for("scores", data, top)
        image = pane_image.prepare_image(data, lut_for("scores"), levels, (8, 7), shown=shown)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert scanned and max(scanned) * data.itemsize <= pane_image._BAND_BYTES
    assert levels == (-max_abs_finite(data), max_abs_finite(data))
    assert peak < data.nbytes / 10  # the picture itself (shown, pixels) and one band
    np.testing.assert_array_equal(image.shown, _whole_block_mean(data, 8, 7))


def _whole_block_mean(data: np.ndarray, fy: int, fx: int) -> np.ndarray:
    """The block means as written before (the reference): ``fy`` whole-matrix additions
    of strided rows into the sums, then the same for the columns, each divided by its
    block's cell count."""
    def along(a, factor, axis):
        if factor == 1:
            return a
        n = a.shape[axis]
        view = (lambda k: a[k::factor]) if axis == 0 else (lambda k: a[:, k::factor])
        sums = view(0).copy()
        for k in range(1, factor):
            part = view(k)
            if axis == 0:
                sums[:part.shape[0]] += part
            else:
                sums[:, :part.shape[1]] += part
        counts = np.minimum(factor, n - np.arange(0, n, factor)).astype(a.dtype)
        sums /= counts[:, None] if axis == 0 else counts[None, :]
        return sums
    if fy == 1 and fx == 1:
        return data
    with np.errstate(invalid="ignore", over="ignore"):
        return along(np.ascontiguousarray(along(data, fy, 0)), fx, 1)


SPECIAL = st.sampled_from([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e308, -1.7e308, 1e-310])


@settings(max_examples=300, deadline=None)
@given(rows=st.integers(1, 90), cols=st.integers(1, 90), fy=st.integers(1, 12),
       fx=st.integers(1, 12), float32=st.booleans(), scale=st.integers(-6, 300),
       band=st.sampled_from([8, 200, 4096, 1 << 20]),
       special=st.lists(st.tuples(st.integers(0, 10 ** 6), SPECIAL), max_size=6),
       seed=st.integers(0, 2 ** 16))
def test_the_banded_block_means_and_levels_are_the_whole_matrixs_exactly(
        rows, cols, fy, fx, float32, scale, band, special, seed):
    """Bit for bit the block means of the whole-matrix form, and the largest finite
    |value| of the whole matrix, whatever the band, dtype and non-finite cells."""
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        data = (rng.standard_normal((rows, cols)) * 10.0 ** scale).astype(
            np.float32 if float32 else np.float64)
    for where, value in special:
        with np.errstate(over="ignore"):
            data.flat[where % data.size] = value
    saved, pane_image._BAND_BYTES = pane_image._BAND_BYTES, band
    try:
        shown, top = pane_image.block_means_and_top(data, fy, fx)
    finally:
        pane_image._BAND_BYTES = saved
    expected = _whole_block_mean(data, fy, fx)
    assert shown.dtype == data.dtype and shown.shape == expected.shape
    np.testing.assert_array_equal(shown, expected)
    assert top == max_abs_finite(data)
    np.testing.assert_array_equal(pane_image.block_mean(data, fy, fx), expected)


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(1, 60), cols=st.integers(1, 60), fy=st.integers(1, 9),
       fx=st.integers(1, 9), float32=st.booleans(), step=st.integers(2, 3),
       special=st.lists(st.tuples(st.integers(0, 10 ** 6), SPECIAL), max_size=4),
       seed=st.integers(0, 2 ** 16))
def test_block_means_of_a_view_of_columns_are_the_whole_matrixs_exactly(
        rows, cols, fy, fx, float32, step, special, seed):
    """A matrix that is not C-contiguous (every ``step``-th column of one, or a
    transposed one) takes the strided path: the same bits as the reference."""
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((rows, cols * step)).astype(np.float32 if float32 else np.float64)
    for where, value in special:
        with np.errstate(over="ignore"):
            data.flat[where % data.size] = value
    for view in (data[:, ::step], data.T):
        shown, top = pane_image.block_means_and_top(view, fy, fx)
        np.testing.assert_array_equal(shown, _whole_block_mean(view, fy, fx))
        assert shown.dtype == view.dtype and top == max_abs_finite(view)


def _largest_finite(data: np.ndarray) -> float:
    """The largest |value| of the finite cells as written before (the reference): a
    copy of the finite cells and their largest |value|."""
    finite = data[np.isfinite(data)]
    return float(np.max(np.abs(finite))) if finite.size else 0.0


@settings(max_examples=300, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), float32=st.booleans(),
       scale=st.integers(-310, 300),
       special=st.lists(st.tuples(st.integers(0, 10 ** 6), SPECIAL), max_size=8),
       seed=st.integers(0, 2 ** 16))
def test_the_largest_finite_value_is_the_references_told_or_not(rows, cols, float32, scale,
                                                                special, seed):
    """``max_abs_finite`` with or without the caller's word on whether every cell is
    finite (``finite``: a picture knows it from its block means) is the reference's
    value: with non-finite cells one masked maximum instead of a copy of the finite
    cells, and ``finite=False`` of finite cells is the same number too."""
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore", under="ignore"):
        data = (rng.standard_normal((rows, cols)) * 10.0 ** scale).astype(
            np.float32 if float32 else np.float64)
    for where, value in special:
        with np.errstate(over="ignore"):
            data.flat[where % data.size] = value
    expected = _largest_finite(data)
    all_finite = bool(np.isfinite(data).all())
    assert max_abs_finite(data) == expected
    assert max_abs_finite(data, all_finite) == expected
    assert max_abs_finite(data, False) == expected
    assert max_abs_finite(data[:0]) == 0.0


def _nonfinite_rgba(shown: np.ndarray) -> np.ndarray | None:
    """The layer of non-finite cells as written before (the reference)."""
    bad = ~np.isfinite(shown)
    if not bad.any():
        return None
    rgba = np.zeros(shown.shape + (4,), np.uint8)
    masked = np.isneginf(shown)
    rgba[masked] = colormaps.MASKED_RGBA
    rgba[bad & ~masked] = colormaps.OVERFLOW_RGBA
    return rgba


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(0, 30), cols=st.integers(0, 30), float32=st.booleans(),
       special=st.lists(st.tuples(st.integers(0, 10 ** 6), SPECIAL), max_size=40),
       seed=st.integers(0, 2 ** 16))
def test_the_layer_of_non_finite_cells_is_the_references(rows, cols, float32, special, seed):
    """Grey for −inf, magenta for +inf and NaN, nothing elsewhere, byte for byte (one
    word per cell now, not four bytes through a boolean index); None when all finite."""
    data = np.random.default_rng(seed).standard_normal((rows, cols)).astype(
        np.float32 if float32 else np.float64)
    for where, value in special:
        if data.size:
            with np.errstate(over="ignore"):
                data.flat[where % data.size] = value
    layer, expected = pane_image.nonfinite_rgba(data), _nonfinite_rgba(data)
    assert (layer is None) == (expected is None)
    if expected is not None:
        assert layer.dtype == np.uint8 and layer.shape == expected.shape
        assert layer.flags.c_contiguous and layer.tobytes() == expected.tobytes()


def _map_to_rgb32(data: np.ndarray, lut: np.ndarray, levels) -> np.ndarray:
    """``map_to_rgb32`` as written before (the reference): ``np.take`` in its checking
    mode and the non-finite cells painted through boolean indices."""
    index, finite = colormaps._colour_indices(data, len(lut), levels)
    pixels = np.take(colormaps._rgb32_lut(np.asarray(lut, np.uint8)), index)
    if not finite:
        pixels[np.isneginf(data)] = colormaps._rgb32(colormaps.MASKED_RGBA)
        pixels[np.isnan(data) | np.isposinf(data)] = colormaps._rgb32(colormaps.OVERFLOW_RGBA)
    return pixels


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(0, 30), cols=st.integers(0, 30), float32=st.booleans(),
       levels=st.sampled_from([(-1.0, 1.0), (0.0, 1.0), colormaps.symmetric_levels(1e308), (2.0, 2.0)]),
       key=st.sampled_from(["scores", "weights", "mask"]),
       special=st.lists(st.tuples(st.integers(0, 10 ** 6), SPECIAL), max_size=20),
       seed=st.integers(0, 2 ** 16))
def test_the_colours_of_every_cell_are_the_references(rows, cols, float32, levels, key, special,
                                                      seed):
    """``map_to_rgb32`` and ``map_to_rgba`` (a lookup without the bounds check, the
    non-finite cells painted word by word) give the reference's bytes, non-finite and
    out-of-level cells included."""
    data = (np.random.default_rng(seed).standard_normal((rows, cols)) * 2).astype(
        np.float32 if float32 else np.float64)
    for where, value in special:
        if data.size:
            with np.errstate(over="ignore"):
                data.flat[where % data.size] = value
    lut = lut_for(key)
    expected = _map_to_rgb32(data, lut, levels)
    assert colormaps.map_to_rgb32(data, lut, levels).tobytes() == expected.tobytes()
    rgba = colormaps.map_to_rgba(data, lut, levels)
    assert rgba.shape == (rows, cols, 4)
    assert rgba[..., colormaps.RGB32_ORDER].tobytes() == expected.view(np.uint8).tobytes()


def test_a_masked_cells_own_colour_is_the_masks_grey_under_the_mask_layer():
    """A NaN took the overflow magenta in the picture under the mask layer; where the
    layers' edges fell a pixel apart, a 1-px magenta line showed beside a masked cell
    of the causal scaled scores (a first-time user's zoomed screenshot)."""
    from qkv_desktop.presentation.colormaps import (
        DIVERGING,
        MASKED_RGBA,
        OVERFLOW_RGBA,
        RGB32_ORDER,
    )
    from qkv_desktop.presentation.pane_image import prepare_image
    data = np.array([[0.5, -np.inf, np.nan], [0.1, 0.2, np.inf]])
    image = prepare_image(data, DIVERGING, (-1.0, 1.0), (1, 1))
    order = list(RGB32_ORDER)
    assert image.pixels[0, 1].tolist() == np.asarray(MASKED_RGBA, np.uint8)[order].tolist()
    for cell in ((0, 2), (1, 2)):  # overflow and NaN stay magenta, as on the mask layer
        assert image.pixels[cell].tolist() == np.asarray(OVERFLOW_RGBA, np.uint8)[order].tolist()
    assert image.mask[0, 1].tolist() == list(MASKED_RGBA)
