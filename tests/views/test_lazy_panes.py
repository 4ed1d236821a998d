"""The pane grid builds a pane the first time it shows it (issue 20: start-up).

The default session shows 8 of the catalogue's 17 panes and, with one head, no heads
overview; each pyqtgraph pane costs about 10 ms to build. The View menu still lists
every pane, a pane built late is drawn, linked and forwards its context-menu requests
like the first ones.
"""

import numpy as np
import pytest

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.views.panes.heads_overview import HeadsOverview
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.panes.pane_grid import DEFAULT_ORDER, HEADS_KEY, PaneGrid


def built_keys(window) -> set[str]:
    return {p.key for p in window.panes.findChildren(HeatmapPane)}


def test_a_new_window_builds_only_the_panes_it_shows(make_window):
    window = make_window()
    grid = window.panes
    shown = grid.shown()
    assert len(shown) == 8 and HEADS_KEY not in shown
    assert built_keys(window) == set(shown)
    assert not grid.findChildren(HeadsOverview)
    # nothing built: asking which keys exist, and the View menu, which names them all
    assert list(grid.panes) == list(DEFAULT_ORDER) and "S_shift" in grid.panes
    assert set(window.pane_actions) == {*DEFAULT_ORDER, HEADS_KEY}
    assert all(a.text() for a in window.pane_actions.values())
    assert window.pane_actions[HEADS_KEY].text() == "weights of every head"
    assert built_keys(window) == set(shown)


def test_a_pane_shown_later_is_built_drawn_linked_and_forwards_requests(make_window, qtbot):
    window = make_window()
    grid = window.panes
    assert "S_shift" not in built_keys(window)
    window.pane_actions["S_shift"].trigger()  # View → shifted scores
    assert "S_shift" in built_keys(window)
    pane = grid.panes["S_shift"]
    assert pane.isVisible() and "S_shift" in grid.shown()
    S = window.model.result.head().scaled
    np.testing.assert_array_equal(pane.image.image, S - S.max(axis=1, keepdims=True))
    window.model.set_selection(CellRef("S_shift", 1, 2))
    assert pane.overlay.pinned == (1, 2)  # linked like every pane
    with qtbot.waitSignal(grid.cellPinned) as pinned:
        pane.cellPinned.emit(CellRef("S_shift", 0, 0))
    assert pinned.args == [CellRef("S_shift", 0, 0)]
    window.pane_actions["S_shift"].trigger()  # hidden again: stays built, off screen
    assert not pane.isVisible() and "S_shift" not in grid.shown()


def test_the_heads_overview_is_built_when_a_session_has_heads(make_window):
    window = make_window()
    assert not window.panes.findChildren(HeadsOverview)
    window.model.reset(window.model.state.reinitialised(n_heads=4, d_k=2))
    assert window.model.wait_until_idle()
    overview = window.panes.findChildren(HeadsOverview)
    assert len(overview) == 1 and overview[0] is window.panes.heads_view
    assert overview[0].isVisible() and len(overview[0].thumbs) == 4
    assert {"concat", "projected"} & built_keys(window)


def test_the_grid_forwards_the_requests_of_a_pane_built_late(qtbot):
    """The window connects export, copy and pinning to the grid once, before the panes
    exist (its handlers open dialogs: a grid of its own here)."""
    grid = PaneGrid(AttentionModel(SessionState.from_preset("tutorial-1")))
    qtbot.addWidget(grid)
    grid.set_visible("S_shift", True)
    pane = grid.panes["S_shift"]
    with qtbot.waitSignal(grid.exportRequested) as export:
        pane.exportRequested.emit("S_shift")
    with qtbot.waitSignal(grid.copyRequested) as copy:
        pane.copyRequested.emit("S_shift")
    with qtbot.waitSignal(grid.cellPinned) as pinned:
        pane.cellPinned.emit(CellRef("S_shift", 0, 0))
    assert export.args == ["S_shift"] and copy.args == ["S_shift"]
    assert pinned.args == [CellRef("S_shift", 0, 0)]
    grid.model.shutdown()


@pytest.mark.parametrize("key", ["X_kv", "mask"])
def test_asking_for_a_pane_not_shown_builds_it_hidden(make_window, key):
    window = make_window()
    pane = window.panes.panes[key]
    assert key in built_keys(window) and not pane.isVisible()
    if key == "mask":
        assert window.panes.mask_painter is not None and window.panes.mask_painter.pane is pane
