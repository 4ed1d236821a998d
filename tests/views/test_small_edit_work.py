"""What an edit at small n costs the panes (issue 20: edit → repaint within 1.5× of bare
pyqtgraph at n = 4), pinned by the work done, never by a time:

* a colour bar whose levels move draws its ticks from their layout, with no picture
  recorded and played back, and the pixels pyqtgraph's picture gave;
* it asks its axis to re-fit its width only when the widest label changes the width;
* the colour strip beside it is drawn from Qt's pixmap cache, not painted again;
* a pane asks once per matrix which of its cells are finite;
* an ordinary matrix is formatted without ``format_value``'s checks for every cell.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QImage, QPainter, QPicture
from PySide6.QtWidgets import QApplication, QGraphicsItem, QStyleOptionGraphicsItem

from qkv_desktop.presentation import numbers
from qkv_desktop.views.panes import color_bar, heatmap_plot


def _shown_panes(window):
    return [window.panes.panes[k] for k in window.panes.shown() if k in window.panes.panes]


def _edit_moving_levels(window) -> None:
    """An edit of X that makes X's largest magnitude larger: X's bar (±max|X|) and
    others move."""
    model = window.model
    X = model.state.X
    model.set_cell("X", 1, 2, float(np.abs(X).max()) + 0.75)
    assert model.wait_until_idle()
    window.repaint()


def test_a_bar_whose_levels_move_plays_no_picture(main_window, monkeypatch):
    main_window.repaint()
    bars = [p.colorbar for p in _shown_panes(main_window)]
    played = []
    real = QPicture.play
    monkeypatch.setattr(QPicture, "play", lambda self, p: played.append(self) or real(self, p))
    before = {bar: (bar.levels, bar.axis.specs_generated) for bar in bars}
    _edit_moving_levels(main_window)
    moved = [bar for bar in bars if bar.levels != before[bar][0]]
    assert moved
    for bar in moved:  # laid out again, and drawn from that layout
        assert bar.axis.specs_generated == before[bar][1] + 1
    assert not {bar.axis.picture for bar in bars} & set(played)


def test_the_bar_draws_the_pixels_of_pyqtgraphs_picture(qapp):
    """The same layout drawn by pyqtgraph (into a ``QPicture``, played back) and by the
    bar itself, at 300 levels and a fractional position: the same pixels."""
    from qkv_desktop.presentation.colormaps import lut_for
    view = pg.GraphicsLayoutWidget()
    view.resize(400, 300)
    bar = color_bar.ColorBar(lut_for("scores"))
    bar.insert_in(view.addPlot())
    view.show()
    for _ in range(5):
        QApplication.processEvents()
    axis, option = bar.axis, QStyleOptionGraphicsItem()
    rng = np.random.default_rng(7)
    ranges = [(-a, a) for a in rng.uniform(0.01, 50, 200)]
    ranges += [(0.0, float(10 ** rng.uniform(-5, 5))) for _ in range(100)]

    def drawn(paint, lo, hi) -> QImage:
        image = QImage(120, 340, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(255, 255, 255))
        painter = QPainter(image)
        painter.translate(30.3, 20.6)
        axis.setRange(lo, hi)
        paint(axis, painter, option, None)
        painter.end()
        return image

    try:
        for lo, hi in ranges:
            assert drawn(type(axis).paint, lo, hi) == drawn(pg.AxisItem.paint, lo, hi), (lo, hi)
    finally:
        view.close()


def test_the_bar_refits_its_width_only_when_its_labels_change_it(main_window, monkeypatch):
    """pyqtgraph set the axis's (unchanged) minimum and maximum width on every layout of
    its ticks; the width follows the widest label, and moves only by pyqtgraph's rule."""
    axis = main_window.panes.panes["Q"].colorbar.axis
    refits = []
    real = pg.AxisItem._updateWidth
    monkeypatch.setattr(pg.AxisItem, "_updateWidth",
                        lambda self: refits.append(self) or real(self))
    try:
        for top in (0.31, 0.32, 0.33, 0.34, 0.35):  # labels -0.2 … 0.3: one width
            axis.setRange(-top, top)
            picture = QPicture()
            painter = QPainter(picture)
            try:
                axis._level_specs(painter)
            finally:
                painter.end()
        assert axis not in refits
        width = axis.textWidth
        axis.setRange(-31000.0, 31000.0)  # labels five digits wide: the axis grows
        picture = QPicture()
        painter = QPainter(picture)
        try:
            axis._level_specs(painter)
        finally:
            painter.end()
        assert axis in refits and axis.textWidth > width
    finally:
        axis.setRange(*main_window.panes.panes["Q"].colorbar.levels)
        axis.picture = None
        axis.update()


def test_an_edit_moving_the_levels_draws_no_colour_strip_again(main_window):
    panes = _shown_panes(main_window)
    main_window.repaint()
    before = {p: (p.colorbar.levels, p.colorbar.strip.paints) for p in panes}
    _edit_moving_levels(main_window)
    for pane in panes:
        pane.plot.viewport().repaint()
    moved = [p for p in panes if p.colorbar.levels != before[p][0]]
    assert moved
    assert all(p.colorbar.strip.paints == before[p][1] for p in panes)
    # …and Qt's pixmap of the strip is the strip as it draws itself
    cached = {p: p.plot.grab().toImage() for p in moved}
    for pane in moved:
        pane.colorbar.strip.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        for pane in moved:
            assert pane.plot.grab().toImage() == cached[pane], pane.key
        assert all(p.colorbar.strip.paints > before[p][1] for p in moved)
    finally:
        for pane in moved:
            pane.colorbar.strip.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


class _CountingNumpy:
    """``numpy`` for ``heatmap_plot``, counting ``isfinite`` by the matrix asked about."""

    def __init__(self):
        self.asked: list[np.ndarray] = []

    def __getattr__(self, name):
        return getattr(np, name)

    def isfinite(self, a, *args, **kwargs):
        self.asked.append(a)
        return np.isfinite(a, *args, **kwargs)


def test_a_pane_asks_once_per_matrix_which_cells_are_finite(main_window, monkeypatch):
    """The hatching, the font fitting and the labels' placement each asked again, on
    every edit, of every pane (a NumPy call of its own at 4 × 4)."""
    counting = _CountingNumpy()
    monkeypatch.setattr(heatmap_plot, "np", counting)
    panes = _shown_panes(main_window)
    main_window.model.set_cell("X", 2, 3, 0.625)
    assert main_window.model.wait_until_idle()
    main_window.repaint()
    for pane in panes:
        data = pane.overlay.data
        asks = [a for a in counting.asked if a is data or a.base is data]
        assert pane.overlay.labels_drawn and len(asks) == 1, (pane.key, len(asks))


def test_an_ordinary_matrix_is_formatted_without_the_checks_of_each_value(monkeypatch):
    calls = []
    real = numbers.format_value
    monkeypatch.setattr(numbers, "format_value", lambda v: calls.append(v) or real(v))
    data = np.array([[0.25, -0.5, 1e-6, -1e-6], [9999.8, -9999.8, 0.0, -0.0]])
    assert numbers.format_values(data) == [
        ["0.2500", "\u22120.5000", "0.0000", "0.0000"],
        ["9999.8000", "\u22129999.8000", "0.0000", "0.0000"]]
    assert calls == []
    numbers.format_values(np.array([[np.nan, np.inf, 12345.0, 9999.99996]]))
    assert len(calls) == 4  # the long rule, for the values that need it


_EDGES = [0.0, -0.0, 5e-5, -5e-5, 4.9999e-5, -4.9999e-5, 9999.9, -9999.9, 9999.89999,
          9999.99994, 9999.99995, 9999.99996, -9999.99996, 1e4, np.nan, np.inf, -np.inf]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(_EDGES)
                | st.floats(-2e4, 2e4), min_size=1, max_size=40),
       st.sampled_from([np.float64, np.float32]))
def test_the_short_path_writes_every_value_as_format_value_does(values, dtype):
    with np.errstate(over="ignore"):
        data = np.array(values, dtype=np.float64).astype(dtype).reshape(1, -1)
    assert numbers.format_values(data) == [[numbers.format_value(v) for v in data[0]]]


def test_an_axis_repainted_beside_the_cells_draws_its_edge_without_a_picture(main_window,
                                                                             monkeypatch):
    """The repaint of the cells after an edit reaches a pixel into each token axis,
    which then draws its line and ticks (not its names): drawn, not played back from a
    ``QPicture`` of their own, which cost four times as much, 16 times per edit."""
    main_window.repaint()
    panes = _shown_panes(main_window)
    axes = [p.plot.getPlotItem().getAxis(side) for p in panes for side in ("left", "bottom")]
    played, edges = [], []
    real_play = QPicture.play
    monkeypatch.setattr(QPicture, "play", lambda self, p: played.append(self) or real_play(self, p))
    real_edge = getattr(heatmap_plot.TokenAxis, "_paint_edge", None)
    if real_edge is not None:  # (Qt calls the ``paint`` an item was made with: spy inside it)
        monkeypatch.setattr(heatmap_plot.TokenAxis, "_paint_edge",
                            lambda self, p: edges.append(self) or real_edge(self, p))
    main_window.model.set_cell("X", 0, 1, -0.375)
    assert main_window.model.wait_until_idle()
    QApplication.processEvents()
    assert not set(played) - {a.picture for a in axes}  # whole layouts played, no edge…
    assert len(set(edges)) > len(axes) // 2  # …though most axes had their edge drawn


def test_a_bar_whose_levels_move_repaints_no_token_name(make_window, monkeypatch):
    """The bar's repaint reached 15 pixels past its ends (room pyqtgraph keeps for end
    labels that the bar moves inside anyway) and so into the names under the plot,
    which were drawn again with every level change (about 3 panes per edit at n = 4).
    (Names whose glyphs reach the top of their line, as Chinese ones do, are still
    drawn again: the bar's edge touches them.)"""
    from qkv_desktop.state import SessionState
    rng = np.random.default_rng(0)
    state = SessionState.initialised([f"t{i}" for i in range(4)],
                                     rng.standard_normal((4, 8)).round(3), d_k=4)
    full = []
    real_full = pg.AxisItem.paint
    # (patched before the window exists: Qt calls the paint its items were made with)
    monkeypatch.setattr(pg.AxisItem, "paint", lambda self, *a: full.append(self)
                        or real_full(self, *a))
    window = make_window(state)
    model = window.model
    model.set_cell("X", 0, 0, 0.5)  # the layout settles (the grid's columns, the axes)
    assert model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()
    panes = _shown_panes(window)
    axes = {p.plot.getPlotItem().getAxis(side) for p in panes for side in ("left", "bottom")}
    moved_any = False
    for k in range(4):
        levels = {p: p.colorbar.levels for p in panes}
        pictures = {a: a.picture for a in axes}
        full.clear()
        model.set_cell("X", 1, k % 4, float(np.abs(model.state.X).max()) + 0.5 * (k + 1))
        assert model.wait_until_idle()
        QApplication.processEvents()
        moved_any |= any(p.colorbar.levels != levels[p] for p in panes)
        laid_out = {a for a in axes if a.picture is not pictures[a]}  # a bar grew wider
        assert not (axes & set(full)) - laid_out
    assert moved_any
