"""An edit that keeps a pane's colour levels repaints only the cells whose value changed
(issue 20: edit → repaint at n = 4), and the window then looks exactly as when every
pane is painted afresh. Pinned by the area Qt repainted and the labels drawn, never by
a time."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

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


def test_changed_cells_cover_every_changed_cell_by_row():
    old = np.arange(16.0).reshape(4, 4)
    new = old.copy()
    new[1, 1], new[1, 3], new[3, 0] = -1, -2, np.nan
    rects = changed_cells(old, new)
    assert [(r.x(), r.y(), r.width(), r.height()) for r in rects] == [
        (1, 1, 3, 1), (0, 3, 1, 1)]
    assert changed_cells(old, old.copy()) == []
    nan = old.copy()
    nan[2, 2] = np.nan
    # a NaN shown before and after is repainted (its look does not follow equality)
    assert [(r.x(), r.y()) for r in changed_cells(nan, nan.copy())] == [(2, 2)]


@pytest.mark.parametrize("new", [np.zeros((4, 5)), np.zeros((4, 4), np.float32),
                                 np.arange(16.0).reshape(4, 4)[::-1].copy()])
def test_another_shape_dtype_or_most_cells_repaint_the_whole_matrix(new):
    assert changed_cells(np.arange(16.0).reshape(4, 4), new) is None
