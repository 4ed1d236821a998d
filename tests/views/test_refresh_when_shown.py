"""One "refresh when shown" mechanism: views hidden from the user do no work, and
catch up with the latest result as soon as they are shown."""

from __future__ import annotations

import numpy as np

from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel
from qkv_desktop.views.teaching.scaling_lab import ScalingLab
from qkv_desktop.views.teaching.symmetry_view import SymmetryView


def test_every_lazy_view_uses_the_one_mixin_and_no_showevent_of_its_own():
    for view in (HeatmapPane, ScalingLab, SymmetryView, DiagnosticsPanel):
        assert issubclass(view, RefreshWhenShown), view
        assert "showEvent" not in vars(view), f"{view.__name__} catches showEvent itself"


def test_a_pane_hidden_in_the_grid_draws_only_when_shown_again(main_window, qtbot):
    window = main_window
    model, pane = window.model, window.panes.panes["V"]
    window.panes.set_visible("V", False)
    shown = pane.overlay.data
    model.scale_inputs(2.0)
    assert model.wait_until_idle()
    assert pane.overlay.data is shown  # no work while hidden
    window.panes.set_visible("V", True)
    qtbot.waitUntil(lambda: pane.overlay.data is not shown)
    np.testing.assert_array_equal(pane.overlay.data, model.result.head(0).V)


def test_the_scaling_lab_sweeps_the_session_only_on_its_session_tab(main_window, qtbot):
    window = main_window
    lab, model = window.teaching.lab, window.model
    lab.show()
    qtbot.waitExposed(lab)
    lab.tabs.setCurrentIndex(0)
    first = lab.session_sweep
    model.set_init_scale(3.0)
    assert model.wait_until_idle()
    assert lab.session_sweep is first  # the session tab is not on show: nothing computed
    lab.tabs.setCurrentIndex(1)
    assert lab.session_sweep is not first
    scores = model.result.head(0).scores
    assert lab.session_sweep.unscaled["max_weight"][-1] <= 1.0
    assert f"{scores.shape[0]}×{scores.shape[1]}" in lab.session_info.text()
    lab.close()
