"""Render every bitmap form of the application icon from its SVG source.

The SVG ``qkv_desktop/resources/icons/qkv-desktop.svg`` is the one hand-edited
source; run this after every edit of it::

    python resources/make_icons.py

It rewrites

* ``qkv_desktop/resources/icons/hicolor/<N>x<N>/apps/qkv-desktop.png`` for each
  size in ``SIZES``: the window icon at exact sizes (crisper than scaling at run
  time), laid out as a freedesktop icon theme so the desktop entry installer can
  copy the tree into ``~/.local/share/icons/hicolor`` as it is;
* ``qkv_desktop/resources/icons/qkv-desktop.ico``: the icon PyInstaller embeds
  in the Windows executable; shipped in the package too, so a Windows user can
  give a shortcut to the pip-installed launcher this icon;
* ``resources/packaging/qkv-desktop.icns``: the icon of the macOS app bundle.

Both are containers of PNG images, written here directly so neither this script
nor the build needs Pillow or platform tools.

Re-running it on an unchanged SVG reproduces the same bytes.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QIODevice, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "qkv_desktop" / "resources" / "icons"
PACKAGING = ROOT / "resources" / "packaging"
SVG = ICONS / "qkv-desktop.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # 256 is the largest an .ico entry can say
# Apple's PNG-carrying icns types: (type code, pixel size); @2x types reuse sizes.
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
              (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64),
              (b"ic13", 256), (b"ic14", 512))


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """The SVG drawn anti-aliased on a transparent ``size`` × ``size`` canvas, as PNG."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.convertToFormat(QImage.Format.Format_ARGB32).save(buffer, "PNG"):
        raise OSError(f"cannot encode the {size} px icon as PNG")
    return bytes(buffer.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding ``pngs`` (size → PNG data), PNG-compressed entries."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = [], []
    for size, data in pngs.items():
        side = 0 if size == 256 else size  # the one-byte field writes 256 as 0
        entries.append(struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset))
        blobs.append(data)
        offset += len(data)
    return header + b"".join(entries) + b"".join(blobs)


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns with one PNG element per ``ICNS_TYPES`` entry."""
    body = b"".join(code + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
                    for code, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    """Write every icon file; print each path written. Exit status 1 on failure."""
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"cannot parse {SVG}", file=sys.stderr)
        return 1
    wanted = sorted(set(SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    pngs = {size: render_png(renderer, size) for size in wanted}
    outputs = {ICONS / "hicolor" / f"{size}x{size}" / "apps" / "qkv-desktop.png": pngs[size]
               for size in SIZES}
    outputs[ICONS / "qkv-desktop.ico"] = ico_bytes({s: pngs[s] for s in ICO_SIZES})
    outputs[PACKAGING / "qkv-desktop.icns"] = icns_bytes(pngs)
    for path, data in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
