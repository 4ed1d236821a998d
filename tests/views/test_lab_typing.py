"""A number typed in a lab's box without Enter is what the lab's buttons use.

The labs' buttons take no focus (space belongs to the lab), so the box keeps it and its
typing was never applied: "Train 200 steps" after 1000 typed as the learning rate
trained at 0.5 and never said that 1000 became 100; "Step ▶" after 1000 typed as the
tiles lab's factor stepped through the row × 1.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from qkv_desktop.core import online_softmax, training


@pytest.fixture
def labs(run_labs):
    return run_labs


def typed(qtbot, lab, box, text: str) -> None:
    """``text`` typed in ``box`` of ``lab``, no Enter, the box keeping the focus."""
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    assert lab.focusWidget() is box  # the lab's own focus widget, active or not
    if lab.isActiveWindow():  # the application's, when the lab is the active window
        assert QApplication.focusWidget() is box


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_train_uses_the_learning_rate_typed_and_says_its_clamp(labs, qtbot, monkeypatch):
    lab = labs.show("gradients")
    lab.steps.setValue(1)  # at 100 the second step finds the softmax saturated: its message
    lab.rate.setValue(lab.rate.maximum())
    rates = []

    def descend(weights, grads, lr):
        rates.append(lr)
        return real(weights, grads, lr)

    real = training.descend
    monkeypatch.setattr(training, "descend", descend)
    session_rate = lab.lr.value()  # the session's (random-medium: 0.04)
    typed(qtbot, lab, lab.lr, "1000")
    assert lab.lr.value() == session_rate == 0.04  # not applied yet
    click(qtbot, lab.train_button)
    assert lab.wait(lab.worker)
    assert rates and set(rates) == {100.0}
    assert "at most 100: 1000 became 100" in lab.error.text() and lab.error.isVisible()


def test_train_uses_the_steps_typed(labs, qtbot):
    lab = labs.show("gradients")
    lab.rate.setValue(lab.rate.maximum())
    typed(qtbot, lab, lab.steps, "3")
    click(qtbot, lab.train_button)
    assert lab.wait(lab.worker)
    assert len(lab.losses) == 3
    assert labs.main_window.model.undo_stack.undoText() == "Train 3 steps"


def test_compare_uses_the_steps_typed(labs, qtbot):
    lab = labs.show("gradients")
    lab.tabs.setCurrentIndex(1)
    typed(qtbot, lab, lab.compare_steps, "3")
    click(qtbot, lab.compare_button)
    assert lab.wait(lab.compare_worker)
    assert lab.runs and {len(run.losses) for run in lab.runs} == {3 + 1}  # (the start)


def test_step_uses_the_factor_typed(labs, qtbot):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.go_to(0)
    typed(qtbot, lab, lab.factor, "1000")
    click(qtbot, lab.controls.step)
    assert lab.factor.value() == 1000
    assert lab.position == 1
    row = np.asarray(lab.head.scaled[lab.row.value()], dtype=np.float64) * 1000
    np.testing.assert_array_equal(lab.online.weights,
                                  online_softmax(row, lab.block.value()).weights)


def test_a_slider_moved_uses_the_factor_typed(labs, qtbot):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    typed(qtbot, lab, lab.factor, "2e6")
    lab.block.triggerAction(lab.block.SliderAction.SliderSingleStepSub)
    assert lab.factor.value() == 1e6
    assert "at most 1000000: 2e6 became 1000000" in lab.error.text()


def test_play_uses_the_speed_typed(labs, qtbot):
    lab = labs.show("kv_cache")
    typed(qtbot, lab, lab.controls.speed, "50")
    click(qtbot, lab.controls.play)
    assert lab.timer.isActive() and lab.timer.interval() == 50  # 20 steps/s, the most
    assert "at most 20: 50 became 20" in lab.error.text()
    lab.pause()


def test_a_tab_clicked_applies_the_number_typed(labs, qtbot):
    """A first user typed 50 steps/s in the tiles lab and clicked the other tab: the
    box, above the tabs, kept the focus and "50", neither applied nor said."""
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    typed(qtbot, lab, lab.controls.speed, "50")
    bar = lab.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert lab.tabs.currentIndex() == 1
    assert lab.controls.speed.value() == 20 and lab.timer.interval() == 50
    assert "at most 20: 50 became 20" in lab.error.text() and lab.error.isVisible()


@pytest.mark.parametrize("button", ["export_view_button", "export_steps_button"])
def test_an_export_uses_the_number_typed(labs, qtbot, monkeypatch, button):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    seen = []

    def ask(*_args, **_kwargs):
        seen.append(lab.factor.value())
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(ask))
    typed(qtbot, lab, lab.factor, "7")
    click(qtbot, getattr(lab, button))
    assert seen == [7.0]  # applied before the export asked where to write


def test_esc_applies_the_number_typed_before_closing(labs, qtbot):
    lab = labs.show("gradients")
    typed(qtbot, lab, lab.lr, "1000")
    qtbot.keyClick(lab.lr.lineEdit(), Qt.Key.Key_Escape)
    assert not lab.isVisible()
    assert lab.lr.value() == 100


def test_ctrl_z_in_a_lab_undoes_the_sessions_last_step(labs, qtbot):
    """A learner who had just trained in the gradient lab pressed Ctrl+Z there, with the
    focus in its learning-rate box: nothing happened (Undo lived in the main window)."""
    lab = labs.show("gradients")
    model = labs.main_window.model
    lab.train_blocking(3)
    assert model.undo_stack.undoText() == "Train 3 steps"
    trained, index = model.state, model.undo_stack.index()
    lab.activateWindow()
    lab.lr.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is lab.lr, timeout=5000)
    qtbot.keyClick(lab.lr, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert model.undo_stack.index() == index - 1 and model.state is not trained
    qtbot.keyClick(lab.lr, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert model.undo_stack.index() == index and model.state is trained
