"""A small matrix drawn cell by cell with its numbers, for the labs' step-by-step views.

The labs show a handful of rows at a time (one query row, a growing cache, one tile)
with highlights that move as the learner steps; a painted grid does that in a few
lines and renders as vectors into the PDF handouts. Colours come from the same maps
as the panes (``presentation.colormaps``), numbers by the app's one rule
(``presentation.numbers``: four decimals): a cell is as wide as its widest number.
A masked cell (the mask hides that key from that query) is painted as the panes paint
it (``views.masked_cell``): grey, hatched, no number, not a weight of "0.0000".
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from qkv_desktop.presentation.colormaps import (
    DIVERGING,
    SEQUENTIAL,
    map_to_rgba,
    symmetric_levels,
    text_color_for,
)
from qkv_desktop.presentation.numbers import LABEL_PAD, format_value
from qkv_desktop.views.masked_cell import fill_masked

__all__ = ["MatrixGrid", "same_cell_width"]

HIGHLIGHT = QColor(230, 85, 13)
GHOST = QColor(235, 235, 235)
MIN_VALUE_CELL = 22
"""Cells lower than this (pixels) show colour only: their numbers would not be legible."""


class MatrixGrid(QWidget):
    """``title`` above a grid of ``data``; ``highlight_rows``/``highlight_cols`` outlined.

    ``probabilities`` colours on [0, 1] (weights); otherwise a diverging map around 0.
    NaN cells are left blank (grey) so a grid can show a matrix still being filled;
    with ``blank_nan`` False a NaN is a result (the naive softmax's ∞/∞) and reads as
    in the panes: magenta, "NaN".
    With ``paintable`` a click toggles a cell between 0 and 1 (``cellClicked``).
    Masked cells (``set_data``'s ``masked``, and every −∞, as in the panes) are grey
    and hatched, with no number.
    """

    cellClicked = Signal(int, int)

    def __init__(self, title: str = "", probabilities: bool = False, cell: int = 34,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.title = title
        self.probabilities = probabilities
        self.cell = cell  # a cell's height in pixels; its width is at least this (cell_width)
        self.data = np.zeros((0, 0))
        self.row_labels: list[str] = []
        self.col_labels: list[str] = []
        self.highlight_rows: set[int] = set()
        self.highlight_cols: set[int] = set()
        self.boxes: list[tuple[int, int, int, int, QColor]] = []
        self.masked = np.zeros((0, 0), bool)
        self.paintable = False
        self.blank_nan = True
        self.label_room: list[str] = []
        """Row names the label column keeps room for, shown or not yet: a grid that
        gains rows step by step (the KV cache) kept its cells still only while its
        names were as long as the first one's (a first-time user: the grids and the
        text beside them moved 15–21 px while stepping)."""
        self.aligned: list[MatrixGrid] = []
        """Grids of the same columns whose cells are as wide as this one's
        (``same_cell_width``)."""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_data(self, data, row_labels=None, col_labels=None, highlight_rows=(),
                 highlight_cols=(), boxes=(), masked=None) -> None:
        """Show ``data`` (2-D, or 1-D as one row); ``boxes`` = (r0, r1, c0, c1, colour).

        ``masked``: booleans of ``data``'s shape, True where the mask hides the key from
        the query (its weight is exactly 0, its score −∞); a −∞ cell is masked anyway.
        """
        data = np.asarray(data, dtype=np.float64)
        self.data = data[None, :] if data.ndim == 1 else data
        self.masked = np.isneginf(self.data)
        if masked is not None:
            self.masked |= np.asarray(masked, bool).reshape(self.data.shape)
        self.row_labels = list(row_labels or [])
        self.col_labels = list(col_labels or [])
        self.highlight_rows = set(highlight_rows)
        self.highlight_cols = set(highlight_cols)
        self.boxes = list(boxes)
        for grid in (self, *self.aligned):  # their cells may widen with these numbers
            grid.updateGeometry()
            grid.update()

    # ---------------------------------------------------------------- geometry
    def _margins(self) -> tuple[int, int]:
        left = 8 + 7 * max((len(s) for s in (*self.row_labels, *self.label_room)), default=0)
        top = 20 + (16 if self.col_labels else 0)
        return left, top

    def value_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, self.cell / 4.6))
        return font

    def texts(self) -> list[list[str]]:
        """Each cell's text (empty for a masked or a blank NaN cell), by ``format_value``."""
        blank = self.blank_nan
        return [["" if hidden or blank and np.isnan(v) else format_value(v)
                 for v, hidden in zip(row, masks, strict=True)]
                for row, masks in zip(self.data.tolist(), self.masked.tolist(), strict=True)]

    def cell_width(self) -> int:
        """``cell``, or wider where the widest number (four decimals) needs it, here or
        in an ``aligned`` grid."""
        return max(grid._own_cell_width() for grid in (self, *self.aligned))

    def _own_cell_width(self) -> int:
        if self.cell < MIN_VALUE_CELL or not self.data.size:
            return self.cell
        fm = QFontMetricsF(self.value_font())
        widest = max(fm.horizontalAdvance(t) for row in self.texts() for t in row)
        return max(self.cell, int(np.ceil(widest + LABEL_PAD)))

    def sizeHint(self) -> QSize:
        left, top = self._margins()
        n, m = self.data.shape if self.data.size else (1, 1)
        title = QFontMetrics(self.font()).horizontalAdvance(self.title) + 8
        return QSize(max(title, left + m * self.cell_width() + 4), top + n * self.cell + 4)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def _cell_rect(self, r: int, c: int, width: int | None = None) -> QRectF:
        left, top = self._margins()
        w = self.cell_width() if width is None else width
        return QRectF(left + c * w, top + r * self.cell, w, self.cell)

    def mousePressEvent(self, event) -> None:
        if not self.paintable or not self.data.size:
            return super().mousePressEvent(event)
        left, top = self._margins()
        c = int((event.position().x() - left) // self.cell_width())
        r = int((event.position().y() - top) // self.cell)
        if 0 <= r < self.data.shape[0] and 0 <= c < self.data.shape[1]:
            self.cellClicked.emit(r, c)

    # ---------------------------------------------------------------- painting
    def _colours(self) -> np.ndarray:
        if self.probabilities:
            return map_to_rgba(self.data, SEQUENTIAL, (0.0, 1.0))
        finite = self.data[np.isfinite(self.data)]
        top = float(np.abs(finite).max()) if finite.size else 1.0
        return map_to_rgba(self.data, DIVERGING, symmetric_levels(top))

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setFont(self.value_font())
        painter.setPen(QColor(30, 30, 30))
        left, top = self._margins()
        painter.drawText(QPointF(2, 14), self.title)
        if not self.data.size:
            painter.end()
            return
        rgba = self._colours()
        white = text_color_for(rgba)
        n, m = self.data.shape
        w = self.cell_width()
        texts = self.texts()
        for c, label in enumerate(self.col_labels[:m]):
            rect = self._cell_rect(0, c, w).translated(0, -16)
            rect.setHeight(16)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
        for r in range(n):
            if r < len(self.row_labels):
                rect = QRectF(0, top + r * self.cell, left - 4, self.cell)
                painter.setPen(QColor(30, 30, 30))
                painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                                 self.row_labels[r])
            for c in range(m):
                rect = self._cell_rect(r, c, w)
                v = self.data[r, c]
                if self.masked[r, c]:  # grey and hatched, never a cell of value 0
                    fill_masked(painter, rect)
                    continue
                if self.blank_nan and np.isnan(v):
                    painter.fillRect(rect, GHOST)
                    continue
                painter.fillRect(rect, QColor(*(int(x) for x in rgba[r, c])))
                if self.cell < MIN_VALUE_CELL:  # too small to read: colour only
                    continue
                painter.setPen(QColor(255, 255, 255) if white[r, c] else QColor(20, 20, 20))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, texts[r][c])
        painter.setPen(QPen(QColor(200, 200, 200), 1))
        painter.drawRect(QRectF(left, top, m * w, n * self.cell))
        painter.setPen(QPen(HIGHLIGHT, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for r in sorted(self.highlight_rows):
            if 0 <= r < n:
                painter.drawRect(QRectF(left, top + r * self.cell, m * w, self.cell))
        for c in sorted(self.highlight_cols):
            if 0 <= c < m:
                painter.drawRect(QRectF(left + c * w, top, w, n * self.cell))
        for r0, r1, c0, c1, colour in self.boxes:
            painter.setPen(QPen(colour, 2.5))
            painter.drawRect(QRectF(left + c0 * w, top + r0 * self.cell,
                                    (c1 - c0) * w, (r1 - r0) * self.cell))
        painter.end()


def same_cell_width(*grids: MatrixGrid) -> None:
    """``grids`` (the same columns, one above the other) draw their cells equally wide,
    the widest any of them needs, so that their columns line up: the naive softmax's
    row of "NaN" was narrower than the online softmax's row of "0.0000" above it."""
    for grid in grids:
        grid.aligned = [other for other in grids if other is not grid]
