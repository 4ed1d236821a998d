"""The gradient lab as a first-time user's review found it:

* the status line said "step 200: loss 0.0621" while −mean log p of the "attention
  weights now" beside it gave 0.0612: the loss was the one from before step 200, the
  weights the ones after it;
* 1e400 typed as the learning rate during a run said "1e400 became 100" and the box
  showed 100, while the run went on at 0.5 (the steps likewise: the box said 5, the run
  went on to 200).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, Qt

from qkv_desktop.core import training
from qkv_desktop.presentation.numbers import format_nonzero


@pytest.fixture
def lab(run_labs):
    lab = run_labs.show("gradients")
    lab.resize(1024, 700)
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    QCoreApplication.processEvents()
    return lab


def _loss_of_weights_shown(lab) -> float:
    """−(1/n) Σ T log P with P the "attention weights now" grid, T the target grid."""
    P = np.asarray(lab.weights_grid.data, dtype=np.float64)
    T = np.asarray(lab.target_grid.data, dtype=np.float64)
    assert P.shape == T.shape and lab.weights_grid.title == "attention weights now"
    with np.errstate(divide="ignore", invalid="ignore"):
        return -float(np.sum(np.where(T > 0, T * np.log(P), 0.0))) / P.shape[0]


def test_the_loss_said_is_the_loss_of_the_weights_shown(lab):
    lab.lr.setValue(0.5)
    lab.train_blocking(20)  # still learning fast: the loss before step 20 read 0.0216
    assert lab.error.text() == ""
    loss = _loss_of_weights_shown(lab)
    assert lab.status.text().startswith(f"step 20: loss {format_nonzero(loss)}, "), (
        lab.status.text(), loss)
    np.testing.assert_allclose(lab.losses[-1], loss, rtol=1e-9)  # the curve's last point
    lab.model.undo_stack.undo()


class Held:
    """The learning rates the run's steps descend with; the step numbered ``at``
    waits for ``go`` (the user has typed meanwhile), so which steps came before the
    typing is no race."""

    def __init__(self, monkeypatch, at: int):
        self.rates: list[float] = []
        self.at = at
        self.go = threading.Event()
        real = training.descend

        def descend(weights, grads, lr):
            self.rates.append(lr)
            if len(self.rates) == self.at:
                self.go.wait(30)  # (a safety net: the test sets it as soon as it typed)
            return real(weights, grads, lr)

        monkeypatch.setattr(training, "descend", descend)


def _type(qtbot, box, text: str) -> None:
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def test_a_learning_rate_typed_during_a_run_is_the_one_it_goes_on_with(lab, qtbot,
                                                                     monkeypatch):
    held = Held(monkeypatch, at=3)
    lab.lr.setValue(0.01)
    lab.steps.setValue(8)
    lab.rate.setValue(lab.rate.maximum())
    try:
        lab.start_training()
        qtbot.waitUntil(lambda: len(held.rates) >= held.at)
        _type(qtbot, lab.lr, "1e400")
        assert lab.lr.value() == 100.0
        assert "1e400 became 100" in lab.error.text()
    finally:
        held.go.set()
    assert lab.wait(lab.worker)
    # the step under way when it was typed finishes at the old rate; every later one
    # descends at the rate the box shows (or diverges there, at 100)
    assert held.rates[:held.at] == [0.01] * held.at
    assert len(held.rates) > held.at and set(held.rates[held.at:]) == {lab.lr.value()}
    lab.model.undo_stack.undo()


def test_steps_typed_during_a_run_end_it_there(lab, qtbot, monkeypatch):
    held = Held(monkeypatch, at=3)
    lab.lr.setValue(0.01)
    lab.steps.setValue(200)
    lab.rate.setValue(lab.rate.maximum())
    try:
        lab.start_training()
        qtbot.waitUntil(lambda: len(held.rates) >= held.at)
        _type(qtbot, lab.steps, "5")
    finally:
        held.go.set()
    assert lab.wait(lab.worker)
    assert lab.steps.value() == 5 and len(lab.losses) == 5
    assert lab.model.undo_stack.undoText() == "Train 5 steps"
    assert lab.status.text().startswith("step 5: loss ")
    lab.model.undo_stack.undo()


def test_steps_lowered_below_those_done_end_the_run_at_once(lab, qtbot):
    """1 typed as the steps while the run paused after its second step (one step a
    second) ended it after a third: the run now ends where it is."""
    lab.lr.setValue(0.01)
    lab.steps.setValue(200)
    lab.rate.setValue(1)
    lab.start_training()
    qtbot.waitUntil(lambda: len(lab.losses) >= 2, timeout=10_000)
    done = len(lab.losses)
    _type(qtbot, lab.steps, "1")
    assert lab.wait(lab.worker)
    assert len(lab.losses) == done
    assert lab.model.undo_stack.undoText() == f"Train {done} steps"
    # and why it ended there, where the learner looks
    assert lab.error.text() == (f"The run ended at step {done}: the steps were set to 1, "
                                "fewer than it had trained.")
    lab.model.undo_stack.undo()


@pytest.mark.parametrize("preset", ["tutorial-1", "random-medium"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_comparisons_plots_read_on_a_1024x700_screen(run_labs, speak, lang, preset):
    """After the comparison, its three plots were 40 px high with no y axis at 1024 ×
    700 (the explanation and the table took the tab's height), and the run button's
    label nearly ran into its edge. Each plot, scrolled into view, is whole, at least
    ``COMPARE_PLOT_HEIGHT`` high, with its y axis labelled and no text cut; the lab
    fits the screen with 12 tokens too (the Train tab's two grids made it 889 px
    high)."""
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.state import SessionState
    from qkv_desktop.views.layout import fit_to_free
    from qkv_desktop.views.teaching.gradient_lab import COMPARE_PLOT_HEIGHT
    from tests.views.helpers import axis_labels

    model = run_labs.main_window.model
    model.load_state(SessionState.from_preset(preset), "preset")
    assert model.wait_until_idle()
    speak(lang)
    lab = run_labs.show("gradients")
    lab.resize(*fit_to_free((1250, 860), (1024, 700)))  # the lab's size on that screen
    lab.tabs.setCurrentIndex(1)
    lab.run_comparison_blocking(5)
    QApplication.processEvents()
    assert len(lab.runs) == 6
    assert lab.width() <= 1024 and lab.height() <= 700
    scroll = lab.compare_scroll
    for d, plot in lab.compare_plots.items():
        assert plot.height() >= COMPARE_PLOT_HEIGHT, (d, plot.height())
        centre = plot.mapTo(scroll.widget(), plot.rect().center())
        scroll.ensureVisible(centre.x(), centre.y(), plot.width() // 2 + 1,
                             plot.height() // 2 + 1)
        QApplication.processEvents()
        shown = plot.viewport()
        assert shown.visibleRegion().boundingRect() == shown.rect(), d  # wholly on screen
        item = plot.getPlotItem()
        assert item.getViewBox().sceneBoundingRect().height() >= COMPARE_PLOT_HEIGHT / 2, d
        left = item.getAxis("left")
        labels = axis_labels(left)
        assert labels, d  # a y axis, labelled …
        for rect, text in labels:  # … inside the plot's view, read whole
            view = plot.mapFromScene(left.mapRectToScene(rect)).boundingRect()
            assert shown.rect().contains(view), (d, text, view, shown.rect())
        assert len(item.listDataItems()) == 4, d  # both runs' two curves
    button = lab.compare_button
    metrics = button.fontMetrics()
    room = (button.width() - metrics.horizontalAdvance(button.text())) / 2
    assert room >= metrics.horizontalAdvance("M"), (room, button.width())
    # the Train tab's grids scroll up and down with 12 tokens, never cut across
    lab.tabs.setCurrentIndex(0)
    QApplication.processEvents()
    for grid in (lab.target_grid, lab.weights_grid):
        assert grid.width() >= grid.sizeHint().width(), (grid.width(), grid.sizeHint())
        assert grid.visibleRegion().boundingRect().width() == grid.width()


def test_each_target_says_what_it_asks_of_the_first_row(lab):
    """Row 0 of the previous-token target attends to itself, and a first-time user read
    it as a mistake: the target's item says why (key 0: nothing comes before it)."""
    combo = lab.target
    tips = {combo.itemData(i): combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
            for i in range(combo.count())}
    assert "no key before it" in tips["previous"] and "key 0" in tips["previous"]
    assert all(tips[k] for k in ("previous", "first", "diagonal", "painted", "output")), tips
    target = training.target_pattern("previous", 4)
    assert target[0, 0] == 1 and target[1, 0] == 1  # what the tip says
