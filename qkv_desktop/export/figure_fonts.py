"""The faces every exported figure is drawn in, the same on every machine.

A figure's PNG, SVG and PDF must agree glyph for glyph. Left to fontconfig, the
faces depend on the machine: one drew CJK row labels in a bold face in the PNG and
the regular face in the PDF. So figures use two bundled families and name the
weight of every text explicitly (``resources/make_figure_fonts.py`` says how they
were made and under which licences):

* ``QKV Figure Latin`` (a DejaVu Sans subset): digits, Latin, Greek, ᵀ, −, √, arrows;
* ``QKV Figure CJK`` (a Noto Sans CJK SC subset): GB 2312's hanzi and CJK punctuation.

Qt falls back glyph by glyph along this list, then to the system's fonts only for a
character neither subset has (an emoji in a token).
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase

from qkv_desktop.resources import resource_path

__all__ = ["FAMILIES", "FONT_FILES", "SVG_FALLBACKS", "register_figure_fonts", "figure_font",
           "svg_with_fallbacks"]

FAMILIES = ["QKV Figure Latin", "QKV Figure CJK"]
"""Font families of every figure text, in fallback order."""

FONT_FILES = ("QKVFigureLatin-Book.ttf", "QKVFigureLatin-Bold.ttf",
              "QKVFigureLatin-Oblique.ttf", "QKVFigureCJK-Regular.otf",
              "QKVFigureCJK-Bold.otf")

SVG_FALLBACKS = ("DejaVu Sans", "Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei",
                 "PingFang SC", "sans-serif")
"""What an SVG viewer without our fonts should use instead: faces of the same design."""

_registered: bool = False


def register_figure_fonts() -> None:
    """Add the bundled figure fonts to Qt's font database (once; needs a QGuiApplication).

    Raises ``RuntimeError`` when a font file is missing or unreadable: a figure in a
    substitute face would silently differ from the one on another machine.
    """
    global _registered
    if _registered:
        return
    for name in FONT_FILES:
        path = resource_path("fonts", name)
        if QFontDatabase.addApplicationFont(str(path)) < 0:
            raise RuntimeError(f"Qt could not load the figure font {path}")
    missing = [f for f in FAMILIES if f not in QFontDatabase.families()]
    if missing:
        raise RuntimeError(f"figure fonts not registered: {', '.join(missing)}")
    _registered = True


def figure_font(px: int, *, bold: bool = False, italic: bool = False) -> QFont:
    """The figure font at ``px`` pixels (= points in a figure), weight and slant pinned."""
    register_figure_fonts()
    font = QFont()
    font.setFamilies(FAMILIES)
    font.setPixelSize(px)
    font.setWeight(QFont.Weight.Bold if bold else QFont.Weight.Normal)
    font.setItalic(italic)
    # Unhinted outlines keep text the same width in PNG, SVG and PDF.
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return font


def svg_with_fallbacks(svg: bytes) -> bytes:
    """``svg`` with the faces a viewer without our fonts should use after them.

    QSvgGenerator names only the families of the QFont; a browser lacking them would
    otherwise pick its default serif face.
    """
    ours = ",".join(FAMILIES).encode()
    full = ",".join([*FAMILIES, *SVG_FALLBACKS]).encode()
    return svg.replace(b'font-family="' + ours + b'"', b'font-family="' + full + b'"')
