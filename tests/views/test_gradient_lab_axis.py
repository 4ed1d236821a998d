"""The gradient lab's log-scale norm plot: readable tick labels, and a zero norm named.

pyqtgraph labels 0.07, 0.08, 0.09, 0.1 on a log axis spanning less than a few decades,
and those labels overlapped; a gradient norm of exactly 0 has no point on a log axis.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage, QPainter

from qkv_desktop.views import i18n


def _label_rects(axis):
    """The rectangles of the tick labels the axis draws (pyqtgraph's own layout)."""
    image = QImage(400, 1200, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [rect for rect, _flags, text in specs[2] if text]


@pytest.mark.parametrize("y_range", [(0.065, 0.105), (0.003, 0.11), (1e-6, 2.0)])
def test_the_norm_axis_tick_labels_do_not_overlap(run_labs, y_range):
    lab = run_labs.show("gradients")
    lab.resize(1024, 700)
    item = lab.norm_plot.getPlotItem()
    item.setYRange(np.log10(y_range[0]), np.log10(y_range[1]), padding=0)
    QCoreApplication.processEvents()
    rects = sorted(_label_rects(item.getAxis("left")), key=lambda r: r.top())
    assert rects
    for upper, lower in zip(rects, rects[1:], strict=False):
        assert not upper.intersects(lower), (upper, lower)


def test_a_zero_gradient_norm_says_it_is_not_drawn(run_labs, qapp):
    lab = run_labs.show("gradients")
    lab.train_blocking(3)
    assert lab.norms["W_V"] and not any(lab.norms["W_V"])  # a pattern loss: W_V gets none
    legend = lab.norm_plot.getPlotItem().legend
    label = legend.getLabel(lab.norm_curves["W_V"])
    assert label.text == "‖∂L/∂W_V‖ = 0 (not drawn on a log scale)"
    assert legend.getLabel(lab.norm_curves["W_Q"]).text == "‖∂L/∂W_Q‖"
    try:
        i18n.install_translators(qapp, "zh_CN")
        QCoreApplication.sendPostedEvents()
        assert "对数" in label.text and "‖∂L/∂W_V‖ = 0" in label.text
    finally:
        i18n.install_translators(qapp, "en")
        QCoreApplication.sendPostedEvents()
