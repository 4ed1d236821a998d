"""An edit that keeps a pane's colour levels repaints only the cells whose value changed
(issue 20: edit → repaint at n = 4), and the window then looks exactly as when every
pane is painted afresh. Pinned by the area Qt repainted and the labels drawn, never by
a time."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from qkv_desktop.presentation import pane_image
from qkv_desktop.presentation.colormaps import lut_for, symmetric_levels
from qkv_desktop.presentation.pane_image import prepare_image, recolour_cells
from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.cell_updates import changed_cells


class _Regions(QObject):
    """The region of each paint of the watched viewports."""

    def __init__(self, viewports):
        super().__init__()
        self.painted: dict = {v: [] for v in viewports}
        for v in viewports:
            v.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and obj in self.painted:
            self.painted[obj].append(event.region())
        return False


def _area(region) -> int:
    return sum(r.width() * r.height() for r in region)


def _on_screen(window):
    """The backing store's pixels (what partial repaints left), not a fresh rendering."""
    return window.screen().grabWindow(window.winId()).toImage()


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_an_edit_that_keeps_the_levels_repaints_its_cell_alone(main_window):
    model = main_window.model
    pane = main_window.panes.panes["X"]
    main_window.repaint()
    X = model.state.X
    top = float(np.abs(X).max())
    i, j = np.unravel_index(np.argmin(np.abs(X)), X.shape)  # not the largest: levels stay
    levels = pane.colorbar.levels
    viewport = pane.plot.viewport()
    regions = _Regions([viewport])
    model.set_cell("X", int(i), int(j), float(X[i, j]) + top / 4)
    assert model.wait_until_idle()
    _settle()
    assert pane.colorbar.levels == levels
    painted = regions.painted[viewport]
    assert painted  # the new value was painted…
    whole = viewport.width() * viewport.height()
    cells = X.size
    # …in about one cell's pixels (with Qt's margin of a few pixels), not the pane's
    assert max(_area(r) for r in painted) < 2.5 * whole / cells
    # its label, and its neighbours' that Qt's margin touches (a pixel of each)
    assert 1 <= pane.overlay.labels_drawn <= 9 < cells
    viewport.repaint()
    assert pane.overlay.labels_drawn == cells  # a whole repaint draws them all


def test_an_edit_that_keeps_the_levels_places_only_the_labels_it_repaints(main_window):
    """The cells an edit changed, repainted alone, have their labels placed alone: X's
    one cell, not all of X's labels (issue 20: every label of every pane was placed
    again after every edit). A later whole repaint places them all, once."""
    model = main_window.model
    pane = main_window.panes.panes["X"]
    main_window.repaint()
    X = model.state.X
    i, j = np.unravel_index(np.argmin(np.abs(X)), X.shape)  # not the largest: levels stay
    levels = pane.colorbar.levels
    placed = pane.overlay.labels_placed
    model.set_cell("X", int(i), int(j), float(X[i, j]) + float(np.abs(X).max()) / 4)
    assert model.wait_until_idle()
    _settle()
    assert pane.colorbar.levels == levels
    drawn = pane.overlay.labels_drawn
    assert 1 <= pane.overlay.labels_placed - placed <= drawn < X.size  # before: X.size
    placed = pane.overlay.labels_placed
    pane.plot.viewport().repaint()
    assert pane.overlay.labels_drawn == X.size
    assert pane.overlay.labels_placed - placed == X.size
    pane.plot.viewport().repaint()  # placed once: a hover's repaint places none
    assert pane.overlay.labels_placed - placed == X.size


def test_a_row_of_q_is_repainted_when_its_levels_stay(main_window):
    """An edit of X[i] changes row i of Q, K and V; a pane whose levels stay repaints
    that row's pixels only."""
    model = main_window.model
    main_window.repaint()
    panes = [main_window.panes.panes[k] for k in ("Q", "K", "V")]
    viewports = [p.plot.viewport() for p in panes]
    levels = {p: p.colorbar.levels for p in panes}
    regions = _Regions(viewports)
    X = model.state.X
    model.set_cell("X", 1, 0, float(X[1, 0]) * 0.9)  # smaller: most levels stay
    assert model.wait_until_idle()
    _settle()
    kept = [p for p in panes if p.colorbar.levels == levels[p]]
    assert kept
    for pane in kept:
        viewport = pane.plot.viewport()
        n = pane.overlay.data.shape[0]
        whole = viewport.width() * viewport.height()
        assert max(_area(r) for r in regions.painted[viewport]) < 2 * whole / n, pane.key


def test_cells_repainted_alone_look_as_a_whole_repaint(main_window):
    """After edits that keep levels and edits that move them, the pixels the partial
    repaints left on screen are those of every pane painted afresh."""
    model = main_window.model
    main_window.repaint()
    X = model.state.X
    top = float(np.abs(X).max())
    for k, (i, j, value) in enumerate([(0, 1, 0.05), (2, 2, -0.07), (1, 0, 3 * top),
                                       (1, 0, 0.02), (3, 1, 0.011), (3, 1, 0.0111)]):
        model.set_cell("X", i, j, value)
        assert model.wait_until_idle(), k
        _settle()
    partial = _on_screen(main_window)
    for key in main_window.panes.shown():
        main_window.panes.panes[key].plot.viewport().repaint()
    assert _on_screen(main_window) == partial


def test_changed_cells_cover_every_changed_cell_by_row_and_column():
    old = np.arange(36.0).reshape(6, 6)
    new = old.copy()
    new[1, 1], new[1, 3], new[4, 0] = -1, -2, np.nan
    assert changed_cells(old, new) == [(1, 1, 1, 3), (4, 1, 0, 1)]  # (row, rows, col, cols)
    assert changed_cells(old, old.copy()) == []
    nan = old.copy()
    nan[2, 2] = np.nan
    # a NaN shown before and after is repainted (its look does not follow equality)
    assert changed_cells(nan, nan.copy()) == [(2, 1, 2, 1)]
    cross = old.copy()  # an edit of X[2]: row 2 and column 2 of the scores
    cross[2, :] += 1
    cross[:, 2] += 1
    assert changed_cells(old, cross) == [(2, 1, 0, 6), (0, 6, 2, 1)]


@pytest.mark.parametrize("new", [np.zeros((6, 5)), np.zeros((6, 6), np.float32),
                                 np.arange(36.0).reshape(6, 6)[::-1].copy()])
def test_another_shape_dtype_or_most_cells_repaint_the_whole_matrix(new):
    assert changed_cells(np.arange(36.0).reshape(6, 6), new) is None


def test_scattered_changes_repaint_the_whole_matrix():
    old = np.zeros((100, 100))
    new = old.copy()
    new[np.arange(40), (np.arange(40) * 7) % 100] = 1  # 40 cells, each its own block
    assert changed_cells(old, new) is None


def _blocks_by_rows(old, new):
    """``changed_cells`` as its docstring says it, row by row in Python (the reference)."""
    from qkv_desktop.views.panes.cell_updates import MOST_BLOCKS, MOST_CELLS
    with np.errstate(invalid="ignore"):
        differ = new != old
    if differ.sum() > MOST_CELLS * new.size:
        return None
    blocks, alone = [], {}
    for i, row in enumerate(differ):
        cols = np.flatnonzero(row).tolist()
        if len(cols) > 1:
            blocks.append((i, 1, cols[0], cols[-1] - cols[0] + 1))
        elif cols:
            alone.setdefault(cols[0], []).append(i)
    if len(blocks) > MOST_BLOCKS:
        return None
    for col in sorted(alone):
        rows = alone[col]
        blocks.append((rows[0], rows[-1] - rows[0] + 1, col, 1))
    return None if len(blocks) > MOST_BLOCKS else blocks


def test_changed_cells_are_the_blocks_of_the_rule_for_random_changes():
    rng = np.random.default_rng(11)
    for case in range(3000):
        n, m = (int(v) for v in rng.integers(1, 14, size=2))
        if case % 100 == 0:
            n, m = (int(v) for v in rng.integers(40, 300, size=2))
        old = rng.standard_normal((n, m))
        if case % 5 == 0:
            old[rng.random((n, m)) < 0.2] = np.nan
        new = old.copy()
        kind = case % 4
        if kind == 0:
            new[rng.random((n, m)) < rng.random() * 0.6] += 1
        elif kind == 1:  # an edit of X: a row and a column of the scores
            new[rng.integers(n), :] += 1
            new[:, rng.integers(m)] += 1
        elif kind == 2:
            for _ in range(int(rng.integers(0, 40))):
                new[rng.integers(n), rng.integers(m)] += 1
        else:
            new[:, rng.integers(m)] += 1
        assert changed_cells(old, new) == _blocks_by_rows(old, new), case


def test_a_matrix_whose_every_cell_changed_is_told_without_a_copy_of_its_rows():
    """The weights and the output change in every cell after any edit: that takes one
    comparison (one byte a cell), not also a copy of the changed rows (issue 20: n = 256,
    on the GUI thread)."""
    import tracemalloc
    old = np.random.default_rng(0).standard_normal((256, 256))
    new = old * 1.5
    changed_cells(old, new)
    tracemalloc.start()
    try:
        assert changed_cells(old, new) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.2 * old.size  # before: 3.1 bytes a cell


def test_recoloured_cells_are_the_colours_of_the_whole_matrix_coloured():
    """``recolour_cells`` on the last picture gives ``prepare_image``'s pixels, for
    random matrices, levels and edits of a cell, a row and a column."""
    rng = np.random.default_rng(7)
    lut = lut_for("scores")
    for case in range(200):
        n, m = rng.integers(2, 40, size=2)
        old = rng.standard_normal((n, m)) * rng.choice([1e-3, 1, 50])
        new = old.copy()
        i, j = rng.integers(0, n), rng.integers(0, m)
        kind = case % 3
        if kind == 0:
            new[i, j] *= 0.5
        elif kind == 1:
            new[i, :] *= 0.9
        else:
            new[:, j] *= 0.9
        levels = symmetric_levels(max(np.abs(old).max(), np.abs(new).max()))
        before = prepare_image(old, lut, levels, (1, 1))
        blocks = changed_cells(old, new)
        if blocks is None:
            continue
        made = recolour_cells(before, new, lut, levels, blocks)
        whole = prepare_image(new, lut, levels, (1, 1))
        assert made is not None and np.array_equal(made.pixels, whole.pixels), case
        assert made.pixels.flags.c_contiguous and made.shown is new
    bad = np.array([[0.0, np.inf], [1.0, 2.0]])  # a mask: made whole
    assert recolour_cells(prepare_image(np.zeros((2, 2)), lut, (-2, 2), (1, 1)), bad, lut, (-2, 2),
                          [(0, 1, 1, 1)]) is None


def _large_window(make_window, n=80):
    """A session whose matrices have more than MAX_LABEL_CELLS cells (no value text)
    but fit their panes cell for pixel (the reduction (1, 1)), as n = 256 does."""
    rng = np.random.default_rng(3)
    state = SessionState.initialised([f"t{i}" for i in range(n)],
                                     rng.standard_normal((n, n)).round(3), d_k=16)
    window = make_window(state, size=(1600, 1000))
    window.model.set_cell("X", 0, 0, 0.5)  # the layout settles
    assert window.model.wait_until_idle()
    _settle()
    return window


def test_a_large_matrix_colours_only_the_cells_an_edit_changed(make_window, monkeypatch):
    window = _large_window(make_window)
    model = window.model
    shown = [window.panes.panes[k] for k in window.panes.shown()]
    assert all(p.plot._factors == (1, 1) and not p.overlay.labelled
               for p in shown if p.key in ("X", "scores"))
    coloured = []
    real = pane_image.map_to_rgb32
    monkeypatch.setattr(pane_image, "map_to_rgb32",
                        lambda data, *a, **k: coloured.append(data.size) or real(data, *a, **k))
    X = model.state.X
    levels = {p.key: p.colorbar.levels for p in shown}
    model.set_cell("X", 5, 7, float(X[5, 7]) * 0.5)  # smaller: X's levels stay
    assert model.wait_until_idle()
    _settle()
    kept = [p for p in shown if p.colorbar.levels == levels[p.key]]
    assert "X" in {p.key for p in kept}
    n = X.shape[0]
    large = [p for p in shown if not p.overlay.labelled]  # (the others: map_to_rgba)
    assert {p.key for p in large} == {"X", "scores", "scaled", "weights"}
    # X recoloured one cell, the scores and scaled scores a row and a column when their
    # levels stay; the weights (every cell changed) all theirs
    most = sum(p.overlay.data.size if p not in kept or p.key == "weights"
               else 1 if p.key == "X" else 2 * n for p in large)
    assert sum(coloured) <= most < sum(p.overlay.data.size for p in large)
    partial = _on_screen(window)
    for pane in shown:
        pane.plot.make_image()  # coloured whole, painted afresh
        pane.plot.viewport().repaint()
    assert _on_screen(window) == partial
