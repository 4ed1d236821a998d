"""Multi-head attention through the widgets: heads spin box, head chooser, small
multiples, the concatenation and W_O panes, and hover links within the chosen head.
"""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from qkv_desktop.state import CellRef
from qkv_desktop.views.panes.pane_grid import HEADS_KEY
from tests.views.helpers import cell_widget_pos

PER_HEAD = ("Q", "K", "V", "scores", "weights", "output")


def ref_heads(state):
    """Per-head Q, K, V, scores, weights and output in plain NumPy, then concat, W_O."""
    heads = []
    for w in state.heads:
        Q, K, V = state.X @ w.W_Q, state.X @ w.W_K, state.X @ w.W_V
        scores = Q @ K.T
        s = scores / np.sqrt(state.d_k)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        weights = e / e.sum(axis=1, keepdims=True)
        heads.append({"Q": Q, "K": K, "V": V, "scores": scores, "weights": weights,
                      "output": weights @ V})
    concat = np.hstack([h["output"] for h in heads])
    return heads, concat, None if state.W_O is None else concat @ state.W_O


def settle(window):
    assert window.model.wait_until_idle()


def shown(window, key):
    return window.panes.panes[key].image.image


def press(widget, key, times=1):
    for _ in range(times):
        QTest.keyClick(widget, key)


@pytest.fixture
def two_heads(main_window):
    """tutorial-1 with weight scale 1 (distinct heads) and h = 2 set by the spin box."""
    window = main_window
    window.controls.init_scale.setValue(1.0)
    press(window.controls.heads, Qt.Key.Key_Up)
    settle(window)
    assert window.model.state.n_heads == 2
    return window


def test_the_heads_spin_box_adds_heads_and_the_panes_follow(main_window):
    window = main_window
    grid = window.panes
    assert "concat" not in grid.shown() and HEADS_KEY not in grid.shown()
    assert window.panes.panes["Q"].title.text().startswith("Q = X·W_Q")
    press(window.controls.heads, Qt.Key.Key_Up, 3)  # h = 4 divides d_model = 8
    settle(window)
    s = window.model.state
    assert (s.n_heads, s.d_k) == (4, 2)
    assert window.controls.d_k.value() == 2
    assert window.controls.head.count() == 4 and window.controls.head.isEnabled()
    assert shown(window, "Q").shape == (4, 2)
    assert window.panes.panes["Q"].title.text().startswith("head 1: Q = X·W_Q")
    assert window.panes.panes["X"].title.text().startswith("X (input vectors)")
    assert "concat" in grid.shown() and HEADS_KEY in grid.shown()
    assert window.panes.panes["concat"].isVisible() and grid.heads_view.isVisible()
    assert shown(window, "concat").shape == (4, 8)
    assert window.panes.panes["concat"].overlay.head_starts == [2, 4, 6]
    assert len(grid.heads_view.thumbs) == 4
    assert not window.panes.panes["projected"].isVisible()
    press(window.controls.heads, Qt.Key.Key_Down)  # h = 3 does not divide 8: d_k stays
    settle(window)
    assert (window.model.state.n_heads, window.model.state.d_k) == (3, 2)
    assert len(grid.heads_view.thumbs) == 3
    window.undo_action.trigger()
    window.undo_action.trigger()
    settle(window)
    assert window.model.state.n_heads == 1 and window.model.state.d_k == 4
    assert not window.panes.panes["concat"].isVisible()
    assert not grid.heads_view.isVisible()
    assert window.controls.heads.value() == 1 and not window.controls.head.isEnabled()


def test_every_head_and_the_concatenation_show_the_numpy_numbers(two_heads):
    window = two_heads
    heads, concat, _ = ref_heads(window.model.state)
    combo = window.controls.head
    for h in (0, 1):
        combo.setCurrentIndex(h)
        assert window.model.current_head == h
        for key in PER_HEAD:
            np.testing.assert_allclose(shown(window, key), heads[h][key], rtol=1e-12,
                                       err_msg=f"head {h} {key}")
        assert window.panes.panes["weights"].title.text().startswith(f"head {h + 1}: ")
        thumb = window.panes.heads_view.thumbs[h]
        np.testing.assert_allclose(thumb.data, heads[h]["weights"], rtol=1e-12)
    np.testing.assert_allclose(shown(window, "concat"), concat, rtol=1e-12)
    assert not np.allclose(heads[0]["weights"], heads[1]["weights"])


def test_the_head_chooser_switches_the_panes_and_the_weight_table(two_heads):
    window = two_heads
    model = window.model
    before = shown(window, "weights").copy()
    combo = window.controls.head
    combo.setFocus()
    press(combo, Qt.Key.Key_Down)
    assert model.current_head == 1
    assert np.array_equal(shown(window, "weights"), model.result.head(1).weights)
    assert not np.array_equal(shown(window, "weights"), before)
    table = window.weight_editors["W_Q"].table
    assert float(table.data(table.index(0, 0), Qt.ItemDataRole.EditRole)) == \
        model.state.heads[1].W_Q[0, 0]
    assert model.undo_stack.count() == 2  # choosing a head is not an edit


def test_clicking_a_small_multiple_chooses_its_head(two_heads):
    window = two_heads
    thumbs = window.panes.heads_view.thumbs
    assert [t.current for t in thumbs] == [True, False]
    QTest.mouseClick(thumbs[1], Qt.MouseButton.LeftButton)
    assert window.model.current_head == 1
    assert window.controls.head.currentIndex() == 1
    assert [t.current for t in thumbs] == [False, True]
    assert np.array_equal(shown(window, "K"), window.model.result.head(1).K)
    QTest.mouseClick(thumbs[0].plot.viewport(), Qt.MouseButton.LeftButton)  # on the cells
    assert window.model.current_head == 0 and [t.current for t in thumbs] == [True, False]


def test_a_small_multiple_is_the_panes_heatmap_with_the_same_colours_and_numbers(
        two_heads, qtbot):
    """One heatmap primitive (issue 16): a thumbnail is a ``HeatmapPlot``, so its
    colours, non-finite palette and four-decimal values are the weights pane's."""
    from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
    window = two_heads
    window.panes.heads_view.resize(900, 500)  # large tiles: room for the values
    thumb = window.panes.heads_view.thumbs[0]
    pane = window.panes.panes["weights"]
    assert isinstance(thumb.plot, HeatmapPlot)
    qtbot.waitUntil(lambda: thumb.plot.overlay.value_font is not None)
    assert thumb.plot.overlay.texts == pane.plot.overlay.texts  # one number rule
    assert all(len(t.split(".")[1]) == 4 for row in thumb.plot.overlay.texts for t in row)
    np.testing.assert_array_equal(thumb.plot.image.image, pane.plot.image.image)
    assert np.array_equal(thumb.plot.image.lut, pane.plot.image.lut)  # one colour map
    assert thumb.plot.image.levels is not None
    np.testing.assert_array_equal(thumb.plot.image.levels, pane.plot.image.levels)


def test_a_small_multiple_draws_masked_cells_as_the_weights_pane_does(two_heads):
    """Under the causal mask the thumbnails drew a masked cell as a pale weight of 0,
    while the weights pane draws it grey and hatched, with no number (found by a
    first-time user)."""
    window = two_heads
    window.model.set_options(causal=True)
    settle(window)
    pane = window.panes.panes["weights"]
    for h, thumb in enumerate(window.panes.heads_view.thumbs):
        masked = ~window.model.result.head(h).allowed
        assert masked.any() and np.isneginf(thumb.data[masked]).all()
        assert np.array_equal(thumb.data[~masked], window.model.result.head(h).weights[~masked])
        assert thumb.plot.mask.isVisible() and pane.plot.mask.isVisible()  # hatched
    window.model.set_current_head(0)
    settle(window)
    np.testing.assert_array_equal(window.panes.heads_view.thumbs[0].plot.image.image,
                                  pane.plot.image.image)


def test_output_projection_checkbox_adds_the_W_O_pane(two_heads):
    window = two_heads
    box = window.controls.output_projection
    pane = window.panes.panes["projected"]
    assert not pane.isVisible()
    QTest.mouseClick(box, Qt.MouseButton.LeftButton)
    settle(window)
    s = window.model.state
    assert s.W_O is not None and box.isChecked()
    assert pane.isVisible()
    _, concat, projected = ref_heads(s)
    np.testing.assert_allclose(shown(window, "projected"), projected, rtol=1e-12)
    assert pane.title.text() == "final output = concat·W_O (4×8)"
    assert pane._labels == (list(s.tokens), [str(c) for c in range(8)])
    QTest.mouseClick(box, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.model.state.W_O is None and not pane.isVisible()
    window.undo_action.trigger()
    settle(window)
    assert pane.isVisible() and box.isChecked()


def test_hover_links_stay_within_the_chosen_head(two_heads):
    window = two_heads
    panes = window.panes.panes
    window.controls.head.setCurrentIndex(1)
    QTest.mouseMove(panes["weights"].plot.viewport(), cell_widget_pos(panes["weights"], 1, 2))
    assert window.model.hover == CellRef("weights", 1, 2, 1)
    assert panes["Q"].overlay.links == [(1, 0, 1, 4)]
    assert panes["K"].overlay.links == [(2, 0, 1, 4)]
    w = window.model.result.head(1).weights[1, 2]
    assert window.hover_label.text() == f"w[爱→人工] = exp(s−max)/Σ = {w:.4f}"
    QTest.mouseMove(panes["output"].plot.viewport(), cell_widget_pos(panes["output"], 0, 1))
    assert window.model.hover == CellRef("output", 0, 1, 1)
    assert panes["concat"].overlay.links == [(0, 5, 1, 1)]  # head 2's block starts at 4
    # a hover made in head 1 does not draw links while head 2 is shown
    window.model.set_hover(CellRef("weights", 0, 0, 0))
    assert panes["Q"].overlay.links == []
    window.model.set_hover(None)


def test_hovering_a_value_cell_outlines_its_column_of_the_concatenation(two_heads):
    """V[3, 1] of head 2 reaches that head's output column 1, which is concat column
    4 + 1 (head 2's block starts at d_k = 4); the concat pane outlined nothing."""
    window = two_heads
    panes = window.panes.panes
    window.controls.head.setCurrentIndex(1)
    QTest.mouseMove(panes["V"].plot.viewport(), cell_widget_pos(panes["V"], 3, 1))
    assert window.model.hover == CellRef("V", 3, 1, 1)
    assert panes["output"].overlay.links == [(0, 1, 4, 1)]
    assert panes["concat"].overlay.links == [(0, 5, 4, 1)]
    window.model.set_hover(None)


def test_the_view_menu_hides_and_restores_the_small_multiples(two_heads):
    window = two_heads
    action = window.pane_actions[HEADS_KEY]
    assert action.text() == "weights of every head" and action.isChecked()
    action.trigger()
    assert not window.panes.heads_view.isVisible()
    assert window.panes.panes["concat"].isVisible()
    assert HEADS_KEY in window.panes.hidden
    window.findChild(type(action), "resetLayout").trigger()
    assert window.panes.heads_view.isVisible() and action.isChecked()


def test_the_concatenation_names_its_columns_by_head_and_dimension(two_heads):
    """Issue 18: "0 1 0 1" did not say which head a column of the concatenation is from;
    heads count from 1 as everywhere in the window."""
    window = two_heads
    d_k = window.model.state.d_k
    expected = [f"h{h}·d{c}" for h in (1, 2) for c in range(d_k)]
    _rows, cols = window.panes.panes["concat"].plot._labels
    assert cols == expected
    from qkv_desktop.state.catalogue import axis_labels
    assert axis_labels(window.model.state, "heads", "d{}".format) == expected  # data export


def test_the_hidden_overview_of_one_head_draws_no_edit(make_window):
    """With one head the grid hides the small multiples: an edit gives them nothing to
    draw (issue 20), and a second head shows them with the current result."""
    window = make_window()
    view = window.panes.heads_view
    assert window.model.state.n_heads == 1 and not view.isVisible()
    before = [thumb.data for thumb in view.thumbs]  # none, or drawn before it was hidden
    window.model.set_cell("X", 0, 1, 0.5)
    settle(window)
    assert all(a is b for a, b in zip([t.data for t in view.thumbs], before, strict=True))
    window.controls.init_scale.setValue(1.0)
    press(window.controls.heads, Qt.Key.Key_Up)
    settle(window)
    assert view.isVisible() and len(view.thumbs) == 2
    for h, thumb in enumerate(view.thumbs):
        np.testing.assert_array_equal(thumb.data, window.model.result.head(h).weights)


def _title_whole_or_told(thumb):
    """The thumbnail's title as drawn fits its label, and a shortened one is in the
    label's tool tip."""
    caption = thumb.caption
    drawn = caption.shown_text() if hasattr(caption, "shown_text") else caption.text()
    room = caption.contentsRect().width()
    assert caption.fontMetrics().horizontalAdvance(drawn) <= room, (drawn, room)
    if drawn != thumb.title():
        assert thumb.title() in caption.toolTip()
    assert str(thumb.head + 1) in drawn


def test_small_multiples_at_1024x700_name_no_token_on_its_side(make_window):
    """At 1024×700 with two heads the thumbnails turned 人工 智能 upright in 9-pixel
    glyphs on their side, unreadable (a review): a thumbnail names its tokens only
    when the names stand upright, and its cells then take the thumbnail."""
    from qkv_desktop.state import SessionState
    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=2)
    window = make_window(state, size=(1024, 700))
    thumbs = window.panes.heads_view.thumbs
    assert len(thumbs) == 2 and all(t.isVisible() for t in thumbs)
    for thumb in thumbs:
        bottom = thumb.plot.getPlotItem().getAxis("bottom")
        assert not (bottom.isVisible() and bottom.rotated), "names turned on their side"
        assert thumb.plot.view_box.width() >= 2 / 3 * thumb.plot.width()
        _title_whole_or_told(thumb)
    window.resize(1366, 768)  # room for upright names: the thumbnails name the tokens
    assert window.model.wait_until_idle()
    QTest.qWait(0)
    for thumb in thumbs:
        item = thumb.plot.getPlotItem()
        assert item.getAxis("bottom").isVisible() and not item.getAxis("bottom").rotated
        assert item.getAxis("left").isVisible()


def test_grouped_query_thumbnails_in_a_narrow_dock_keep_titles_and_cells(qtbot):
    """SmolLM2's nine heads in the decoder's dock: the titles were cut at both ends
    ("ead 2 · K/V") and the names left the weights 30 pixels of 80 (a review). Each
    title is whole or shortened with its whole text in the tool tip, and the cells
    take most of the thumbnail."""
    from qkv_desktop.core import Weights
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.state import SessionState
    from qkv_desktop.views.panes.heads_overview import HeadsOverview

    rng = np.random.default_rng(0)
    d, dk = 6, 2
    kv = [(rng.normal(size=(d, dk)), rng.normal(size=(d, dk))) for _ in range(3)]
    heads = tuple(Weights(rng.normal(size=(d, dk)), *kv[h // 3]) for h in range(9))
    tokens = ("the", "cat", "chased", "the", "mouse")
    state = SessionState(tokens, rng.normal(size=(5, d)), heads,
                         W_O=rng.normal(size=(9 * dk, d)))
    model = AttentionModel(state)
    overview = HeadsOverview(model)
    qtbot.addWidget(overview)
    overview.resize(280, 420)
    overview.show()
    qtbot.waitExposed(overview)
    assert model.wait_until_idle()
    QTest.qWait(0)
    thumbs = overview.thumbs
    assert [t.title() for t in thumbs][:2] == ["head 1 · K/V 1", "head 2 · K/V 1"]
    for thumb in thumbs:
        _title_whole_or_told(thumb)
        assert thumb.plot.view_box.width() >= 2 / 3 * thumb.plot.width(), thumb.head
