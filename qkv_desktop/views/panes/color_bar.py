"""A pane's colour bar: the colour map as a strip beside an axis of the pane's levels.

pyqtgraph's ``ColorBarItem`` is a whole ``PlotItem`` (a view box with its context
menu, four axes); a pane needs one strip and one axis, and eleven panes are built
at start-up, so this light item takes its place.
"""

from __future__ import annotations

import bisect
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPicture
from PySide6.QtWidgets import QGraphicsGridLayout, QGraphicsWidget

from qkv_desktop.presentation.colormaps import BOOLEAN_BAR_RANGE
from qkv_desktop.presentation.numbers import with_minus
from qkv_desktop.views.panes.heatmap_plot import (
    AXIS_INK,
    LABEL_INK,
    TICK_LENGTH,
    TICK_TEXT_GAP,
    labels_inside,
)

__all__ = ["ColorBar"]

LINE_MARGIN = 1
"""Pixels above and below the axis it may draw in: its line reaches one past each end."""


class _Strip(pg.GraphicsWidget):
    """The colour map drawn bottom (lowest level) to top (highest)."""

    def __init__(self, lut: np.ndarray, width: int):
        super().__init__()
        column = np.ascontiguousarray(lut[::-1, None, :], dtype=np.uint8)
        # opaque RGB32 and scaled once per size: a scaled RGBA drawImage in every
        # repaint of the bar (each level change) cost more than the rest of it
        self._image = QImage(column.data, 1, len(lut), 4, QImage.Format.Format_RGBA8888
                             ).convertToFormat(QImage.Format.Format_RGB32)
        self._scaled = self._image
        self.setMinimumWidth(width)
        self.setMaximumWidth(width)
        # Its pixels change only with its size, but the axis beside it is repainted
        # whenever the levels change (most edits), and that repaint reaches into the
        # strip: Qt then draws it from a pixmap of its own instead of calling ``paint``.
        self.setCacheMode(self.CacheMode.DeviceCoordinateCache)
        self.paints = 0
        """How many times the strip was drawn (tests)."""

    boundingRect = QGraphicsWidget.boundingRect  # noqa: N815 (see ``ColorBar``)

    def paint(self, p: QPainter, *_args) -> None:
        self.paints += 1
        rect = QRectF(self.rect())
        size = rect.size().toSize()
        if self._scaled.size() != size and not size.isEmpty():
            self._scaled = self._image.scaled(size, Qt.AspectRatioMode.IgnoreAspectRatio,
                                              Qt.TransformationMode.FastTransformation)
        p.drawImage(rect, self._scaled)
        p.setPen(QPen(QColor(120, 120, 120), 0))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(rect)


_LAID_OUT = "laid out"
"""``picture`` once ``_InsideAxis`` has laid its ticks out: pyqtgraph's mark that the
layout is up to date (it sets None to ask for another); nothing plays it."""


class _Measure:
    """The painter pyqtgraph lays an axis out with (one on a ``QPicture``), for
    ``_level_specs``: its font, and a label's bounding rectangle. The real painter is
    made only when a label not measured before needs it: the labels' rectangles are
    kept per font and text, and making and ending a painter for each layout (most
    edits) cost more than the few labels measured in it."""

    _fonts: dict[tuple, tuple[QFont, str]] = {}
    """(tick font's key or None, the default font's key) -> a picture painter's font
    and its key, after ``setFont(tick font)`` when there is one."""

    def __init__(self, tick_font: QFont | None):
        self._tick_font = tick_font
        self._painter: QPainter | None = None
        self._picture: QPicture | None = None
        key = (None if tick_font is None else tick_font.key(), QFont().key())
        known = self._fonts.get(key)
        if known is None:
            painter = self._real()
            font = QFont(painter.font())
            known = self._fonts[key] = (font, font.key())
        self._font, self._key = known

    def _real(self) -> QPainter:
        if self._painter is None:
            self._picture = QPicture()
            self._painter = QPainter(self._picture)
            if self._tick_font is not None:
                self._painter.setFont(self._tick_font)
        return self._painter

    def font(self) -> QFont:
        return self._font

    def font_key(self) -> str:
        return self._key

    def setFont(self, font: QFont) -> None:  # noqa: N802 (QPainter's name)
        if font is not self._tick_font:
            raise ValueError("the axis is measured in its tick font only")

    def boundingRect(self, *args):  # noqa: N802 (QPainter's name)
        return self._real().boundingRect(*args)

    def end(self) -> None:
        if self._painter is not None:
            self._painter.end()
            self._painter = None


class _InsideAxis(pg.AxisItem):
    """The level axis, its end labels kept inside its own height.

    A label is centred on its tick, so the top level's ("1.0") stood half above the
    strip, outside the plot, and was cut in half; here it moves down (the bottom one
    up) just enough to be whole, still beside its end of the strip. On a short bar the
    labels that would then overlap (an end's neighbour, or "0.4" on "0.6") are left out.

    The ticks are regenerated whenever the levels change, which is most edits (the
    levels are ±max|value|): ``_level_specs`` is pyqtgraph's ``generateDrawSpecs`` for
    this axis's one configuration (right of the strip, no grid, automatic ticks)
    without its per-tick Python objects, and each label is measured once per font,
    not on every regeneration: a third of the cost (≈0.3 of 1 ms per bar, 3 bars
    per edit at n = 4).
    """

    def __init__(self):
        super().__init__("right")
        # No SI prefix: the bar has no unit label, so pyqtgraph's scale stays 1, but
        # each new range re-typeset that hidden label (QGraphicsTextItem.setHtml) and
        # re-sized the axis.
        self.enableAutoSIPrefix(False)
        self.specs_generated = 0
        """How many times the ticks and labels were laid out (tests, benchmarks)."""
        self._label_rects: dict[tuple[str, str], QRectF] = {}  # (font, text) -> size
        self._specs = None  # the layout ``paint`` draws, while ``picture`` is not None
        self._pens: tuple[QPen, list[QPen]] | None = None  # (base pen, each level's pen)
        self._fitted_width: float | None = None
        self._fitted_for: tuple | None = None  # (labels' font, length) of ``_fitted_width``
        self._font = QFont()

    def paint(self, p, opt, widget=None):
        """The ticks and labels, drawn from their layout straight onto the view.

        pyqtgraph records them into a ``QPicture`` and plays it back; the levels change
        on most edits, so each layout was drawn twice, once into the picture and once
        from it, with a pen change per tick. Here the layout is kept instead of a
        picture (``picture`` stays pyqtgraph's mark: it sets it to None whenever the
        range, size or style changes) and each level's ticks are one ``drawLines``.
        The layout is measured as on pyqtgraph's picture painter (``_Measure``), which
        is made only for a label not measured before.
        """
        if self.picture is None:
            measure = _Measure(self.style["tickFont"])
            try:
                self._specs = self._layout(measure)
                self._font = QFont(measure.font())
            finally:
                measure.end()
            self.picture = _LAID_OUT  # (nothing plays it)
        if self._specs is not None:
            self._draw(p, *self._specs)

    def _draw(self, p: QPainter, axis_spec, tick_specs, text_specs) -> None:
        """What pyqtgraph's ``drawPicture`` draws, the ticks of one pen in one call."""
        p.save()
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            pen, start, end = axis_spec
            p.setPen(pen)
            p.drawLine(start, end)
            for pen, lines in tick_specs:  # one level's ticks: one pen, one call
                if lines:
                    p.setPen(pen)
                    p.drawLines(lines)
            p.setFont(self._font)
            p.setPen(self.textPen())
            p.setClipRect(self.boundingRect().toAlignedRect(), Qt.ClipOperation.IntersectClip)
            self._draw_texts(p, text_specs)
        finally:
            p.restore()

    def _draw_texts(self, p: QPainter, text_specs) -> None:
        """Each label in its rectangle, as pyqtgraph draws it. (Drawn from a kept
        ``QStaticText`` or at its baseline point, a label moved by a pixel at some
        fractional positions: ``drawText`` in a rectangle places the line in 1/64 px.)"""
        for rect, flags, text in text_specs:
            p.drawText(rect, int(flags), text)

    def boundingRect(self) -> QRectF:
        """The axis's own rectangle and its ticks' edge: what it draws. pyqtgraph's
        reaches 15 pixels past both ends, room for end labels that ``labels_inside``
        moves inside; repainted on every level change, that strip reached the token
        names under the plot, which were then drawn again (issue 20). The labels are
        still chosen within pyqtgraph's rectangle (``_level_specs``)."""
        rect = self.mapRectFromParent(self.geometry())
        return rect.adjusted(min(0, self.style["tickLength"]), -LINE_MARGIN, 0, LINE_MARGIN)

    def generateDrawSpecs(self, p):
        """pyqtgraph's layout (ticks as ``(pen, start, end)``), for pyqtgraph's own
        ``paint``; the bar paints from ``_layout``'s."""
        specs = self._layout(p)
        if specs is None:
            return None
        axis, levels, texts = specs
        return axis, [(pen, t.p1(), t.p2()) for pen, lines in levels for t in lines], texts

    def _layout(self, p):
        """``_level_specs``' layout (each level's ticks as ``(pen, lines)``) with the end
        labels inside the bar (``labels_inside``)."""
        self.specs_generated += 1
        specs = self._level_specs(p)
        if specs is None:
            return None
        axis, ticks, texts = specs
        return axis, ticks, labels_inside(texts, self.rect(), p.font())

    def tickStrings(self, values, scale, spacing):
        """pyqtgraph's labels with the minus sign of the cells ("−0.5", not "-0.5")."""
        return [with_minus(s) for s in super().tickStrings(values, scale, spacing)]

    boolean = False
    """Ticks at 0 and 1 only (``ColorBar(boolean=True)``: the mask's two swatches)."""

    def tickValues(self, minVal, maxVal, size):  # noqa: N803 (pyqtgraph's names)
        """pyqtgraph's tick values (``pyqtgraph_tick_values``), evenly labelled
        (``_evenly_labelled``)."""
        if self.boolean:
            return [(1.0, [0.0, 1.0])]
        if self.logMode:
            return super().tickValues(minVal, maxVal, size)
        lo, hi = sorted((minVal, maxVal))
        return self._evenly_labelled(self.pyqtgraph_tick_values(minVal, maxVal, size),
                                     lo * self.scale, hi * self.scale, size)

    def pyqtgraph_tick_values(self, minVal, maxVal, size):  # noqa: N803
        """pyqtgraph's tick values (each level without the values of the levels above
        it, within a hundredth of its spacing), found by bisection in plain floats
        instead of NumPy's ``isclose`` on every pair: a third of a regeneration."""
        lo, hi = sorted((minVal, maxVal))
        lo, hi = lo * self.scale, hi * self.scale
        ticks, seen = [], []
        for spacing, offset in self.tickSpacing(lo, hi, size):
            start = (math.ceil((lo - offset) / spacing) * spacing) + offset
            count = int((hi - start) / spacing) + 1
            tolerance = spacing / self.scale * 0.01
            values = []
            for k in range(count):
                v = (k * spacing + start) / self.scale
                at = bisect.bisect_left(seen, v - tolerance)
                if at < len(seen) and seen[at] <= v + tolerance:
                    continue  # a tick of a level above
                values.append(v)
            seen = sorted(seen + values)
            ticks.append((spacing / self.scale, values))
        return ticks

    def _evenly_labelled(self, ticks: list, lo: float, hi: float, size: float) -> list:
        """``ticks``, or one coarser level when the labels of the first would not all
        fit: a label takes its font's height, and an end label moved inside the bar
        (``labels_inside``) half of one more, so at 125 % zoom the weights' bar kept
        "1.0, 0.6, 0.4, 0", its two labels beside the ends left out, and read as an
        uneven scale. The next spacing of 1, 2, 5 × 10^k whose labels stand 1.5 font
        heights apart is taken ("0, 0.5, 1.0"), without finer ticks (their labels would
        not fit either). (Not 2.5: pyqtgraph writes a spacing's labels with its
        decimals, and 0.25 read "0.2".)"""
        if not ticks or size <= 0 or hi <= lo:
            return ticks
        spacing = ticks[0][0] * self.scale
        need = 1.5 * QFontMetricsF(self.style["tickFont"] or self.font()).height()
        if spacing * size / (hi - lo) >= need:
            return ticks
        unit = 10.0 ** math.floor(math.log10(spacing))
        for step in (s * unit for s in (1, 2, 5, 10, 20, 50, 100)):
            if step > spacing * (1 + 1e-9) and step * size / (hi - lo) >= need:
                break
        else:
            return ticks
        first = math.ceil(lo / step - 1e-9)
        values = [k * step / self.scale for k in range(first, math.floor(hi / step + 1e-9) + 1)]
        return [(step / self.scale, values)] if len(values) >= 2 else ticks

    def _label_rect(self, p: QPainter, text: str, font_key: str | None = None) -> QRectF:
        """``text``'s rectangle as pyqtgraph measures a tick label (its painter's
        bounding rectangle, 0.8 of its height), once per font and text."""
        key = (p.font().key() if font_key is None else font_key, text)
        rect = self._label_rects.get(key)
        if rect is None:
            if len(self._label_rects) > 4096:  # labels of levels long gone
                self._label_rects.clear()
            rect = p.boundingRect(QRectF(0, 0, 100, 100), Qt.AlignmentFlag.AlignCenter, text)
            rect.setHeight(rect.height() * 0.8)
            self._label_rects[key] = rect
        return rect

    def _level_specs(self, p: QPainter):
        """``AxisItem.generateDrawSpecs`` for a right-hand axis without grid or fixed
        ticks: the same ticks, pens, label texts and rectangles (a test compares the
        two), computed with plain ``QPointF``s and measured labels. A level's pen is
        made once per base pen, the labels' summed heights and widest label are kept
        as they grow, and the axis is not asked to re-fit its width unless pyqtgraph's
        rule would change it (``_refit_width``)."""
        style = self.style
        if style["tickFont"] is not None:
            p.setFont(style["tickFont"])
        bounds = self.mapRectFromParent(self.geometry())
        span = (bounds.topLeft() + QPointF(1.0, -1.0), bounds.bottomLeft() + QPointF(1.0, 1.0))
        points = [self.mapToDevice(pt) for pt in span]
        if None in points:
            return None
        d = points[1] - points[0]
        length = math.hypot(d.x(), d.y())
        if length == 0:
            return None
        lo, hi = self.range[0], self.range[1]
        levels = self.tickValues(lo, hi, length)
        dif = hi - lo
        if dif == 0:
            scale, offset = 1.0, 0.0
        else:
            scale = -bounds.height() / dif
            offset = lo * scale - bounds.height()
        ends = (lo * scale - offset, hi * scale - offset)
        x_min, x_max = min(ends), max(ends)
        tick_start = tick_stop = bounds.left()
        tick_specs, positions = [], []
        pens = self._level_pens(len(levels))
        for i, (_spacing, values) in enumerate(levels):
            x_end = tick_stop + style["tickLength"] / (i * 0.5 + 1.0)
            at: list[float | None] = [v * scale - offset for v in values]
            lines = []  # one Qt object a tick (each costs its wrapper's making and freeing)
            for k, y in enumerate(at):
                if y < x_min or y > x_max:
                    at[k] = None
                    continue
                lines.append(QLineF(tick_start, y, x_end, y))
            tick_specs.append((pens[i], lines))
            positions.append(at)
        axis_spec = (self.pen(), span[0], span[1])
        text_specs: list = []
        if not style["showValues"]:
            return axis_spec, tick_specs, text_specs
        size, size2, labels = 0, 0, 0  # pyqtgraph's sum of heights, widest, count so far
        last_size2 = 0
        flags = (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
                 | Qt.TextFlag.TextDontClip)
        x_text = tick_stop + max(0, style["tickLength"]) + style["tickTextOffset"][0]
        own = pg.AxisItem.boundingRect(self)  # where pyqtgraph keeps labels
        font_key = p.font_key() if isinstance(p, _Measure) else p.font().key()
        for i in range(min(len(levels), style["maxTextLevel"] + 1)):
            spacing, values = levels[i]
            strings = self.tickStrings(values, self.autoSIPrefixScale * self.scale, spacing)
            if not strings:
                continue
            # the text's share of the axis at which this level's labels are left out:
            # the sum of heights only grows, so the level is dropped as soon as its
            # labels so far reach it (a bar's finest level: twenty labels measured for
            # none drawn), and with the same verdict as on the whole level
            limits = [limit for n, limit in style["textFillLimits"] if len(text_specs) >= n]
            stop = min(limits) if i > 0 and limits else math.inf
            rects = []
            for s, at in zip(strings, positions[i], strict=True):
                if at is None:
                    rects.append(None)
                    continue
                r = self._label_rect(p, s, font_key)
                rects.append(r)
                size += r.height()  # the same sum, in the same order, as pyqtgraph's
                size2 = max(size2, r.width())
                labels += 1
                if float(size) / length >= stop:  # (the very test below: the same verdict)
                    break
            if labels == 0:
                size = 0
            if i > 0:
                ratio = float(size) / length
                if any(len(text_specs) >= n and ratio >= limit
                       for n, limit in style["textFillLimits"]):
                    break
            last_size2 = size2
            for s, y, r in zip(strings, positions[i], rects, strict=True):
                if y is None:
                    continue
                rect = QRectF(x_text, y - r.height() / 2, r.width(), r.height())
                if own & rect != rect:
                    continue
                text_specs.append((rect, flags, s))
        self._refit_width(last_size2, (font_key, round(length)))
        return axis_spec, tick_specs, text_specs

    def _level_pens(self, count: int) -> list[QPen]:
        """The tick pen of each level (pyqtgraph's: the tick pen, fainter by level),
        made again only when the tick pen changes."""
        base = self.tickPen()
        cached = self._pens
        if cached is None or cached[0] != base or len(cached[1]) < count:
            solid = base.brush().style() == Qt.BrushStyle.SolidPattern
            pens = []
            for i in range(max(count, 3)):
                pen = base
                if solid:
                    pen = QPen(base)
                    color = QColor(pen.color())
                    color.setAlpha(int(self._line_alpha(i)))
                    pen.setColor(color)
                pens.append(pen)
            cached = self._pens = (QPen(base), pens)
        return cached[1]

    def _refit_width(self, widest: float, fitted_for: tuple) -> None:
        """pyqtgraph's ``_updateMaxTextSize``, only when it would change the text width:
        otherwise it set the axis's unchanged minimum and maximum width on every layout.

        pyqtgraph narrows an axis only when it would lose more than 10 px, which keeps
        a bar's width while its levels change with the edits. In another font (a zoom,
        presentation mode begun or ended) or at another length (other levels labelled)
        the width is the labels' own: after presentation mode the bars stayed as wide
        as their 150 % labels, or the labels of the full screen's taller bars, had made
        them (up to 9 px), and the weights of all-MiniLM-L6-v2's 7 tokens at
        1024 × 700, shown before F5, were hidden after it."""
        tw = self.textWidth
        mx = widest if self.style["autoReduceTextSpace"] else max(tw, widest)
        anew = fitted_for != self._fitted_for
        if anew or mx > tw or mx < tw - 10 or self._fitted_width is None:
            if anew:
                self.textWidth = 0  # measured afresh: ``widest`` is the width
            self._updateMaxTextSize(widest)
            self._fitted_width = self.textWidth
            self._fitted_for = fitted_for

    def _line_alpha(self, level: int) -> float:
        """A tick's opacity by its level, as pyqtgraph's ``generateDrawSpecs`` sets it."""
        alpha = self.style["tickAlpha"]
        if alpha is None:
            return 255 / (level + 1)
        if isinstance(alpha, float):
            return min(255, max(0, int(round(alpha * 255))))
        return alpha


class ColorBar(pg.GraphicsWidget):
    """The strip of ``lut`` (256 × RGBA) and a right-hand axis showing ``levels``.

    ``boolean`` (the mask, whose every value is 1 or 0): two swatches, the lowest and
    the highest colour of ``lut``, each labelled at its middle, 0 below and 1 above;
    a gradient with ticks at 0.2, 0.4 … read as if a cell could be 0.6 allowed."""

    boundingRect = QGraphicsWidget.boundingRect  # noqa: N815 (Qt's name)
    """Qt's own (its rectangle: the bar has no transform), not pyqtgraph's Python one:
    Qt asks each item for it in every repaint of its pane, and a Python override is a
    call into Python each time (25 per edit for the bars and strips at n = 4)."""

    def __init__(self, lut: np.ndarray, width: int = 12, boolean: bool = False):
        super().__init__()
        self.boolean = boolean
        self.strip = _Strip(lut[[0, -1]] if boolean else lut, width)
        self.axis = _InsideAxis()
        self.axis.boolean = boolean
        # Outward, with a gap wider than a minus sign's before the label.
        self.axis.setStyle(tickLength=TICK_LENGTH, tickTextOffset=TICK_TEXT_GAP)
        # The panes' axes' dark ink (``style_axis``), not pyqtgraph's light grey: the
        # levels are read as numbers, and grey on white was hard to read beside them.
        self.axis.setPen(pg.mkPen(*AXIS_INK))
        self.axis.setTextPen(pg.mkPen(*LABEL_INK))
        layout = QGraphicsGridLayout()
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(0)
        layout.addItem(self.strip, 0, 0)
        layout.addItem(self.axis, 0, 1)
        self.setLayout(layout)
        self.levels = (0.0, 1.0)
        self.axis.setRange(*self._axis_range())

    def _axis_range(self) -> tuple[float, float]:
        """The levels; for two swatches, half a unit past 0 and 1, so that each label
        sits at the middle of its swatch."""
        return BOOLEAN_BAR_RANGE if self.boolean else self.levels

    def setLevels(self, levels: tuple[float, float]) -> None:
        self.levels = (float(levels[0]), float(levels[1]))
        self.axis.setRange(*self._axis_range())

    def insert_in(self, plot_item: pg.PlotItem) -> None:
        """Put the bar right of the plot's right-hand axis (where ColorBarItem goes)."""
        plot_item.layout.addItem(self, 2, 5)
        plot_item.layout.setColumnFixedWidth(4, 5)
