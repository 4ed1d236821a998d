"""A log-scale axis that labels decades only.

pyqtgraph's log axis labels every minor tick (0.07, 0.08, 0.09, 0.1) when the plot
spans less than a few decades; those labels overlap on a small plot. Here the labelled
ticks are the powers of ten, and a plot that spans fewer than two of them gets the
1-2-5 steps inside it (at most three per decade). On a short plot the labels keep at
least a line of the tick font between them: every second, fifth, tenth … decade is
labelled (d_k = 256's gradient spans 10² … 10⁻¹⁷ at 1024 × 700, and its twenty labels
lay on top of each other), and the 1-2-5 steps thin to the decades. Two labels at
least give the scale: a plot with one decade in sight (or none far enough from its
ends) gets 3 × 10^k (then 2 and 5 × 10^k) where they fit, so it never reads "0.001"
alone.
"""

from __future__ import annotations

from math import ceil, floor, log10

import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

STRIDES = (1, 2, 5, 10, 20, 50, 100)
"""Every how many decades a label goes, the fewest that leaves room."""


class DecadeLogAxis(pg.AxisItem):
    """An AxisItem whose log mode ticks are 10^k (or 1, 2, 5 × 10^k within a decade or
    two, and 3 × 10^k beside a lone decade)."""

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802 (pyqtgraph's name)
        # pixels per decade, and the room a label needs (its line and half a line of gap)
        per_decade = size / (maxVal - minVal) if maxVal > minVal and size > 0 else float("inf")
        font = QFontMetricsF(self.style["tickFont"] or self.font()).height()
        line = 1.5 * font
        decades = [k for k in range(ceil(minVal), floor(maxVal) + 1)]
        steps = [k + log10(m) for k in range(floor(minVal), ceil(maxVal)) for m in (1, 2, 5)]
        steps = [v for v in steps if minVal <= v <= maxVal]
        # one decade alone left a plot of 0.02 … 0.15 one label: the 1-2-5 steps where
        # they fit (log10(2/1) = 0.3 decade is their closest spacing)
        if len(decades) < 2 and 0.3 * per_decade >= line:
            return [(None, steps)]
        stride = next((s for s in STRIDES if s * per_decade >= line), STRIDES[-1])
        # every stride-th decade, from the offset that labels the most (10⁻⁵ and 10⁰
        # rather than 10⁰ alone) up to three, then multiples of the stride (a loss
        # climbing to 10³⁰⁵ read 10¹⁴, 10⁶⁴, 10¹¹⁴ … rather than 1, 10⁵⁰, 10¹⁰⁰ …); a
        # label less than half its height from an end is not drawn, so it does not count
        inside = [k for k in decades
                  if min(k - minVal, maxVal - k) * per_decade >= font / 2] or decades

        def labels(o):
            return sum((k - o) % stride == 0 for k in inside)

        offset = max(range(stride), key=lambda o: (min(labels(o), 3), o == 0, labels(o)))
        labelled = [float(k) for k in decades if (k - offset) % stride == 0]
        if sum(k in inside for k in labelled) >= 2 or per_decade * (maxVal - minVal) < 2 * font:
            return [(float(stride), labelled or steps[:1])]
        # one decade in sight (0.0011 … 0.011 on a short plot, or a decade at the plot's
        # end): a lone "0.001" gave no scale to read. 3 × 10^k, then 2 and 5 × 10^k, a
        # line and a half apart, or a line where that leaves one label (they do not touch)
        for gap in (line / per_decade, font / per_decade):
            kept = [k for k in labelled if k in inside]
            for m in (3, 2, 5):
                for v in (k + log10(m) for k in range(floor(minVal), ceil(maxVal))):
                    if (min(v - minVal, maxVal - v) * per_decade >= font / 2
                            and all(abs(v - u) >= gap for u in kept)):
                        kept.append(v)
            if len(kept) >= 2:
                break
        return [(None, sorted(kept) or steps[:1])]


class StepAxis(pg.AxisItem):
    """An axis of training steps: whole numbers only. An empty plot spans 0 … 1, and
    pyqtgraph labelled it 0.1, 0.2 … 0.9 "step"."""

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph's name)
        levels = [(spacing, values) for spacing, values in
                  super().tickValues(minVal, maxVal, size) if spacing >= 1]
        if levels:
            return levels
        return [(1.0, [float(v) for v in range(ceil(minVal), floor(maxVal) + 1)])]
