"""Scrolling a panel with the wheel changes none of the controls that pass under the
pointer (a first-time user scrolled the "Positions, mask" tab and the mask's window
went from off to 2); a control that has the keyboard still takes the wheel. Focus
needs a real display, so the focused half runs under Xvfb."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QSlider

from tests.xdisplay import run_on_display


def turn_wheel(widget, notches: int = -1) -> bool:
    """One wheel turn over the middle of ``widget``; whether the widget took it. (Qt
    hands a real turn that a widget ignores to its parents, the scroll area among them;
    a turn sent like this one stops at the widget.)"""
    at = QPointF(widget.rect().center())
    event = QWheelEvent(at, QPointF(widget.mapToGlobal(at.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
    return event.isAccepted()


def test_a_wheel_turn_over_an_unfocused_control_scrolls_the_panel_instead(main_window, qtbot):
    w, m = main_window, main_window.model
    if QApplication.focusWidget() is not None:  # (the module's window: an earlier test's)
        QApplication.focusWidget().clearFocus()
    w.resize(1024, 700)
    w.tabs.setCurrentWidget(w.positions_scroll)
    panel = w.positions_panel
    qtbot.waitUntil(panel.window_box.isVisible)
    state = m.state
    boxes = [panel.window_box, panel.prefix, panel.sinks, panel.positions,
             w.controls.d_k, w.controls.mode, w.controls.temperature]
    try:
        for box in boxes:
            assert not turn_wheel(box, -1), box.objectName()  # left to the panel
            assert not turn_wheel(box, 1), box.objectName()
            assert m.state is state, box.objectName()  # nothing changed, nothing to undo
        assert all(b.focusPolicy() == Qt.FocusPolicy.StrongFocus for b in boxes)
    finally:
        w.tabs.setCurrentIndex(0)


def test_every_combo_box_and_slider_of_the_window_and_labs_needs_the_keyboard(main_window):
    """One rule for all: a plain ``QComboBox`` or ``QSlider`` would take the wheel."""
    from qkv_desktop.views.teaching.run_labs import LABS
    w = main_window
    windows = [w, w.teaching.lab, w.teaching.rope_lab] + [w.run_labs.lab(k) for k in LABS]
    plain = [c.objectName() for t in windows for kind in (QComboBox, QSlider)
             for c in t.findChildren(kind) if type(c).wheelEvent is kind.wheelEvent]
    assert not plain, plain


@pytest.mark.xvfb
def test_a_control_with_the_keyboard_still_takes_the_wheel(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtCore import QPoint, QPointF
        from PySide6.QtGui import QWheelEvent
        d_k = window.controls.d_k
        at = QPointF(d_k.rect().center())

        def turn():
            QApplication.sendEvent(d_k, QWheelEvent(
                at, QPointF(d_k.mapToGlobal(at.toPoint())), QPoint(0, 0), QPoint(0, 120),
                Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                Qt.ScrollPhase.NoScrollPhase, False))
            app.processEvents()

        turn()
        out["unfocused"] = window.model.state.d_k
        d_k.setFocus(Qt.FocusReason.MouseFocusReason)
        app.processEvents()
        out["focused"] = d_k.hasFocus()
        turn()
        out["after"] = window.model.state.d_k
    ''')
    assert out["unfocused"] == 4 and out["focused"], out
    assert out["after"] == 5, out


def test_a_control_made_unfocusable_keeps_the_wheel(qtbot):
    """The tiles lab's sliders take no keyboard (they stand outside a scroll area): the
    wheel still moves them."""
    from qkv_desktop.views.editors.wheel_focus import FocusSlider
    slider = FocusSlider(Qt.Orientation.Horizontal)
    qtbot.addWidget(slider)
    slider.setRange(0, 10)
    slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    assert turn_wheel(slider, 1) and slider.value() != 0
