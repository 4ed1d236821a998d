"""What a learner would see as broken in the texts pyqtgraph draws, from their geometry.

``geometry.layout_problems`` judges Qt widgets; the panes' numbers and names are not
widgets but items painted into each plot's scene: the token names of the axes, the
colour bar's level labels, the value labels over the cells, and the pane's title above
the plot. This module reads where each of them goes, the same way the paint does, and
reports a text that is cut (by its axis, by the plot's viewport, or by what covers the
plot) and two texts on top of each other.

The rectangles are the glyphs' real extent: pyqtgraph lays an axis label out in a box
80 % of the font's height and draws it unclipped and vertically centred on that box,
so the box itself would hide a label that runs one pixel past the viewport; a token
axis with upright names (``TokenAxis.rotated``) draws each one downward from its box.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QFontMetricsF, QPainter, QPicture
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot

__all__ = ["plot_problems", "plot_texts", "axis_texts"]

SLACK = 1.0
"""Pixels a text may touch past a border or its neighbour (rounding of the layout)."""


def axis_texts(axis: pg.AxisItem) -> list[tuple[str, QRectF]]:
    """The axis's labels as it paints them: (text, glyph rect in the axis's coordinates).

    The painter is set up as ``AxisItem.paint`` sets it up, so the labels pyqtgraph
    leaves out (outside its bounding rect, too crowded) are left out here too.
    """
    picture = QPicture()
    painter = QPainter(picture)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
        metrics = QFontMetricsF(painter.font())
    finally:
        painter.end()
    if specs is None:
        return []
    if getattr(axis, "rotated", False):  # TokenAxis's upright names: down from the box's top
        return [(text, QRectF(rect.center().x() - metrics.height() / 2, rect.top(),
                              metrics.height(), metrics.horizontalAdvance(text)))
                for rect, _flags, text in specs[2]]
    return [(text, metrics.boundingRect(rect, int(flags), text)) for rect, flags, text in specs[2]]


def in_scroll_area(w: QWidget) -> bool:
    """Whether ``w`` sits in a scroll area (what is scrolled out of sight is not cut)."""
    p = w.parentWidget()
    while p is not None:
        if isinstance(p, QAbstractScrollArea):
            return True
        p = p.parentWidget()
    return False


def _shown_part(plot: pg.PlotWidget) -> QRectF:
    """The part of the plot's viewport a text may use, in viewport coordinates: all of
    it in a scroll area (scrolled out of sight is not cut), else what is on screen."""
    viewport = plot.viewport()
    if in_scroll_area(plot):
        return QRectF(viewport.rect())
    return QRectF(viewport.visibleRegion().boundingRect())


def _to_view(plot: pg.PlotWidget, scene_rect: QRectF) -> QRectF:
    return QRectF(plot.mapFromScene(scene_rect).boundingRect())


def _contains(outer: QRectF, inner: QRectF) -> bool:
    return outer.adjusted(-SLACK, -SLACK, SLACK, SLACK).contains(inner)


def _overlap(a: QRectF, b: QRectF) -> bool:
    return a.adjusted(SLACK, SLACK, -SLACK, -SLACK).intersects(b)


def plot_texts(plot: pg.PlotWidget) -> list[tuple[str, str, QRectF]]:
    """Every text ``plot`` draws: (what, text, rect in scene coordinates).

    ``what`` names the item: ``left axis``, ``bottom axis``, ``colour bar`` (the right
    axis of a pane's colour bar) or ``value``.
    """
    texts: list[tuple[str, str, QRectF]] = []
    for item in plot.scene().items():
        if not isinstance(item, pg.AxisItem) or not item.isVisible():
            continue
        if not item.style["showValues"]:
            continue
        what = "colour bar" if item.orientation == "right" else f"{item.orientation} axis"
        texts += [(what, text, item.mapRectToScene(rect)) for text, rect in axis_texts(item)]
    if isinstance(plot, HeatmapPlot):
        rects = plot.value_label_rects()  # the finite cells, row by row
        if rects:
            data, values = plot.overlay.data, plot.overlay.texts
            names = [values[i][j] for (i, j), v in np.ndenumerate(data) if math.isfinite(v)]
            texts += [("value", t, r) for t, r in zip(names, rects, strict=True)]
    return texts


def _overlaps(texts: list[tuple[str, str, QRectF]]):
    """Pairs of texts whose rects intersect (a sweep along x: value grids are large)."""
    order = sorted(texts, key=lambda t: t[2].left())
    for k, a in enumerate(order):
        for b in order[k + 1:]:
            if b[2].left() >= a[2].right() - SLACK:
                break
            if _overlap(a[2], b[2]):
                yield a, b


def _plot_problems(plot: pg.PlotWidget, where: str) -> list[str]:
    problems: list[str] = []
    shown = _shown_part(plot)
    if shown.isEmpty():
        return problems
    texts = plot_texts(plot)
    for item in plot.scene().items():  # a label outside its axis is painted cut
        if isinstance(item, pg.AxisItem) and item.isVisible() and item.style["showValues"]:
            box = item.boundingRect()
            for text, rect in axis_texts(item):
                if not _contains(box, rect):
                    problems.append(f"{where}: {item.orientation} axis label {text!r} cut by "
                                    f"its axis ({_fmt(rect)} outside {_fmt(box)})")
    if isinstance(plot, HeatmapPlot):
        cells = plot.view_box.sceneBoundingRect()
        for what, text, rect in texts:
            if what == "value" and not _contains(cells, rect):
                problems.append(f"{where}: value {text!r} leaves its cells")
    for what, text, rect in texts:
        view = _to_view(plot, rect)
        if not _contains(shown, view):
            problems.append(f"{where}: {what} label {text!r} cut ({_fmt(view)} not inside "
                            f"the shown {_fmt(shown)})")
    for (wa, ta, _ra), (wb, tb, _rb) in _overlaps(texts):
        problems.append(f"{where}: {wa} label {ta!r} overlaps {wb} label {tb!r}")
    return problems


def _fmt(r: QRectF) -> str:
    return f"[{r.left():.0f},{r.top():.0f} {r.width():.0f}×{r.height():.0f}]"


def _title_problems(pane: HeatmapPane, window: QWidget) -> list[str]:
    """A pane's title lies wholly inside its pane, on screen, above its plot."""
    title = pane.title
    if not title.isVisible():
        return []
    where = f"pane {pane.key}"
    problems = []
    inside = QRect(title.mapTo(pane, title.rect().topLeft()), title.size())
    if not pane.rect().contains(inside):
        problems.append(f"{where}: title {title.text()!r} reaches outside its pane")
    drawn = title.fontMetrics().horizontalAdvance(title.shown_text())
    if drawn > title.contentsRect().width() + SLACK:
        problems.append(f"{where}: title {title.shown_text()!r} needs {drawn} px, "
                        f"has {title.contentsRect().width()}")
    if not in_scroll_area(title) and title.visibleRegion().boundingRect() != title.rect():
        problems.append(f"{where}: title {title.text()!r} covered or cut")
    if title.is_elided() and title.text() not in title.toolTip():
        problems.append(f"{where}: title {title.text()!r} is shortened and says it nowhere")
    plot_top = pane.plot.mapTo(pane, pane.plot.rect().topLeft()).y()
    if inside.bottom() >= plot_top + SLACK:
        problems.append(f"{where}: title {title.text()!r} runs into its plot")
    return problems


def plot_problems(window: QWidget) -> list[str]:
    """Every cut or overlapping text pyqtgraph draws in ``window``, and every pane title
    not wholly inside its pane."""
    problems: list[str] = []
    for plot in window.findChildren(pg.PlotWidget):
        if not plot.isVisible() or plot.window() is not window:
            continue
        pane = plot.parentWidget()
        where = f"pane {pane.key}" if isinstance(pane, HeatmapPane) else (
            plot.objectName() or type(plot).__name__)
        problems += _plot_problems(plot, where)
    for pane in window.findChildren(HeatmapPane):
        if pane.isVisible() and pane.window() is window:
            problems += _title_problems(pane, window)
    return problems

