"""A masked cell as every painted matrix shows it: the mask grey, hatched, no number.

The panes (``panes.heatmap_plot``) and the labs' small grids (``teaching.matrix_grid``)
paint a cell the mask hides from its query with this one function, in the colours of
``presentation.colormaps`` (``MASKED_RGBA``, ``HATCH_RGBA``) that the exported figures
use too: a masked weight is exactly 0, but it is no weight of 0, and "0.0000" on a pale
cell read like one.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter

from qkv_desktop.presentation.colormaps import HATCH_RGBA, MASKED_RGBA

__all__ = ["fill_masked"]


def fill_masked(painter: QPainter, rect: QRectF) -> None:
    """Paint ``rect`` as a masked cell: grey, with the diagonal hatching over it."""
    painter.fillRect(rect, QColor(*MASKED_RGBA))
    painter.fillRect(rect, QBrush(QColor(*HATCH_RGBA), Qt.BrushStyle.BDiagPattern))
