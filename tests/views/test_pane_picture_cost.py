"""The panes' pictures of a middle-size result (issue 20: an edit at n = 256 no slower than
at n = 64): the colours of a cell, and what colouring a matrix allocates.

At n = 256 the eight pictures of an edit are made on the GUI thread. Colouring a
256 × 256 matrix made a dozen full-size temporaries (clip, ``nan_to_num``, clip,
round, an ``intp`` index, four bytes per cell, a reordering copy): ≈ 1.8 ms a pane,
most of what an edit cost beyond n = 64. The colours must stay exactly those of the
one rule the figures and the value labels use; the cost is pinned by the bytes
allocated (deterministic), never by a timing.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qkv_desktop.presentation.colormaps import (
    DIVERGING,
    MASKED_RGBA,
    OVERFLOW_RGBA,
    RGB32_ORDER,
    SEQUENTIAL,
    levels_for,
    lut_for,
    map_to_rgb32,
    map_to_rgba,
)
from qkv_desktop.presentation.pane_image import prepare_image


def rule(data, lut, levels) -> np.ndarray:
    """The colour rule as it was written before (the reference): every step a new array."""
    data = np.asarray(data, dtype=np.float64)
    lo, hi = levels
    with np.errstate(invalid="ignore", over="ignore"):
        t = (np.clip(data, lo, hi) - lo) / (hi - lo) if hi > lo else np.zeros_like(data)
    idx = np.clip(np.nan_to_num(t, nan=0.5, posinf=1.0, neginf=0.0) * (len(lut) - 1),
                  0, len(lut) - 1)
    rgba = lut[np.round(idx).astype(np.intp)]
    rgba[np.isneginf(data)] = MASKED_RGBA
    rgba[np.isnan(data) | np.isposinf(data)] = OVERFLOW_RGBA
    return rgba


CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-10, 10),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e308, -1.7e308, np.inf, -np.inf, np.nan]))


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(CELLS, min_size=1, max_size=40),
       levels=st.one_of(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)),
                        st.sampled_from([(0.0, 1.0), (-8.98e307, 8.98e307), (1.0, 1.0),
                                         (2.0, -2.0)])),
       float32=st.booleans(), sequential=st.booleans())
def test_the_colours_are_the_rule_exactly(cells, levels, float32, sequential):
    with np.errstate(over="ignore"):  # a float beyond float32: inf, as a session would hold
        data = np.array(cells, np.float32 if float32 else np.float64).reshape(1, -1)
    lut = SEQUENTIAL if sequential else DIVERGING
    want = rule(data, lut, levels)
    np.testing.assert_array_equal(map_to_rgba(data, lut, levels), want)
    pixels = map_to_rgb32(data, lut, levels).view(np.uint8).reshape(*data.shape, 4)
    np.testing.assert_array_equal(pixels, want[..., RGB32_ORDER])


def test_cells_on_a_rounding_edge_keep_their_colour():
    """Values whose scaled index is a half (x.5): scaling first and clipping after
    must round them as the rule does (to even)."""
    lo, hi = -1.0, 1.0
    halves = lo + (np.arange(0, 511) / 2 / 255) * (hi - lo)
    data = np.concatenate([halves, np.nextafter(halves, 2), np.nextafter(halves, -2)])
    data = data.reshape(3, -1)
    np.testing.assert_array_equal(map_to_rgba(data, DIVERGING, (lo, hi)),
                                  rule(data, DIVERGING, (lo, hi)))


def _peak_bytes(fn) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_a_256_by_256_picture_allocates_little_more_than_its_pixels():
    """One float64 pass, the uint8 index and the uint32 pixels: under 1.8 × the matrix's
    bytes at the peak. The old colouring peaked at 4.0 × (its temporaries)."""
    rng = np.random.default_rng(0)
    data = rng.standard_normal((256, 256))
    levels = levels_for("scores", data)
    image = prepare_image(data, lut_for("scores"), levels, (1, 1))  # warm the tables
    peak = _peak_bytes(lambda: prepare_image(data, lut_for("scores"), levels, (1, 1)))
    assert peak < 1.8 * data.nbytes, peak / data.nbytes
    want = rule(data, lut_for("scores"), levels)[..., RGB32_ORDER]
    np.testing.assert_array_equal(image.pixels, want)
    assert image.pixels.flags.c_contiguous and image.pixels.shape == (256, 256, 4)


def test_non_finite_cells_take_their_own_colours_in_the_picture():
    data = np.array([[0.5, -np.inf], [np.nan, np.inf]])
    image = prepare_image(data, lut_for("scores"), (-1.0, 1.0), (1, 1))
    assert image.mask is not None
    # −inf keeps the mask's grey under the mask layer too; +inf and NaN the magenta
    np.testing.assert_array_equal(
        image.pixels, rule(np.where(np.isinf(data) & (data > 0), np.nan, data),
                           lut_for("scores"), (-1.0, 1.0))[..., RGB32_ORDER])


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(CELLS, min_size=6, max_size=6),
       levels=st.sampled_from([(-1.0, 1.0), (0.0, 1.0), (-10.0, 10.0), (-1e308 / 2, 1e308 / 2)]),
       float32=st.booleans())
def test_a_pictures_pixels_are_the_rule_whatever_its_cells(cells, levels, float32):
    """Within the levels and finite (no clip, no mask), or not: the same colours."""
    with np.errstate(over="ignore"):
        data = np.array(cells, np.float32 if float32 else np.float64).reshape(2, 3)
    if float32 and levels[1] > 1e38:
        levels = (-3e38, 3e38)  # a float32 matrix's levels come from its own cells
    image = prepare_image(data, DIVERGING, levels, (1, 1))
    shown = np.where(np.isinf(data) & (data > 0), np.nan, data)  # −inf: the mask's grey
    np.testing.assert_array_equal(image.pixels, rule(shown, DIVERGING, levels)[..., RGB32_ORDER])
    assert (image.mask is None) == bool(np.isfinite(data).all())
