"""The Chinese interface in the tutorial's and the field's terms (issue 17, items 15-17).

Row and column numbers read as the app shows them elsewhere (not "第 0 列"), formulas
and shapes go through tr(), one ellipsis, one way to name a head, 缩放点积注意力 and
多头注意力 where the mechanism is named, and Qt's own file dialog in Chinese too.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
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
    assert "若 W_Q = W_K，分数为 {0}" in zh[next(s for s in zh
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


# ------------------------------------------------------------------------ lists
PACKAGE = TS.parents[2]
"""The ``qkv_desktop`` source folder."""
LIST_JOIN = re.compile(r"""(["'])[,;] \1\.join\(""")
"""``", ".join(`` or ``"; ".join(`` (either quote): an English list separator."""
NOT_A_SENTENCE = {
    "io/session.py": ('"[" + ", ".join(map(float.__repr__',  # the session file's JSON
                      'return "[" + ", ".join(map(_scalar, value)) + "]"'),
    "io/imports.py": ('where = ", ".join(map(str, idx))',),  # an index, X[2, 3]
    "views/teaching/explain_panel.py": ('return "[" + ", ".join(vals) + "]"',),  # a vector
    "views/teaching/scaling_lab.py": ('self.edit.setText(", ".join(',),  # the field's input
    "views/i18n.py": ('+ ", ".join(LANGUAGES))',),  # the --lang option's error, English
    # the command line's and the notebook API's own errors, English by design
    "export/formats.py": ('choose from: " + ", ".join(known))', "f\"{', '.join(known)}\")"),
    "export/figures.py": ("f\"choose one of: {', '.join(FORMATS)}\")",),
    # the matrices.json note: a file format's field, English in every interface
    "export/data_export.py": ('+ ", ".join(kinds) + \'; 0 in "mask")\')',),
    "export/pane_figures.py": ("choose from: {', '.join(PANE_BY_KEY)}",),
    "export/figure_fonts.py": ("figure fonts not registered: {', '.join(missing)}",),
    "core/presets.py": ('+ ", ".join(PRESETS)) from None',),
    "core/training.py": ("pattern must be one of {', '.join(PATTERNS)}",
                         'where = ", ".join(str(i) for i in self.index)'),  # an index
    "views/teaching/gradient_lab.py": ('cell = ", ".join(str(i) for i in index)',),  # an index
    "core/validation.py": ('where = ", ".join(str(int(i)) for i in bad)',),  # an index
}
"""Joins that are not a list in a sentence for the user (or are English by design)."""


def test_user_visible_lists_are_joined_by_the_interface_language():
    """Chinese joins the items of a list with "、" and clauses with "；": a message
    built with ", ".join read "scale, temperature" inside a Chinese sentence. The state
    and file layers carry a list as ``Listed``; the views call ``join_list`` or
    ``join_clauses`` (``presentation.texts``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if LIST_JOIN.search(line) and not any(
                    allowed in line for allowed in NOT_A_SENTENCE.get(rel, ())):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
    assert LIST_JOIN.search('x = "; ".join(parts)') and LIST_JOIN.search("', '.join(a)")


def test_a_list_in_a_chinese_message_uses_the_enumeration_comma(chinese):
    from qkv_desktop.presentation.texts import join_clauses, join_list, say
    from qkv_desktop.state.edits import set_options
    from qkv_desktop.state.session_state import Options
    from qkv_desktop.state.texts import EditError

    assert join_list(["a", "b", "c"]) == "a、b、c"
    assert join_clauses(["一", "二"]) == "一；二"
    state = SessionState.from_preset("tutorial-1")
    undo_text = say(set_options(state, temperature=2.0, stable=False).text)
    assert undo_text == "更改 温度、朴素 softmax", undo_text
    assert say(set_options(state, rope_base=500.0).text) == "更改 RoPE 底数"
    with pytest.raises(EditError) as refused:
        Options(positions="spiral")
    said = say(refused.value)
    assert "none、" in said and ", " not in said, said
    assert ", " in str(refused.value)  # the state layer itself stays English


def test_a_list_in_an_english_message_keeps_its_commas():
    from qkv_desktop.presentation.texts import join_clauses, join_list, say
    from qkv_desktop.state.texts import Listed, Text

    assert join_list(["a", "b"]) == "a, b" and join_clauses(["a", "b"]) == "a; b"
    assert say(Text("Change {0}", (Listed(["scale", "temperature"]),))) == \
        "Change scale, temperature"
    assert str(Listed(["x", "y"], clauses=True)) == "x; y"


def test_a_session_file_error_lists_the_known_options_in_chinese(chinese, tmp_path):
    import json

    from qkv_desktop.io.session import load_session, save_session
    from qkv_desktop.presentation.texts import say

    path = tmp_path / "s.qkv"
    save_session(SessionState.from_preset("tutorial-1"), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["options"]["sparkle"] = True
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        load_session(path)
    said = say(refused.value)
    assert "sparkle" in said and "scale、" in said and ", " not in said, said


@pytest.mark.parametrize("arrays, said_part", [
    ({"w.npy": np.zeros((5, 3))}, "(头数, 3, 5, 3)"),
    ({"w.npy": np.where(np.arange(45).reshape(3, 5, 3) == 44, np.nan, 0.0)}, "[2, 4, 2]"),
    ({"w.npz": {"W_Q": np.zeros((2, 5, 3)), "W_K": np.zeros((3, 5, 3)),
                "W_V": np.zeros((2, 5, 3))}}, "头数 × d_model × d_k"),
])
def test_an_import_weights_error_has_no_english_word_in_chinese(chinese, tmp_path, arrays,
                                                                 said_part):
    """"…或 (heads, 3, 8, 4)": the shape's "heads" (and the .npy's "stack") stayed English."""
    from qkv_desktop.io.imports import ImportFileError, import_weights
    from qkv_desktop.presentation.texts import say

    ((file, content),) = arrays.items()
    path = tmp_path / file
    if file.endswith(".npz"):
        np.savez(path, **content)
    else:
        np.save(path, content)
    with pytest.raises(ImportFileError) as refused:
        import_weights(path, 5, 3)
    said = say(refused.value)
    assert said_part in said, said
    assert not re.search(r"\b(heads|stack)\b", said), said
