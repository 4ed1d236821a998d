"""The gradient lab's log-scale norm plot: readable tick labels, and a zero norm named.

pyqtgraph labels 0.07, 0.08, 0.09, 0.1 on a log axis spanning less than a few decades,
and those labels overlapped; a gradient norm of exactly 0 has no point on a log axis.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QRect, QRectF

from qkv_desktop.views import i18n
from qkv_desktop.views.teaching import gradient_lab
from qkv_desktop.views.teaching.gradient_lab import NORM_PENS
from tests.views.helpers import axis_label_rects, axis_labels


@pytest.mark.parametrize("y_range", [(0.065, 0.105), (0.003, 0.11), (1e-6, 2.0)])
def test_the_norm_axis_tick_labels_do_not_overlap(run_labs, y_range):
    lab = run_labs.show("gradients")
    lab.resize(1024, 700)
    item = lab.norm_plot.getPlotItem()
    item.setYRange(np.log10(y_range[0]), np.log10(y_range[1]), padding=0)
    QCoreApplication.processEvents()
    rects = sorted(axis_label_rects(item.getAxis("left")), key=lambda r: r.top())
    assert rects
    for upper, lower in zip(rects, rects[1:], strict=False):
        assert not upper.intersects(lower), (upper, lower)


def test_a_zero_gradient_norm_says_it_is_not_drawn(run_labs, qapp):
    lab = run_labs.show("gradients")
    lab.train_blocking(3)
    assert lab.norms["W_V"] and not any(lab.norms["W_V"])  # a pattern loss: W_V gets none
    legend = lab.norm_legend
    assert "‖∂L/∂W_V‖ = 0 (not drawn on a log scale)" in legend.text()
    assert "‖∂L/∂W_Q‖" in legend.text() and "‖∂L/∂W_Q‖ = 0" not in legend.text()
    try:
        i18n.install_translators(qapp, "zh_CN")
        QCoreApplication.sendPostedEvents()
        assert "对数" in legend.text() and "‖∂L/∂W_V‖ = 0" in legend.text()
    finally:
        i18n.install_translators(qapp, "en")
        QCoreApplication.sendPostedEvents()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_norm_legend_covers_no_curve(run_labs, qapp, lang):
    """At 1024 × 700 the legend in the norm plot's corner lay over the curves, which
    run across the whole plot (found by a first-time user): the names are a row of their
    own, outside the plot's data area, each in its curve's colour."""
    lab = run_labs.show("gradients")
    lab.resize(1024, 700)
    try:
        i18n.install_translators(qapp, lang)
        QCoreApplication.sendPostedEvents()
        lab.train_blocking(40)
        QCoreApplication.processEvents()
        item = lab.norm_plot.getPlotItem()
        drawn = [c.curve for c in lab.norm_curves.values()
                 if c.yData is not None and np.isfinite(c.yData).sum() > 1]
        assert drawn, "no curve drawn: tests nothing"
        data = QRectF()
        for curve in drawn:
            data = data.united(curve.mapRectToScene(curve.boundingRect()))
        assert item.legend is None or not item.legend.sceneBoundingRect().intersects(data)
        legend = lab.norm_legend
        assert legend.isVisible() and legend.height() >= legend.heightForWidth(legend.width())
        view = lab.norm_plot.mapFromScene(item.vb.sceneBoundingRect()).boundingRect()
        view = QRect(lab.norm_plot.mapTo(lab, view.topLeft()), view.size())
        shown = QRect(legend.mapTo(lab, QPoint(0, 0)), legend.size())
        assert not shown.intersects(view), (shown, view)
        for name, pen in NORM_PENS.items():
            assert f"color:{pen.color().name()}" in legend.text()
            assert f"∂{name}‖" in legend.text()
    finally:
        i18n.install_translators(qapp, "en")
        QCoreApplication.sendPostedEvents()


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _label_value(text: str) -> float:
    """The number a log axis label says: "0.003", "10⁻⁵", "3·10⁻⁵", "1"."""
    mantissa, _, power = text.rpartition("·") if "·" in text else ("1", "", text)
    if power.startswith("10") and power != "10":
        return float(mantissa) * 10.0 ** int(power[2:].translate(_SUPERSCRIPT))
    return float(text)


@pytest.mark.parametrize(("height", "y_range"), [
    (150, (-3.961, -2.028)),  # one decade (0.001) in a short plot: it stood alone
    (100, (-1.779, -0.540)),
    (100, (2.306, 3.980)),
    (150, (-1.155, 2.406)),
    (262, (-6.444, -3.814)),
])
def test_a_log_axis_spanning_a_decade_shows_two_right_labels(qtbot, height, y_range):
    """A loss or norm plot spanning a decade or more: a lone "0.001" on its axis gave no
    scale to read. Two labels at least, each the value at its own height."""
    plot = gradient_lab._plot("decades")
    qtbot.addWidget(plot)
    item = plot.getPlotItem()
    item.setLogMode(x=False, y=True)
    item.plot([0.0, 1.0], [1.0, 2.0])
    plot.resize(500, height)
    plot.show()
    lo, hi = y_range
    item.setYRange(lo, hi, padding=0)
    axis = item.getAxis("left")
    for _ in range(3):  # the axis widens to its labels once it has drawn them
        axis_labels(axis)
        QCoreApplication.processEvents()
    labels = axis_labels(axis)
    assert len(labels) >= 2, [text for _rect, text in labels]
    span = axis.height()  # the axis's own coordinates: hi at 0, lo at its height
    for rect, text in labels:
        at = hi - rect.center().y() / span * (hi - lo)  # log10 at the label
        assert abs(np.log10(_label_value(text)) - at) < 0.5 * rect.height() / span * (hi - lo), (
            text, at)
