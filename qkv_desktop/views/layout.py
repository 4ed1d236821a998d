"""Layout rules that keep the window inside a laptop's screen.

A ``QMainWindow`` is never smaller than the minimum size of its contents: eight
heatmap panes side by side and a form of controls made it 1163 × 664 px, larger
than a 1024 × 700 screen, and every content change (File → New) could grow it.
Content that needs more room than the window has scrolls instead (``scrolling``),
and the first size is the default capped by the screen (``fit_to_screen``).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QWidget

__all__ = ["scrolling", "fit_to_screen", "fit_to_free", "wraps_in_any_width", "SCREEN_SHARE"]

SCREEN_SHARE = 0.92
"""The part of the screen's free area a first window takes at most (its frame and a
panel or dock of the desktop need the rest)."""


class _VerticalScrollArea(QScrollArea):
    """Scrolls up and down only: as narrow as its content allows, never cutting it."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        content = self.widget()
        if content is None:
            return hint
        width = content.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(max(hint.width(), width), hint.height())


def scrolling(content: QWidget, name: str, horizontal: bool = True) -> QScrollArea:
    """``content`` in a frameless scroll area that resizes it, scrolling below its minimum
    (up and down only, without ``horizontal``: a form read across must not be cut)."""
    area = QScrollArea(objectName=name) if horizontal else _VerticalScrollArea(objectName=name)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if horizontal
                                      else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(content)
    return area


def fit_to_screen(size: tuple[int, int], screen: QScreen | None) -> tuple[int, int]:
    """``size``, made smaller where ``screen``'s available area is smaller."""
    if screen is None:
        return size
    free: QSize = screen.availableGeometry().size()
    return fit_to_free(size, (free.width(), free.height()))


def fit_to_free(size: tuple[int, int], free: tuple[int, int]) -> tuple[int, int]:
    """``size``, made smaller where an available area of ``free`` (logical pixels) is
    smaller: the one rule of ``fit_to_screen``, for the tests that must lay a window
    out at the size a first start gets."""
    return (min(size[0], int(free[0] * SCREEN_SHARE)),
            min(size[1], int(free[1] * SCREEN_SHARE)))


def wraps_in_any_width(label: QLabel) -> QLabel:
    """``label`` (word-wrapped) asks for no width of its own: it wraps in whatever width
    its window has and grows downwards. A word-wrapped label still asks for the width of
    about one long line (its size hint), and a lab's red line, a long message, widened
    the KV-cache stepper from 1024 to 1178 px, cutting off its Export button."""
    label.setWordWrap(True)
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    return label
