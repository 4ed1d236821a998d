"""The mask pane reads as the boolean matrix it is: 1 (allowed) and 0 (masked), not
1.0000 and 0.0000 (a first-time user's finding) — in the pane's value labels, in its
hover, in the status bar's read-out and in an exported figure alike."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from qkv_desktop.export.figures import layout_figure
from qkv_desktop.export.pane_figures import pane_spec
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.presentation.cell_tip import cell_tip
from qkv_desktop.state import CellRef

CAUSAL_4 = [["1", "0", "0", "0"], ["1", "1", "0", "0"], ["1", "1", "1", "0"],
            ["1", "1", "1", "1"]]


def causal(window):
    window.model.set_options(causal=True)
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()
    return window.model.result


def test_the_mask_panes_labels_are_1_and_0(main_window):
    causal(main_window)
    pane = main_window.panes.panes["mask"]
    assert pane.isVisible() and not pane.plot.values_hidden
    assert pane.overlay.texts == CAUSAL_4
    weights = main_window.panes.panes["weights"].overlay.texts
    assert weights[0][0] == "1.0000" and len(weights[1][0]) == 6  # the others: four decimals


def test_the_mask_cells_hover_and_read_out_say_1_and_0(main_window):
    result = causal(main_window)
    assert cell_tip(result, CellRef("mask", 0, 1)).startswith("<b>0</b>")
    assert cell_tip(result, CellRef("mask", 1, 0)).startswith("<b>1</b>")
    assert describe_cell(result, CellRef("mask", 0, 1)).startswith("mask[我, 爱] = 0: ")


def test_an_exported_mask_figure_prints_1_and_0(main_window):
    lay = layout_figure(pane_spec(causal(main_window), "mask"))
    assert lay.values == CAUSAL_4


def _rgb(color) -> tuple[int, int, int]:
    return color.red(), color.green(), color.blue()


def test_the_mask_colour_bar_is_two_swatches_labelled_0_and_1(main_window):
    """Grey below for 0 (masked), white above for 1 (allowed), each label at the middle
    of its swatch: a grey-to-white gradient ticked 0, 0.2 … 1.0 read as if a cell could
    be 0.6 allowed."""
    from qkv_desktop.presentation.colormaps import MASK
    causal(main_window)
    bar = main_window.panes.panes["mask"].colorbar
    strip, axis = bar.strip, bar.axis
    shot = main_window.panes.panes["mask"].plot.grab().toImage()
    top_left = bar.mapToScene(strip.pos())
    view = main_window.panes.panes["mask"].plot
    origin = view.mapFromScene(top_left)
    h, w = strip.size().height(), strip.size().width()
    for frac, expected in ((0.25, MASK[-1]), (0.75, MASK[0])):
        pixel = shot.pixelColor(int(origin.x() + w / 2), int(origin.y() + frac * h))
        assert _rgb(pixel) == tuple(int(v) for v in expected[:3]), frac
    specs = axis.generateDrawSpecs(_painter_for(axis))
    texts = {text: rect.center().y() for rect, _flags, text in specs[2]}
    assert set(texts) == {"0", "1"}
    axis_top = axis.mapRectToScene(axis.boundingRect()).top()
    strip_top = bar.mapToScene(strip.pos()).y()
    for text, frac in (("1", 0.25), ("0", 0.75)):  # label centres at the swatches' middles
        y = axis.mapToScene(0, texts[text]).y()
        assert abs(y - (strip_top + frac * h)) <= 2, (text, y, strip_top, h, axis_top)


def _painter_for(axis):
    from PySide6.QtGui import QPainter, QPicture
    picture = QPicture()
    painter = QPainter(picture)
    painter.setFont(axis.style["tickFont"] or painter.font())
    return painter


def test_the_colour_bars_levels_are_written_in_the_axes_dark_ink(main_window):
    """Not pyqtgraph's light grey: the levels are numbers to read."""
    from qkv_desktop.views.panes.heatmap_plot import LABEL_INK
    for pane in main_window.panes.panes.values():
        assert _rgb(pane.colorbar.axis.textPen().color()) == LABEL_INK, pane.key


def test_an_exported_mask_figure_has_two_swatches_labelled_0_and_1(main_window):
    from qkv_desktop.export.figures import figure_image
    from qkv_desktop.presentation.colormaps import MASK
    spec = pane_spec(causal(main_window), "mask")
    lay = layout_figure(spec)
    bar = lay.cbar
    assert [t.text for _y, t in lay.ticks] == ["0", "1"]
    ys = {t.text: y for y, t in lay.ticks}
    assert abs(ys["0"] - (bar.top() + 0.75 * bar.height())) < 0.5
    assert abs(ys["1"] - (bar.top() + 0.25 * bar.height())) < 0.5
    scale = 2.0
    image = figure_image(spec, scale=scale)
    for frac, expected in ((0.25, MASK[-1]), (0.75, MASK[0])):
        pixel = image.pixelColor(int(bar.center().x() * scale),
                                 int((bar.top() + frac * bar.height()) * scale))
        assert _rgb(pixel) == tuple(int(v) for v in expected[:3]), frac


def test_the_alibi_panes_title_gives_its_slope_before_its_formula(qapp):
    """With two heads, a 1024 × 700 pane cut "head 2: ALiBi bias −m·|i−j|, m = 0.00390…",
    the slope being the one number of the title (a first user): it comes first now."""
    from dataclasses import replace

    from qkv_desktop.presentation.pane_info import pane_title
    from qkv_desktop.state import SessionState, compute
    from qkv_desktop.state.edits import set_heads
    state = set_heads(SessionState.from_preset("tutorial-1"), 2).state
    state = state.with_(options=replace(state.options, alibi=(0.5, 0.00390625)))
    title = pane_title(compute(state), "bias", 1)
    assert "m = 0.003906" in title and title.index("m = 0.003906") < title.index("|i−j|")
