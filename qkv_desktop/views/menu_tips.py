"""Tool tips of menu items beside the menu, not over the next item."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtWidgets import QMenu, QToolTip

__all__ = ["TipsBeside"]


class TipsBeside(QObject):
    """Shows a menu's item tool tips to the right of the menu, level with the item.

    ``QMenu.setToolTipsVisible`` shows them at the mouse pointer, where the tip of a
    preset covered the item below it, the next one the user meant to read (found by a
    first-time user). Installed on ``menu`` (which it also makes show tips)."""

    def __init__(self, menu: QMenu):
        super().__init__(menu)
        menu.setToolTipsVisible(True)
        menu.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() != QEvent.Type.ToolTip or not isinstance(watched, QMenu):
            return super().eventFilter(watched, event)
        action = watched.actionAt(event.pos())
        if action is None or not action.toolTip() or action.toolTip() == action.text():
            QToolTip.hideText()
            return True
        rect = watched.actionGeometry(action)
        QToolTip.showText(watched.mapToGlobal(QPoint(watched.width() + 2, rect.top())),
                          action.toolTip(), watched)
        return True
