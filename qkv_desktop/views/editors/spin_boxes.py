"""Spin boxes that say when a typed number is not taken as typed, and keep its digits.

Qt's spin boxes change typed numbers without a word: a key that takes the number past
the maximum is dropped (100000 typed in the d_k box up to 1024 read 1000), a number
below the minimum is replaced by the previous value once the editing ends (0 typed as
the custom divisor read 1.00 again), and a decimal past the box's few is dropped
(2.34567 typed as the divisor read 2.34). These keep the number as it is typed, take
the nearest value allowed when the editing ends (Enter, or the focus leaving), and
then emit ``said(text)``: "The custom divisor must be at least 0.01: 0 became 0.01."
Its owner shows the text where the user looks: the main window's docks send it to
``model.refused`` (the status bar); a lab window, the decoder panel and the model
dialog to their red line near the box (``say_briefly``: a lab has no status bar, and
the main window's is out of sight behind it). A minus sign typed where the minimum is 0
is kept too (Qt dropped it, and -1 read 1), so that "-1 became 0" can be said.

Every box reads a number by the tables' rule (``state.parsing.NUMBER``): scientific
notation too, in a whole-number box as well when its value is whole (1e3 is 1000; the
box dropped the "e" and read 13), a number too large for a float as infinite (1e400
becomes the maximum, said as 1e400), full-width digits as their ASCII selves. A
fraction in a whole-number box leaves the value as it was, said; a key no number can
take (a letter) is refused and said once, not once per key.

A double box keeps ``KEPT_DECIMALS`` decimals and writes its value with as many as it
has (``2.34567``, ``1000``, not ``2.35`` or ``1000.00``): the session stores the
divisor, the weight scale, a slope as a float, so the number typed is the number
used. Only a number with still more decimals is rounded, and that is said too.

``set_tip(text)`` gives a box its tool tip with its range after it ("From 1 to 1024."),
kept right when ``setRange`` changes it (so an owner sets the tip with ``set_tip``, not
``setToolTip``, which the next ``setRange`` would replace).
"""

from __future__ import annotations

import math
import re

from PySide6.QtCore import QCoreApplication, QEvent, QLocale, QObject, QSize, QTimer, Signal
from PySide6.QtGui import QKeySequence, QValidator
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QApplication,
    QDoubleSpinBox,
    QLabel,
    QSpinBox,
    QWidget,
)

from qkv_desktop.presentation.texts import between_hanzi_unspaced
from qkv_desktop.state.parsing import NUMBER, as_ascii
from qkv_desktop.views.editors.wheel_focus import WheelNeedsFocus
from qkv_desktop.views.styles import ERROR_STYLE

__all__ = ["ClampSayingSpinBox", "ClampSayingDoubleSpinBox", "ClampSayingWholeBox",
           "KEPT_DECIMALS", "SAID_MS", "say_briefly", "say_lasting", "holds_enter", "red_line",
           "apply_typing"]

KEPT_DECIMALS = 10
"""Decimals a double box keeps: more than a teaching example types (a float64 holds
about 15 significant digits in all, so a RoPE base of 10⁹ keeps fewer)."""

SAID_MS = 6000
"""How long ``say_briefly`` shows a text: as long as the status bar shows a refusal."""

translate = QCoreApplication.translate  # lupdate reads translate("ClampSaying", "…")

_NUMBER_BEGUN = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]*)(?:[eE][+-]?[0-9]*)?)?")
"""The start of a number as ``NUMBER`` (the tables' rule) reads it, with or without
its end: "-", ".", "1e", "2.5e-", "1e400". A box keeps it as typed and reads it when
the typing ends."""

_SIGNIFICANT = re.compile(r"[1-9]")

_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]*")
"""A decimal comma ("0,5"), being typed or typed: kept as typed, and when the typing
ends said and not taken, as the tables say it ("use a dot as the decimal separator").
Refused as a key, the comma left "05" in the weight scale, and Enter made it 5."""


def say_briefly(label: QLabel, text: str, ms: int = SAID_MS) -> None:
    """Show ``text`` in ``label`` (a lab's red line) for ``ms``, then its lasting text.

    A lab's line also holds lasting messages ("The KV-cache stepper decodes
    self-attention …"), which the lab sets with ``setText``: the line remembers the
    last of them apart from its notes, so when the last note's time is up that message
    comes back (or the line goes), however many notes came in a row. (It remembered
    "what the line said before", and a second note within the first one's time took the
    first note for that: the stale note came back and stayed.) A message the lab put
    there meanwhile stays.
    """
    shown = "" if label.isHidden() else label.text()
    if shown != label.property(_NOTE):  # the lab's own text, not one of our notes
        label.setProperty(_LASTING, shown)
    serial = (label.property(_SERIAL) or 0) + 1
    label.setProperty(_SERIAL, serial)
    label.setProperty(_NOTE, text)
    label.setText(text)
    label.show()

    def back() -> None:
        if label.property(_SERIAL) != serial:  # a later note: its own time decides
            return
        label.setProperty(_NOTE, None)
        if label.text() == text and not label.isHidden():
            lasting = label.property(_LASTING) or ""
            label.setText(lasting)
            label.setVisible(bool(lasting))
    QTimer.singleShot(ms, label, back)


def say_lasting(label: QLabel, text: str) -> None:
    """``text`` as the lasting text of ``label`` (a lab's red line; "" for none).

    A message replaces a note on show (``say_briefly``), but clearing the line does
    not: the note stays its time, and the line goes after it. (The gradient lab clears
    its line as it starts training, and the clamp of the learning rate typed, said as
    "Train" was clicked, vanished at once.)
    """
    note = label.property(_NOTE)
    if not text and note is not None and not label.isHidden() and label.text() == note:
        label.setProperty(_LASTING, "")
        return
    label.setText(text)
    label.setVisible(bool(text))


_NOTE, _LASTING, _SERIAL = "briefNote", "lastingText", "briefNoteSerial"
"""The label properties ``say_briefly`` keeps: the note on show, the lab's lasting text,
and which note is the last (an older note's time up leaves a newer one)."""


def red_line(name: str, keep_room: bool = True, lines: int = 1) -> QLabel:
    """A lab's red line (``name`` its object name), hidden until it says something.

    With ``keep_room`` its ``lines`` lines are kept while it is hidden, so a note
    appearing does not push the boxes below it down: they moved by a line, and the click
    the user aimed at the next box landed on another one. (A line below every box of its
    page may leave no room, where the page has none to spare.) Where a note wraps (a
    narrow dialog), room for two lines keeps the buttons below in place: a note of two
    lines in the room of one pushed OK down and was cut at its top and bottom, and OK,
    clicked where it had moved, moved back from under the pointer.
    """
    label = _RedLine(lines if keep_room else 0, objectName=name, wordWrap=True)
    label.setStyleSheet(ERROR_STYLE)
    if keep_room:
        policy = label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        label.setSizePolicy(policy)
    label.hide()
    return label


class _RedLine(QLabel):
    """A red line keeping room for ``lines`` lines of its font, the empty ones too, as
    its font changes (View → Zoom, presentation mode): room counted once in pixels
    held fewer lines than a zoomed note needed."""

    def __init__(self, lines: int, **kwargs):
        super().__init__(**kwargs)
        self._lines = lines
        self._keep_room()

    def _keep_room(self) -> None:
        if self._lines:
            self.setMinimumHeight(self._lines * self.fontMetrics().lineSpacing())

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._keep_room()


def apply_typing(window: QWidget | None = None) -> None:
    """The number typed in the focused box or table cell and not yet applied (a box
    applies it on Enter or when left: ``setKeyboardTracking(False)``; a cell on Enter,
    Tab or a click elsewhere), applied now, with its clamp or refusal said. Undo, Redo,
    Save, closing and every export call this first: Ctrl+Z undid an earlier step while
    the typed number vanished, Ctrl+S said "Saved" without it (a cell's too: the file
    kept the old value under the editor showing the new one), Ctrl+Q quit without
    asking, and an exported figure showed the number before it.

    With ``window``, the box is that window's focus widget, whether or not the window
    is the active one (a lab's buttons take no focus, and the box keeps it: "Train"
    trained at the learning rate before the one typed)."""
    focus = QApplication.focusWidget() if window is None else window.focusWidget()
    if _commit_cell_editor(focus):
        return
    box = focus
    while box is not None and not isinstance(box, _SaysClamp):
        box = box.parentWidget()
    if box is not None:
        box.interpretText()
        box._on_editing_finished()


def _commit_cell_editor(widget: QWidget | None) -> bool:
    """Give the cell editor holding ``widget`` (if any) to its table, as Enter does,
    through the delegate's own signals, and close it; whether there was one."""
    editor = widget
    while editor is not None:
        viewport = editor.parentWidget()
        view = None if viewport is None else viewport.parentWidget()
        if (isinstance(view, QAbstractItemView) and view.viewport() is viewport
                and view.state() == QAbstractItemView.State.EditingState):
            delegate = view.itemDelegateForIndex(view.currentIndex())
            delegate.commitData.emit(editor)
            delegate.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)
            return True
        editor = viewport
    return False


def holds_enter(*boxes) -> bool:
    """Whether one of ``boxes`` has just said a clamp, in the Enter that also pressed
    the dialog's OK: the dialog's ``accept`` then returns, the user reads the line, and
    a second Enter goes on with the clamped number."""
    return any(box.just_said for box in boxes)


class _SaysClamp(WheelNeedsFocus):
    """The shared part; ``said`` is each concrete class's signal. The wheel changes a box
    only once it has the keyboard (``WheelNeedsFocus``)."""

    subject = ""
    """What the message calls the number ("The learning rate"), set by the owner in the
    window's language."""

    _taken: tuple[str, float, str] | None = None
    """The number typed, the value it became and why ("above", "below", "rounded", or,
    the value kept, "unfinished": not a number yet, or "fraction": not a whole number
    in a whole-number box), until the editing ends."""

    _tip = ""

    whole = False
    """Whether the box takes whole numbers only (a typed fraction is refused)."""

    def _init_said(self) -> None:
        self.editingFinished.connect(self._on_editing_finished)
        # A typed number applies when Enter is pressed or the box is left (the arrows at
        # once): with every key applied, "16" typed as d_k applied 1 first, which RoPE
        # refused (odd), set the box back to 4 and left "46"; "128" drew weights for 1,
        # 12 and 128. Every box of the app is one of these, so the rule is the same in
        # all of them: what is said ("1e400 became …") is what the user finished typing.
        self.setKeyboardTracking(False)
        edit = self.lineEdit()
        edit.inputRejected.connect(self._on_input_rejected)
        edit.textEdited.connect(self._on_input_taken)
        edit.installEventFilter(self)  # keys sent to the line edit itself

    # ------------------------------------------------------------ typing
    # One rule for every box, the tables' (``state.parsing.NUMBER``): a number is
    # plain or in scientific notation, and a whole-number box takes any number whose
    # value is whole (1e3 is 1000, 2.5e3 is 2500). What is typed stays as typed until
    # the typing ends; then a number out of range becomes the bound, and one a box
    # cannot hold (2.5 in a whole-number box, "1e" unfinished) leaves the value as it
    # was, each said. (A whole-number box dropped the "e": 1e3 typed as the seed read
    # 13, and 1e400, too large for a float, lost its last 0 as the RoPE base and was
    # said as "1e40 became 1000000000".) A key no number can take is refused, and said.

    def validate(self, text: str, pos: int):
        # a Chinese input method's full-width "１ｅ３" or "。" typed, as the tables read
        # them (Qt refused them), and the "−" of a number copied from a pane
        text = as_ascii(text)
        state, text, pos = super().validate(text, pos)
        typed = self._typed(text)
        if self._decimal_comma(typed):
            state = QValidator.State.Intermediate  # shown as typed, said at the end
        elif state == QValidator.State.Invalid and self._may_become_number(typed):
            state = QValidator.State.Intermediate  # shown as typed, taken at the end
        return state, text, pos

    def _plain(self, typed: str) -> str:
        """``typed`` with the locale's decimal point and signs as ``NUMBER`` reads them."""
        locale = self.locale()
        return (typed.replace(locale.decimalPoint(), ".")
                .replace(locale.negativeSign(), "-").replace(locale.positiveSign(), "+"))

    def _may_become_number(self, typed: str) -> bool:
        """``typed`` is a number, or the start of one still being written ("-", "1e")."""
        return (self._number(typed) is not None
                or _NUMBER_BEGUN.fullmatch(self._plain(typed)) is not None)

    def _decimal_comma(self, typed: str) -> bool:
        """``typed`` writes a decimal comma (a decimal box; the locale's point is a dot)."""
        return (not self.whole and self.locale().decimalPoint() != ","
                and "," in typed and _DECIMAL_COMMA.fullmatch(self._plain(typed)) is not None)

    def fixup(self, text: str) -> str:
        typed = self._typed(text)
        if self._decimal_comma(typed):  # the value back (Qt's fixup drops the comma as
            # a group separator: 5), said as the tables say it
            self._taken = (typed, self.value(), "comma")
            return self.prefix() + self.textFromValue(self.value()) + self.suffix()
        taken = self._taken_for(text)
        if taken is not None:
            self._taken = (typed, *taken)
            # the whole text, as Qt's own fixup gives it: a box with a suffix ("×") read
            # "100×" after 100 typed had become 10
            return self.prefix() + self.textFromValue(taken[0]) + self.suffix()
        value = self._number(typed)
        if value is not None:  # taken as typed, written as the box writes it (1e3: 1000)
            return self.prefix() + self.textFromValue(self._held(value)) + self.suffix()
        if typed and _NUMBER_BEGUN.fullmatch(self._plain(typed)):
            # not a number yet ("2e", "-"): Qt puts the value back, said too
            self._taken = (typed, self.value(), "unfinished")
        return super().fixup(text)

    def _held(self, value: float):
        """``value`` as the box holds it (an int in a whole-number box)."""
        return int(value) if self.whole else value

    def _typed(self, text: str) -> str:
        return text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()

    def _number(self, typed: str) -> float | None:
        """The value ``typed`` stands for, in range or not, infinite if too large for a
        float ("1e400"); ``None``: not a number. A box that shows its values otherwise
        (counted from 1) says so here."""
        plain = self._plain(typed)
        if NUMBER.fullmatch(plain):
            return float(plain)
        if self._decimal_comma(typed):  # "0,5" is no 5 (the locale's group separator)
            return None
        value, ok = self.locale().toDouble(typed)  # with group separators: 1,000
        return value if ok and math.isfinite(value) else None

    def typed_value(self) -> float:
        """The value the text being typed would become when applied (clamped and
        rounded as the box does), or ``value()`` while it is no number yet: what a
        preview beside the box shows as the user types (the box applies on Enter)."""
        text = self.lineEdit().text()
        taken = self._taken_for(text)
        if taken is not None:
            return taken[0]
        typed = self._number(self._typed(text))
        return self.value() if typed is None else typed

    def _taken_for(self, text: str) -> tuple[float, str] | None:
        """The value a typed number becomes and why, or ``None`` (taken as typed, or no
        number)."""
        typed = self._typed(text)
        value = self._number(typed)
        if value is None:
            return None
        if value > self.maximum():
            return self.maximum(), "above"
        if value < self.minimum():
            return self.minimum(), "below"
        if self.whole and not value.is_integer():
            return self.value(), "fraction"
        if isinstance(self, QDoubleSpinBox):
            kept = round(value, self.decimals())
            # (1e-400 is 0 as a float already, and not what was typed)
            if kept != value or (kept == 0 and _SIGNIFICANT.search(typed.split("e")[0]
                                                                   .split("E")[0])):
                return kept, "rounded"
        return None

    def _on_editing_finished(self) -> None:
        self._refused_at = None
        taken, self._taken = self._taken, None
        # said only when that value was taken (a model that refused it said why itself
        # and set the box back)
        if taken is None or self.value() != taken[1]:
            return
        typed, value, why = taken
        self.said.emit(self.clamp_note(why, value, typed))
        self.just_said = True
        QTimer.singleShot(0, self, self._said_is_read)

    def clamp_note(self, why: str, value: float, typed: str) -> str:
        """What this box says of ``typed`` becoming ``value`` (``why``: "above", "below",
        "rounded", "unfinished", "fraction", "comma"); also for a change its owner made
        to it (the KV heads that follow the query heads down)."""
        name = self.subject or translate("ClampSaying", "The number")
        text = {"above": translate("ClampSaying", "{0} can be at most {1}: {2} became {1}."),
                "below": translate("ClampSaying", "{0} must be at least {1}: {2} became {1}."),
                "rounded": translate("ClampSaying", "{0} keeps {3} decimals: {2} became {1}."),
                "unfinished": translate("ClampSaying",
                                        "{0} needs a number: {2} is not one, so it stays {1}."),
                "fraction": translate("ClampSaying", "{0} is a whole number: {2} is not one, "
                                                     "so it stays {1}."),
                "comma": translate("ClampSaying", "{0} needs a dot as the decimal separator: "
                                                  "{2} is not taken, so it stays {1}."),
                }[why]
        return between_hanzi_unspaced(text.format(
            name, self.textFromValue(value), typed, getattr(self, "decimals", lambda: 0)()))

    # ------------------------------------------------------------ refused keys
    _refused_at: str | None = None
    """The text a refused key was said at: the next keys refused there are not (a key
    held down repeats, and each would say it again), until a key is taken, the text
    changes or the typing ends."""

    _input = ""
    """What the last key (or input method, or paste) brought, for the refusal to name."""

    _before: str | None = None
    """The text before the key being handled (Qt's inputRejected comes with the refused
    text still in the line: "1000" was "a", then "b", each a new text and said again);
    None once that key is handled: a paste by the context menu, which comes without a
    key, is refused at the text in the line. (Kept after its key, it was taken as where
    such a paste was refused: 3 typed after 12, a paste refused, the box set back to 12,
    and a letter typed there counted as refused at 12 already and went unsaid.)"""

    def keyPressEvent(self, event) -> None:
        self._heard(event)
        try:
            super().keyPressEvent(event)
        finally:
            self._before = None

    def inputMethodEvent(self, event) -> None:
        self._heard(event)
        try:
            super().inputMethodEvent(event)
        finally:
            self._before = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.lineEdit():
            self._heard(event)
        return super().eventFilter(watched, event)

    def _heard(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.InputMethod):
            self._before = self.lineEdit().text()
        if event.type() == QEvent.Type.KeyPress:
            if event.matches(QKeySequence.StandardKey.Paste):
                self._input = QApplication.clipboard().text()
            elif event.text().isprintable():
                self._input = event.text()
        elif event.type() == QEvent.Type.InputMethod and event.commitString():
            self._input = event.commitString()

    def _on_input_taken(self, _text: str = "") -> None:
        self._refused_at = None
        self._input = ""
        self._before = None  # (a key sent to the line edit itself ends here)

    def _on_input_rejected(self) -> None:
        """Qt refused a key (a letter, a second decimal point): said once, with why."""
        heard, self._input = self._input, ""
        before, self._before = self._before, None
        at = self.lineEdit().text() if before is None else before
        if self._refused_at == at:
            return
        if not heard and self.lineEdit().hasFocus():  # a paste by the context menu
            heard = QApplication.clipboard().text()
        heard = heard.strip()
        if not heard:
            return
        self._refused_at = at
        if len(heard) > 12:
            heard = heard[:11] + "…"
        name = self.subject or translate("ClampSaying", "The number")
        text = (translate("ClampSaying", "{0} takes a whole number such as 12 or 1e3: "
                                         "“{1}” cannot go there, so it was not typed.")
                if self.whole else
                translate("ClampSaying", "{0} takes a number such as 0.5 or 1e-3: "
                                         "“{1}” cannot go there, so it was not typed."))
        self.said.emit(text.format(name, heard))

    just_said = False
    """A clamp was said in the event being handled: an Enter that ended the typing also
    presses its dialog's OK, which must wait (``holds_enter``), or the dialog would go
    on with the clamped number and close over the line that says so."""

    def _said_is_read(self) -> None:
        self.just_said = False

    # ------------------------------------------------------------ tool tip
    def set_tip(self, text: str) -> None:
        """The tool tip: ``text``, then the range the box takes."""
        self._tip = text
        self._show_tip()

    def setRange(self, minimum, maximum) -> None:
        super().setRange(minimum, maximum)
        self._show_tip()

    def _show_tip(self) -> None:
        span = translate("ClampSaying", "From {0} to {1}.").format(
            self.textFromValue(self.minimum()), self.textFromValue(self.maximum()))
        self.setToolTip(f"{self._tip}\n{span}" if self._tip else span)


class ClampSayingSpinBox(_SaysClamp, QSpinBox):
    """A ``QSpinBox`` whose typed number beyond its range becomes the bound, said by
    ``said(text)``."""

    said = Signal(str)
    whole = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._init_said()


class ClampSayingDoubleSpinBox(_SaysClamp, QDoubleSpinBox):
    """A ``QDoubleSpinBox`` that keeps ``KEPT_DECIMALS`` decimals and shows no trailing
    zeros; a typed number beyond its range becomes the bound, one with more decimals is
    rounded, and either is said by ``said(text)``."""

    said = Signal(str)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setDecimals(KEPT_DECIMALS)
        self._init_said()

    ROOM = "0.00000"
    """The shortest number ``sizeHint`` leaves room for, whatever the bounds: a typed
    2.34567 read "34567" in the divisor box, sized for its bound "1000". (Not more: a
    spin box's size hint is its minimum width, and the labs must fit 1024 px.)"""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        bounds = max(metrics.horizontalAdvance(self.textFromValue(v))
                     for v in (self.minimum(), self.maximum()))
        extra = max(0, metrics.horizontalAdvance(self.ROOM) - bounds)
        return QSize(hint.width() + extra, hint.height())

    def textFromValue(self, value: float) -> str:
        """``value`` with the decimals it has, in the box's locale: ``2.34567``, ``1000``."""
        locale = self.locale()
        text = locale.toString(float(value), "f",
                               QLocale.FloatingPointPrecisionOption.FloatingPointShortest)
        if not self.isGroupSeparatorShown():
            text = text.replace(locale.groupSeparator(), "")
        return text


class ClampSayingWholeBox(ClampSayingDoubleSpinBox):
    """A ``ClampSayingSpinBox`` for whole numbers past a ``QSpinBox``'s 2³¹ − 1: a seed
    goes up to 2³² − 1 (NumPy's ``RandomState``), which a session file may hold, and
    ``QSpinBox.setValue`` raised ``OverflowError`` on it while the window set its controls
    from the opened session: every control after the seed kept the last session's
    value (a first user). A double holds every whole number up to 2⁵³ exactly.
    ``value()`` is an int, as a ``QSpinBox``'s; ``valueChanged`` still sends a float, so
    its owner takes ``int(value)``."""

    whole = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setDecimals(0)

    def value(self) -> int:
        return int(super().value())
