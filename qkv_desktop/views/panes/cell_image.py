"""A heatmap's colours as one opaque 32-bit image, coloured by ``map_to_rgba``.

pyqtgraph's ``ImageItem`` turns a float matrix and a 256-entry lookup table into an
indexed (8-bit palette) image, and scaling a palette image to the pane is the slowest
``drawImage`` Qt has: ≈0.3 ms for a 4 × 4 matrix in a 280 × 440 pane, eight panes per
edit. An opaque ``Format_RGB32`` image of the same cells draws in a seventh of that.
Its colours come from ``map_to_rgba``, the function exported figures and the value
labels' black-or-white choice use, so a pane and its figure match exactly; the value
labels' colours, computed for the same matrix, are handed in and not computed twice.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage

from qkv_desktop.presentation.colormaps import map_to_rgba

__all__ = ["CellImage"]


class CellImage(pg.ImageItem):
    """An ``ImageItem`` (row-major) that renders through ``map_to_rgba`` to RGB32.

    ``image`` stays the matrix shown (the block means of a large one), as with any
    ``ImageItem``; ``set_cells`` gives it, its levels and optionally its colours.
    """

    def __init__(self, lut: np.ndarray):
        super().__init__(axisOrder="row-major")
        self.colour_lut = np.asarray(lut, dtype=np.uint8)
        self._rgba: np.ndarray | None = None
        self._pixels: np.ndarray | None = None  # the QImage's buffer (kept alive with it)

    def set_cells(self, shown: np.ndarray, levels: tuple[float, float],
                  rgba: np.ndarray | None = None) -> None:
        """Show ``shown`` on ``levels``; ``rgba`` is ``map_to_rgba(shown, …)`` when the
        caller already has it."""
        self._rgba = rgba
        self.setImage(shown, autoLevels=False, levels=levels)

    def render(self) -> None:
        """The colours as a ``Format_RGB32`` image (opaque; the mask layer above paints
        masked and overflowed cells)."""
        image = self.image
        self._unrenderable = image is None or image.size == 0
        if self._unrenderable:
            return
        rgba = self._rgba
        if rgba is None or rgba.shape[:2] != image.shape:
            rgba = map_to_rgba(image, self.colour_lut, tuple(self.levels))
        self._rgba = None
        h, w = image.shape
        # Format_RGB32 is 0xffRRGGBB per pixel: on a little-endian machine B, G, R, A bytes
        order = [2, 1, 0, 3] if np.little_endian else [3, 0, 1, 2]
        self._pixels = np.ascontiguousarray(rgba[..., order])
        self.qimage = QImage(self._pixels.data, w, h, 4 * w, QImage.Format.Format_RGB32)
        self._renderRequired = False
