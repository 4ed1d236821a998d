"""What first-time users met on a laptop in the real window, the second session: the
hint banner cut at 1024×700, the "values hidden" note, pane widths, token names left
out of an axis."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication

from qkv_desktop.state import SessionState
from qkv_desktop.views import i18n
from qkv_desktop.views.teaching.lesson_banners import LessonBanners
from tests.views.sessions import settle


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    i18n.install_translators(qapp, request.param)
    QApplication.processEvents()
    yield request.param
    i18n.install_translators(qapp, "en")
    QApplication.processEvents()


@pytest.mark.parametrize("size", [(942, 644), (1256, 706), (1600, 993)])
def test_the_hint_banner_reads_whole_at_laptop_widths(make_window, language, size):
    """942×644 and 1256×706 are the first-run windows on 1024×700 and 1366×768 screens:
    there the sentence was cut ("…, and click a cell to have it e…"); a shorter wording
    now shows whole, and the tool tip has the whole sentence."""
    window = make_window(SessionState.from_preset("tutorial-2"), size=size)
    settle(window)
    hint = window.findChild(LessonBanners).hint
    assert hint.isVisible()
    label = hint.headline
    assert not label.is_elided(), label.shown_text()
    assert "…" not in label.shown_text()
    if label.is_shortened():
        assert label.text() in label.toolTip()


@pytest.mark.parametrize("size", [(942, 644), (1256, 706), (1600, 993)])
@pytest.mark.parametrize("causal", [False, True])
def test_the_uniform_banner_never_cuts_its_number(make_window, language, size, causal):
    """tutorial-1's lesson at 1024×700 read "… every weight is within 0.…": the number
    the sentence is about, cut. A shorter wording shows whole, the tool tip has it all."""
    window = make_window(SessionState.from_preset("tutorial-1"), size=size)
    window.model.set_options(causal=causal)
    settle(window)
    uniform = window.findChild(LessonBanners).uniform
    assert uniform.isVisible()
    label = uniform.headline
    assert not label.is_elided(), label.shown_text()
    deviation = window.model.result.lessons(0).uniformity.deviation.max()
    if "within" in label.shown_text() or "相差" in label.shown_text():
        assert f"{deviation:.4f}" in label.shown_text()
    assert f"{deviation:.4f}" in label.toolTip()
    if size == (942, 644) and language == "en":  # where the number was cut
        assert label.is_shortened(), label.shown_text()


def _long_state(n: int, d_model: int = 8, d_k: int = 4) -> SessionState:
    rng = np.random.default_rng(3)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)), d_k=d_k)


@pytest.mark.parametrize("n", [1024, 96])
def test_every_pane_without_values_says_so_by_one_rule(make_window, n):
    """At n = 1024 (d = 8, d_k = 4) only Q, K, V and the output (4096 cells each) said
    "values hidden": X (8192 cells) and the n × n panes, which show no value either,
    said nothing, because the note followed the cells that could have had values. Now
    each pane without values says so, and its tool tip says how to read them."""
    window = make_window(_long_state(n), size=(1256, 706))
    settle(window)
    shown = [window.panes.panes[k] for k in window.panes.shown()]
    for pane in shown:
        assert pane.plot.values_hidden, pane.key
        assert pane.values_note.isVisibleTo(window), pane.key
        assert pane.values_note.text() == "values hidden: hover a cell"
        assert "Hover a cell" in pane.values_note.toolTip()


ROOM_ADVICE = ("larger window", "room", "enlarge", "larger")


def _advises_room(note) -> bool:
    return any(word in f"{note.text()} {note.toolTip()}".lower() for word in ROOM_ADVICE)


def test_a_matrix_too_large_to_label_is_not_said_to_want_room(make_window, qtbot):
    """At n = 96 the n × n panes (9216 cells, above MAX_LABEL_CELLS) never show their
    values, whatever the size; the note said "give the pane room: a larger window…",
    and the symmetry dock's "enlarge the dock to read them". Now it says to hover, read
    the status bar or export the data; for cells only too small, room is still advised."""
    from qkv_desktop.views.panes.heatmap_plot import MAX_LABEL_CELLS
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView

    window = make_window(_long_state(96), size=(1600, 1000))
    settle(window)
    scores = window.panes.panes["scores"]
    note = scores.values_note
    assert scores.plot.values_hidden and note.isVisible()
    assert not _advises_room(note), note.toolTip()
    assert "Hover a cell" in note.toolTip() and "Export data" in note.toolTip()
    assert str(MAX_LABEL_CELLS) in note.toolTip()
    view = SymmetryView(window.model)
    qtbot.addWidget(view)
    view.resize(1600, 1400)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.qk.data.size > 0)
    settle(window)
    assert view.qk.values_hidden and view.values_note.isVisible()
    assert not _advises_room(view.values_note), view.values_note.toolTip()
    assert "Export data" in view.values_note.toolTip()
    view.close()

    small = make_window(_long_state(24), size=(942, 644))  # 24 × 24: labelled, too small
    settle(small)
    pane = small.panes.panes["scores"]
    assert pane.plot.values_hidden and pane.values_note.isVisible()
    assert _advises_room(pane.values_note)
    assert scores.plot.values_too_many and not pane.plot.values_too_many


MINILM_TOKENS = ["[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]"]


def test_a_thinned_axis_names_the_first_and_last_token_and_marks_the_others(qapp):
    """MiniLM's 7 rows in the n × n panes at 1024×700 are thinner than a line of the
    smallest legible font: the axis named rows 0, 2, 4, 6 and nothing else, so a
    name read as that of a block. Now it names the first, every k-th and the last, and
    each unnamed row has a short tick; with 8 rows the last ([SEP]) was left out."""
    from qkv_desktop.views.panes.axis_labels import SMALLEST_ROW_PX, plan_axis

    line = QFontMetrics(_px_font(SMALLEST_ROW_PX)).height()
    plan = plan_axis(MINILM_TOKENS, 7 * line * 0.8, vertical=True)
    assert [name for _pos, name in plan.ticks] == ["[CLS]", "cat", "the", "[SEP]"]
    assert plan.unnamed == (1.5, 3.5, 5.5)
    eight = [*MINILM_TOKENS[:-1], "!", "[SEP]"]
    plan = plan_axis(eight, 8 * line * 0.8, vertical=True)
    names = [name for _pos, name in plan.ticks]
    assert names[0] == "[CLS]" and names[-1] == "[SEP]"
    assert sorted([pos for pos, _ in plan.ticks] + list(plan.unnamed)) == [k + 0.5 for k in range(8)]
    whole = plan_axis(MINILM_TOKENS, 7 * (line + 4), vertical=True)
    assert len(whole.ticks) == 7 and whole.unnamed == ()


def test_the_pane_draws_a_tick_at_each_unnamed_row(make_window):
    """The marks are where pyqtgraph maps the unnamed rows, and only there."""
    from tests.views.plot_geometry import axis_texts

    rng = np.random.default_rng(0)
    state = SessionState.initialised(MINILM_TOKENS, rng.standard_normal((7, 8)), d_k=4)
    window = make_window(state, size=(1256, 706))
    settle(window)
    pane = window.panes.panes["weights"]
    pane.plot.setFixedHeight(80)  # rows thinner than a line, whatever the pane's width
    settle(window)
    axis = pane.plot.getPlotItem().getAxis("left")
    names = [text for text, _rect in axis_texts(axis)]
    assert names[0] == "[CLS]" and names[-1] == "[SEP]" and len(names) < 7
    assert len(axis.marks) == 7 - len(names)
    vb = pane.plot.view_box
    _axis, ticks, _texts = axis.generateDrawSpecs(QPainter())
    drawn = sorted(round(start.y()) for _pen, start, end in ticks if start != end)
    expected = sorted(round(axis.mapFromScene(vb.mapViewToScene(QPointF(0, y))).y())
                      for y in axis.marks)
    assert len(drawn) == len(expected)
    assert all(abs(a - b) <= 1 for a, b in zip(drawn, expected, strict=True))


def _px_font(px: int):
    from PySide6.QtGui import QFont
    font = QFont()
    font.setPixelSize(px)
    return font


def test_a_thinned_index_axis_stays_a_ruler(qapp):
    from qkv_desktop.views.panes.axis_labels import plan_axis

    plan = plan_axis([str(k) for k in range(32)], 150, vertical=False)
    names = [name for _pos, name in plan.ticks]
    step = int(names[1]) - int(names[0])
    assert step > 1 and names == [str(k) for k in range(0, 32, step)]
    assert plan.unnamed == ()  # a ruler: no mark at each cell between its numbers


def test_cells_closer_than_the_mark_pitch_get_no_marks(qapp):
    """At n = 1024 in a 1400×900 window (about 4 cells a pixel) each unnamed cell had a
    line: a solid bar, 11,100 lines for the 16 axes (a redraw 23 → 90 ms of GUI CPU,
    and over a second at n = 4096). Marks are drawn only cells 3 px or more apart."""
    from qkv_desktop.views.panes.axis_labels import MIN_MARK_PITCH_PX, plan_axis

    tokens = [f"t{i}" for i in range(1024)]
    for room, vertical in ((250, True), (250, False), (700, True)):
        assert plan_axis(tokens, room, vertical).unnamed == ()
    plan = plan_axis(tokens[:100], 400, vertical=True)  # 4 px a row
    assert plan.unnamed and len(plan.unnamed) + len(plan.ticks) == 100
    assert len(plan.unnamed) <= 400 / MIN_MARK_PITCH_PX


def test_a_pane_at_n_1024_draws_no_line_per_cell(make_window):
    from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot

    window = make_window(_long_state(1024), size=(1400, 900))
    settle(window)
    plots = [p for p in window.findChildren(HeatmapPlot) if p.isVisible()]
    assert len(plots) >= 4
    for plot in plots:
        for name in ("left", "bottom"):
            axis = plot.getPlotItem().getAxis(name)
            _axis, ticks, _texts = axis.generateDrawSpecs(QPainter())
            assert axis.marks == () and len(ticks) < 100, (name, len(ticks))


@pytest.mark.parametrize(("count", "step"), [(2, 2), (3, 3), (5, 4), (7, 2), (8, 3), (9, 3),
                                             (1, 1), (4, 1), (10, 4)])
def test_two_names_are_never_closer_than_the_step(count, step):
    """With one name fitting, the added last one stood beside it: [0, 1] for 2 cells."""
    from qkv_desktop.views.panes.axis_labels import _every_kth

    named = _every_kth(count, step)
    assert named[0] == 0 and all(b - a >= step for a, b in zip(named, named[1:], strict=False))
    if count - 1 >= step:
        assert named[-1] == count - 1  # the last token, when it fits


def test_one_name_that_fits_is_the_first(qapp):
    from qkv_desktop.views.panes.axis_labels import _every_kth

    assert _every_kth(2, 2) == [0] and _every_kth(3, 3) == [0] and _every_kth(3, 2) == [0, 2]


def test_an_edit_leaves_the_banner_sentences_unpainted(make_window):
    """The shorter wordings are given once: an edit that changes no sentence repaints
    no banner label (the hint's wordings were set on every result)."""
    from PySide6.QtCore import QEvent, QObject

    window = make_window(SessionState.from_preset("tutorial-2"), size=(942, 644))
    settle(window)
    label = window.findChild(LessonBanners).hint.headline
    paints = []

    class Count(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                paints.append(obj)
            return False

    counter = Count()
    label.installEventFilter(counter)
    window.model.set_cell("X", 0, 0, 0.25)
    settle(window)
    label.removeEventFilter(counter)
    assert paints == []


@pytest.mark.parametrize("session", ["tutorial-1", "cross"])
def test_a_narrower_window_narrows_the_editor_before_the_panes(make_window, session):
    """A first-time user made the window 1000×660 after a first run at 1366×768: the
    editor kept its 565 px, 57 % of the window, and the grid's panes got the rest
    (two columns of 206 px beside it). The editor now gives back what it has beyond its
    share of a narrower window, the panes keep equal columns, and a wider window leaves
    the editor as the user sized it."""
    from tests.views.sessions import load_session

    window = make_window(size=(1256, 706))
    load_session(window, session)
    settle(window)
    dock = window.editor_dock
    before = dock.width()
    window.resize(1000, 660)
    settle(window)
    assert dock.width() <= max(360, 0.45 * window.width()) + 1, dock.width()
    panes = [window.panes.panes[k] for k in window.panes.shown()]
    columns = {}
    for pane in panes:
        columns.setdefault(pane.x(), []).append(pane.width())
    assert len(columns) >= 2
    widths = [w for col in columns.values() for w in col]
    assert max(widths) - min(widths) <= 1
    assert window.panes.width() >= window.width() - dock.width() - 40
    window.resize(1256, 706)
    settle(window)
    assert dock.width() <= before
