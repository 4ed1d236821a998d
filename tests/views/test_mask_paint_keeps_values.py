"""Painting mask cells leaves the other panes' values and colour bars as they were.

A first-time user saw a pane's values vanish on painting one mask cell and took the
masked cell's −∞ for the cause: a wider colour-bar label taking room from the plot.
It is not: a bar's levels are ±max|finite value| (``levels_for``), so a masked cell
never becomes a label. What hid the values was the first cell painted: it turns the
custom mask on and the mask pane appears, a ninth pane, for which the grid may choose
three columns (``PaneGrid.set_visible``), where X's eight columns have too little room
(1366 × 768). Once the mask pane is shown, painting cells changes no layout."""

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
