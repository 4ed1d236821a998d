"""What a pane does per edit (issue 20): the work that made edit → repaint slow, pinned by
what the pane does rather than how long it takes (no timed assertions).

* the colours are one opaque RGB32 image (a palette image is Qt's slowest scaled draw),
  coloured exactly like ``map_to_rgba`` (what figures and the label colours use);
* a matrix whose cells are too small for any value formats none of its values;
* value labels are placed once per data and zoom: a hover repaints without re-placing;
* a label's width is measured once per font, not in every edit.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget

from qkv_desktop.presentation import numbers
from qkv_desktop.presentation.colormaps import levels_for, lut_for, map_to_rgba
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.views.panes import color_bar, heatmap_plot


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_the_colours_are_an_opaque_rgb32_image_of_map_to_rgba(main_window):
    pane = main_window.panes.panes["Q"]
    main_window.repaint()
    qimage = pane.image.qimage
    assert qimage.format() == QImage.Format.Format_RGB32
    data = pane.image.image
    want = map_to_rgba(data, lut_for("Q"), levels_for("Q", data))
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            c = qimage.pixelColor(j, i)
            assert (c.red(), c.green(), c.blue(), c.alpha()) == (*want[i, j][:3], 255)


def test_cells_too_small_for_any_value_format_none(make_window, monkeypatch):
    calls = []
    real = heatmap_plot.format_values
    monkeypatch.setattr(heatmap_plot, "format_values",
                        lambda data, *rest: calls.append(data.shape) or real(data, *rest))
    rng = np.random.default_rng(0)
    state = SessionState.initialised([f"t{i}" for i in range(64)],
                                     rng.standard_normal((64, 64)).round(3), d_k=64)
    window = make_window(state, size=(1400, 900))
    settle()
    window.model.set_cell("X", 3, 5, 1.25)
    assert window.model.wait_until_idle()
    settle()
    pane = window.panes.panes["scores"]
    assert pane.plot.values_hidden and pane.values_note.isVisible()
    assert pane.overlay.labelled  # small enough to label: only the cells are too small
    assert calls == []  # …so none of its 4096 values was formatted
    assert pane.overlay.texts[0][0] == numbers.format_value(pane.overlay.data[0, 0])


def test_a_hover_repaints_the_labels_without_placing_them_again(main_window, monkeypatch):
    pane = main_window.panes.panes["weights"]
    main_window.repaint()
    assert pane.overlay.labels_drawn == 16
    placed = []
    real = heatmap_plot.CellOverlay._place_values
    monkeypatch.setattr(heatmap_plot.CellOverlay, "_place_values",
                        lambda self, *a: placed.append(self) or real(self, *a))
    main_window.model.set_hover(CellRef("weights", 1, 2, 0))
    pane.plot.viewport().repaint()
    assert pane.overlay.links and pane.overlay.labels_drawn == 16
    assert pane.overlay not in placed
    main_window.model.set_cell("X", 0, 0, 0.5)  # new values: placed again
    assert main_window.model.wait_until_idle()
    pane.plot.viewport().repaint()
    assert pane.overlay in placed


def test_label_widths_are_measured_once_per_font(qapp, monkeypatch):
    from PySide6.QtGui import QFont
    numbers._WIDTHS.clear()
    texts = ["0.2480", "−0.2180", "0.2499"]
    first = numbers.fit_value_font(texts, 60, 30, QFont(), 13)
    measured = []
    real = numbers.QFontMetricsF.horizontalAdvance
    monkeypatch.setattr(numbers.QFontMetricsF, "horizontalAdvance",
                        lambda self, t: measured.append(t) or real(self, t))
    again = numbers.fit_value_font(texts, 60, 30, QFont(), 13)
    assert again == first and measured == []


# ----------------------------------------------- what an edit repaints (issue 20)
def test_the_colour_bar_lays_out_the_ticks_pyqtgraph_would(main_window):
    """``_InsideAxis._level_specs`` is pyqtgraph's ``generateDrawSpecs`` without its
    per-tick objects, and its ``tickValues`` pyqtgraph's without NumPy: the same
    ticks, pens, texts and rectangles, at any levels (labels kept within pyqtgraph's
    bounding rectangle, which reaches past the bar's ends: the bar's own is tighter)."""
    from unittest.mock import patch

    import pyqtgraph as pg
    from PySide6.QtGui import QFontMetricsF, QPainter, QPicture
    axis = main_window.panes.panes["Q"].colorbar.axis
    rng = np.random.default_rng(3)
    height = QFontMetricsF(axis.style["tickFont"] or axis.font()).height()

    def plain(specs):
        line, ticks, texts = specs
        return ((line[1].x(), line[1].y(), line[2].x(), line[2].y()),
                [(pen.color().rgba(), a.x(), a.y(), b.x(), b.y()) for pen, a, b in ticks],
                [(rect.getRect(), int(flags), text) for rect, flags, text in texts])

    def ours(specs):  # each level's ticks: (pen, lines)
        line, levels, texts = specs
        ticks = [(pen, t.p1(), t.p2()) for pen, lines in levels for t in lines]
        return plain((line, ticks, texts))

    for k in range(2000):  # its own tick values too: pyqtgraph's, to the last bit
        top = float(10 ** rng.uniform(-6, 6))
        lo = 0.0 if k % 3 == 0 else -top * rng.uniform(0.1, 1)
        size = float(rng.uniform(20, 1200))
        theirs = pg.AxisItem.tickValues(axis, lo, top, size)
        assert axis.pyqtgraph_tick_values(lo, top, size) == theirs
        spaced = axis.tickValues(lo, top, size)
        if spaced != theirs:  # evenly labelled: one coarser level, 1.5 labels apart
            (step, values), = spaced
            assert step > theirs[0][0] and step * size / (top - lo) >= 1.5 * height
            assert theirs[0][0] * size / (top - lo) < 1.5 * height
            np.testing.assert_allclose(np.diff(values), step, rtol=1e-9)
            assert values[0] >= lo - 1e-9 * top and values[-1] <= top * (1 + 1e-9)
    try:
        for k in range(300):
            top = float(10 ** rng.uniform(-5, 5))
            axis.setRange(0.0 if k % 3 == 0 else -top, top)
            picture = QPicture()
            painter = QPainter(picture)
            try:
                ours_ = ours(axis._level_specs(painter))
                with patch.object(type(axis), "boundingRect", pg.AxisItem.boundingRect):
                    theirs = plain(pg.AxisItem.generateDrawSpecs(axis, painter))
            finally:
                painter.end()
            assert ours_ == theirs, (k, top)
            # as the bar lays itself out: measured without a painter (``_Measure``)
            picture = QPicture()
            painter = QPainter(picture)
            measure = color_bar._Measure(axis.style["tickFont"])
            try:
                assert (ours(axis._layout(measure)) == ours(axis._layout(painter))
                        == plain(axis.generateDrawSpecs(painter))), (k, top)
            finally:
                measure.end()
                painter.end()
    finally:
        axis.setRange(*main_window.panes.panes["Q"].colorbar.levels)


def test_a_colour_bar_makes_a_painter_to_measure_with_for_new_labels_only(main_window,
                                                                         monkeypatch):
    """New levels lay a bar out again (most edits): a painter to measure labels with (on
    a ``QPicture``, as pyqtgraph's) is made only when a label not measured before
    appears; before, a picture and its painter were made for every layout. (The pixels:
    ``test_small_edit_work.test_the_bar_draws_the_pixels_of_pyqtgraphs_picture``.)"""
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem
    axis = main_window.panes.panes["output"].colorbar.axis
    made, pictures = [], []
    real = color_bar._Measure._real
    monkeypatch.setattr(color_bar._Measure, "_real",
                        lambda self: made.append(self._painter is None) or real(self))
    real_picture = color_bar.QPicture
    monkeypatch.setattr(color_bar, "QPicture", lambda: pictures.append(1) or real_picture())

    def layout(top):
        axis.setRange(-top, top)
        image = QImage(90, 400, QImage.Format.Format_RGB32)
        image.fill(QColor(255, 255, 255))
        painter = QPainter(image)
        try:
            axis.paint(painter, QStyleOptionGraphicsItem())
        finally:
            painter.end()

    try:
        for top in (1.2, 1.21, 1.22, 1.23):
            layout(top)
        made.clear()
        pictures.clear()
        generated = axis.specs_generated
        for top in (1.2001, 1.2101, 1.2201, 1.2301):  # the same labels at new places
            layout(top)
        assert axis.specs_generated == generated + 4
        assert sum(made) == 0 and pictures == []
        layout(1234.5)  # labels never measured: measured with one painter
        assert sum(made) == 1 and len(pictures) == 1
    finally:
        axis.setRange(*main_window.panes.panes["output"].colorbar.levels)


def test_an_edit_that_keeps_the_levels_does_not_regenerate_the_colour_bar(main_window):
    model = main_window.model
    bars = {k: main_window.panes.panes[k].colorbar for k in main_window.panes.shown()
            if k in main_window.panes.panes}
    main_window.repaint()
    X = model.state.X
    big = np.unravel_index(np.argmax(np.abs(X)), X.shape)
    row, col = next((i, j) for i in range(X.shape[0]) for j in range(X.shape[1])
                    if (i, j) != big)
    before = {k: (bar.levels, bar.axis.specs_generated) for k, bar in bars.items()}
    model.set_cell("X", row, col, float(X[row, col]) / 2)  # |X|'s maximum stays
    assert model.wait_until_idle()
    main_window.repaint()
    kept = {k for k, bar in bars.items() if bar.levels == before[k][0]}
    assert {"X", "weights"} <= kept and kept != set(bars)  # ±max|X|, [0, 1]; others moved
    for key, bar in bars.items():  # ticks laid out again exactly when the levels moved
        assert bar.axis.specs_generated == before[key][1] + (key not in kept), key


def test_cell_colours_on_screen_after_an_edit(main_window):
    """Pixels near each cell's corner (off its value label) are the cell's colour."""
    model = main_window.model
    model.set_cell("X", 2, 1, -0.4)
    assert model.wait_until_idle()
    main_window.repaint()
    for key in ("X", "Q", "weights"):
        plot = main_window.panes.panes[key].plot
        data = plot.data
        want = map_to_rgba(data, lut_for(key), levels_for(key, data))
        picture = plot.grab().toImage()
        ratio = picture.devicePixelRatio()
        vb = plot.view_box
        for (i, j), _v in np.ndenumerate(data):
            at = plot.mapFromScene(vb.mapViewToScene(QPointF(j + 0.15, i + 0.15)))
            c = picture.pixelColor(int(at.x() * ratio), int(at.y() * ratio))
            assert (c.red(), c.green(), c.blue()) == tuple(want[i, j][:3]), (key, i, j)


def _on_screen(window) -> QImage:
    """What the window's backing store holds now (the offscreen screen grabs it): the
    pixels the partial repaints left, not a fresh rendering like ``QWidget.grab``."""
    return window.screen().grabWindow(window.winId()).toImage()


def test_an_edit_repaints_no_token_name_and_leaves_the_axes_as_a_full_paint(make_window,
                                                                             monkeypatch):
    """Repainting the cells after an edit exposes a pixel of each token axis beside
    them: the axis redraws its line there, not its names (issue 20), and the window
    then looks exactly as when everything is painted afresh. (A colour bar whose levels
    moved is repainted whole, and its area reaches the end of the names below; an axis
    laid out again, when a wider bar narrowed the plot, is drawn whole.)"""
    import pyqtgraph as pg
    full, edges = [], []
    real_full = pg.AxisItem.paint
    real_edge = heatmap_plot.TokenAxis.paint
    # (patched before the window exists: Qt calls the paint its items were made with)
    monkeypatch.setattr(pg.AxisItem, "paint", lambda self, *a: full.append(self)
                        or real_full(self, *a))
    monkeypatch.setattr(heatmap_plot.TokenAxis, "paint", lambda self, *a: edges.append(self)
                        or real_edge(self, *a))
    window = make_window()
    model = window.model
    model.set_cell("X", 0, 0, 0.5)  # the layout settles (the grid's columns, the axes)
    assert model.wait_until_idle()
    settle()
    panes = [window.panes.panes[k] for k in window.panes.shown()]
    axes = {p.plot.getPlotItem().getAxis(side) for p in panes for side in ("left", "bottom")}
    edges.clear()
    for k in range(3):
        levels = {p: p.colorbar.levels for p in panes}
        pictures = {a: a.picture for a in axes}
        full.clear()
        model.set_cell("X", 1, k, 0.3 * (k + 1))
        assert model.wait_until_idle()
        QApplication.processEvents()
        moved = {p.plot.getPlotItem().getAxis("bottom") for p in panes
                 if p.colorbar.levels != levels[p]}
        laid_out = {a for a in axes if a.picture is not pictures[a]}  # a bar grew wider
        assert len(moved) < len(panes)  # the weights' bar at least stays on [0, 1]
        assert axes & set(full) <= moved | laid_out  # no names repainted beside the cells…
    # …though axes beside a pane repainted whole had their edge repainted (a pane
    # whose levels stayed repaints its changed cells alone: test_edit_repaints_cells)
    assert edges and set(edges) <= axes
    partial = _on_screen(window)
    full.clear()
    for pane in panes:  # everything afresh: the names too
        pane.plot.viewport().repaint()
    assert axes <= set(full)
    assert _on_screen(window) == partial


def test_an_edit_of_the_inputs_draws_no_seeded_weights_for_the_banners(main_window,
                                                                        monkeypatch):
    """The uniform-attention banner asks whether the weights are the seeded ones twice
    per result; an edit of X keeps the weights, so they are not drawn again."""
    from qkv_desktop.state import session_state
    model = main_window.model
    banners = main_window.findChild(QWidget, "lessonBanners")
    assert banners.uniform.isVisibleTo(banners)  # tutorial 1: nearly uniform, seeded
    drawn = []
    real = session_state.init_multihead_weights
    monkeypatch.setattr(session_state, "init_multihead_weights",
                        lambda *a, **k: drawn.append(a) or real(*a, **k))
    for k in range(3):
        model.set_cell("X", 0, k, 0.1 * (k + 1))
        assert model.wait_until_idle()
    assert drawn == []
    assert "href='scale'" in banners.uniform.label.text()  # still told: seeded weights


def test_an_edit_places_its_value_labels_with_the_widths_the_font_was_fitted_by(
        main_window, monkeypatch):
    """Every label of a small matrix is placed again after an edit: each new value is
    measured once, when the font is fitted, and not laid out a second time to draw."""
    from PySide6.QtGui import QStaticText
    model = main_window.model
    main_window.repaint()
    laid_out = []
    monkeypatch.setattr(QStaticText, "prepare", lambda self, *a: laid_out.append(self))
    panes = [main_window.panes.panes[k] for k in main_window.panes.shown()]
    before = {p.key: p.overlay.texts for p in panes}
    model.set_cell("X", 2, 3, 0.625)
    assert model.wait_until_idle()
    main_window.repaint()
    new = {t for p in panes for row, old in zip(p.overlay.texts, before[p.key], strict=True)
           for t, was in zip(row, old, strict=True) if t != was}
    assert new and all(p.overlay.labels_drawn for p in panes)
    assert laid_out == []
    widths = numbers.label_widths(panes[0].overlay.value_font)
    assert all(t in widths for t in (t for row in panes[0].overlay.texts for t in row))


def test_fitting_the_values_after_an_edit_makes_no_font(main_window, monkeypatch):
    """Every pane fits its values' font on every edit: the candidate fonts and their
    metrics are made once, not for each pane and edit."""
    made = []

    class Counted(numbers.QFontMetricsF):
        def __init__(self, *args):
            made.append(args)
            super().__init__(*args)

    model = main_window.model
    model.set_cell("X", 1, 1, 0.75)
    assert model.wait_until_idle()
    main_window.repaint()
    monkeypatch.setattr(numbers, "QFontMetricsF", Counted)
    fitted = main_window.panes.shown()
    model.set_cell("X", 1, 1, -0.5)
    assert model.wait_until_idle()
    main_window.repaint()
    assert all(main_window.panes.panes[k].overlay.value_font is not None for k in fitted)
    assert made == []


def test_an_edit_lays_out_neither_the_status_bar_nor_the_window_for_the_badge(main_window):
    """The asymmetry badge shows a new value after each edit; at a size fixed to its
    text it asks no layout again, so the status bar is not laid out anew, and the badge
    still shows its whole text (and grows with a longer one)."""
    from tests.views.helpers import LayoutRequests
    model, bar = main_window.model, main_window.statusBar()
    badge = main_window.teaching.badge
    layouts = LayoutRequests()
    requests, watch = layouts.requests, layouts.filter
    bar.installEventFilter(watch)
    texts = set()
    try:
        for k in range(3):
            model.set_cell("X", 2, k, 0.2 * (k + 1))
            assert model.wait_until_idle()
            settle()
            texts.add(badge.text())
    finally:
        bar.removeEventFilter(watch)
    assert len(texts) == 3 and requests == []
    assert badge.width() >= badge.fontMetrics().horizontalAdvance(badge.text())
    wide = badge.width()
    model.set_options(share_qk=True)  # "QKᵀ symmetric: ‖S−Sᵀ‖/‖S‖ = 0", in bold
    assert model.wait_until_idle()
    settle()
    assert badge.size() == badge.sizeHint() and badge.width() != wide


def test_an_edit_calls_no_view_box_paint(make_window, monkeypatch):
    """A pane's view box draws nothing of its own: Qt is told so and never calls its
    paint (a Python call per pane and repaint)."""
    import pyqtgraph as pg
    painted = []
    real = pg.ViewBox.paint
    monkeypatch.setattr(pg.ViewBox, "paint", lambda self, *a: painted.append(self)
                        or real(self, *a))  # before the window: Qt calls what items had
    window = make_window()
    window.model.set_cell("X", 1, 2, 0.4)
    assert window.model.wait_until_idle()
    window.repaint()
    assert window.panes.panes["Q"].overlay.labels_drawn  # the panes did paint
    assert painted == []


def test_a_finite_matrix_is_not_searched_for_cells_to_hatch(main_window, monkeypatch):
    """The overlay hatches masked cells: a matrix without any is told by one reduction,
    not searched cell by cell after every edit."""
    import sys
    searched = []
    real = np.argwhere

    def argwhere(a, *args):
        if sys._getframe(1).f_globals.get("__name__") == heatmap_plot.__name__:
            searched.append(a.shape)
        return real(a, *args)

    monkeypatch.setattr(np, "argwhere", argwhere)
    model = main_window.model
    model.set_cell("X", 0, 3, -0.3)
    assert model.wait_until_idle()
    main_window.repaint()
    assert searched == []
    model.set_options(causal=True)  # masked cells: found, and hatched
    assert model.wait_until_idle()
    main_window.repaint()
    assert searched
    model.set_options(causal=False)
    assert model.wait_until_idle()


def test_an_edit_of_x_titles_no_pane_again(main_window, monkeypatch):
    """A pane's title and its View-menu name say its formula and shape, which an edit
    of X leaves as they are: they are not made again; a change of the formula is."""
    from qkv_desktop.views.panes import heatmap_pane, pane_grid
    model = main_window.model
    titled = []
    for module in (heatmap_pane, pane_grid):
        real = module.pane_title
        monkeypatch.setattr(module, "pane_title", lambda *a, real=real: titled.append(a[1])
                            or real(*a))
    model.set_cell("X", 3, 1, 0.45)
    assert model.wait_until_idle()
    assert titled == []
    model.set_options(temperature=2.0)
    assert model.wait_until_idle()
    scaled = main_window.panes.panes["scaled"]
    assert "T(2)" in scaled.title.text() and "T(2)" in main_window.pane_actions["scaled"].text()
    model.set_options(temperature=1.0)
    assert model.wait_until_idle()
    assert "T(" not in scaled.title.text()


def test_an_edit_of_x_lays_out_no_widget(main_window):
    """After an edit the lesson banner's sentence and the badge show new numbers; the
    window's layout is not asked again for it (their sizes do not follow their text)."""
    from tests.views.helpers import LayoutRequests
    model = main_window.model
    banners = main_window.findChild(QWidget, "lessonBanners")
    headline = banners.uniform.headline
    layouts = LayoutRequests()
    requests, watch = layouts.requests, layouts.filter
    model.set_cell("X", 1, 0, 0.1)
    assert model.wait_until_idle()
    settle()
    QApplication.instance().installEventFilter(watch)
    sentences = {headline.text()}
    try:
        for k in range(3):
            model.set_cell("X", 1, k, 0.35 * (k + 1))
            assert model.wait_until_idle()
            settle()
            sentences.add(headline.text())
    finally:
        QApplication.instance().removeEventFilter(watch)
    assert len(sentences) == 4 and requests == []
    assert headline.accessibleName() == headline.text()
    assert headline.shown_text() in (headline.text(), headline.fontMetrics().elidedText(
        headline.text(), Qt.TextElideMode.ElideRight, headline.contentsRect().width()))


def test_qt_asks_python_for_no_colour_bars_rectangle_in_a_repaint(make_window, monkeypatch):
    """Qt asks every item it paints, or passes by, for its rectangle: the colour bar and
    its strip answer with Qt's own (their rectangle), not pyqtgraph's Python override,
    a call into Python each time (25 per edit at n = 4). The rectangles are the same."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QGraphicsWidget
    asked = []
    real = pg.GraphicsWidget.boundingRect
    monkeypatch.setattr(pg.GraphicsWidget, "boundingRect",
                        lambda self: asked.append(type(self).__name__) or real(self))
    window = make_window()
    window.model.set_cell("X", 1, 2, float(window.model.state.X[1, 2]) + 0.75)
    assert window.model.wait_until_idle()
    window.repaint()
    assert "PlotItem" in asked  # (the count works: pyqtgraph's own items still ask)
    assert not {"ColorBar", "_Strip"} & set(asked)
    for key in window.panes.shown():
        bar = window.panes.panes[key].colorbar
        for item in (bar, bar.strip):
            assert QGraphicsWidget.boundingRect(item) == real(item)


def test_a_short_colour_bar_labels_its_levels_evenly(main_window, qtbot):
    """At 125 % zoom the weights' bar (120 px at 1366 × 768) read "1.0, 0.6, 0.4, 0":
    the labels beside its ends were left out where the moved end labels touched them,
    and the scale read uneven. Its labels are now evenly spaced: 0, 0.5 and 1.0."""
    from PySide6.QtGui import QFont, QFontMetricsF

    axis = main_window.panes.panes["weights"].colorbar.axis
    font = QFont(axis.font())
    font.setPixelSize(17)  # a 125 % zoom's tick labels
    before = axis.style["tickFont"]
    axis.setStyle(tickFont=font)
    try:
        assert 24 < 1.5 * QFontMetricsF(font).height()  # 0.2 apart would not fit
        assert axis.tickValues(0.0, 1.0, 120.0) == [(0.5, [0.0, 0.5, 1.0])]
        step, values = axis.tickValues(0.0, 1.0, 300.0)[0]  # a taller bar: as before
        assert step == 0.2 and np.allclose(values, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    finally:
        axis.setStyle(tickFont=before)
    size, zoom = main_window.size(), main_window.view_scale.zoom
    main_window.view_scale.set_zoom(1.25)
    main_window.resize(1366, 768)
    try:
        main_window.model.wait_until_idle()
        qtbot.waitUntil(lambda: axis._specs is not None and axis.picture is not None)
        axis.picture = None  # laid out at the window's size
        axis.update()
        qtbot.waitUntil(lambda: axis.picture is not None)
        labels = sorted(axis._specs[2], key=lambda t: t[0].center().y())
        centres = [t[0].center().y() for t in labels]
        texts = [t[2] for t in labels]
        assert texts[0] == "1.0" and texts[-1] == "0" and len(texts) >= 3
        gaps = np.diff([float(t) for t in texts])
        assert np.allclose(gaps, gaps[0]), texts  # one step between the labels
        assert centres == sorted(centres)
    finally:
        main_window.view_scale.set_zoom(zoom)
        main_window.resize(size)


def test_a_roomy_grid_chooses_its_columns_without_searching_least_heights(main_window,
                                                                          monkeypatch):
    """Rows that are higher than any pane needs for its values are not searched for how
    much lower they could go: that search (a value-font fit per pixel height tried, in
    every pane, for every column count) had made each refit of the grid five times as
    costly, on every resize and on an edit that widened a colour bar (issue 20)."""
    from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
    grid = main_window.panes
    main_window.resize(1600, 1000)
    settle()
    measured = []
    real = HeatmapPane.value_px_at
    monkeypatch.setattr(HeatmapPane, "value_px_at",
                        lambda self, w, h: measured.append(self.key) or real(self, w, h))
    grid._refit()
    panes = [k for k in grid.shown() if k != "heads"]
    most = max(1, min(grid.columns, grid.width() // 190))
    # one fit per pane and column count (the merit's legibility), and a search only for
    # the column counts whose rows are too low (one column of eight rows): 48 here,
    # where every column count searched every pane (228)
    assert 0 < len(measured) <= 2 * len(panes) * most, len(measured)
