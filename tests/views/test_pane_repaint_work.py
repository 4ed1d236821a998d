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
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from qkv_desktop.presentation import numbers
from qkv_desktop.presentation.colormaps import levels_for, lut_for, map_to_rgba
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.views.panes import heatmap_plot


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
                        lambda data: calls.append(data.shape) or real(data))
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
