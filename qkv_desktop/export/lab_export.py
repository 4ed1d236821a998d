"""The labs on paper: a widget as PNG/SVG/PDF, and a step sequence as a multi-page PDF.

A lab is drawn by its widgets, so its picture is the widget rendered at twice its
pixel size and placed by the figure writers (``figures.encode_painting``) in a PNG,
SVG or PDF (``_render``). For handouts a stepper can be walked through
its steps, one PDF page each (``QPdfWriter.newPage``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QBuffer, QCoreApplication, QEvent, QIODevice, QMarginsF, QPoint, QRectF, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QRegion
from PySide6.QtWidgets import QScrollArea, QWidget

from qkv_desktop.export.figures import encode_painting, format_for
from qkv_desktop.io.files import atomic_write_bytes

__all__ = ["widget_bytes", "save_widget", "steps_pdf_bytes", "save_steps_pdf", "MAX_PAGES"]

MAX_PAGES = 500
"""A step sequence longer than this is refused (a 500-page handout is already a book)."""


PICTURE_SCALE = 2
"""The labs' pictures are drawn at this many pixels per widget pixel, then placed
(a PNG asked for at another scale is drawn at that one)."""


def _render(widget: QWidget, scale: float = PICTURE_SCALE) -> Callable[[QPainter], None]:
    """Paint ``widget`` as the screen shows it: drawn into a picture at twice its pixel
    size, which is placed on the page. Rendered onto a PDF's painter directly, the
    widgets' own painting went wrong: a row of controls in the online-softmax lab lost
    its top half under the tab above it on every page ("查询行 0", found by a
    first-time user), while the screen and the PNG were whole."""
    def paint(painter: QPainter) -> None:
        image = QImage(round(widget.width() * scale), round(widget.height() * scale),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(scale)
        image.fill(Qt.GlobalColor.white)
        inner = QPainter(image)
        try:
            widget.render(inner, QPoint(0, 0), QRegion(),
                          QWidget.RenderFlag.DrawChildren
                          | QWidget.RenderFlag.DrawWindowBackground)
        finally:
            inner.end()
        painter.drawImage(QRectF(0, 0, widget.width(), widget.height()), image)
    return paint


def widget_bytes(widget: QWidget, fmt: str, scale: float = 2.0, title: str = "") -> bytes:
    """``widget`` as it looks now, encoded as "png", "svg" or "pdf" (1 px = 1 pt)."""
    _settle(widget)
    return encode_painting(_render(widget, max(scale, 1.0)), widget.width(), widget.height(),
                           fmt, scale, "white", title)


def save_widget(widget: QWidget, path: str | os.PathLike, title: str = "") -> Path:
    """Write ``widget``'s picture to ``path`` (format from the extension), atomically."""
    path = Path(path)
    atomic_write_bytes(path, widget_bytes(widget, format_for(path), title=title))
    return path


def _settle(widget: QWidget) -> None:
    """Apply pending layout changes (new label texts, a grid grown by a row) before the
    widget is drawn: every layout in it, the innermost first. (The window's own only
    left a step's grids at the previous step's size: the KV cache's new row was cut
    off on the pages, though whole on the screen once its events were processed.)"""
    for child in (*reversed(widget.findChildren(QWidget)), widget):
        layout = child.layout()
        if layout is not None:
            layout.activate()
        if isinstance(child, QScrollArea):  # its content resized to the new minimum
            QCoreApplication.sendEvent(child, QEvent(QEvent.Type.LayoutRequest))


def steps_pdf_bytes(widget: QWidget, steps: Iterable[Callable[[], None]], title: str = "") -> bytes:
    """One PDF page per step: each callable puts the lab on a step, then ``widget`` is drawn.

    Every page has the widget's size in points. ``ValueError`` for no steps or more
    than ``MAX_PAGES``.
    """
    steps = list(steps)
    if not steps:
        raise ValueError("there are no steps to export")
    if len(steps) > MAX_PAGES:
        raise ValueError(f"{len(steps)} steps are more than {MAX_PAGES} pages")
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(72)
    writer.setTitle(title)
    writer.setCreator("QKV Desktop")
    writer.setPageLayout(QPageLayout(
        QPageSize(QSizeF(widget.width(), widget.height()), QPageSize.Unit.Point, "",
                  QPageSize.SizeMatchPolicy.ExactMatch),
        QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError("cannot start the PDF writer")
    try:
        for k, go_to_step in enumerate(steps):
            if k:
                writer.newPage()
            go_to_step()
            _settle(widget)
            _render(widget)(painter)
    finally:
        painter.end()
    buffer.close()
    return bytes(buffer.data())


def save_steps_pdf(widget: QWidget, steps: Iterable[Callable[[], None]],
                   path: str | os.PathLike, title: str = "") -> Path:
    """Write ``steps_pdf_bytes`` to ``path``, atomically."""
    path = Path(path)
    atomic_write_bytes(path, steps_pdf_bytes(widget, steps, title))
    return path
