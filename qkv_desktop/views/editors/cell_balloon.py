"""A short-lived note beside a table cell or a control: why a value was not applied.

The learner's eye is on the cell they typed into, not on the status bar, so a
refusal is also shown there. Not ``QToolTip``: a tool tip hides on the next key
press or release anywhere, which the releasing Enter key that committed the value
already is. The balloon is a child of the table's window, not of its viewport: at
1024 × 700 the table shows two rows, and a note inside them was cut to a strip (a
first-time user). It goes when the table scrolls, since it no longer sits by its cell.

It goes when the learner has moved on (``leave_for``: an editor opens on another cell;
the table's current cell moves to another one, by a click or an arrow key; a click on
the table's empty part; the editor hides it when a typed value is taken or a change
lands; the keyboard goes to another control of its window), not only when its time is
up: a note left under the cell before read like a verdict on the next one, a cell's note
stayed over the table while the learner typed a new d_k (a user's re-check), and it
stayed while they clicked from cell to cell (a first-time user: the keyboard never left
the table). Escape on the widget it speaks of sends it away too (a refused d_k's note
stayed its 6 s after Escape).

A cell's note is no wider than its table: 360 px wide, it ran over the heatmaps beside a
narrow table and hid their row labels (a first-time user at 1024 × 700).

A control's refusal (RoPE chosen with an odd d_k: the box snaps back) is said under
the control too (``Balloon.show_below``): said in the status bar alone, it was at the
other end of the window from the box that snapped back (a first user).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    Qt,
    QTimer,
)
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QLabel,
    QTabWidget,
    QWidget,
)
from shiboken6 import isValid

__all__ = ["Balloon", "CellBalloon", "BALLOON_MS"]

BALLOON_MS = 6000
"""How long the note stays (the status bar keeps the message as long)."""


class Balloon(QLabel):
    """A tool-tip-coloured label placed just below (or above) a widget of its window,
    for ``BALLOON_MS``."""

    def __init__(self, anchor: QWidget):
        super().__init__(anchor)  # until it is placed: then a child of the anchor's window
        self.setObjectName("balloon")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.setAutoFillBackground(True)
        self.setFrameShape(QLabel.Shape.Box)
        self.setMargin(4)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()
        self._timer = QTimer(self, singleShot=True, interval=BALLOON_MS)
        self._timer.timeout.connect(self.hide)
        self._followed: set[QWidget] = set()  # the scroll areas and tabs that hide it
        self._about: QWidget | None = None  # the widget it speaks of
        self._focused = None  # the widget that had the keyboard when it was shown
        QApplication.instance().focusChanged.connect(self._on_focus_changed)

    def show_below(self, widget: QWidget, text: str) -> None:
        """Show ``text`` under ``widget`` (a control whose value was refused), until the
        scroll area or tab holding it moves it away (it would no longer sit by it)."""
        if not widget.isVisible():
            return
        self._speak_of(widget)
        self._place(widget, widget.rect(), max(min(widget.width(), 360), 220), text)
        holder = widget.parentWidget()
        while holder is not None and not holder.isWindow():
            if holder not in self._followed:
                self._followed.add(holder)
                if isinstance(holder, QAbstractScrollArea):
                    for bar in (holder.verticalScrollBar(), holder.horizontalScrollBar()):
                        bar.valueChanged.connect(self.hide)
                elif isinstance(holder, QTabWidget):
                    holder.currentChanged.connect(self.hide)
            holder = holder.parentWidget()

    def _place(self, widget: QWidget, rect: QRect, width: int, text: str) -> None:
        """Below ``rect`` (in ``widget``'s coordinates), or above it where the window has
        no room below, within the window."""
        host = widget.window()
        if self.parentWidget() is not host:
            self.setParent(host)  # (the anchor had no window yet when the balloon was made)
        rect = QRect(widget.mapTo(host, rect.topLeft()), rect.size())
        area = host.rect()
        self.setText(text)
        self.setFixedWidth(width)
        # as tall as its text wraps at that width: ``adjustSize`` took the height of the
        # label's preferred width, and a note narrower than that lost its last lines
        self.resize(width, self.heightForWidth(width))
        self.move(self._spot(rect, area))
        self.show()
        self.raise_()
        self._timer.start()
        self._focused = QApplication.focusWidget()

    def _spot(self, rect: QRect, area: QRect) -> QPoint:
        """Where the note goes by ``rect`` (in the window's ``area``): below it, or above
        it where the window has no room below."""
        x = min(max(rect.left(), 4), max(area.right() - self.width() - 4, 0))
        return QPoint(x, self._below_or_above(rect, area))

    def _below_or_above(self, rect: QRect, area: QRect) -> int:
        """The note's top: just below ``rect``, or just above it where ``area`` has no
        room below."""
        y = rect.bottom() + 2
        if y + self.height() > area.bottom():  # no room below: above it
            y = max(rect.top() - self.height() - 2, 0)
        return y

    def _speak_of(self, widget: QWidget) -> None:
        """The note is about ``widget`` (kept clear of the focus test; Escape on it
        sends the note away)."""
        if self._about is not widget:
            if self._about is not None and isValid(self._about):
                self._about.removeEventFilter(self)
            widget.installEventFilter(self)
            self._about = widget

    def eventFilter(self, watched, event) -> bool:
        if (watched is self._about and event.type() == QEvent.Type.KeyPress
                and event.key() == Qt.Key.Key_Escape and self.isVisible()):
            self.hide()  # and the widget has its Escape too
        return False

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """The keyboard went to another control of this window: the learner has moved
        on. (Not when it goes to nothing, to another window or to a menu's popup, nor to
        the widget the note speaks of or the one that had the keyboard when it came.)"""
        if not self.isVisible() or new is None or new.window() is not self.window():
            return
        for mine in (self._about, self._focused):
            if mine is not None and isValid(mine) and (mine is new or mine.isAncestorOf(new)):
                return
        self.hide()


class CellBalloon(Balloon):
    """A ``Balloon`` that ``show_at`` places by a cell of ``view``."""

    MIN_WIDTH = 220
    """The note's narrowest width (px), over a table narrower than that: a few words a
    line still read as a sentence."""

    def __init__(self, view: QAbstractItemView):
        super().__init__(view.viewport())
        self.view = view
        self.setObjectName("cellBalloon")
        self._cell = QPersistentModelIndex()  # the cell it speaks of
        self._fresh = False  # shown by the click or key being handled now
        self._lane = QRect()  # the table's viewport, in the window: the note stays over it
        for bar in (view.verticalScrollBar(), view.horizontalScrollBar()):
            bar.valueChanged.connect(self.hide)
        view.selectionModel().currentChanged.connect(self._on_current_changed)
        # a click on the table's empty part (below its rows, right of its columns)
        # moves no current cell, yet the learner has moved on (a re-checking user)
        self._viewport = view.viewport()
        self._viewport.installEventFilter(self)
        # Escape in a cell's editor ends there (the delegate takes it, the view never
        # sees it): the editor's close says so (a code review)
        view.itemDelegate().closeEditor.connect(self._on_editor_closed)

    def _spot(self, rect: QRect, area: QRect) -> QPoint:
        """Above the cell's row; on the cell's right where the window has no room above;
        below it only where neither fits. Below, the note covered the cell under it, the
        one Enter goes to next (a user's re-check). Across, within the table's viewport
        (``_lane``) where it is wide enough, and always within the window's ``area``."""
        lane = self._lane if self._lane.isValid() else area
        above = rect.top() - self.height() - 2
        if above >= area.top():
            return QPoint(self._x_by(rect.left(), lane, area), above)
        beside = rect.right() + 2
        room_to = min(lane.left() + lane.width(), area.left() + area.width()) - 4
        if beside + self.width() <= room_to:
            # level with the cell, yet all of it in the window (a cell near its bottom)
            top = max(min(rect.top(), area.top() + area.height() - self.height()), area.top())
            return QPoint(beside, top)
        return QPoint(self._x_by(rect.left(), lane, area), self._below_or_above(rect, area))

    def _x_by(self, left: int, lane: QRect, area: QRect) -> int:
        """The note's left edge, as near ``left`` as it can be with all of the note over
        ``lane`` (4 px in), or centred on a lane narrower than the note; in ``area``."""
        lowest, highest = lane.left() + 4, lane.left() + lane.width() - self.width() - 4
        x = min(max(left, lowest), highest) if highest >= lowest else (
            lane.left() + (lane.width() - self.width()) // 2)
        return max(min(x, area.left() + area.width() - self.width() - 4), area.left())

    def eventFilter(self, watched, event) -> bool:
        # (the event's type first: no call into a table that may be going away)
        if (event.type() == QEvent.Type.MouseButtonPress and watched is self._viewport
                and self.isVisible() and not self._fresh
                and not self.view.indexAt(event.position().toPoint()).isValid()):
            self.hide()  # (a click on a cell moves the current cell, or opens its editor)
        return super().eventFilter(watched, event)

    def _on_editor_closed(self, _editor, hint) -> None:
        """An editor closed with Escape (its typing reverted): the note has had its say."""
        if hint == QAbstractItemDelegate.EndEditHint.RevertModelCache:
            self.hide()

    def _on_current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        """The table's current cell moved (a click, an arrow key): the learner has moved
        on, though the keyboard stays in the table. Not by the very click or key that
        brought the note: a click on another cell commits the value typed in the open
        editor, and its refusal comes while that click moves the current cell (the note
        came and went at once, its reason never read by the cell)."""
        if self.isVisible() and not self._fresh:
            self.hide()

    def _settle(self) -> None:
        """The event that brought the note is over: a later move of the current cell
        takes it away."""
        self._fresh = False

    def leave_for(self, index: QModelIndex) -> None:
        """An editor opened on ``index``: the note goes unless it is about that very cell
        (retyping the refused value, its reason is still worth reading)."""
        same = (self._cell.isValid()
                and (self._cell.row(), self._cell.column()) == (index.row(), index.column()))
        if self.isVisible() and not same:
            self.hide()

    def show_at(self, index: QModelIndex, text: str) -> None:
        """Show ``text`` by the cell of ``index`` for ``BALLOON_MS``, within the window:
        above its row where there is room (see ``_spot``)."""
        if not index.isValid():
            return
        self.view.scrollTo(index)
        viewport = self.view.viewport()
        self._cell = QPersistentModelIndex(index)
        self._fresh = True
        QTimer.singleShot(0, self, self._settle)
        self._speak_of(self.view)  # its cells' editors are the view's too
        host = self.view.window()
        self._lane = QRect(viewport.mapTo(host, QPoint(0, 0)), viewport.size())
        self._place(viewport, self.view.visualRect(index), self._width_for(viewport), text)

    def _width_for(self, viewport: QWidget) -> int:
        """The note's width: its text wraps within the table's viewport (at most 360 px),
        yet never under ``MIN_WIDTH`` to be read, nor wider than the window."""
        width = max(min(viewport.width() - 8, 360), self.MIN_WIDTH)
        return max(min(width, viewport.window().width() - 8), 1)
