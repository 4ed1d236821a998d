"""The RoPE lab window: rotations per pair, the shift and base sliders, shuffling tokens."""

from __future__ import annotations

import re

import pytest

from qkv_desktop.views.teaching.rope_lab import (
    DECAY_BASES,
    MAX_PAIR_PLOTS,
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


def test_base_slider_spans_the_boxs_range_under_positions():
    """The slider reaches every base the box under Positions takes (a session at base
    500 sat at the slider's 10000 end)."""
    from qkv_desktop.views.editors.position_controls import ROPE_BASE_RANGE

    assert (base_from_slider(0), base_from_slider(900)) == ROPE_BASE_RANGE == (1.0, 1e9)
    assert slider_from_base(1e5) == 500 and base_from_slider(500) == 1e5
    assert base_from_slider(slider_from_base(500.0)) == 501.0  # three significant digits


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


def test_the_decay_plot_has_one_curve_per_base_and_follows_the_slider(main_window, qtbot):
    lab = _lab(main_window)
    lab.base.setValue(550)
    assert main_window.model.wait_until_idle()
    # (the slider sets the base once a frame: the redraw follows)
    qtbot.waitUntil(lambda: len(lab.decay.getPlotItem().listDataItems())
                    == len(DECAY_BASES) + 1)
    items = lab.decay.getPlotItem().listDataItems()
    x, y = items[-1].getData()
    assert x[0] == 0 and abs(y[0] - 1) < 1e-12 and y[-1] < 1
    assert lab.base_label.text() == "316000" == str(round(base_from_slider(550)))
    lab.close()


def test_the_decay_legend_and_the_base_read_as_whole_numbers(main_window, qtbot):
    """The learner reads "base 10000", as the RoPE paper writes it, never "1e+04"."""
    lab = _lab(main_window)
    lab.base.setValue(450)
    assert main_window.model.wait_until_idle()
    names = [label.text for _sample, label in lab.decay.getPlotItem().legend.items]
    assert names[:3] == ["base 10000", "base 100000", "base 1000000"], names
    assert names[3] == f"this base {round(base_from_slider(450))}" == "this base 31600"
    lab.base.setValue(400)
    assert lab.base_label.text() == "10000"
    assert not any("e+" in n for n in names)
    # this base is one of the references: drawn and named once, in red (the grey one
    # lay hidden under it, and the legend named 10000 twice; a first-time user)
    qtbot.waitUntil(lambda: [label.text for _s, label in lab.decay.getPlotItem().legend.items]
                    == ["base 100000", "base 1000000", "this base 10000"])
    assert len(lab.decay.getPlotItem().listDataItems()) == len(DECAY_BASES)
    lab.close()


def test_shuffling_tokens_shows_equivariance_without_positions(main_window):
    lab = _lab(main_window)
    lab.shuffle.click()
    text = lab.order_info.text()
    assert _number(text, "shuffled out| =") < 1e-12
    assert _number(text, "With RoPE:") > 1e-6
    lab.close()


def test_an_odd_d_k_says_why_nothing_turns(main_window):
    """Tutorial 2 with d_k = 3: both charts were blank, the decay plot (its own d = 128)
    with an empty legend box. The reason is said where the pairs would be drawn, and the
    decay plot, which does not depend on the session, is drawn."""
    import pyqtgraph as pg

    main_window.model.set_d_k(3)
    assert main_window.model.wait_until_idle()
    lab = _lab(main_window)
    said = [item.text for item in lab.rotations.ci.items if isinstance(item, pg.LabelItem)]
    assert len(said) == 1 and "make d_k even to see it (d_k = 3)" in said[0]
    item = lab.decay.getPlotItem()
    bases = {*DECAY_BASES, main_window.model.state.options.rope_base}  # (10⁴ is one)
    assert len(item.listDataItems()) == len(item.legend.items) == len(bases)
    assert "(d = 128)" in lab.decay_info.text()
    lab.close()


def test_the_shuffle_result_is_scrolled_into_view_whole(main_window, qtbot):
    """At 1024 × 700, scrolled to the bottom, "Shuffle tokens": the result took a line
    more than the prompt, and that line was under the window's bottom edge."""
    from PySide6.QtWidgets import QApplication

    lab = _lab(main_window)
    lab.resize(1024, 700)
    QApplication.processEvents()
    bar = lab.body.verticalScrollBar()
    assert bar.maximum() > 0  # the lab scrolls at this size
    bar.setValue(bar.maximum())
    lines = lab.order_info.height()
    lab.shuffle.click()
    for _ in range(5):  # the layout settles, a level a round, as on screen
        QApplication.processEvents()
    assert lab.order_info.height() > lines  # the result wraps onto another line
    group = lab.order_group  # the result and its frame, none of it under the edge
    assert group.visibleRegion().boundingRect() == group.rect()
    lab.close()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("screen", [(1024, 700), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rope_lab_reads_on_a_laptop_screen(qtbot, qapp, monkeypatch, screen, lang):
    """Issue 18: at 1024×700 the decay plot's legend entries ran into each other over the
    curves and its axis name was cut; the lab now scrolls rather than squeeze them."""
    from dataclasses import replace

    from PySide6.QtCore import QCoreApplication, QRect
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel
    from qkv_desktop.state import SessionState
    from qkv_desktop.views import i18n
    from qkv_desktop.views.teaching.rope_lab import RopeLab
    w, h = screen
    monkeypatch.setattr(type(QApplication.primaryScreen()), "availableGeometry",
                        lambda self: QRect(0, 0, w, h))
    i18n.install_translators(qapp, lang)
    QCoreApplication.sendPostedEvents()
    try:
        # a base of its own: four curves and four names in the legend's two columns
        state = SessionState.from_preset("tutorial-1")
        state = state.with_(options=replace(state.options, rope_base=31600.0))
        lab = RopeLab(AttentionModel(state))
        qtbot.addWidget(lab)
        lab.show()
        qtbot.waitExposed(lab)
        assert lab.width() <= w and lab.height() <= h
        QApplication.processEvents()  # the layout settles before it is scrolled
        plot = lab.decay
        centre = plot.mapTo(lab.body.widget(), plot.rect().center())
        lab.body.ensureVisible(centre.x(), centre.y(), plot.width() // 2 + 1,
                               plot.height() // 2 + 1)
        QApplication.processEvents()
        view = plot.viewport()
        assert view.visibleRegion().boundingRect() == view.rect()
        item = plot.getPlotItem()
        assert item.size().width() <= view.width() + 0.5
        left = item.getAxis("left")
        assert left.label.boundingRect().width() <= left.size().height()
        rects = [label.sceneBoundingRect() for _sample, label in item.legend.items]
        assert len(rects) == 4
        for k, a in enumerate(rects):
            assert all(not a.intersects(b) for b in rects[k + 1:]), rects
        assert item.vb.sceneBoundingRect().contains(item.legend.sceneBoundingRect())
    finally:
        i18n.install_translators(qapp, "en")
        QCoreApplication.sendPostedEvents()


def test_the_lab_draws_only_when_shown_and_again_when_its_controls_change(main_window):
    """One refresh-when-shown mechanism (``RefreshWhenShown``): hidden, a new result
    costs nothing; shown, the lab catches up; its own sliders redraw it."""
    lab = _lab(main_window)
    model = main_window.model
    lab.hide()
    drawn = []
    real = lab._draw_pairs
    lab._draw_pairs = lambda pr: (drawn.append(1), real(pr))
    model.set_cell("X", 0, 0, 2.5)
    assert model.wait_until_idle()
    assert drawn == []  # hidden: nothing drawn for the new result
    lab.show()
    assert drawn == [1] and lab._shown == (model.result, model.current_head)
    lab.refresh()
    assert drawn == [1]  # already showing this result
    lab.shift.setValue(7)  # same result, new control value: drawn again
    assert drawn == [1, 1] and "Shifted by 7" in lab.shift_info.text()
    lab.close()


@pytest.mark.parametrize("screen", [(1024, 700), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_pair_shows_its_turning_on_a_laptop_screen(qtbot, monkeypatch, screen):
    """At 1024×700 the eight pair plots were squares of 40 pixels with vectors of a few
    pixels: only dots showed, not the turning (a review). Each pair's circle keeps
    ``PAIR_MIN_PX`` across and down, and its rotated query and key reach well from
    the centre (the lab scrolls rather than squeeze them)."""
    import math

    import pyqtgraph as pg
    from PySide6.QtCore import QPointF, QRect
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.model import AttentionModel
    from qkv_desktop.state import SessionState
    from qkv_desktop.views.teaching.rope_lab import MAX_PAIR_PLOTS, RopeLab
    w, h = screen
    monkeypatch.setattr(type(QApplication.primaryScreen()), "availableGeometry",
                        lambda self: QRect(0, 0, w, h))
    state = SessionState.from_preset("tutorial-1").reinitialised(d_k=32, init_scale=1.0)
    model = AttentionModel(state)
    assert model.wait_until_idle()
    lab = RopeLab(model)
    qtbot.addWidget(lab)
    lab.show()
    qtbot.waitExposed(lab)
    QApplication.processEvents()
    assert lab.width() <= w and lab.height() <= h
    plots = [item for item in lab.rotations.ci.items if isinstance(item, pg.PlotItem)]
    assert len(plots) == MAX_PAIR_PLOTS
    for plot in plots:
        box = plot.vb.sceneBoundingRect()
        assert min(box.width(), box.height()) >= 80, (box.width(), box.height())
        # and whole on the plots' widget: no row cut at its bottom
        view = lab.rotations
        assert view.viewport().rect().contains(view.mapFromScene(box).boundingRect())
        centre = plot.vb.mapViewToScene(QPointF(0, 0))
        ends = [plot.vb.mapViewToScene(QPointF(float(x[-1]), float(y[-1])))
                for x, y in (item.getData() for item in plot.listDataItems())
                if len(x) == 2]  # a vector: from the origin to its end
        assert len(ends) == 4  # q and k before and after
        lengths = [math.hypot((e - centre).x(), (e - centre).y()) for e in ends]
        # the longer vector of the pair reaches well out: arrows, not dots
        assert max(lengths) >= 0.35 * min(box.width(), box.height()), lengths
    lab.close()


def _lab_score(lab) -> str:
    """The score the lab prints for its query and key, as printed."""
    return re.search(r"R\(\d+\)q · R\(\d+\)k = (\S+)\. ", lab.rotation_info.text()).group(1)


def test_the_lab_scores_with_the_sessions_base_and_pairing(main_window):
    """A review: Tutorial 1 with RoPE at base 500 (Positions), the lab's base slider sat
    at 10000 and printed R(3)q · R(0)k = −0.0063 where the main window's RoPE(Q)·RoPE(K)ᵀ
    pane said −0.0044; after RoPE base 100000 a lab already open kept 10000. The lab's
    score for the session's own base and pairing is the pane's, as the base changes."""
    from qkv_desktop.presentation.numbers import format_value

    model = main_window.model
    lab = _lab(main_window)  # open before the session's RoPE changes: it follows them
    lab.query.setCurrentIndex(3)
    lab.key.setCurrentIndex(0)
    assert model.state.options.positions == "none"  # the pane is QKᵀ: the lab says so
    assert "the main window's scores are QKᵀ" in lab.rotation_info.text()
    for base, pairing in ((500.0, "interleaved"), (100000.0, "half"), (1234.5, "interleaved")):
        model.set_options(positions="rope", rope_base=base, rope_pairing=pairing)
        assert model.wait_until_idle()
        pane = model.result.head(model.current_head).scores[3, 0]
        assert _lab_score(lab) == format_value(pane), (base, pairing, lab.rotation_info.text())
        theta = format_value(base ** -0.5)  # d_k = 4: pairs turn by 1 and base^(−1/2)
        assert f"θ = 1.0000, {theta}." in lab.rotation_info.text()
        assert lab.base_label.text() == f"{base:g}"
        assert "QKᵀ" not in lab.rotation_info.text()
    lab.close()


def test_the_base_slider_is_the_sessions_base_and_undoes(main_window):
    """The lab's base slider edits the session's RoPE base, as the box under Positions
    does (one undo step), so the lab and the main window never disagree."""
    from qkv_desktop.presentation.numbers import format_value

    model = main_window.model
    model.set_options(positions="rope", rope_base=500.0)
    assert model.wait_until_idle()
    lab = _lab(main_window)
    assert lab.base.value() == slider_from_base(500.0)
    lab.query.setCurrentIndex(3)
    lab.key.setCurrentIndex(0)
    at_500 = format_value(model.result.head(0).scores[3, 0])
    assert _lab_score(lab) == at_500 == "0.0363"  # the pane's number (0.03627)
    lab.base.setValue(slider_from_base(31600.0))
    assert model.wait_until_idle()
    assert model.state.options.rope_base == 31600.0
    assert _lab_score(lab) == format_value(model.result.head(0).scores[3, 0]) != at_500
    model.undo_stack.undo()
    assert model.wait_until_idle()
    assert model.state.options.rope_base == 500.0
    assert lab.base.value() == slider_from_base(500.0) and lab.base_label.text() == "500"
    assert _lab_score(lab) == at_500
    lab.close()


def test_a_drag_of_the_base_slider_is_one_step_set_once_a_frame(main_window, qtbot, monkeypatch):
    """With tracking on, every move of a drag set the session's base (a recompute of
    every head each time) and merged into the undo step only while the moves came
    within ``MERGE_WINDOW_S`` of each other. A drag is one undo step however long it
    pauses, the moves of one frame set the base once, and the release sets the base
    the slider was let go at."""
    from qkv_desktop.model import commands

    monkeypatch.setattr(commands, "MERGE_WINDOW_S", -1.0)  # as if each move came late
    model = main_window.model
    model.set_options(positions="rope", rope_base=500.0)
    assert model.wait_until_idle()
    lab = _lab(main_window)
    steps = model.undo_stack.count()
    bases = []
    model.changed.connect(lambda: bases.append(model.state.options.rope_base))
    lab.base.setSliderDown(True)  # what QSlider does on a press on its handle
    for pos in range(300, 360):  # sixty moves within one frame
        lab.base.setSliderPosition(pos)
    assert bases == [base_from_slider(300)], bases  # the first at once, the rest wait
    qtbot.waitUntil(lambda: len(bases) == 2)  # the frame ended: its newest value
    assert bases[-1] == base_from_slider(359)
    for pos in range(420, 480):
        lab.base.setSliderPosition(pos)
    lab.base.setSliderDown(False)  # released at 479
    assert model.state.options.rope_base == base_from_slider(479) == 61700.0
    assert len(bases) <= 4, bases
    assert model.undo_stack.count() == steps + 1  # the whole drag, one step
    assert lab.base.value() == 479 and lab.base_label.text() == "61700"
    qtbot.wait(50)  # nothing applies after the release
    assert model.state.options.rope_base == 61700.0 and len(bases) <= 4
    model.undo_stack.undo()
    assert model.state.options.rope_base == 500.0
    assert lab.base.value() == slider_from_base(500.0)
    lab.base.setValue(500)  # a single move (a key, the wheel): a step of its own
    assert model.undo_stack.count() == steps + 1
    assert model.state.options.rope_base == 1e5
    lab.close()


def test_a_redraw_gives_the_pair_plots_new_data_and_makes_none(main_window):
    """Each redraw made its eight pair plots afresh: 450 ms of CPU per shift step, base
    step or edit with the lab open (two frames a second in a drag). The plots are made
    once per number of pairs and their curves take the new vectors."""
    import pyqtgraph as pg

    lab = _lab(main_window)
    model = main_window.model
    plots = [item for item in lab.rotations.ci.items if isinstance(item, pg.PlotItem)]
    lab.shift.setValue(5)
    model.set_options(rope_base=777.0)
    assert model.wait_until_idle()
    lab.refresh()
    again = [item for item in lab.rotations.ci.items if isinstance(item, pg.PlotItem)]
    assert again == plots and len(plots) == model.state.d_k // 2
    r = model.result.head(model.current_head)
    from qkv_desktop.core.rope_lessons import pair_rotations
    i, j = lab.query.currentIndex(), lab.key.currentIndex()
    pr = pair_rotations(r.Q[i], r.K[j], i + 5, j + 5, 777.0, model.state.options.rope_pairing)
    x, y = lab._pairs[0][1][4].getData()  # pair 0's query after RoPE, from the origin
    assert (x[-1], y[-1]) == pytest.approx(tuple(pr.q_rot[0]))
    assert "777" in lab.base_label.text()
    model.set_d_k(model.state.d_k - 2)  # one pair fewer: made again, one fewer
    assert model.wait_until_idle()
    lab.refresh()
    fewer = [item for item in lab.rotations.ci.items if isinstance(item, pg.PlotItem)]
    assert len(fewer) == model.state.d_k // 2


def test_ctrl_z_in_the_lab_undoes_its_base(main_window, qtbot):
    """The lab is a window of its own: Ctrl+Z pressed there (its slider focused) undid
    nothing, though the slider had just edited the session. The main window's Undo and
    Redo act in it, as in the gradient lab."""
    from PySide6.QtCore import Qt

    model = main_window.model
    model.set_options(positions="rope", rope_base=500.0)
    assert model.wait_until_idle()
    lab = _lab(main_window)
    assert main_window.undo_action in lab.actions()
    lab.base.setFocus()
    lab.base.setValue(slider_from_base(31600.0))
    assert model.wait_until_idle()
    assert model.state.options.rope_base == 31600.0
    qtbot.keyClick(lab.base, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert model.wait_until_idle()
    assert model.state.options.rope_base == 500.0
    assert lab.base.value() == slider_from_base(500.0)
    qtbot.keyClick(lab.base, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert model.wait_until_idle()
    assert model.state.options.rope_base == 31600.0
    lab.close()


def test_the_scaling_lab_has_the_main_windows_undo(main_window):
    """The scaling lab, a window of its own too, offers the same Undo and Redo."""
    lab = main_window.teaching.lab
    assert {main_window.undo_action, main_window.redo_action} <= set(lab.actions())


def test_slow_pairs_read_as_their_turn_and_the_plots_say_which_pairs(main_window):
    """At d_k = 64 (32 pairs) and base 10⁶ the slowest pairs turn by about 2e−6 rad a
    position: θ read "0.0000" for them, as if they did not turn, and the eight plots
    never said they were 8 of 32 pairs (a review)."""
    from qkv_desktop.core.positions import rope_angles
    from qkv_desktop.presentation.numbers import format_nonzero

    model = main_window.model
    model.set_options(positions="rope", rope_base=1e6)
    model.set_d_k(64)
    assert model.wait_until_idle()
    lab = _lab(main_window)
    text = lab.rotation_info.text()
    theta = rope_angles([1.0], 64, 1e6)[0]
    assert theta[-1] < 5e-5  # it rounds to 0.0000 at four decimals
    assert format_nonzero(theta[-1]) in text and ", 0.0000" not in text
    assert "The plots show pairs 0 … 7, the fastest-turning, of the 32 pairs." in text
    titles = [plot.titleLabel.text for plot, _curves in lab._pairs]
    assert len(titles) == MAX_PAIR_PLOTS and all("0.0000" not in t for t in titles)
    model.set_d_k(4)  # two pairs: every one is plotted, nothing to say
    assert model.wait_until_idle()
    assert "The plots show" not in lab.rotation_info.text()
    lab.close()


def test_the_wheel_over_the_decay_plot_scrolls_the_lab_and_zooms_nothing(main_window):
    """The wheel over the distance plot zoomed it to −3000 … 3000, a smudge, with no
    way back (a first-time user): the plot is read, not moved, and leaves the wheel to
    the lab's scroll area."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    lab = _lab(main_window)
    plot = lab.decay
    before = plot.getPlotItem().getViewBox().viewRange()
    centre = QPointF(plot.viewport().rect().center())
    wheel = QWheelEvent(centre, QPointF(plot.viewport().mapToGlobal(centre.toPoint())),
                        QPoint(), QPoint(0, -120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    plot.wheelEvent(wheel)  # what the viewport's wheel does
    assert not wheel.isAccepted()  # Qt passes it on to the lab's scroll area
    assert plot.getPlotItem().getViewBox().viewRange() == before
    lab.close()
