"""The Lab menu's KV-cache stepper, tiles lab and gradient lab on a real main window."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from qkv_desktop.core import Weights, attention, flash_attention, online_softmax
from qkv_desktop.presentation.numbers import format_nonzero
from qkv_desktop.presentation.sizes import format_bytes
from qkv_desktop.state import SessionState
from qkv_desktop.state.lab_inputs import head_inputs
from qkv_desktop.views.teaching.gradient_lab import SCALED, UNSCALED


@pytest.fixture
def labs(run_labs):
    return run_labs


def press(qtbot, lab, key):
    qtbot.keyClick(lab, key)


def test_lab_menu_opens_each_lab_and_esc_closes_it(main_window, qtbot):
    menu = main_window.teaching.lab_menu
    names = {a.objectName() for a in menu.actions()}
    assert {"showKVCacheLab", "showTilesLab", "showGradientLab"} <= names
    for key, name in (("kv_cache", "showKVCacheLab"), ("tiles", "showTilesLab"),
                      ("gradients", "showGradientLab")):
        main_window.findChild(QAction, name).trigger()
        lab = main_window.run_labs.windows[key]
        assert lab.isVisible() and lab.windowTitle()
        qtbot.keyClick(lab, Qt.Key.Key_Escape)
        assert not lab.isVisible()
        lab.show()
        qtbot.keyClick(lab, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
        assert not lab.isVisible()


# ---------------------------------------------------------------------- KV cache

def test_kv_stepper_grows_the_cache_by_one_row_per_step(labs, qtbot):
    lab = labs.show("kv_cache")
    model = labs.main_window.model
    r = attention(*_session(model), causal=True)
    assert lab.step_count() == model.state.n
    lab.go_to(0)
    for t in range(5):
        assert lab.position == t
        assert lab.grids["K"].data.shape[0] == t + 1 == lab.grids["V"].data.shape[0]
        np.testing.assert_allclose(lab.grids["output"].data[0], r.output[t], rtol=0,
                                   atol=1e-13)
        np.testing.assert_allclose(lab.grids["weights"].data[0], r.weights[t, :t + 1],
                                   atol=1e-13)
        assert "max |cached − recomputed|" in lab.compare.text()
        # tokens from 0 as in the tables, beside the counter's "step t + 1 of n"
        assert f"Token {t} without a cache" in lab.compare.text()
        assert lab.controls.where.text().startswith(f"step {t + 1} of ")
        assert ("of token 0 again" if t == 0 else f"of tokens 0…{t} again") \
            in lab.compare.text()
        assert ("token 0</th>" if t == 0 else f"tokens 0…{t}</th>") in lab.compare.text()
        press(qtbot, lab, Qt.Key.Key_Right)
    press(qtbot, lab, Qt.Key.Key_Left)
    assert lab.position == 4
    lab.controls.reset.click()
    assert lab.position == 0
    press(qtbot, lab, Qt.Key.Key_Space)  # space plays …
    assert lab.timer.isActive()
    qtbot.waitUntil(lambda: lab.position >= 1, timeout=5000)
    press(qtbot, lab, Qt.Key.Key_Space)  # … and pauses
    assert not lab.timer.isActive()


def test_kv_stepper_says_when_it_shows_part_of_a_wide_head(labs):
    """SmolLM2's d_k = 64 showed as 16 columns with no word (a user): the titles say
    which dimensions show, and a long row name ends in "…" rather than just stopping."""
    from qkv_desktop.views.teaching.kv_cache_lab import MAX_SHOWN_COLS
    model = labs.main_window.model
    steps = model.undo_stack.count()
    try:
        model.set_d_k(MAX_SHOWN_COLS + 4)
        model.rename_token("X", 1, " capitalisation")
        assert model.wait_until_idle()
        lab = labs.show("kv_cache")
        lab.go_to(1)
        for key in ("q", "K", "V", "output", "outputs"):
            grid = lab.grids[key]
            assert grid.data.shape[-1] == MAX_SHOWN_COLS
            assert f"dimensions 0–{MAX_SHOWN_COLS - 1} of {MAX_SHOWN_COLS + 4}" in grid.title
        names = lab.grids["K"].row_labels
        assert names[1] == "1·␣capita…", names
        model.undo_stack.setIndex(steps)
        assert model.wait_until_idle()
        lab.go_to(1)
        assert "dimensions" not in lab.grids["K"].title
    finally:
        model.undo_stack.setIndex(steps)
        lab = labs.show("kv_cache")
        lab.close()


def test_kv_stepper_follows_edits_and_warns_when_not_causal(labs):
    lab = labs.show("kv_cache")
    model = labs.main_window.model
    model.set_cell("X", 0, 0, 3.5)
    assert model.wait_until_idle()
    assert lab.decode.steps[0].q[0] == pytest.approx(attention(*_session(model)).Q[0, 0])
    model.set_options(causal=False)
    assert model.wait_until_idle()
    assert lab.note.isVisibleTo(lab) and "causal" in lab.note.text()
    model.set_mode("cross")
    assert model.wait_until_idle()
    assert lab.step_count() == 0 and "cross" in lab.error.text()


def test_kv_memory_of_a_cross_attention_session_counts_its_key_tokens(labs):
    """A cross-attention cache holds the keys and values of X_kv's m tokens; "this
    session" counted the n query tokens of X (4 where the cache holds 6)."""
    lab = labs.show("kv_cache")
    model = labs.main_window.model
    model.set_mode("cross")
    model.insert_tokens("X_kv", 0, 2)
    assert model.wait_until_idle()
    n, m = model.state.n, model.state.n_keys
    assert m == n + 2
    calc = lab.memory
    assert calc.preset.currentData() == "session" and calc.tokens.value() == m
    assert calc.sizes()["MHA"] == 2 * model.state.n_heads * model.state.d_k * m * 8
    model.set_mode("self")
    assert model.wait_until_idle()
    assert calc.tokens.value() == n


def test_kv_stepper_refusing_cross_attention_keeps_nothing_of_the_last_decode(labs):
    """Refusing a cross-attention session, the stepper kept "K cache: 4 rows (+1)" and
    the other grids' titles over empty grids, Play, Reset and Export steps enabled,
    and the not-causal note; all of that is gone until it decodes again."""
    lab = labs.show("kv_cache")
    model = labs.main_window.model
    model.set_options(causal=False)
    assert model.wait_until_idle()
    lab.go_to(3)
    c = lab.controls
    assert lab.grids["K"].title == "K cache: 4 rows (+1)" and c.play.isEnabled()
    model.set_mode("cross")
    assert model.wait_until_idle()
    assert "cross" in lab.error.text()
    assert [g.title for g in lab.grids.values()] == [""] * len(lab.grids)
    assert not any(b.isEnabled() for b in (c.play, c.reset, c.back, c.step,
                                            lab.export_steps_button))
    assert not lab.note.isVisibleTo(lab) and c.where.text() == "no steps"
    lab.space_pressed()  # space, like Play, starts nothing
    assert not lab.timer.isActive()
    model.set_mode("self")
    assert model.wait_until_idle()
    assert lab.grids["K"].title.startswith("K cache: ")
    assert c.play.isEnabled() and c.step.isEnabled() and lab.export_steps_button.isEnabled()


def test_kv_stepper_says_an_overflow_and_raises_nothing(labs):
    """Weights a diverged training run left (W_Q, W_K ~ 1e200): the cached decode gave
    infinite outputs and said "equal to the last bit", and its recompute raised
    ScoreOverflowError in error dialogs at the next language change (a review). The
    lab says the session overflows and shows no steps."""
    import dataclasses
    import warnings

    lab = labs.show("kv_cache")
    model = labs.main_window.model
    w = model.state.heads[0]
    W_Q, W_K = w.W_Q.copy(), w.W_K.copy()
    W_Q[:, 0] = W_K[:, 0] = 1e200
    huge = model.state.with_(heads=(dataclasses.replace(w, W_Q=W_Q, W_K=W_K),
                                    *model.state.heads[1:]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the decode's own overflow
        model.load_state(huge, "diverged")
        model.wait_until_idle()
        lab.retranslate()  # as a language change does
    assert lab.step_count() == 0
    assert "overflow float64" in lab.error.text()


def test_kv_stepper_steps_under_a_painted_mask(labs, qtbot):
    """A painted mask made the stepper fail at its first step ("the mask is 4 × 4 but
    the scores are 1 × 1": the step without a cache got the whole mask for a prefix);
    a teacher saw an error dialog at every Step (found by a first-time user)."""
    from dataclasses import replace

    model = labs.main_window.model
    state = model.state
    model.reset(state.with_(options=replace(state.options, custom_mask=True,
                                            masked=((3, 1),))))
    assert model.wait_until_idle()
    lab = labs.show("kv_cache")
    r = attention(*_session(model), causal=True, mask=model.result.state.mask_spec().custom)
    assert lab.step_count() == state.n and not lab.error.isVisibleTo(lab)
    for t in range(state.n):
        lab.go_to(t)
        np.testing.assert_allclose(lab.grids["output"].data[0], r.output[t], atol=1e-13)
        np.testing.assert_allclose(lab.recomputed(t), r.output[t], atol=1e-13)
        assert "max |cached − recomputed|" in lab.compare.text()
    lab.go_to(3)
    assert lab.grids["weights"].data[0, 1] == 0  # token 3 does not see token 1


def test_kv_stepper_says_why_a_mask_cannot_be_decoded(labs):
    """Not causal, the session's mask may leave token 0 only later keys; decoding is
    causal, and the stepper says which token would see none, in the window's words."""
    from dataclasses import replace

    model = labs.main_window.model
    state = model.state
    model.reset(state.with_(options=replace(state.options, causal=False, custom_mask=True,
                                            masked=((0, 0),))))
    assert model.wait_until_idle() and model.compute_error == ""
    lab = labs.show("kv_cache")
    assert lab.step_count() == 0 and lab.error.isVisibleTo(lab)
    text = lab.error.text()
    assert "decoding is causal" in text and f"token 0 “{state.tokens[0]}”" in text
    assert "softmax over nothing" not in text


def test_memory_calculator_presets_and_typed_numbers(labs):
    lab = labs.show("kv_cache")
    calc = lab.memory
    calc.select("SmolLM2-135M")
    calc.tokens.setValue(8192)
    assert (calc.layers.value(), calc.query_heads.value(), calc.kv_heads.value(),
            calc.head_dim.value()) == (30, 9, 3, 64)
    sizes = calc.sizes()
    assert sizes == {"MHA": 2 * 30 * 9 * 64 * 8192 * 2, "GQA": 2 * 30 * 3 * 64 * 8192 * 2,
                     "MQA": 2 * 30 * 1 * 64 * 8192 * 2}
    assert format_bytes(sizes["GQA"]) in calc.result.text() == calc.result.text()
    calc.layers.setValue(2)  # typing a number switches to "typed numbers"
    assert calc.preset.currentData() == "custom"
    assert calc.sizes()["MHA"] == 2 * 2 * 9 * 64 * 8192 * 2
    calc.select("session")
    state = labs.main_window.model.state
    assert calc.sizes()["MHA"] == 2 * 1 * state.n_heads * state.d_k * state.n * 8


def test_this_session_counts_a_grouped_query_sessions_shared_kv_heads(labs):
    """A session of a grouped-query model (SmolLM2: 9 query heads over 3 K/V heads) was
    sized with 9 KV heads, the GQA row equal to the MHA row; its cache holds each
    shared K/V head once, so "this session" has 3."""
    rng = np.random.default_rng(3)
    d, dk, n = 6, 2, 5
    kv = [(rng.normal(size=(d, dk)), rng.normal(size=(d, dk))) for _ in range(3)]
    heads = tuple(Weights(rng.normal(size=(d, dk)), *kv[h // 3]) for h in range(9))
    state = SessionState(tuple("abcde"), rng.normal(size=(n, d)), heads)
    model = labs.main_window.model
    model.load_state(state, "preset")
    assert model.wait_until_idle()
    calc = labs.show("kv_cache").memory
    calc.select("session")
    assert (calc.query_heads.value(), calc.kv_heads.value()) == (9, 3)
    sizes = calc.sizes()
    assert sizes["GQA"] == 2 * 1 * 3 * dk * n * 8 == sizes["MHA"] // 3
    assert "<td>grouped-query (GQA)</td><td align='right'>3</td>" in calc.result.text()
    assert not calc.problem.isVisibleTo(calc)
    model.set_cell("X", 0, 0, 0.5)  # an edit keeps the count
    assert model.wait_until_idle()
    assert calc.kv_heads.value() == 3
    own = heads[0].W_K.copy()
    own[0, 0] = 9.0  # head 1 gets keys of its own: 4 groups of unequal size
    model.load_state(state.with_(heads=(Weights(heads[0].W_Q, own, heads[0].W_V),
                                        *heads[1:])), "edited")
    assert model.wait_until_idle()
    assert calc.kv_heads.value() == 4 and calc.sizes()["GQA"] is None
    assert "This session's 9 heads have 4 different pairs" in calc.problem.text()


def _red(box) -> bool:
    """Whether ``box`` shows its number in the refusals' red."""
    from PySide6.QtGui import QPalette

    from qkv_desktop.views.styles import ERROR_COLOR

    return box.palette().color(QPalette.ColorRole.Text).name() == ERROR_COLOR


def test_a_new_session_takes_the_place_of_numbers_typed_over_the_last(labs, qtbot):
    """9 query heads and 4 KV heads typed, refused in red, stayed with their red line
    over an unrelated session after File → New and a preset. A new session brings its
    own numbers into "typed numbers" and the red line goes; a real model chosen keeps
    its numbers (they are that model's); "this session" chosen shows the session's."""
    model = labs.main_window.model
    calc = labs.show("kv_cache").memory
    calc.select("custom")
    calc.query_heads.setValue(9)
    calc.kv_heads.setValue(4)
    assert calc.problem.isVisibleTo(calc) and _red(calc.kv_heads)

    def shows_the_session():
        state = model.state
        assert calc.preset.currentData() == "session"
        assert (calc.layers.value(), calc.query_heads.value(), calc.kv_heads.value(),
                calc.head_dim.value(), calc.tokens.value()) == (
            1, state.n_heads, state.n_heads, state.d_k, state.n)
        assert not calc.problem.isVisibleTo(calc) and not _red(calc.kv_heads)
        assert calc.sizes()["GQA"] == calc.sizes()["MHA"]

    model.load_state(SessionState.from_preset("tutorial-1"), "preset")  # (unchanged: no load)
    model.reset(SessionState.from_preset("tutorial-1").with_(tokens=tuple("abcdef"),
                                                              X=np.ones((6, 8))))  # File → New
    assert model.wait_until_idle()
    shows_the_session()
    assert calc.tokens.value() == 6
    calc.select("custom")
    calc.query_heads.setValue(9)
    calc.kv_heads.setValue(4)
    assert calc.problem.isVisibleTo(calc)
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")  # a preset
    assert model.wait_until_idle()
    shows_the_session()
    calc.select("SmolLM2-135M")  # a real model keeps its own numbers over a new session
    model.reset(SessionState.from_preset("tutorial-1"))
    assert model.wait_until_idle()
    assert calc.preset.currentData() == "SmolLM2-135M"
    assert (calc.layers.value(), calc.query_heads.value(), calc.kv_heads.value()) == (30, 9, 3)
    calc.kv_heads.setValue(4)  # refused; "this session" chosen takes it away
    assert calc.problem.isVisibleTo(calc)
    calc.select("session")
    shows_the_session()


def test_memory_calculator_refuses_kv_heads_gqa_cannot_have(labs):
    """4 KV heads for 9 query heads (9 / 4 = 2.25 per KV head) were sized without a
    word: refused beside the table, the GQA row is empty rather than another count's,
    and MHA and MQA still count. 20 for 9 (sized as 9 while the box said 20, later
    clamped to 1024 and refused) becomes 9 in the box and the table alike: the KV heads
    go up to the query heads."""
    lab = labs.show("kv_cache")
    calc = lab.memory
    calc.select("SmolLM2-135M")
    assert not calc.problem.isVisibleTo(calc) and calc.gqa_problem() == ""
    mha, mqa = calc.sizes()["MHA"], calc.sizes()["MQA"]
    calc.kv_heads.setValue(4)
    assert calc.kv_heads.value() == 4  # the box keeps what was typed …
    assert calc.sizes() == {"MHA": mha, "GQA": None, "MQA": mqa}  # … and nothing else
    assert calc.problem.isVisibleTo(calc)
    text = calc.problem.text()
    assert "must divide" in text and "(4)" in text and "(9)" in text and "1, 3, 9" in text
    assert "<td>grouped-query (GQA)</td><td align='right'>4</td>" \
           "<td align='right'>—</td>" in calc.result.text()
    assert _red(calc.kv_heads)
    calc.kv_heads.setValue(20)  # past the query heads: their 9, which the table takes
    assert calc.kv_heads.value() == 9 and calc.kv_heads.maximum() == 9
    assert calc.sizes() == {"MHA": mha, "GQA": mha, "MQA": mqa}
    assert not calc.problem.isVisibleTo(calc) and not _red(calc.kv_heads)
    calc.query_heads.setValue(20)
    calc.kv_heads.setValue(20)  # now 20 KV heads serve one query head each
    assert calc.sizes()["GQA"] == calc.sizes()["MHA"]
    assert not calc.problem.isVisibleTo(calc) and not _red(calc.kv_heads)
    calc.query_heads.setValue(30)  # 20 does not divide 30: a query-head edit is checked too
    assert calc.sizes()["GQA"] is None and "must divide" in calc.problem.text()
    calc.select("SmolLM2-135M")  # a preset brings valid numbers back
    assert calc.sizes()["GQA"] is not None and not calc.problem.isVisibleTo(calc)


def test_memory_calculator_says_an_encoder_keeps_no_cache(labs):
    """all-MiniLM-L6-v2 is a BERT encoder: it never decodes, so its entry says the
    cache is its shape only (it stood beside SmolLM2 as if it cached keys)."""
    calc = labs.show("kv_cache").memory
    texts = {calc.preset.itemData(i): calc.preset.itemText(i)
             for i in range(calc.preset.count())}
    assert texts["all-MiniLM-L6-v2"] == "all-MiniLM-L6-v2 (encoder: shape only)"
    tip = calc.preset.itemData(calc.preset.findData("all-MiniLM-L6-v2"),
                               Qt.ItemDataRole.ToolTipRole)
    assert "keeps no KV cache" in tip
    assert texts["SmolLM2-135M"] == "SmolLM2-135M"
    calc.select("all-MiniLM-L6-v2")  # still sized: 2 × 6 × 12 × 32 × 512 × 2 B
    assert calc.sizes()["MHA"] == 2 * 6 * 12 * 32 * calc.tokens.value() * 2


def test_a_models_preset_reads_at_most_its_own_context(labs):
    """all-MiniLM-L6-v2 has 512 positions: its preset said 8192 tokens (a first-time
    user). A model's preset reads its own context length, and tokens typed before it
    only if fewer."""
    calc = labs.show("kv_cache").memory
    calc.select("SmolLM2-135M")
    assert calc.tokens.value() == 8192
    calc.select("all-MiniLM-L6-v2")  # the 8192 of SmolLM2's preset was not typed
    assert calc.tokens.value() == 512
    calc.select("SmolLM2-135M")
    assert calc.tokens.value() == 8192
    calc.tokens.setValue(300)  # typed: kept by both models
    calc.select("all-MiniLM-L6-v2")
    assert calc.tokens.value() == 300
    calc.select("SmolLM2-135M")
    assert calc.tokens.value() == 300
    calc.tokens.setValue(100_000)  # more than either reads
    calc.select("all-MiniLM-L6-v2")
    assert calc.tokens.value() == 512
    assert calc.sizes()["MHA"] == 2 * 6 * 12 * 32 * 512 * 2


def test_memory_calculator_holds_a_session_head_dim_beyond_65536(labs):
    """The head-dim box stopped at 65,536, so a session with a wider head was sized as
    65,536 without a word; its range now holds any session's d_k."""
    calc = labs.show("kv_cache").memory
    calc.select("session")
    calc.set_session(1, 1, 1, 100_000, 4, 8)
    assert calc.head_dim.value() == 100_000
    assert calc.sizes()["MHA"] == 2 * 1 * 1 * 100_000 * 4 * 8


def _session(model):
    inputs = head_inputs(model.state, model.current_head)
    return inputs.X, inputs.weights


# ------------------------------------------------------------------------ tiles

def test_online_softmax_tab_steps_through_the_blocks(labs, qtbot):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.row.setValue(11)
    lab.block.setValue(5)  # 12 keys: blocks of 5, 5, 2
    assert lab.step_count() == 3
    row = lab.scores_row()
    expected = online_softmax(row, 5)
    for k in range(3):
        lab.go_to(k)
        assert lab.block_table.text().count("<tr") == k + 2  # header + blocks so far
    np.testing.assert_array_equal(lab.online.weights, expected.weights)
    # the naive formula still works, and the verdict says by how much to scale the row
    # (it said "× 1000" for a row whose scores × 1000 stay below 709.78)
    import re
    verdict = lab.online_verdict.text()
    needed = float(re.search(r"more than ([0-9.e+]+) to make it overflow", verdict)[1])
    assert needed == pytest.approx(709.7827 / row.max(), rel=1e-4)
    lab.factor.setValue(needed * 0.99)
    assert np.isfinite(lab.naive_grid.data).all() and "more than" in lab.online_verdict.text()
    lab.factor.setValue(needed * 1.01)
    assert "∞" in lab.online_verdict.text()  # … and past it, it overflows
    assert np.isfinite(lab.online.weights).all()
    assert not np.isfinite(lab.naive_grid.data).all()
    # its NaN reads as in the panes ("NaN", magenta), not as a blank cell still to come
    assert "NaN" in sum(lab.naive_grid.texts(), [])
    assert "NaN" not in sum(lab.so_far_grid.texts(), [])


def test_the_online_tabs_weight_strips_line_up(labs):
    """A first user saw the naive strip, a row of "NaN" (and masked cells), drawn
    narrower than the online softmax's "1.0000" above it: its columns did not line up."""
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.row.setValue(0)  # causal: one key visible, its exp(s) over- or underflows
    lab.factor.setValue(lab.factor.maximum())
    lab.go_to(0)
    naive = [t for t in sum(lab.naive_grid.texts(), []) if t]
    assert naive == ["NaN"]  # the case the user saw
    assert [t for t in sum(lab.online_grid.texts(), []) if t] == ["1.0000"]
    widths = [grid.cell_width() for grid in (lab.so_far_grid, lab.online_grid,
                                             lab.naive_grid)]
    assert widths == [widths[0]] * 3, widths


def test_the_online_tabs_block_table_headers_share_a_baseline(labs, speak):
    """In Chinese, "m_old", "m_new" and "l" sat higher than 块, 列, 块最大值 (a first
    user): the CJK font's line is taller, and the cells were aligned at the top."""
    from PySide6.QtGui import QTextDocument
    speak("zh_CN")
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.go_to(0)
    doc = QTextDocument()
    doc.setDefaultFont(lab.block_table.font())
    doc.setHtml(lab.block_table.text())
    doc.setTextWidth(2000)
    layout = doc.documentLayout()
    baselines = {}
    block = doc.firstBlock()
    while block.isValid() and len(baselines) < 7:  # the header row's seven cells
        if block.text():  # (the empty block before the table)
            line = block.layout().lineAt(0)
            baselines[block.text()] = (layout.blockBoundingRect(block).top() + line.y()
                                       + line.ascent())
        block = block.next()
    assert "块最大值" in baselines and "m_old" in baselines, baselines
    assert max(baselines.values()) - min(baselines.values()) < 1.0, baselines


def test_online_softmax_verdict_for_rows_that_cannot_overflow_or_underflowed(labs):
    lab = labs.show("tiles")
    lab.factor.setValue(1.0)
    text = lab._naive_verdict(np.array([-3.0, -5.0, -np.inf]))
    assert "every score is negative" in text and "more than 248.3778" in text  # 745.1332/3
    with np.errstate(under="ignore"):  # … and 248.3778 is enough, 248.3777 is not
        assert np.exp(-3.0 * 248.3778) == 0 and np.exp(-3.0 * 248.3777) > 0
    text = lab._naive_verdict(np.array([-800.0, -900.0]))
    assert "underflows to 0" in text and "0/0" in text
    assert "∞" in lab._naive_verdict(np.array([800.0, 1.0]))
    assert "no factor" in lab._naive_verdict(np.array([0.0, -1.0]))
    assert "× 100 the inputs" in lab._naive_verdict(np.array([1e-6, 0.0]))


def test_online_softmax_verdict_when_the_sum_overflows_but_no_term_does(labs):
    """Four tied scores of 709.2: each exp(s) is finite, their sum is ∞ and every weight
    exp(s)/∞ = 0; the verdict said "still works" and named a factor too high."""
    from qkv_desktop.core.softmax import softmax
    lab = labs.show("tiles")
    lab.factor.setValue(1.0)
    row = np.full(4, 709.2)
    with np.errstate(all="ignore"):
        assert (softmax(row, stable=False) == 0).all()
    text = lab._naive_verdict(row)
    assert "sum overflows" in text and "row sums to 0" in text
    # the factor it names for a row that still works breaks the row, and no less does
    import re
    row = np.full(4, 8.5)
    needed = float(re.search(r"more than ([0-9.]+) to make it", lab._naive_verdict(row))[1])
    with np.errstate(all="ignore"):
        assert not np.isfinite(np.exp(row * needed).sum())
        assert np.isfinite(np.exp(row * (needed - 0.01)).sum())
    assert needed < 709.7827 / 8.5  # below one term's own overflow: log 4 sooner


def test_flash_tab_visits_every_tile_and_ends_at_attention(labs):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(1)
    lab.block_q.setValue(5)
    lab.block_k.setValue(4)
    assert lab.step_count() == 3 * 3
    head = labs.main_window.model.result.head(0)
    output, trace = flash_attention(head.Q, head.K, head.V, block_q=5, block_k=4,
                                    scale=1 / head.divisor, causal=True)
    np.testing.assert_array_equal(lab.flash.output, output)
    lab.go_to(2)  # queries 0…4 × keys 8…11: in the future of every query, skipped
    assert trace[2].skipped and "Skipped" in lab.tile_info.text()
    lab.go_to(1)  # queries 0…4 × keys 4…7: key 4 is visible to query 4
    assert not trace[1].skipped and "Skipped" not in lab.tile_info.text()
    lab.go_to(lab.step_count() - 1)
    np.testing.assert_allclose(lab.flash.output, head.output, atol=1e-12)
    assert "max |flash − attention|" in lab.flash_verdict.text()
    text = lab.memory_table.text()
    assert "8,192" in text and "512" in text and ">12<" in text
    assert "256 MiB" in text  # 8192² × 4 B


# -------------------------------------------------------------------- gradients

def test_training_runs_off_the_gui_thread_and_is_one_undoable_step(labs, qtbot):
    import threading
    lab = labs.show("gradients")
    model = labs.main_window.model
    before = model.state
    depth = model.undo_stack.count()
    seen = []
    model.changed.connect(lambda: seen.append(model.state))
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    lab.train_blocking(40)
    assert len(lab.losses) == 40
    assert lab.losses[-1] < 0.5 * lab.losses[0]
    assert lab.train_threads and threading.get_ident() not in lab.train_threads
    # the last step shown is what was committed (at 1000 steps per second, 40 steps may
    # all arrive before the panes are free: that the panes follow a run as it goes is
    # ``test_the_panes_follow_training_at_the_default_rate``'s, at 50 steps per second)
    assert seen and seen[-1] is model.state
    assert model.undo_stack.count() == depth + 1
    assert model.undo_stack.undoText() == "Train 40 steps"
    trained = model.state.heads[0]
    assert not np.array_equal(trained.W_Q, before.heads[0].W_Q)
    np.testing.assert_array_equal(trained.W_V, before.heads[0].W_V)  # no gradient: unchanged
    P = model.result.head(0).weights
    assert (P.argmax(axis=1)[1:] == np.arange(11)).mean() >= 0.75
    model.undo_stack.undo()
    assert model.state is before
    for name in ("W_Q", "W_K", "W_V"):
        assert list(lab.norms[name]) == [pytest.approx(v) for v in lab.norms[name]]


def test_the_panes_follow_training_at_the_default_rate(labs, qtbot):
    """At 50 steps per second, showing each step (curves, the new weights in the model)
    took longer than the 20 ms between steps: a step was always waiting, Qt's timers
    (the model's recompute) never ran, and the panes stood still until the run ended
    (a first user watched 100 steps go by). The newest step is shown whenever the
    events waiting are handled, and every step's loss is kept."""
    from PySide6.QtCore import QEvent, QObject

    lab = labs.show("gradients")
    model = labs.main_window.model
    assert lab.rate.value() == 50  # the default
    lab.target.setCurrentIndex(lab.target.findData("previous"))
    results, painted = [], []
    model.resultChanged.connect(lambda r: lab.worker.running and results.append(r))

    class Paints(QObject):  # the panes' repaint waits for a timer (``OneRepaint``):
        def eventFilter(self, obj, event):  # it must not wait for the run's end
            if event.type() == QEvent.Type.Paint and lab.worker.running:
                painted.append(model.result)
            return False

    paints = Paints()
    labs.main_window.panes.panes["weights"].plot.viewport().installEventFilter(paints)
    # 80 steps, 1.6 s: 40 painted two results only once, on a machine also running
    # another app and the rest of the suite
    lab.steps.setValue(80)
    lab.start_training()
    assert lab.wait(lab.worker, 30_000)
    assert len(lab.losses) == 80
    assert len(results) >= 3, len(results)  # (before: none until the run ended)
    assert len({id(r) for r in painted}) >= 3, len(painted)  # painted as they came
    trained = model.state.heads[0]  # the last step's weights were committed
    assert model.undo_stack.undoText() == "Train 80 steps"
    np.testing.assert_array_equal(model.result.head(0).weights,
                                  lab.weights_grid.data)
    assert not np.array_equal(trained.W_Q, results[0].state.heads[0].W_Q)


def test_stop_ends_training_at_once_and_keeps_what_was_learned(labs, qtbot):
    lab = labs.show("gradients")
    model = labs.main_window.model
    depth = model.undo_stack.count()
    lab.steps.setValue(100_000)
    lab.rate.setValue(20)
    press(qtbot, lab, Qt.Key.Key_Space)  # space starts …
    qtbot.waitUntil(lambda: len(lab.losses) >= 2, timeout=10_000)
    assert lab.worker.running and model.preview.active
    press(qtbot, lab, Qt.Key.Key_Space)  # … and stops
    assert lab.wait(lab.worker, 5000)
    assert not model.preview.active
    assert model.undo_stack.count() == depth + 1
    assert model.undo_stack.undoText() == f"Train {len(lab.losses)} steps"


def test_the_labs_weights_now_follow_the_training_step_by_step(labs, qtbot):
    """"attention weights now" stayed at the run's start until its last step (a first
    user watched 113 steps go by with the grid unchanged) while the panes followed."""
    lab = labs.show("gradients")
    model = labs.main_window.model
    start = model.result.head(0).weights.copy()
    lab.target.setCurrentIndex(lab.target.findData("diagonal"))
    lab.steps.setValue(100_000)
    lab.rate.setValue(20)
    lab.start_training()
    try:
        qtbot.waitUntil(lambda: len(lab.losses) >= 3, timeout=10_000)
        # the grid and the panes' result move together, step after step (once the
        # panes' result has moved: before, both still showed the start, and the wait
        # passed at once under load)
        qtbot.waitUntil(lambda: not np.array_equal(model.result.head(0).weights, start)
                        and np.array_equal(lab.weights_grid.data,
                                           model.result.head(0).weights), timeout=5_000)
        assert lab.worker.running and model.preview.active
        assert not np.array_equal(lab.weights_grid.data, start)
        assert lab.weights_grid.title == "attention weights now"
    finally:
        lab.stop_training()
        assert lab.wait(lab.worker, 5000)
    np.testing.assert_array_equal(lab.weights_grid.data, model.result.head(0).weights)


def test_an_edit_during_training_commits_the_training_first(labs, qtbot):
    lab = labs.show("gradients")
    model = labs.main_window.model
    before = model.state
    lab.steps.setValue(100_000)
    lab.rate.setValue(20)
    lab.start_training()
    qtbot.waitUntil(lambda: model.preview.active, timeout=10_000)
    model.set_cell("X", 0, 0, 0.25)  # commits "Train k steps", then the edit on top
    assert model.undo_stack.undoText().startswith("X[")  # the edit, named by its cell
    lab.stop_training()
    assert lab.wait(lab.worker, 5000)
    while model.undo_stack.canUndo() and model.state is not before:
        model.undo_stack.undo()
    assert model.state is before


def test_painted_target_and_target_output(labs):
    lab = labs.show("gradients")
    lab.target.setCurrentIndex(lab.target.findData("painted"))
    assert lab.target_grid.paintable
    kind, T = lab.target_matrix()
    assert kind == "pattern" and T[3, 2] == 1.0
    lab._paint(3, 0)  # a click on row 3, column 0: now two keys share the row
    kind, T = lab.target_matrix()
    np.testing.assert_allclose(T[3, [0, 2]], [0.5, 0.5])
    lab._paint(3, 11)  # a future key of a causal session is dropped from the target
    np.testing.assert_allclose(lab.target_matrix()[1][3].sum(), 1.0)
    assert lab.target_matrix()[1][3, 11] == 0
    lab.target.setCurrentIndex(lab.target.findData("output"))
    kind, out = lab.target_matrix()
    assert kind == "output" and out.shape == labs.main_window.model.result.head(0).output.shape
    lab.lr.setValue(0.01)
    lab.train_blocking(20)
    assert lab.losses[-1] < lab.losses[0]


def test_a_diverging_training_stops_with_a_message_and_keeps_the_last_good_weights(labs):
    lab = labs.show("gradients")
    model = labs.main_window.model
    lab.target.setCurrentIndex(lab.target.findData("output"))
    lab.lr.setValue(100.0)
    lab.train_blocking(500)
    assert "diverged" in lab.error.text() and "learning rate" in lab.error.text()
    assert not model.preview.active and lab.train_button.isEnabled()
    assert model.undo_stack.undoText().startswith("Train ")
    assert np.isfinite(model.state.heads[0].W_Q).all()


def test_scaling_comparison_plots_true_gradient_norms(labs):
    lab = labs.show("gradients")
    lab.compare_lr.setValue(0.1)
    lab.run_comparison_blocking(steps=5)
    assert [(r.d_k, r.scaled) for r in lab.runs] == [(d, s) for d in (4, 64, 256)
                                                     for s in (False, True)]
    for run in lab.runs:
        assert len(run.grad_W_Q) == 5 + 1 and np.isfinite(run.grad_W_Q).all()  # (start)
    unscaled = {r.d_k: r for r in lab.runs if not r.scaled}
    scaled = {r.d_k: r for r in lab.runs if r.scaled}
    # unscaled, the tutorial's mean p(1−p) falls with d_k; scaled it does not
    assert unscaled[256].mean_p1p < unscaled[4].mean_p1p
    assert scaled[256].mean_p1p > 0.5 * scaled[4].mean_p1p
    assert "mean p(1−p)" in lab.compare_table.text()
    assert "mean max weight at the start" in lab.compare_table.text()
    assert len(lab.compare_plots[64].getPlotItem().listDataItems()) == 4
    # the key above the plots names each curve's colour and line style, as drawn
    key = lab.compare_key.text()
    drawn = {(c.opts["pen"].color().getRgb()[:3], c.opts["pen"].style())
             for c in lab.compare_plots[64].getPlotItem().listDataItems()}
    solid, dashed = Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine
    assert drawn == {(UNSCALED, solid), (UNSCALED, dashed), (SCALED, solid), (SCALED, dashed)}
    red, blue = (f"rgb({r}, {g}, {b})" for r, g, b in (UNSCALED, SCALED))
    assert f"<span style='color: {red}'>━━━</span> no scaling" in key
    assert f"<span style='color: {blue}'>━━━</span> ÷√d_k" in key
    assert "━━━</span> ‖∂L/∂W_Q‖" in key and "╍╍╍</span> ‖∂L/∂W_K‖" in key
    for plot in lab.compare_plots.values():
        assert plot.getPlotItem().getAxis("left").labelText == "gradient norm"


def test_the_scaling_comparison_explains_the_loss_it_ran(labs):
    """Its text said every unscaled head's gradient vanishes, under a table where the
    unscaled heads learned faster (the weights' cross-entropy). The default loss now
    reaches the scores through weights · V, as in a Transformer, and each loss has its
    own explanation; another loss drops the runs of the last."""
    lab = labs.show("gradients")
    assert lab.compare_loss.currentData() == "output"
    assert "Jacobian diag(p) − ppᵀ, as in a Transformer" in lab.compare_info.text()
    assert "layer-normalised" in lab.compare_info.text()
    assert "W\u00a0~\u00a0N(0,\u00a01/d_model)" in lab.compare_info.text()  # one line
    lab.run_comparison_blocking(steps=100)
    end = {(r.d_k, r.scaled): r.losses[-1] for r in lab.runs}
    # (random-medium, causal, at the rate of its 16-dimensional rows, 0.06) as it says
    assert lab.compare_lr.value() == 0.06
    assert end[256, False] > 5 * end[256, True]
    assert lab.compare_loss.isEnabled()
    lab.compare_loss.setCurrentIndex(lab.compare_loss.findData("pattern"))
    assert lab.runs == [] and lab.compare_table.text() == ""
    assert "learn faster" in lab.compare_info.text()
    lab.run_comparison_blocking(steps=100)
    end = {(r.d_k, r.scaled): r.losses[-1] for r in lab.runs}
    assert end[256, False] < end[256, True]  # … and what this one says


def test_training_refuses_shared_weights(labs):
    lab = labs.show("gradients")
    labs.main_window.model.set_options(share_qk=True)
    assert labs.main_window.model.wait_until_idle()
    lab.start_training()
    assert not lab.worker.running and "W_Q" in lab.error.text()
    lab.tabs.setCurrentIndex(1)  # the refusal was the other tab's button's
    assert lab.error.isHidden()
    lab.tabs.setCurrentIndex(0)
    lab.start_training()
    assert not lab.error.isHidden()
    labs.main_window.model.set_options(share_qk=False)  # its cause gone, it goes
    assert lab.error.isHidden() and lab._refusal is None


def test_a_refusal_of_the_comparison_goes_with_its_cause(labs):
    """A first user: "switch to self-attention" stayed on the red line above a
    comparison that, after the switch, ran and finished."""
    lab = labs.show("gradients")
    model = labs.main_window.model
    lab.tabs.setCurrentIndex(1)
    model.set_mode("cross")
    model.wait_until_idle()
    lab.start_comparison()
    assert "switch to self-attention" in lab.error.text() and not lab.error.isHidden()
    model.set_options(causal=True)  # another change: the cause holds, the message stays
    assert not lab.error.isHidden()
    model.set_mode("self")
    assert lab.error.isHidden()
    lab.show_error("Training failed: an earlier run's")
    lab.run_comparison_blocking(steps=2)
    assert lab.error.isHidden() and len(lab.runs) == 6


def test_too_many_tiles_are_refused_with_a_message(labs):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(1)
    model = labs.main_window.model
    rng = np.random.default_rng(0)
    model.load_state(SessionState.initialised([f"t{i}" for i in range(70)],
                                              rng.standard_normal((70, 4)), d_k=4), "big")
    assert model.wait_until_idle()
    lab.block_q.setValue(1)
    lab.block_k.setValue(1)  # 70 × 70 = 4900 tiles
    assert lab.step_count() == 0 and "4900 tiles" in lab.error.text()
    assert lab.tile_grid.data.size == 0
    lab.block_k.setValue(2)  # 70 × 35 = 2450
    assert lab.step_count() == 2450 and not lab.error.isVisibleTo(lab)


def test_labs_use_the_sessions_positions_masks_and_alibi(labs):
    model = labs.main_window.model
    model.set_options(positions="rope", window=4, alibi=(0.5,))
    assert model.wait_until_idle()
    head = model.result.head(0)
    kv = labs.show("kv_cache")
    np.testing.assert_allclose(kv.decode.outputs, head.output, atol=1e-12)
    assert "max |cached − recomputed|" in kv.compare.text()
    tiles = labs.show("tiles")
    tiles.tabs.setCurrentIndex(1)
    tiles.block_q.setValue(3)
    tiles.block_k.setValue(3)
    np.testing.assert_allclose(tiles.flash.output, head.output, atol=1e-12)
    skipped = [t for t in tiles.flash.trace if t.skipped]
    assert any(t.cols[1] <= t.rows[0] - 4 for t in skipped)  # outside the window, skipped
    grads = labs.show("gradients")
    grads.target.setCurrentIndex(grads.target.findData("previous"))
    grads.lr.setValue(0.5)
    grads.train_blocking(5)
    assert len(grads.losses) == 5 and grads.losses[-1] < grads.losses[0]


def test_the_tiles_labs_grids_say_which_scores_they_show(labs):
    """The tiles grid was titled "scores QKᵀ·scale" over the scaled pane's numbers,
    which with RoPE, a temperature and ALiBi are RoPE(Q)·RoPE(K)ᵀ / √d_k / T + ALiBi
    (−1.5242 with T = 0.951 read as a plain QKᵀ·scale); the online tab's row said
    "scores" alone. Both now say what the scaled pane's title says."""
    model = labs.main_window.model
    model.set_options(positions="rope", temperature=0.951, alibi=(0.5,))
    assert model.wait_until_idle()
    formula = "RoPE(Q)·RoPE(K)ᵀ / √d_k / T(0.951) + ALiBi + mask"
    pane = labs.main_window.panes.panes["scaled"]
    assert formula in (pane.title.toolTip() or pane.title.text())
    tiles = labs.show("tiles")
    tiles.tabs.setCurrentIndex(1)
    tiles.go_to(0)
    title = tiles.tile_grid.title
    assert title.startswith(formula + ": tile 1 of ") and "QKᵀ·scale" not in title
    np.testing.assert_array_equal(tiles.tile_grid.data, model.result.head(0).scaled[
        :tiles.tile_grid.data.shape[0], :tiles.tile_grid.data.shape[1]])
    tiles.tabs.setCurrentIndex(0)
    tiles.row.setValue(3)
    tiles.go_to(0)
    assert tiles.scores_grid.title.startswith(f"row 3 of {formula} (block 1: ")
    tiles.factor.setValue(1000)
    tiles.go_to(0)
    assert tiles.scores_grid.title.startswith(f"row 3 of ({formula}) × 1000 (block 1: ")
    model.set_options(positions="none", temperature=1.0, alibi=None, causal=False)
    assert model.wait_until_idle()
    tiles.go_to(0)
    assert tiles.scores_grid.title.startswith("row 3 of (QKᵀ / √d_k) × 1000 (block 1: ")


# ----------------------------------------------------------------------- export

@pytest.mark.parametrize("key", ["kv_cache", "tiles", "gradients"])
def test_export_view_and_steps_pdf(labs, key, tmp_path):
    lab = labs.show(key)
    lab.go_to(1)
    for ext in ("png", "svg", "pdf"):
        path = tmp_path / f"view.{ext}"
        lab.export_view(path)
        assert path.stat().st_size > 1000
    assert (tmp_path / "view.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (tmp_path / "view.svg").read_bytes()[:2000]
    if key == "gradients":
        return  # training is not a step sequence: no steps export
    path = tmp_path / "steps.pdf"
    lab.export_steps(path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert _pages(path) == lab.step_count() > 1  # one page per step
    assert lab.position == 1  # back on the step it was on


@pytest.mark.parametrize("key", ["kv_cache", "tiles"])
def test_the_step_pages_show_the_lab_without_its_control_row(labs, key, tmp_path,
                                                            monkeypatch):
    """The handout's pages showed Reset, Back, Step, Play, the steps per second and the
    Export buttons: what to click, not what to read. They are left out of the pages,
    and back in the window after."""
    from qkv_desktop.views.teaching import lab_window
    lab = labs.show(key)
    controls = [lab.controls.reset, lab.controls.speed, lab.export_view_button,
                lab.export_steps_button]
    drawn, where = [], []
    real = lab_window.save_steps_pdf

    def save(widget, steps, path, title=""):
        def seen(step):
            step()
            drawn.append([c.isVisible() for c in controls])
            if lab.controls.where.isVisible():  # the page says which step it is
                where.append(lab.controls.where.text())
        return real(widget, (lambda s=s: seen(s) for s in steps), path, title)
    monkeypatch.setattr(lab_window, "save_steps_pdf", save)
    lab.export_steps(tmp_path / "steps.pdf")
    assert len(drawn) == lab.step_count() > 1
    assert not any(any(page) for page in drawn)
    assert all(c.isVisible() for c in controls)
    assert where == [f"step {k} of {lab.step_count()}" for k in range(1, lab.step_count() + 1)]


def test_each_step_page_draws_the_kv_cache_grown_by_its_row(labs, tmp_path, monkeypatch):
    """The pages drew a step's grids at the previous step's size: the K and V caches'
    new row (and the weight row's new column) were cut off on paper, though whole on
    the screen."""
    from qkv_desktop.export import lab_export
    lab = labs.show("kv_cache")
    real = lab_export._render
    cut = []

    def render(widget, *args):
        cut.extend((lab.position, name) for name, grid in lab.grids.items()
                   if grid.isVisible() and (grid.height() < grid.sizeHint().height()
                                            or grid.width() < grid.sizeHint().width()))
        return real(widget, *args)
    monkeypatch.setattr(lab_export, "_render", render)
    lab.export_steps(tmp_path / "steps.pdf")
    assert cut == []


def _pages(path) -> int:
    import subprocess
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return int(next(line.split()[-1] for line in out.stdout.splitlines()
                    if line.startswith("Pages:")))


def test_format_bytes_uses_binary_units():
    assert [format_bytes(n) for n in (0, 1023, 1536, 188_743_680, 3 * 2**50)] == \
        ["0 B", "1023 B", "1.5 KiB", "180 MiB", "3 PiB"]
    # three figures never in e-notation: 1000 MiB is the next unit's
    assert [format_bytes(n) for n in (999 * 2**20, 1000 * 2**20, 1023 * 2**30)] == \
        ["999 MiB", "0.977 GiB", "0.999 TiB"]
    # past PiB, the units go on: "7.15e+03 PiB" read as no unit (a first-time user)
    assert [format_bytes(n) for n in (8_053_063_680_000_000_000, 3 * 2**70, 5 * 2**80)] == \
        ["6.98 EiB", "3 ZiB", "5 YiB"]


def test_format_byte_count_is_whole_until_too_long():
    from qkv_desktop.presentation.sizes import format_byte_count
    assert format_byte_count(10_726_621_102, 14) == "10,726,621,102"
    assert format_byte_count(8_053_063_680_000_000_000, 14) == "≈ 8.05 × 10¹⁸"
    assert format_byte_count(123_456_789_012_345, 14) == "≈ 1.23 × 10¹⁴"


# ------------------------------------------------------------- closed labs

@pytest.mark.parametrize("key, work", [("tiles", "recompute_flash"),
                                       ("kv_cache", "memory"),
                                       ("gradients", "_show_target_and_weights")])
def test_a_closed_lab_does_no_work_on_edits_and_catches_up_when_shown(labs, key, work,
                                                                      monkeypatch):
    """A lab opened once stays alive when closed; recomputing its tiles, decode or
    target on every edit tripled an edit's GUI time at n = 1024. Closed, it does
    nothing; shown again, it shows the session as it is now."""
    lab = labs.show(key)
    model = labs.main_window.model
    lab.close()
    calls = []
    if key == "kv_cache":  # the decode itself: its memory line is set by each refresh
        original = lab.memory.set_session
        monkeypatch.setattr(lab.memory, "set_session",
                            lambda *a: (calls.append(a), original(*a)))
    else:
        original = getattr(lab, work)
        monkeypatch.setattr(lab, work, lambda *a: (calls.append(a), original(*a)))
    for value in (2.5, 3.5):
        model.set_cell("X", 0, 0, value)
        assert model.wait_until_idle()
    assert calls == []
    labs.show(key)
    assert len(calls) == 1
    if key == "tiles":
        assert lab.head is model.result.head(model.current_head)
    elif key == "kv_cache":
        assert lab.inputs.X[0, 0] == 3.5
    model.set_cell("X", 0, 0, 4.5)  # open: it follows every edit again
    assert model.wait_until_idle()
    assert len(calls) == 2


def test_the_gradient_plots_label_steps_as_whole_numbers_and_a_short_log_range(labs):
    """An empty plot read "step 0.1 … 0.9"; a gradient between 0.02 and 0.15 had one
    label ("0.1") on its log axis (the legend's place: test_gradient_lab_axis.py)."""
    from math import log10

    from qkv_desktop.views.teaching.log_axis import DecadeLogAxis, StepAxis
    lab = labs.show("gradients")
    bottom = lab.norm_plot.getPlotItem().getAxis("bottom")
    assert isinstance(bottom, StepAxis)
    ticks = [v for _spacing, values in bottom.tickValues(0.0, 1.0, 400) for v in values]
    assert ticks and all(v == int(v) for v in ticks)
    ticks = [v for _spacing, values in bottom.tickValues(0.0, 200.0, 400) for v in values]
    assert 100.0 in ticks and all(v == int(v) for v in ticks)
    left = lab.norm_plot.getPlotItem().getAxis("left")
    assert isinstance(left, DecadeLogAxis)
    values = [v for _s, vs in left.logTickValues(log10(0.02), log10(0.15), 300, None)
              for v in vs]
    assert [round(10 ** v, 6) for v in values] == [0.02, 0.05, 0.1]
    values = [v for _s, vs in left.logTickValues(log10(2e-4), log10(0.3), 300, None)
              for v in vs]
    assert [round(10 ** v, 6) for v in values] == [0.001, 0.01, 0.1]


def test_a_tiles_partial_output_says_which_columns_it_shows(labs):
    """It showed 16 of d_k = 64 columns without saying so."""
    from qkv_desktop.views.teaching.tiles_lab import PARTIAL_COLUMNS
    model = labs.main_window.model
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(1)
    lab.go_to(0)
    width = model.result.head(0).output.shape[1]
    assert width <= PARTIAL_COLUMNS and "columns" not in lab.partial_grid.title
    model.set_d_k(PARTIAL_COLUMNS + 8)
    assert model.wait_until_idle()
    lab.refresh()
    lab.go_to(0)
    assert lab.partial_grid.data.shape[1] == PARTIAL_COLUMNS
    assert f"columns 0…{PARTIAL_COLUMNS - 1} of {PARTIAL_COLUMNS + 8}" in lab.partial_grid.title


def test_the_scaling_comparison_refuses_a_single_dimension(labs):
    """Layer norm makes every row of a d_model = 1 session zeros: the comparison would
    train on nothing under a text about saturation."""
    lab = labs.show("gradients")
    model = labs.main_window.model
    model.load_state(SessionState.initialised(["a", "b", "c"], np.array([[0.5], [1.0], [2.0]]),
                                              d_k=1), "one dimension")
    assert model.wait_until_idle()
    lab.start_comparison()
    assert not lab.compare_worker.running and "d_model ≥ 2" in lab.error.text()


def test_the_steps_pdf_shows_each_row_of_controls_whole(labs, tmp_path, monkeypatch):
    """Drawn straight onto the PDF, the online-softmax lab's row of controls lost its
    top half under the tab above it on every page (found by a first-time user); the
    page now holds the lab as the screen shows it. Read where a reader looks: the
    "query row" spin box's upper half has the colours on the page it has on screen
    as the page is drawn (without the row of step buttons, which pages leave out)."""
    import subprocess

    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QImage

    from qkv_desktop.views.teaching import lab_window

    lab = labs.show("tiles")
    lab.go_to(0)
    box = lab.row
    shown = []
    real = lab_window.save_steps_pdf

    def save(widget, steps, path, title=""):
        def first(step):
            step()
            if not shown:
                lab.layout().activate()
                shown.append((lab.grab().toImage(), box.mapTo(lab, QPoint(0, 0))))
        return real(widget, (lambda s=s: first(s) for s in steps), path, title)
    monkeypatch.setattr(lab_window, "save_steps_pdf", save)
    path = tmp_path / "steps.pdf"
    lab.export_steps(path)
    subprocess.run(["pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-png", str(path),
                    str(tmp_path / "page")], check=True)
    page = QImage(str(next(tmp_path.glob("page*.png"))))
    screen, top_left = shown[0]
    differing, total = 0, 0
    for dx in range(2, box.width() - 2):
        for dy in range(0, box.height() // 2):
            x, y = top_left.x() + dx, top_left.y() + dy
            a, b = page.pixelColor(x, y), screen.pixelColor(x, y)
            total += 1
            differing += max(abs(a.red() - b.red()), abs(a.green() - b.green()),
                             abs(a.blue() - b.blue())) > 60
    # (edges of glyphs differ a little once the page is rasterised again: 3.6 % here;
    # drawn straight onto the PDF, 15.6 % of the box's upper half was another picture)
    assert differing < 0.08 * total, (differing, total)


# ------------------------------------------------------------ masked cells in the grids

def _cell_pixels(grid, r: int, c: int) -> list[tuple[int, int, int]]:
    """The colours on screen inside grid cell (r, c) (its border left out)."""
    image = grid.grab().toImage()
    ratio = image.devicePixelRatio()
    rect = grid._cell_rect(r, c).adjusted(3, 3, -3, -3)
    return [image.pixelColor(round(x * ratio), round(y * ratio)).getRgb()[:3]
            for x in range(int(rect.left()), int(rect.right()))
            for y in range(int(rect.top()), int(rect.bottom()))]


def assert_drawn_masked(grid, r: int, c: int) -> None:
    """Cell (r, c) reads as the panes' masked cell: mask grey under the grey hatching,
    no colour of the scale, and no number (it read "0.0000" on a pale weight cell)."""
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.presentation.colormaps import HATCH_RGBA, MASKED_RGBA
    QApplication.processEvents()  # the lab lays the grid out at its new size
    assert grid.rect().toRectF().contains(grid._cell_rect(r, c))  # on show
    pixels = _cell_pixels(grid, r, c)
    centre = grid._cell_rect(r, c).center()
    image = grid.grab().toImage()
    ratio = image.devicePixelRatio()
    assert image.pixelColor(round(centre.x() * ratio), round(centre.y() * ratio)).getRgb()[:3] \
        in (MASKED_RGBA[:3], HATCH_RGBA[:3])
    assert set(pixels) <= {MASKED_RGBA[:3], HATCH_RGBA[:3]}
    assert pixels.count(MASKED_RGBA[:3]) > len(pixels) / 2
    assert grid.texts()[r][c] == ""


def test_a_matrix_grid_draws_masked_cells_as_the_panes_do(qtbot):
    from qkv_desktop.presentation.colormaps import MASKED_RGBA
    from qkv_desktop.views.teaching.matrix_grid import MatrixGrid
    grid = MatrixGrid(probabilities=True)
    qtbot.addWidget(grid)
    grid.set_data([[1.0, 0.0, 0.0], [0.4, 0.6, 0.0]],
                  masked=[[False, True, True], [False, False, False]])
    grid.resize(grid.sizeHint())
    assert_drawn_masked(grid, 0, 1)
    assert_drawn_masked(grid, 0, 2)
    assert grid.texts()[1][2] == "0.0000"  # a weight of 0 the mask does not hide
    assert MASKED_RGBA[:3] not in _cell_pixels(grid, 1, 2)
    grid.set_data([0.5, -np.inf])  # a −∞ score: masked, as in the panes
    assert_drawn_masked(grid, 0, 1)


def test_the_gradient_labs_grids_draw_the_causal_mask_as_the_panes_do(labs):
    lab = labs.show("gradients")
    model = labs.main_window.model
    assert not model.result.head(0).allowed[0, 1]  # causal: token 0 does not see 1
    assert lab.weights_grid.data[0, 1] == 0.0
    assert_drawn_masked(lab.weights_grid, 0, 1)
    assert_drawn_masked(lab.target_grid, 0, 1)  # the target's 0 there, too
    assert lab.weights_grid.texts()[1][0] not in ("", "0.0000")  # a visible key


def test_the_tiles_labs_weights_draw_the_masked_keys_as_the_panes_do(labs):
    lab = labs.show("tiles")
    lab.tabs.setCurrentIndex(0)
    lab.row.setValue(2)
    lab.go_to(lab.step_count() - 1)
    for grid in (lab.online_grid, lab.naive_grid, lab.so_far_grid):
        assert grid.data[0, 5] == 0.0
        assert_drawn_masked(grid, 0, 5)
        assert grid.texts()[0][1] not in ("", "0.0000")
    assert_drawn_masked(lab.scores_grid, 0, 5)  # its −∞


def test_the_kv_stepper_draws_a_masked_key_as_the_panes_do(labs):
    from dataclasses import replace

    model = labs.main_window.model
    state = model.state
    model.reset(state.with_(options=replace(state.options, custom_mask=True,
                                            masked=((3, 1),))))
    assert model.wait_until_idle()
    lab = labs.show("kv_cache")
    lab.go_to(3)
    grid = lab.grids["weights"]
    assert grid.data[0, 1] == 0
    assert_drawn_masked(grid, 0, 1)
    assert grid.texts()[0][2] not in ("", "0.0000")


def test_undoing_a_run_says_the_curves_are_that_runs(labs):
    """After Ctrl+Z undid a run, the status line still read "step 40: loss …" over the
    weights of before it (a first user)."""
    lab = labs.show("gradients")
    model = labs.main_window.model
    lab.train_blocking(5)
    assert lab.status.text().startswith("step 5: loss")
    model.undo_stack.undo()
    assert "changed since this run" in lab.status.text()
    assert len(lab.losses) == 5  # the curves stay: how that run went
    model.undo_stack.redo()  # the trained state again: the note stays until a new run
    lab.train_blocking(2)
    assert lab.status.text().startswith("step 2: loss")


def _boxes(text: str, font) -> int:
    """How many characters of ``text`` no font here draws: each shows as an empty box."""
    from PySide6.QtGui import QTextLayout
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return sum(g == 0 for run in layout.glyphRuns() for g in run.glyphIndexes())


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("key", ["kv_cache", "tiles"])
def test_the_play_button_draws_every_character_playing_or_not(labs, key, lang, speak):
    """The play button's pause label showed an empty box before "Pause" in English and
    Chinese ("⏸": no font here has it; a review): both states now read whole, and the
    button shows which one it is by the style's own play or pause icon."""
    speak(lang)
    lab = labs.show(key)
    play = lab.controls.play
    seen = []
    for _state in range(2):
        assert play.text().strip()
        assert _boxes(play.text(), play.font()) == 0, play.text()
        assert not play.icon().isNull()
        seen.append(play.text())
        lab.toggle_play()
        lab.controls.show_state()
    lab.timer.stop()
    assert seen[0] != seen[1]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_calculators_boxes_stay_put_when_its_red_line_appears(labs, speak, lang):
    """A refusal beside the table, wrapped to several lines, made the group higher, and
    its boxes moved down under the pointer (a review): they keep their places, and so
    does what is below the calculator."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    speak(lang)
    lab = labs.show("kv_cache")
    lab.resize(1024, 700)
    calc = lab.memory
    calc.select("custom")
    calc.query_heads.setValue(8)
    calc.kv_heads.setValue(8)
    QApplication.processEvents()
    boxes = (calc.preset, calc.layers, calc.query_heads, calc.kv_heads, calc.head_dim,
             calc.tokens, calc.dtype)
    where = [box.mapTo(lab, QPoint(0, 0)) for box in boxes]
    below = calc.geometry().bottom()
    calc.query_heads.setValue(9)  # 8 KV heads cannot share 9 query heads: refused
    QApplication.processEvents()
    assert calc.problem.isVisibleTo(calc) and calc.problem.text()
    assert [box.mapTo(lab, QPoint(0, 0)) for box in boxes] == where
    assert calc.geometry().bottom() == below
    assert calc.problem.height() >= calc.problem.heightForWidth(calc.problem.width())
    # the longest note: a clamp, and why the GQA row is empty
    calc.kv_heads.setValue(7)
    calc.query_heads.lineEdit().setText("99999999999")  # 1024, which 7 does not divide
    calc.query_heads.interpretText()
    calc.query_heads.editingFinished.emit()
    QApplication.processEvents()
    assert "1024" in calc.problem.text() and "9" in calc.problem.text(), calc.problem.text()
    assert [box.mapTo(lab, QPoint(0, 0)) for box in boxes] == where
    assert calc.geometry().bottom() == below
    assert calc.problem.height() >= calc.problem.heightForWidth(calc.problem.width())


def test_the_memory_tables_copy_is_rows_of_cells(labs, qtbot):
    """Copied, the calculator's table was one cell a line (a QLabel's table): a paste
    into a spreadsheet was one column. A row is a line, its cells a tab apart."""
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QApplication
    calc = labs.show("kv_cache").memory
    calc.select("SmolLM2-135M")
    result = calc.result
    result.setFocus()
    document = QTextDocument()
    document.setHtml(result.text())
    result.setSelection(0, document.characterCount() - 1)  # all of it
    qtbot.keyClick(result, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QApplication.clipboard().text().split("\n")
    # the formula above the table too, on its own line (the first version left it out)
    assert lines[0].startswith("2 (K and V) × 30 layers × KV heads × 64"), lines
    gqa = next(line for line in lines if line.startswith("grouped-query"))
    sizes = calc.sizes()
    assert gqa.split("\t") == ["grouped-query (GQA)", "3", format_bytes(sizes["GQA"]),
                               f"{sizes['GQA']:,}"], lines


def test_kv_stepper_counts_units_in_the_last_place_of_the_largest_value(labs):
    """"equal to rounding (0.7110 units in the last place …)" was the difference over
    ε·|largest|, where ε is the spacing of floats at 1: a difference of exactly one unit
    at the largest value read 0.7110 (an audit). The count is now over the spacing at
    the largest value, and a difference that rounds to 0.0000 keeps its digits."""
    import re

    lab = labs.show("kv_cache")
    seen = 0
    for t in range(lab.step_count()):
        lab.go_to(t)
        step = lab.decode.steps[t]
        again = lab.recomputed(t)
        diff = float(np.max(np.abs(step.output - again)))
        text = lab.compare.text()
        if diff == 0:
            assert "equal to the last bit" in text
            continue
        seen += 1
        top = float(np.max(np.abs(again)))
        units = float(re.search(r"rounding \(([\d.]+) × the unit", text).group(1))
        assert units == pytest.approx(diff / np.spacing(top), abs=5e-5)
        assert f"= {format_nonzero(diff)}:" in text and "= 0.0000:" not in text
    assert seen, "no step differed from its recompute: nothing was checked"


def test_kv_stepper_grids_and_comparison_keep_still_while_stepping(main_window, speak):
    """On the tutorial's session the q grid's row names widened from "0·我" to "2·人工"
    as steps went on, and the K and V caches and the comparison beside them moved right
    (15–21 px, a first-time user): the grids keep room for every step's names from the
    first step. (A longer session's weight row still widens the grid as it grows.)"""
    from PySide6.QtWidgets import QApplication

    for lang in ("en", "zh_CN"):
        speak(lang)
        lab = main_window.run_labs.show("kv_cache")
        spots = set()
        for t in range(lab.step_count()):
            lab.go_to(t)
            QApplication.processEvents()
            spots.add(tuple(w.mapTo(lab, w.rect().topLeft()).x()
                            for w in (lab.grids["K"], lab.grids["V"], lab.compare)))
        assert lab.step_count() > 2 and len(spots) == 1, (lang, spots)
    lab.close()  # (as the run_labs fixture leaves its labs)
    lab.deleteLater()
    main_window.run_labs.windows.clear()
