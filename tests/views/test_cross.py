"""Cross-attention through the widgets: the mode switch, the second token table
(editing, paste, undo, token actions on the focused table) and relabelled panes.
"""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from qkv_desktop.state import CellRef
from tests.views.helpers import cell_widget_pos, type_into_cell

ENCODER = ("I\t0.9\t0.1\t0.3\t0.1\t0.5\t0.1\t0.0\t0.4\n"
           "really\t0.2\t0.5\t0.1\t0.1\t0.4\t0.3\t0.1\t0.2\n"
           "love\t0.1\t0.9\t0.1\t0.1\t0.3\t0.7\t0.2\t0.1\n"
           "AI\t0.2\t0.1\t0.6\t0.7\t0.1\t0.2\t0.5\t0.4\n"
           "end\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\t0.2\n")
QUERIES = ["我", "爱", "人工", "智能"]
KEYS = ["I", "really", "love", "AI", "end"]


def ref_cross(state):
    """Q from X, K and V from X_kv, in plain NumPy."""
    w = state.heads[0]
    Q, K, V = state.X @ w.W_Q, state.X_kv @ w.W_K, state.X_kv @ w.W_V
    s = Q @ K.T / np.sqrt(state.d_k)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return {"Q": Q, "K": K, "V": V, "weights": weights, "output": weights @ V}


def settle(window):
    assert window.model.wait_until_idle()


def shown(window, key):
    return window.panes.panes[key].image.image


def assert_column_ticks(pane, labels) -> None:
    """The labels drawn under a pane's plot name their columns (shortened with "…", or
    thinned, when crowded)."""
    ticks = pane.plot.getPlotItem().getAxis("bottom")._tickLevels[0]
    assert ticks and ticks[0][0] == 0.5
    for pos, text in ticks:
        name = labels[int(pos)]
        assert text == name or (text.endswith("…") and name.startswith(text[:-1])), (pos, text)


def focus_table(window, editor, row=0, col=0):
    """Click a value cell of ``editor`` as a user would (this gives it the focus)."""
    rect = editor.visualRect(editor.table.value_index(row, col))
    QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.token_tables.active_editor() is editor


@pytest.fixture
def cross(main_window):
    """tutorial-1 in cross mode (through the combo) with a 5-token encoder pasted in."""
    window = main_window
    window.activateWindow()
    window.controls.mode.setCurrentIndex(window.controls.mode.findData("cross"))
    settle(window)
    kv = window.kv_editor
    kv.setCurrentIndex(kv.table.index(0, 0))
    assert kv.paste(ENCODER)
    settle(window)
    assert window.model.state.kv_tokens == tuple(KEYS)
    yield window
    window.token_tables.set_active(window.editor)


def test_mode_switch_shows_the_second_table_and_disables_causal(main_window):
    window = main_window
    controls = window.controls
    assert not window.kv_editor.isVisible() and not window.panes.panes["X_kv"].isVisible()
    assert controls.causal.isEnabled()
    controls.mode.setCurrentIndex(controls.mode.findData("cross"))
    settle(window)
    s = window.model.state
    assert s.mode == "cross" and s.X_kv.shape == (4, 8)
    assert window.kv_editor.isVisible() and window.panes.panes["X_kv"].isVisible()
    assert window.kv_editor.table.rowCount() == 4
    assert not controls.causal.isEnabled()
    assert "cross-attention" in controls.causal.toolTip()
    window.undo_action.trigger()
    settle(window)
    assert window.model.state.mode == "self" and controls.causal.isEnabled()
    assert controls.mode.currentData() == "self"
    assert not window.kv_editor.isVisible() and not window.panes.panes["X_kv"].isVisible()


def test_cross_panes_match_numpy_and_are_relabelled(cross):
    window = cross
    s = window.model.state
    ref = ref_cross(s)
    for key, a in ref.items():
        np.testing.assert_allclose(shown(window, key), a, rtol=1e-12, err_msg=key)
    assert shown(window, "weights").shape == (4, 5)
    np.testing.assert_array_equal(shown(window, "X_kv"), s.X_kv)
    panes = window.panes.panes
    for key in ("scores", "scaled", "weights"):
        assert panes[key]._labels == (QUERIES, KEYS), key
        assert_column_ticks(panes[key], KEYS)
    for key in ("K", "V", "X_kv"):
        assert panes[key]._labels[0] == KEYS, key
    assert panes["Q"]._labels[0] == QUERIES and panes["output"]._labels[0] == QUERIES
    assert panes["K"].title.text() == "K = X_kv·W_K (keys) (5×4)"
    assert panes["weights"].title.text() == "weights = softmax (4×5)"
    # back to self-attention: keys are the queries again
    window.controls.mode.setCurrentIndex(window.controls.mode.findData("self"))
    settle(window)
    assert panes["weights"]._labels == (QUERIES, QUERIES)
    assert_column_ticks(panes["weights"], QUERIES)
    assert panes["K"].title.text() == "K = X·W_K (keys) (4×4)"


def test_typing_into_the_second_table_edits_X_kv_and_undoes(cross):
    window = cross
    model = window.model
    X_before = model.state.X.copy()
    type_into_cell(window.kv_editor, 2, 3, "1.25")
    settle(window)
    s = model.state
    assert s.X_kv[2, 3] == 1.25 and np.array_equal(s.X, X_before)
    np.testing.assert_allclose(shown(window, "K"), ref_cross(s)["K"], rtol=1e-12)
    window.undo_action.trigger()
    settle(window)
    assert model.state.X_kv[2, 3] == 0.1


def test_paste_into_the_second_table_grows_it_and_undo_shrinks_it(cross):
    window = cross
    kv = window.kv_editor
    kv.setCurrentIndex(kv.table.value_index(5 - 1, 0))
    assert kv.paste("0.5\t0.5\n1.5\t-1\n")  # rows 4 and 5 (a new token) at d0, d1
    settle(window)
    s = window.model.state
    assert s.X_kv.shape == (6, 8) and s.n == 4
    assert s.X_kv[5, :2].tolist() == [1.5, -1.0] and s.X_kv[5, 2:].tolist() == [0.0] * 6
    assert shown(window, "weights").shape == (4, 6)
    np.testing.assert_allclose(shown(window, "weights"), ref_cross(s)["weights"], rtol=1e-12)
    window.undo_action.trigger()
    settle(window)
    assert window.model.state.kv_tokens == tuple(KEYS)
    assert not kv.paste("0.5\tnope\n")  # refused whole, nothing changes
    assert window.model.state.X_kv.shape == (5, 8)


def test_token_actions_act_on_the_focused_table(cross):
    window = cross
    model = window.model
    focus_table(window, window.kv_editor, row=1)
    window.add_token_action.trigger()
    assert len(model.state.kv_tokens) == 6 and model.state.n == 4
    window.kv_editor.setCurrentIndex(window.kv_editor.table.value_index(1, 0))
    window.move_down_action.trigger()
    assert model.state.kv_tokens[:3] == ("I", "love", "really")
    window.kv_editor.selectRow(0)
    window.delete_token_action.trigger()
    assert model.state.kv_tokens[0] == "love"
    focus_table(window, window.editor, row=0)
    window.add_token_action.trigger()
    assert model.state.n == 5 and len(model.state.kv_tokens) == 5
    settle(window)
    assert shown(window, "weights").shape == (5, 5)


def test_hovering_a_key_links_its_encoder_row(cross):
    window = cross
    panes = window.panes.panes
    QTest.mouseMove(panes["K"].plot.viewport(), cell_widget_pos(panes["K"], 3, 1))
    assert window.model.hover == CellRef("K", 3, 1, 0)
    assert panes["X_kv"].overlay.links == [(3, 0, 1, 8)]
    assert panes["X"].overlay.links == []
    assert panes["weights"].overlay.links == [(0, 3, 4, 1)]
    window.model.set_hover(None)


def test_causal_mask_is_not_applied_in_cross_mode(main_window):
    window = main_window
    controls = window.controls
    QTest.mouseClick(controls.causal, Qt.MouseButton.LeftButton)
    settle(window)
    # masked weights (0 in the result) are drawn as masked cells, not as weights of 0
    assert (window.model.result.head().weights[0, 1:] == 0).all()
    assert np.isnan(shown(window, "weights")[0, 1:]).all()
    controls.mode.setCurrentIndex(controls.mode.findData("cross"))
    settle(window)
    assert controls.causal.isChecked() and not controls.causal.isEnabled()
    np.testing.assert_allclose(shown(window, "weights"), ref_cross(window.model.state)["weights"],
                               rtol=1e-12)
    assert (shown(window, "weights") > 0).all()
    assert "causal" not in window.panes.panes["scaled"].title.text()
