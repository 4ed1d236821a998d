"""The main window's controls and actions: undo granularity, settings, the screenshot CLI."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, QSize
from PySide6.QtGui import QImage

from qkv_desktop.model import commands
from qkv_desktop.views.panes.pane_grid import DEFAULT_HIDDEN, DEFAULT_ORDER

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def slow_merges(monkeypatch):
    """Changes of one control merge however slow the machine running the test is."""
    monkeypatch.setattr(commands, "MERGE_WINDOW_S", 3600.0)


def assert_round_trip(window, act) -> None:
    """``act()`` is one undo step; undo and redo give back bit-identical states."""
    model = window.model
    s0, count = model.state, model.undo_stack.count()
    act()
    s1 = model.state
    assert not s1.equals(s0)
    assert model.undo_stack.count() == count + 1
    window.undo_action.trigger()
    assert model.state.equals(s0)
    window.redo_action.trigger()
    assert model.state.equals(s1)
    assert model.wait_until_idle()


def test_a_spin_box_sequence_is_one_undo_step(main_window, slow_merges):
    window, controls = main_window, main_window.controls

    def spin():
        for _ in range(3):
            controls.d_k.stepUp()
        assert window.model.state.d_k == 7

    assert_round_trip(window, spin)
    assert controls.d_k.value() == 7
    window.undo_action.trigger()
    assert controls.d_k.value() == 4  # the control follows the model


@pytest.mark.parametrize("control", ["seed", "init_scale", "heads"])
def test_other_spin_boxes_undo_in_one_step(main_window, slow_merges, control):
    spin = getattr(main_window.controls, control)
    assert_round_trip(main_window, lambda: [spin.stepUp() for _ in range(4)])


@pytest.mark.parametrize("name", ["causal", "share", "naive", "float32", "output_projection"])
def test_option_toggles_round_trip(main_window, name):
    assert_round_trip(main_window, getattr(main_window.controls, name).click)


def test_scaling_combo_and_divisor_are_one_step(main_window, slow_merges):
    controls = main_window.controls

    def custom():
        controls.scaling.setCurrentIndex(controls.scaling.findData("custom"))
        controls.divisor.setValue(3.0)

    assert_round_trip(main_window, custom)
    assert main_window.model.state.options.scale == 3.0


def test_scaling_none_round_trips(main_window):
    scaling = main_window.controls.scaling
    assert_round_trip(main_window, lambda: scaling.setCurrentIndex(scaling.findData("none")))
    assert main_window.model.state.options.scale == "none"


def test_temperature_slider_drag_is_one_step(main_window, slow_merges):
    slider = main_window.controls.temperature
    assert_round_trip(main_window, lambda: [slider.setValue(v) for v in (450, 400, 300)])
    assert main_window.model.state.options.temperature < 1


def test_mode_combo_round_trips(main_window):
    mode = main_window.controls.mode
    assert_round_trip(main_window, lambda: mode.setCurrentIndex(mode.findData("cross")))


def test_token_actions_round_trip(main_window):
    window = main_window
    editor = window.editor
    editor.setCurrentIndex(editor.table.index(1, 2))
    assert_round_trip(window, window.add_token_action.trigger)
    assert window.model.state.n == 5
    editor.setCurrentIndex(editor.table.index(1, 2))
    assert_round_trip(window, window.insert_token_action.trigger)
    assert window.model.state.tokens[1] == "new2"  # fresh: the added last token is "new"
    editor.setCurrentIndex(editor.table.index(2, 1))
    assert_round_trip(window, window.move_down_action.trigger)
    assert editor.currentIndex().row() == 3  # the cursor follows the moved token
    assert_round_trip(window, window.move_up_action.trigger)
    selection = QItemSelection(editor.table.index(0, 0), editor.table.index(1, 0))
    editor.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                   | QItemSelectionModel.SelectionFlag.Rows)
    n = window.model.state.n
    assert_round_trip(window, window.delete_token_action.trigger)
    assert window.model.state.n == n - 2


def test_dimension_actions_round_trip(main_window):
    window = main_window
    assert_round_trip(window, window.add_dim_action.trigger)
    assert window.model.state.d_model == 9
    window.editor.setCurrentIndex(window.editor.table.index(0, 3))  # d2
    before = window.model.state.X.copy()
    assert_round_trip(window, window.remove_dim_action.trigger)
    assert np.array_equal(window.model.state.X, np.delete(before, 2, axis=1))


def test_undo_everything_returns_the_start_bit_exactly(main_window, slow_merges):
    window = main_window
    s0 = window.model.state
    controls = window.controls
    controls.d_k.stepUp()
    controls.causal.click()
    window.add_token_action.trigger()
    window.editor.paste("1\t2\n3\t4")
    controls.seed.stepDown()
    while window.model.undo_stack.canUndo():
        window.undo_action.trigger()
    assert window.model.state.equals(s0)
    assert window.model.wait_until_idle()
    assert np.array_equal(window.panes.panes["weights"].image.image,
                          window.model.result.head().weights)


def test_pane_layout_and_geometry_persist_across_windows(main_window, make_window, qtbot):
    first = main_window
    first.pane_actions["scores"].setChecked(False)  # exactly one hidden pane
    v = first.panes.order.index("V")
    first.panes.move("V", -2)
    # A size the window can take on any screen: inside the screen's free area and
    # above the window's own minimum, whatever fonts and docks make that minimum.
    free = first.screen().availableGeometry().size()
    smallest = first.minimumSizeHint().expandedTo(first.minimumSize())
    size = QSize(max(smallest.width(), min(free.width() - 60, 1234)),
                 max(smallest.height(), min(free.height() - 60, 777)))
    first.resize(size)
    qtbot.waitUntil(lambda: first.size() == size)
    order = list(first.panes.order)
    assert order.index("V") == v - 2
    first.save_settings()
    path = first.settings.fileName()
    try:
        second = make_window(settings_path=path, size=None, show=False)
        assert second.panes.hidden == {"scores"} | DEFAULT_HIDDEN  # and the optional panes
        assert not second.pane_actions["scores"].isChecked()
        assert list(second.panes.order) == order
        assert second.size() == size
    finally:
        first._on_reset_layout()
        first.resize(1400, 900)


def test_one_hidden_pane_stays_hidden_in_the_next_window(make_window, tmp_path):
    """QSettings' INI file stores a one-element list as a plain string ("hidden=S_shift",
    as the app writes it on quitting with only the default hidden pane) and an empty
    one as "@Invalid()": read back in a new process, the one hidden pane must stay
    hidden and "none hidden" must show every pane."""
    (key,) = DEFAULT_HIDDEN
    order = ", ".join(DEFAULT_ORDER)
    one = tmp_path / "one.conf"  # a file this process never opened: no QSettings cache
    one.write_text(f"[panes]\nhidden={key}\norder={order}\n", encoding="utf-8")
    second = make_window(settings_path=str(one), size=None, show=False)
    assert second.panes.hidden == {key}
    assert not second.pane_actions[key].isChecked()
    none = tmp_path / "none.conf"
    none.write_text(f"[panes]\nhidden=@Invalid()\norder={order}\n", encoding="utf-8")
    third = make_window(settings_path=str(none), size=None, show=False)
    assert third.panes.hidden == set()


def test_screenshot_cli_writes_a_full_window_png(tmp_path):
    out = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    done = subprocess.run([sys.executable, "main.py", "--preset", "tutorial-1",
                           "--screenshot", str(out)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), np.uint32, count=1600 * 1000)
    assert len(np.unique(pixels)) > 500  # heatmaps, text and controls, not a blank frame


def test_screenshot_cli_needs_no_display_and_says_nothing_about_size_hints(tmp_path):
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    done = subprocess.run([sys.executable, "main.py", "--preset", "tutorial-2", "--size",
                           "1024x700", "--screenshot", str(out)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "propagateSizeHints" not in done.stderr + done.stdout
    assert done.stdout.strip() == str(out)
    assert not QImage(str(out)).isNull()


def test_an_empty_screenshot_name_is_refused_at_once(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "main.py", "--screenshot", ""], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("qkv-desktop: error: --screenshot needs a file name, "
                                   "e.g. --screenshot window.png")


def test_an_inserted_token_is_current_so_delete_removes_it(main_window):
    """Ctrl+I then Ctrl+Del did nothing: the table was rebuilt with no current cell, and
    Delete token had nothing selected, silently (found by a first-time user)."""
    window = main_window
    editor = window.editor
    tokens = window.model.state.tokens
    editor.setCurrentIndex(editor.table.index(2, 1))
    window.insert_token_action.trigger()
    assert window.model.state.n == len(tokens) + 1
    assert (editor.currentIndex().row(), editor.currentIndex().column()) == (2, 0)
    window.delete_token_action.trigger()
    assert window.model.state.tokens == tokens
    window.add_token_action.trigger()
    assert editor.currentIndex().row() == len(tokens)  # the added last row
    window.model.undo_stack.undo()
    editor.clearSelection()
    editor.setCurrentIndex(QModelIndex())
    window.delete_token_action.trigger()  # nothing selected: said, not silent
    assert window.model.state.tokens == tokens
    assert "Select the tokens to delete" in window.statusBar().currentMessage()


def test_no_two_shortcuts_of_the_window_are_the_same_keys(main_window):
    """Qt does nothing for a key sequence two enabled actions (or one action twice)
    claim: "Ambiguous shortcut overload: Ctrl+-", and zoom out by keyboard was dead on
    Linux (Ctrl+Minus and StandardKey.ZoomOut, the same keys there)."""
    from PySide6.QtGui import QAction
    owners: dict[str, list[str]] = {}
    for action in main_window.findChildren(QAction):
        if not action.isEnabled():
            continue
        for seq in action.shortcuts():
            owners.setdefault(seq.toString(), []).append(action.objectName() or action.text())
    shared = {keys: names for keys, names in owners.items() if len(names) > 1}
    assert not shared
    zoom_out = main_window.findChild(QAction, "zoomOut")
    assert "Ctrl+-" in [s.toString() for s in zoom_out.shortcuts()]


def test_the_view_menu_greys_the_panes_this_session_has_nothing_for(main_window):
    """RoPE's panes, ALiBi's bias, concat: ticked and enabled but never shown read as a
    pane gone missing (found by a first-time user); greyed until the session has them."""
    actions, model = main_window.pane_actions, main_window.model
    assert actions["weights"].isEnabled()
    assert not actions["Q_rope"].isEnabled()
    # greyed, its tip also says how to bring it (a reviewer could not tell)
    assert actions["Q_rope"].toolTip().endswith("Shown with RoPE (the Positions, mask tab).")
    assert actions["X_kv"].statusTip().endswith("Shown in cross-attention (attention, in "
                                                "the editor).")
    assert "Shown with" not in actions["weights"].toolTip()
    s = model.state
    model.set_options(positions="rope")
    assert model.wait_until_idle()
    assert actions["Q_rope"].isEnabled() and "Shown with" not in actions["Q_rope"].toolTip()
    model.undo_stack.undo()
    assert model.wait_until_idle()
    assert not actions["Q_rope"].isEnabled() and model.state.equals(s)


def test_undo_texts_follow_a_language_switch(main_window, chinese, qapp):
    """Steps made in Chinese, then View → Language → English: the Edit menu still read
    "Undo 交叉注意力" (the steps kept the text of the language they were made in)."""
    from qkv_desktop.views import i18n

    model = main_window.model
    main_window.load_preset("tutorial-2")
    model.set_mode("cross")
    model.set_cell("X", 0, 0, 0.5)
    assert model.wait_until_idle()
    stack = model.undo_stack
    made = [stack.text(k) for k in range(stack.count())]
    assert made[:2] == ["加载预设 教程示例 2 — 猫 追 老鼠", "交叉注意力"]
    assert main_window.undo_action.text().startswith("撤销")
    try:
        i18n.install_translators(qapp, "en")
        qapp.processEvents()
        said = [stack.text(k) for k in range(stack.count())]
        assert said[:2] == ["Load preset Tutorial 2 — 猫 追 老鼠", "Cross-attention"]
        assert said[2] == "X[猫, d0] 0.9000 → 0.5000"
        assert main_window.undo_action.text() == f"&Undo {said[2]}"
        stack.undo()
        assert main_window.undo_action.text() == "&Undo Cross-attention"
        assert main_window.redo_action.text() == f"&Redo {said[2]}"
    finally:
        i18n.install_translators(qapp, "zh_CN")  # the fixture's language, then its English
        qapp.processEvents()
