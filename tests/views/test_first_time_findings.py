"""What a first-time user still found in the real window (1024×700 zh_CN, 1366×768 and
1920×1080 en): one negative value hid all of X's values, the grid's columns depended on
history, presentation mode left X and the token names small, QKᵀ hid its values where
QKᵀ/√d_k showed them, colour-bar ticks with a hyphen for a minus, a refusal that stayed
after the next good edit, pasted rows named t<k>, and a pin that moved on an insert."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from qkv_desktop.presentation.numbers import MINUS, fit_value_font
from qkv_desktop.state import SessionState
from tests.views.helpers import type_into_cell


def settle(window):
    """The result, then the layout: eight turns, as ``tests.views.sessions.settle`` (a
    resize across ``COMPACT_HEIGHT`` re-places the docks, and the panes lay out
    again after them)."""
    assert window.model.wait_until_idle()
    for _ in range(8):
        QApplication.processEvents()


def showing_values(window) -> set[str]:
    grid = window.panes
    return {k for k in grid.shown() if k in grid.panes
            and grid.panes[k].plot.overlay.value_font is not None}


@pytest.fixture
def sized(main_window):
    """The shared window at a size of its own, given back at 1400×900 after the test."""
    def resize(width, height):
        main_window.resize(width, height)
        settle(main_window)
        return main_window
    yield resize
    main_window.resize(1400, 900)
    settle(main_window)


# ------------------------------------------------- item 1: one negative value in X
def test_a_signed_matrix_fits_its_labels_with_room_for_a_minus_sign(qapp):
    """The font a matrix of positive values gets holds a negative value as well, in every
    cell where a font holds one; where none does, the values that fit are shown."""
    for width in range(20, 60):
        positive = fit_value_font(["0.8000", "0.1000"], width, 30, QFont(), 13, signed=True)
        negative = fit_value_font([MINUS + "0.5000", "0.1000"], width, 30, QFont(), 13,
                                  signed=True)
        plain = fit_value_font(["0.8000", "0.1000"], width, 30, QFont(), 13)
        if negative is not None:
            assert positive is not None and positive.key() == negative.key(), width
        else:  # no room for a minus sign: the positive values decide, as they are
            assert (positive and positive.key()) == (plain and plain.key()), width
    # the weights (never negative) keep the whole cell for their digits, which a signed
    # matrix gets only where no font fits with a minus sign's room
    unsigned = fit_value_font(["0.2500"], 27, 30, QFont(), 13)
    assert unsigned is not None
    assert fit_value_font([MINUS + "0.2500"], 27, 30, QFont(), 13) is None
    assert fit_value_font(["0.2500"], 27, 30, QFont(), 13, signed=True).key() == unsigned.key()
    assert fit_value_font(["0.2500"], 60, 30, QFont(), 13, signed=True).key() \
        == fit_value_font([MINUS + "0.2500"], 60, 30, QFont(), 13).key()


@pytest.mark.parametrize("preset", ["tutorial-1", "tutorial-2", "random-small"])
def test_typing_a_negative_value_into_x_hides_no_pane_s_values(sized, preset):
    """At 1920×1080 (a 1600×993 window) X's 32 values showed at 8 px condensed, and
    "−0.5" in X[0, 0] hid them all ("values hidden: hover a cell")."""
    window = sized(1600, 993)
    window.model.load_state(SessionState.from_preset(preset), "preset")
    settle(window)
    before = showing_values(window)
    type_into_cell(window.editor, 0, 0, "-0.5")
    settle(window)
    assert window.model.state.X[0, 0] == -0.5
    assert before <= showing_values(window)
    if preset == "tutorial-1":
        assert "X" in before


# ----------------------------------------- item 2: the grid's columns and history
def layout_of(window) -> tuple:
    grid = window.panes
    # (the grid's height follows the status bar's and the banner's texts, not the layout)
    return (grid._fit_columns, grid.width(), window.editor_dock.width(),
            window.size().toTuple())


def test_undoing_an_insert_brings_back_the_columns_the_grid_had(main_window, monkeypatch):
    """The choice measures the panes as laid out now (axes, colour bars), so choosing
    again after an undo could differ from the start (random-small at 1740×800: three
    columns, four after an insert and its undo). Same panes, shapes, room and font:
    the columns the user had."""
    from qkv_desktop.views.panes.pane_grid import PaneGrid
    window = main_window
    grid = window.panes
    settle(window)
    start = grid._fit_columns
    other = 1 if start != 1 else 2
    monkeypatch.setattr(PaneGrid, "_best_columns", lambda self: other)  # any history
    window.editor.setCurrentIndex(window.editor.table.index(1, 1))
    window.insert_token_action.trigger()
    settle(window)
    inserted = grid._fit_columns  # afresh: ``other`` (unless this context was met before)
    window.undo_action.trigger()
    settle(window)
    assert window.model.state.n == 4
    assert grid._fit_columns == start
    window.redo_action.trigger()
    settle(window)
    assert grid._fit_columns == inserted


def settle_until(window, done, rounds=200):
    for _ in range(rounds):
        if done():
            break
        settle(window)
    settle(window)


@pytest.mark.parametrize("size, preset", [((942, 644), "random-small"),
                                          ((1256, 706), "tutorial-1")])
def test_leaving_presentation_mode_gives_back_the_layout_before_it(sized, size, preset):
    """The window left full screen after the docks were restored, and the shrink was
    taken from the editor (639 px → 533): the grid chose two columns where it had one.
    At 1256×706 each plot then asked for its full-screen size, and the grid grew to
    2208 px high behind a scroll bar."""
    window = sized(*size)
    window.model.load_state(SessionState.from_preset(preset), "preset")
    settle(window)
    before = layout_of(window)
    window.view_scale.enter_presentation()
    settle_until(window, lambda: window.isFullScreen())
    window.view_scale.leave_presentation()
    settle_until(window, lambda: layout_of(window) == before)
    assert layout_of(window) == before, (layout_of(window), before)
    scroll = window.panes.parentWidget().parentWidget().verticalScrollBar()
    assert not scroll.isVisible()
    for key in window.panes.shown():  # none asks for the full-screen size it had
        plot = window.panes.panes[key].plot
        assert plot.sizeHint().height() <= max(plot.minimumHeight(), 100), key


# ------------------------------------------------- item 3: presentation mode's X
def test_presentation_mode_gives_x_s_values_room_to_grow(main_window):
    """Full screen, the grid took four columns (the panes nearest to square): X's eight
    columns then held 9 px values beside the others' 19 px. The choice now prefers, after
    the number of panes with values, the columns whose smallest values are largest (up
    to the zoom's size), and X's values grow with the rest."""
    window = main_window
    window.view_scale.set_zoom(1.0)
    desk = window.panes.panes["X"].plot.overlay.value_font
    window.view_scale.enter_presentation()
    try:
        settle_until(window, lambda: window.isFullScreen())
        settle(window)
        x = window.panes.panes["X"].plot.overlay.value_font
        assert x is not None and x.pixelSize() >= 13
        assert desk is None or x.pixelSize() > desk.pixelSize()
    finally:
        window.view_scale.leave_presentation()
        settle(window)


# ------------------------------------------------- item 5: colour-bar minus signs
def test_colour_bar_ticks_write_a_negative_level_with_the_cells_minus_sign(main_window):
    from tests.views.plot_geometry import axis_texts
    window = main_window
    window.model.set_cell("X", 0, 0, -0.5)
    settle(window)
    texts = [t for t, _rect in axis_texts(window.panes.panes["X"].colorbar.axis)]
    assert any(t.startswith(MINUS) for t in texts), texts
    assert not any("-" in t for t in texts), texts


# ------------------------------------------ item 6: a refusal after a valid edit
def test_a_valid_edit_takes_the_refusal_off_the_status_bar_and_the_cell(main_window):
    window = main_window
    editor = window.editor
    type_into_cell(editor, 0, 0, "abc")
    refusal = window.statusBar().currentMessage()
    assert refusal.startswith("Not applied")
    assert editor.balloon.isVisible()
    type_into_cell(editor, 1, 1, "0.25")
    settle(window)
    assert window.model.state.X[1, 1] == 0.25
    assert window.statusBar().currentMessage() == ""
    assert not editor.balloon.isVisible()


def _scrub_past_the_finite(window, monkeypatch):
    """A scrub's value refused by the model (a drag cannot reach a non-finite value:
    the model is made to refuse it, as it refuses one)."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    from qkv_desktop.state.edits import EditError

    def refuse(*_args, **_kwargs):
        raise EditError("only finite numbers can be used")
    monkeypatch.setattr(window.model, "set_cell", refuse)
    editor = window.editor
    start = editor.scroll_to_value(0, 1)
    ctrl = Qt.KeyboardModifier.ControlModifier
    QTest.mousePress(editor.viewport(), Qt.MouseButton.LeftButton, ctrl, start)
    QTest.mouseMove(editor.viewport(), start + QPoint(10, 0))
    QTest.mouseRelease(editor.viewport(), Qt.MouseButton.LeftButton, ctrl,
                       start + QPoint(10, 0))
    monkeypatch.undo()


def _paint_a_row_empty(window, monkeypatch):
    from tests.views.test_positions_ui import _press_drag_release
    window.controls.causal.setChecked(True)
    window.positions_panel.custom.setChecked(True)
    settle(window)
    _press_drag_release(window.panes.panes["mask"], [(0, 0)])


def _rope_on_an_odd_d_k(window, monkeypatch):
    window.model.set_d_k(3)
    panel = window.positions_panel
    panel.positions.setCurrentIndex(panel.positions.findData("rope"))


def _an_odd_d_k_under_rope(window, monkeypatch):
    window.model.set_options(positions="rope")
    window.controls.d_k.setValue(3)


def _remove_the_last_dimension(window, monkeypatch):
    window.model.set_d_model(1)
    window.remove_dim_action.trigger()


def _delete_with_no_token_selected(window, monkeypatch):
    window.delete_token_action.trigger()


def _a_refused_paste(window, monkeypatch):
    window.editor.setCurrentIndex(window.editor.table.value_index(0, 0))
    window.editor.paste("abc\tdef")


def _a_refused_typed_value(window, monkeypatch):
    type_into_cell(window.editor, 0, 0, "abc")


def _inputs_times_100_past_the_finite(window, monkeypatch):
    # X[0, 0] = 1e307 out of the scores (W_Q's and W_K's row 0 zero), whose q·k would
    # overflow float64 and not compute at all: only its × 100 is past the finite
    state = window.model.state
    X = state.X.copy()
    X[0, 0] = 1e307
    w = state.heads[0]
    W_Q, W_K = w.W_Q.copy(), w.W_K.copy()
    W_Q[0], W_K[0] = 0.0, 0.0
    window.model.reset(state.with_(X=X, heads=(replace(w, W_Q=W_Q, W_K=W_K),)))
    settle(window)
    window.teaching.scale_inputs()


REFUSALS = {f.__name__.strip("_"): f for f in (
    _a_refused_typed_value, _a_refused_paste, _scrub_past_the_finite,
    _remove_the_last_dimension, _delete_with_no_token_selected, _an_odd_d_k_under_rope,
    _rope_on_an_odd_d_k, _paint_a_row_empty, _inputs_times_100_past_the_finite)}


@pytest.mark.parametrize("refuse", REFUSALS.values(), ids=REFUSALS.keys())
def test_every_kind_of_refusal_leaves_the_status_bar_once_a_valid_edit_lands(
        main_window, monkeypatch, refuse):
    """Only the refusals an editor's balloon showed were taken off: the window's own
    (a dimension not removed, Delete with no token), the controls', the positions', the
    mask painter's, a lesson's, a scrub's stayed up to 6 s after the next good edit."""
    window = main_window
    refuse(window, monkeypatch)
    said = window.statusBar().currentMessage()
    assert said.startswith(("Not applied: ", "Paste refused: ", "Select the tokens")), said
    type_into_cell(window.editor, 1, 0, "0.25")
    settle(window)
    assert window.model.state.X[1, 0] == 0.25
    assert window.statusBar().currentMessage() == ""


def test_a_message_that_is_no_refusal_stays_after_a_valid_edit(main_window):
    """The rule takes refusals off, not news: "Saved …" said after a refusal stays its
    time."""
    window = main_window
    type_into_cell(window.editor, 0, 0, "abc")
    assert window.statusBar().currentMessage().startswith("Not applied: ")
    window.model.message.emit("Saved session.qkv")
    type_into_cell(window.editor, 1, 1, "0.25")
    settle(window)
    assert window.model.state.X[1, 1] == 0.25
    assert window.statusBar().currentMessage() == "Saved session.qkv"


# --------------------------------------------- item 7: the names of pasted rows
def test_rows_pasted_past_the_end_are_named_as_inserted_tokens_are(main_window):
    window = main_window
    editor = window.editor
    editor.setCurrentIndex(editor.table.index(3, 1))
    assert editor.paste("\t".join(["0.5"] * 8) + "\n" + "\t".join(["0.25"] * 8)
                        + "\n" + "\t".join(["0.125"] * 8))
    settle(window)
    assert window.model.state.tokens == ("我", "爱", "人工", "智能", "new", "new2")
    window.language_actions["zh_CN"].trigger()
    QApplication.processEvents()
    try:
        editor.setCurrentIndex(editor.table.index(5, 1))
        assert editor.paste("\t".join(["1"] * 8) + "\n" + "\t".join(["2"] * 8))
        assert window.model.state.tokens[-1] == "新"
        # inserted by the window, by the model or into the key/value table: one word
        window.insert_token_action.trigger()
        window.model.insert_tokens("X", 0)
        window.model.set_mode("cross")
        window.model.paste_block("X_kv", window.model.state.X_kv.shape[0], 0,
                                 [[1.0] * window.model.state.d_model])
        settle(window)
        assert window.model.state.tokens[:2] == ("新3", "新2")
        assert window.model.state.kv_tokens[-1] == "新"
    finally:
        window.language_actions["en"].trigger()
        QApplication.processEvents()


# ------------------------------------------- item 8: a pin follows its tokens
def test_an_inserted_token_moves_the_pinned_cell_with_its_tokens(main_window):
    """weights[2, 1] is 人工 → 爱; a token inserted at row 1 moved both down one, and the
    pin stayed at (2, 1): the Explain panel explained 爱 → new without a word."""
    from qkv_desktop.state import CellRef
    window = main_window
    model = window.model
    model.set_selection(CellRef("weights", 2, 1))
    settle(window)
    window.editor.setCurrentIndex(window.editor.table.index(1, 1))
    window.insert_token_action.trigger()
    settle(window)
    assert model.state.tokens == ("我", "new", "爱", "人工", "智能")
    assert model.selection == CellRef("weights", 3, 2)
    text = window.teaching.explain.browser.toPlainText()
    assert "人工" in text and "爱" in text
    window.undo_action.trigger()
    settle(window)
    assert model.selection == CellRef("weights", 2, 1)
    window.editor.setCurrentIndex(window.editor.table.index(2, 1))  # 人工 itself
    window.delete_token_action.trigger()
    settle(window)
    assert model.selection is None  # its token is gone: unpinned, the panel says how to pin


def test_a_cell_follows_its_tokens_through_each_kind_of_token_edit():
    from qkv_desktop.state import CellRef, edits
    from qkv_desktop.state.catalogue import RowMap, move_cell
    s = SessionState.from_preset("tutorial-1")  # 我 爱 人工 智能
    pin = CellRef("weights", 2, 1)  # 人工 → 爱
    follow = lambda edit: move_cell(pin, s, edit.state, edit.moved)  # noqa: E731
    assert follow(edits.insert_tokens(s, "X", 0)) == CellRef("weights", 3, 2)
    assert follow(edits.insert_tokens(s, "X", 2)) == CellRef("weights", 3, 1)
    assert follow(edits.insert_tokens(s, "X", 4)) == pin
    assert follow(edits.delete_tokens(s, "X", [0])) == CellRef("weights", 1, 0)
    assert follow(edits.delete_tokens(s, "X", [1])) is None  # 爱 is gone
    assert follow(edits.rename_token(s, "X", 2, "AI")) == pin  # the same token renamed
    assert move_cell(CellRef("Q", 1, 3), s, s, RowMap()) == CellRef("Q", 1, 3)  # dimensions
    # (moves, deletes far apart, duplicates, undo: tests/model/test_pin_row_maps.py)


def test_leaving_presentation_mode_without_a_window_manager_gives_back_the_layout(
        sized, monkeypatch):
    """Under Xvfb with no window manager full screen never comes: the window keeps its
    size, and the docks were restored before the form's minimum had shrunk back to
    the desk's font (the editor came back 533 px wide, not 437)."""
    window = sized(942, 644)
    window.model.load_state(SessionState.from_preset("random-small"), "preset")
    settle(window)
    before = layout_of(window)
    monkeypatch.setattr(window, "showFullScreen", lambda: None)
    window.view_scale.enter_presentation()
    settle(window)
    window.view_scale.leave_presentation()
    settle_until(window, lambda: layout_of(window) == before)
    assert layout_of(window) == before, (layout_of(window), before)


# ----------------------------------------- item 4: QKᵀ and QKᵀ/√d_k at 12 tokens
def test_qkt_and_its_scaled_twin_are_decided_by_one_rule_their_widest_label(sized):
    """At 12 tokens QKᵀ can hide its values where QKᵀ/√d_k, of the same shape, shows
    them: its widest label is a digit longer ("−12.3456" against "−4.3647"). The rule
    is the same for both: in the scaled pane's cells QKᵀ's labels would not fit either."""
    from qkv_desktop.views.panes.heatmap_plot import _largest_px
    window = sized(1900, 900)
    window.model.load_state(SessionState.from_preset("random-medium"), "preset")
    settle(window)
    plots = {k: window.panes.panes[k].plot for k in ("scores", "scaled")}
    # The grid keeps a column count it chose (``test_grid_settles``), so the cells' size
    # at one window size depends on the sizes before it: the case is looked for.
    # (1650, 800) first: there on the CI's machine and fonts, found after some eighty
    # sizes and 38 s; elsewhere the search goes on
    sizes = [(1900, 900), (1650, 800)] + [(w, h) for w in range(1000, 2600, 50)
                                          for h in (600, 700, 800, 900, 1000, 1100)]

    def same_cells() -> bool:  # cells of about one size (the panes' chrome differs:
        # the colour bars' labels, and QKᵀ's "values hidden" note takes a line)
        (w1, h1), (w2, h2) = (plots[k].cell_size() for k in ("scores", "scaled"))
        return abs(w1 - w2) < 1.0 and abs(h1 - h2) < 1.5

    for width, height in sizes:
        sized(width, height)
        if (plots["scores"].values_hidden and not plots["scaled"].values_hidden
                and same_cells()):
            break
    texts = {k: {t for row in p.overlay.texts for t in row} for k, p in plots.items()}

    def fits(labels, key):
        cell_w, cell_h = plots[key].cell_size()
        return fit_value_font(labels, cell_w, cell_h, QFont(), _largest_px(cell_h),
                              signed=True) is not None

    for key, plot in plots.items():  # each shows what the one rule says
        assert fits(texts[key], key) == (not plot.values_hidden), key
    assert plots["scores"].values_hidden and not plots["scaled"].values_hidden  # the case
    assert not fits(texts["scores"], "scaled")  # QKᵀ's labels would not fit there either
    assert fits(texts["scaled"], "scaled")  # in the same cells, the scaled ones do
    assert max(map(len, texts["scores"])) > max(map(len, texts["scaled"]))


# ------------------------------ item 1 again: the minus sign's room hid values that fit
def test_two_heads_with_w_o_and_the_shifted_scores_show_x_s_values(make_window):
    """Tutorial-1 with two heads, W_O and the shifted scores (three columns): X's cells
    are 26–30 px wide, room for "0.8000" in 8 px condensed but not for "−0.8000". X's
    values, all positive, were hidden for a minus sign none of them has (the window of
    a 1920×1080 screen)."""
    window = make_window(size=(1600, 993))
    model = window.model
    model.set_heads(2)
    model.set_output_projection(True)
    window.pane_actions["S_shift"].setChecked(True)
    settle(window)
    assert window.panes._fit_columns == 3
    assert (model.state.X >= 0).all()
    assert "X" in showing_values(window)


@pytest.mark.xvfb
def test_a_laptop_s_first_window_shows_x_s_values(x_laptop_display, tmp_path):
    """The window a first start takes on a 1366×768 screen (1256×706, the editor 565 px):
    X's cells are 30 px wide, room for "0.8000" in 9 px condensed, not for "−0.8000",
    and X's values were hidden from the start. (A negative value typed in then hides
    them, as it did before the room was kept: no font holds it there.)"""
    from tests.xdisplay import run_on_display
    out = run_on_display(x_laptop_display, tmp_path, """
        from tests.views.sessions import settle
        settle(window)
        font = window.panes.panes["X"].plot.overlay.value_font
        out["px"] = font.pixelSize() if font is not None else 0
    """, size=(1256, 706))
    assert out["px"] >= 8


# ------------- a teacher's 1366 × 768 screen: the mask's ninth pane hid five panes' values
@pytest.mark.parametrize("change", ["causal", "details", "two heads"])
def test_the_window_of_a_1366_screen_shows_every_panes_values(make_window, change):
    """The window a 1366 × 768 screen opens (1256 × 706): ticking the causal mask (a
    ninth pane), unfolding the banner's details or a second head took three columns,
    and X, V, QKᵀ, the scaled scores and the output read "values hidden: hover a cell"
    (found by a first-time user). Two columns show them all."""
    window = make_window(size=(1256, 706))
    model = window.model
    if change == "causal":
        model.set_options(causal=True)
    elif change == "details":
        window.teaching.banners.uniform.set_expanded(True)
    else:
        model.set_heads(2)
    settle(window)
    for _ in range(5):
        QApplication.processEvents()
    grid = window.panes
    hidden = [k for k in grid.shown() if k in grid.panes and k != "concat"
              and grid.panes[k].plot.values_hidden]
    assert hidden == [] and grid._fit_columns == 2
