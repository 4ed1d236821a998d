"""Render the application icon's PNG sizes from its SVG source.

The SVG ``qkv_desktop/resources/icons/qkv-desktop.svg`` is the one hand-edited
source; the PNGs beside it exist because Windows, the X11 window-manager hint
and some Linux panels want bitmaps, and a bitmap rendered at each exact size is
crisper than one scaled at run time. Run this after every edit of the SVG::

    python resources/icons/make_pngs.py

It rewrites ``qkv_desktop/resources/icons/hicolor/<N>x<N>/apps/qkv-desktop.png``
for every size in ``SIZES`` (the freedesktop icon-theme layout, so the tree can be
copied into ``~/.local/share/icons/hicolor`` as it is). Re-running it on an
unchanged SVG reproduces the same files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parents[2] / "qkv_desktop" / "resources" / "icons"
SVG = ICONS / "qkv-desktop.svg"


def render(renderer: QSvgRenderer, size: int) -> QImage:
    """The SVG drawn anti-aliased into a transparent ``size`` × ``size`` image."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def main() -> int:
    """Write every PNG size; print each path written. Exit status 1 on failure."""
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"cannot parse {SVG}", file=sys.stderr)
        return 1
    for size in SIZES:
        out = ICONS / "hicolor" / f"{size}x{size}" / "apps" / "qkv-desktop.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(out), "PNG"):
            print(f"cannot write {out}", file=sys.stderr)
            return 1
        print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
