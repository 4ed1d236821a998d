"""The grid of heatmap panes, in a user-chosen order with some panes hidden."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QWidget

from ..model import AttentionModel
from .heatmap_pane import HeatmapPane
from .pane_info import PANES

__all__ = ["PaneGrid", "DEFAULT_ORDER"]

DEFAULT_ORDER = tuple(p.key for p in PANES)


class PaneGrid(QWidget):
    """Lays out the visible panes row by row, ``columns`` per row."""

    layoutChanged = Signal()

    def __init__(self, model: AttentionModel, columns: int = 4, parent=None):
        super().__init__(parent)
        self.columns = columns
        self.panes = {key: HeatmapPane(model, key, self) for key in DEFAULT_ORDER}
        self.order: list[str] = list(DEFAULT_ORDER)
        self.hidden: set[str] = set()
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(4)
        self._relayout()

    def set_arrangement(self, order, hidden) -> None:
        """Apply a saved order and hidden set; unknown keys are ignored."""
        order = [k for k in order if k in self.panes]
        self.order = order + [k for k in DEFAULT_ORDER if k not in order]
        self.hidden = {k for k in hidden if k in self.panes}
        self._relayout()

    def set_visible(self, key: str, visible: bool) -> None:
        (self.hidden.discard if visible else self.hidden.add)(key)
        self._relayout()

    def move(self, key: str, delta: int) -> None:
        """Move a pane ``delta`` places earlier (<0) or later (>0) in the grid."""
        i = self.order.index(key)
        j = min(max(i + delta, 0), len(self.order) - 1)
        self.order.insert(j, self.order.pop(i))
        self._relayout()

    def _relayout(self) -> None:
        for pane in self.panes.values():
            self._grid.removeWidget(pane)
        for r in range(self._grid.rowCount()):
            self._grid.setRowStretch(r, 0)
        for c in range(self._grid.columnCount()):
            self._grid.setColumnStretch(c, 0)
        shown = [k for k in self.order if k not in self.hidden]
        for idx, key in enumerate(shown):
            r, c = divmod(idx, self.columns)
            self._grid.addWidget(self.panes[key], r, c)
            self._grid.setRowStretch(r, 1)
            self._grid.setColumnStretch(c, 1)
            self.panes[key].show()
        for key in self.hidden:
            self.panes[key].hide()
        self.layoutChanged.emit()
