"""A one-line label that ends in "…" when narrower than its text, never cut at its ends.

A centred ``QLabel`` narrower than its text loses both ends ("= X·W_V (values) (4"):
this one shows the start and an ellipsis, and its tool tip then gives the whole text.

It keeps and paints its text itself: ``QLabel.setText`` asks the layouts above it
again, up to the whole window, though this label's size never follows its text (as
wide as its layout gives, a line high). A lesson banner's sentence changes on every
edit (issue 20).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy

__all__ = ["ElidedLabel"]


class ElidedLabel(QLabel):
    """Plain text, one line, elided at the right; ``note`` is added to its tool tip."""

    def __init__(self, parent=None, note: str = "", objectName: str = ""):  # noqa: N803
        super().__init__(parent)
        self.setObjectName(objectName)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._note = note
        self._text = ""

    def set_note(self, note: str) -> None:
        self._note = note
        self._update_tip()

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        self.setAccessibleName(text)  # what a QLabel's text would tell a screen reader
        self._update_tip()
        self.update()

    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("X…"), super().minimumSizeHint().height())

    def _update_tip(self) -> None:
        parts = [self.text()] if self.is_elided() else []
        self.setToolTip("\n".join(parts + ([self._note] if self._note else [])))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown_text())
