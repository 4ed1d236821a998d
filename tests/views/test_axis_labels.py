"""Crowded axes: a smaller font, then shortened names, then every k-th, and say so."""

from PySide6.QtGui import QFontMetrics

from qkv_desktop.views.panes.axis_labels import MAX_TURNED_SHARE, SMALL_TICK_PX, plan_axis

TOKENS = ["[CLS]", "the", "cat", "sat", "on", "mat", "[SEP]"]


def test_names_that_fit_are_shown_whole_and_nothing_is_said(qapp):
    plan = plan_axis(TOKENS, 700, vertical=False)
    assert [name for _pos, name in plan.ticks] == TOKENS and plan.note == ""


def test_a_crowded_axis_shortens_names_before_leaving_any_out(qapp):
    metrics = QFontMetrics(plan_axis(TOKENS, 1, False).font)  # the small font
    whole = max(metrics.horizontalAdvance(t) for t in TOKENS)
    room = len(TOKENS) * (whole + 6 - 1)  # a pixel short of the whole names
    plan = plan_axis(TOKENS, room, vertical=False)
    names = [name for _pos, name in plan.ticks]
    assert len(names) == len(TOKENS)  # every token keeps a label
    assert all(t.startswith(n.rstrip("…")) for t, n in zip(TOKENS, names, strict=True))
    assert plan.font.pixelSize() == SMALL_TICK_PX
    if plan.rotated:  # "[CL…" is no narrower than "[CLS]": turned upright, whole
        assert names == TOKENS and plan.note == ""
    else:
        assert any(name.endswith("…") for name in names)
        assert "shortened" in plan.note and "[CLS] the cat sat on mat [SEP]" in plan.note


def test_long_names_are_cut_while_three_letters_are_left(qapp):
    tokens = ["[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]"]
    metrics = QFontMetrics(plan_axis(tokens, 1, False).font)
    room = len(tokens) * (max(metrics.horizontalAdvance(t) for t in tokens) + 6 - 1)
    plan = plan_axis(tokens, room, vertical=False)
    names = [name for _pos, name in plan.ticks]
    assert not plan.rotated and len(names) == 7 and any(n.endswith("…") for n in names)
    assert all(len(n.rstrip("…")) >= 3 and t.startswith(n.rstrip("…"))
               for t, n in zip(tokens, names, strict=True))
    assert "shortened" in plan.note


def test_names_are_turned_upright_before_any_is_left_out(qapp):
    tokens = ["[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]"]  # MiniLM's 7
    metrics = QFontMetrics(plan_axis(tokens, 1, False).font)
    room = len(tokens) * (metrics.height() + 3)  # a line per name, far from "cha…"
    plan = plan_axis(tokens, room, vertical=False)
    assert plan.rotated and [name for _pos, name in plan.ticks] == tokens
    assert plan.note == ""  # nothing cut, nothing left out: nothing to say
    rows = plan_axis(tokens, room, vertical=True)  # stacked rows fit the same room
    assert [name for _pos, name in rows.ticks] == tokens and not rows.rotated
    crowded = plan_axis(tokens, len(tokens) * (metrics.height() - 4), vertical=False)
    assert not crowded.rotated and len(crowded.ticks) < len(tokens)
    assert "Only one name in" in crowded.note and " ".join(tokens) in crowded.note


def test_names_left_out_are_said_on_hover(qapp):
    plan = plan_axis(TOKENS, 60, vertical=False)
    assert len(plan.ticks) < len(TOKENS)
    assert "[CLS] the cat sat on mat [SEP]" in plan.note and "Hover a cell" in plan.note


def test_the_pane_axis_carries_the_note(main_window):
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.state import SessionState
    model = main_window.model
    model.reset(SessionState.from_preset("tutorial-1"))
    for _ in range(3):
        model.insert_tokens("X", 4)
    for k, name in enumerate(TOKENS):
        model.rename_token("X", k, name)
    main_window.resize(1000, 640)
    assert model.wait_until_idle()
    for _ in range(4):
        QApplication.processEvents()
    axis = main_window.panes.panes["scores"].plot.getPlotItem().getAxis("bottom")
    shown = [name for level in axis._tickLevels for _pos, name in level]
    if len(shown) < len(TOKENS) or any(n.endswith("…") for n in shown):
        assert "[CLS] the cat sat on mat [SEP]" in axis.toolTip()
    else:
        assert axis.toolTip() == ""


def test_thousands_of_names_are_measured_once_in_one_font(qapp, monkeypatch):
    """8192 names along 300 pixels: cells narrower than the gap between two names fit no
    font, cut or turn, so the names are measured once (for the thinning), and the next
    pane with the same tokens measures none of them again."""
    from qkv_desktop.views.panes import axis_labels
    monkeypatch.setattr(axis_labels, "_WIDTHS", {})
    names = [f"tok{i}" for i in range(8192)]
    plan = plan_axis(names, 300, vertical=False)
    measured = dict(axis_labels._WIDTHS)
    assert len(measured) == len(names)  # one font, the names as they are
    assert plan.font.pixelSize() == SMALL_TICK_PX and not plan.rotated
    assert len(plan.ticks) < 40 and "Only one name in" in plan.note
    assert plan_axis(names, 300, vertical=False).ticks == plan.ticks
    assert axis_labels._WIDTHS == measured  # the second pane: nothing measured


def test_the_first_and_last_row_names_of_a_long_session_stand_whole(make_window):
    """600 rows in a pane: thinner than a line, so t0's name, centred on row 0, stood
    half above the plot and was cut in half (found by a first-time user). Every row
    name the left axis draws lies within the axis, and none overlaps another."""
    import itertools

    import numpy as np
    from PySide6.QtGui import QFontMetricsF, QImage, QPainter

    from qkv_desktop.state import SessionState
    from tests.views.test_laptop_window import settle
    X = np.random.default_rng(0).standard_normal((600, 16)).round(3)
    window = make_window(SessionState.initialised([f"t{i}" for i in range(600)], X, d_k=8),
                         size=(1366, 740))
    settle(window)
    for key in ("X", "weights"):
        axis = window.panes.panes[key].plot.getPlotItem().getAxis("left")
        image = QImage(8, 8, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        try:
            texts = axis.generateDrawSpecs(painter)[2]
            metrics = QFontMetricsF(painter.font())
        finally:
            painter.end()
        names = [text for _r, _f, text in texts]
        assert names[0] == "t0", (key, names[:3])
        box = axis.rect()
        drawn = [metrics.boundingRect(rect, int(flags), text) for rect, flags, text in texts]
        for rect, text in zip(drawn, names, strict=True):
            assert box.top() - 0.5 <= rect.top() and rect.bottom() <= box.bottom() + 0.5, (
                key, text, rect, box)
        for a, b in itertools.pairwise(drawn):
            assert not a.intersects(b), (key, a, b)


LONG = "supercalifragilisticexpialidocious_token"


def test_turned_names_are_cut_to_the_length_the_plot_allows(qapp):
    """One long name among short ones, in cells too narrow for "sup…" side by side: the
    names are turned upright, and cut as short as ``turned_px`` asks, every token still
    named; where even three letters are too long, they are not turned."""
    tokens = ["我", LONG, "人工", "智能"]
    metrics = QFontMetrics(plan_axis(tokens, 1, False).font)  # the small font
    room = len(tokens) * (metrics.horizontalAdvance("sup…") + 6 - 1)  # "sup…" too wide
    free = plan_axis(tokens, room, vertical=False)
    assert free.rotated and free.ticks[1][1] == "supercali…"  # ten letters: 50 px
    bound = metrics.horizontalAdvance("sup…")
    plan = plan_axis(tokens, room, vertical=False, depth_px=bound)
    names = [name for _pos, name in plan.ticks]
    assert plan.rotated and names == ["我", "sup…", "人工", "智能"]
    assert max(metrics.horizontalAdvance(n) for n in names) <= bound
    assert "shortened" in plan.note and " ".join(tokens) in plan.note
    short = plan_axis(tokens, room, vertical=False, depth_px=bound - 1)
    assert not short.rotated


def test_one_long_token_name_leaves_the_score_panes_their_cells(make_window):
    """Chinese at 1024×700, h = 3, d_k = 2, token 1 renamed to a 40-letter name: the
    QKᵀ panes turned it upright at ten letters, taking 59 px of a 106 px plot: a 27 px
    strip of cells, two of four rows named, the values hidden, while the weights pane
    cut it to "sup…" (a first-time user). Turned names take at most
    ``MAX_TURNED_SHARE`` of the plot, the row names ``MAX_ROW_NAMES_SHARE`` of its width,
    and the panes keep every row's name and values."""
    from PySide6.QtCore import Qt

    from tests.views.test_grid_settles import idle
    window = make_window(size=(1024, 700))
    window.language_actions["zh_CN"].trigger()
    try:
        idle(window, 300)
        window.controls.d_k.setValue(2)
        idle(window, 300)
        window.controls.heads.setValue(3)
        idle(window, 500)
        table = window.editor.table
        table.setData(table.index(1, 0), LONG, Qt.ItemDataRole.EditRole)
        assert window.model.state.tokens[1] == LONG
        idle(window, 1000)
        for key in ("scores", "scaled", "weights"):
            plot = window.panes.panes[key].plot
            item = plot.getPlotItem()
            bottom, left = item.getAxis("bottom"), item.getAxis("left")
            columns = [name for level in bottom._tickLevels for _pos, name in level]
            rows = [name for level in left._tickLevels for _pos, name in level]
            assert len(columns) == 4 and columns[1].startswith("sup"), (key, columns)
            assert columns[1].endswith("…"), (key, columns)
            area = plot.height() + (plot.note_px if plot.note_shown else 0)
            assert bottom.height() <= MAX_TURNED_SHARE * area, (key, bottom.height(), area)
            assert len(rows) == 4, (key, rows)
            assert not plot.values_hidden, key
    finally:
        window.language_actions["en"].trigger()


def test_an_index_axis_is_a_ruler_in_round_steps_the_same_in_every_pane(qapp):
    """d_k = 1024: Q, K and V named "0 145 290 … 1015" and the output "0 154 … 924"
    (a first user). Index axes step by 1, 2, 4, 5, then 1, 2, 5 × 10ᵏ."""
    from qkv_desktop.views.panes.axis_labels import ruler_step
    assert [ruler_step(s) for s in (1, 3, 5, 6, 11, 145, 154, 201)] == \
        [1, 4, 5, 10, 20, 200, 200, 500]
    labels = [str(k) for k in range(1024)]
    rulers = []
    for room in (300.0, 330.0):  # two panes a little apart in width
        named = [int(name) for _, name in plan_axis(labels, room, vertical=False).ticks]
        step = named[1]
        assert step in (100, 200) and named == list(range(0, 1024, step)), (room, named)
        rulers.append(named)
    assert rulers[0] == rulers[1]
    # few columns: every one, or every second, as before
    assert [n for _, n in plan_axis([str(k) for k in range(8)], 400.0, False).ticks] == \
        [str(k) for k in range(8)]
    # token names are not a ruler: the last token is named
    tokens = [f"t{k}" for k in range(100)]
    assert plan_axis(tokens, 300.0, vertical=False).ticks[-1][1] == "t99"


def test_a_thinned_axis_cuts_its_names_so_the_last_token_is_named_too(qapp):
    """A token named "超级长的词元名字🙂abcdefg" over three 37 px columns (no cut or turn
    fits): the axis named that token alone, whole over all three columns, and left out
    人工 and 智能 (a first user). Thinned, the names are cut as well, and the last token
    keeps its name."""
    plan = plan_axis(["超级长的词元名字🙂abcdefg", "人工", "智能"], 111, False, 30)
    named = [name for _, name in plan.ticks]
    assert named[0].startswith("超级长") and named[0].endswith("…") and len(named[0]) <= 4
    assert named[-1] == "智能"  # the last token keeps its name
    assert "all of them: 超级长的词元名字🙂abcdefg 人工 智能" in plan.note


def test_a_cut_never_makes_two_names_one(qapp):
    """The concatenation's columns h1·d0 … h2·d3 cut to three letters read "h1·… h1·…
    h1·… h1·… h2·…": no column could be told from the next (a first user). A cut that
    merges names is not taken: they are thinned whole (or turned, where no cut fits)."""
    names = [f"h{h}·d{d}" for h in (1, 2) for d in range(4)]
    quick = plan_axis(["quick", "quietly", "a"], 60, False, 24)
    assert len({name for _, name in quick.ticks}) == len(quick.ticks), quick.ticks
    for room in range(60, 420, 5):
        for depth in (10, 24, 30):
            shown = [name for _, name in plan_axis(names, room, False, depth).ticks]
            assert len(set(shown)) == len(shown), (room, depth, shown)
            assert all(name in names for name in shown), (room, depth, shown)


def test_an_axis_with_no_height_plans_without_dividing_by_zero(qapp):
    """While the grid moves panes an axis is laid out 0 px high for a moment: planning
    its names raised ZeroDivisionError inside Qt's event loop (a full test run)."""
    names = [f"token{k}" for k in range(12)]
    plan = plan_axis(names, 0, vertical=True, depth_px=40)
    assert len(plan.ticks) <= len(names)
    plan = plan_axis(names, 0, vertical=False)
    assert len(plan.ticks) <= len(names)
