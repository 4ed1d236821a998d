"""The teaching lab in the main window: toggles, banners, explain panel, lab, docks."""

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from qkv_desktop.core.lessons import row_stats, row_uniformity, session_sweep
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import decimals_that_add_up, format_percent
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.views.editors.controls import temperature_from_slider
from qkv_desktop.views.teaching.explain_panel import format_number


@pytest.fixture
def window(main_window):
    """The module's shared main window, on tutorial-1 with the default layout."""
    main_window.findChild(QAction, "resetLayout").trigger()
    return main_window


@pytest.fixture
def window2(window):
    """The same window on tutorial example 2 (猫 追 老鼠)."""
    window.model.reset(SessionState.from_preset("tutorial-2"))
    assert window.model.wait_until_idle()
    return window


@pytest.fixture
def lab(qtbot):
    """A scaling lab of its own, so its typed scores start from the default."""
    from qkv_desktop.views.teaching.scaling_lab import ScalingLab
    widget = ScalingLab(AttentionModel(SessionState.from_preset("tutorial-1")))
    qtbot.addWidget(widget)
    return widget


def enter_scores(bars, text: str) -> None:
    """``text`` in the scaling lab's scores box, then Enter, as the learner types it."""
    bars.edit.setText(text)
    QTest.keyClick(bars.edit, Qt.Key.Key_Return)


def pane(w, key):
    w.model.wait_until_idle()
    return w.panes.panes[key].overlay.data


def settle(w):
    assert w.model.wait_until_idle()


def front(w, name):
    """Bring teaching dock ``name`` to the front of its tab group and let it catch up.

    The diagnostics and the QKᵀ | KKᵀ view do no work while behind another tab.
    """
    from PySide6.QtWidgets import QApplication
    w.teaching.docks[name].raise_()
    QApplication.processEvents()
    QApplication.processEvents()
    return getattr(w.teaching, name)


# ------------------------------------------------------------------ the toggles


def test_teaching_causal_masks_above_the_diagonal(window):
    window.controls.causal.setChecked(True)
    scaled, weights = pane(window, "scaled"), pane(window, "weights")
    upper = np.triu_indices(4, 1)
    assert np.isneginf(scaled[upper]).all()
    assert np.isfinite(scaled[np.tril_indices(4)]).all()
    # the weights are 0 there; the pane draws those cells masked (−∞), as the scaled
    # scores, never as a weight of 0
    assert np.isneginf(weights[upper]).all()
    exact = window.model.result.head().weights
    assert (exact[upper] == 0.0).all()
    np.testing.assert_allclose(exact.sum(axis=1), 1.0, rtol=1e-12)
    assert weights[0, 0] == exact[0, 0] == 1.0
    window.controls.causal.setChecked(False)
    assert np.isfinite(pane(window, "scaled")).all()


def test_teaching_share_makes_scores_symmetric_and_asymmetry_zero(window2):
    w = window2
    t = w.teaching
    scores = pane(w, "scores")
    assert not np.array_equal(scores, scores.T)
    value = w.model.result.lessons(0).asymmetry
    assert value == pytest.approx(
        np.linalg.norm(scores - scores.T) / np.linalg.norm(scores), rel=1e-12)
    assert f"= {value:.4f}" in t.badge.text()
    w.controls.share.setChecked(True)
    scores = pane(w, "scores")
    np.testing.assert_array_equal(scores, scores.T)
    K = pane(w, "K")
    np.testing.assert_allclose(scores, K @ K.T, rtol=1e-12)
    assert w.model.result.lessons(0).asymmetry == 0.0
    assert "symmetric" in t.badge.text() and "= 0" in t.badge.text()
    assert "asymmetry 0.0000" in front(w, "symmetry").qk_title.text()
    assert "<b>0.0000</b>" in front(w, "diagnostics").asymmetry_label.text()
    w.controls.share.setChecked(False)
    settle(w)
    assert w.model.result.lessons(0).asymmetry > 0 and "asymmetry ‖" in t.badge.text()


def test_teaching_scaling_and_temperature_divide_the_scaled_pane(window):
    c = window.controls
    scores = pane(window, "scores")
    np.testing.assert_array_equal(pane(window, "scaled"), scores / np.float64(2.0))
    c.scaling.setCurrentIndex(c.scaling.findData("none"))
    np.testing.assert_array_equal(pane(window, "scaled"), scores)
    c.scaling.setCurrentIndex(c.scaling.findData("custom"))
    c.divisor.setValue(3.0)
    np.testing.assert_allclose(pane(window, "scaled"), scores / 3.0, rtol=1e-15)
    assert "QKᵀ / 3" in window.panes.panes["scaled"].title.text()
    c.scaling.setCurrentIndex(c.scaling.findData("sqrt_dk"))
    c.temperature.setValue(1000)
    T = temperature_from_slider(1000)
    assert T == 10.0
    np.testing.assert_allclose(pane(window, "scaled"), scores / (2.0 * T), rtol=1e-15)
    c.temperature.setValue(0)
    np.testing.assert_allclose(pane(window, "scaled"), scores / (2.0 * 0.05), rtol=1e-15)
    # the T shown is the T divided by (it showed 2.65 for 2.6451)
    c.temperature.setValue(750)
    T = window.model.state.options.temperature
    assert c.temperature_label.text() == f"{T:g}" == "2.66"
    np.testing.assert_allclose(pane(window, "scaled"), scores / (2.0 * 2.66), rtol=1e-15)
    settle(window)
    assert "T(2.66)" in window.panes.panes["scaled"].title.text()
    c.temperature.setValue(566)
    assert window.model.state.options.temperature == 1.0  # T = 1 is on the slider


def test_teaching_float32_keeps_the_panes_in_float32(window):
    window.controls.float32.setChecked(True)
    assert pane(window, "weights").dtype == np.float32
    value = window.model.result.lessons(0).asymmetry
    assert value > 0 and f"= {value:.4f}" in window.teaching.badge.text()  # as the dock


# ---------------------------------------------------------- overflow lesson


def test_teaching_naive_softmax_after_x100_overflows_and_is_explained(window2):
    w, t = window2, window2.teaching
    banner = t.banners.overflow
    X = w.model.state.X.copy()
    t.scale_inputs_action.trigger()
    settle(w)
    np.testing.assert_array_equal(w.model.state.X, X * 100)
    assert np.isfinite(pane(w, "weights")).all()  # stable: the same inputs are fine
    assert not banner.isVisibleTo(w)
    w.controls.naive.setChecked(True)
    weights = pane(w, "weights")
    bad = ~np.isfinite(weights)
    assert bad.sum() == 3 and "(naive)" in w.panes.panes["weights"].title.text()
    assert banner.isVisibleTo(w)
    text = banner.label.text()
    assert "3 of 9 weights are not finite" in text and "subtract each row's maximum" in text
    assert "709.78" in text
    w.controls.naive.setChecked(False)
    assert np.isfinite(pane(w, "weights")).all()
    assert not banner.isVisibleTo(w)
    w.model.undo_stack.undo()  # naive off
    w.model.undo_stack.undo()  # naive on
    w.model.undo_stack.undo()  # × 100
    settle(w)
    np.testing.assert_array_equal(w.model.state.X, X)


def test_teaching_naive_banner_before_anything_breaks_offers_x100(window, qtbot):
    w = window
    banner = w.teaching.banners.overflow
    w.controls.naive.setChecked(True)
    settle(w)
    assert banner.isVisibleTo(w) and "nothing has broken yet" in banner.label.text()
    banner.label.linkActivated.emit("x100")
    settle(w)
    banner.label.linkActivated.emit("x100")  # tutorial-1 needs × 10⁴ to overflow
    settle(w)
    assert "14 of 16 weights are not finite" in banner.label.text()
    banner.label.linkActivated.emit("stable")
    settle(w)
    assert w.model.state.options.stable and not banner.isVisibleTo(w)


# ------------------------------------------------------------- uniform banner


def test_teaching_uniform_banner_for_tutorial_1_only(window):
    w = window
    banner = w.teaching.banners.uniform
    assert banner.isVisibleTo(w)
    text = banner.label.text()
    u = row_uniformity(pane(w, "scaled"), pane(w, "weights"))
    assert u.deviation.max() < 0.004
    assert f"within {u.deviation.max():.4f} of 1/n" in text
    assert "爱's smallest weight is on 智能" in text  # the facts, not "here it is not"
    w.model.set_init_scale(3.0)
    settle(w)
    assert not banner.isVisibleTo(w)
    w.model.undo_stack.undo()
    settle(w)
    assert banner.isVisibleTo(w)
    banner.label.linkActivated.emit("scale")
    settle(w)
    assert w.model.state.init_scale == 1.0 and not banner.isVisibleTo(w)


# -------------------------------------------------------------- diagnostics


def diagnostics_in_front(w):
    """The Diagnostics dock in front, the shown head's result, its uniformity read-out
    and the dock's table model."""
    d = front(w, "diagnostics")
    r = w.model.result.head(0)
    return d, r, row_uniformity(r.scaled, r.weights), d.table.model()


def test_teaching_diagnostics_table_follows_the_result(window2):
    w = window2
    d, r, u, rows = diagnostics_in_front(w)

    def text(i, c):
        return rows.index(i, c).data()

    assert rows.rowCount() == 3
    for i in range(3):
        assert text(i, 0) == w.model.state.tokens[i]
        assert text(i, 1) == f"{u.entropy[i]:.4f}"
        assert text(i, 2) == format_percent(u.fraction[i])
        assert text(i, 3) == f"{r.weights[i].max():.4f}"
    w.controls.causal.setChecked(True)
    settle(w)
    # row 0 sees one key: weight 1, and H / log n = 0/0 (it read 100.0 %)
    assert text(0, 2) == "—" and text(0, 3) == "1.0000"
    assert "0 / 0" in rows.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert text(1, 2).endswith("%")


def test_teaching_diagnostics_never_read_a_nearly_uniform_row_as_exactly_uniform(window):
    """tutorial-1's rows spread within 0.0021 of 1/n: H / log n is 99.99… %, not 100 %."""
    w = window
    d, r, u, rows = diagnostics_in_front(w)
    assert (u.fraction < 1).all() and (u.fraction > 0.9999).all()
    for i in range(rows.rowCount()):
        shown = rows.index(i, 2).data()
        assert shown.startswith("99.99") and float(shown.rstrip("%")) < 100, shown
    assert "Nearly uniform" in d.summary.text()


@pytest.mark.parametrize("options", [{"dtype": "float32"}, {"stable": False}])
def test_teaching_diagnostics_read_an_exactly_uniform_row_as_100_percent(window, options):
    """Identical tokens attend uniformly: H / log n computes to 1.0000000186 in float32
    and 0.9999999999999998 or 1.0000000000000002 with the naive softmax; those rows
    read 100.0 %, not "> 99.9999%" (a true inequality for a value it is not)."""
    import dataclasses
    s = SessionState.from_preset("random-medium")
    s = dataclasses.replace(s, tokens=tuple(f"t{i}" for i in range(5)),
                            X=np.tile(s.X[:1], (5, 1)),
                            options=dataclasses.replace(s.options, **options))
    window.model.reset(s)
    assert window.model.wait_until_idle()
    d = front(window, "diagnostics")
    rows = d.table.model()
    assert [rows.index(i, 2).data() for i in range(5)] == ["100.0%"] * 5
    # Whether this machine's exp and log land on exactly 1 depends on its libm and
    # SIMD paths (exactly 1 with the naive softmax on some AMD machines), so the
    # fractions that other machines compute are put in too: they read 100.0 % as well.
    u = window.model.result.lessons(0).uniformity
    dtype = np.dtype(window.model.state.options.dtype)
    one = dtype.type(1)
    eps = np.finfo(dtype).eps
    rounded = np.array([np.nextafter(one, 0), np.nextafter(one, 2), 1 + 4 * eps,
                        1 - 4 * eps, 1 + 16 * eps], dtype)
    assert (rounded != 1).all()
    tokens = list(window.model.state.tokens)
    rows.set_rows(dataclasses.replace(u, fraction=rounded), tokens, tokens, dtype)
    assert [rows.index(i, 2).data() for i in range(5)] == ["100.0%"] * 5


def test_teaching_diagnostics_one_key_rows_and_the_summary(window):
    """A one-key row reads "—" only while its weight is the 1 it must be (a broken naive
    softmax's NaN row reads NaN); the summary's means leave one-key rows out, both."""
    from qkv_desktop.core.lessons import RowUniformity
    from qkv_desktop.views.teaching.diagnostics import DiagnosticsTableModel
    nan = float("nan")
    u = RowUniformity(np.array([1, 1, 3]), np.array([0.0, nan, 0.5]),
                      np.array([1.0, nan, 0.45]), np.zeros(3), np.array([1.0, nan, 0.6]),
                      np.zeros(3, int), np.zeros(3))
    rows = DiagnosticsTableModel()
    rows.set_rows(u, ["a", "b", "c"], ["a", "b", "c"])
    assert [rows.index(i, 2).data() for i in range(3)] == ["—", "NaN", "45.0%"]
    assert rows.index(1, 2).data(Qt.ItemDataRole.ToolTipRole) is None
    w = window
    w.model.reset(SessionState.from_preset("random-small"))
    w.controls.causal.setChecked(True)
    settle(w)
    d = front(w, "diagnostics")
    lessons = w.model.result.lessons(0)
    assert not lessons.nearly_uniform  # random-small: sharp attention, the means' line
    u = lessons.uniformity
    several = u.visible > 1
    assert f"mean max weight = {np.mean(u.max_weight[several]):.4f}" in d.summary.text()
    assert "Mean H / log n = " in d.summary.text()
    # a mean too small for four decimals is said as a bound: "< 0.0001%", not the
    # "= < 0.0001%" a first user read
    w.model.scale_inputs(5)
    settle(w)
    assert "Mean H / log n < 0.0001%;" in d.summary.text()


# ------------------------------------------------------------- explain panel


@pytest.mark.parametrize("cell", [(2, 2), (3, 1)])
def test_teaching_explain_panel_writes_the_alibi_slope_on_the_diagonal_too(window, cell):
    """On the diagonal (|i − j| = 0) the word "slope" stood where the head's slope
    belongs, and "divisor" stayed English in the Chinese panel."""
    from qkv_desktop.presentation.numbers import format_value
    w = window
    w.model.set_options(alibi=(0.25,))
    assert w.model.wait_until_idle()
    r = w.model.result.head(0)
    w.model.set_selection(CellRef("weights", *cell, 0))
    html = w.teaching.explain.html()
    assert r.alibi_slope is not None
    assert f"− {format_value(r.alibi_slope)}·|{cell[0]} − {cell[1]}|" in html
    assert "slope·" not in html
    w.model.set_selection(None)
    w.model.undo_stack.undo()
    assert w.model.wait_until_idle()


def test_teaching_explain_panel_hint_then_numbers_of_the_pinned_cell(window2):
    w = window2
    panel = w.teaching.explain
    assert "Click a cell of the <b>weights</b> pane" in panel.html()
    w.model.set_selection(CellRef("weights", 1, 0, 0))
    r = w.model.result.head(0)
    html = panel.html()
    assert "w[追 → 猫]" in html
    q, k = r.Q[1], r.K[0]
    for c in range(3):  # every product of the dot product, d_k = 3
        assert f"{format_number(q[c]).lstrip('−')}" in html
        assert f"{format_number(k[c]).lstrip('−')}" in html
    assert format_number(r.scores[1, 0]) == "0.0123"  # demo 2's printed QKᵀ[追, 猫]
    assert "<span class='res'>0.0123</span>" in html
    assert f"√3 = {format_number(math.sqrt(3))}" in html
    assert f"<span class='res'>{format_number(r.scaled[1, 0])}</span>" in html
    row = r.scaled[1]
    assert f"max<sub>j</sub> s[追, j] = {format_number(row.max())}" in html
    exps = np.exp(row - row.max())
    total = exps.sum()
    digits = decimals_that_add_up(exps, total)  # its written terms add up to it
    assert f"<span class='res'>{format_number(total, digits)}</span>" in html
    assert f"<span class='res'>{format_number(r.weights[1, 0])}</span>" in html
    for v in r.output[1]:
        assert format_number(v) in html
    assert panel.browser.toPlainText().count("4 · Output") == 1


def test_teaching_explain_panel_masked_cell_and_long_sums(window, qtbot):
    w = window
    panel = w.teaching.explain
    w.controls.causal.setChecked(True)
    settle(w)
    w.model.set_selection(CellRef("scaled", 0, 2, 0))
    html = panel.html()
    assert "masked (causal)" in html and "exp(−∞) = <span class='res'>0</span>" in html
    assert "weight exactly 0" in html
    w.model.set_d_k(64)
    settle(w)
    w.model.set_selection(CellRef("weights", 3, 1, 0))
    html = panel.html()
    assert "…" in html and "64 products" in html
    w.model.set_selection(CellRef("X", 0, 0, 0))  # every matrix a learner can click (#18)
    assert "Where it flows" in panel.html()
    w.model.set_selection(CellRef("concat", 0, 0, 0))  # not in this session (one head)
    assert "How is a weight computed?" in panel.html()


def test_format_number_for_teaching_text():
    assert format_number(0.24901) == "0.2490"
    assert format_number(-0.0054) == "−0.0054"
    assert format_number(6.8e-4) == "0.0007"  # the app's one rule: four decimals
    assert format_number(-418044.3298) == "−4.180×10<sup>5</sup>"
    assert format_number(3e-9) == "3.000×10<sup>−9</sup>"  # not 0, though 0.0000 at 4
    assert format_number(float("inf")) == "∞" and format_number(float("nan")) == "NaN"
    assert format_number(0.0) == "0.0000"


# ---------------------------------------------------------------- the lab


def test_teaching_lab_default_bars_are_the_tutorials_table(lab):
    bars = lab.score_bars
    expected = [[0.5098, 0.3092, 0.1138, 0.0418, 0.0254],
                [0.3622, 0.2821, 0.1711, 0.1038, 0.0808],
                [0.2388, 0.2243, 0.198, 0.1747, 0.1641]]
    assert [np.round(b, 4).tolist() for b in bars.bars] == expected
    table = bars.table.text()
    for row in expected:
        for v in row:
            assert f"{v:.4f}" in table


def test_teaching_lab_refuses_bad_scores_and_keeps_the_last_plot(lab):
    bars = lab.score_bars
    before = [b.copy() for b in bars.bars]
    for text, message in (("2, 1.5, abc", "score 3: 'abc' is not a number"),
                          ("2, 1.5; 0", "score 2: '1.5; 0' is not a number"),
                          ("2", "at least two scores"),
                          ("2, nan", "only finite numbers"), ("2,, 1", "score 2: empty")):
        enter_scores(bars, text)
        assert not bars.error.isHidden()
        assert message in bars.error.text()
        assert all(np.array_equal(a, b) for a, b in zip(before, bars.bars, strict=True))
    enter_scores(bars, "10, 0")
    assert bars.error.isHidden()
    assert bars.bars[0][0] == pytest.approx(1 / (1 + math.exp(-10)))


def _typed_scores_box(lab, qtbot):
    bars = lab.score_bars
    lab.tabs.setCurrentWidget(bars)
    lab.show()
    lab.activateWindow()
    qtbot.waitUntil(lab.isActiveWindow)  # so that leaving the box is a focus change
    bars.edit.setFocus()
    bars.edit.selectAll()
    return bars


def test_a_half_typed_score_is_never_plotted_nor_called_valid(lab, qtbot):
    """The scores box applied as typed: on the way to "1e400" (refused: beyond float64),
    "1e40" was drawn, and the refusal said "The charts show the last valid scores: 2,
    1e+40", a value the learner never meant. The box applies on Enter, as every number
    box does; until then the charts keep the scores entered before, and the refusal
    names them."""
    bars = _typed_scores_box(lab, qtbot)
    before = [b.copy() for b in bars.bars]
    qtbot.keyClicks(bars.edit, "2, 1e400")
    assert bars.error.isHidden()  # nothing is said or drawn while typing
    assert all(np.array_equal(a, b) for a, b in zip(before, bars.bars, strict=True))
    qtbot.keyClick(bars.edit, Qt.Key.Key_Return)
    assert bars.error.isVisible()
    said = bars.error.text()
    assert said.startswith("Not plotted: score 2: ") and "1e400" in said
    assert said.endswith("The charts still show the scores 2, 1.5, 0.5, \u22120.5, \u22121.")
    assert "1e+40" not in said
    assert all(np.array_equal(a, b) for a, b in zip(before, bars.bars, strict=True))
    ticks = [label for _x, label in bars.plots[0].getPlotItem().getAxis("bottom")._tickLevels[0]]
    assert ticks == ["2", "1.5", "0.5", "\u22120.5", "\u22121"]


def test_typed_scores_are_plotted_on_enter_or_when_the_box_is_left(lab, qtbot):
    bars = _typed_scores_box(lab, qtbot)
    qtbot.keyClicks(bars.edit, "3, 0")
    assert bars.bars[0].size == 5  # not yet
    qtbot.keyClick(bars.edit, Qt.Key.Key_Tab)  # the box left: what it holds is plotted
    assert not bars.edit.hasFocus()
    assert bars.bars[0] == pytest.approx(row_stats(np.array([3.0, 0.0]), 1).weights)
    bars.edit.setFocus()
    bars.edit.selectAll()
    qtbot.keyClicks(bars.edit, "1, 0, abc")
    qtbot.keyClick(bars.edit, Qt.Key.Key_Return)
    assert "The charts still show the scores 3, 0." in bars.error.text()
    assert bars.bars[0] == pytest.approx(row_stats(np.array([3.0, 0.0]), 1).weights)


def test_a_d_k_clamp_note_leaves_the_refused_scores_message_on_show(lab, qtbot):
    """"2, abc, 1e400" typed, then 0 as the middle d_k: "0 became 1" replaced "'abc' is
    not a number" while the box still held the bad text, and the charts silently showed
    the last valid scores. Both are on show, and the refusal names the scores drawn."""
    bars = lab.score_bars
    lab.tabs.setCurrentWidget(bars)
    lab.show()
    qtbot.waitExposed(lab)
    enter_scores(bars, "2, abc, 1e400")
    bars.d_a.setFocus()
    bars.d_a.selectAll()
    qtbot.keyClicks(bars.d_a, "0")
    qtbot.keyClick(bars.d_a, Qt.Key.Key_Return)
    assert bars.d_a.value() == 1

    def shown() -> str:
        return "\n".join(line.text() for line in bars.findChildren(QLabel)
                         if line.isVisible() and line.text())

    assert "The middle chart's d_k must be at least 1: 0 became 1." in shown()
    assert "score 2: 'abc' is not a number" in shown()
    assert "The charts still show the scores 2, 1.5, 0.5, \u22120.5, \u22121." in shown()
    assert bars.bars[1] == pytest.approx(row_stats(np.array([2, 1.5, 0.5, -0.5, -1]), 1).weights)
    enter_scores(bars, "1, 0")  # fixed: the refusal goes, the note stays its time
    assert "not a number" not in shown() and "0 became 1" in shown()


def test_teaching_lab_sweeps(window, qtbot):
    w = window
    lab = w.teaching.lab
    sweep = lab.random_sweep
    assert sweep.d_k[0] == 1 and sweep.d_k[-1] == 512
    assert sweep.unscaled["max_weight"][-1] > 0.9 > 0.5 > sweep.scaled["max_weight"][-1]
    curve = lab.random_plots.curves[("entropy", "scaled")]
    np.testing.assert_array_equal(curve.getData()[1], sweep.scaled["entropy"])
    lab.n_keys.setValue(16)
    assert lab.random_sweep.unscaled["entropy"][0] != sweep.unscaled["entropy"][0]
    assert w.findChild(QAction, "showScalingLab").shortcut() == QKeySequence("Ctrl+L")
    w.teaching.lab_action.trigger()
    qtbot.waitExposed(lab)
    lab.tabs.setCurrentIndex(1)
    first = lab.session_sweep
    assert first is not None and "4×4" in lab.session_info.text()
    # the same scores at every d: not what a larger d_k would give (a first-time user
    # read the falling blue curve as "a larger d_k makes attention more uniform")
    assert "a head with a larger d_k would also have larger scores" in lab.session_info.text()
    assert lab.session_info.text().startswith("QKᵀ of head 1")
    assert "With the mask" not in lab.session_info.text()
    # tutorial-1's scores are close together: the red curve lies under the blue one
    assert "the two curves lie on one another" in lab.session_info.text()
    w.model.set_options(positions="rope", causal=True)  # the turned scores, masked
    settle(w)
    assert lab.session_info.text().startswith("RoPE(Q)·RoPE(K)ᵀ of head 1")
    assert "With the mask, each row here still spreads over all its keys" in (
        lab.session_info.text())
    np.testing.assert_array_equal(  # what the sweep divides is the scores pane's matrix
        lab.session_sweep.unscaled["max_weight"],
        session_sweep(w.model.result.head(0).scores, lab.session_sweep.d_k).unscaled[
            "max_weight"])
    w.model.set_options(positions="none", causal=False)
    settle(w)
    w.model.set_init_scale(2.0)  # the session view follows the model
    settle(w)
    assert lab.session_sweep is not first
    assert "the two curves lie on one another" not in lab.session_info.text()
    scores = w.model.result.head(0).scores
    assert lab.session_sweep.unscaled["max_weight"][0] == pytest.approx(
        row_stats(scores).max_weight.mean(), rel=1e-12)
    lab.close()


# ---------------------------------------------------------------- the window


def test_teaching_docks_are_tabbed_under_the_editor_and_toggle_from_view(window):
    w = window
    docks = w.teaching.docks
    assert set(w.tabifiedDockWidgets(docks["explain"])) == {docks["diagnostics"],
                                                             docks["symmetry"]}
    view = [a.text() for a in w.view_menu.actions()]
    for dock in docks.values():
        assert dock.toggleViewAction() in w.view_menu.actions()
        assert w.dockWidgetArea(dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert "&Scaling lab…" in view
    docks["symmetry"].toggleViewAction().trigger()
    assert docks["symmetry"].isHidden()
    w.findChild(QAction, "resetLayout").trigger()
    assert not docks["symmetry"].isHidden()
    assert any(a.text() == "&Lab" for a in w.menuBar().actions())


def test_teaching_symmetry_view_shows_qk_and_kk(window2):
    t = window2.teaching
    front(window2, "symmetry")
    qk, kk = t.symmetry.qk.data, t.symmetry.kk.data
    np.testing.assert_allclose(kk, kk.T)
    assert kk[0, 1] == pytest.approx(0.4382, abs=5e-5)  # demo 2's printed KKᵀ
    assert qk[1, 2] == pytest.approx(0.8972, abs=5e-5)
    value = window2.model.result.lessons(0).asymmetry
    assert value > 0.5 and f"asymmetry {value:.4f}" in t.symmetry.qk_title.text()
    assert "asymmetry 0.0000" in t.symmetry.kk_title.text()


def test_teaching_views_survive_every_mode(qtbot):
    """Cross-attention, heads, float32, causal, naive, shrinking: no view may raise."""
    from qkv_desktop.views.teaching.diagnostics import AsymmetryBadge, DiagnosticsPanel
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    from qkv_desktop.views.teaching.lesson_banners import LessonBanners
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView

    model = AttentionModel(SessionState.from_preset("random-small"))
    explain, diag, sym = ExplainPanel(model), DiagnosticsPanel(model), SymmetryView(model)
    banners, badge = LessonBanners(model), AsymmetryBadge(model)
    for widget in (explain, diag, sym, banners, badge):
        qtbot.addWidget(widget)
        widget.show()  # the diagnostics and QKᵀ | KKᵀ views work only while on screen
    steps = [lambda: model.set_mode("cross"), lambda: model.set_heads(2),
             lambda: model.set_current_head(1), lambda: model.set_options(dtype="float32"),
             lambda: model.set_mode("self"), lambda: model.set_options(causal=True),
             lambda: model.set_options(stable=False), lambda: model.scale_inputs(100),
             lambda: model.delete_tokens("X", [3, 4])]
    for step in steps:
        step()
        model.wait_until_idle()
        result = model.result
        n, m = result.head(model.current_head).scores.shape
        for ref in (CellRef("weights", n - 1, m - 1, model.current_head),
                    CellRef("scaled", 0, m - 1, model.current_head),
                    CellRef("output", n - 1, 0, model.current_head),
                    CellRef("Q", 0, 0, model.current_head)):
            model.set_selection(ref)
            assert explain.html()
        if model.state.mode == "cross":
            assert "n/a" in badge.text() and "n/a" in sym.qk_title.text()
    assert model.state.n == 3 and "overflowed" in banners.overflow.label.text()
    model.set_selection(CellRef("weights", 2, 0, 1))
    assert "(head 2)" in explain.html() and "NaN" in explain.html()
    model.set_selection(CellRef("weights", 4, 4, 1))  # a stale cell of a deleted token
    assert "How is a weight computed?" in explain.html()


def test_teaching_docks_behind_a_tab_do_no_work_until_shown(window2):
    """The diagnostics and QKᵀ | KKᵀ views read the result only when brought forward."""
    w = window2
    t = w.teaching
    front(w, "explain")
    w.model.set_cell("X", 0, 0, 0.75)
    settle(w)
    result = w.model.result
    assert t.diagnostics._shown != (result, 0) and t.symmetry._shown != (result, 0)
    assert ("kk", 0) not in result._cache  # KKᵀ is not even computed
    front(w, "symmetry")
    assert t.symmetry._shown == (result, 0) and ("kk", 0) in result._cache
    assert f"asymmetry {result.lessons(0).asymmetry:.4f}" in t.symmetry.qk_title.text()
    front(w, "diagnostics")
    assert t.diagnostics._shown == (result, 0)
    assert t.diagnostics.table.model().rowCount() == w.model.state.n


def test_the_score_charts_follow_a_language_switch_while_the_box_holds_bad_text(lab, qapp):
    """Bad scores typed, then View → Language → 中文: the charts' titles and the table
    of the last valid scores stayed English ("no scaling (÷ 1)", "max", "entropy")."""
    from qkv_desktop.views import i18n
    bars = lab.score_bars
    enter_scores(bars, "2, abc, 1e400")
    try:
        i18n.install_translators(qapp, "zh_CN")
        qapp.processEvents()
        assert bars.plots[0].getPlotItem().titleLabel.text == "不缩放（÷ 1）"
        table = bars.table.text()
        assert "不缩放（÷ 1）" in table and "最大值" in table and "熵" in table
        assert "no scaling" not in table and "entropy" not in table
        assert "不是数字" in bars.error.text()
    finally:
        i18n.install_translators(qapp, "en")
        qapp.processEvents()


def test_the_scaling_labs_refused_score_says_why_in_the_windows_language(lab, chinese):
    """"第 2 个分数：'abc' is not a number …": the reason stayed English."""
    bars = lab.score_bars
    enter_scores(bars, "2, abc, 0.5")
    text = bars.error.text()
    assert not bars.error.isHidden() and "abc" in text
    assert "is not a number" not in text and "不是数字" in text
