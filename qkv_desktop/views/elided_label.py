"""A one-line label that ends in "…" when narrower than its text, never cut at its ends.

A centred ``QLabel`` narrower than its text loses both ends ("= X·W_V (values) (4"):
this one shows the start and an ellipsis, and its tool tip then gives the whole text.
A text may come with shorter wordings (``set_shorter``): the longest that fits is
shown whole before any is cut (the hint banner's sentence at 1024×700).

It keeps and paints its text itself: ``QLabel.setText`` asks the layouts above it
again, up to the whole window, though this label's size never follows its text (as
wide as its layout gives, a line high). A lesson banner's sentence changes on every
edit (issue 20). A label whose layout reads its width (a status-bar field, not
``Ignored``) is as wide as its whole text at most and asks again when it changes; it
never asks for more than "X…" at least, so no text raises its window's least width
(a hover read-out on a 1024 px screen widened the window to 1360). Its height is one
line of the tallest text it has shown, fallback fonts included: a line only as tall
as the Latin font cut the "_" of "W_Q" in the Chinese titles, whose CJK font is taller.
A taller text asks for a new layout, once.
"""

from __future__ import annotations

import html
import math

from PySide6 import QtGui
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QTextLayout
from PySide6.QtWidgets import QLabel, QSizePolicy

__all__ = ["ElidedLabel", "line_height"]

_SAMPLE = "Ág_Qy"
"""Latin with accents and descenders: the least height of a line."""


def line_height(text: str, font) -> int:
    """Pixels of one laid-out line of ``text`` in ``font``, fallback fonts included
    (``QFontMetrics`` knows only the font itself)."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    line = layout.createLine()
    layout.endLayout()
    return math.ceil(line.height()) if line.isValid() else 0


class ElidedLabel(QLabel):
    """Plain text, one line, elided at the right; ``note`` is added to its tool tip."""

    def __init__(self, parent=None, note: str = "", objectName: str = ""):  # noqa: N803
        super().__init__(parent)
        self.setObjectName(objectName)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._note = note
        self._text = ""
        self._shorter: tuple[str, ...] = ()
        self._line = line_height(_SAMPLE, self.font())

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
        if text and (height := line_height(text, self.font())) > self._line:
            self._line = height  # a taller script (a token's name): laid out once more
            self.updateGeometry()
        if self.sizePolicy().horizontalPolicy() != QSizePolicy.Policy.Ignored:
            self.updateGeometry()  # its size hint is its text's width
        self._update_tip()
        self.update()

    def set_shorter(self, texts) -> None:
        """Shorter wordings of the text, longest first: shown when the text does not fit
        (the last one is cut with "…" when none fits); the tool tip has the text."""
        texts = tuple(texts)
        if texts != self._shorter:
            self._shorter = texts
            self._update_tip()
            self.update()

    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        metrics, room = self.fontMetrics(), self.contentsRect().width()
        text = self.text()
        if self._shorter and metrics.horizontalAdvance(text) > room:
            for text in self._shorter:
                if metrics.horizontalAdvance(text) <= room:
                    return text
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)

    def is_elided(self) -> bool:
        """Whether the text is cut with "…" (a shorter wording shown whole is not)."""
        shown = self.shown_text()
        return shown != self.text() and shown not in self._shorter

    def is_shortened(self) -> bool:
        """Whether less than the whole text shows (cut, or a shorter wording)."""
        return self.shown_text() != self.text()

    def _height(self) -> int:
        margins = self.contentsMargins()
        return self._line + margins.top() + margins.bottom() + 2 * self.margin()

    def sizeHint(self) -> QSize:
        """The whole text's width (ignored in an ``Ignored`` layout item), a line high."""
        margins = self.contentsMargins()
        # its fractional width rounded up: "elidedText" cuts a text a fraction wider
        text = math.ceil(QFontMetricsF(self.font()).horizontalAdvance(self._text))
        width = text + margins.left() + margins.right() + 2 * self.margin()
        return QSize(width, max(super().sizeHint().height(), self._height()))

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("X…"),
                     max(super().minimumSizeHint().height(), self._height()))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:  # the zoom: measured again
            self._line = max(line_height(_SAMPLE, self.font()),
                             line_height(self._text, self.font()))
            self.updateGeometry()
        super().changeEvent(event)

    def _update_tip(self) -> None:
        parts = ([self.text()] if self.is_shortened() else []) + ([self._note] if self._note
                                                                 else [])
        rich = QtGui.Qt.mightBeRichText  # (the QtGui namespace's: QtCore's has no such)
        if any(rich(part) for part in parts):
            # one rich text: a plain line before it made Qt show the whole tip as plain
            # text, the note's <b> and <a href=…> as written (an elided banner; a user)
            self.setToolTip("<br>".join(part if rich(part) else html.escape(part)
                                        for part in parts))
        else:
            self.setToolTip("\n".join(parts))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        self.drawFrame(painter)  # a style sheet's border (the status bar's rule)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown_text())
