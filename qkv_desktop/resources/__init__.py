"""Files the running app reads: its icon, desktop entry, MIME-type definition and the
interface translations (``translations/*.qm``, from ``resources/update_translations.py``).

They live inside the package, beside this module, so one copy serves every way
of running QKV Desktop: from a source checkout, from an editable or a regular
(wheel) install, and from a PyInstaller bundle (which collects them as data).
``resources/make_icons.py`` at the top of the checkout regenerates the PNG icon
sizes from the SVG.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["APP_ID", "resource_path", "icon_svg", "icon_pngs"]

APP_ID = "qkv-desktop"
"""The name shared by the launcher, the desktop entry, the icon and the WM class."""

_ROOT = Path(__file__).resolve().parent


def resource_path(*parts: str) -> Path:
    """Absolute path of the bundled resource ``parts`` (relative to this folder).

    Raises
    ------
    FileNotFoundError
        If the file is not there: an install that lost its package data should
        say so by name rather than show a blank icon.
    """
    path = _ROOT.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"QKV Desktop resource missing: {path}")
    return path


def icon_svg() -> Path:
    """The scalable application icon."""
    return resource_path("icons", f"{APP_ID}.svg")


def icon_pngs() -> dict[int, Path]:
    """The pre-rendered PNG icons, keyed by pixel size, smallest first."""
    found = {}
    for png in resource_path("icons", "hicolor").glob(f"*/apps/{APP_ID}.png"):
        width, _, height = png.parent.parent.name.partition("x")
        if width.isdigit() and width == height:
            found[int(width)] = png
    return dict(sorted(found.items()))
