"""The heatmap panes: orientation on screen, hover links, and the tutorial's numbers."""

import re
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from qkv_desktop.presentation.colormaps import levels_for, lut_for, map_to_rgba
from qkv_desktop.state import CellRef, SessionState
from tests.views.helpers import cell_scene_pos, cell_widget_pos

SEED_OUTPUT = Path(__file__).resolve().parents[1] / "core" / "seed_output"


def printed_table(name: str, heading: str) -> np.ndarray:
    """The square table of numbers printed after ``heading`` in a demo's output."""
    lines = (SEED_OUTPUT / name).read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(heading)) + 2
    rows = []
    for line in lines[start:]:
        numbers = re.findall(r"-?\d+\.\d+", line)
        if not numbers:
            break
        rows.append([float(v) for v in numbers])
    return np.array(rows)


def printed_rows(name: str, heading: str) -> np.ndarray:
    """Vectors printed as ``token: [a b c]`` after ``heading``."""
    lines = (SEED_OUTPUT / name).read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(heading)) + 1
    rows = []
    for line in lines[start:]:
        if "[" not in line:
            break
        rows.append([float(v) for v in line.split("[")[1].rstrip("]").split()])
    return np.array(rows)


def hover_over(pane, row: int, col: int) -> None:
    """A real mouse move over cell (row, col) of ``pane``'s plot."""
    QTest.mouseMove(pane.plot.viewport(), cell_widget_pos(pane, row, col))


# ------------------------------------------------------------------ orientation
def test_a_non_square_matrix_is_shown_matrix_style_row_0_on_top(main_window):
    window = main_window
    X = (np.arange(15).reshape(3, 5) / 7.0 - 1.0)  # distinct values, -1 … 1
    state = SessionState.initialised(["a", "b", "c"], X, d_k=2)
    window.model.reset(state)
    assert window.model.wait_until_idle()
    pane = window.panes.panes["X"]
    assert pane.image.image.shape == (3, 5)
    for i in range(3):
        for j in range(5):
            assert pane.image.image[i, j] == X[i, j]
    window.repaint()
    image = pane.plot.grab().toImage()
    expected = map_to_rgba(X, lut_for("X"), levels_for("X", X))[..., :3].astype(int)
    # the corner of every cell (away from the value text at its centre) has that
    # cell's colour, and no other cell's colour is closer
    for i in range(3):
        for j in range(5):
            p = cell_widget_pos(pane, i, j, 0.12, 0.12)
            c = image.pixelColor(p)
            got = np.array([c.red(), c.green(), c.blue()])
            distances = np.abs(expected - got).sum(axis=2)
            assert np.unravel_index(distances.argmin(), distances.shape) == (i, j)
            assert distances[i, j] <= 24, (i, j, got, expected[i, j])
    top_left = cell_widget_pos(pane, 0, 0)
    bottom_right = cell_widget_pos(pane, 2, 4)
    assert top_left.y() < bottom_right.y() and top_left.x() < bottom_right.x()
    # and plainly: the pixel just inside the top-left corner of the plot is X[0, 0]
    vb = pane.plot.getPlotItem().getViewBox()
    corner = pane.plot.mapFromScene(vb.sceneBoundingRect().topLeft()) + QPoint(3, 3)
    c = image.pixelColor(corner)
    assert np.abs(np.array([c.red(), c.green(), c.blue()]) - expected[0, 0]).sum() <= 24


# ---------------------------------------------------------------------- hover
def test_hovering_a_weight_links_its_query_key_and_score_cells(main_window):
    window = main_window
    panes = window.panes.panes
    hover_over(panes["weights"], 1, 3)
    assert window.model.hover == CellRef("weights", 1, 3, 0)
    assert panes["Q"].overlay.links == [(1, 0, 1, 4)]
    assert panes["K"].overlay.links == [(3, 0, 1, 4)]
    assert panes["scores"].overlay.links == [(1, 3, 1, 1)]
    assert panes["scaled"].overlay.links == [(1, 3, 1, 1)]
    assert panes["V"].overlay.links == [(3, 0, 1, 4)]  # w_13 weighs V_3 …
    assert panes["output"].overlay.links == [(1, 0, 1, 4)]  # … into output_1
    assert window.hover_label.text() == "w[爱→智能] = exp(s−max)/Σ = 0.2490"


def outlined_rows(pane) -> list[int]:
    """The rows of ``pane`` whose left edge (beside the row's middle) is drawn in the
    link outline's orange on screen, read from the pane's pixels."""
    image = pane.plot.grab().toImage()
    rows = []
    for i in range(pane.overlay.data.shape[0]):
        p = cell_widget_pos(pane, i, 0, 0.0, 0.5)
        near = [image.pixelColor(p.x() + dx, p.y()) for dx in (-1, 0, 1, 2)]
        if any(c.red() > 220 and 110 < c.green() < 170 and c.blue() < 60 for c in near):
            rows.append(i)
    return rows


def test_hovering_a_weight_outlines_the_value_row_on_screen(main_window):
    """The V pane really draws the outline around row j (and only there)."""
    window = main_window
    panes = window.panes.panes
    assert outlined_rows(panes["V"]) == []
    hover_over(panes["weights"], 1, 3)
    window.repaint()
    assert outlined_rows(panes["V"]) == [3]
    hover_over(panes["weights"], 1, 0)
    assert window.model.hover == CellRef("weights", 1, 0, 0), panes["V"].overlay.links
    window.repaint()
    assert outlined_rows(panes["V"]) == [0]


def test_hovering_a_weight_outlines_the_rotated_query_and_key_rows(main_window):
    """With RoPE the scores are RoPE(Q)·RoPE(K)ᵀ: a weight outlines its rows there too,
    and hovering a rotated query links like Q."""
    window = main_window
    window.model.set_options(positions="rope")
    assert window.model.wait_until_idle()
    panes = window.panes.panes
    hover_over(panes["weights"], 1, 3)
    assert panes["Q_rope"].overlay.links == [(1, 0, 1, 4)]
    assert panes["K_rope"].overlay.links == [(3, 0, 1, 4)]
    panes["Q_rope"]._on_mouse_moved(cell_scene_pos(panes["Q_rope"], 2, 0))
    assert window.model.hover == CellRef("Q_rope", 2, 0, 0)
    assert panes["Q"].overlay.links == panes["Q_rope"].overlay.links == [(2, 0, 1, 4)]
    assert panes["X"].overlay.links == [(2, 0, 1, 8)]
    assert panes["weights"].overlay.links == [(2, 0, 1, 4)]


@pytest.mark.parametrize("pane", ["mask", "bias"])
def test_hovering_a_mask_or_bias_cell_outlines_its_scores_not_q_and_k(main_window, pane):
    """mask[i, j] and ALiBi's bias[i, j] come from the positions i and j, not from q_i
    and k_j: they outlined Q's row i and K's row j as if they were a score."""
    window = main_window
    model = window.model
    model.set_options(causal=True, alibi=(0.5,))
    assert model.wait_until_idle()
    panes = window.panes.panes
    panes[pane]._on_mouse_moved(cell_scene_pos(panes[pane], 3, 1))
    assert model.hover == CellRef(pane, 3, 1, 0)
    assert panes["Q"].overlay.links == panes["K"].overlay.links == []
    assert panes["X"].overlay.links == []
    assert panes["scaled"].overlay.links == panes["weights"].overlay.links == [(3, 1, 1, 1)]
    assert panes["scores"].overlay.links == [(3, 1, 1, 1)]
    model.set_hover(None)


def test_hovering_an_output_cell_links_its_weights_row_and_that_column_of_v(main_window):
    window = main_window
    panes = window.panes.panes
    panes["output"]._on_mouse_moved(cell_scene_pos(panes["output"], 2, 1))
    assert window.model.hover == CellRef("output", 2, 1, 0)
    assert panes["weights"].overlay.links == [(2, 0, 1, 4)]
    assert panes["V"].overlay.links == [(0, 1, 4, 1)]
    assert panes["Q"].overlay.links == []
    assert panes["output"].overlay.links == [(2, 1, 1, 1)]  # the cell, not its row
    assert window.hover_label.text().startswith("out[人工, 1] = Σ_j w[人工→j]·V[j, 1] = ")


def test_hovering_a_value_cell_outlines_only_the_output_column_it_reaches(main_window):
    """output[i, 2] = Σ_j w[i, j]·V[j, 2]: V[3, 2] reaches column 2 of the output,
    through column 3 of the weights."""
    window = main_window
    panes = window.panes.panes
    hover_over(panes["V"], 3, 2)
    assert window.model.hover == CellRef("V", 3, 2, 0)
    assert panes["output"].overlay.links == [(0, 2, 4, 1)]
    assert panes["weights"].overlay.links == [(0, 3, 4, 1)]
    assert panes["V"].overlay.links == [(3, 0, 1, 4)]
    assert window.hover_label.text().startswith("V[智能, 2] = X[智能]·W_V[:, 2] = ")


def test_hovering_a_masked_weight_outlines_no_value_or_output_row(main_window):
    """Under the causal mask w[爱→智能] is exactly 0: V's row 3 adds nothing to output
    row 1. Its query, key and score cells are still outlined (the score is computed)."""
    window = main_window
    window.model.set_options(causal=True)
    assert window.model.wait_until_idle()
    panes = window.panes.panes
    hover_over(panes["weights"], 1, 3)
    assert window.hover_label.text().startswith("w[爱→智能] = 0 exactly: masked (causal)")
    assert panes["V"].overlay.links == [] and panes["output"].overlay.links == []
    assert panes["Q"].overlay.links == [(1, 0, 1, 4)]
    assert panes["K"].overlay.links == [(3, 0, 1, 4)]
    assert panes["scores"].overlay.links == [(1, 3, 1, 1)]
    window.repaint()
    assert outlined_rows(panes["V"]) == []
    hover_over(panes["weights"], 3, 1)  # an allowed weight: as before
    assert panes["V"].overlay.links == [(1, 0, 1, 4)]
    assert panes["output"].overlay.links == [(3, 0, 1, 4)]


def test_hovering_a_query_links_its_input_row(main_window):
    window = main_window
    panes = window.panes.panes
    hover_over(panes["Q"], 3, 0)
    assert window.model.hover == CellRef("Q", 3, 0, 0)
    assert panes["X"].overlay.links == [(3, 0, 1, 8)]
    assert panes["weights"].overlay.links == [(3, 0, 1, 4)]
    assert window.hover_label.text().startswith("Q[智能, 0] = X[智能]·W_Q[:, 0] = ")


def test_moving_off_the_matrix_clears_the_hover(main_window):
    window = main_window
    pane = window.panes.panes["weights"]
    hover_over(pane, 0, 0)
    assert window.model.hover is not None
    outside = cell_widget_pos(pane, 0, 0) - QPoint(0, 2000)
    pane._on_mouse_moved(pane.plot.mapToScene(outside))
    assert window.model.hover is None
    assert window.panes.panes["Q"].overlay.links == []
    assert window.hover_label.text() == ""


# -------------------------------------------------------------------- presets
def test_tutorial_1_weights_are_the_tutorials_table(main_window):
    window = main_window
    shown = window.panes.panes["weights"].image.image
    want = printed_table("demo1_self_attention.out.txt", "注意力权重矩阵")
    assert want.shape == (4, 4)
    assert np.array_equal(np.round(shown, 4), want)
    for key, heading in (("Q", "Q矩阵"), ("K", "K矩阵"), ("V", "V矩阵")):
        np.testing.assert_allclose(window.panes.panes[key].image.image,
                                   printed_rows("demo1_self_attention.out.txt", heading),
                                   atol=5e-9, rtol=0)


def test_tutorial_2_scores_are_demo_2s_qkt(main_window):
    window = main_window
    action = window.findChild(type(window.undo_action), "preset_tutorial-2")
    action.trigger()
    assert window.model.wait_until_idle()
    shown = window.panes.panes["scores"].image.image
    want = printed_table("demo2_qkv_asymmetry.out.txt", "QK^T 相似度矩阵")
    assert want.shape == (3, 3)
    assert np.array_equal(np.round(shown, 4), want)
    assert window.panes.panes["scores"]._labels[0] == ["猫", "追", "老鼠"]
    window.undo_action.trigger()
    assert window.model.state.equals(SessionState.from_preset("tutorial-1"))


@pytest.mark.parametrize("key", ["scores", "weights"])
def test_pane_titles_name_the_shape(main_window, key):
    assert main_window.panes.panes[key].title.text().endswith("(4×4)")


def test_the_last_of_two_quick_moves_is_the_cell_hovered(main_window):
    """pyqtgraph dropped a move within 10 ms of the last one, so a quick move that
    stopped on a cell left the read-out and outlines on the cell it had crossed (and a
    test that hovered twice in a row failed whenever the machine was fast)."""
    from pyqtgraph.GraphicsScene.GraphicsScene import getMillis
    panes = main_window.panes.panes
    hover_over(panes["weights"], 1, 3)
    # the last move "just now", however long this line takes: any limit would drop the next
    panes["weights"].plot.scene()._lastMoveEventTime = getMillis() + 10 ** 6
    hover_over(panes["weights"], 2, 0)
    assert main_window.model.hover == CellRef("weights", 2, 0, 0)
