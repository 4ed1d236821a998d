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
