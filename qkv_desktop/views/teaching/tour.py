"""Help → Getting started: a short guided tour over the live window.

Five steps, each a note beside the part of the window it is about (outlined): edit a
value, watch every pane change, hover a weight, click it to explain, try the scaling
lab. The window stays live, so the learner does each step while reading it; Back,
Next and "Skip the tour" (or Esc) are always there. The launcher offers it once, on
the first start (``offer_once``); Help → Getting started shows it again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

__all__ = ["Tour", "offer_once", "OFFERED_KEY"]

OFFERED_KEY = "tour/offered"
EXPLAINED = ("weights", "scaled", "scores")
"""Panes whose pinned cell the Explain panel writes out as step 4 says."""
NOTE_WIDTH = 330
MARGIN = 10


@dataclass(frozen=True)
class Step:
    target: Callable[[], QWidget]
    title: str
    text: str
    dock: Callable[[], QWidget] | None = None  # brought to the front of its tab group
    also: Callable[[], list[QWidget]] | None = None
    """What the step's text points at besides its target: the note leaves it clear too."""
    front: Callable[[], None] | None = None
    """Brings what the text names to the front of its tabs as the step shows (the table
    X, which the Positions tab hid while step 1 said "this table is X")."""
    area: Callable[[], QRect] | None = None
    """The part of the target outlined, in its own coordinates (the Lab menu's title in
    the menu bar, which was outlined whole); ``None``: all of it."""


class _Outline(QWidget):
    """An orange frame around the step's target, drawn over the window, never in the way."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.target = QRect()

    def paintEvent(self, _event) -> None:
        if self.target.isNull():
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(255, 140, 0), 3))
        p.drawRoundedRect(self.target.adjusted(2, 2, -2, -2), 6, 6)


class Tour(QObject):
    """The tour of ``window`` (a ``MainWindow``); ``start()`` shows its first step."""

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        self.index = -1
        self.outline = _Outline(window)
        self.outline.hide()
        self.note = QFrame(window, objectName="tourNote")
        self.note.setFrameShape(QFrame.Shape.StyledPanel)
        self.note.setStyleSheet("QFrame#tourNote { background: #fffbe6; border: 2px solid "
                                "#ff8c00; border-radius: 6px; }")
        self.title = QLabel(objectName="tourTitle")
        self.text = QLabel(objectName="tourText")
        self.text.setWordWrap(True)
        self.counter = QLabel(objectName="tourCounter")
        self.back_button = QPushButton(objectName="tourBack")
        self.next_button = QPushButton(objectName="tourNext")
        self.skip_button = QPushButton(objectName="tourSkip")
        self.next_button.setDefault(True)
        self.back_button.clicked.connect(lambda: self.show_step(self.index - 1))
        self.next_button.clicked.connect(self._next)
        self.skip_button.clicked.connect(self.stop)
        self._x_at_step_1 = None  # X when step 1 ("Edit a value") was shown
        self._x_at_start = None  # X when the tour started: step 2 says if it was edited
        self._watched: list[QWidget] = []
        """The step's target and its parents up to the window: their moves and resizes
        place the note again (``_follow_target``)."""
        self._replace = QTimer(self, singleShot=True, interval=0, timeout=self._place)
        window.model.changed.connect(self._on_model_changed)
        window.panes.cellPinned.connect(self._on_pinned)  # a click, not a pin that moved
        buttons = QHBoxLayout()
        buttons.addWidget(self.counter, 1)
        for b in (self.skip_button, self.back_button, self.next_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self.note)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        self.note.setFixedWidth(NOTE_WIDTH)
        self.note.hide()
        window.installEventFilter(self)

    def steps(self) -> list[Step]:
        w = self.window
        docks = w.teaching.docks
        return [
            # the table with its tabs: a note above the table alone lay over the tab
            # bar ("Tokens (X)", W_Q …) at 1024 × 700
            Step(lambda: w.tabs, self.tr("1 · Edit a value"), self.tr(
                "This table is X: one row per token, one column per dimension. Double-click "
                "a value (or type over it), enter a new number and press Enter."),
                 lambda: w.editor_dock, front=lambda: w.tabs.setCurrentWidget(w.token_tables)),
            Step(lambda: w.panes, self.tr("2 · Watch every pane change"), self.tr(
                "Q, K and V, the scores QKᵀ, the scaled scores, the weights and the output "
                "are all recomputed from your edit at once: see which cells moved.")
                 if self._edited() else self.tr(
                "Q, K and V, the scores QKᵀ, the scaled scores, the weights and the output "
                "are all recomputed the moment a value of X changes: edit one in the table "
                "and see which cells move.")),
            Step(lambda: w.panes.panes["weights"], self.tr("3 · Hover a weight"), self.tr(
                "Point at a weight: the status bar says how it is computed; orange outlines "
                "show the cells it comes from, and the row of V it weighs into the output."),
                 also=lambda: [docks["explain"], w.statusBar()]),
            Step(lambda: docks["explain"], self.tr("4 · Click it to have it explained"),
                 self.tr("Click the cell to pin it: the Explain panel writes out its whole "
                         "computation with this session's numbers. Click it again to unpin."),
                 lambda: docks["explain"]),
            Step(lambda: w.menuBar(), self.tr("5 · Try the scaling lab"), self.tr(
                "Lab → Scaling lab (Ctrl+L) shows why the scores are divided by √d_k. Help → "
                "Getting started brings this tour back."),
                 # the Explain panel step 4 had the learner read stays in view (the note
                 # lay over its first formula, a first user at 1024 × 700)
                 also=lambda: [docks["explain"]],
                 area=lambda: w.menuBar().actionGeometry(w.teaching.lab_menu.menuAction())),
        ]

    # ------------------------------------------------------------- control
    @property
    def running(self) -> bool:
        return self.index >= 0

    def start(self) -> None:
        self._x_at_start = self.window.model.state.X
        self.show_step(0)

    def _edited(self) -> bool:
        """Whether X changed since the tour started (step 1's edit was made)."""
        x, start = self.window.model.state.X, self._x_at_start
        return start is not None and x is not start and not (
            x.shape == start.shape and np.array_equal(x, start))

    def stop(self) -> None:
        self.index = -1
        self._replace.stop()
        self._follow_target(None)
        self.note.hide()
        self.outline.hide()

    def _follow_target(self, target: QWidget | None) -> None:
        """Watch ``target`` and its parents below the window: a dock re-placed, raised
        or tabbed away moves them after the window's own resize (the frame cut through
        the table's last column, or framed an empty panel)."""
        for widget in self._watched:
            try:
                widget.removeEventFilter(self)
            except RuntimeError:  # deleted meanwhile
                pass
        self._watched = []
        while target is not None and target is not self.window:
            target.installEventFilter(self)
            self._watched.append(target)
            target = target.parentWidget()

    def _next(self) -> None:
        if self.index + 1 >= len(self.steps()):
            self.stop()
        else:
            self.show_step(self.index + 1)

    def _on_model_changed(self) -> None:
        """Step 1 asks for an edit of X: once one is made, step 2 shows (a first-time
        user typed the value and the note stayed, waiting for Next)."""
        if self.index != 0 or self._x_at_step_1 is None:
            return
        x = self.window.model.state.X  # (another change may give the state a new X array)
        if x is not self._x_at_step_1 and not np.array_equal(x, self._x_at_step_1):
            self.show_step(1)

    def _on_pinned(self, ref) -> None:
        """A cell pinned at step 3 (hover a weight) or 4 (click it): the next step shows.
        Pinning raised the Explain panel over the note, which then seemed gone, and the
        tour stayed at step 3 (a first-time user)."""
        if ref is None or ref.matrix not in EXPLAINED:
            return
        if self.index == 2:
            self.show_step(3)  # where the explanation went
        elif self.index == 3:
            self.show_step(4)

    def show_step(self, index: int) -> None:
        steps = self.steps()
        self.index = max(0, min(index, len(steps) - 1))
        self._x_at_step_1 = self.window.model.state.X if self.index == 0 else None
        step = steps[self.index]
        if step.dock is not None:
            step.dock().show()
            step.dock().raise_()
        if step.front is not None:
            step.front()
        self._follow_target(step.target())
        self.title.setText(f"<b>{step.title}</b>")
        pin = self.window.model.selection
        if self.index == 3 and pin is not None and pin.matrix in EXPLAINED:
            self.text.setText(self.tr(  # pinned at step 3 already: no "click it" again
                "The cell is pinned: the Explain panel writes out its whole computation "
                "with this session's numbers. Click it again to unpin."))
        else:
            self.text.setText(step.text)
        self.counter.setText(self.tr("{0} of {1}").format(self.index + 1, len(steps)))
        self.back_button.setText(self.tr("Back"))
        self.back_button.setEnabled(self.index > 0)
        last = self.index == len(steps) - 1
        self.next_button.setText(self.tr("Done") if last else self.tr("Next"))
        self.skip_button.setText(self.tr("Skip the tour"))
        self.skip_button.setVisible(not last)
        self._place()

    def target_in_sight(self) -> bool:
        """Whether some of the step's target is on screen (a dock behind a tab is moved
        out of the window, not hidden)."""
        target = self.steps()[self.index].target()
        return target.isVisible() and not target.visibleRegion().isEmpty()

    def target_rect(self) -> QRect:
        """The part of the step's target on screen, in window coordinates (a table in
        the scrolled editor may be partly out of sight)."""
        step = self.steps()[self.index]
        target = step.target()
        shown = target.visibleRegion().boundingRect()
        if shown.isEmpty():
            shown = target.rect()
        if step.area is not None:
            shown = shown.intersected(step.area())
        return QRect(target.mapTo(self.window, shown.topLeft()), shown.size())

    def _in_window(self, widget: QWidget) -> QRect:
        """The part of ``widget`` on screen, in window coordinates (empty if hidden)."""
        if not widget.isVisible():
            return QRect()
        shown = widget.visibleRegion().boundingRect()
        return QRect(widget.mapTo(self.window, shown.topLeft()), shown.size())

    def keep_clear(self, target: QRect) -> list[QRect]:
        """What the note should not cover, most important first: its target, what its
        step points at besides (``Step.also``), the lesson banner above the panes, and
        the panes. Step 3's note right of the weights lay over the output pane's title
        at 1920 × 1080, though the editor beside had room; then left of them, over the
        Explain panel's hint that its next step is about; step 4's over the banner's
        text at 1024 × 700 and 1366 × 768."""
        also = self.steps()[self.index].also
        pointed = [self._in_window(w) for w in also()] if also is not None else []
        banners = self._in_window(self.window.teaching.banners)
        grid = self._in_window(self.window.panes)
        return [target] + [r for r in (*pointed, banners, grid) if not r.isEmpty()]

    def _place(self) -> None:
        """The note beside its target (right, left, below, above), inside the window:
        the first spot that covers none of ``keep_clear``, else none of its earlier
        entries (the target before the banner before the panes), compared in that
        order; beside a tall target also just below the banner, so that a note at the
        target's top does not hide it. With no spot inside the window, the one nearest
        inside, that covers the least of the target."""
        if not self.running:
            return
        area = self.window.rect()
        target = self.target_rect()
        # as high as the wrapped text needs at the note's fixed width: ``adjustSize``
        # takes the size hint, which wraps the text at another width (step 3 in Chinese
        # at 1024 × 700 lost its first and last lines: a first user)
        self.note.adjustSize()
        self.note.resize(NOTE_WIDTH, max(self.note.heightForWidth(NOTE_WIDTH),
                                         self.note.sizeHint().height()))
        size = self.note.size()
        clear = self.keep_clear(target)
        candidates = [
            QPoint(target.right() + MARGIN, target.top()),
            QPoint(target.left() - size.width() - MARGIN, target.top()),
            QPoint(target.left(), target.bottom() + MARGIN),
            QPoint(target.left(), target.top() - size.height() - MARGIN),
            QPoint(target.right() - size.width(), target.bottom() + MARGIN),
            QPoint(target.right() - size.width(), target.top() - size.height() - MARGIN),
        ]
        banners = self._in_window(self.window.teaching.banners)
        below = banners.bottom() + MARGIN
        if not banners.isEmpty() and target.top() < below < target.bottom() - size.height():
            candidates += [QPoint(target.right() + MARGIN, below),
                           QPoint(target.left() - size.width() - MARGIN, below)]
        # beside the target, slid up or down to just clear what it should not cover (at
        # 1920 × 1080 step 3's note left of the weights lay on the Explain panel below
        # the editor, whose empty part above had room)
        for rect in clear[1:]:
            for y in (rect.top() - size.height() - MARGIN, rect.bottom() + MARGIN):
                candidates += [QPoint(target.right() + MARGIN, y),
                               QPoint(target.left() - size.width() - MARGIN, y)]
        # right of what the step points at besides, below the banner: step 5's menu
        # sits over the Explain panel filling the window's left side, and beside the
        # menu the note lay over that panel's first formula (a first user)
        also = self.steps()[self.index].also
        top = max(target.bottom(), banners.bottom() if not banners.isEmpty() else 0) + MARGIN
        for widget in also() if also is not None else ():
            shown = self._in_window(widget)
            if not shown.isEmpty():
                candidates.append(QPoint(shown.right() + MARGIN, top))
        # beside what the note should leave clear, at the heights above: with the causal
        # mask's pane the weights are in the grid's right column, and step 3's note left
        # of them lay over the scaled scores the hover outlines (zh_CN at 1024 × 700),
        # where left of the whole grid had room
        heights = [target.top()] + [y for rect in clear[1:] for y in (
            rect.top() - size.height() - MARGIN, rect.bottom() + MARGIN)]
        for rect in clear[1:]:
            candidates += [QPoint(x, y) for y in heights for x in (
                rect.left() - size.width() - MARGIN, rect.right() + MARGIN)]
        inside = [p for p in candidates if area.contains(QRect(p, size))]
        if not inside:  # a window too small for any: each spot slid into it instead
            inside = [QPoint(min(max(p.x(), 0), max(area.width() - size.width(), 0)),
                             min(max(p.y(), 0), max(area.height() - size.height(), 0)))
                      for p in candidates]
        # stable: among spots that cover the same, the first of ``candidates``
        inside.sort(key=lambda p: self._covered(QRect(p, size), clear))
        spot = inside[0]
        self.note.move(spot)
        self.outline.setGeometry(area)
        self.outline.target = target
        # a target out of sight (its dock behind another tab) gets no frame around
        # the panel in its place; the note stays, for Next, Back or Skip
        self.outline.setVisible(self.target_in_sight())
        self.outline.raise_()
        self.note.show()
        self.note.raise_()

    @staticmethod
    def _covered(note: QRect, clear: list[QRect]) -> tuple:
        """What ``note`` covers of ``clear`` (``keep_clear``), to compare spots by: how
        much of the target, then whether each of the rest, in their order. A spot that
        must cover the target covers as little of it as it can."""
        over = note.intersected(clear[0])
        return (over.width() * over.height() if not over.isEmpty() else 0,
                *(note.intersects(c) for c in clear[1:]))

    def eventFilter(self, watched, event) -> bool:
        if self.running and watched in self._watched and event.type() in (
                QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide):
            self._replace.start()  # once, after the layout has placed them all
            return False
        if watched is self.window and self.running:
            if event.type() == QEvent.Type.Resize:
                self._place()
                # and again once the window has laid out its new size: across 860 px the
                # docks move in this very resize, and the note placed beside the table
                # where it was went to the window's corner, the table elsewhere
                self._replace.start()
            elif (event.type() == QEvent.Type.ShortcutOverride
                  and event.key() == Qt.Key.Key_Escape):
                self.stop()
                return True
        return False


def offer_once(window, settings: QSettings) -> bool:
    """Start the tour on the very first start, never again; whether it started."""
    if settings.value(OFFERED_KEY, False) in (True, "true"):
        return False
    settings.setValue(OFFERED_KEY, True)
    window.tour.start()
    return True
