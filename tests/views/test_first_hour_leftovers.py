"""What a first-time user still met on a laptop: a load over edits that said nothing, an
inserted token named from the count, presentation mode's small text and hint."""

from PySide6.QtWidgets import QApplication

from tests.views.helpers import type_into_cell


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
