"""Painting mask cells leaves the other panes' values and colour bars as they were.

A first-time user saw a pane's values vanish on painting one mask cell and took the
masked cell's −∞ for the cause: a wider colour-bar label taking room from the plot.
It is not: a bar's levels are ±max|finite value| (``levels_for``), so a masked cell
never becomes a label. What hid the values was the first cell painted: it turns the
custom mask on and the mask pane appears, a ninth pane, for which the grid may choose
three columns (``PaneGrid.set_visible``), where X's eight columns have too little room
(1366 × 768). The grid now keeps two columns there: panes of a shape that still reads
(``TOLERABLE_ASPECT``) that show every value beat a saner shape that hides X's. Once
the mask pane is shown, painting cells changes no layout."""

from __future__ import annotations

import math

import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.presentation.colormaps import max_abs_finite
from tests.views.plot_geometry import axis_texts


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(5):
        QApplication.processEvents()


def bars(window) -> dict[str, tuple[bool, list[str], float]]:
    """Each shown pane's (values hidden, colour-bar labels, colour-bar width)."""
    grid = window.panes
    return {k: (grid.panes[k].plot.values_hidden,
                [t for t, _rect in axis_texts(grid.panes[k].colorbar.axis)],
                grid.panes[k].colorbar.width())
            for k in grid.shown() if k in grid.panes}


@pytest.mark.parametrize("size", [(1024, 700), (1256, 706)])  # and a first run on 1366 × 768
def test_painting_mask_cells_hides_no_values_and_labels_no_infinity(make_window, size):
    window = make_window(size=size)
    model = window.model
    model.set_masked([(3, 0)], True)  # the mask pane appears: the grid may re-choose
    settle(window)
    columns = window.panes._fit_columns
    before = bars(window)
    assert "mask" in before
    for cell in ((0, 1), (0, 3), (2, 1), (1, 0)):
        model.set_masked([cell], True)
        settle(window)
        after = bars(window)
        assert math.isinf(model.result.matrix("scaled", 0)[cell])  # a −∞ among the scaled scores
        for key, (hidden, labels, width) in after.items():
            top = max_abs_finite(window.panes.panes[key].plot.data)
            # the bar labels the finite values only: no −∞, nor the largest float for it
            assert all(abs(float(t.replace("−", "-"))) <= max(top, 1.0) for t in labels), (
                key, labels)
            assert hidden == before[key][0], (cell, key)
            assert width == before[key][2], (cell, key, labels)
        assert window.panes._fit_columns == columns


@pytest.mark.parametrize("size", [(1024, 700), (1256, 706), (1366, 706)])
def test_the_first_mask_cell_painted_hides_no_panes_values(make_window, size):
    """The first cell painted adds the mask's pane; at 1256 × 706 (a first run on
    1366 × 768) the grid took three columns for it and X's values vanished."""
    window = make_window(size=size)
    settle(window)
    shown = {k for k, (hidden, _labels, _width) in bars(window).items() if not hidden}
    window.model.set_masked([(3, 0)], True)
    settle(window)
    after = bars(window)
    assert "mask" in after
    lost = sorted(k for k in shown if after[k][0])
    assert not lost, (lost, window.panes._fit_columns)


@pytest.mark.xvfb
def test_under_x_the_first_mask_cell_keeps_xs_values_at_1360_by_700(x_display, tmp_path):
    """With the X server's fonts, two columns at 1360 × 700 make panes of 3.004 once the
    mask's pane is in, just past ``ASPECT_RANGE``: the grid took three and X's values
    vanished at the first painted cell (found under Xvfb; offscreen fonts differ)."""
    from tests.xdisplay import run_on_display
    out = run_on_display(x_display, tmp_path, '''
        g = window.panes
        shown = sorted(k for k in g.shown() if k in g.panes
                       and not g.panes[k].plot.values_hidden)
        window.model.set_masked([(1, 0)], True)
        assert window.model.wait_until_idle()
        for _ in range(10):
            app.processEvents()
        out["lost"] = [k for k in shown if g.panes[k].plot.values_hidden]
        out["shown"] = shown
        out["columns"] = g._fit_columns
    ''', size=(1360, 700))
    assert "X" in out["shown"], out
    assert not out["lost"], out
