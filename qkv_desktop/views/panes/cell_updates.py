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
    rows = np.flatnonzero(differ.any(axis=1))
    if not len(rows):
        return []
    changed = differ[rows]
    counts = np.count_nonzero(changed, axis=1)
    if int(counts.sum()) > MOST_CELLS * new.size:
        return None
    several = counts > 1
    if int(np.count_nonzero(several)) > MOST_BLOCKS:
        return None
    blocks = []
    for i, row in zip(rows[several].tolist(), changed[several], strict=True):
        cols = np.flatnonzero(row)
        first = int(cols[0])
        blocks.append((i, 1, first, int(cols[-1]) - first + 1))
    alone = rows[~several]
    if len(alone):
        columns = changed[~several].argmax(axis=1)  # each one's changed cell
        order = np.argsort(columns, kind="stable")
        columns, alone = columns[order].tolist(), alone[order].tolist()
        start = 0
        for k in range(1, len(columns) + 1):  # one block per column, top to bottom
            if k == len(columns) or columns[k] != columns[start]:
                blocks.append((alone[start], alone[k - 1] - alone[start] + 1, columns[start], 1))
                start = k
                if len(blocks) > MOST_BLOCKS:
                    return None
    return blocks


def update_cells(item, changed: Blocks | None) -> None:
    """Schedule a repaint of the ``changed`` blocks (the item's own coordinates are the
    cells'), or of the whole item when None."""
    if changed is None:
        item.update()
        return
    for row, rows, col, cols in changed:
        item.update(QRectF(col, row, cols, rows))
