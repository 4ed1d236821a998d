"""The heads overview takes at least two columns of the pane grid, or a row of its own.

With an odd number of panes in two columns it was put in the one cell left beside the
last pane: its nine thumbnails' width then went to that column, and every pane of the
other column was squeezed to about 125 px, under ``MIN_PANE_WIDTH`` (SmolLM2's layer at
1366 × 768 with a dock open; a first user).
"""

from __future__ import annotations

from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.pane_grid import MIN_PANE_WIDTH


def test_the_heads_overview_never_takes_a_single_cell(make_window, qtbot):
    # nine panes (X, Q, K, V, the scores, scaled, weights, output and the heads'
    # concatenation): an odd count
    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=9, d_k=1)
    window = make_window(state, size=(1024, 700))
    grid = window.panes
    layout = grid._grid
    overview = grid.heads_view
    assert overview.isVisible()
    panes = [p for p in grid.panes.built() if p.isVisible()]
    assert len(panes) % 2 == 1 and grid._columns == 2
    row, col, _, span = layout.getItemPosition(layout.indexOf(overview))
    assert span == grid._columns and col == 0, (row, col, span)
    widths = {p.width() for p in panes}
    assert min(widths) >= MIN_PANE_WIDTH - 10 or grid._columns == 1, widths
