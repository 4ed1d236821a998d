"""The RoPE lab window: rotations per pair, the shift and base sliders, shuffling tokens."""

from __future__ import annotations

import re

from qkv_desktop.views.teaching.rope_lab import (
    DECAY_BASES,
    base_from_slider,
    slider_from_base,
)


def _lab(window):
    action = window.teaching.rope_lab_action
    assert action in window.teaching.lab_menu.actions()
    action.trigger()
    lab = window.teaching.rope_lab
    assert lab.isVisible()
    return lab


def _number(text: str, after: str) -> float:
    return float(re.search(re.escape(after) + r"\s*([-0-9.e+]+)", text).group(1))


def test_base_slider_spans_ten_thousand_to_a_million():
    assert base_from_slider(0) == 1e4 and base_from_slider(200) == 1e6
    assert slider_from_base(1e5) == 100 and base_from_slider(100) == 1e5


def test_rotations_per_pair_and_the_shift_keeps_every_score(main_window):
    lab = _lab(main_window)
    state = main_window.model.state
    assert len(lab.rotations.ci.items) == state.d_k // 2
    lab.query.setCurrentIndex(3)
    lab.key.setCurrentIndex(1)
    before = lab.rotation_info.text()
    assert "at position 3" in before and "at position 1" in before
    lab.shift.setValue(250)
    info = lab.shift_info.text()
    assert "Shifted by 250" in info
    assert _number(info, "max |shifted − unshifted| =") < 1e-12
    shifted, plain = re.search(r"the score is (\S+), without the shift (\S+)\.", info).groups()
    assert abs(float(shifted) - float(plain)) < 1e-4
    assert "at position 253" in lab.rotation_info.text()
    lab.close()


def test_the_decay_plot_has_one_curve_per_base_and_follows_the_slider(main_window):
    lab = _lab(main_window)
    lab.base.setValue(150)
    items = lab.decay.getPlotItem().listDataItems()
    assert len(items) == len(DECAY_BASES) + 1
    x, y = items[-1].getData()
    assert x[0] == 0 and abs(y[0] - 1) < 1e-12 and y[-1] < 1
    assert lab.base_label.text() == str(round(base_from_slider(150)))
    lab.close()


def test_the_decay_legend_and_the_base_read_as_whole_numbers(main_window):
    """The learner reads "base 10000", as the RoPE paper writes it, never "1e+04"."""
    lab = _lab(main_window)
    lab.base.setValue(50)
    names = [label.text for _sample, label in lab.decay.getPlotItem().legend.items]
    assert names[:3] == ["base 10000", "base 100000", "base 1000000"], names
    assert names[3] == f"this base {round(base_from_slider(50))}" == "this base 31600"
    lab.base.setValue(0)
    assert lab.base_label.text() == "10000"
    assert not any("e+" in n for n in names)
    lab.close()


def test_shuffling_tokens_shows_equivariance_without_positions(main_window):
    lab = _lab(main_window)
    lab.shuffle.click()
    text = lab.order_info.text()
    assert _number(text, "shuffled out| =") < 1e-12
    assert _number(text, "With RoPE:") > 1e-6
    lab.close()


def test_an_odd_d_k_says_why_nothing_turns(main_window):
    main_window.model.set_d_k(3)
    assert main_window.model.wait_until_idle()
    lab = _lab(main_window)
    assert "make d_k even" in lab.rotation_info.text()
    lab.close()
