"""Controls that the mouse wheel changes only once they have the keyboard.

Qt's spin boxes, combo boxes and sliders take a wheel turn whenever the pointer is over
them. In a panel that scrolls (the editor's "Positions, mask" tab, the labs at 700 px),
a learner scrolling the panel changed whatever box passed under the pointer: the mask's
window went from off to 2 and every weight changed, with no click (a first-time user).
These controls take the wheel only after a click or Tab has given them the keyboard
(``Qt.FocusPolicy.StrongFocus``: a wheel turn no longer gives it); before that the turn
goes on to the panel, which scrolls, as it does in browsers and IDEs.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QSlider

__all__ = ["WheelNeedsFocus", "FocusComboBox", "FocusSlider"]


class WheelNeedsFocus:
    """Mixin before a Qt control class: the wheel changes it only while it has the
    keyboard; otherwise the turn is ignored, and Qt hands it to the scrolling parent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        # (a spin box's line edit is its focus proxy: counted by ``hasFocus``); a control
        # its owner made unfocusable (the tiles lab's sliders, outside any scroll area)
        # could never take the wheel, so it takes it as Qt's own does
        if self.hasFocus() or self.focusPolicy() == Qt.FocusPolicy.NoFocus:
            super().wheelEvent(event)
        else:
            event.ignore()


class FocusComboBox(WheelNeedsFocus, QComboBox):
    """A ``QComboBox`` that a wheel turn over it changes only once it has the keyboard."""


class FocusSlider(WheelNeedsFocus, QSlider):
    """A ``QSlider`` that a wheel turn over it moves only once it has the keyboard."""
