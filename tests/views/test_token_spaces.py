"""A token's spaces are seen wherever a sentence or a table names it.

A byte-level model's words start with a space (" of"): the status bar wrote
"w[ of→ of] = …", which read as a stray space, and a trailing space was not seen at all
(a first-time user with SmolLM2). Sentences and tables write them as ␣
(``presentation.texts.token_in_text``); the state keeps the token as it is.
"""

from __future__ import annotations

import re

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.presentation.cell_tip import cell_tip
from qkv_desktop.presentation.texts import token_in_text
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.compute import compute

TOKENS = ("The", " capital", " of", "France ")


def spaced() -> SessionState:
    return SessionState.from_preset("tutorial-1").with_(tokens=TOKENS)


def test_spaces_at_a_tokens_edges_are_written_visibly_and_inner_ones_kept():
    assert token_in_text(" of") == "␣of"
    assert token_in_text("France ") == "France␣"
    assert token_in_text("New York") == "New York"
    assert token_in_text("  ") == "␣␣"
    assert token_in_text("爱") == "爱"


def test_the_status_bar_and_the_tip_name_space_led_tokens_with_a_visible_space(qapp):
    result = compute(spaced())
    assert result.state.tokens == TOKENS  # the state keeps the token as it is
    weight = describe_cell(result, CellRef("weights", 2, 1, 0))
    assert weight.startswith("w[␣of→␣capital] = "), weight
    assert "[ " not in weight and "→ " not in weight
    assert describe_cell(result, CellRef("Q", 3, 0, 0)).startswith("Q[France␣, 0] = ")
    tip = re.sub(r"<[^>]+>", "", cell_tip(result, CellRef("weights", 2, 1, 0)))
    assert "row ␣of (query) · column ␣capital (key)" in tip, tip


def test_the_explain_and_diagnostics_panels_name_them_the_same_way(qtbot):
    from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    model = AttentionModel(spaced())
    assert model.wait_until_idle()
    explain = ExplainPanel(model)
    qtbot.addWidget(explain)
    model.set_selection(CellRef("weights", 2, 1, 0))
    text = re.sub(r"<[^>]+>", "", explain.html())
    assert "w[␣of → ␣capital]" in text, text[:300]
    for ref, name in ((CellRef("Q", 2, 0, 0), "␣of"), (CellRef("X", 3, 0, 0), "France␣")):
        model.set_selection(ref)
        text = re.sub(r"<[^>]+>", "", explain.html())
        assert name in text and " of," not in text and "France ," not in text, text[:300]
    panel = DiagnosticsPanel(model)
    qtbot.addWidget(panel)
    panel.show()  # the diagnostics work only while on screen
    qtbot.waitUntil(lambda: panel.table.model().rowCount() == len(TOKENS))
    rows = panel.table.model()
    names = [rows.data(rows.index(i, 0)) for i in range(len(TOKENS))]
    assert names == ["The", "␣capital", "␣of", "France␣"]
    most = {rows.data(rows.index(i, 4)) for i in range(len(TOKENS))}
    assert not any(k.startswith(" ") or k.endswith(" ") for k in most), most
