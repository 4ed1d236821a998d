"""What every "how attention runs and learns" lab shares: keys, playing, exporting.

A lab is a top-level window on the session's own numbers. Esc and Ctrl+W close it;
space plays or pauses its steps (or starts/stops training), ← and → step back and
forward. "Export view…" writes the window's current picture as PNG, SVG or PDF;
"Export steps (PDF)…" writes one page per step for a handout.

A lab's buttons (``lab_button``) take no focus, so that space stays the lab's: a number
typed in one of its boxes without Enter is then still being typed when a button is
clicked, and the button applies it (with its clamp said) before it acts, as the keys
do: "Train 200 steps" after 1000 typed as the learning rate trained at the rate before.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from qkv_desktop.export.lab_export import save_steps_pdf, save_widget
from qkv_desktop.presentation.texts import say
from qkv_desktop.views.editors.spin_boxes import (
    ClampSayingSpinBox,
    apply_typing,
    red_line,
    say_briefly,
    say_lasting,
)
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.start_folder import start_folder

__all__ = ["LabWindow", "StepControls", "lab_button", "applies_typing_first"]


def lab_button(name: str) -> QPushButton:
    """A lab's button: it takes no focus (space and the arrows belong to the lab) and
    applies the number typed in its window's box before its ``clicked`` acts."""
    button = QPushButton(objectName=name)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    button.pressed.connect(lambda: apply_typing(button.window()))
    return button


def applies_typing_first(widget: QAbstractSlider | QTabWidget) -> QAbstractSlider | QTabWidget:
    """``widget``, a slider or a lab's tabs (taking no focus), applies the number typed
    in its window's box before the value it is moved to or the tab clicked acts: a block
    size dragged after 1000 typed as the factor redrew the row at the factor before, and
    a tab clicked after 50 typed as the steps per second left "50" in the box, unsaid
    (the box, outside the tabs, kept the focus)."""
    if isinstance(widget, QTabWidget):
        # pressed on the tab bar, before the tab changes
        widget.tabBarClicked.connect(lambda _index: apply_typing(widget.window()))
    else:
        widget.actionTriggered.connect(lambda _action: apply_typing(widget.window()))
    return widget


class StepControls(QWidget):
    """Reset, back, step, play/pause and the "step k of n" label, driving a ``LabWindow``."""

    def __init__(self, lab: LabWindow, parent: QWidget | None = None):
        super().__init__(parent)
        self.lab = lab
        self.reset = lab_button("labReset")
        self.back = lab_button("labBack")
        self.step = lab_button("labStep")
        self.play = lab_button("labPlay")
        self.speed = ClampSayingSpinBox(objectName="labSpeed")
        self.speed.setRange(1, 20)
        self.speed.setValue(2)
        self.speed.said.connect(lab.show_note)
        self.speed_label = QLabel()
        self.where = QLabel(objectName="labWhere")
        self.reset.clicked.connect(lambda: lab.go_to(0))
        self.back.clicked.connect(lab.step_back)
        self.step.clicked.connect(lab.step_forward)
        self.play.clicked.connect(lab.toggle_play)
        self.speed.valueChanged.connect(lambda v: lab.timer.setInterval(int(1000 / v)))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for w in self.clickables():
            row.addWidget(w)
        row.addWidget(self.where, 1)
        self.retranslate()

    def clickables(self) -> tuple[QWidget, ...]:
        """The buttons and the speed box: all but "step k of n", which a handout's page
        keeps (``LabWindow.export_steps``)."""
        return self.reset, self.back, self.step, self.play, self.speed_label, self.speed

    def retranslate(self) -> None:
        self.reset.setText(self.tr("Reset"))
        self.back.setText(self.tr("◀ Back"))
        self.step.setText(self.tr("Step ▶"))
        self.speed_label.setText(self.tr("steps/s"))
        self.speed.subject = self.tr("The steps per second")
        self.speed.set_tip(self.tr("Steps played per second"))
        self.reset.setToolTip(self.tr("Back to the first step"))
        self.back.setToolTip(self.tr("One step back (←)"))
        self.step.setToolTip(self.tr("One step forward (→)"))
        self.play.setToolTip(self.tr("Play or pause the steps (space)"))
        self.show_state()

    def show_state(self) -> None:
        lab = self.lab
        # The style's own play and pause icons, not "⏸" in the text: no font here has
        # that glyph, and the button showed an empty box before "Pause" (a review).
        playing = lab.timer.isActive()
        self.play.setText(self.tr("Pause") if playing else self.tr("Play"))
        self.play.setIcon(self.style().standardIcon(
            QStyle.StandardPixmap.SP_MediaPause if playing
            else QStyle.StandardPixmap.SP_MediaPlay))
        self.where.setText(self.tr("step {0} of {1}").format(lab.position + 1, lab.step_count())
                           if lab.step_count() else self.tr("no steps"))
        self.back.setEnabled(lab.position > 0)
        self.step.setEnabled(lab.position < lab.step_count() - 1)
        # nothing to play, rewind or print while the lab has no steps (a session it
        # refuses): enabled, Play seemed to start something
        self.play.setEnabled(lab.step_count() > 0 or lab.timer.isActive())
        self.reset.setEnabled(lab.step_count() > 0)
        lab.export_steps_button.setEnabled(lab.step_count() > 0)


class LabWindow(Retranslating, QWidget):
    """Base of the labs: a window with a current ``position`` among ``step_count()`` steps.

    Subclasses implement ``step_count()``, ``show_step()`` (draw ``position``) and
    ``retranslate()``; ``space_pressed`` defaults to play/pause.
    """

    EXPORT_FILTER = "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.position = 0
        self.timer = QTimer(self)
        self.timer.setInterval(500)
        self.timer.timeout.connect(self._tick)
        self.export_view_button = lab_button("labExportView")
        self.export_steps_button = lab_button("labExportSteps")
        self.export_view_button.clicked.connect(self._ask_export_view)
        self.export_steps_button.clicked.connect(self._ask_export_steps)
        self.error = red_line("labError")

    KEYS = {Qt.Key.Key_Escape: "close", Qt.Key.Key_Space: "space_pressed",
            Qt.Key.Key_Right: "step_forward", Qt.Key.Key_Left: "step_back"}
    """Unmodified keys the lab takes from whichever of its widgets has the focus."""

    TYPING = (QLineEdit, QAbstractSpinBox, QTextEdit, QPlainTextEdit)
    """Widgets that keep space and the arrows while focused (the learner is typing)."""

    def eventFilter(self, watched, event) -> bool:
        """Space, ←, →, Esc and Ctrl+W act on the lab wherever its focus is (a combo box,
        a slider); only a text or number field being typed in keeps space and arrows."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(watched, QWidget) \
                or QWidget.window(watched) is not self:  # (a widget may have its own
            # attribute named window: the mask's window box was one)
            return False
        key, mods = Qt.Key(event.key()), event.modifiers()
        if key == Qt.Key.Key_W and mods == Qt.KeyboardModifier.ControlModifier:
            apply_typing(self)
            self.close()
            return True
        name = self.KEYS.get(key) if mods == Qt.KeyboardModifier.NoModifier else None
        if name is None or (key != Qt.Key.Key_Escape and isinstance(watched, self.TYPING)):
            return False
        apply_typing(self)  # the number typed, as the buttons apply it
        getattr(self, name)()
        return True

    # ----------------------------------------------------------------- stepping
    def step_count(self) -> int:
        raise NotImplementedError

    def show_step(self) -> None:
        raise NotImplementedError

    def controls_changed(self) -> None:
        """Refresh the step controls, if the lab has them."""
        controls = getattr(self, "controls", None)
        if controls is not None:
            controls.show_state()

    def go_to(self, position: int) -> None:
        n = self.step_count()
        self.position = max(0, min(int(position), n - 1)) if n else 0
        self.show_step()
        self.controls_changed()

    def step_forward(self) -> None:
        if self.position < self.step_count() - 1:
            self.go_to(self.position + 1)
        else:
            self.pause()

    def step_back(self) -> None:
        self.go_to(self.position - 1)

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.pause()
            return
        if not self.step_count():  # nothing to play (space, as Play, is off then)
            return
        if self.position >= self.step_count() - 1:
            self.go_to(0)
        self.timer.start()
        self.controls_changed()

    def pause(self) -> None:
        self.timer.stop()
        self.controls_changed()

    def _tick(self) -> None:
        self.step_forward()

    def space_pressed(self) -> None:
        self.toggle_play()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QApplication.instance().installEventFilter(self)
        if not event.spontaneous():
            # Qt gives a new window's focus to its first field (the KV stepper's
            # steps/s box), which keeps space and the arrows: the lab's keys did
            # nothing until a click elsewhere. The lab itself takes it instead; Tab or
            # a click still reaches every field.
            QTimer.singleShot(0, self._take_focus)

    def _take_focus(self) -> None:
        focus = QApplication.focusWidget()
        if self.isVisible() and (focus is None or focus.window() is not self
                                 or isinstance(focus, self.TYPING)):
            self.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def hideEvent(self, event) -> None:
        QApplication.instance().removeEventFilter(self)
        super().hideEvent(event)

    def closeEvent(self, event) -> None:
        self.pause()
        super().closeEvent(event)

    # ---------------------------------------------------------------- exporting
    def retranslate_export(self) -> None:
        self.export_view_button.setText(self.tr("Export view…"))
        self.export_view_button.setToolTip(self.tr("Save this window as a PNG, SVG or PDF "
                                                   "picture"))
        self.export_steps_button.setText(self.tr("Export steps (PDF)…"))
        self.export_steps_button.setToolTip(self.tr("Save every step as one page of a PDF, "
                                                    "for a handout"))

    def show_error(self, text: str) -> None:
        say_lasting(self.error, text)

    def show_note(self, text: str) -> None:
        """``text`` on the error line for a while (a typed number the lab's boxes took
        otherwise: a lab has no status bar, and the main window's is out of sight)."""
        say_briefly(self.error, text)

    def export_view(self, path) -> None:
        """Write the window's current picture to ``path`` (PNG, SVG or PDF by extension)."""
        save_widget(self, path, self.windowTitle())

    def export_steps(self, path) -> None:
        """Write every step, one PDF page each; the lab returns to the step it was on.

        A page shows the lab's content and "step k of n" without the controls (Reset,
        Back, Step, Play, the steps per second, the Export buttons): what to read on
        paper, not what to click. They are hidden while the pages are drawn."""
        here = self.position
        self.pause()
        steppers = getattr(self, "controls", None)
        clickables = steppers.clickables() if steppers is not None else ()
        controls = [w for w in (*clickables, self.export_view_button, self.export_steps_button)
                    if not w.isHidden()]
        focus = self.focusWidget()
        for widget in controls:
            widget.hide()
        try:
            save_steps_pdf(self, (lambda k=k: self.go_to(k) for k in range(self.step_count())),
                           path, self.windowTitle())
        finally:
            for widget in controls:
                widget.show()
            if focus is not None and focus.isVisible():
                focus.setFocus()  # (a hidden box loses it)
            self.go_to(here)

    def file_stem(self) -> str:
        """The lab's exports' default name, readable: "kv-cache" for the "kvCacheLab"."""
        name = self.objectName().removesuffix("Lab") or "lab"
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()

    def _ask_path(self, title: str, name: str, filters: str) -> str:
        """A file from the save dialog ("" when cancelled), starting where the window's
        exports do (``ExportActions.folder``: the last export's folder, else the session
        file's, else Documents; a lab started in the home folder), which it remembers."""
        exports = getattr(self.parentWidget(), "exports", None)
        folder = exports.folder() if exports is not None else start_folder()
        path, _ = QFileDialog.getSaveFileName(self, title, str(folder / name), filters)
        if path and exports is not None:
            exports.remember_folder(Path(path).parent)
        return path

    def _ask_export_view(self) -> None:
        path = self._ask_path(self.tr("Export view"), f"{self.file_stem()}.png",
                              self.EXPORT_FILTER)
        if path:
            self._run_export(self.export_view, path)

    def _ask_export_steps(self) -> None:
        path = self._ask_path(self.tr("Export steps"), f"{self.file_stem()}-steps.pdf",
                              "PDF (*.pdf)")
        if path:
            self._run_export(self.export_steps, path)

    def _run_export(self, export, path) -> None:
        try:
            export(path)
        except (OSError, ValueError) as exc:
            self.show_error(self.tr("Not exported: {0}").format(say(exc)))
        else:
            self.show_error("")
