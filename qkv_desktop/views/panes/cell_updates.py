"""Which cells of a matrix an edit changed, and repainting only those.

An edit of one value of X changes one cell of X, one row of Q, K and V and a row and
a column of the scores; when a pane's colour levels stay (most edits), every other
cell keeps its colour, its text and its text colour. Repainting the whole pane after
every edit scaled its picture to the pane and drew every value label again, eight
panes per edit (issue 20: edit → repaint at n = 4). Giving Qt the changed cells'
rectangles instead (``QGraphicsItem.update(rect)``, which the view turns into the
region it repaints) leaves the rest of the pane's pixels as they are: the image item
and the value labels (``CellOverlay``, which draws the labels of the exposed cells
only) then draw just that region, and the axes and colour bar beside it not at all.
A picture made on the GUI thread recolours just those cells
(``pane_image.recolour_cells``).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF

__all__ = ["Blocks", "changed_cells", "update_cells", "MOST_CELLS", "MOST_BLOCKS", "LARGEST_COMPARED"]

Blocks = list[tuple[int, int, int, int]]
"""Blocks of cells, each ``(row, rows, col, cols)``."""

MOST_CELLS = 0.5
"""A change of more than this share of the cells repaints the whole matrix: one
rectangle is then cheaper than many, and draws hardly more."""
MOST_BLOCKS = 32
"""More blocks than this (scattered changes) repaint the whole matrix."""
LARGEST_COMPARED = 512 * 512
"""Larger matrices are not compared cell by cell on the GUI thread (their pictures are
block means made on a worker): they are repainted whole."""


def changed_cells(old: np.ndarray, new: np.ndarray) -> Blocks | None:
    """Blocks ``(row, rows, col, cols)`` that cover every cell where ``new`` differs from
    ``old`` (a NaN always differs): a row's span for each row with several changed
    cells, and for the cells alone in their row, one column span per column (an edit
    of X changes a row and a column of the scores: two blocks). None when the whole
    matrix is to be repainted: another shape or dtype, a matrix too large to compare,
    most cells changed, or more than ``MOST_BLOCKS`` blocks. Only the values are
    compared: the caller knows that the colour levels and all else a cell's look
    depends on are unchanged."""
    if (old.shape != new.shape or old.dtype != new.dtype or not new.size
            or new.size > LARGEST_COMPARED or new.ndim != 2):
        return None
    with np.errstate(invalid="ignore"):
        differ = new != old  # NaN != NaN: a NaN cell is always repainted
    # A few whole passes over ``differ`` and no Python loop over its rows: a matrix
    # whose every cell changed (the weights and output after any edit) is told by the
    # count alone, and a row's changed cells by its first one and whether any other
    # is left (a changed column of the scores leaves every row with one)
    total = int(np.count_nonzero(differ))
    if total == 0:
        return []
    if total > MOST_CELLS * new.size:
        return None
    rows = np.arange(new.shape[0])
    first = differ.argmax(axis=1)  # each row's first changed cell (0 in a row without)
    touched = differ[rows, first]
    rest = differ.copy()
    rest[rows, first] = False
    several = np.flatnonzero(rest.any(axis=1))  # rows with more changed cells
    if len(several) > MOST_BLOCKS:
        return None
    blocks = []
    for i in several.tolist():
        cols = np.flatnonzero(differ[i])
        a = int(cols[0])
        blocks.append((i, 1, a, int(cols[-1]) - a + 1))
    touched[several] = False
    alone = np.flatnonzero(touched)
    if len(alone):
        columns = first[alone]  # each one's changed cell
        order = np.argsort(columns, kind="stable")
        columns, alone = columns[order], alone[order]
        starts = np.flatnonzero(columns[1:] != columns[:-1]) + 1  # one block per column
        if len(blocks) + len(starts) + 1 > MOST_BLOCKS:
            return None
        starts = [0, *starts.tolist()]
        ends = [k - 1 for k in starts[1:]] + [len(columns) - 1]
        at, cols = alone.tolist(), columns.tolist()
        blocks.extend((at[a], at[b] - at[a] + 1, cols[a], 1)
                      for a, b in zip(starts, ends, strict=True))
    return blocks


def update_cells(item, changed: Blocks | None) -> None:
    """Schedule a repaint of the ``changed`` blocks (the item's own coordinates are the
    cells'), or of the whole item when None."""
    if changed is None:
        item.update()
        return
    for row, rows, col, cols in changed:
        item.update(QRectF(col, row, cols, rows))
