"""Painting the custom mask: click or drag over the mask pane to mask or unmask cells.

The first cell of a press decides what the drag does: pressing a cell the custom mask
already hides unmasks every cell the drag crosses, pressing any other cell masks them
(the custom mask switches on with the first). One drag is one undo step. A cell that
would leave its query with no key at all is refused, with the reason in the status bar.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt

from qkv_desktop.presentation.texts import say
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane

__all__ = ["MaskPainter"]


class MaskPainter(QObject):
    """Turns presses and drags over a mask ``HeatmapPane`` into ``model.set_masked``."""

    def __init__(self, pane: HeatmapPane):
        super().__init__(pane)
        self.pane = pane
        self.model = pane.model
        pane.pins_on_click = False  # a click paints here instead of pinning the cell
        self._gesture = None
        self._masking = True
        self._done: set[tuple[int, int]] = set()
        pane.plot.viewport().installEventFilter(self)
        pane.plot.viewport().setCursor(Qt.CursorShape.CrossCursor)

    def _cell(self, event):
        return self.pane.cell_at(self.pane.plot.mapToScene(event.position().toPoint()))

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            cell = self._cell(event)
            if cell is None:
                return False
            o = self.model.state.options
            self._masking = not (o.custom_mask and cell in set(o.masked))
            self._gesture = self.model.new_gesture()
            self._done = set()
            self._paint(cell)
            return True
        if kind == QEvent.Type.MouseMove and self._gesture is not None:
            cell = self._cell(event)
            if cell is not None and cell not in self._done:
                self._paint(cell)
            return False  # the pane still follows the hover
        if kind == QEvent.Type.MouseButtonRelease and self._gesture is not None:
            self._gesture = None
            return True
        return False

    def _paint(self, cell: tuple[int, int]) -> None:
        self._done.add(cell)
        try:
            self.model.set_masked([cell], self._masking, self._gesture)
        except ValueError as exc:
            self.model.refused.emit(self.tr("Not applied: {0}").format(say(exc)))
