"""Command line and start-up: the window, ``--screenshot``, and ``render``.

``qkv-desktop [SESSION] [--preset NAME] [--screenshot FILE] [--lang LANG]``
``qkv-desktop render SOURCE|--preset NAME --out DIR [--format png,svg,pdf] [--scale S]``
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

__all__ = ["main", "build_parser"]


def _prefer_pyside6() -> None:
    """pyqtgraph picks PyQt6 over PySide6 when both exist; we ship with PySide6."""
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    import PySide6.QtCore  # noqa: F401  (imported first so pyqtgraph binds to it)


def build_parser() -> argparse.ArgumentParser:
    from qkv_desktop import __version__
    p = argparse.ArgumentParser(
        prog="qkv-desktop",
        description="See, touch and understand self-attention. "
                    "Use 'qkv-desktop render --help' for headless figure export.")
    p.add_argument("session", nargs="?", help="a session file (.qkv.json) to open")
    p.add_argument("--preset", help="start from a preset: tutorial-1, tutorial-2, "
                                    "random-small, random-medium")
    p.add_argument("--screenshot", metavar="FILE",
                   help="render the main window to a PNG file and exit")
    p.add_argument("--size", default="1600x1000", metavar="WxH",
                   help="window size for --screenshot (default 1600x1000)")
    p.add_argument("--lang", help="interface language: en or zh_CN")
    p.add_argument("--install-desktop-entry", action="store_true",
                   help="add QKV Desktop to the application menu and let double-clicking "
                        "a .qkv.json file open it (Linux, into ~/.local/share)")
    p.add_argument("--uninstall-desktop-entry", action="store_true",
                   help="remove what --install-desktop-entry added")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def _fail(message: str) -> int:
    print(f"qkv-desktop: error: {message}", file=sys.stderr)
    return 2


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must look like 1600x1000, got {text!r}") from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise ValueError(f"--size must be between 200 and 8000 pixels per side, got {text!r}")
    return w, h


def main(argv: list[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # a bundle: its autosave writer process starts here
        import multiprocessing
        multiprocessing.freeze_support()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "render":
        from qkv_desktop.app.render_cli import main as render_main
        return render_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        from qkv_desktop.app.desktop_entry import install_desktop_entry, uninstall_desktop_entry
        try:
            print(install_desktop_entry() if args.install_desktop_entry
                  else uninstall_desktop_entry())
        except OSError as exc:
            return _fail(str(exc))
        return 0
    # The Qt-free layers (and NumPy) first: every module imported after PySide6 has
    # its source read by shiboken's import hook, which looks for ``__feature__``.
    from qkv_desktop.state.session_state import SessionState
    _prefer_pyside6()
    from qkv_desktop.views.i18n import normalize_language
    try:
        lang = normalize_language(args.lang) if args.lang is not None else None
    except ValueError as exc:
        return _fail(f"--lang: {exc}")
    try:
        state = SessionState.from_preset(args.preset) if args.preset else None
        size = _parse_size(args.size)
    except ValueError as exc:
        return _fail(str(exc))
    if args.session and args.preset:
        return _fail("give either a session file or --preset, not both")
    if args.screenshot is not None and not args.screenshot.strip():
        return _fail("--screenshot needs a file name, e.g. --screenshot window.png")
    if args.session and args.screenshot:
        from qkv_desktop.io.session import load_session
        try:
            state = load_session(args.session).state
        except ValueError as exc:
            return _fail(str(exc))
    return run_gui(state, screenshot=args.screenshot, size=size,
                   session=None if args.screenshot else args.session, lang=lang)


def run_gui(state, *, screenshot: str | None = None, size=(1600, 1000),
            session: str | None = None, lang: str | None = None) -> int:
    """Start the application; with ``screenshot`` render one frame to PNG and exit.

    Without a screenshot the window offers to restore work after a crash, then
    opens ``session`` if given, asking first whether to save restored work (a bad file
    is reported and the default stays open).
    ``lang`` (``en``, ``zh_CN``) overrides the saved and the system language.
    """
    if screenshot:
        _headless_when_no_display()
    app, window = create_window(state, lang)
    if screenshot:
        return _screenshot(app, window, Path(screenshot), size)
    from qkv_desktop.app import first_paint
    if first_paint.requested():  # the start-up benchmark
        first_paint.exit_after_first_paint(window)
    from qkv_desktop.app.startup_heap import collect_on_the_gui_thread, freeze_after_start_up
    collect_on_the_gui_thread(app)  # never on a worker thread: Qt objects in a cycle
    freeze_after_start_up(window)  # a full collection then walks only the session's objects
    window.show()
    files = window.files
    if first_paint.requested():
        # no question in the start-up benchmark: its quit closed it unanswered, which
        # read as No and deleted the crashed instance's autosave; it stays for a real
        # start. The lock and the look for orphans are made as in any start.
        files.session.acquire_lock()
    else:
        files.session.offer_recovery(files.ask)  # first: the file must not replace it unasked
    if session:
        files.open_path(session)  # asks to save restored work, like any open
    from qkv_desktop.views.teaching.tour import offer_once
    offer_once(window, window.settings)  # the first start only: Help → Getting started
    from qkv_desktop.app.quit_signals import ended_by_signals
    with ended_by_signals(app, window):  # Ctrl+C, kill: the work kept, the exit handlers run
        # (the start-up benchmark's paint told before the main loop: that loop is not run)
        code = 0 if first_paint.reported() else app.exec()
    from qkv_desktop.model.document import stop_autosave_writer
    stop_autosave_writer()  # its process and queues released now, not left to the exit
    return code


def create_window(state=None, lang: str | None = None):
    """The application object and a main window on ``state`` (not shown yet).

    The interface speaks ``lang`` if given, else the language chosen in View →
    Language, else the system's (``qkv_desktop.views.i18n.install_translators``).
    """
    from PySide6.QtWidgets import QApplication

    from qkv_desktop.app.blas_threads import limit_blas_threads
    from qkv_desktop.app.crash_guard import CrashGuard
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.views.i18n import install_translators
    from qkv_desktop.views.identity import apply_identity
    from qkv_desktop.views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    limit_blas_threads()
    apply_identity(app)
    install_translators(app, lang)  # before the window, which is then built translated
    window = MainWindow(AttentionModel(state))
    window.crash_guard = CrashGuard(window).install()  # log + show, never die, on a bug
    if sys.platform == "darwin":  # the one desktop whose Qt sends QFileOpenEvent
        # (an application event filter in Python sees every event of every object)
        app.installEventFilter(window.files.open_event_filter)
    return app, window



def _headless_when_no_display() -> None:
    """``--screenshot`` needs no display: without one, pick the offscreen platform (as
    ``render`` does) and silence its one warning, that windows have no size hints to
    pass on to a window manager it does not have."""
    from qkv_desktop.export.render import no_display
    if not no_display() and os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] != "offscreen":
        return
    os.environ["QT_QPA_PLATFORM"] = os.environ.get("QT_QPA_PLATFORM") or "offscreen"
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(kind, context, message):
        if "propagateSizeHints" in message:
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            sys.stderr.write(message + "\n")

    previous = qInstallMessageHandler(handler)


def _screenshot(app, window, path: Path, size) -> int:
    window.resize(*size)
    window.show()
    window.model.wait_until_idle()
    for _ in range(5):
        app.processEvents()
    image = window.grab()
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = image.save(str(path), "PNG")
    window.close()
    if not ok:
        return _fail(f"could not write the screenshot to {path}")
    print(path)
    return 0
