"""The Chinese interface in the tutorial's and the field's terms (issue 17, items 15-17).

Row and column numbers read as the app shows them elsewhere (not "第 0 列"), formulas
and shapes go through tr(), one ellipsis, one way to name a head, 缩放点积注意力 and
多头注意力 where the mechanism is named, and Qt's own file dialog in Chinese too.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtWidgets import QFileDialog, QLabel

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.views import i18n

TS = i18n.catalogue_path("zh_CN").with_suffix(".ts")


def translations() -> dict[str, str]:
    return {m.findtext("source"): m.findtext("translation") or ""
            for m in ET.parse(TS).iter("message")}


def test_the_file_dialog_speaks_chinese(chinese, qtbot):
    dialog = QFileDialog()
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    labels = [label.text() for label in dialog.findChildren(QLabel)]
    assert "查找范围(&L)：" in labels and "文件类型(&T)：" in labels
    assert not any("Look in" in t or "Files of" in t for t in labels)


def test_explain_panel_in_chinese_numbers_rows_as_shown_and_translates_the_formula(
        chinese, qtbot):
    from qkv_desktop.views.teaching.explain_panel import ExplainPanel
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    assert model.wait_until_idle()
    panel = ExplainPanel(model)
    qtbot.addWidget(panel)
    model.set_selection(CellRef("weights", 1, 3, 0))
    text = re.sub(r"<[^>]+>", "", panel.html())
    assert "（行 1）" in text and "（列 3）" in text  # the indices the tables show
    assert "第 0" not in text and "QKᵀ / (除数 · T)" in text and "divisor" not in text
    assert "共 4 个乘积" in text


def test_the_catalogue_uses_one_ellipsis_one_head_name_and_the_fields_terms():
    zh = translations()
    values = list(zh.values())
    assert not [t for t in values if re.search(r"(?<!…)…(?!…)\s*$", t)], "menus end in ……"
    assert not [t for t in values if re.search(r"第 \{\d\} 个头", t)], "头 {0}, one head name"
    assert any("缩放点积注意力" in t for t in values)
    assert any("多头注意力" in t for t in values)
    assert zh["without ÷√d_k"] == "不除以 √d_k"
    assert zh["Tokens (X)"] == "词元（X）"
    assert "只应用了一半" not in zh[next(s for s in zh if s.startswith("An unexpected error"))]
    assert "若 W_Q = W_K，分数为 KKᵀ" in zh[next(s for s in zh
                                               if s.startswith("The scores if W_Q were W_K"))]


def test_mask_rules_are_listed_with_the_chinese_enumeration_comma(chinese):
    from types import SimpleNamespace

    from qkv_desktop.core.masks import MaskSpec
    from qkv_desktop.presentation.pane_info import mask_formula
    state = SimpleNamespace(mask_spec=lambda: MaskSpec(causal=True, window=2, sinks=1))
    text = mask_formula(state)
    assert "、" in text and ", " not in text, text


def test_refusals_of_positions_and_masks_are_said_in_chinese(chinese, qtbot):
    """The state's own refusals (RoPE needs an even d_k; a mask may not empty a row)
    reach the learner in the interface language, with rows counted from 1."""
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    with pytest.raises(ValueError) as refused:
        model.set_d_k(3)
        model.set_options(positions="rope")
    assert "d_k 必须是偶数" in str(refused.value), refused.value
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    model.set_options(custom_mask=True)
    with pytest.raises(ValueError) as refused:
        model.set_masked([(0, j) for j in range(4)], True)
    assert "没有任何可关注的键" in str(refused.value) and "行 0" in str(refused.value)


@pytest.mark.parametrize("typed, said", [("abc", "不是数字"), ("1,5", "小数点请用英文句点"),
                                         ("inf", "只能使用有限的数")])
def test_a_refused_cell_value_is_explained_in_chinese(chinese, typed, said):
    from qkv_desktop.presentation.texts import say
    from qkv_desktop.state.parsing import ParseError, parse_number
    with pytest.raises(ParseError) as refused:
        parse_number(typed)
    assert said in say(refused.value) and repr(typed) in say(refused.value)
    assert said not in str(refused.value)  # the state layer itself stays English


def test_a_value_rounded_to_zero_is_noted_in_chinese(chinese):
    from qkv_desktop.presentation.texts import say
    from qkv_desktop.state.parsing import parse_number
    value, note = parse_number("1e-400")
    assert value == 0.0 and "已存为 0" in say(note)


def test_braces_a_user_typed_stay_as_typed():
    from qkv_desktop.presentation.texts import say
    from qkv_desktop.state.parsing import ParseError, parse_block
    with pytest.raises(ParseError) as refused:
        parse_block("1\t{x}", 100)
    assert "{x}" in say(refused.value)


def test_a_custom_mask_with_nothing_painted_says_so_in_the_title(qapp):
    """The custom mask switched on with no cell painted titled its pane "mask:  (4×4)"
    (found by a first-time user)."""
    from dataclasses import replace

    from qkv_desktop.presentation.pane_info import mask_formula
    state = SessionState.from_preset("tutorial-1")
    on = state.with_(options=replace(state.options, custom_mask=True))
    assert mask_formula(on) == "custom, no cell masked yet"
    painted = on.with_(options=replace(on.options, masked=((1, 0),), causal=True))
    assert mask_formula(painted) == "causal, custom"
