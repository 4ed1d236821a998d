"""The note under a heatmap whose cells show no values, and how to read them.

One rule says when (``HeatmapPlot.values_hidden``: the matrix has cells and none shows
its value at this size, whether its cells are too small for four decimals or too
many to label, above ``MAX_LABEL_CELLS``: ``values_too_many``), and one label says it
the same way under every pane and in the symmetry dock, with advice for that reason.
Before, a matrix too large to label said nothing: at n = 1024 only Q, K, V and the
output (4096 cells each) had the note.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from qkv_desktop.views.panes.heatmap_plot import MAX_LABEL_CELLS

__all__ = ["ValuesNote"]


class ValuesNote(QLabel):
    """Grey, centred, hidden until ``follow`` is told the values are hidden.

    ``hover``: whether a hover on these cells shows their values (the panes: at the
    cursor and in the status bar); the symmetry dock's maps have no hover. The advice
    follows the reason: cells too small are helped by room (a larger window, fewer
    panes, a larger dock); a matrix of more than ``MAX_LABEL_CELLS`` cells never shows
    its values, whatever its size, so then the note says how to read them instead
    (hover, the status bar, the data export) and never to give it room."""

    def __init__(self, hover: bool, parent=None, objectName: str = "valuesHidden"):  # noqa: N803
        super().__init__(parent)
        self.setObjectName(objectName)
        self.hover = hover
        self.too_many = False
        """The values are hidden because there are too many cells (else too small)."""
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("color: #666666;")
        self.setWordWrap(True)
        self.hide()
        self.retranslate()

    def follow(self, *plots) -> None:
        """Show the note while any of ``plots`` (``HeatmapPlot``) hides its values."""
        hidden = [plot for plot in plots if plot.values_hidden]
        too_many = any(plot.values_too_many for plot in hidden)
        if too_many != self.too_many:
            self.too_many = too_many
            self.retranslate()
        self.setVisible(bool(hidden))

    def retranslate(self) -> None:
        if self.too_many:
            self._too_many()
            return
        why = self.tr("The cells are too small for their values with 4 decimals, even in "
                      "the smallest legible font.")
        if self.hover:
            self.setText(self.tr("values hidden: hover a cell"))
            how = self.tr("Hover a cell to read its value at the cursor (and its formula in "
                          "the status bar), or give the pane room: a larger window, or "
                          "fewer panes or the editor hidden from the View menu.")
        else:
            self.setText(self.tr("values hidden: enlarge the dock to read them"))
            how = self.tr("Make the dock larger, or float it, to read the values.")
        self.setToolTip(f"{why} {how}")

    def _too_many(self) -> None:
        if self.hover:
            self.setText(self.tr("values hidden: hover a cell"))
            self.setToolTip(self.tr(
                "This matrix has more than {0} cells: their values are never drawn, "
                "whatever the pane's size. Hover a cell to read its value exactly at the "
                "cursor (and its formula in the status bar), or export the data "
                "(File ▸ Export data…) to read them all.").format(MAX_LABEL_CELLS))
        else:
            self.setText(self.tr("values hidden: more than {0} cells").format(MAX_LABEL_CELLS))
            self.setToolTip(self.tr(
                "These maps have more than {0} cells: their values are never drawn, "
                "whatever the dock's size. Hover a cell of the scores pane to read a "
                "QKᵀ value exactly (at the cursor and in the status bar), or export the "
                "data (File ▸ Export data…).").format(MAX_LABEL_CELLS))
