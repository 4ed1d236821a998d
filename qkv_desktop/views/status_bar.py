"""The window's status bar: messages on the left, the hovered cell's formula on the right.

``QStatusBar.showMessage`` draws a message only in the room its permanent widgets
leave free. The hover read-out is one of them; given a stretch it took the whole bar
and every "Not applied: …" was drawn 20 px wide. Here it takes the width of its text
while no message is shown, and at most ``HOVER_SHARE`` of the bar while one is.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar

QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's "no maximum" width (not exported by PySide6)."""

__all__ = ["StatusBar", "HOVER_SHARE"]

HOVER_SHARE = 0.4
"""The largest part of the bar's width the hover read-out keeps while a message shows."""


class StatusBar(QStatusBar):
    """``QStatusBar`` whose ``hover_label`` never squeezes a message out of sight."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("statusBar")
        self.hover_label = QLabel(objectName="hoverLabel")
        self.hover_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Shrinks below its text when the message needs the room (the text is clipped).
        self.hover_label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.hover_label.setMinimumWidth(0)
        self.addPermanentWidget(self.hover_label)  # no stretch: the message keeps the rest
        self.messageChanged.connect(self._fit_hover)

    def set_hover_text(self, text: str) -> None:
        self.hover_label.setText(text)
        self.hover_label.setToolTip(text)  # the whole formula, when it is clipped

    def _fit_hover(self, *_args) -> None:
        limit = int(self.width() * HOVER_SHARE) if self.currentMessage() else QWIDGETSIZE_MAX
        self.hover_label.setMaximumWidth(limit)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_hover()
