"""Which cells of a small matrix an edit changed, and repainting only those.

An edit of one value of X changes one cell of X, one row of Q, K and V and a row and
a column of the scores; when a pane's colour levels stay (most edits), every other
cell keeps its colour, its text and its text colour. Repainting the whole pane after
every edit scaled its picture to the pane and drew every value label again, eight
panes per edit (issue 20: edit → repaint at n = 4). Giving Qt the changed cells'
rectangles instead (``QGraphicsItem.update(rect)``, which the view turns into the
region it repaints) leaves the rest of the pane's pixels as they are: the image item
and the value labels (``CellOverlay``, which draws the labels of the exposed cells
only) then draw just that region, and the axes and colour bar beside it not at all.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF

__all__ = ["changed_cells", "update_cells", "MOST_CELLS"]

MOST_CELLS = 0.5
"""A change of more than this share of the cells repaints the whole matrix: one
rectangle is then cheaper than many, and draws hardly more."""


def changed_cells(old: np.ndarray, new: np.ndarray) -> list[QRectF] | None:
    """The rectangles (cell coordinates: column, row, width, height) that cover every
    cell where ``new`` differs from ``old`` (a NaN always differs), one per changed row;
    None when the whole matrix is to be repainted: another shape or dtype, or most
    cells changed. Only the values are compared: the caller knows the colour levels
    and everything else a cell's look depends on are unchanged."""
    if old.shape != new.shape or old.dtype != new.dtype or not new.size:
        return None
    with np.errstate(invalid="ignore"):
        differ = new != old  # NaN != NaN: a NaN cell is always repainted
    count = int(np.count_nonzero(differ))
    if count > MOST_CELLS * new.size:
        return None
    rects = []
    for i in np.flatnonzero(differ.any(axis=1)).tolist():
        cols = np.flatnonzero(differ[i])
        first, last = int(cols[0]), int(cols[-1])
        rects.append(QRectF(first, i, last - first + 1, 1))
    return rects


def update_cells(item, changed: list[QRectF] | None) -> None:
    """Schedule a repaint of ``changed`` (the item's own coordinates are the cells'), or
    of the whole item when None."""
    if changed is None:
        item.update()
        return
    for rect in changed:
        item.update(rect)
