"""Long sequences (issue 20): a session of n = 8192 tokens in float32, the length real
decoder models read, opens, edits and hovers without the GUI thread making any of its
n × n pictures.

Slow (≈10–20 s and ≈1.6 GB while an old and a new result coexist): the one test here
runs the real forward of 67 million score cells twice. Marked ``slow``; it runs in the
full suite like every other test.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from qkv_desktop.presentation import pane_image
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.session_state import MAX_TOKENS_FLOAT32, Options
from tests.views.helpers import cell_scene_pos

pytestmark = pytest.mark.slow

N = 8192


def test_an_8192_token_float32_session_opens_edits_and_hovers(make_window, monkeypatch):
    assert N <= MAX_TOKENS_FLOAT32
    rng = np.random.default_rng(11)
    state = SessionState.initialised([f"t{i}" for i in range(N)],
                                     rng.standard_normal((N, 8)).round(3), d_k=4,
                                     options=Options(dtype="float32"))
    reduced: list[str] = []  # the threads that reduced an n × n matrix

    def spied(real_function):
        def spy(data, fy, fx, **kw):
            if data.size >= N * N:
                reduced.append(threading.current_thread().name)
            return real_function(data, fy, fx, **kw)
        return spy
    real_banded = pane_image.block_means_and_top  # (a pane's picture: block means and levels)

    def real(data, fy, fx):  # the reference, not spied
        return real_banded(data, fy, fx, top=False)[0]
    for name in ("block_mean", "block_means_and_top"):
        monkeypatch.setattr(pane_image, name, spied(getattr(pane_image, name)))
    window = make_window(state, size=(1400, 900))
    model = window.model
    assert model.wait_until_idle(120_000)
    pane = window.panes.panes["weights"]
    assert pane.overlay.data is model.result.head().weights  # the opened session, drawn
    model.set_cell("X", 4000, 3, 2.5)  # an edit recomputes all 67 million weights
    assert model.wait_until_idle(120_000)
    result = model.result
    assert result.state.X[4000, 3] == 2.5 and result.head().weights.dtype == np.float32
    for key in ("scores", "weights"):
        pane = window.panes.panes[key]
        exact = getattr(result.head(), key)
        assert pane.overlay.data is exact
        fy, fx = pane.plot._factors
        assert pane.image.image.shape == (-(-N // fy), -(-N // fx))
        np.testing.assert_array_equal(pane.image.image, real(exact, fy, fx))
    assert reduced and "MainThread" not in reduced
    pane = window.panes.panes["scores"]  # hover: the exact value, not a block mean
    pane._on_mouse_moved(cell_scene_pos(pane, 8000, 4001))
    assert model.hover == CellRef("scores", 8000, 4001)
    exact = result.head().scores[8000, 4001]
    assert f"= {format_value(exact)}" in window.hover_label.text()
    assert format_value(pane.image.image[8000 // fy, 4001 // fx]) != format_value(exact)
