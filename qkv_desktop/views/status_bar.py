"""The window's status bar: messages on the left, the hovered cell's formula on the right.

``QStatusBar.showMessage`` draws a message only in the room its permanent widgets
leave free. The hover read-out is one of them; given a stretch it took the whole bar
and every "Not applied: …" was drawn 20 px wide. Here it takes the width of its text
while no message is shown; while one is, it gives up as much as the message lacks
(it is the field that changes with every move of the mouse, and its tool tip has it
whole), and at most ``HOVER_SHARE`` of the bar. A cap alone was not enough: beside
the QKᵀ asymmetry in a 940 px window, "Presentation mode: F5 or Esc leaves" read
"Presentation mode: F5 o". The other fields that end in "…" (``ElidedLabel``: a
loaded model's source) give up room after it, down to "X…", while a message lacks it:
beside a model's name, presentation mode's hint read "Presentation mo…" at 1024 × 700
and a model load's note lost its "Ctrl+Z brings them back". Their tool tips have them
whole, and they are whole again once the message has gone.

Its fields (the hover read-out, a loaded model's source, the QKᵀ asymmetry) are
labels side by side; each is set off from the one before by a thin rule and padding
(``FIELD_STYLE``), so "w[爱→k2] = 0.2231" and "all-MiniLM-L6-v2 · layer 3" never read
as one sentence. An empty read-out is hidden, so no rule stands alone.

A message longer than its room ends in "…" (``shown_message``), and the bar's tool
tip has it whole; Qt cut it mid-letter ("…overflow float64 (its largest nun" at
1024 × 700), so that it read as the whole message.

A status tip (a menu item's or a tool button's description while the pointer is on
it, Qt's ``QStatusTipEvent``, which ``QMainWindow`` turns into ``showMessage(tip)``)
stands in for the app's message only as long as the pointer stays (``show_tip``):
Qt's own handling replaced the message and cleared the bar when the pointer left, so
a note or a refusal was gone for good once the pointer crossed the token bar on its
way to the panes. The message comes back for the rest of its time.
"""

from __future__ import annotations

from PySide6.QtCore import QDeadlineTimer, QEvent, QRect, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QSizeGrip,
    QSizePolicy,
    QStatusBar,
    QStyle,
    QStyleOption,
    QWidget,
)

from qkv_desktop.views.elided_label import ElidedLabel

QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's "no maximum" width (not exported by PySide6)."""

__all__ = ["StatusBar", "HOVER_SHARE"]

HOVER_SHARE = 0.4
"""The largest part of the bar's width the hover read-out keeps while a message shows."""
FIELD_STYLE = ("QStatusBar::item { border: none; }"
               "QStatusBar > QLabel { border-style: solid; border-color: #9a9a9a;"
               " border-width: 0px 0px 0px 1px; padding: 0px 6px 0px 8px; }")
"""A rule and padding before every label field; Qt's own item frames are not drawn
(most styles draw none, and those that do would double the rule). The border is
given by width, style and colour: Qt draws no ``border-left`` shorthand on a label."""


class StatusBar(QStatusBar):
    """``QStatusBar`` whose ``hover_label`` never squeezes a message out of sight."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("statusBar")
        self.setStyleSheet(FIELD_STYLE)
        self.hover_label = ElidedLabel(objectName="hoverLabel")
        # As wide as its text at most; narrower (cut with "…") when the message or the
        # window needs the room: a QLabel's least width was its whole text.
        self.hover_label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        self.hover_label.hide()  # shown with a text
        self.addPermanentWidget(self.hover_label)  # no stretch: the message keeps the rest
        self.messageChanged.connect(self._fit_fields)
        self.messageChanged.connect(self._on_message_changed)
        self._said = ""  # the app's message (``showMessage``), shown or under a tip
        self._said_until = QDeadlineTimer()
        self._tip = ""  # the status tip shown in its stead, if any

    def minimumSizeHint(self) -> QSize:
        """A line high and no width of its own: nothing the bar shows (a long hover
        read-out, a model's name) may widen the window past a small screen; its fields
        are cut with "…" instead."""
        return QSize(0, super().minimumSizeHint().height())

    # ------------------------------------------------------------ messages
    def showMessage(self, message: str, timeout: int = 0) -> None:
        """The app's message, for ``timeout`` ms (0: until replaced or cleared)."""
        self._said, self._tip = message, ""
        self._said_until = QDeadlineTimer(timeout if timeout > 0
                                          else QDeadlineTimer.ForeverConstant.Forever)
        super().showMessage(message, timeout)

    def clearMessage(self) -> None:
        """The app's message off the bar (a status tip on show stays while its item is
        under the pointer)."""
        self._said = ""
        if not self._tip:
            super().clearMessage()

    def said(self) -> str:
        """The app's message in effect: the one on show, or the one a status tip stands
        in for while the pointer is on a menu item or button; empty once its time is up
        or it was cleared."""
        if not self._said or self._said_until.hasExpired():
            return ""
        if not self._tip and super().currentMessage() != self._said:  # Qt's timer ended it
            return ""
        return self._said

    def reword(self, old: str, new: str) -> None:
        """The app's message ``old``, if still in effect, said as ``new`` for the rest of
        its time (a hint in a new language: the old one stayed up in the old)."""
        if not old or self.said() != old or old == new:
            return
        left = self._said_until.remainingTime()  # -1: no timeout
        self.showMessage(new, max(left, 1) if left >= 0 else 0)

    def show_tip(self, tip: str) -> None:
        """A status tip while the pointer is on its item (``tip``), or its end (empty):
        then the app's message again, for the rest of its time."""
        said = self.said()
        if tip:
            self._tip = tip
            super().showMessage(tip)
            return
        self._tip = ""
        if said:
            left = self._said_until.remainingTime()  # -1: no timeout
            super().showMessage(said, max(left, 1) if left >= 0 else 0)
        else:
            super().clearMessage()

    def set_hover_text(self, text: str) -> None:
        self.hover_label.setText(text)  # its tool tip has it whole when it is cut
        self.hover_label.setVisible(bool(text))
        if self.currentMessage():  # its share depends on its text's width
            self._fit_fields()

    def _yielding(self) -> list[ElidedLabel]:
        """The fields that give up room to a message, in that order: the hover read-out,
        then the others that end in "…" (a loaded model's source)."""
        return [self.hover_label, *(w for w in self.findChildren(ElidedLabel)
                                    if w.parentWidget() is self and w is not self.hover_label)]

    def _fit_fields(self, *_args) -> None:
        """Each yielding field as wide as its text, less what the message lacks."""
        message = self.currentMessage()
        fields = self._yielding()
        if not message:
            for field in fields:
                field.setMaximumWidth(QWIDGETSIZE_MAX)
            return
        shown = [f for f in fields if f.isVisible()]
        others = sum(w.sizeHint().width() + 4 for w in self.findChildren(QWidget)
                     if w.parentWidget() is self and w not in fields and w.isVisible())
        wanted = {f: f.sizeHint().width() for f in shown}
        # Qt draws the message from 6 px up to the first field, less the layout's
        # spacing and margins (style-dependent: a few px each, 24 in all is ample)
        free = self.width() - 24 - others - sum(wanted.values()) - 4 * max(0, len(shown) - 1)
        lacking = max(0, self.fontMetrics().horizontalAdvance(message) - free)
        for field in fields:
            want = wanted.get(field, 0)
            if field is self.hover_label:  # the one that changes with every move: to 0
                limit = min(int(self.width() * HOVER_SHARE), max(0, want - lacking))
            else:  # the others keep "X…", a sign that they are there, cut
                limit = max(field.minimumSizeHint().width(), want - lacking)
            lacking = max(0, lacking - (want - min(want, limit)))
            field.setMaximumWidth(limit)

    def event(self, event) -> bool:
        """A field shown, hidden or given another text asks for a layout: its room
        is found again first (a model's name shown under a message took the room back)."""
        if event.type() == QEvent.Type.LayoutRequest and self.currentMessage():
            self._fit_fields()
        return super().event(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_fields()
        self._tip_if_cut()

    def _on_message_changed(self, _message: str) -> None:
        self._tip_if_cut()

    def _tip_if_cut(self) -> None:
        """The message whole in the bar's tip while ``shown_message`` cuts it."""
        message = self.currentMessage()
        self.setToolTip(message if message and self.shown_message() != message else "")

    def message_rect(self) -> QRect:
        """Where Qt draws a message: from 6 px to just before the first visible field
        (its size grip's room kept), the bar's height (``QStatusBarPrivate::messageRect``)."""
        left, right = 6, self.width() - 12
        rtl = self.layoutDirection() == Qt.LayoutDirection.RightToLeft
        for w in self.findChildren(QWidget):
            if w.parentWidget() is self and w.isVisible():
                if rtl:
                    left = max(left, w.geometry().right() + 2)
                else:
                    right = min(right, w.x() - 1)
        return QRect(left, 0, max(0, right - left), self.height())

    def shown_message(self) -> str:
        """The current message as drawn: whole if it fits, else cut with "…"."""
        rect = self.message_rect()
        return self.fontMetrics().elidedText(self.currentMessage(),
                                             Qt.TextElideMode.ElideRight, rect.width())

    def paintEvent(self, event) -> None:
        """Qt's own paint (the panel, each field's frame, the message), with the message
        elided to its room."""
        message = self.currentMessage()
        if not message:
            super().paintEvent(event)
            return
        p = QPainter(self)
        opt = QStyleOption()
        opt.initFrom(self)
        style = self.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, opt, p, self)
        for w in self.findChildren(QWidget):  # the fields: not the size grip
            if w.parentWidget() is self and w.isVisible() and not isinstance(w, QSizeGrip):
                frame = QStyleOption()
                frame.rect = w.geometry().adjusted(-2, -1, 2, 1)
                frame.palette = self.palette()
                style.drawPrimitive(QStyle.PrimitiveElement.PE_FrameStatusBarItem, frame, p, w)
        p.setPen(self.palette().windowText().color())
        p.drawText(self.message_rect(), int(Qt.AlignmentFlag.AlignLeading
                                            | Qt.AlignmentFlag.AlignVCenter
                                            | Qt.TextFlag.TextSingleLine), self.shown_message())
        p.end()
