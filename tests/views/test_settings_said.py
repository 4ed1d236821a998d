"""A setting the app changes is said (a teacher's first hour): more heads that split
d_model change d_k, and a typed number outside a spin box's range becomes its bound.
Both went silently, and the numbers no longer matched the tutorial's."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox

from qkv_desktop.state import SessionState, edits

SPLIT = ("d_k is now 2: 4 heads of d_k = 4 would need h·d_k = 16, more than d_model = 8, "
         "so the heads split d_model into 4 × 2. Fewer heads keep d_k = 2; Ctrl+Z brings "
         "d_k 4 back.")


def said(model) -> list[str]:
    heard: list[str] = []
    model.noted.connect(heard.append)
    model.refused.connect(heard.append)
    return heard


def type_in(qtbot, spin, text: str, key=Qt.Key.Key_Return) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, key)


# -- heads that split d_model ------------------------------------------------------------

def test_four_heads_say_that_d_k_became_2_and_how_to_get_4_back(main_window, qtbot):
    model = main_window.model
    heard = said(model)
    heads = main_window.findChild(QSpinBox, "heads")
    heads.setValue(4)
    assert model.state.d_k == 2
    assert heard == [SPLIT]
    assert main_window.statusBar().currentMessage() == SPLIT
    heads.setValue(1)  # fewer heads keep d_k = 2, as the note said; nothing new to say
    assert (model.state.n_heads, model.state.d_k) == (1, 2)
    assert heard == [SPLIT]
    model.undo_stack.undo()
    model.undo_stack.undo()
    assert (model.state.n_heads, model.state.d_k) == (1, 4)  # what Ctrl+Z promised


def test_heads_that_keep_d_k_say_nothing():
    state = SessionState.from_preset("tutorial-1")
    assert edits.set_heads(state, 2).note is None  # 2 × 4 fits in d_model = 8
    assert edits.set_heads(state, 3).note is None  # 3 does not divide 8: d_k stays 4
    assert edits.set_heads(state, 4, d_k=4).note is None  # d_k asked for, not derived


def test_typed_weights_and_a_split_are_both_said():
    state = SessionState.from_preset("tutorial-1")
    typed = edits.set_weight(state, 0, "W_Q", 0, 0, 9.0).state
    note = str(edits.set_heads(typed, 4).note)
    assert note.startswith(SPLIT + " New weights were drawn from seed ")


def test_the_split_is_said_in_chinese(main_window, speak):
    heard = said(main_window.model)
    speak("zh_CN")
    main_window.findChild(QSpinBox, "heads").setValue(4)
    assert heard == ["d_k 现在是 2：4 个 d_k = 4 的头需要 h·d_k = 16，超过了 d_model = 8，"
                     "因此各头把 d_model 分成 4 × 2。之后减少头数时 d_k 仍为 2；"
                     "按 Ctrl+Z 可恢复 d_k = 4。"]


# -- typed numbers outside a spin box's range --------------------------------------------

def test_a_d_k_typed_past_the_maximum_is_said(main_window, qtbot):
    model = main_window.model
    heard = said(model)
    d_k = main_window.findChild(QSpinBox, "d_k")
    type_in(qtbot, d_k, "100000")
    assert d_k.value() == model.state.d_k == 1024  # the bound, not the 1000 of the keys kept
    message = "d_k can be at most 1024: 100000 became 1024."
    assert heard == [message]
    assert main_window.statusBar().currentMessage() == message


def test_a_divisor_of_0_is_said(main_window, qtbot):
    model = main_window.model
    main_window.findChild(QComboBox, "scaling").setCurrentIndex(2)  # custom ÷
    heard = said(model)
    divisor = main_window.findChild(QDoubleSpinBox, "divisor")
    type_in(qtbot, divisor, "0", Qt.Key.Key_Tab)  # the focus leaving ends it too
    assert model.state.options.scale == divisor.value() == 0.01
    message = "The custom divisor must be at least 0.01: 0 became 0.01."
    assert heard == [message]
    assert main_window.statusBar().currentMessage() == message


def test_a_number_in_range_is_taken_without_a_word(main_window, qtbot):
    heard = said(main_window.model)
    type_in(qtbot, main_window.findChild(QSpinBox, "d_k"), "8")
    assert main_window.model.state.d_k == 8
    assert heard == []


def test_a_bound_the_model_refuses_is_not_said_as_taken(main_window, qtbot, monkeypatch):
    """The model's refusal says why; "became 1024" would be false."""
    model = main_window.model
    heard = said(model)

    def refuse(_d_k):
        raise edits.EditError("no room")
    monkeypatch.setattr(model, "set_d_k", refuse)
    d_k = main_window.findChild(QSpinBox, "d_k")
    type_in(qtbot, d_k, "2000")
    assert model.state.d_k == d_k.value() == 4
    assert heard and all("became" not in h for h in heard)


def test_the_clamp_is_said_in_chinese(main_window, qtbot, speak):
    heard = said(main_window.model)
    speak("zh_CN")
    type_in(qtbot, main_window.findChild(QSpinBox, "heads"), "1000")
    assert heard[-1] == "头数 h 最大为 256：输入的 1000 已改为 256。"
