"""A log-scale axis that labels decades only.

pyqtgraph's log axis labels every minor tick (0.07, 0.08, 0.09, 0.1) when the plot
spans less than a few decades; those labels overlap on a small plot. Here the labelled
ticks are the powers of ten, and a plot that spans fewer than two of them gets the
1-2-5 steps inside it (at most three per decade, which never crowd).
"""

from __future__ import annotations

from math import ceil, floor, log10

import pyqtgraph as pg


class DecadeLogAxis(pg.AxisItem):
    """An AxisItem whose log mode ticks are 10^k (or 1, 2, 5 × 10^k within a decade or
    two)."""

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802 (pyqtgraph's name)
        decades = [float(k) for k in range(ceil(minVal), floor(maxVal) + 1)]
        if len(decades) >= 2:  # one decade alone left a plot of 0.02 … 0.15 one label
            return [(1.0, decades)]
        steps = [k + log10(m) for k in range(floor(minVal), ceil(maxVal)) for m in (1, 2, 5)]
        return [(None, [v for v in steps if minVal <= v <= maxVal])]


class StepAxis(pg.AxisItem):
    """An axis of training steps: whole numbers only. An empty plot spans 0 … 1, and
    pyqtgraph labelled it 0.1, 0.2 … 0.9 "step"."""

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph's name)
        levels = [(spacing, values) for spacing, values in
                  super().tickValues(minVal, maxVal, size) if spacing >= 1]
        if levels:
            return levels
        return [(1.0, [float(v) for v in range(ceil(minVal), floor(maxVal) + 1)])]
