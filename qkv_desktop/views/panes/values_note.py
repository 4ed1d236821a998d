"""The note under a heatmap whose cells show no values, and how to read them.

One rule says when (``HeatmapPlot.values_hidden``: the matrix has cells and none shows
its value at this size, whether its cells are too small for four decimals or too
many to label, above ``MAX_LABEL_CELLS``), and one label says it the same way under
every pane and in the symmetry dock. Before, a matrix too large to label said
nothing: at n = 1024 only Q, K, V and the output (4096 cells each) had the note.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from qkv_desktop.views.panes.heatmap_plot import MAX_LABEL_CELLS

__all__ = ["ValuesNote"]


class ValuesNote(QLabel):
    """Grey, centred, hidden until ``follow`` is told the values are hidden.

    ``hover``: whether a hover on these cells shows their values (the panes: at the
    cursor and in the status bar); the symmetry dock's maps have no hover, so there the
    note says to give them room."""

    def __init__(self, hover: bool, parent=None, objectName: str = "valuesHidden"):  # noqa: N803
        super().__init__(parent)
        self.setObjectName(objectName)
        self.hover = hover
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("color: #666666;")
        self.setWordWrap(True)
        self.hide()
        self.retranslate()

    def follow(self, hidden: bool) -> None:
        self.setVisible(hidden)

    def retranslate(self) -> None:
        why = self.tr("The cells are too small for their values with 4 decimals, even in "
                      "the smallest legible font, or there are more than {0} of them.").format(
            MAX_LABEL_CELLS)
        if self.hover:
            self.setText(self.tr("values hidden: hover a cell"))
            how = self.tr("Hover a cell to read its value at the cursor (and its formula in "
                          "the status bar), or give the pane room: a larger window, or "
                          "fewer panes or the editor hidden from the View menu.")
        else:
            self.setText(self.tr("values hidden: enlarge the dock to read them"))
            how = self.tr("Make the dock larger, or float it, to read the values.")
        self.setToolTip(f"{why} {how}")
