"""Work start-up no longer does (issue 20), counted, never timed."""

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget

from qkv_desktop.views import zoom


@pytest.fixture
def polish_spy(monkeypatch):
    """Every ``setStyleSheet`` a window's construction makes, by widget object name."""
    calls: list[str] = []
    original = QWidget.setStyleSheet

    def spy(widget, sheet):
        calls.append(widget.objectName())
        original(widget, sheet)

    monkeypatch.setattr(QWidget, "setStyleSheet", spy)
    return calls


def test_a_window_at_100_percent_polishes_its_style_sheets_once(make_window, polish_spy):
    base = QApplication.font()
    window = make_window()
    assert window.view_scale.zoom == 1.0 and QApplication.font() == base
    # each widget under a style sheet set it once: the zoom re-polished none of them
    assert polish_spy.count("editorTabs") == 1


def test_a_saved_zoom_still_scales_a_new_window(make_window, app_dirs, polish_spy):
    path = app_dirs / "zoomed.ini"
    saved = QSettings(str(path), QSettings.Format.IniFormat)
    saved.setValue(zoom.SETTINGS_KEY, 1.25)
    saved.sync()
    base = QApplication.font().pointSizeF()
    window = make_window(settings_path=path)
    try:
        assert window.view_scale.zoom == 1.25
        assert QApplication.font().pointSizeF() == pytest.approx(base * 1.25)
        assert window.tabs.font().pointSizeF() == pytest.approx(base * 1.25)  # a style sheet's
        assert polish_spy.count("editorTabs") == 2  # set, then polished again at 125 %
    finally:
        window.view_scale.set_zoom(1.0)
    assert QApplication.font().pointSizeF() == pytest.approx(base)


def test_no_axis_sets_its_label_again_when_its_range_changes(make_window, monkeypatch):
    """An SI prefix scales an axis label, and no pane's axis shows one: with it on,
    every range change re-typeset the empty label (1,300 times before the first paint)."""
    from PySide6.QtWidgets import QGraphicsTextItem
    window = make_window()
    pane = window.panes.panes["weights"]
    item = pane.plot.getPlotItem()
    axes = [item.getAxis(a) for a in ("left", "bottom", "top", "right")] + [pane.colorbar.axis]
    typeset = []
    original = QGraphicsTextItem.setHtml
    monkeypatch.setattr(QGraphicsTextItem, "setHtml",
                        lambda label, html: typeset.append(html) or original(label, html))
    for axis in axes:
        axis.setRange(0.0, 1e-4)  # a range an SI prefix would rescale (µ)
    assert typeset == []
    assert all(axis.autoSIPrefixScale == 1.0 for axis in axes)


def test_the_file_open_filter_watches_the_application_only_on_macos(qtbot, monkeypatch,
                                                                      app_dirs, tmp_path):
    """Only macOS's Qt sends ``QFileOpenEvent``; elsewhere an application event filter in
    Python would see every event of every object for nothing."""
    import sys

    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtGui import QFileOpenEvent

    from qkv_desktop.app.launcher import create_window
    from qkv_desktop.io.session import save_session
    from qkv_desktop.state import SessionState
    from qkv_desktop.views.actions import file_actions

    seen = []
    original = file_actions._FileOpenFilter.eventFilter
    monkeypatch.setattr(file_actions._FileOpenFilter, "eventFilter",
                        lambda self, obj, event: seen.append(event.type())
                        or original(self, obj, event))
    path = tmp_path / "opened.qkv.json"
    save_session(SessionState.from_preset("tutorial-2"), path)
    for platform in ("linux", "darwin"):
        monkeypatch.setattr(sys, "platform", platform)
        app, window = create_window(SessionState.from_preset("tutorial-1"))
        monkeypatch.setattr(sys, "platform", "linux")
        qtbot.addWidget(window)
        window.files.maybe_save = lambda: True
        window.crash_guard.uninstall()
        del seen[:]
        try:
            QCoreApplication.sendEvent(window, QEvent(QEvent.Type.User))
            QCoreApplication.sendEvent(app, QFileOpenEvent(str(path)))
            if platform == "darwin":
                assert QEvent.Type.User in seen and QEvent.Type.FileOpen in seen
                assert window.model.wait_until_idle()
                assert window.model.state.tokens == SessionState.from_preset("tutorial-2").tokens
            else:
                assert seen == []
        finally:
            app.removeEventFilter(window.files.open_event_filter)
            window.close()
            window.model.shutdown()


def test_after_start_up_its_objects_are_frozen_out_of_full_collections(make_window, qtbot):
    """A full collection walked the ~80,000 objects of the window (about 37 ms on the GUI
    thread); once start-up is over they are frozen, and a collection walks only what
    came after."""
    import gc

    from qkv_desktop.app import launcher
    from qkv_desktop.app.startup_heap import freeze_after_start_up
    assert "freeze_after_start_up(window)" in Path(launcher.__file__).read_text()
    gc.unfreeze()  # nothing an earlier test froze
    window = make_window()
    try:
        freeze_after_start_up(window)
        window.show()
        qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=10_000)
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the window's objects, not a handful
        walked = gc.get_objects()  # what a full collection still walks
        assert len(walked) < frozen / 4
        assert not any(o is window for o in walked)
    finally:
        gc.unfreeze()


def test_the_collector_runs_on_the_gui_thread_only(qapp, qtbot):
    """Python's collector ran in whichever thread allocated past its threshold: a cycle
    holding Qt objects was then destroyed on a worker thread (the SmolLM2 loader's), and
    ``~QObject`` there, holding Qt's connection lock, waited for the GIL held by the GUI
    thread, which waited for that lock: the app froze. Now the collector is off and
    pyqtgraph's ``GarbageCollector`` collects on the GUI thread's timer."""
    import gc
    import threading

    from qkv_desktop.app import launcher
    from qkv_desktop.app.startup_heap import collect_on_the_gui_thread
    assert "collect_on_the_gui_thread(app)" in Path(launcher.__file__).read_text()
    was = gc.isenabled()
    gc.enable()
    collected_on = []

    class InACycle:
        def __del__(self):
            collected_on.append(threading.current_thread())

    try:
        collect_on_the_gui_thread(qapp)
        assert not gc.isenabled()  # never by itself, so never on a worker's allocation
        cycle = InACycle()
        cycle.me = cycle
        del cycle
        worker = threading.Thread(target=lambda: [[] for _ in range(50_000)])
        worker.start()  # allocates far past the threshold: no collection there
        worker.join()
        keep = [[] for _ in range(2 * gc.get_threshold()[0])]  # the timer's check collects
        assert collected_on == []
        qtbot.waitUntil(lambda: bool(collected_on), timeout=10_000)
        assert collected_on == [threading.main_thread()]
        del keep
    finally:
        qapp._qkv_garbage_collector.timer.stop()
        del qapp._qkv_garbage_collector
        if was:
            gc.enable()


def test_a_collector_timer_that_start_up_left_is_stopped_after_the_test(qapp,
                                                                       stop_collector_timer):
    """The tests share one application: the start-up's collector timer, left running by
    a test of ``run_gui``, collected in the middle of later tests (and once crashed one
    in ``GarbageCollector.check``). What conftest runs after each test stops it."""
    from qkv_desktop.app.startup_heap import collect_on_the_gui_thread
    collect_on_the_gui_thread(qapp)
    timer = qapp._qkv_garbage_collector.timer
    assert timer.isActive()
    stop_collector_timer(qapp)
    assert not timer.isActive() and not hasattr(qapp, "_qkv_garbage_collector")
    stop_collector_timer(qapp)  # nothing left: nothing to do
