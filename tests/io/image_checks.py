"""Helpers for the figure tests: pixels as arrays, picture distance, Chromium, PDF streams.

Two renderings of the same figure never agree pixel for pixel (text antialiasing
differs between Qt, Chromium and Poppler), so pictures are compared after averaging
blocks of pixels: the mean absolute difference of the block means is small when the
pictures agree and large when anything visible (a cell colour, a label) differs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
from PySide6.QtGui import QImage

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def image_array(image: QImage | str | Path) -> np.ndarray:
    """RGBA uint8 (h, w, 4) of a QImage or an image file."""
    if not isinstance(image, QImage):
        image = QImage(str(image))
        assert not image.isNull(), "could not read the image"
    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(),
                                                             image.bytesPerLine())
    return rows[:, : image.width() * 4].reshape(image.height(), image.width(), 4).copy()


def chromium_screenshot(svg: Path, width: int, height: int, scale: float,
                        workdir: Path) -> np.ndarray:
    """Chromium's rendering of ``svg`` shown at ``width``×``height`` CSS px, as RGBA.

    The SVG sits in an ``<img>`` of exactly its size on a white page with no margin;
    ``scale`` is the device pixel ratio.
    """
    page = workdir / "page.html"
    page.write_text('<!doctype html><html><body style="margin:0;background:white">'
                    f'<img src="{svg.resolve().as_uri()}" style="display:block;'
                    f'width:{width}px;height:{height}px"></body></html>', encoding="utf-8")
    shot = workdir / "shot.png"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars", f"--force-device-scale-factor={scale:g}",
           f"--user-data-dir={workdir / 'profile'}", f"--screenshot={shot}",
           f"--window-size={width},{height}", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={"HOME": str(workdir), "PATH": "/usr/bin:/bin"})
    assert shot.exists(), f"chromium wrote no screenshot: {proc.stderr[-2000:]}"
    return image_array(shot)


def pdf_streams(data: bytes) -> list[bytes]:
    """Every stream of a PDF, inflated where it is Flate-compressed."""
    out = []
    for m in re.finditer(rb"<<(.*?)>>\s*stream\r?\n", data, re.S):
        start = m.end()
        end = data.index(b"endstream", start)
        raw = data[start:end].rstrip(b"\r\n")
        if b"/FlateDecode" in m.group(1):
            try:
                raw = zlib.decompress(raw)
            except zlib.error:
                continue
        out.append(raw)
    return out
