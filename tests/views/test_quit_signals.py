"""Ctrl+C in the terminal, ``kill`` or a closed terminal end the real app through its
exit (``app.quit_signals``): Ctrl+C did nothing, and SIGTERM / SIGHUP ended it without
its exit handlers, so the autosave writer's semaphores were reported on the terminal
("resource_tracker: There appear to be 5 leaked semaphore objects to clean up at
shutdown") and the edits since the last autosave were lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from qkv_desktop.io.session import load_session

REPO = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from qkv_desktop.app import launcher
    from qkv_desktop.views.teaching import tour

    offered = tour.offer_once

    def offer_once(window, settings):  # the last step before the event loop runs
        offered(window, settings)

        def edit():  # then wait, idle in the event loop, for the test's signal
            session = window.files.session
            window.model.set_cell("X", 2, 3, 12.5)
            session.autosave()  # the writer process starts and writes
            session.wait_for_autosave()
            window.model.set_cell("X", 0, 0, 7.25)  # not autosaved yet
            print("edited", flush=True)

        QTimer.singleShot(0, edit)

    tour.offer_once = offer_once
    sys.exit(launcher.main(["--lang", "en"]))
""")


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_ends_the_app_cleanly_and_keeps_the_work_for_recovery(tmp_path, name):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-c", CHILD, name], env=env, cwd=REPO,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "edited"
        child.send_signal(getattr(signal, name))
        # the resource tracker writes its warning after the app is gone: stderr is read
        # to its end, which comes when the tracker has exited too
        _out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:  # Ctrl+C did nothing: the app ran on
            child.kill()
            child.communicate()
    assert child.returncode == 128 + getattr(signal, name), err
    assert "leaked" not in err and "resource_tracker" not in err, err
    folder = tmp_path / "data" / "QKV Desktop" / "QKV Desktop"
    [autosave] = folder.glob("autosave-*.qkv.json")  # kept: the next start offers it
    X = load_session(autosave).state.X
    assert X[2, 3] == 12.5 and X[0, 0] == 7.25  # with the edit made after the autosave
