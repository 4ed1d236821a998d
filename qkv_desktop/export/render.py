"""Headless export of a whole session: every pane, a dashboard and the matrices.

``render`` is what ``qkv-desktop render`` runs: no window, no widgets, only a
``QGuiApplication`` (created here, offscreen when there is no display) for fonts.
Everything is checked and laid out before the first byte is written, and the files
appear together or not at all, so bad input leaves the output folder as it was.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication

from qkv_desktop.export.data_export import npz_bytes
from qkv_desktop.export.figure_set import dashboard_title, figure_set
from qkv_desktop.export.figures import (
    FORMATS,
    check_background,
    check_png_size,
    check_scale,
    encode_layout,
)
from qkv_desktop.export.formats import check_choices
from qkv_desktop.io.staged_files import StagedFiles
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import SessionState

__all__ = ["no_display", "ensure_gui_app", "check_formats", "dashboard_title", "render"]

Translate = Callable[[str, str], str]

_app: QGuiApplication | None = None  # the application render created, kept alive


def no_display() -> bool:
    """Linux without ``DISPLAY``/``WAYLAND_DISPLAY`` and no ``QT_QPA_PLATFORM`` choice:
    a Qt application must use the offscreen platform (the default one would abort)."""
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return sys.platform.startswith("linux") and headless and not os.environ.get("QT_QPA_PLATFORM")


def ensure_gui_app() -> QGuiApplication:
    """The running ``QGuiApplication``, creating one if there is none.

    On Linux without ``DISPLAY``/``WAYLAND_DISPLAY`` (and no ``QT_QPA_PLATFORM``
    choice) it uses the offscreen platform, which needs no display server.
    ``RuntimeError`` if a plain ``QCoreApplication`` is running (it has no fonts).
    """
    global _app
    app = QCoreApplication.instance()
    if app is None:
        argv = [sys.argv[0] if sys.argv and sys.argv[0] else "qkv-desktop"]
        if no_display():
            argv += ["-platform", "offscreen"]
        _app = app = QGuiApplication(argv)
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("rendering figures needs a QGuiApplication, but a "
                           "QCoreApplication is running")
    return app


def check_formats(formats: str | Iterable[str]) -> tuple[str, ...]:
    """``formats`` (one name or several) as a tuple of image formats, duplicates dropped.

    ``ValueError`` names an unknown format, or says that none was given.
    """
    return check_choices(formats, FORMATS, "image")


def _missing_top(folder: Path) -> Path | None:
    """The outermost folder of ``folder``'s path that does not exist yet."""
    top = None
    for p in (folder, *folder.parents):
        if p.exists():
            break
        top = p
    return top


def render(state: SessionState, out_dir: str | os.PathLike,
           formats: str | Iterable[str] = ("png",), scale: float = 2.0,
           translate: Translate | None = None, *, h: int = 0,
           background: str = "white", extra_arrays: dict | None = None) -> list[Path]:
    """Write the eight panes, a dashboard and ``matrices.npz`` for ``state``.

    Parameters
    ----------
    state : SessionState
        What to compute and draw.
    out_dir : path
        The output folder; created if missing.
    formats : "png", "svg", "pdf" or several of them
        One file per pane and format: ``x, q, k, v, scores, scaled, weights, output``
        and ``dashboard``, e.g. ``q.svg``; with several heads also every head's panes
        (``weights_h2``…), ``concat`` and ``projected``; in cross mode ``x_kv``.
    scale : float
        PNG pixels per point, in (0, 10].
    translate : callable(context, text) -> str, optional
        For the figure-only texts (see ``pane_specs``).
    h : int
        The head to draw.
    background : "white" or "transparent"
    extra_arrays : dict, optional
        More arrays for ``matrices.npz`` (see ``npz_bytes``).

    Returns
    -------
    The written paths: per format the panes then the dashboard, then ``matrices.npz``.

    Raises
    ------
    ValueError
        A bad format, scale, background, folder or state; nothing is written then.
    """
    if not isinstance(state, SessionState):
        raise ValueError(f"render needs a SessionState, got {type(state).__name__}")
    formats = check_formats(formats)
    scale = check_scale(scale)
    background = check_background(background)
    if not os.fspath(out_dir).strip():
        raise ValueError("the output folder is empty; give a folder name (\".\" for the "
                         "current folder)")
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"{os.fspath(out_dir)!r} exists and is not a folder")
    ensure_gui_app()
    result = compute(state)
    layouts = figure_set(result, h, translate)
    if "png" in formats:
        for _, lay in layouts:
            check_png_size(lay.width, lay.height, scale)

    created = _missing_top(out_dir.absolute())
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with StagedFiles() as staged:
            for fmt in formats:
                for name, lay in layouts:
                    staged.add(out_dir / f"{name}.{fmt}",
                               encode_layout(lay, fmt, scale, background))
            staged.add(out_dir / "matrices.npz", npz_bytes(result, h, extra_arrays))
            return staged.commit()
    except BaseException:
        if created is not None:  # remove the folders made above, if still empty
            folder = out_dir.absolute()
            while True:
                try:
                    folder.rmdir()
                except OSError:
                    break
                if folder == created:
                    break
                folder = folder.parent
        raise
