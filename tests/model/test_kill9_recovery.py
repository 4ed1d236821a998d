"""Issue 19's fault test: ``kill -9`` at random moments during continuous editing and
during saves, 20 times; after each restart the recovered work is within the autosave
window and nothing but the live instance's own autosave and lock is left behind.

Each run is a child process holding an ``AttentionModel`` and a ``SessionController``
(the document: autosave, lock, recovery; no window, so a run starts in well under a
second). On start it offers recovery (and accepts), saves the session into a work
folder, reports what it restored, and waits; the parent checks both folders, lets it
edit (one edit every 50–200 ms, a save after some of them) and kills it after a
random 0.5–1.7 s. The timers are the real ones scaled down ten times: 0.3 s after the
last edit and at most 1 s after the first unsaved one (the README's 3 s and 10 s), so
a run sees several autosaves. The session is large enough (X 400 × 64) that saves and
autosaves take a noticeable part of each run, so kills land inside them too.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNS = 20
DELAY_MS, MAX_DELAY_MS = 300, 1000  # AUTOSAVE_DELAY_MS and AUTOSAVE_MAX_DELAY_MS ÷ 10
SLACK_S = 1.5  # writing the autosave and a loaded 2-core machine's scheduling

CHILD = textwrap.dedent(f"""
    import random, sys, time
    from pathlib import Path
    import numpy as np
    from PySide6.QtCore import QCoreApplication, QSettings, QTimer
    app = QCoreApplication([])
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.model.document import SessionController
    from qkv_desktop.state import SessionState

    folder, work, seed = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    X = np.random.default_rng(0).standard_normal((400, 64))
    model = AttentionModel(SessionState.initialised([f"t{{i}}" for i in range(400)], X, d_k=16))
    settings = QSettings(str(folder.parent / "config" / "s.ini"), QSettings.Format.IniFormat)
    doc = SessionController(model, settings, folder)  # the settings live elsewhere, as in use
    doc._timer.setInterval({DELAY_MS})
    doc._deadline.setInterval({MAX_DELAY_MS})
    restored = doc.offer_recovery(lambda question: True)
    k = int(model.state.X[0, 0]) if restored else 0
    doc.save_as(work / "session.qkv.json")  # cleans what a killed save left there

    def log(*words):
        # One write per line, so a kill never leaves half of one: print writes word by
        # word when PYTHONUNBUFFERED is set, and a kill between two words cut "edit" off.
        sys.stdout.write(" ".join(map(str, words)) + "\\n")
        sys.stdout.flush()

    log("start", k, doc.instance)
    sys.stdin.readline()  # the parent has checked the folders
    rng = random.Random(seed)

    def edit():
        global k
        k += 1
        model.set_cell("X", 0, 0, float(k))
        log("edit", k, time.time())
        if rng.random() < 0.25:
            log("saving", k, 0)
            doc.save_as(work / "session.qkv.json")
            log("saved", k, 0)
        QTimer.singleShot(rng.randint(50, 200), edit)

    QTimer.singleShot(0, edit)
    app.exec()
""")


def run_once(folder: Path, work: Path, seed: int, rng: random.Random):
    """Start a child, check the folders at its start, let it edit, kill it; its log."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder), str(work), str(seed)],
                             cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        first = child.stdout.readline().split()
        assert first and first[0] == "start", child.stderr.read() if child.poll() else first
        start_k, instance = int(first[1]), first[2]
        data_files = sorted(p.name for p in folder.iterdir())
        work_files = sorted(p.name for p in work.iterdir())
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(child.stdout), daemon=True)
        reader.start()
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(rng.uniform(0.5, 1.7))
        killed_at = time.time()
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        reader.join(10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    # The kill may cut the last line short: with PYTHONUNBUFFERED each piece of a print
    # is its own write. A line without its newline was never completely reported.
    lines = [line for line in lines if line.endswith("\n")]
    tags = [line.split()[0] for line in lines if line.strip()]
    in_save = bool(tags) and tags[-1] == "saving"
    edits = [(int(k), float(t)) for tag, k, t in (line.split() for line in lines)
             if tag == "edit"]
    return start_k, instance, data_files, work_files, edits, killed_at, in_save


def test_kill_9_during_editing_and_saving_loses_at_most_the_autosave_window(tmp_path):
    folder, work = tmp_path / "data", tmp_path / "work"
    folder.mkdir()
    work.mkdir()
    rng = random.Random(19)
    previous = None  # (edits, killed_at) of the run before
    window = MAX_DELAY_MS / 1000 + SLACK_S
    kills_in_saves = 0
    for run in range(RUNS):
        start_k, instance, data_files, work_files, edits, killed_at, in_save = run_once(
            folder, work, run, rng)
        kills_in_saves += in_save
        # nothing but this instance's own autosave and lock
        assert set(data_files) <= {f"autosave-{instance}.qkv.json",
                                   f"autosave-{instance}.lock"}, (run, data_files)
        assert f"autosave-{instance}.lock" in data_files
        assert work_files == ["session.qkv.json"], (run, work_files)
        if previous is not None:
            before, at = previous
            made = {k for k, _t in before}
            assert start_k in made | {before[0][0] - 1}, (run, start_k)  # a real state
            due = [k for k, t in before if t <= at - window]  # must have been autosaved
            assert not due or start_k >= max(due), (
                f"run {run}: restored edit {start_k}, but edit {max(due)} was made "
                f"{at - dict(before)[max(due)]:.2f} s before the kill")
        assert edits, f"run {run} made no edit"
        previous = (edits, killed_at)
    print(f"{RUNS} kills, {kills_in_saves} of them during a save")
