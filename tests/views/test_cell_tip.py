"""The hovered cell's value at the cursor, not only in the status bar (found by
first-time users: a learner looking at the cell saw nothing there).

Tool tips need a real X display (offscreen Qt has none): the tip itself is checked on
Xvfb; what it costs (once per cell entered, nothing per edit) is counted offscreen."""

import pytest

import qkv_desktop.views.panes.heatmap_pane as heatmap_pane
from qkv_desktop.presentation.cell_tip import cell_tip
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.state import CellRef
from tests.views.helpers import cell_scene_pos
from tests.xdisplay import run_on_display


@pytest.mark.xvfb
def test_the_hovered_value_shows_at_the_cursor_and_follows_it(x_display, tmp_path):
    # (the pointer is moved with the mouse events, as a user's is: when a pane moves or
    # resizes under it, Qt delivers a mouse move at ``QCursor.pos()`` (seen offscreen
    # after a resize), and once in CI that put the hover back on the first cell, where
    # the test's pointer had stayed)
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QToolTip
        from tests.views.helpers import cell_widget_pos
        pane = window.panes.panes["weights"]
        viewport = pane.plot.viewport()

        def tip_near(pos):
            tips = [w for w in QApplication.topLevelWidgets()
                    if w.inherits("QTipLabel") and w.isVisible()]
            if not tips:
                return None
            cursor = viewport.mapToGlobal(pos)
            top_left = tips[0].geometry().topLeft()
            return abs(top_left.x() - cursor.x()) < 40 and abs(top_left.y() - cursor.y()) < 40

        at = cell_widget_pos(pane, 1, 2)
        QCursor.setPos(viewport.mapToGlobal(at))  # the pointer too, as a user's
        QTest.mouseMove(viewport, at)
        app.processEvents()
        out["first"] = QToolTip.text() if QToolTip.isVisible() else None
        out["near_first"] = tip_near(at)
        at = cell_widget_pos(pane, 3, 0)
        QCursor.setPos(viewport.mapToGlobal(at))  # the pointer too, as a user's
        QTest.mouseMove(viewport, at)
        app.processEvents()
        out["second"] = QToolTip.text() if QToolTip.isVisible() else None
        out["near_second"] = tip_near(at)
        out["status"] = window.hover_label.text()
        w = window.model.result.head().weights
        out["values"] = [float(w[1, 2]), float(w[3, 0])]
    ''')
    first, second = out["first"], out["second"]
    assert first is not None and second is not None, out
    assert f"<b>{format_value(out['values'][0])}</b>" in first
    assert "weights = softmax" in first
    assert "row 爱 (query) · column 人工 (key)" in first
    assert f"<b>{format_value(out['values'][1])}</b>" in second
    assert "row 智能 (query) · column 我 (key)" in second
    assert out["status"] in second  # the status bar's formula, under the value
    assert out["near_first"] and out["near_second"]


@pytest.mark.xvfb
def test_the_tip_stays_while_the_mouse_rests_on_the_cell(x_display, tmp_path):
    """A first-time user saw the tip for a third of a second: resting on the cell, Qt
    sends the view a tool-tip event of its own (20 ms after a tip is up); the scene,
    which has no item tip there, answered it with an empty text, and Qt hid ours 300 ms
    later. A title or axis tip of the scene still shows as before."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QToolTip
        from tests.views.helpers import cell_widget_pos
        pane = window.panes.panes["weights"]
        viewport = pane.plot.viewport()
        QTest.mouseMove(viewport, cell_widget_pos(pane, 1, 2))
        app.processEvents()
        out["shown"] = QToolTip.text() if QToolTip.isVisible() else None
        out["later"] = []
        for _ in range(4):
            QTest.qWait(400)  # the mouse rests; Qt's own tool-tip events come
            out["later"].append(QToolTip.text() if QToolTip.isVisible() else None)
        # an axis's tip (its note when names are cut) is the scene's: still shown
        axis = pane.plot.getPlotItem().getAxis("left")
        axis.setToolTip("the whole names")
        centre = pane.plot.mapFromScene(axis.sceneBoundingRect().center())
        QTest.mouseMove(viewport, centre)
        QTest.qWait(1500)  # Qt's wake-up delay, then its tool-tip event
        out["axis"] = QToolTip.text() if QToolTip.isVisible() else None
        from PySide6.QtGui import QCursor
        QCursor.setPos(0, 0)  # the display's cursor stays where a test leaves it
        app.processEvents()
    ''')
    assert out["shown"] is not None and "weights = softmax" in out["shown"], out
    assert out["later"] == [out["shown"]] * 4, out
    assert out["axis"] == "the whole names", out


@pytest.mark.xvfb
def test_a_new_result_renews_the_tip_of_the_hovered_cell(x_display, tmp_path):
    """The tip was built once per cell entered only: a result arriving while the cursor
    stayed in the cell (a forward still running when it entered, an undo from the
    keyboard) left the old value at the cursor, beside the status bar's new one."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QToolTip
        import qkv_desktop.views.panes.heatmap_pane as heatmap_pane
        from tests.views.helpers import cell_widget_pos
        pane = window.panes.panes["weights"]
        viewport = pane.plot.viewport()
        at = cell_widget_pos(pane, 1, 2)
        QCursor.setPos(viewport.mapToGlobal(at))  # the pointer too, as a user's
        QTest.mouseMove(viewport, at)
        app.processEvents()
        out["before"] = QToolTip.text() if QToolTip.isVisible() else None
        built = []
        real = heatmap_pane.cell_tip
        heatmap_pane.cell_tip = lambda result, ref: built.append(ref) or real(result, ref)
        model = window.model
        model.set_cell("X", 1, 0, float(model.state.X[1, 0]) + 3.0)
        assert model.wait_until_idle()
        app.processEvents()
        out["after"] = QToolTip.text() if QToolTip.isVisible() else None
        out["built"] = len(built)
        out["value"] = float(model.result.head().weights[1, 2])
        out["status"] = window.hover_label.text()
        QTest.mouseMove(viewport, at + type(at)(2, 1))  # within the cell: nothing to build
        app.processEvents()
        out["built_after_move"] = len(built)
    ''')
    before, after = out["before"], out["after"]
    assert before is not None and after is not None and after != before, out
    assert f"<b>{format_value(out['value'])}</b>" in after
    assert out["status"] in after
    assert out["built"] == 1 and out["built_after_move"] == 1


def test_the_tip_says_what_row_and_column_are(main_window):
    result = main_window.model.result
    x = cell_tip(result, CellRef("X", 2, 3))
    assert "<b>0.4000</b>" in x and "row 人工 (token) · column d3 (dimension)" in x
    assert "row 爱 (query) · column 3 (dimension)" in cell_tip(result, CellRef("Q", 1, 3))
    assert "row 我 (key)" in cell_tip(result, CellRef("K", 0, 0))
    assert cell_tip(result, CellRef("weights", 9, 0)) == ""  # a newer state's cell
    assert cell_tip(result, CellRef("X_kv", 0, 0)) == ""  # not in this session


def test_the_tip_costs_one_text_per_cell_entered_and_nothing_per_edit(main_window,
                                                                       monkeypatch):
    """Moves within a cell build no text (hover did none before either), and an edit
    builds none while no tip is up (typing hides it: Qt hides a tip on a key press);
    one that is up is renewed once per result (``test_a_new_result_renews_…``)."""
    window = main_window
    pane = window.panes.panes["weights"]
    built, hovers = [], []
    monkeypatch.setattr(heatmap_pane, "cell_tip",
                        lambda result, ref: built.append(ref) or cell_tip(result, ref))
    window.model.hoverChanged.connect(hovers.append)
    try:
        for fx in (0.2, 0.4, 0.6, 0.8):
            pane._on_mouse_moved(cell_scene_pos(pane, 1, 2, fx, 0.5))
        assert len(built) == 1 and len(hovers) == 1
        pane._on_mouse_moved(cell_scene_pos(pane, 2, 2))
        assert [r.row for r in built] == [1, 2] and len(hovers) == 2
        results = []
        window.model.resultChanged.connect(results.append)
        window.model.set_cell("X", 0, 0, 0.5)
        assert window.model.wait_until_idle()
        window.model.set_cell("X", 0, 0, 0.7)
        assert window.model.wait_until_idle()
        window.model.resultChanged.disconnect(results.append)
        assert len(built) - 2 <= len(results)  # at most the tip up renewed, once a result
        assert all(r == built[1] for r in built[2:])
    finally:
        window.model.hoverChanged.disconnect(hovers.append)
        window.model.set_hover(None)


def test_a_formula_in_the_tip_never_breaks_after_a_bar(qapp):
    """The tip wrapped "−m·|i−j|" as "−0.003906·|" over "2−1| = −0.0039" (a first user):
    laid out at every width a tip may take, |2−1| stays on one line."""
    from dataclasses import replace

    from PySide6.QtGui import QTextDocument

    from qkv_desktop.state import SessionState, compute
    state = SessionState.from_preset("tutorial-1")
    state = state.with_(options=replace(state.options, alibi=(0.003906,), causal=True))
    tip = cell_tip(compute(state), CellRef("bias", 2, 1))
    assert "|2−1|" in tip.replace("\u2060", "")
    doc = QTextDocument()
    doc.setHtml(tip)
    for width in range(120, 420, 4):
        doc.setTextWidth(width)
        doc.size()  # (lays the document out)
        lines = []
        block = doc.begin()
        while block.isValid():
            layout, text = block.layout(), block.text()
            for k in range(layout.lineCount()):
                line = layout.lineAt(k)
                lines.append(text[line.textStart():line.textStart() + line.textLength()])
            block = block.next()
        joined = [ln.replace("\u2060", "") for ln in lines]
        assert any("|2−1|" in ln for ln in joined), (width, joined)


def test_a_masked_weights_tip_is_headed_masked_not_zero(qapp, chinese):
    """A first user read the tip of a causally masked weight headed "0.0000" while the
    status bar said the cell is masked: the headline now says it, in the interface's
    language; an allowed weight keeps its number."""
    from dataclasses import replace

    from qkv_desktop.state import SessionState, compute
    state = SessionState.from_preset("tutorial-1")
    result = compute(state.with_(options=replace(state.options, causal=True)))
    masked = cell_tip(result, CellRef("weights", 0, 3))
    headline = masked.split("<br>")[0]
    assert headline == "<b>已掩码（因果）：权重恰好为 0</b>", masked
    assert "0.0000" not in headline
    allowed = cell_tip(result, CellRef("weights", 1, 0))
    assert allowed.startswith(f"<b>{format_value(result.head().weights[1, 0])}</b>")
    assert cell_tip(result, CellRef("scaled", 0, 3)).startswith("<b>−∞</b>")


def test_a_tiny_value_is_headed_by_its_size_not_zero(qapp):
    """A score of 8.07e−6 was headed "0.0000", as the exact zero beside it (a first
    user); the tip has the room to say its size, and an exact 0 still reads 0.0000."""
    from qkv_desktop.state import SessionState, compute
    state = SessionState.from_preset("tutorial-1")
    X = state.X.copy()
    X[0] = 0.0  # 我's query is all zeros: its scores are exactly 0
    X[1] = [1e-3, 0, 0, 0, 0, 0, 0, 0]  # 爱 is tiny: its scores with 爱 round to 0.0000
    result = compute(state.with_(X=X))
    scores = result.head(0).scores
    assert scores[0, 1] == 0
    assert scores[1, 1] != 0 and format_value(scores[1, 1]) == "0.0000"
    assert cell_tip(result, CellRef("scores", 0, 1)).startswith("<b>0.0000</b>")
    tiny = cell_tip(result, CellRef("scores", 1, 1))
    head = tiny.split("</b>")[0].removeprefix("<b>")
    assert head != "0.0000" and "e" in head, head
    assert float(head.replace("−", "-")) == pytest.approx(scores[1, 1], rel=1e-3)
    assert tiny.count(head) >= 2  # its formula line (and the status bar) end in it too
