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
    from . import __version__
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "render":
        from .render_cli import main as render_main
        return render_main(argv[1:])
    args = build_parser().parse_args(argv)
    _prefer_pyside6()
    from .model.state import SessionState
    try:
        state = SessionState.from_preset(args.preset) if args.preset else None
        size = _parse_size(args.size)
    except ValueError as exc:
        return _fail(str(exc))
    if args.session:
        return _fail("opening session files is not available in this version yet")
    return run_gui(state, screenshot=args.screenshot, size=size)


def run_gui(state, *, screenshot: str | None = None, size=(1600, 1000)) -> int:
    """Start the application; with ``screenshot`` render one frame to PNG and exit."""
    from PySide6.QtWidgets import QApplication
    from .model import AttentionModel
    from .views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("QKV Desktop")
    app.setOrganizationName("QKV Desktop")
    model = AttentionModel(state)
    window = MainWindow(model)
    if screenshot:
        return _screenshot(app, window, Path(screenshot), size)
    window.show()
    return app.exec()


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
