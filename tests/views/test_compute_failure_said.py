"""What the user reads when the table's values cannot be computed, or when an edit
replaces weights they had: in their language, where they look, for as long as it is
true (the last first-time user met the overflow reason in English inside a Chinese
sentence, cut by the status bar, and gone at the next message; and a change of d_k
dropped typed weights without a word)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def _settle(window) -> None:
    window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


def _banners(window):
    return window.teaching.banners


def test_an_overflow_is_said_in_chinese_and_stays_above_the_panes_until_undone(
        main_window, chinese):
    window, banners = main_window, _banners(main_window)
    shown = window.model.result
    before = [b.isVisible() for b in banners._banners()]
    window.model.set_cell("X", 3, 3, 1e200)
    _settle(window)
    error = window.model.compute_error
    # the value to mend first, then why
    assert error.startswith("无法计算注意力：X[智能, d3] = 1e+200 太大：分数 q·k 超出了 "
                            "float64 的最大值")
    for english in ("overflow", "scores", "smaller", "large", "head"):
        assert english not in error
    assert window.model.result is shown  # the panes keep the last result
    assert banners.stale.isVisible()
    assert banners.stale.headline.text().startswith("未能计算：X[智能, d3] = 1e+200 太大")
    assert "各面板显示的是上一次算出的结果" in banners.stale.headline.text()
    assert [b.isVisible() for b in banners._banners()] == [False, False, False, True]
    window.statusBar().showMessage("已保存")  # another message replaces the status bar's
    QApplication.processEvents()
    assert banners.stale.isVisible()  # the banner still says it
    banners.stale.links.linkActivated.emit("undo")  # its Undo link
    _settle(window)
    assert window.model.compute_error == "" and window.model.result is not shown
    assert [b.isVisible() for b in banners._banners()] == before  # the strip as it was


def test_the_banner_names_the_value_first_in_a_narrow_window(main_window):
    window, banners = main_window, _banners(main_window)
    size = window.size()
    window.model.set_cell("X", 3, 3, 1e200)
    _settle(window)
    headline = banners.stale.headline
    assert headline.text() == (
        "Not computed: X[智能, d3] = 1e+200 is too large: the scores q·k overflow float64 "
        "(its largest number is 1.8e+308). Smaller values of X or of the weights compute. "
        "The panes show the last result that computed.")
    # the status bar's message is a whole sentence: without its full stop, "… Smaller
    # values of X or of the weights compute" read as a message cut short
    assert window.statusBar().currentMessage().endswith(
        "Smaller values of X or of the weights compute.")
    assert headline.toolTip()  # the whole sentence, whatever the width shows
    window.resize(900, window.height())
    _settle(window)
    assert headline.shown_text().startswith("Not computed: X[智能, d3] = 1e+200")
    # where the sentence is cut, its first clause whole, not "… too large: the scor…"
    assert headline.shown_text() == "Not computed: X[智能, d3] = 1e+200 is too large."
    window.model.rename_token("X", 3, "x: y")  # a name with the clause's separator in it
    _settle(window)
    # (its Undo link now names two edits: the shorter wording is what is offered)
    assert headline._shorter == ("Not computed: X[x: y, d3] = 1e+200 is too large.",)
    window.model.undo_stack.undo()
    window.model.undo_stack.undo()
    window.resize(size)
    _settle(window)
    assert not banners.stale.isVisible()


def test_the_banners_undo_goes_back_to_what_the_panes_show(main_window):
    """1e200, then a good edit: one Ctrl+Z would undo the good edit and leave 1e200.
    The banner's link says how many edits it undoes, and undoes them all; Redo brings
    them back (found by a first-time user)."""
    window, banners, model = main_window, _banners(main_window), main_window.model
    shown = model.result
    model.set_cell("X", 0, 1, 1e200)
    _settle(window)
    model.set_cell("X", 0, 2, 0.7)
    _settle(window)
    assert model.result is shown and model.steps_to_computed() == 2
    assert "Undo the last 2 edits" in banners.stale.links.text()
    banners.stale.links.linkActivated.emit("undo")
    _settle(window)
    assert model.compute_error == "" and model.state.equals(shown.state)
    assert model.undo_stack.canRedo()
    model.undo_stack.redo()
    model.undo_stack.redo()
    _settle(window)
    assert model.state.X[0, 2] == 0.7 and model.compute_error


def test_changing_d_k_says_that_typed_weights_were_replaced(main_window):
    """Seeded weights drawn again for a new d_k: nothing to say. Weights the user typed:
    the status bar says they were replaced and how to get them back."""
    window, model = main_window, main_window.model
    messages = []
    model.noted.connect(messages.append)
    try:
        model.set_d_k(model.state.d_k + 1)
        assert not any("New weights" in m for m in messages)
        model.set_weight(0, "W_Q", 0, 0, 0.75)
        model.set_d_k(model.state.d_k + 1)
        assert any(m.startswith("New weights were drawn from seed") and "Ctrl+Z" in m
                   for m in messages)
        QApplication.processEvents()
        assert window.statusBar().currentMessage().startswith("New weights were drawn")
        from qkv_desktop.views.main_window import MESSAGE_MS, NOTE_MS
        assert NOTE_MS >= 3 * MESSAGE_MS  # shown long enough to be read after a look
        model.undo_stack.undo()
        assert model.state.heads[0].W_Q[0, 0] == 0.75  # Ctrl+Z brought them back
    finally:
        model.noted.disconnect(messages.append)


def test_undo_from_the_unfolded_banner_leaves_no_gap_above_the_panes(main_window):
    """Details unfolded, then Undo in the banner's line: the strip is one line again
    (the hidden banner's details kept it tall, an empty band above the panes)."""
    window, banners = main_window, _banners(main_window)
    _settle(window)
    one_line = banners.height()
    window.model.set_cell("X", 3, 3, 1e200)
    _settle(window)
    banners.stale.links.linkActivated.emit("details")
    _settle(window)
    assert banners.stale.expanded and banners.height() > one_line
    banners.stale.links.linkActivated.emit("undo")
    _settle(window)
    assert not banners.stale.isVisible()
    assert banners.height() == one_line


def test_explain_and_diagnostics_say_their_numbers_are_the_last_result(main_window):
    """While the table does not compute, the Explain panel and the Diagnostics summary
    read the last result: they say so (Explain read "X[我, d1] = 0.1000" beside a table
    holding 1e200, with no word)."""
    from qkv_desktop.state.catalogue import CellRef
    window, model = main_window, main_window.model
    explain, diagnostics = window.teaching.explain, window.teaching.diagnostics
    model.set_selection(CellRef("weights", 1, 2))
    _settle(window)
    note = "numbers of the last result that computed"
    assert note not in explain.html()
    model.set_cell("X", 1, 1, 1e200)
    _settle(window)
    assert note in explain.html()
    window.teaching.docks["diagnostics"].raise_()
    _settle(window)
    assert diagnostics._on_screen()
    assert note in diagnostics.summary.text()
    model.undo_to_computed()
    _settle(window)
    assert note not in explain.html() and note not in diagnostics.summary.text()
    model.set_selection(None)
    window.teaching.docks["explain"].raise_()


def _overflowing_session(tmp_path):
    from qkv_desktop.io.session import save_session
    from qkv_desktop.state import SessionState

    state = SessionState.from_preset("tutorial-1")
    X = state.X.copy()
    X[0, 0] = 1e200
    path = tmp_path / "overflowing.qkv"
    save_session(state.with_(X=X), path)
    return path


def test_a_session_opened_with_values_that_do_not_compute_shows_none_of_the_last_ones(
        main_window, tmp_path):
    """Open a file whose X overflows: the panes, the status-bar badge and the docks
    kept the session closed before, its X = 0.8 under the opened table's 1e200, and the
    banner offered an Undo that had nothing to undo (found by a first-time user)."""
    window, banners, model = main_window, _banners(main_window), main_window.model
    model.set_cell("X", 1, 1, 0.25)  # the session closed before has its own numbers
    _settle(window)
    assert model.result is not None and window.pane_pages.currentIndex() == 0
    badge = window.teaching.badge
    assert badge.text()
    assert window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    assert model.compute_error and model.result is None
    assert window.pane_pages.currentWidget() is window.nothing_computed
    assert "do not compute" in window.nothing_computed.text()
    assert badge.text() == ""
    assert banners.stale.isVisible()
    headline = banners.stale.headline.text()
    assert headline.startswith("Not computed: X[我, d0] = 1e+200 is too large")
    assert "last result" not in headline and "Nothing is shown" in headline
    assert "undo" not in banners.stale.links.text().lower()
    assert model.steps_to_computed() == 0
    # the user mends the value: the panes come back with this session's numbers
    model.set_cell("X", 0, 0, 0.5)
    _settle(window)
    assert model.compute_error == "" and model.result is not None
    assert float(model.result.state.X[0, 0]) == 0.5
    assert window.pane_pages.currentIndex() == 0 and badge.text()
    assert not banners.stale.isVisible()


def test_an_overflow_typed_after_such_an_open_keeps_the_mended_result(main_window,
                                                                      tmp_path):
    """Once a state of the opened session has computed, an edit that overflows keeps it
    on display, with the banner's Undo back to it."""
    window, banners, model = main_window, _banners(main_window), main_window.model
    window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    model.set_cell("X", 0, 0, 0.5)
    _settle(window)
    shown = model.result
    model.set_cell("X", 2, 2, 1e200)
    _settle(window)
    assert model.result is shown and window.pane_pages.currentIndex() == 0
    assert model.steps_to_computed() == 1
    assert "Undo" in banners.stale.links.text()


def test_a_view_of_the_last_session_is_greyed_out_until_this_one_computes(
        main_window, tmp_path):
    """The QKᵀ | KKᵀ view on screen, then an Open whose values do not compute: its
    plots were the session closed before; greyed out until a result of this one."""
    window, model = main_window, main_window.model
    dock, view = window.teaching.docks["symmetry"], window.teaching.symmetry
    dock.show()
    dock.raise_()
    _settle(window)
    view.refresh()
    assert view.isEnabled() and view._shown is not None
    window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    assert not view.isEnabled() and view._shown is None
    model.set_cell("X", 0, 0, 0.5)
    _settle(window)
    assert view.isEnabled() and view._shown == (model.result, model.current_head)


def test_the_chinese_banner_writes_no_space_after_a_full_stop(main_window, chinese):
    """The uniform banner's details read "是平的。 分数这么小": sentences were joined
    with a space, as English writes them (found by a first-time user)."""
    import re

    from qkv_desktop.presentation.texts import join_sentences
    window = main_window
    window.teaching.banners.refresh()
    details = window.teaching.banners.uniform.label.text()
    assert "。" in details and not re.search(r"[。；：！？）] ", details), details
    assert join_sentences(["One.", "Two."]) == "One. Two."
    assert join_sentences(["一。", "二。", "Three."]) == "一。二。Three."


def test_a_lab_window_over_a_session_that_does_not_compute_says_so_and_still_closes(
        run_labs, tmp_path, qtbot):
    """Greyed as a whole, a lab lost its Close button and Esc (found by a reviewer): a
    lab window keeps its controls and says above its content whose numbers it shows."""
    from PySide6.QtCore import Qt

    window = run_labs.main_window
    lab = run_labs.show("kv_cache")
    window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    assert lab.isEnabled() and lab.error.isVisibleTo(lab)
    assert "does not compute" in lab.error.text()
    window.model.set_cell("X", 0, 0, 0.5)  # mended: the lab decodes this session
    _settle(window)
    assert not lab.error.isVisibleTo(lab) and lab.step_count() == window.model.state.n
    window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    qtbot.keyClick(lab, Qt.Key.Key_Escape)
    assert not lab.isVisible()


def test_the_view_menu_greys_every_pane_while_nothing_computes_and_keeps_the_ticks(
        main_window, tmp_path):
    """Opened values that do not compute: the grid shows no pane, so the View menu's
    pane entries are greyed, ticks kept, each still named plainly (not "scaled") and
    saying what it shows; mended, the panes this session has come back enabled, by the
    same rule as the grid's (``relevant_panes``)."""
    from qkv_desktop.state.catalogue import relevant_panes

    window, model = main_window, main_window.model
    actions = window.pane_actions
    ticks = {key: a.isChecked() for key, a in actions.items()}
    assert ticks["weights"] and not ticks["S_shift"]
    window.files.open_path(_overflowing_session(tmp_path))
    _settle(window)
    assert model.result is None and window.pane_pages.currentWidget() is window.nothing_computed
    assert [k for k, a in actions.items() if a.isEnabled()] == []
    assert {key: a.isChecked() for key, a in actions.items()} == ticks
    names = {key: a.text() for key, a in actions.items()}
    assert names["scaled"] == "scaled scores" and names["X"] == "X (input vectors)"
    assert names["S_shift"].startswith("shifted scores")
    for key, action in actions.items():
        assert action.text() != key, key  # never the internal id alone
        assert action.toolTip() and action.toolTip() != action.text(), key
        assert action.statusTip() == action.toolTip()
    assert "softmax" in actions["weights"].toolTip()
    assert actions["weights"].toolTip().endswith("do not compute (see the message above "
                                                 "the panes).")
    model.set_cell("X", 0, 0, 0.5)  # mended
    _settle(window)
    enabled = {k for k, a in actions.items() if a.isEnabled()}
    assert enabled == relevant_panes(model.result.state) == window.panes.relevant()
    assert "weights" in enabled and "Q_rope" not in enabled and "heads" not in enabled
    assert set(window.panes.shown()) <= enabled
    assert {key: a.isChecked() for key, a in actions.items()} == ticks
    assert actions["X"].text() == "X (input vectors) (4×8)"  # titled again by the result


def test_a_pane_entry_says_what_it_shows_in_chinese(main_window, chinese):
    actions = main_window.pane_actions
    assert actions["weights"].toolTip().startswith("对缩放后分数的每一行做 softmax")
    assert actions["heads"].statusTip().startswith("各个头的注意力权重")


def test_no_chinese_sentence_is_followed_by_a_space(run_labs, chinese):
    """The tiles lab read "max |差| = 0.0000。 朴素公式…", and the naive softmax banner put
    a space between "。" and its link (a session's own look at 1366 × 768): sentences and
    links after them are joined as the banner's details are (``join_sentences``)."""
    import re

    window = run_labs.main_window
    lab = run_labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.go_to(lab.step_count() - 1)
    verdict = lab.online_verdict.text()
    assert "。" in verdict and not re.search(r"[。；：！？）] ", verdict), verdict
    # its difference as the KV lab's: an exact 0 and 2e−17 told apart
    import numpy as np

    from qkv_desktop.core import softmax
    from qkv_desktop.presentation.numbers import format_nonzero
    tiny = []
    for row in range(lab.row.maximum() + 1):  # rows and blocks whose rounding shows
        lab.row.setValue(row)
        for block in (1, 2, 3):
            lab.block.setValue(block)
            lab.go_to(lab.step_count() - 1)
            diff = float(np.nanmax(np.abs(lab.online.weights - softmax(lab.scores_row()))))
            assert f"= {format_nonzero(diff)}。" in lab.online_verdict.text(), diff
            tiny += [diff] if diff else []
    assert tiny, "online and stable agreed to the last bit at every block size"
    lab.tabs.setCurrentIndex(1)  # FlashAttention's tiles: their difference too
    lab.go_to(lab.step_count() - 1)
    diff = float(np.max(np.abs(lab.flash.output - lab.head.output)))
    assert diff and f"= {format_nonzero(diff)}。" in lab.flash_verdict.text(), diff
    # the KV stepper's "Token 0 without a cache: …" with the Chinese colon
    kv = run_labs.show("kv_cache")
    assert "</b>：" in kv.compare.text() and "</b>: " not in kv.compare.text()
    memory = kv.memory
    memory.tokens.setValue(10_000_000)
    formula = memory.result.text().split("</p>")[0]
    assert "8\u00a0B" in formula and not re.search(r" [^×]", formula), formula
    banner = window.teaching.banners.overflow
    for naive_and_x100 in range(3):  # naive on; nothing broken; then broken rows
        if naive_and_x100 == 0:
            window.controls.naive.setChecked(True)
        else:
            banner.label.linkActivated.emit("x100")
        _settle(window)
        text = banner.label.text()
        assert "<a href=" in text and not re.search(r"[。；：！？）] ", text), text
    window.controls.naive.setChecked(False)
    _settle(window)
