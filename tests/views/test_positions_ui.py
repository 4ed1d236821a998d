"""The Positions and Mask groups, the new panes, painting the custom mask, explain, export."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from helpers import cell_widget_pos
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from qkv_desktop.core import alibi_slopes
from qkv_desktop.export.pane_figures import pane_spec
from qkv_desktop.export.render import render
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.compute import compute


def _relevant(window) -> set[str]:
    return {k for k in window.panes.shown()}


def test_the_groups_set_every_option_and_undo_takes_them_back(main_window):
    w, m = main_window, main_window.model
    p = w.positions_panel
    assert p.positions_group.title() == "Positions" and p.mask_group.title() == "Mask"
    p.positions.setCurrentIndex(p.positions.findData("rope"))
    p.rope_base.setValue(500000)
    p.rope_pairing.setCurrentIndex(p.rope_pairing.findData("interleaved"))
    w.controls.causal.setChecked(True)
    p.window_box.setValue(2)
    p.prefix.setValue(1)
    p.sinks.setValue(1)
    p.alibi.setChecked(True)
    assert m.wait_until_idle()
    o = m.state.options
    assert (o.positions, o.rope_base, o.rope_pairing, o.window, o.prefix, o.sinks) == \
        ("rope", 500000.0, "interleaved", 2, 1, 1)
    assert o.alibi == tuple(alibi_slopes(1))
    assert {"Q_rope", "K_rope", "mask", "bias"} <= _relevant(w)
    p.slopes[0].setValue(0.5)
    assert m.state.options.alibi == (0.5,)
    p.window_box.setValue(0)  # "off"
    assert m.state.options.window is None
    for _ in range(3):
        m.undo_stack.undo()
    assert m.state.options.window == 2 and m.state.options.alibi is None
    assert p.window_box.value() == 2 and not p.alibi.isChecked()
    while m.undo_stack.canUndo():
        m.undo_stack.undo()
    assert m.wait_until_idle()
    assert m.state.options == SessionState.from_preset("tutorial-1").options
    assert not ({"Q_rope", "K_rope", "mask", "bias", "X_pos"} & _relevant(w))


def test_one_slope_box_per_head_and_new_heads_get_the_papers_slopes(main_window):
    w, m = main_window, main_window.model
    m.set_heads(4)
    w.positions_panel.alibi.setChecked(True)
    assert m.wait_until_idle()
    assert [b.value() for b in w.positions_panel.slopes] == list(alibi_slopes(4))
    w.positions_panel.slopes[2].setValue(0.75)
    assert m.state.options.alibi[2] == 0.75
    r = m.result
    assert m.wait_until_idle() and m.result is not r
    assert [h.alibi_slope for h in m.result.heads] == [0.25, 0.0625, 0.75, 0.00390625]
    m.set_heads(2)
    assert len(w.positions_panel.slopes) == 2 and m.state.options.alibi == tuple(alibi_slopes(2))


def test_rope_with_an_odd_d_k_is_refused_where_the_user_looks(main_window, qtbot):
    w, m = main_window, main_window.model
    m.set_d_k(3)
    messages = []
    m.refused.connect(messages.append)
    p = w.positions_panel
    w.tabs.setCurrentWidget(w.positions_scroll)
    qtbot.waitUntil(p.positions.isVisible)
    p.positions.setCurrentIndex(p.positions.findData("rope"))
    assert m.state.options.positions == "none"
    assert p.positions.currentData() == "none"  # the control went back
    assert messages and "d_k must be even" in messages[-1]
    # said under the box that went back, not only at the window's other end (a first
    # user): below it (or above where there is no room), inside the window
    balloon = p.balloon
    assert balloon.isVisible() and balloon.text() == messages[-1]
    box = QRect(p.positions.mapTo(w, QPoint(0, 0)), p.positions.size())
    note = QRect(balloon.mapTo(w, QPoint(0, 0)), balloon.size())
    assert note.top() == box.bottom() + 2 or note.bottom() == box.top() - 2
    assert w.rect().contains(note)
    w.tabs.setCurrentIndex(0)  # another tab: the note no longer sits by its box
    assert not balloon.isVisible()
    w.tabs.setCurrentWidget(w.positions_scroll)
    p.positions.setCurrentIndex(p.positions.findData("rope"))
    assert balloon.isVisible()
    m.set_d_k(4)  # a change lands: the refusal is old news
    assert not balloon.isVisible()
    p.positions.setCurrentIndex(p.positions.findData("rope"))
    assert m.state.options.positions == "rope" and not balloon.isVisible()


def _press_drag_release(pane, cells):
    vp = pane.plot.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     cell_widget_pos(pane, *cells[0]))
    for cell in cells[1:]:
        pos = cell_widget_pos(pane, *cell)
        event = QMouseEvent(QMouseEvent.Type.MouseMove, pos, vp.mapToGlobal(pos),
                            Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(vp, event)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       cell_widget_pos(pane, *cells[-1]))


def test_painting_the_mask_pane_masks_a_drag_as_one_undo_step(main_window):
    w, m = main_window, main_window.model
    w.positions_panel.custom.setChecked(True)
    assert m.wait_until_idle()
    pane = w.panes.panes["mask"]
    assert "mask" in _relevant(w) and pane.isVisible()
    steps = m.undo_stack.count()
    _press_drag_release(pane, [(0, 1), (0, 2), (1, 2)])
    assert m.wait_until_idle()
    assert m.state.options.masked == ((0, 1), (0, 2), (1, 2))
    assert m.undo_stack.count() == steps + 1
    weights = m.result.head().weights
    assert weights[0, 1] == weights[0, 2] == weights[1, 2] == 0
    assert "masked (custom)" in describe_cell(m.result, CellRef("mask", 0, 1))
    assert "masked (custom)" in describe_cell(m.result, CellRef("scaled", 0, 1))
    # a masked weight says why it is 0, not "exp(s−max)/Σ = 0.0000"
    said = describe_cell(m.result, CellRef("weights", 0, 1))
    assert "= 0 exactly: masked (custom)" in said and "exp" not in said
    assert "exp(s−max)/Σ" in describe_cell(m.result, CellRef("weights", 0, 0))
    # pressing a masked cell unmasks what the drag crosses
    _press_drag_release(pane, [(0, 2), (1, 2)])
    assert m.state.options.masked == ((0, 1),)
    m.undo_stack.undo()
    assert m.state.options.masked == ((0, 1), (0, 2), (1, 2))
    assert m.selection is None  # painting never pins a cell


def test_switching_to_cross_clears_the_painted_mask_says_so_and_undo_brings_it_back(
        main_window, speak):
    """The painted cells were X's keys: kept in cross-attention they fell on other keys
    without a word. Cleared in the switch's own step, the status bar says so and how to
    get them back; Ctrl+Z (Undo) brings the cells and self-attention back, exactly."""
    w, m = main_window, main_window.model
    w.positions_panel.custom.setChecked(True)
    assert m.wait_until_idle()
    _press_drag_release(w.panes.panes["mask"], [(0, 1), (0, 2), (2, 3)])
    assert m.wait_until_idle()
    painted = m.state
    steps = m.undo_stack.count()
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("cross"))
    assert m.wait_until_idle()
    assert m.state.mode == "cross" and m.state.options.masked == ()
    assert m.undo_stack.count() == steps + 1  # one step: the switch and the clearing
    bar = w.statusBar()
    assert bar.currentMessage().startswith("The painted mask was cleared")
    assert "Ctrl+Z brings it back" in bar.currentMessage()
    assert bar.shown_message().startswith("The painted mask was cleared")  # drawn, not cut
    assert (m.result.head().weights[0, 1:3] > 0).all()  # no painted cell on the keys k1, k2
    w.undo_action.trigger()
    assert m.wait_until_idle()
    assert m.state.equals(painted)
    assert m.state.options.masked == ((0, 1), (0, 2), (2, 3)) and m.state.mode == "self"
    assert w.controls.mode.currentData() == "self"
    assert m.result.head().weights[0, 1] == m.result.head().weights[2, 3] == 0
    speak("zh_CN")
    w.redo_action.trigger()
    assert m.state.mode == "cross" and m.state.options.masked == ()
    w.undo_action.trigger()
    w.controls.mode.setCurrentIndex(w.controls.mode.findData("cross"))
    assert m.wait_until_idle()
    assert bar.currentMessage().startswith("已清除涂出的掩码")
    assert "Ctrl+Z" in bar.currentMessage()


def test_a_painted_cell_that_would_empty_a_row_is_refused_with_the_reason(main_window):
    w, m = main_window, main_window.model
    w.controls.causal.setChecked(True)
    w.positions_panel.custom.setChecked(True)
    assert m.wait_until_idle()
    messages = []
    m.refused.connect(messages.append)
    _press_drag_release(w.panes.panes["mask"], [(0, 0)])
    assert m.state.options.masked == ()
    # the row as the token table numbers it, from 0 (it said "row 1")
    assert "no key to attend to" in messages[-1] and "(row 0)" in messages[-1]


def test_hover_and_explain_know_the_window_sink_and_alibi(main_window):
    w, m = main_window, main_window.model
    s = m.state
    m.load_state(s.with_(options=replace(s.options, causal=True, window=2, sinks=1,
                                         alibi=(0.5,), positions="rope")), "test")
    assert m.wait_until_idle()
    r = m.result
    assert "masked (window)" in describe_cell(r, CellRef("mask", 3, 1))
    assert "allowed (sink)" in describe_cell(r, CellRef("mask", 3, 0))
    assert "− 0.5·|3−0|" in describe_cell(r, CellRef("scaled", 3, 0))
    assert "R(3)q" in describe_cell(r, CellRef("scores", 3, 0))
    m.set_selection(CellRef("weights", 3, 1))
    assert "masked (window)" in w.teaching.explain.html()
    m.set_selection(CellRef("weights", 3, 0))
    html = w.teaching.explain.html()
    assert "ALiBi" in html and "RoPE" in html and "0.5000·|3 − 0|" in html
    m.set_selection(None)


def test_a_cell_of_x_plus_p_gives_ps_formula_and_the_panes_name(main_window):
    """Explain on a cell of X + P said "The pinned cell is in X_pos" (the internal key)
    and never how P is made (a review): it names the pane and gives P's sine or cosine,
    whose value is the one in the sum."""
    import math
    w, m = main_window, main_window.model
    s = m.state
    m.load_state(s.with_(options=replace(s.options, positions="sinusoidal")), "test")
    assert m.wait_until_idle()
    r, d = m.result, s.X.shape[1]
    for i, j, wave in ((3, 4, math.sin), (2, 5, math.cos)):
        text = describe_cell(r, CellRef("X_pos", i, j))
        k2 = j - j % 2
        name = "sin" if wave is math.sin else "cos"
        assert f"P = {name}({i} / 10000^({k2}/{d}))" in text, text
        p = wave(i / 10000 ** (k2 / d))
        assert f"P(position {i}, d{j}) {p:.4f}".replace("-", "−") in text, text
    m.set_selection(CellRef("X_pos", 3, 4))
    html = w.teaching.explain.html()
    assert "X + P (sinusoidal positions)" in html and "X_pos" not in html
    assert "P = sin(3 / 10000^(4/8))" in html
    m.set_selection(None)


def test_alibi_in_cross_attention_says_its_positions_come_from_two_sequences(main_window):
    """ALiBi's |i − j| between a query and a key of another sequence came with no word
    (a review): the cell says the two are counted as if aligned; self-attention's not."""
    m = main_window.model
    m.set_options(alibi=(0.5,))
    assert m.wait_until_idle()
    assert "cross-attention" not in describe_cell(m.result, CellRef("bias", 2, 1))
    m.set_mode("cross")
    assert m.wait_until_idle()
    text = describe_cell(m.result, CellRef("bias", 2, 1))
    assert text.startswith("bias[") and "−0.5·|2−1| = −0.5000" in text, text
    assert "as if the two sequences were aligned" in text


def test_render_writes_the_position_and_mask_panes(tmp_path, qapp):
    s = SessionState.from_preset("tutorial-1").reinitialised(n_heads=2, d_k=2)
    s = s.with_(options=replace(s.options, causal=True, positions="rope", window=2,
                                alibi=(0.5, 0.25), custom_mask=True, masked=((3, 3),)))
    names = {p.name for p in render(s, tmp_path, formats=("png", "svg"), scale=1)}
    assert {"mask.png", "mask.svg", "bias_h1.png", "bias_h2.svg", "q_rope_h1.png",
            "k_rope_h2.png"} <= names
    result = compute(s)
    bias = pane_spec(result, "bias", 1)
    assert bias.title.startswith("head 2: ALiBi bias") and "m = 0.25" in bias.title
    np.testing.assert_array_equal(bias.data, [[-0.25 * abs(i - j) for j in range(4)]
                                              for i in range(4)])
    mask = pane_spec(result, "mask", 0)
    assert mask.data[3, 3] == 0 and mask.data[3, 2] == 1 and mask.data[0, 1] == 0
    scaled = pane_spec(result, "scaled", 0)
    np.testing.assert_array_equal(scaled.masked, mask.data == 0)


def test_the_mask_is_drawn_grey_and_white_not_on_the_weights_scale():
    from qkv_desktop.presentation.colormaps import MASKED_RGBA, lut_for
    mask, weights = lut_for("mask"), lut_for("weights")
    assert tuple(mask[0]) == MASKED_RGBA and tuple(mask[-1]) == (255, 255, 255, 255)
    assert not np.array_equal(mask, weights)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("masked", [(), ((0, 1), (2, 3))])
def test_the_custom_mask_hint_is_whole_on_a_laptop(make_window, lang, masked):
    """At 1024 × 700 the hint beside the custom mask's check box wrapped to two lines in
    a row one line high: its second line was cut (found by a first-time user)."""
    window = make_window(size=(1024, 700))
    window.language_actions[lang].trigger()
    try:
        window.model.set_options(masked=masked)
        window.tabs.setCurrentWidget(window.positions_scroll)
        assert window.model.wait_until_idle()
        for _ in range(5):
            QApplication.processEvents()
        panel = window.positions_panel
        label = panel.custom_label
        assert label.text() and label.isVisible()
        lines = label.heightForWidth(label.width())
        if lang == "en":  # (offscreen fonts: Chinese fits one line here)
            assert lines > label.fontMetrics().height() * 1.5, "one line: tests nothing"
        assert label.height() >= lines, (label.width(), label.height(), lines)
        group = panel.mask_group
        rect = QRect(label.mapTo(group, QPoint(0, 0)), label.size())
        assert group.contentsRect().contains(rect), (rect, group.contentsRect())
        clear = panel.clear_custom
        assert not QRect(clear.mapTo(group, QPoint(0, 0)), clear.size()).intersects(rect)
    finally:
        window.language_actions["en"].trigger()


def test_typing_in_the_mask_boxes_with_a_lab_open_raises_nothing(main_window, run_labs,
                                                                  qtbot):
    """With a lab open, every key typed in the Positions, mask tab went through the
    lab's key filter, which asked the widget for its ``window()``: the panel's window
    box, an attribute of that name, was called instead ("TypeError: 'ClampSayingSpinBox'
    object is not callable", in stacked dialogs; a review)."""
    main_window.model.set_options(positions="rope")  # the base box enabled
    run_labs.show("tiles")
    p = main_window.positions_panel
    assert not hasattr(p, "window") or callable(p.window)
    box = p.rope_base
    main_window.activateWindow()
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "500")  # an exception in the filter fails the test (pytest-qt)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert main_window.model.state.options.rope_base == 500


def test_a_narrow_pane_keeps_its_name_and_shape_not_the_start_of_its_formula(main_window):
    """At 1024 × 700 the RoPE panes read "RoPE(Q): queries turned by position (…": the
    shape was lost to the ellipsis (a first-time user). A title too wide for its pane
    shows the pane's name and shape; the tool tip keeps the whole title."""
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.presentation.pane_info import pane_short_title

    model = main_window.model
    model.set_options(positions="rope")
    assert model.wait_until_idle()
    QApplication.processEvents()
    result = model.result
    assert pane_short_title(result, "Q_rope") == "RoPE(Q) (4×4)"
    assert pane_short_title(result, "Q") == "Q (4×4)"
    assert pane_short_title(result, "X") == "X (4×8)"
    assert pane_short_title(result, "weights") == "weights (4×4)"
    title = main_window.panes.panes["Q_rope"].title
    assert title.text() == "RoPE(Q): queries turned by position (4×4)"
    width = title.fontMetrics().horizontalAdvance("RoPE(Q) (4×4)") + 8
    title.setFixedWidth(width)
    try:
        assert title.shown_text() == "RoPE(Q) (4×4)"
        assert title.text() in title.toolTip()
    finally:
        title.setMinimumWidth(0)
        title.setMaximumWidth(16777215)


def test_an_odd_d_k_under_rope_is_refused_under_the_d_k_box(main_window, qtbot):
    """The settings panel says its refusals under the control too (``Balloon``)."""
    w, m = main_window, main_window.model
    m.set_options(positions="rope")
    c = w.controls
    qtbot.waitUntil(c.d_k.isVisible)
    c.d_k.setValue(5)
    assert m.state.d_k == 4 and c.d_k.value() == 4  # refused; the box went back
    assert c.balloon.isVisible() and "d_k must be even" in c.balloon.text()
    box = QRect(c.d_k.mapTo(w, QPoint(0, 0)), c.d_k.size())
    note = QRect(c.balloon.mapTo(w, QPoint(0, 0)), c.balloon.size())
    assert note.top() == box.bottom() + 2 or note.bottom() == box.top() - 2
    m.set_options(positions="none")
    assert not c.balloon.isVisible()


def test_escape_on_the_refused_box_sends_its_note_away(main_window, qtbot):
    """A refused d_k's note stayed its 6 s after the learner pressed Escape on the box
    (a user's re-check); Escape elsewhere leaves it."""
    w, m = main_window, main_window.model
    m.set_options(positions="rope")
    c = w.controls
    qtbot.waitUntil(c.d_k.isVisible)
    try:
        c.d_k.setValue(5)
        assert c.balloon.isVisible()
        QTest.keyClick(c.seed, Qt.Key.Key_Escape)  # another control's Escape
        assert c.balloon.isVisible()
        QTest.keyClick(c.d_k, Qt.Key.Key_Escape)
        assert not c.balloon.isVisible()
        assert m.state.d_k == 4 and c.d_k.value() == 4
    finally:
        m.set_options(positions="none")
