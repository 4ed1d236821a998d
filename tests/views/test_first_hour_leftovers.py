"""What a first-time user still met on a laptop: a load over edits that said nothing, an
inserted token named from the count, presentation mode's small text and hint."""

import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from tests.views.geometry import layout_problems
from tests.views.helpers import type_into_cell
from tests.views.plot_geometry import axis_texts


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


def test_a_preset_loaded_over_edits_says_in_the_status_bar_that_undo_brings_them_back(
        main_window):
    window = main_window
    type_into_cell(window.editor, 0, 1, "0.75")
    settle(window)
    edited = window.model.state
    window.load_preset("tutorial-2")
    settle(window)
    text = window.statusBar().currentMessage()
    assert "Ctrl+Z" in text and "edits" in text
    window.undo_action.trigger()
    assert window.model.state.equals(edited)
    window.statusBar().clearMessage()
    window.load_preset("tutorial-1")  # nothing edited since the last load: nothing said
    assert window.statusBar().currentMessage() == ""


def test_a_token_inserted_at_row_1_is_named_new_in_the_interface_language(main_window):
    window = main_window
    editor = window.editor
    editor.setCurrentIndex(editor.table.index(1, 1))
    window.insert_token_action.trigger()
    assert window.model.state.tokens == ("我", "new", "爱", "人工", "智能")
    window.insert_token_action.trigger()
    assert window.model.state.tokens[1:3] == ("new2", "new")
    window.language_actions["zh_CN"].trigger()
    QApplication.processEvents()
    try:
        window.insert_token_action.trigger()
        assert window.model.state.tokens[1] == "新"
    finally:
        window.language_actions["en"].trigger()
        QApplication.processEvents()


@pytest.fixture
def presenting(main_window):
    main_window.view_scale.set_zoom(1.0)
    main_window.view_scale.enter_presentation()
    settle(main_window)
    yield main_window
    main_window.view_scale.leave_presentation()
    settle(main_window)


def test_presentation_mode_names_whole_and_values_as_large_as_the_zoom(presenting):
    """At 150 % the names outgrew the 0.8 of a line pyqtgraph keeps for them (cut at
    the bottom), and the values stayed at 13 px beside 20 px names."""
    window = presenting
    cut = [p for p in layout_problems(window) if "axis label" in p]
    assert cut == []
    q = window.panes.panes["Q"].plot
    assert q.overlay.value_font is not None and q.overlay.value_font.pixelSize() > 13
    for pane in window.findChildren(HeatmapPane):
        if pane.isVisible():
            axis = pane.plot.getPlotItem().getAxis("bottom")
            for _text, rect in axis_texts(axis):
                assert rect.bottom() <= axis.height()


def test_presentation_mode_hints_at_what_is_on_screen_not_the_hidden_table(presenting):
    window = presenting
    window.model.reset(SessionState.from_preset("tutorial-2"))  # no lesson: the hint shows
    settle(window)
    hint = window.teaching.banners.hint
    assert hint.isVisible()
    assert "Hover" in hint.headline.text() and "table" not in hint.headline.text()
    window.view_scale.leave_presentation()
    settle(window)
    assert "Edit a value in the table" in hint.headline.text()
