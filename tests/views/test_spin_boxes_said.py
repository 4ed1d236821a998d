"""Every spin box of the window, the labs and the decoder dock says a typed number it
did not take as typed, where the user looks: the status bar for the main window's
docks, the red line of the lab the box is in (a lab has no status bar, and the main
window's is out of sight behind it). Qt dropped the keys past the maximum, or the
number below the minimum, without a word. Each box's tool tip says its range, and a
double box keeps the decimals typed (2.34567 read 2.34 in the divisor box)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QStackedWidget,
    QWidget,
)

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.editors.spin_boxes import SAID_MS, say_briefly

LABS = {
    "tiles": ("qkv_desktop.views.teaching.tiles_lab", "TilesLab"),
    "gradient": ("qkv_desktop.views.teaching.gradient_lab", "GradientLab"),
    "kv": ("qkv_desktop.views.teaching.kv_cache_lab", "KVCacheLab"),
    "scaling": ("qkv_desktop.views.teaching.scaling_lab", "ScalingLab"),
}

# (where the box is, its object name, typed, value taken, what the user reads, where:
# the object name of the lab's red line, or None for the main window's status bar)
CLAMPS = [
    ("window", "rope_base", "0", 1.0, "The RoPE base must be at least 1: 0 became 1.", None),
    ("window", "window", "2000000", 1 << 20,
     "The window can be at most 1048576: 2000000 became 1048576.", None),
    ("window", "prefix", "-1", 0, "The prefix must be at least 0: -1 became 0.", None),
    ("window", "sinks", "-3", 0, "The number of sinks must be at least 0: -3 became 0.",
     None),
    ("window", "alibi_slope_0", "500", 100.0,
     "The ALiBi slope of head 1 can be at most 100: 500 became 100.", None),
    ("window", "init_scale", "20", 10.0,
     "The weight scale can be at most 10: 20 became 10.", None),
    ("tiles", "onlineRow", "99", 3, "The query row can be at most 3: 99 became 3.",
     "labError"),
    ("tiles", "onlineFactor", "0", 0.001, "The factor must be at least 0.001: 0 became 0.001.",
     "labError"),
    ("tiles", "labSpeed", "50", 20, "The steps per second can be at most 20: 50 became 20.",
     "labError"),
    ("gradient", "gradLearningRate", "1000", 100.0,
     "The learning rate can be at most 100: 1000 became 100.", "labError"),
    ("gradient", "gradSteps", "0", 1, "The number of steps to train must be at least 1: 0 became 1.",
     "labError"),
    ("gradient", "gradRate", "5000", 1000, "The steps per second can be at most 1000: 5000 became 1000.",
     "labError"),
    ("gradient", "compareSteps", "9999", 2000,
     "The number of steps for each d_k can be at most 2000: 9999 became 2000.", "labError"),
    ("gradient", "compareLearningRate", "0", 1e-8,
     "The learning rate must be at least 0.00000001: 0 became 0.00000001.", "labError"),
    ("kv", "kvLayers", "5000", 1000,
     "The number of layers can be at most 1000: 5000 became 1000.", "kvMemoryError"),
    ("kv", "kvQueryHeads", "0", 1,
     "The number of query heads must be at least 1: 0 became 1.", "kvMemoryError"),
    # (up to the query heads, tutorial-1's one: a count the table takes)
    ("kv", "kvKVHeads", "2000", 1,
     "The number of KV heads can be at most 1: 2000 became 1.", "kvMemoryError"),
    ("kv", "kvHeadDim", "0", 1, "d_k must be at least 1: 0 became 1.", "kvMemoryError"),
    ("kv", "kvTokens", "0", 1, "The number of tokens must be at least 1: 0 became 1.",
     "kvMemoryError"),
    ("scaling", "labSeed", "-1", 0, "The seed must be at least 0: -1 became 0.",
     "labRandomError"),
    ("scaling", "labKeys", "1", 2, "The number of keys must be at least 2: 1 became 2.",
     "labRandomError"),
    ("scaling", "scoresDkA", "5000", 4096,
     "The middle chart's d_k can be at most 4096: 5000 became 4096.", "scoresNote"),
]


@pytest.fixture
def host(main_window, qtbot):
    """``host(kind)`` → the shown window the box is in (the main window or a lab)."""

    def make(kind: str) -> QWidget:
        if kind == "window":
            # the RoPE base and the slopes are editable with RoPE and ALiBi on
            main_window.model.set_options(positions="rope", alibi=(0.5,))
            assert main_window.model.wait_until_idle()
            return main_window
        module, name = LABS[kind]
        lab = getattr(__import__(module, fromlist=[name]), name)(
            AttentionModel(SessionState.from_preset("tutorial-1")))
        qtbot.addWidget(lab)
        lab.show()
        qtbot.waitExposed(lab)
        lab.model.wait_until_idle()
        lab.refresh()  # (the ranges that follow the session, such as the query row's)
        return lab

    return make


def on_show(box: QWidget) -> None:
    """The tab (any stacked page) that holds ``box`` brought to the front."""
    child = box
    while (parent := child.parentWidget()) is not None:
        if isinstance(parent, QStackedWidget):
            parent.setCurrentWidget(child)
        child = parent


def type_in(qtbot, box: QAbstractSpinBox, text: str, key=Qt.Key.Key_Return) -> None:
    on_show(box)
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, key)


def said_where(window: QWidget, where: str | None) -> str:
    """The message the user reads there ("" when none is on show)."""
    if where is None:
        return window.statusBar().currentMessage()
    line = window.findChild(QLabel, where)
    return line.text() if line.isVisible() else ""


@pytest.mark.parametrize(("kind", "name", "typed", "value", "message", "where"), CLAMPS,
                         ids=[c[1] for c in CLAMPS])
def test_a_number_typed_out_of_range_is_said_where_the_user_looks(
        host, qtbot, kind, name, typed, value, message, where):
    window = host(kind)
    box = window.findChild(QAbstractSpinBox, name)
    assert box.isEnabled()
    type_in(qtbot, box, typed)
    assert box.value() == pytest.approx(value, abs=0)
    assert said_where(window, where) == message


@pytest.mark.parametrize(("kind", "name", "where"), [(c[0], c[1], c[5]) for c in CLAMPS],
                         ids=[c[1] for c in CLAMPS])
def test_a_number_in_range_is_taken_without_a_word_and_the_tip_says_the_range(
        host, qtbot, kind, name, where):
    window = host(kind)
    box = window.findChild(QAbstractSpinBox, name)
    top = box.textFromValue(box.maximum())  # the bound itself is in range
    type_in(qtbot, box, top)
    assert box.value() == box.maximum()
    # (the KV heads' red line may say why 1024 KV heads are no GQA: a refusal, not a clamp)
    assert "became" not in said_where(window, where)
    low = box.textFromValue(box.minimum())
    assert box.toolTip().endswith(f"From {low} to {top}.")


def test_the_query_rows_tip_follows_its_range(host):
    """The row box's range is the session's rows: its tip says the range it has now."""
    lab = host("tiles")
    box = lab.findChild(QAbstractSpinBox, "onlineRow")
    assert box.toolTip().endswith("From 0 to 3.")  # tutorial-1's four tokens
    lab.model.reset(SessionState.from_preset("tutorial-2"))
    lab.model.wait_until_idle()
    lab.refresh()
    assert box.toolTip().endswith("From 0 to 2.")  # tutorial-2's three tokens


def test_a_note_goes_after_its_time_and_gives_back_what_was_said(qtbot):
    """A lab's red line holds lasting messages too: a note shown over one gives it back."""
    line = QLabel("The KV-cache stepper decodes self-attention.")
    qtbot.addWidget(line)
    line.show()
    say_briefly(line, "The speed can be at most 20: 50 became 20.", ms=10)
    assert line.text() == "The speed can be at most 20: 50 became 20."
    qtbot.waitUntil(lambda: line.text() == "The KV-cache stepper decodes self-attention.",
                    timeout=SAID_MS)
    assert line.isVisible()
    say_briefly(line, "gone", ms=10)
    line.setText("A newer message")  # what the lab said meanwhile stays
    qtbot.wait(30)
    assert line.text() == "A newer message"


def test_two_notes_in_a_row_end_with_the_labs_lasting_message(qtbot):
    """A second note within the first one's time: the first, stale note came back after
    the second and stayed for good ("… 0 became 1" forever); the lab's message returns."""
    line = QLabel("The lab's lasting message")
    qtbot.addWidget(line)
    line.show()
    say_briefly(line, "The number of steps must be at least 1: 0 became 1.", ms=20)
    say_briefly(line, "The steps per second can be at most 1000: 99999 became 1000.", ms=60)
    assert line.text() == "The steps per second can be at most 1000: 99999 became 1000."
    qtbot.waitUntil(lambda: line.text() == "The lab's lasting message", timeout=SAID_MS)
    qtbot.wait(80)  # every note's time is up
    assert line.text() == "The lab's lasting message"
    assert line.isVisible()


def test_notes_in_a_row_with_none_before_leave_the_line_empty(qtbot):
    line = QLabel()
    qtbot.addWidget(line)
    line.show()
    line.hide()
    for k in range(3):
        say_briefly(line, f"note {k}", ms=20 + 10 * k)
    qtbot.waitUntil(lambda: line.isHidden(), timeout=SAID_MS)
    qtbot.wait(60)
    assert line.isHidden()


def test_a_message_the_lab_sets_between_two_notes_is_the_one_that_comes_back(qtbot):
    line = QLabel()
    qtbot.addWidget(line)
    line.show()
    line.hide()
    say_briefly(line, "first note", ms=20)
    line.setText("Training failed: step 3 diverged")  # the lab's own, lasting
    say_briefly(line, "second note", ms=60)
    qtbot.waitUntil(lambda: line.text() == "Training failed: step 3 diverged",
                    timeout=SAID_MS)
    qtbot.wait(80)
    assert line.text() == "Training failed: step 3 diverged"
    assert line.isVisible()


# -- decimals: the number typed is the number used ---------------------------------------

def custom_divisor(main_window):
    main_window.findChild(QComboBox, "scaling").setCurrentIndex(2)  # custom ÷
    return main_window.findChild(QAbstractSpinBox, "divisor")


def test_a_divisor_typed_with_five_decimals_is_used_as_typed(main_window, qtbot):
    divisor = custom_divisor(main_window)
    type_in(qtbot, divisor, "2.34567")
    assert main_window.model.state.options.scale == divisor.value() == 2.34567
    assert divisor.text() == "2.34567"  # not 2.35, nor 2.34 (the keys past two dropped)
    assert main_window.statusBar().currentMessage() == ""


def test_a_whole_divisor_shows_no_trailing_zeros(main_window, qtbot):
    divisor = custom_divisor(main_window)
    type_in(qtbot, divisor, "8")
    assert (divisor.value(), divisor.text()) == (8.0, "8")


def test_a_divisor_from_a_session_shows_every_digit_it_has(main_window):
    """A saved divisor of 2.6451 read 2.65, and choosing "custom ÷" again set 2.65."""
    divisor = custom_divisor(main_window)
    main_window.model.set_options(scale=2.6451)
    assert main_window.model.wait_until_idle()
    assert (divisor.value(), divisor.text()) == (2.6451, "2.6451")


def test_more_decimals_than_a_box_keeps_are_rounded_and_said(main_window, qtbot):
    divisor = custom_divisor(main_window)
    type_in(qtbot, divisor, "1.123456789012345")
    assert main_window.model.state.options.scale == divisor.value() == 1.123456789
    assert main_window.statusBar().currentMessage() == (
        "The custom divisor keeps 10 decimals: 1.123456789012345 became 1.123456789.")


@pytest.mark.parametrize("name", ["init_scale", "rope_base", "alibi_slope_0"])
def test_every_double_box_of_the_window_keeps_the_decimals_typed(host, qtbot, name):
    window = host("window")
    box = window.findChild(QAbstractSpinBox, name)
    type_in(qtbot, box, "1.2345678")
    assert (box.value(), box.text()) == (1.2345678, "1.2345678")
    assert window.statusBar().currentMessage() == ""


def test_the_rounding_is_said_in_chinese(main_window, qtbot, speak):
    divisor = custom_divisor(main_window)
    speak("zh_CN")
    type_in(qtbot, divisor, "1.123456789012345")
    assert main_window.statusBar().currentMessage() == (
        "自定义除数最多保留 10 位小数：输入的 1.123456789012345 已改为 1.123456789。")


def test_a_divisor_with_five_decimals_is_shown_whole(main_window, qtbot):
    """Sized for its bounds ("1000"), the box showed "34567" of a typed 2.34567."""
    divisor = custom_divisor(main_window)
    type_in(qtbot, divisor, "2.34567")
    edit = divisor.lineEdit()
    assert edit.width() >= edit.fontMetrics().horizontalAdvance("2.34567") + 4


@pytest.mark.parametrize("dialog", ["one figure", "export all"])
def test_the_png_scale_typed_past_its_range_is_said_in_the_dialog(qtbot, dialog):
    """The export dialogs' PNG scale (0.5× to MAX_SCALE×): 100 typed became the maximum
    without a word. The dialog has no status bar, so its own red line says it, and the
    Enter that ended the typing does not also export at the clamped scale: a second one
    does."""
    from pathlib import Path

    from PySide6.QtWidgets import QDialog

    from qkv_desktop.export.figures import MAX_SCALE
    from qkv_desktop.views.actions.export_actions import (
        ExportAllDialog,
        ExportChoice,
        FigureOptions,
        FigureOptionsDialog,
    )
    if dialog == "one figure":
        d = FigureOptionsDialog("png", (300.0, 200.0), FigureOptions())
    else:
        d = ExportAllDialog(ExportChoice(folder=Path.home()), figure_names=["weights"])
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    box = d.scale
    type_in(qtbot, box, "100")  # Return
    assert box.value() == MAX_SCALE and box.text() == f"{MAX_SCALE:g}×"
    line = d.findChild(QLabel, "scaleError")
    assert d.isVisible() and line.isVisible() and line.text() == (
        f"The PNG scale can be at most {MAX_SCALE:g}: 100 became {MAX_SCALE:g}.")
    qtbot.wait(10)  # the line read
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert not d.isVisible() and d.result() == QDialog.DialogCode.Accepted


def test_a_number_applies_when_its_typing_ends_not_key_by_key(host, qtbot):
    """d_k with RoPE on (d_k must be even): "16" typed applied 1 at its first key,
    which was refused, set the box back to 4 and left "46". The number applies on
    Enter, once: d_k 16 in one undo step."""
    window = host("window")
    model = window.model
    steps = model.undo_stack.count()
    box = window.findChild(QAbstractSpinBox, "d_k")
    type_in(qtbot, box, "16")
    assert model.wait_until_idle()
    assert model.state.d_k == 16 and box.text() == "16"
    assert model.undo_stack.count() == steps + 1
    assert "got 1" not in window.statusBar().currentMessage()


@pytest.mark.parametrize(("typed", "value", "message"), [
    ("1e-3", 0.001, ""),
    ("2.5e-1", 0.25, ""),
    ("1e3", 10.0, "The weight scale can be at most 10: 1e3 became 10."),
])
def test_a_number_in_scientific_notation_is_read_as_written(host, qtbot, typed, value,
                                                            message):
    """The tables take 1e-3; the boxes dropped the "e" (1e-3 read 13, clamped to 10)."""
    window = host("window")
    box = window.findChild(QAbstractSpinBox, "init_scale")
    type_in(qtbot, box, typed)
    assert window.model.wait_until_idle()
    assert box.value() == value and window.model.state.init_scale == value
    assert window.statusBar().currentMessage() == message


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_gradient_labs_shared_line_names_which_steps_box(host, qtbot, speak, lang):
    """The red line is above both tabs: a note for one tab's "steps" box read, on the
    other tab, as that tab's box. Each note names its box; the steps/s box was "The
    speed"."""
    lab = host("gradient")
    speak(lang)
    said = {}
    for name, typed in (("gradSteps", "0"), ("compareSteps", "0"), ("gradRate", "99999")):
        type_in(qtbot, lab.findChild(QAbstractSpinBox, name), typed)
        said[name] = said_where(lab, "labError")
    expected = {
        "en": {"gradSteps": "The number of steps to train must be at least 1: 0 became 1.",
               "compareSteps": "The number of steps for each d_k must be at least 1: "
                               "0 became 1.",
               "gradRate": "The steps per second can be at most 1000: 99999 became 1000."},
        "zh_CN": {"gradSteps": "训练步数至少为 1：输入的 0 已改为 1。",
                  "compareSteps": "每个 d_k 的训练步数至少为 1：输入的 0 已改为 1。",
                  "gradRate": "每秒步数最大为 1000：输入的 99999 已改为 1000。"},
    }[lang]
    assert said == expected


def _places(window: QWidget) -> dict[str, tuple]:
    """Where each spin box of ``window`` is on it, and its size."""
    QApplication.processEvents()  # (a layout that changes does so in a posted event)
    return {box.objectName(): (box.mapTo(window, QPoint(0, 0)).toTuple(), box.size().toTuple())
            for box in window.findChildren(QAbstractSpinBox) if box.objectName()}


@pytest.mark.parametrize(("kind", "name", "typed", "where"), [
    ("gradient", "gradSteps", "0", "labError"),
    ("gradient", "compareSteps", "0", "labError"),
    ("tiles", "labSpeed", "50", "labError"),
    ("kv", "kvTokens", "0", "kvMemoryError"),
    ("scaling", "labSeed", "-1", "labRandomError"),
    ("scaling", "scoresDkA", "5000", "scoresNote"),
])
def test_a_note_appearing_moves_no_box(host, qtbot, kind, name, typed, where):
    """The red line appearing pushed the boxes below it down by a line: the click aimed
    at the next box landed on another. Its line is kept while it says nothing."""
    lab = host(kind)
    on_show(lab.findChild(QAbstractSpinBox, name))
    before = _places(lab)
    type_in(qtbot, lab.findChild(QAbstractSpinBox, name), typed)
    assert said_where(lab, where)  # the note is on show
    assert _places(lab) == before


def _typed_not_applied(qtbot, box, text: str) -> None:
    on_show(box)
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)


def test_undo_with_a_number_typed_and_not_applied_undoes_that_number(host, qtbot,
                                                                     monkeypatch):
    """A number applies on Enter or when the box is left. Ctrl+Z with one typed and not
    applied undid the step before it (the RoPE base) while the typed number vanished:
    the typed number is a step of its own first, and that is what Ctrl+Z undoes."""
    from PySide6.QtWidgets import QApplication

    window = host("window")
    model = window.model
    model.set_options(rope_base=500.0)
    assert model.wait_until_idle()
    box = window.findChild(QAbstractSpinBox, "d_k")
    _typed_not_applied(qtbot, box, "6")
    monkeypatch.setattr(QApplication, "focusWidget", staticmethod(lambda: box))
    assert model.state.d_k == 4  # not applied yet
    window.undo_action.trigger()
    assert model.wait_until_idle()
    assert model.state.d_k == 4 and model.state.options.rope_base == 500.0
    assert window.redo_action.isEnabled()
    window.redo_action.trigger()
    assert model.wait_until_idle()
    assert model.state.d_k == 6


def test_save_with_a_number_typed_and_not_applied_saves_that_number(host, qtbot,
                                                                    monkeypatch, tmp_path):
    """Ctrl+S said "Saved" and left the title clean while the file held the old d_k."""
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.io.session import load_session

    window = host("window")
    path = tmp_path / "s.qkv.json"
    assert window.files.session.save_as(path)
    box = window.findChild(QAbstractSpinBox, "d_k")
    _typed_not_applied(qtbot, box, "8")
    monkeypatch.setattr(QApplication, "focusWidget", staticmethod(lambda: box))
    assert window.files.on_save()
    assert window.model.wait_until_idle()
    assert load_session(path).state.d_k == 8 and window.model.state.d_k == 8
    assert not window.isWindowModified()


def test_with_rope_the_d_k_arrows_step_by_two(host, qtbot):
    """RoPE needs an even d_k: the up arrow asked for 9 from 8, which was refused, and
    d_k never moved."""
    window = host("window")  # RoPE on
    box = window.findChild(QAbstractSpinBox, "d_k")
    window.model.set_d_k(8)
    assert window.model.wait_until_idle()
    box.stepUp()
    assert window.model.wait_until_idle()
    assert window.model.state.d_k == 10
    window.model.set_options(positions="none")
    assert window.model.wait_until_idle()
    box.stepUp()
    assert window.model.wait_until_idle()
    assert window.model.state.d_k == 11


def test_a_number_left_unfinished_is_said_not_dropped(host, qtbot):
    """"2e" and Enter: not a number yet, so the box keeps its value, and says so (it
    went back without a word)."""
    window = host("window")
    box = window.findChild(QAbstractSpinBox, "init_scale")
    before = window.model.state.init_scale
    type_in(qtbot, box, "2e")
    assert window.model.wait_until_idle()
    assert box.value() == before == window.model.state.init_scale
    assert window.statusBar().currentMessage() == (
        f"The weight scale needs a number: 2e is not one, so it stays {before:g}.")


def test_a_divisor_of_eight_digits_shows_whole_in_its_box(main_window, qtbot):
    """2.3456789 typed showed "2.345678" with the 9 cut off at the box's edge."""
    from PySide6.QtWidgets import QStyle, QStyleOptionSpinBox

    divisor = custom_divisor(main_window)
    type_in(qtbot, divisor, "2.3456789")
    assert divisor.text() == "2.3456789"
    option = QStyleOptionSpinBox()
    divisor.initStyleOption(option)
    field = divisor.style().subControlRect(QStyle.ComplexControl.CC_SpinBox, option,
                                           QStyle.SubControl.SC_SpinBoxEditField, divisor)
    line = divisor.lineEdit()
    needed = line.fontMetrics().horizontalAdvance(divisor.text())
    assert needed <= field.width() - 2 * line.textMargins().left(), (needed, field.width())


# -- one rule for what a box reads, and a word for what it refuses ------------------------

@pytest.mark.parametrize(("kind", "name", "typed", "value", "message", "where"), [
    ("window", "seed", "1e3", 1000, "", None),
    ("window", "seed", "2.5e3", 2500, "", None),
    ("kv", "kvTokens", "1e3", 1000, "", "kvMemoryError"),
    ("kv", "kvTokens", "1e400", 10_000_000,
     "The number of tokens can be at most 10000000: 1e400 became 10000000.", "kvMemoryError"),
    ("scaling", "labSeed", "1e2", 100, "", "labRandomError"),
])
def test_a_whole_number_box_reads_scientific_notation_as_written(
        host, qtbot, kind, name, typed, value, message, where):
    """A whole-number box dropped the "e": 1e3 typed as the seed became 13 (and the
    weights were drawn from seed 13), 1e400 as the tokens 1400. It reads the number as
    the decimal boxes and the tables do, and clamps it with the usual message."""
    window = host(kind)
    box = window.findChild(QAbstractSpinBox, name)
    type_in(qtbot, box, typed)
    assert (box.value(), box.text()) == (value, str(value))
    assert said_where(window, where) == message
    if name == "seed":
        assert window.model.wait_until_idle()
        assert window.model.state.seed == value


@pytest.mark.parametrize(("kind", "name", "where"), [
    ("window", "seed", None), ("kv", "kvTokens", "kvMemoryError")])
def test_a_number_with_a_fraction_in_a_whole_number_box_is_said_and_not_taken(
        host, qtbot, kind, name, where):
    window = host(kind)
    box = window.findChild(QAbstractSpinBox, name)
    before = box.value()
    type_in(qtbot, box, "2.5")
    assert box.value() == before and box.text() == str(before)
    subject = {"seed": "The seed", "kvTokens": "The number of tokens"}[name]
    assert said_where(window, where) == (
        f"{subject} is a whole number: 2.5 is not one, so it stays {before}.")


@pytest.mark.parametrize(("kind", "name", "where", "message"), [
    ("window", "seed", None,
     "The seed takes a whole number such as 12 or 1e3: “x” cannot go there, so it was not "
     "typed."),
    ("window", "init_scale", None,
     "The weight scale takes a number such as 0.5 or 1e-3: “x” cannot go there, so it was "
     "not typed."),
    ("kv", "kvKVHeads", "kvMemoryError",
     "The number of KV heads takes a whole number such as 12 or 1e3: “x” cannot go there, "
     "so it was not typed."),
])
def test_a_key_a_box_refuses_is_said_once_at_the_box(host, qtbot, kind, name, where, message):
    """A letter typed in a box was dropped without a word (Qt's validator). The first
    refused key says why; held down (each repeat refused again), it says it once."""
    window = host(kind)
    box = window.findChild(QAbstractSpinBox, name)
    said = []
    box.said.connect(said.append)
    on_show(box)
    box.setFocus()
    box.selectAll()
    before = box.text()
    qtbot.keyClicks(box, "xxyx")  # (Qt says a refusal with the refused text in the box)
    assert box.text() == before  # refused, not typed
    assert said == [message]
    assert said_where(window, where) == message
    qtbot.keyClicks(box, "7x")  # a key taken, then a refused one: a new attempt
    assert said == [message, message]


def test_a_decimal_comma_in_a_box_is_said_and_not_taken(host, qtbot):
    """"0,5" in the weight scale: the comma, refused as a key, left "05", and Enter
    made the scale 5, ten times what was meant (a review). It is kept as typed, and
    when the typing ends it is said, as the tables say it, and the value stays."""
    window = host("window")
    box = window.findChild(QAbstractSpinBox, "init_scale")
    before = box.value()
    type_in(qtbot, box, "0,5")
    assert window.model.wait_until_idle()
    assert box.value() == before == window.model.state.init_scale
    assert window.statusBar().currentMessage() == (
        f"The weight scale needs a dot as the decimal separator: 0,5 is not taken, so it "
        f"stays {box.textFromValue(before)}.")


def test_a_key_refused_is_said_in_chinese(host, qtbot, speak):
    window = host("window")
    speak("zh_CN")
    box = window.findChild(QAbstractSpinBox, "seed")
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "x")
    assert window.statusBar().currentMessage() == (
        "随机种子 只能填整数，如 12 或 1e3：“x” 不能填在这里，因此未输入。")


def test_a_number_too_large_for_a_float_is_said_as_typed(host, qtbot):
    """1e400 typed as the RoPE base: its last 0 was refused (no float holds 1e400) and
    the box said "1e40 became 1000000000" about a number the user never finished."""
    window = host("window")
    box = window.findChild(QAbstractSpinBox, "rope_base")
    type_in(qtbot, box, "1e400")
    assert window.model.wait_until_idle()
    assert box.value() == 1e9 == window.model.state.options.rope_base
    assert window.statusBar().currentMessage() == (
        "The RoPE base can be at most 1000000000: 1e400 became 1000000000.")


@pytest.mark.parametrize("kind", ["window", *LABS])
def test_every_box_applies_a_typed_number_when_its_typing_ends(host, kind):
    """One rule in the whole app: no box applies (and says) a half-typed number."""
    window = host(kind)
    boxes = window.findChildren(QAbstractSpinBox)
    assert boxes
    assert [b.objectName() for b in boxes if b.keyboardTracking()] == []


def test_the_kv_heads_clamp_to_a_count_the_table_takes(host, qtbot):
    """99999999999 KV heads with 9 query heads became 1024 (the box's own maximum),
    which the table then refused beside a GQA row of "—" (a re-check): the KV heads go
    up to the query heads, so the clamp is the 9 the table uses."""
    lab = host("kv")
    memory = lab.memory
    memory.select("custom")
    type_in(qtbot, memory.query_heads, "9")
    type_in(qtbot, memory.kv_heads, "99999999999")
    assert memory.kv_heads.value() == 9 and memory.sizes()["GQA"] == memory.sizes()["MHA"]
    assert said_where(lab, "kvMemoryError") == (
        "The number of KV heads can be at most 9: 99999999999 became 9.")
    assert memory.kv_heads.toolTip().endswith("From 1 to 9.")


def _heads_typed(host, qtbot, query: str, kv: str, query_again: str, speak=None):
    """The KV lab's calculator on typed numbers (in Chinese, given ``speak``):
    ``query`` heads, ``kv`` heads, then ``query_again`` as the query heads."""
    lab = host("kv")
    if speak is not None:
        speak("zh_CN")
    memory = lab.memory
    memory.select("custom")
    for box, text in ((memory.query_heads, query), (memory.kv_heads, kv),
                      (memory.query_heads, query_again)):
        type_in(qtbot, box, text)
    return lab, memory


def test_query_heads_lowered_under_the_kv_heads_take_them_along_said(host, qtbot):
    """The KV heads follow the query heads down, and the red line says so and why,
    after the query heads' own clamp; the table uses the count the box shows."""
    lab, memory = _heads_typed(host, qtbot, "9", "3", "2")
    assert (memory.query_heads.value(), memory.kv_heads.value()) == (2, 2)
    assert memory.kv_heads.text() == "2" and "grouped-query (GQA)</td><td align='right'>2<" \
        in memory.result.text()
    assert said_where(lab, "kvMemoryError") == (
        "The number of KV heads can be at most 2: 3 became 2. There are never more KV "
        "heads than query heads: each KV head serves at least one query head, and as "
        "many as the query heads is multi-head attention.")
    type_in(qtbot, memory.query_heads, "0")
    assert said_where(lab, "kvMemoryError") == (
        "The number of query heads must be at least 1: 0 became 1. The number of KV heads "
        "can be at most 1: 2 became 1. There are never more KV heads than query heads: "
        "each KV head serves at least one query head, and as many as the query heads is "
        "multi-head attention.")


def test_a_query_heads_clamp_says_why_the_gqa_row_is_empty(host, qtbot):
    """A clamp of the query heads to 1024, which 7 KV heads do not divide: the note says
    why the GQA row is empty too (it takes the line the refusal is on)."""
    lab, memory = _heads_typed(host, qtbot, "9", "7", "99999999999")
    assert memory.query_heads.value() == 1024 and memory.sizes()["GQA"] is None
    said = said_where(lab, "kvMemoryError")
    assert said.startswith("The number of query heads can be at most 1024: 99999999999 "
                           "became 1024. KV heads (7) must divide query heads (1024)"), said
    assert said.endswith("KV heads possible here: 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, "
                         "1024."), said


def test_full_width_digits_of_a_chinese_input_method_are_read_as_the_tables_read_them(
        host, qtbot):
    """"１ｅ３" typed with a Chinese input method's full-width forms: the tables read it
    as 1e3; the boxes refused every key."""
    from PySide6.QtGui import QInputMethodEvent

    window = host("window")
    box = window.findChild(QAbstractSpinBox, "seed")
    box.setFocus()
    box.selectAll()
    for char in "１ｅ３":  # committed one by one, as the input method does
        typed = QInputMethodEvent()
        typed.setCommitString(char)
        QApplication.sendEvent(box, typed)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert window.model.wait_until_idle()
    assert (box.value(), box.text(), window.model.state.seed) == (1000, "1000", 1000)
    assert window.statusBar().currentMessage() == ""


def _paste_by_the_context_menu(box: QAbstractSpinBox, text: str) -> None:
    """Paste ``text`` as the context menu's Paste does (``QLineEdit.paste``), without a
    key. (The menu itself, opened offscreen, ends the typing as it opens and closes,
    which the menu of a real screen does once only.)"""
    QApplication.clipboard().setText(text)
    box.lineEdit().paste()


def test_a_refused_key_after_a_paste_by_the_context_menu_is_said(qtbot):
    """A paste by the context menu came without a key, and the box took the text before
    the last key typed as where it was refused: 3 typed after 12 (123), a paste of "y"
    refused, the box set back to 12 (an undo does that), and a "q" typed there went
    unsaid, as if refused at 12 already. After a key refused at 12 and the up arrow
    (13), a refused paste went unsaid the same way. Each is said once where it is."""
    from qkv_desktop.views.editors.spin_boxes import ClampSayingSpinBox

    box = ClampSayingSpinBox(objectName="sayingBox")
    qtbot.addWidget(box)
    box.setRange(0, 1000)
    box.setValue(12)
    box.subject = "The count"
    said = []
    box.said.connect(said.append)
    box.show()
    box.activateWindow()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)  # (a paste by the menu is said where the focus is)

    def refused(text):
        return (f"The count takes a whole number such as 12 or 1e3: “{text}” cannot go "
                f"there, so it was not typed.")

    qtbot.keyClick(box, Qt.Key.Key_End)
    qtbot.keyClicks(box, "3")
    assert box.text() == "123"
    _paste_by_the_context_menu(box, "y")
    assert box.text() == "123" and said == [refused("y")]
    box.setValue(12)  # the session's value back (Edit → Undo)
    qtbot.keyClicks(box, "q")
    assert said == [refused("y"), refused("q")]
    qtbot.keyClicks(box, "q")  # held down: said once
    assert said == [refused("y"), refused("q")]
    box.stepUp()  # the up arrow: a new text, where the paste is refused anew
    assert box.text() == "13"
    _paste_by_the_context_menu(box, "z")
    assert said == [refused("y"), refused("q"), refused("z")]
    _paste_by_the_context_menu(box, "z")  # again at the same text: once
    assert len(said) == 3


def test_a_red_line_keeps_room_for_its_lines_in_a_larger_font(qtbot):
    """The KV calculator keeps six lines for its note; counted once in pixels, a zoom's
    larger font made them fewer than six (a review)."""
    from PySide6.QtGui import QFont

    from qkv_desktop.views.editors.spin_boxes import red_line

    label = red_line("probe", lines=6)
    qtbot.addWidget(label)
    assert label.minimumHeight() == 6 * label.fontMetrics().lineSpacing()
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 1.5)
    label.setFont(font)
    assert label.minimumHeight() == 6 * label.fontMetrics().lineSpacing()
    assert label.fontMetrics().lineSpacing() > 0 and label.isHidden()


def test_a_session_with_a_seed_past_2_31_and_a_scale_past_10_shows_them_as_used(
        main_window, qtbot):
    """A session file may hold any seed up to 2³² − 1 and any positive scale: the seed box
    (a ``QSpinBox`` up to 2³¹ − 1) raised ``OverflowError`` as the window set its controls,
    and every control after it kept the last session's value, while the scale box showed
    its bound 10 for a scale of 20 (a first user)."""
    from qkv_desktop.state.session_state import Options
    model = main_window.model
    state = SessionState.from_preset("tutorial-1").reinitialised(seed=3_000_000_000,
                                                                 init_scale=20.0)
    model.install_state(state.with_(options=Options(causal=True, temperature=2.0)))
    assert model.wait_until_idle()
    controls = main_window.controls
    assert (controls.seed.value(), controls.seed.text()) == (3_000_000_000, "3000000000")
    assert controls.init_scale.value() == 20.0
    assert controls.causal.isChecked() and controls.temperature_label.text() == "2"
    type_in(qtbot, controls.seed, "99999999999")
    assert controls.seed.value() == 2**32 - 1
    assert main_window.statusBar().currentMessage() == (
        "The seed can be at most 4294967295: 99999999999 became 4294967295.")
    assert model.wait_until_idle() and model.state.seed == 2**32 - 1
    type_in(qtbot, controls.init_scale, "15")
    assert model.wait_until_idle() and model.state.init_scale == 15.0
    type_in(qtbot, controls.init_scale, "18")  # the bound stays the session's 20
    assert model.wait_until_idle() and model.state.init_scale == 18.0
    assert controls.init_scale.maximum() == 20.0


def test_no_space_is_left_between_two_chinese_characters():
    """"查询头数 最大为 1024": a subject and a predicate joined by the translation's space
    (a first-time user). Beside Latin letters and digits the space stays."""
    from qkv_desktop.presentation.texts import between_hanzi_unspaced
    assert between_hanzi_unspaced("查询头数 最大为 1024：输入的 2 已改为 1。") == \
        "查询头数最大为 1024：输入的 2 已改为 1。"
    assert between_hanzi_unspaced("每个 d_k 的训练步数 至少为 1") == "每个 d_k 的训练步数至少为 1"
    assert between_hanzi_unspaced("The number of KV heads can be at most 2") == \
        "The number of KV heads can be at most 2"


def test_the_kv_heads_taken_along_say_so_in_chinese_without_a_stray_space(host, qtbot,
                                                                         speak):
    """The KV heads' clamp made by lowering the query heads is said as the boxes say
    their own: in Chinese without a space between two Chinese characters."""
    lab, memory = _heads_typed(host, qtbot, "9", "3", "2", speak)
    said = said_where(lab, "kvMemoryError")
    assert "最大为 2：输入的 3 已改为 2。" in said, said
    assert not re.search(r"[\u4e00-\u9fff] [\u4e00-\u9fff]", said), said
