"""The heads overview takes at least two columns of the pane grid, or a row of its own,
when its thumbnails need more than a pane's least width.

With an odd number of panes in two columns it was put in the one cell left beside the
last pane: nine heads' thumbnails then widened that column, and every pane of the other
column was squeezed to about 125 px, under ``MIN_PANE_WIDTH`` (SmolLM2's layer at
1366 × 768 with a dock open; a first user). Its title, unwrapped, made even two heads'
overview 261 px wide; it is elided where narrow, as the panes' titles are.
"""

from __future__ import annotations

from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.pane_grid import BESIDE_HEADS, MIN_PANE_WIDTH


def overview_cell(window) -> tuple[int, int, int]:
    """(row, column, column span) of the heads overview in the grid."""
    layout = window.panes._grid
    row, col, _, span = layout.getItemPosition(layout.indexOf(window.panes.heads_view))
    return row, col, span


def test_many_heads_never_take_the_single_cell_beside_the_last_pane(make_window):
    # nine panes (X, Q, K, V, the scores, scaled, weights, output and the heads'
    # concatenation): an odd count, so two columns leave one cell beside the last
    window = make_window(SessionState.from_preset("tutorial-1").reinitialised(n_heads=2),
                         size=(1024, 700))
    grid = window.panes
    panes = [p for p in grid.panes.built() if p.isVisible()]
    assert len(panes) % 2 == 1
    assert grid._columns == 2, grid._columns  # (1024 × 700: two columns)
    if grid._columns == 2:  # two heads fit that cell
        assert overview_cell(window)[1:] == (1, 1)
    assert grid.heads_view.minimumSizeHint().width() <= MIN_PANE_WIDTH
    window.model.set_heads(9, d_k=1)  # more thumbnails than the cell holds
    assert window.model.wait_until_idle()
    assert len(grid.heads_view.thumbs) == 9 > BESIDE_HEADS
    row, col, span = overview_cell(window)
    assert col == 0 and span == grid._columns, (row, col, span)
    window.model.undo_stack.undo()  # back to two: beside the last pane again
    assert window.model.wait_until_idle()
    if grid._columns == 2:
        assert overview_cell(window)[1:] == (1, 1)
