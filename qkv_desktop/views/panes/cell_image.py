"""A heatmap's colours as one opaque 32-bit image, coloured by ``map_to_rgba``.

pyqtgraph's ``ImageItem`` turns a float matrix and a 256-entry lookup table into an
indexed (8-bit palette) image, and scaling a palette image to the pane is the slowest
``drawImage`` Qt has: ≈0.3 ms for a 4 × 4 matrix in a 280 × 440 pane, eight panes per
edit. An opaque ``Format_RGB32`` image of the same cells draws in a seventh of that.
Its colours come from ``map_to_rgba``, the function exported figures and the value
labels' black-or-white choice use, so a pane and its figure match exactly; the value
labels' colours, computed for the same matrix, are handed in and not computed twice.
The pixels come ready from ``prepare_image`` (for a large matrix, made on the forward's
worker thread): the item only wraps them in a ``QImage``.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage

from qkv_desktop.presentation.pane_image import PaneImage, prepare_image
from qkv_desktop.views.panes.cell_updates import update_cells

__all__ = ["CellImage"]


class CellImage(pg.ImageItem):
    """An ``ImageItem`` (row-major) that renders through ``map_to_rgba`` to RGB32.

    ``image`` stays the matrix shown (the block means of a large one), as with any
    ``ImageItem``; ``set_image`` gives it with its levels and pixels.
    """

    _changed: list | None = None
    """While in ``set_image``: the only cells to repaint (None: all)."""

    def __init__(self, lut: np.ndarray):
        super().__init__(axisOrder="row-major")
        self.colour_lut = np.asarray(lut, dtype=np.uint8)
        self.prepared: PaneImage | None = None
        """The picture on display; its ``pixels`` are the ``QImage``'s buffer."""
        self._prepared_for: np.ndarray | None = None

    def set_image(self, prepared: PaneImage, changed: list | None = None) -> None:
        """Show ``prepared`` (``prepare_image``). ``changed``: the only cells whose
        colour differs from the picture shown (``cell_updates.changed_cells``), the
        only ones repainted; None repaints the whole picture."""
        self.prepared = prepared
        self._changed = changed
        try:
            self.setImage(prepared.shown, autoLevels=False, levels=prepared.levels)
        finally:
            self._changed = None
        self._prepared_for = self.image  # ``setImage`` keeps a view of ``shown``

    def update(self, *rect) -> None:
        """pyqtgraph's ``setImage`` repaints the whole item; within ``set_image`` with
        ``changed`` cells, only those (the item's coordinates are the cells' at the
        reduction (1, 1) that ``changed`` comes with)."""
        if rect or self._changed is None:
            super().update(*rect)
        else:
            update_cells(super(), self._changed)

    def render(self) -> None:
        """The colours as a ``Format_RGB32`` image (opaque; the mask layer above paints
        masked and overflowed cells)."""
        image = self.image
        self._unrenderable = image is None or image.size == 0
        if self._unrenderable:
            return
        prepared = self.prepared
        if prepared is None or self._prepared_for is not image:  # ``setImage`` called directly
            prepared = self.prepared = prepare_image(image, self.colour_lut,
                                                     tuple(self.levels), (1, 1))
        h, w = image.shape
        pixels = prepared.pixels
        self.qimage = QImage(pixels.data, w, h, 4 * w, QImage.Format.Format_RGB32)
        self._renderRequired = False
