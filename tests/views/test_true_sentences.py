"""Every sentence the app says about attention is true for the session at hand (issue 17).

One test per false claim the audit found, each failing on the code that made it: the
symmetric-weights error (scores are symmetric with W_Q = W_K, weights are not), p(1−p)
as "the gradient", the uniform banner's overstatements, the status-bar formulas,
underflow reported as overflow, the smaller errors, d_k after h = 2 → 1, and a grep
that none of the false sentences survives in the code, the README or the translation.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.core.lessons import row_stats
from qkv_desktop.core.weights import Weights
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.presentation.pane_info import pane_title
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.compute import compute
from qkv_desktop.state.readouts import broken_rows, seeded_weights
from qkv_desktop.state.session_state import Options

ROOT = Path(__file__).resolve().parents[2]


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def plain(html_text: str) -> str:
    return re.sub(r"<[^>]+>", "", html_text)


def model_on(state: SessionState) -> AttentionModel:
    model = AttentionModel(state)
    assert model.wait_until_idle()
    return model


# -- 6: shared W_Q = W_K makes the scores symmetric, not the weights -------------------

def test_shared_weights_give_symmetric_scores_and_asymmetric_weights(qtbot):
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView
    state = SessionState.from_preset("tutorial-2")
    state = state.with_(options=Options(share_qk=True))
    result = compute(state)
    r = result.head(0)
    np.testing.assert_allclose(r.scores, r.scores.T)
    assert r.weights[1, 0] == pytest.approx(0.2870, abs=5e-5)  # w[追→猫]
    assert r.weights[0, 1] == pytest.approx(0.3755, abs=5e-5)  # w[猫→追]
    kk = result.kk(0)
    assert kk.pair == (0, 1)
    np.testing.assert_allclose(kk.weights, r.weights)  # shared: KKᵀ is the real score
    view = shown(qtbot, SymmetryView(model_on(state)))
    qtbot.waitUntil(lambda: view.lesson.text() != "")
    text = plain(view.lesson.text())
    assert "w[追→猫] = 0.2870" in text and "w[猫→追] = 0.3755" in text
    assert "exactly as" not in plain(view.explanation.text())


def test_the_kk_lesson_quotes_the_weights_the_mask_leaves(qtbot):
    """Under the causal mask it quoted w[人工→智能] = 0.2516, a weight the mask sets to
    0 (the weights were KKᵀ's softmax without the mask). With W_Q = W_K the lesson's
    weights are the head's own, mask and all; a causal head has no pair to compare."""
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView
    causal = SessionState.from_preset("tutorial-2").with_(
        options=Options(share_qk=True, causal=True))
    result = compute(causal)
    kk = result.kk(0)
    np.testing.assert_allclose(kk.weights, result.head(0).weights)  # the real ones
    assert kk.pair is None
    view = shown(qtbot, SymmetryView(model_on(causal)))
    qtbot.waitUntil(lambda: view.lesson.text() != "")
    assert "under this mask none do" in plain(view.lesson.text())
    assert "w[" not in plain(view.lesson.text())
    # a prefix of two tokens sees itself both ways: the pair is inside it
    prefix = SessionState.from_preset("tutorial-2").with_(
        options=Options(share_qk=True, causal=True, prefix=2))
    result = compute(prefix)
    kk = result.kk(0)
    np.testing.assert_allclose(kk.weights, result.head(0).weights)
    assert kk.pair == (0, 1)
    assert not compute(SessionState.from_preset("tutorial-2").with_(
        options=Options(share_qk=True))).kk(0).masked_out


def test_the_kk_lesson_turns_rope_keys_as_the_scores_do():
    """With RoPE, W_Q = W_K scores RoPE(K)·RoPE(K)ᵀ, not KKᵀ (the lesson's weights
    differed from the head's own)."""
    rope = SessionState.from_preset("tutorial-1").with_(
        options=Options(share_qk=True, positions="rope"))
    result = compute(rope)
    kk = result.kk(0)
    np.testing.assert_allclose(kk.kk, result.head(0).scores, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(kk.weights, result.head(0).weights, rtol=1e-12)


def _shared(positions: str = "none", mode: str = "self") -> SessionState:
    from qkv_desktop.state.edits import set_mode
    state = SessionState.from_preset("tutorial-1").with_(  # (d_k = 4: RoPE's pairs)
        options=Options(share_qk=True, positions=positions))
    return set_mode(state, "cross").state if mode == "cross" else state


def test_the_scores_pane_says_what_one_shared_w_makes_of_them():
    """With W_Q = W_K the scores pane said "= KKᵀ (shared W)" above RoPE(K)'s products
    (a first user's KKᵀ by hand was 2.41 where it showed 1.9203) and above the
    asymmetric scores of cross-attention, whose K comes from another sequence."""
    plain_qk = compute(_shared())
    r = plain_qk.head(0)
    np.testing.assert_allclose(r.scores, r.K @ r.K.T)
    assert "QKᵀ = KKᵀ (shared W)" in pane_title(plain_qk, "scores")
    turned = compute(_shared("rope"))
    r = turned.head(0)
    assert not np.allclose(r.scores, r.K @ r.K.T)  # what the title used to claim
    np.testing.assert_allclose(r.scores, r.K_rope @ r.K_rope.T)
    assert "RoPE(Q)·RoPE(K)ᵀ = RoPE(K)·RoPE(K)ᵀ (shared W)" in pane_title(turned, "scores")
    for positions in ("none", "rope"):
        cross = compute(_shared(positions, "cross"))
        r = cross.head(0)
        assert r.scores.shape != (r.K @ r.K.T).shape or not np.allclose(r.scores, r.K @ r.K.T)
        title = pane_title(cross, "scores")
        assert "(shared W)" in title and " = " not in title, title
    assert pane_title(compute(SessionState.from_preset("tutorial-1")), "scores") == "QKᵀ (4×4)"


def test_the_kk_view_names_rope_keys_and_quotes_no_key_weights_in_cross_attention(qtbot):
    """The QKᵀ | KKᵀ view named KKᵀ what was RoPE(K)·RoPE(K)ᵀ, and in cross-attention
    quoted the weights of keys attending to keys ("w[k2→k0] = 0.1286"), which no pane
    shows: there the keys are not the queries."""
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView
    view = shown(qtbot, SymmetryView(model_on(_shared("rope"))))
    qtbot.waitUntil(lambda: view.lesson.text() != "")
    assert "RoPE(K)·RoPE(K)ᵀ" in plain(view.kk_title.text())
    assert "RoPE(Q)·RoPE(K)ᵀ" in plain(view.qk_title.text())
    kk = compute(_shared("rope")).kk(0)
    i, j = kk.pair
    assert f"RoPE(K)·RoPE(K)ᵀ[{i}" not in plain(view.lesson.text())  # token names, not indices
    assert "With W_Q = W_K, RoPE(K)·RoPE(K)ᵀ[" in plain(view.lesson.text())
    assert "RoPE(K)·RoPE(K)ᵀ, symmetric" in view.kk.toolTip()
    cross = shown(qtbot, SymmetryView(model_on(_shared(mode="cross"))))
    qtbot.waitUntil(lambda: cross.lesson.text() != "")
    text = plain(cross.lesson.text())
    assert text.startswith("Cross-attention:") and "w[" not in text
    title = plain(cross.kk_title.text())
    assert "KKᵀ (keys against keys)" in title and "as if W_Q = W_K" not in title
    assert "not what one shared W gives" in cross.kk.toolTip()
    rope_cross = shown(qtbot, SymmetryView(model_on(_shared("rope", "cross"))))
    qtbot.waitUntil(lambda: rope_cross.lesson.text() != "")
    assert "the scores RoPE(Q)·RoPE(K)ᵀ are not RoPE(K)·RoPE(K)ᵀ" in plain(
        rope_cross.lesson.text())


# -- 7: p(1−p) is the diagonal of the softmax Jacobian ----------------------------------

def test_the_jacobian_norm_is_that_of_diag_p_minus_ppT():
    scores = np.array([[2.0, 1.5, 0.5, -0.5, -1.0], [9.0, 0.0, 0.0, 0.0, 0.0]])
    stats = row_stats(scores)
    for p, norm, mean in zip(stats.weights, stats.jacobian_norm, stats.mean_gradient,
                             strict=True):
        J = np.diag(p) - np.outer(p, p)
        assert norm == pytest.approx(np.linalg.norm(J), rel=1e-12)
        assert mean == pytest.approx(np.diag(J).mean(), rel=1e-12)  # the tutorial's p(1−p)


def test_the_scaling_lab_names_p1p_for_what_it_is(qtbot):
    from qkv_desktop.views.teaching.scaling_lab import ScalingLab
    lab = ScalingLab(model_on(SessionState.from_preset("tutorial-1")))
    qtbot.addWidget(lab)
    plots = lab.random_plots.plots
    assert "jacobian_norm" in plots  # the whole Jacobian beside the tutorial's mean p(1−p)
    titles = " ".join(p.getPlotItem().titleLabel.text for p in plots.values())
    tips = " ".join(p.toolTip() for p in plots.values())
    assert "stops learning" not in titles + tips + lab.intro.text()
    assert "diagonal" in plots["mean_gradient"].toolTip()
    assert "W_Q and W_K" in lab.intro.text() and "path through V" in lab.intro.text()
    assert "(1/n)(1−1/n)" in lab.random_plots.legend.text()  # item 11: the legend
    assert "not a proven optimum" in lab.intro.text() and "GPT-3 175B" in lab.intro.text()


# -- 8: the uniform banner states the facts of this session ---------------------------

def banners_for(qtbot, state):
    from qkv_desktop.views.teaching.lesson_banners import LessonBanners
    banners = shown(qtbot, LessonBanners(model_on(state)))
    return banners, plain(banners.uniform.label.text()), banners.uniform.label.text()


def test_the_uniform_banner_measures_the_diagonal_and_the_tutorials_claim(qtbot):
    _, text, rich = banners_for(qtbot, SessionState.from_preset("tutorial-1"))
    assert "here it is not" not in text
    assert "largest weight in 1 of 4 rows" in text  # 智能's 0.2520 is on the diagonal
    assert "爱→智能 = 0.2490" in text and "爱's smallest weight is on 智能" in text
    assert "randn × 0.1" in text and "href='scale'" in rich


def test_the_tutorials_claim_under_a_mask_counts_only_the_keys_seen(qtbot):
    """Causal: 智能 comes after 爱, so 爱→智能 = 0 is the mask's, not a lesson, and 1/n
    is not 1/4 (it read "爱→智能 = 0.0000 (1/n = 0.2500)", smallest weight on a masked
    key); a custom mask that hides 人工 only: 1/n counts the 3 keys 爱 sees."""
    causal = SessionState.from_preset("tutorial-1").with_(options=Options(causal=True))
    _, text, _ = banners_for(qtbot, causal)
    if "commentary" in text:  # the banner shows when the causal rows stay near uniform
        assert "the mask hides some of them from 爱" in text
        assert "爱→智能 = 0.0000" not in text and "1/n = 0.2500" not in text
    hidden = SessionState.from_preset("tutorial-1").with_(
        options=Options(custom_mask=True, masked=((1, 2),)))  # 爱 does not see 人工
    _, text, _ = banners_for(qtbot, hidden)
    assert "1/n = 0.3333" in text
    assert "smallest weight is on 人工" not in text


def test_under_a_mask_the_uniform_headline_says_which_n_it_means(qtbot):
    """Causal: row 0 sees one key, its weight is 1.0000, and "every weight is within
    0.0021 of 1/n" read as n = 4 tokens was false (a first-time user); the measure is
    1/(the keys the query sees), and the headline ("visible keys") and details say so."""
    causal = SessionState.from_preset("tutorial-1").with_(options=Options(causal=True))
    banners, text, _ = banners_for(qtbot, causal)
    headline = plain(banners.uniform.headline.text())
    assert headline.endswith("of 1/(visible keys).") and "1/n." not in headline
    assert "n = the keys a query sees under the mask" in text
    # row 0 sees one key: its entropy is 0, not > 99 % of log 1 (a first-time user)
    assert "every row's entropy" not in text
    assert "every row that sees two or more keys has entropy > 99% of log n" in text
    hidden = SessionState.from_preset("tutorial-1").with_(options=Options(
        custom_mask=True, masked=((1, 2),)))  # every query sees three keys or more
    _, text, _ = banners_for(qtbot, hidden)
    assert "every row's entropy > 99% of log n" in text and "sees one key" not in text
    banners, text, _ = banners_for(qtbot, SessionState.from_preset("tutorial-1"))
    assert plain(banners.uniform.headline.text()).endswith("of 1/n.")
    assert "under the mask" not in text


def test_the_uniform_banner_blames_the_temperature_and_spares_real_weights(qtbot):
    hot = SessionState.from_preset("tutorial-2").with_(options=Options(temperature=10.0))
    _, text, rich = banners_for(qtbot, hot)
    assert "T = 10" in text and "randn" not in text and "href='temperature'" in rich
    typed = SessionState.from_preset("tutorial-1")
    w = typed.heads[0]
    typed = typed.with_(heads=(dataclasses.replace(w, W_V=w.W_V * 2),))
    assert not seeded_weights(typed)
    _, text, rich = banners_for(qtbot, typed)
    assert "randn" not in text and "href='scale'" not in rich  # would discard these weights


# -- 9: the status-bar formula of the projection really used ---------------------------

def test_status_bar_formulas_for_shared_weights_biases_and_naive_softmax(qapp):
    shared = compute(SessionState.from_preset("tutorial-2").with_(
        options=Options(share_qk=True)))
    assert "= X[猫]·W_K[:, 0] =" in describe_cell(shared, CellRef("Q", 0, 0, 0))
    assert "Q = X·W_K (queries)" in pane_title(shared, "Q")
    s = SessionState.from_preset("tutorial-1")
    w = s.heads[0]
    biased = compute(s.with_(heads=(Weights(w.W_Q, w.W_K, w.W_V, np.ones(4), np.ones(4),
                                            np.ones(4)),)))
    for m in ("Q", "K", "V"):
        assert f"·W_{m}[:, 1] + b_{m}[1] =" in describe_cell(biased, CellRef(m, 0, 1, 0))
        assert f"X·W_{m} + b_{m}" in pane_title(biased, m)
    naive = compute(s.with_(options=Options(stable=False)))
    assert "= exp(s)/Σ =" in describe_cell(naive, CellRef("weights", 0, 1, 0))
    assert "exp(s−max)" in describe_cell(compute(s), CellRef("weights", 0, 1, 0))


# -- 10: underflow is not overflow ---------------------------------------------------------

def underflowing_state() -> SessionState:
    """Scores of −1600 and below: every exp(s) is 0 in float64, no exp overflows."""
    return SessionState(("a", "b"), np.array([[1.0], [2.0]]),
                        (Weights(np.array([[-40.0]]), np.array([[40.0]]),
                                 np.array([[1.0]])),),
                        options=Options(stable=False))


def test_underflow_is_named_underflow_everywhere(qtbot):
    from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    state = underflowing_state()
    result = compute(state)
    assert np.isnan(result.head(0).weights).all()
    assert result.lessons(0).broken_rows == (0, 2, 0)
    assert broken_rows(np.array([[800.0, 0.0], [-900.0, -800.0]])) == (1, 1, 0)
    model = model_on(state)
    banners, _, _ = banners_for(qtbot, state)
    text = plain(banners.overflow.label.text())
    assert "underflowed" in text and "overflowed" not in text
    diag = shown(qtbot, DiagnosticsPanel(model))
    qtbot.waitUntil(lambda: diag.summary.text() != "")
    assert "2 rows underflowed" in diag.summary.text()
    assert "overflow" not in diag.summary.text()
    explain = ExplainPanel(model)
    qtbot.addWidget(explain)
    model.set_selection(CellRef("weights", 0, 1, 0))
    text = plain(explain.html())
    assert "Underflow" in text and "∞ / ∞" not in text


def sum_overflowing_state() -> SessionState:
    """Every scaled score 709.5: each exp(s) ≈ 1.4e308 is finite, the sum of a row's two
    is ∞ in float64, and every weight is exp(s)/∞ = 0 (a domain review)."""
    x = np.sqrt(709.5)
    return SessionState(("a", "b"), np.array([[x], [x]]),
                        (Weights(np.array([[1.0]]), np.array([[1.0]]), np.array([[1.0]])),),
                        options=Options(stable=False))


def test_a_row_whose_exp_sum_overflows_is_said_broken_not_healthy(qtbot):
    from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    state = sum_overflowing_state()
    result = compute(state)
    r = result.head(0)
    assert np.isfinite(np.exp(r.scaled)).all() and (r.weights == 0).all()
    assert result.lessons(0).broken_rows == (0, 0, 2)
    assert broken_rows(np.array([[709.5, 709.5], [709.5, 0.0]])) == (0, 0, 1)
    banners, _, _ = banners_for(qtbot, state)
    assert banners.overflow.isVisibleTo(banners)
    headline, text = banners.overflow.headline.text(), plain(banners.overflow.label.text())
    assert headline == "Naive softmax broke: every weight of 2 rows is 0."
    assert "nothing has" not in text and "sum overflows to ∞" in text
    model = model_on(state)
    diag = shown(qtbot, DiagnosticsPanel(model))
    qtbot.waitUntil(lambda: diag.summary.text() != "")
    assert "2 rows' sums overflowed" in diag.summary.text()
    assert "Mean H" not in diag.summary.text()
    # symmetric scores (W_Q = W_K) and every weight 0: the weights do not "still differ"
    qtbot.waitUntil(lambda: "symmetric scores" in diag.asymmetry_label.text())
    assert "the weights may still differ" in diag.asymmetry_label.text()
    # no distribution in those rows: no statistics, as for the rows of NaN weights
    u = result.lessons(0).uniformity
    assert np.isnan(u.entropy).all() and np.isnan(u.max_weight).all()
    assert np.isnan(r.entropy).all() and np.isnan(r.max_weight).all()
    assert np.isnan(r.mean_gradient).all()
    explain = ExplainPanel(model)
    qtbot.addWidget(explain)
    model.set_selection(CellRef("weights", 0, 1, 0))  # its breakdown ends with the output
    text = plain(explain.html())
    assert "= ∞" in text and "sum to 1" not in text
    assert "weights sum to 0.0000, not 1" in text


# -- 11: the smaller errors ------------------------------------------------------------------

def test_explain_panel_says_scaled_scores_and_weighted_average(qtbot):
    from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    model = model_on(SessionState.from_preset("tutorial-1").with_(
        options=Options(stable=False)))
    explain = ExplainPanel(model)
    qtbot.addWidget(explain)
    model.set_selection(CellRef("weights", 1, 3, 0))
    text = plain(explain.html())
    assert "raw scores" not in text and "scaled scores as they are" in text
    assert "weighted average of the value vectors" in text
    headers = DiagnosticsPanel(model).rows._headers
    assert "entropy H (nats)" in headers


# -- 6-13 in the words: none of the false sentences is left -------------------------------

FALSE_CLAIMS = [
    "exactly as j",                  # 6: weights are not symmetric with W_Q = W_K
    "必然等于",
    "stops learning",                # 7: p(1−p) is one diagonal of the Jacobian
    "stop learning",
    "停止学习",
    "学不到",
    "here it is not",                # 8: 智能's diagonal is its row maximum
    "exp sees the raw",              # 11: exp sees the scaled scores
    "an average of the value",       # 11: a weighted average
    "counted from 0",                # 13: one numbering in the window, from 1
    "of 0 …",
]

CLAIM_EXEMPT = {
    # The command line counts layers and heads from 0, as scripts and the tensor names
    # do (issue 21 asks for it), and its --help says so next to the window's name.
    "counted from 0": {"qkv_desktop/app/render_cli.py"},
}


def test_no_false_claim_is_left_in_code_readme_or_translation():
    files = [*sorted((ROOT / "qkv_desktop").rglob("*.py")), ROOT / "README.md",
             *sorted((ROOT / "qkv_desktop" / "resources" / "translations").glob("*.ts"))]
    found = [(claim, f.relative_to(ROOT).as_posix()) for f in files
             for claim in FALSE_CLAIMS if claim in f.read_text(encoding="utf-8")
             and f.relative_to(ROOT).as_posix() not in CLAIM_EXEMPT.get(claim, ())]
    assert found == []


def test_the_readmes_percentages_of_tutorial_1_are_what_the_diagnostics_show():
    """The README quoted "99.997 %", which no row of tutorial-1 reads (a domain review):
    the range it quotes is the diagnostics' own lowest and highest."""
    from qkv_desktop.core.lessons import row_uniformity
    from qkv_desktop.presentation.numbers import format_percent
    r = compute(SessionState.from_preset("tutorial-1")).head(0)
    fractions = row_uniformity(r.scaled, r.weights, r.entropy, r.max_weight).fraction
    quoted = re.search(r"tutorial-1's rows read ([\d.]+) % to ([\d.]+) %",
                       (ROOT / "README.md").read_text(encoding="utf-8"))
    assert quoted is not None
    assert (quoted[1] + "%", quoted[2] + "%") == (format_percent(fractions.min()),
                                                  format_percent(fractions.max()))


def test_the_status_bar_names_rope_in_a_scaled_score_and_alibi_goes_to_scaled_scores():
    """With RoPE the scores are RoPE(Q)·RoPE(K)ᵀ: the scaled score's line said QKᵀ, and
    the bias pane said ALiBi is added to the scores, not the scaled ones (a review)."""
    state = SessionState.from_preset("tutorial-1").with_(options=Options(positions="rope"))
    result = compute(state)
    line = describe_cell(result, CellRef("scaled", 0, 1, 0))
    assert "= RoPE(Q)·RoPE(K)ᵀ / 2 = " in line and "QKᵀ /" not in line.replace("RoPE(K)ᵀ", "")
    plain_line = describe_cell(compute(SessionState.from_preset("tutorial-1")),
                               CellRef("scaled", 0, 1, 0))
    assert "= QKᵀ / 2 = " in plain_line
    from qkv_desktop.presentation.pane_info import pane_tip
    assert "added to the scaled scores" in pane_tip("bias")


def test_a_narrow_overflow_banner_shows_a_shorter_wording_whole(qtbot):
    """At 1024 × 700 the headline read "Naive softmax overflowed: 14 of 16 wei…", cut
    mid-word (a first-time user); the README promises a shorter wording shown whole."""
    s = SessionState.from_preset("tutorial-1")
    state = s.with_(X=s.X * 10_000, options=Options(stable=False))
    banners, _, _ = banners_for(qtbot, state)
    headline = banners.overflow.headline
    assert banners.overflow.isVisible()
    assert plain(headline.text()).startswith("Naive softmax overflowed: ")
    shown = []
    for width in (900, 560, 400):
        banners.resize(width, banners.height())
        qtbot.waitUntil(lambda w=width: banners.overflow.width() <= w)
        assert not headline.is_elided(), (width, headline.shown_text())
        assert headline.shown_text().startswith("Naive softmax overflowed"), width
        shown.append(headline.shown_text())
    assert "of 16 weights" in shown[1], shown  # its count, where it fits
