"""What a large session leaves to the GUI thread (issue 20: it is never blocked by work
that grows with n²). Counted and recorded by thread, never timed."""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtWidgets import QApplication

from qkv_desktop.presentation import pane_image
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.presentation.pane_info import pane_matrix
from qkv_desktop.state import CellRef, SessionState, edits
from qkv_desktop.state.compute import ModelResult
from tests.views.helpers import cell_scene_pos

N_LONG = 2048
"""Score matrices of 4 million cells: what froze the GUI thread for its block means."""


def _state(n: int, d_model: int = 8, d_k: int = 4, heads: int = 1, **options) -> SessionState:
    rng = np.random.default_rng(3)
    from qkv_desktop.state.session_state import Options
    state = SessionState.initialised([f"t{i}" for i in range(n)],
                                     rng.standard_normal((n, d_model)), d_k=d_k,
                                     options=Options(**options))
    return state if heads == 1 else edits.set_heads(state, heads).state


def test_a_hidden_panes_title_does_not_make_its_matrix(make_window, monkeypatch):
    """The View menu names every pane after each edit; the hidden S − max(S) pane's name
    comes from the catalogue's shape, not from a new n × m matrix (and the pane, hidden
    by default, starts hidden instead of drawing its matrix while the window is built)."""
    made = []
    real = ModelResult.shifted
    monkeypatch.setattr(ModelResult, "shifted", lambda self, h=0: made.append(
        threading.current_thread().name) or real(self, h))
    window = make_window(_state(64))
    assert "S_shift" not in window.panes.shown()
    window.model.set_cell("X", 1, 2, 0.5)
    assert window.model.wait_until_idle()
    assert "(64×64)" in window.pane_actions["S_shift"].text()
    assert made == []


def test_the_x_table_reduces_its_matrix_once_per_edit(make_window, monkeypatch):
    """The column width (widest value) and the tints' levels both come from X's largest
    |value|, taken once per new X, by two reductions (no copy of |X|)."""
    from qkv_desktop.views.editors import matrix_table
    window = make_window(_state(64))
    window.editor.table.data(window.editor.table.value_index(0, 0),
                             matrix_table._BACKGROUND)  # tints in use: their levels count
    reduced = []
    real = matrix_table.max_abs_finite
    monkeypatch.setattr(matrix_table, "max_abs_finite",
                        lambda M: reduced.append(M.shape) or real(M))
    for k in range(3):
        window.model.set_cell("X", k, 1, 2.0 + k)
        assert window.model.wait_until_idle()
        window.editor.viewport().repaint()
    assert reduced == [(64, 8)] * 3


def _record_threads(monkeypatch, n_cells: int) -> list[tuple[str, str]]:
    """(function, thread) of every block mean and every colour-level scan of a matrix of
    ``n_cells`` cells or more, wherever a pane's picture is made (a pane's picture takes
    both in one pass, ``block_means_and_top``)."""
    from qkv_desktop.presentation import colormaps
    from qkv_desktop.views.panes import heads_overview, heatmap_pane, heatmap_plot
    calls: list[tuple[str, str]] = []
    for name, real in (("block_mean", pane_image.block_mean),
                       ("block_means_and_top", pane_image.block_means_and_top),
                       ("levels_for", colormaps.levels_for)):
        def spy(*args, _real=real, _name=name, **kwargs):
            data = next(a for a in args if isinstance(a, np.ndarray))
            if data.size >= n_cells:
                calls.append((_name, threading.current_thread().name))
            return _real(*args, **kwargs)
        for module in (pane_image, heatmap_plot, heatmap_pane, heads_overview):
            if hasattr(module, name):  # wherever a pane's picture is made
                monkeypatch.setattr(module, name, spy)
    return calls


def _settle(window, rounds: int = 5) -> None:
    for _ in range(rounds):
        assert window.model.wait_until_idle()
        QApplication.processEvents()


def test_at_n_2048_the_gui_thread_never_reduces_a_score_matrix(make_window, monkeypatch):
    """Edits, a resize, another head and a pane shown from the View menu: every n × n
    matrix (the panes', the heads' thumbnails) is reduced to block means and scanned
    for its colour levels on a worker, and the plots show exactly those block means."""
    window = make_window(_state(N_LONG, heads=2), size=(1400, 900))
    _settle(window)
    model = window.model
    calls = _record_threads(monkeypatch, N_LONG * N_LONG)
    model.set_cell("X", 5, 3, 2.5)
    _settle(window)
    window.resize(1100, 800)  # other pane sizes: other reductions
    _settle(window)
    model.set_current_head(1)
    _settle(window)
    window.pane_actions["S_shift"].trigger()  # a pane shown: its picture made on a worker
    _settle(window)
    model.set_cell("X", 9, 1, -1.0)
    _settle(window)
    made = {name for name, _thread in calls}
    assert made == {"block_means_and_top", "levels_for"}
    assert {thread for _name, thread in calls if thread == "MainThread"} == set()
    result = model.result
    for key in ("scores", "weights", "S_shift"):
        pane = window.panes.panes[key]
        exact = pane_matrix(result, key, 1)
        fy, fx = pane.plot._factors
        assert fy > 1 and fx > 1, key
        assert pane.overlay.data is exact, key
        np.testing.assert_array_equal(pane.image.image, pane_image.block_mean(exact, fy, fx))
    for h, thumb in enumerate(window.panes.heads_view.thumbs):
        exact = result.heads[h].weights
        assert thumb.data is exact
        np.testing.assert_array_equal(thumb.plot.image.image,
                                      pane_image.block_mean(exact, *thumb.plot._factors))
    pane = window.panes.panes["scores"]  # and the hover reads the exact value
    pane._on_mouse_moved(cell_scene_pos(pane, 1234, 567))
    assert model.hover == CellRef("scores", 1234, 567, 1)
    exact = result.heads[1].scores[1234, 567]
    assert f"= {format_value(exact)}" in window.hover_label.text()



def test_the_forwards_worker_makes_the_pictures_of_the_panes_on_screen(make_window,
                                                                        monkeypatch):
    """The panes on screen (again after the window was hidden, e.g. minimised) have their
    pictures made by the forward's own worker before the result is handed over; a pane
    the View menu hides has none made."""
    window = make_window(_state(640), size=(1400, 900))  # 409,600 score cells
    _settle(window)
    model = window.model
    window.hide()
    assert model.images.on_screen == {}
    window.show()
    _settle(window)
    window.panes.set_visible("scaled", False)
    made: list[tuple[str, str]] = []
    real = pane_image.prepare_image
    monkeypatch.setattr(pane_image, "prepare_image", lambda data, *a, **kw: made.append(
        (data.shape, threading.current_thread().name)) or real(data, *a, **kw))
    model.set_cell("X", 3, 3, 1.5)
    _settle(window)
    threads = {thread for _shape, thread in made}
    assert threads and all(t.startswith("qkv-compute") for t in threads)
    assert "scaled" not in model.images.on_screen and "scores" in model.images.on_screen
    assert len(made) == len(model.images.on_screen)  # one picture per pane on screen


def test_a_pane_resized_while_its_picture_is_made_reduces_nothing_here(make_window,
                                                                       monkeypatch):
    """A pane built, hidden and shown again after an edit waits for the new picture; a
    resize in that moment made the picture of the older matrix on the GUI thread (found
    by review): it asks for the newest picture at the new size instead."""
    window = make_window(_state(N_LONG), size=(1400, 900))
    _settle(window)
    model = window.model
    window.pane_actions["S_shift"].trigger()  # built and drawn once
    _settle(window)
    window.pane_actions["S_shift"].trigger()  # hidden
    _settle(window)
    calls = _record_threads(monkeypatch, N_LONG * N_LONG)
    model.set_cell("X", 5, 3, 2.5)
    _settle(window)
    pane = window.panes.panes["S_shift"]
    window.pane_actions["S_shift"].trigger()  # shown: its picture is wanted…
    assert pane._shown is None  # …and not made yet
    pane._on_image_wanted()  # what a resize does in that moment
    _settle(window)
    assert [c for c in calls if c[1] == "MainThread"] == []
    assert pane.overlay.data is pane_matrix(model.result, "S_shift", 0)


def test_a_thumbnail_resized_while_its_picture_is_made_asks_for_the_newest(make_window,
                                                                          monkeypatch):
    """The heads overview hidden during an edit and shown again waits for the new
    result's pictures; a resize in that moment asked again for the older result's,
    which replaced the request for the newer one, and the thumbnail kept the older
    weights (found by review)."""
    from qkv_desktop.views.panes.pane_grid import HEADS_KEY
    window = make_window(_state(N_LONG, heads=2), size=(1400, 900))
    _settle(window)
    model, action = window.model, window.pane_actions[HEADS_KEY]
    action.trigger()  # hidden
    _settle(window)
    model.set_cell("X", 5, 3, 2.5)
    _settle(window)
    asked = []
    real = model.images.want
    monkeypatch.setattr(model.images, "want",
                        lambda slot, result, *a: asked.append(result) or real(slot, result, *a))
    action.trigger()  # shown: the thumbnails want the new result's pictures
    thumb = window.panes.heads_view.thumbs[0]
    assert thumb._pending is not None and thumb._pending[4] is model.result
    asked.clear()
    thumb._on_image_wanted()  # what a resize does in that moment
    assert asked and all(r is model.result for r in asked)
    _settle(window)
    np.testing.assert_array_equal(
        thumb.plot.image.image,
        pane_image.block_mean(model.result.heads[0].weights, *thumb.plot._factors))


def test_a_picture_that_fails_is_reported_once_and_not_asked_again(make_window, monkeypatch):
    """A picture whose making fails (out of memory at 8192 tokens) was asked for again
    at each repaint of its waiting pane, failing and reporting every time (found by
    review); it is reported once, and the other panes' pictures are still made."""
    import sys

    from qkv_desktop.model import pane_images
    window = make_window(_state(N_LONG), size=(1400, 900))
    _settle(window)
    model = window.model
    reports = []
    monkeypatch.setattr(sys, "excepthook", lambda *exc: reports.append(exc[:2]))
    real = pane_images.pane_image

    def fail_for_s_shift(result, key, *args):
        if key == "S_shift":
            raise MemoryError("no room for this picture")
        return real(result, key, *args)

    monkeypatch.setattr(pane_images, "pane_image", fail_for_s_shift)
    window.pane_actions["S_shift"].trigger()  # shown: its picture is wanted, and fails
    _settle(window)
    pane = window.panes.panes["S_shift"]
    for _ in range(5):  # the waiting pane repaints (a dialog over it, a hover)
        pane.repaint()
        _settle(window)
    ours = [value for kind, value in reports if kind is MemoryError
            and getattr(value, "qkv_request", (None, None))[1] == "S_shift"]
    assert len(ours) == 1, reports  # (a late report of an earlier test's is not ours)
    model.set_cell("X", 5, 3, 2.5)  # the other panes go on
    _settle(window)
    scores = window.panes.panes["scores"]
    assert scores.overlay.data is pane_matrix(model.result, "scores", 0)
