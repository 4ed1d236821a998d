"""The check of what pyqtgraph draws (``plot_geometry.plot_problems``) sees each defect.

The layout tests run it over every screen, language and session and expect nothing;
these make sure that "nothing" is not the check's blindness: one pane on tutorial-1's
weights, broken one way at a time.
"""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from tests.views.legibility import legibility_notes
from tests.views.plot_geometry import axis_texts, plot_problems, plot_texts


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


@pytest.fixture
def pane(qtbot):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    window = QWidget()
    qtbot.addWidget(window)
    pane = HeatmapPane(model, "weights", window)
    QVBoxLayout(window).addWidget(pane)
    window.resize(360, 300)
    window.show()
    qtbot.waitExposed(window)
    assert model.wait_until_idle()
    settle()
    yield pane
    model.shutdown()


def test_a_pane_as_drawn_has_every_kind_of_text_and_no_problem(pane):
    kinds = {what for what, _text, _rect in plot_texts(pane.plot)}
    assert kinds == {"left axis", "bottom axis", "colour bar", "value"}
    texts = [text for _what, text, _rect in plot_texts(pane.plot)]
    assert {"我", "智能", "1.0", "0.2480"} <= set(texts)
    assert plot_problems(pane.window()) == []


def test_a_colour_bar_level_cut_by_the_plot_edge_is_seen(pane, monkeypatch):
    """pyqtgraph centres the top level, 1.0, on the bar's top end, half outside the
    view (the colour bar's own axis moves it inside; here it does not)."""
    axis = pane.colorbar.axis
    monkeypatch.setattr(axis, "generateDrawSpecs",
                        lambda p: pg.AxisItem.generateDrawSpecs(axis, p))
    # (and pyqtgraph's bounding rectangle, past the bar's ends, which keeps that label)
    monkeypatch.setattr(type(axis), "boundingRect", pg.AxisItem.boundingRect)
    assert any("colour bar label '1.0' cut" in p for p in plot_problems(pane.window()))


def test_upright_token_names_are_measured_upright(pane):
    axis = pane.plot.getPlotItem().getAxis("bottom")
    names = ["我", "爱", "人工", "智能"]
    axis.set_rotated(True, names)  # what plan_axis asks of a crowded axis
    assert axis.rotated
    rects = {text: rect for text, rect in axis_texts(axis)}
    assert set(rects) == set(names)
    assert rects["人工"].height() > rects["人工"].width()  # read upward: taller than wide


def test_token_names_over_each_other_are_seen(pane):
    pane.plot.getPlotItem().getAxis("bottom").setTicks(
        [[(k + 0.5, f"a long token name {k}") for k in range(4)]])
    settle()
    problems = plot_problems(pane.window())
    assert any("bottom axis label 'a long token name 0' overlaps bottom axis label "
               "'a long token name 1'" in p for p in problems), problems


def test_values_too_large_for_their_cells_are_seen(pane):
    big = QFont()
    big.setPixelSize(40)
    pane.overlay.value_font = big
    problems = plot_problems(pane.window())
    assert any("value '0.2480' leaves its cells" in p for p in problems)
    assert any("value label '0.2480' overlaps value label '0.2509'" in p
               or "value label '0.2509' overlaps value label '0.2480'" in p for p in problems)


def test_a_title_outside_its_pane_is_seen(pane):
    title = pane.title
    title.setGeometry(-30, 0, pane.width() + 60, title.height())
    problems = plot_problems(pane.window())
    assert any("title" in p and "reaches outside its pane" in p for p in problems), problems


def test_a_title_over_its_plot_is_seen(pane):
    title = pane.title
    title.setGeometry(0, 0, pane.width(), title.height() + 20)
    problems = plot_problems(pane.window())
    assert any("title" in p and "runs into its plot" in p for p in problems), problems


def test_the_notes_name_what_is_readable_only_on_hover(pane, qtbot):
    """Hidden values, left-out token names and a shortened title: not failures, but
    what the screenshot script lists for a person to weigh."""
    window = pane.window()
    assert legibility_notes(window) == []
    window.resize(130, 70)  # at the plot's minimum: too small for values and four names
    qtbot.waitUntil(lambda: pane.plot.values_hidden)
    settle()
    notes = legibility_notes(window)
    assert "pane weights: values hidden" in notes
    assert any(n.startswith("pane weights: bottom axis names") and "of 4 tokens" in n
               for n in notes), notes
    assert any(n.startswith("shortened: 'weights") for n in notes), notes
