"""The gradient lab says what its numbers show, found by a first-time user's review.

* The comparison's table and plots stayed up after another session was loaded, with no
  notice; and its fixed text said the unscaled heads stall while the table showed the
  unscaled d_k = 64 head ending at loss 0.0000 and the scaled one at 0.0011.
* A run at learning rate 100 saturated the softmax (loss 708.3964, gradients 0) and
  said nothing.
* A gradient norm of 3e−5 read "‖∂L/∂W_Q‖ = 0.0000".
* d_k = 256's log axis at 1024 × 700 labelled 10² … 10⁻¹⁷ on top of each other.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetricsF

from qkv_desktop.core.training import ScalingRun
from qkv_desktop.state.session_state import SessionState
from qkv_desktop.views.teaching.gradient_lab import COMPARE_D_KS
from tests.views.helpers import axis_label_rects


@pytest.fixture
def lab(run_labs):
    return run_labs.show("gradients")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_comparison_of_an_earlier_session_says_so(lab, speak, lang):
    speak(lang)
    model = lab.model
    lab.tabs.setCurrentIndex(1)
    lab.run_comparison_blocking(steps=2)
    finished = lab.compare_status.text()
    assert lab.runs and finished
    lab.train_blocking(3)  # new weights, the same X, mask and seed: still this session's
    assert lab.compare_status.text() == finished
    lab.hide()
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")  # Presets → Tutorial 1
    assert model.wait_until_idle()
    lab.show()
    QCoreApplication.processEvents()
    stale = lab.compare_status.text()
    assert stale != finished
    assert ("earlier session" in stale) if lang == "en" else ("之前的会话" in stale)
    lab.run_comparison_blocking(steps=2)  # this session's runs: the notice goes
    assert lab.compare_status.text() == finished
    assert "earlier session" not in lab.compare_status.text()
    assert "之前的会话" not in lab.compare_status.text()


def _runs(ends: dict[tuple[int, bool], float]) -> list[ScalingRun]:
    return [ScalingRun(d, s, np.array([1.0, ends[(d, s)]]), np.ones(2), np.ones(2), 0.2, 0.5)
            for d in COMPARE_D_KS for s in (False, True)]


def test_the_comparison_says_what_its_losses_showed_whichever_way_they_went(lab, speak):
    """The text under the table follows this run's numbers; the fixed explanation no
    longer says the unscaled heads stall."""
    lab.tabs.setCurrentIndex(1)
    info = lab.compare_info.text()
    assert "the heads learn: compare" not in info and "the line under the table" in info
    # the review's run: unscaled ended lower (0.0000 against 0.0011) at every d_k
    lab.runs = _runs({(d, s): 0.0011 if s else 0.0 for d in COMPARE_D_KS for s in (False, True)})
    lab._show_runs()
    text = lab.compare_table.text()
    assert "0.0011" in text
    assert "ended lower than with it at d_k = 4, 64, 256" in text
    assert "higher" not in text and "does not show the stall" in text
    # what the explanation describes: unscaled stalls at the larger d_k
    lab.runs = _runs({(4, False): 0.1, (4, True): 0.1, (64, False): 0.9, (64, True): 0.2,
                      (256, False): 1.2, (256, True): 0.3})
    lab._show_runs()
    text = lab.compare_table.text()
    assert "ended higher than with it at d_k = 64, 256" in text
    assert "same loss at d_k = 4" in text and "does not show the stall" not in text
    speak("zh_CN")
    assert "本次运行" in lab.compare_table.text()
    # its sentences one after another as Chinese writes them: no space after "。"
    assert "。在" in lab.compare_table.text() and "。 " not in lab.compare_table.text()


def _on_the_output(lab) -> None:
    lab.target.setCurrentIndex(lab.target.findData("output"))


def test_a_run_that_saturates_the_softmax_stops_and_says_why(lab, speak):
    """Learning rate 100 on the target output: the weights go one-hot within a few
    steps, and then no gradient reaches W_Q or W_K through the softmax's Jacobian; the
    run stops with the reason in the red line instead of training on at a loss far
    above its start."""
    _on_the_output(lab)
    lab.lr.setValue(100.0)
    lab.train_blocking(200)
    assert not lab.worker.running
    assert 0 < len(lab.losses) < 200, len(lab.losses)
    error = lab.error.text()
    assert lab.error.isVisible() and "diverged: the softmax saturated" in error
    assert "Lower the learning rate" in error and "Ctrl+Z" in error
    lab.train_blocking(200)  # again, on the saturated head: W_V trains, W_Q and W_K not
    assert "saturated" in lab.error.text() and "Ctrl+Z" in lab.error.text()
    assert len(lab.losses) < 200
    lab.error.clear()
    speak("zh_CN")
    lab.train_blocking(200)
    assert "饱和" in lab.error.text()


def test_cross_entropy_at_a_high_rate_diverges_with_its_true_loss(lab):
    """The previous-token pattern at learning rate 100 read loss 708.3964, its weights'
    floor, with ‖∂L/∂W_Q‖ = 0 (a saturated head passed no gradient back): its loss is
    the true cross-entropy, which climbs, and the run ends when a number overflows."""
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    lab.lr.setValue(100.0)
    lab.train_blocking(200)
    assert not lab.worker.running
    assert "diverged" in lab.error.text() and "saturated" not in lab.error.text()
    assert max(lab.losses) > 1e6  # not held at 708.3964
    assert all(lab.norms["W_Q"][1:6])  # the gradient never vanished


def test_a_tiny_gradient_norm_never_reads_zero(lab):
    """The status line beside a log plot of 3e−5 read "‖∂L/∂W_Q‖ = 0.0000"."""
    weights = lab.model.state.heads[0]
    lab.head_index = 0
    lab.losses.append(0.5)
    for name in ("W_Q", "W_K", "W_V"):
        lab.norms[name].append(0.0)
    lab._on_progress((1, 0.5, {"W_Q": 3.1e-5, "W_K": -0.0, "W_V": 0.0}, weights,
                      threading.get_ident()))
    lab._show_progress()
    text = lab.status.text()
    assert "‖∂L/∂W_Q‖ = 3.100e−05" in text
    assert "‖∂L/∂W_K‖ = 0.0000" in text and "‖∂L/∂W_V‖ = 0.0000" in text
    lab.model.preview.commit()


@pytest.mark.parametrize("span", [(1e-17, 1e2), (1e-9, 1e1), (2e-4, 20.0), (1e-3, 1.0),
                                  (0.02, 0.15)])
@pytest.mark.parametrize("height", [120, 150, 260])
def test_a_short_log_axis_keeps_room_between_its_labels(lab, span, height):
    """At 1024 × 700, after a run, the table leaves the comparison's plots short (the
    review's was about 260 px with its axis text): the labels are a font's height apart
    at least, and an axis with room for two has two."""
    lab.tabs.setCurrentIndex(1)
    plot = lab.compare_plots[256]
    plot.setFixedHeight(height)
    lab.show()
    QCoreApplication.processEvents()
    item = plot.getPlotItem()
    item.setYRange(np.log10(span[0]), np.log10(span[1]), padding=0)
    QCoreApplication.processEvents()
    axis = item.getAxis("left")
    font = QFontMetricsF(axis.style["tickFont"] or axis.font()).height()
    axis_label_rects(axis)  # as a paint does: the axis widens to its new labels
    QCoreApplication.processEvents()
    centres = sorted(r.center().y() for r in axis_label_rects(axis))
    if axis.height() >= 4 * font:  # room for two labels and a line between them
        assert len(centres) >= 2, (centres, axis.height())
    assert centres
    gaps = np.diff(centres)
    assert not len(gaps) or gaps.min() >= font, (gaps, font, axis.height())


def test_a_failed_runs_message_goes_once_the_session_moves_on(lab):
    """The saturated run's red line and status stayed after Ctrl+Z (the way back it
    advises) and after another session was loaded."""
    model = lab.model
    _on_the_output(lab)
    lab.lr.setValue(100.0)
    lab.train_blocking(200)
    assert "saturated" in lab.error.text()
    model.undo_stack.undo()
    assert model.wait_until_idle()
    QCoreApplication.processEvents()
    assert lab.error.text() == ""
    assert "The session has changed since this run" in lab.status.text()


@pytest.mark.parametrize(("value", "text"), [
    (0.0, "0.0000"), (-0.0, "0.0000"), (3.1e-5, "3.100e−05"), (-1e-17, "−1.000e−17"),
    (4.999e-5, "4.999e−05"), (5e-5, "0.0001"), (0.5, "0.5000"), (708.3964, "708.3964"),
    (2.5e5, "2.500e+05"), (float("nan"), "NaN")])
def test_format_nonzero_never_writes_a_nonzero_value_as_0(value, text):
    from qkv_desktop.presentation.numbers import format_nonzero
    assert format_nonzero(value) == text


def test_the_status_line_follows_a_language_change(lab, speak):
    """After a run, View → Language → 简体中文 left "step 3: loss …" in English until the
    next run (a first user)."""
    speak("en")
    lab.train_blocking(3)
    assert lab.status.text().startswith("step 3: loss")
    speak("zh_CN")
    assert "第 3 步" in lab.status.text() and "loss" not in lab.status.text()
    lab.model.undo_stack.undo()  # the other status line, likewise
    assert lab.model.wait_until_idle()
    speak("en")
    assert lab.status.text().startswith("The session has changed since this run")


def test_a_load_with_another_head_on_show_does_not_break_the_target_output(lab, qtbot):
    """Target output, head 2 of a 3-token session on show, then Presets → Tutorial 1:
    the head's reset refreshed the lab ahead of the new forward, and the 4-token pattern
    was multiplied by the old result's 3-row V, a ValueError in a dialog (a reviewer)."""
    import sys
    import traceback

    from qkv_desktop.state import SessionState
    from qkv_desktop.state.edits import set_heads
    model = lab.model
    lab.target.setCurrentIndex(lab.target.findData("output"))
    model.load_state(set_heads(SessionState.from_preset("tutorial-2"), 2).state, "t2")
    assert model.wait_until_idle()
    model.set_current_head(1)
    errors = []
    old = sys.excepthook
    sys.excepthook = lambda *a: errors.append("".join(traceback.format_exception(*a)))
    try:
        model.load_state(SessionState.from_preset("tutorial-1"), "t1")
        assert model.wait_until_idle()
        qtbot.wait(20)
    finally:
        sys.excepthook = old
    assert not errors, errors[0]
    kind, target = lab.target_matrix()
    assert kind == "output" and target.shape == model.result.head(0).V.shape
