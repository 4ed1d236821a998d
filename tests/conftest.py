"""Shared test set-up: headless Qt, reproducible Hypothesis runs, an importable package.

The environment variables are set before anything imports Qt, so every test (and
every subprocess a test starts) renders offscreen with PySide6 as pyqtgraph's binding.
The checkout is put on ``sys.path`` so the tests run without installing the package.
"""

import os
import sys
from pathlib import Path

# A 1920×1200 virtual screen, whatever the caller's environment says: the offscreen
# default (800×800) is smaller than the main window, and a real display would put
# windows on the developer's desktop. Tests that need a real X server start their
# own Xvfb and a child process (``QKV_TEST_QPA`` overrides this, for debugging).
os.environ["QT_QPA_PLATFORM"] = os.environ.get("QKV_TEST_QPA") or (
    "offscreen:configfile=" + str(Path(__file__).with_name("offscreen_screen.json")))
os.environ["PYQTGRAPH_QT_LIB"] = "PySide6"

# Settings, autosaves, locks and logs go to a throw-away home, never the user's.
import tempfile  # noqa: E402

# HOME too, so that a path Qt or a library derives from it (not from XDG_*) is
# sandboxed as well; tests/test_sandbox.py checks that the real home stays untouched.
_SANDBOX = Path(tempfile.mkdtemp(prefix="qkv-tests-"))
os.environ.setdefault("QKV_TEST_REAL_HOME", os.path.expanduser("~"))
os.environ["HOME"] = str(_SANDBOX / "home")
(_SANDBOX / "home").mkdir()
for _var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[_var] = str(_SANDBOX / _var.lower())

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from hypothesis import settings  # noqa: E402

# CI: the same examples on every run, no flaky deadlines, no example database.
settings.register_profile("ci", derandomize=True, max_examples=50, deadline=None,
                          database=None, print_blob=True)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE",
                                     "ci" if os.environ.get("CI") else "dev"))


import gc  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

# Python's cyclic collector on the main thread only, as in the app
# (``app.startup_heap.collect_on_the_gui_thread``): left automatic, it ran in whichever
# thread allocated, and a test's closed windows, reference cycles holding Qt objects,
# were destroyed on a worker (the SmolLM2 loader's thread), which deadlocked with the
# main thread deleting a menu. After each test the main thread collects what the
# thresholds ask for, as pyqtgraph's ``GarbageCollector`` does on its timer.
gc.disable()
_GC_THRESHOLD = gc.get_threshold()


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread():
    yield
    counts = gc.get_count()
    for generation in range(3):
        if counts[generation] <= _GC_THRESHOLD[generation]:
            break
        gc.collect(generation)


@pytest.fixture(autouse=True)
def _nothing_stays_frozen():
    """A test that runs the app's start-up (``run_gui``) arms its one-second
    ``gc.freeze`` (``app/startup_heap.py``): it may fire in a later test. Whatever a
    test froze is handed back to the collector after it."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()


@pytest.fixture(autouse=True)
def _no_collector_timer_stays():
    """``run_gui`` also starts pyqtgraph's ``GarbageCollector`` on the application
    (``app/startup_heap.py``), which the tests share: its one-second timer then collected
    in the middle of every later test of that worker, and once crashed one inside
    ``GarbageCollector.check`` (a RoPE lab test, after ``test_recovery`` had run on that
    worker). The tests collect after each test instead (above): a timer a test left
    is stopped after it."""
    yield
    widgets = sys.modules.get("PySide6.QtWidgets")  # not imported by the core's tests
    if widgets is not None:
        _stop_collector_timer(widgets.QApplication.instance())


def _stop_collector_timer(app) -> None:
    collector = getattr(app, "_qkv_garbage_collector", None)
    if collector is not None:
        collector.timer.stop()
        del app._qkv_garbage_collector


@pytest.fixture
def stop_collector_timer():
    """What runs after every test, for a test of it."""
    return _stop_collector_timer


@pytest.fixture
def no_cyclic_gc():
    """Python's cyclic collector off for the test: what is freed then was freed by
    reference counting (the lifetime tests: nothing left for the collector to find)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@pytest.fixture(scope="session")
def x_display():
    """A real X server (Xvfb, 1920×1080) on a free display number, for as long as the run.

    Offscreen Qt has no real focus and no tool tips; tests that need them run their Qt
    part in a subprocess on this display (``tests/xdisplay.py``). Xvfb picks the free
    number itself and writes it to a pipe once it accepts clients (``-displayfd``).
    Skipped when Xvfb is not installed.
    """
    yield from _xvfb("1920x1080x24")


@pytest.fixture(scope="session")
def x_laptop_display():
    """The same, with a laptop's 1366×768 screen: a first start sizes its window from
    the screen, and some layouts happen only there."""
    yield from _xvfb("1366x768x24")


def _xvfb(screen: str):
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (Debian: apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_fd), "-screen", "0", screen,
                               "-nolisten", "tcp", "-noreset"], pass_fds=(write_fd,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()  # blocks until the server is ready, or has died
    if not number:
        server.kill()
        server.wait()
        pytest.skip("Xvfb could not be started")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait()


# A loaded machine (CI shares its cores) can take seconds for what takes milliseconds
# here. pytest-qt's waits return as soon as their condition holds, so a generous
# default costs a passing test nothing and keeps a slow one from failing on time.
import functools  # noqa: E402

from pytestqt.qtbot import QtBot  # noqa: E402

LOADED_MACHINE_TIMEOUT_MS = 30_000


def _patient(method):
    @functools.wraps(method)
    def wait(self, *args, timeout=LOADED_MACHINE_TIMEOUT_MS, **kwargs):
        if timeout is not None and timeout > 0:  # 0 or None: no limit, as pytest-qt says
            timeout = max(timeout, LOADED_MACHINE_TIMEOUT_MS)
        return method(self, *args, timeout=timeout, **kwargs)
    return wait


for _name in ("waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive",
              "waitCallback"):
    if hasattr(QtBot, _name):
        setattr(QtBot, _name, _patient(getattr(QtBot, _name)))


@pytest.hookimpl(trylast=True)  # after pytest-qt closed the test's widgets, and fixtures
def pytest_runtest_teardown(item, nextitem):
    """Delete what the test's ``deleteLater()`` left: ``processEvents()`` outside an event
    loop never handles deferred deletes, so every window a test made (pytest-qt closes
    them with ``deleteLater``) stayed alive, with its timers and application event
    filters, for the rest of the session; late tests ran up to 15× slower."""
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def chinese(qapp):
    """The interface in 简体中文 for one test, English again after it."""
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.views import i18n
    i18n.install_translators(qapp, "zh_CN")
    QApplication.processEvents()
    yield qapp
    i18n.install_translators(qapp, "en")
    QApplication.processEvents()
