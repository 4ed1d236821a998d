"""QKᵀ beside KKᵀ for the current head: why queries and keys need different matrices.

The right-hand map is what the scores would be with one shared projection
(W_Q = W_K): symmetric across the diagonal, so token i would attend to j exactly
as j attends to i. Both maps share one colour scale so they compare cell by cell.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import (
    clip_to_levels,
    lut_for,
    map_to_rgba,
    max_abs_finite,
    symmetric_levels,
    text_color_for,
)
from qkv_desktop.presentation.pane_image import block_mean, display_factors
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["SymmetryView", "MAX_VALUE_CELLS"]

MAX_VALUE_CELLS = 100
"""Matrices with at most this many cells show their values as text."""
MAX_TICK_LABELS = 40


class _MiniHeatmap(pg.PlotWidget):
    """A small labelled heatmap with optional value text, for side-by-side comparisons."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background="w")
        item = self.getPlotItem()
        item.setMenuEnabled(False)
        item.hideButtons()
        vb = item.getViewBox()
        vb.invertY(True)
        vb.setMouseEnabled(x=False, y=False)
        vb.setDefaultPadding(0.0)
        self.image = pg.ImageItem(axisOrder="row-major")
        item.addItem(self.image)
        self._texts: list[pg.TextItem] = []
        self.data = np.zeros((0, 0))
        self._pending: tuple | None = None
        self.setMinimumSize(140, 140)

    def set_matrix(self, data: np.ndarray, levels, rows: list[str], cols: list[str]) -> None:
        """Show ``data``: drawn now when on screen, else when it is next painted.

        A dock behind another tab stays "visible" with nothing of it on screen, so the
        test is the visible region of the viewport (the view's own region is empty: the
        viewport child covers all of it); its first paint after its tab is chosen draws it.
        """
        self.data = data
        self._pending = (levels, rows, cols)
        if self.isVisible() and not self.viewport().visibleRegion().isEmpty():
            self._draw()

    def paintEvent(self, event) -> None:
        if self._pending is not None:
            QTimer.singleShot(0, self._draw)  # not while the scene is being painted
        super().paintEvent(event)

    def _draw(self) -> None:
        if self._pending is None:
            return
        (levels, rows, cols), self._pending = self._pending, None
        data = self.data
        lut = lut_for("scores")
        vb = self.getPlotItem().getViewBox()
        shown = block_mean(data, *display_factors(data.shape, (vb.height(), vb.width())))
        self.image.setImage(clip_to_levels(shown, levels), autoLevels=False, levels=levels,
                            lut=lut)
        self.image.setRect(QRectF(0, 0, data.shape[1], data.shape[0]))
        item = self.getPlotItem()
        item.getAxis("left").setTicks(_ticks(rows))
        item.getAxis("bottom").setTicks(_ticks(cols))
        vb.setRange(xRange=(0, data.shape[1]), yRange=(0, data.shape[0]), padding=0)
        cells = data.size if data.size <= MAX_VALUE_CELLS else 0
        while len(self._texts) > cells:
            item.removeItem(self._texts.pop())
        while len(self._texts) < cells:  # the text items are reused from edit to edit
            self._texts.append(pg.TextItem("", anchor=(0.5, 0.5)))
            item.addItem(self._texts[-1])
        if not cells:
            return
        white = text_color_for(map_to_rgba(data, lut, levels))
        for text, ((i, j), v) in zip(self._texts, np.ndenumerate(data), strict=False):
            text.setText(f"{v:.3f}", color=(255, 255, 255) if white[i, j] else (20, 20, 20))
            text.setPos(j + 0.5, i + 0.5)


def _ticks(labels: list[str]) -> list:
    """At most ``MAX_TICK_LABELS`` evenly spaced token labels."""
    step = max(1, -(-len(labels) // MAX_TICK_LABELS))
    return [[(k + 0.5, labels[k]) for k in range(0, len(labels), step)]]


class SymmetryView(RefreshWhenShown, Retranslating, QWidget):
    """Two heatmaps, QKᵀ and KKᵀ, with their asymmetry and the tutorial's reason.

    KKᵀ and both asymmetries come from the result's cached read-outs, and only while
    the view is on screen: hidden (or behind another dock tab) it does nothing until
    it is shown again.
    """

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("symmetryView")
        self.explanation = QLabel(objectName="symmetryExplanation")
        self.explanation.setWordWrap(True)
        self.qk_title = QLabel(objectName="qkTitle")
        self.kk_title = QLabel(objectName="kkTitle")
        for label in (self.qk_title, self.kk_title):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)
        self.qk = _MiniHeatmap()
        self.kk = _MiniHeatmap()
        grid = QGridLayout()
        grid.addWidget(self.qk_title, 0, 0)
        grid.addWidget(self.kk_title, 0, 1)
        grid.addWidget(self.qk, 1, 0)
        grid.addWidget(self.kk, 1, 1)
        grid.setRowStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.explanation)
        layout.addLayout(grid, 1)
        self.values: tuple[float | None, float] = (None, 0.0)
        self._shown = None  # (result, head) on display
        model.resultChanged.connect(self.refresh)
        model.currentHeadChanged.connect(self.refresh)
        self.retranslate()

    def retranslate(self) -> None:
        self.explanation.setText(self.tr(
            "<b>Why three matrices?</b> With one shared W (Q = K) the scores are KKᵀ, "
            "which is symmetric: i would attend to j exactly as j attends to i. In "
            "“猫 追 老鼠”, 追 looks at 猫 to ask who chases, while 猫 looks at 追 to ask "
            "what the cat does: different questions, so W_Q and W_K must differ (and W_V "
            "decides what is passed on). Both maps share one colour scale."))
        self.qk.setToolTip(self.tr("The scores this head really uses: QKᵀ."))
        self.kk.setToolTip(self.tr("The scores if W_Q were W_K: KKᵀ, a mirror image across "
                                   "the diagonal."))
        self._shown = None
        self.refresh()

    def refresh(self, *_args) -> None:
        """Show the current head, if the view is on screen and the result is new."""
        due = self._due()
        if due is None:
            return
        result, head = due
        r, comparison = result.head(head), result.kk(head)
        qk, kk = r.scores, comparison.kk
        top = max(max_abs_finite(qk), max_abs_finite(kk))
        levels = symmetric_levels(top)
        s = result.state
        queries, keys = list(s.tokens), list(s.key_tokens)
        self.qk.set_matrix(qk, levels, queries, keys)
        self.kk.set_matrix(kk, levels, keys, keys)
        a_qk, a_kk = result.lessons(head).asymmetry, comparison.asymmetry
        self.values = (a_qk, a_kk)
        qk_text = (self.tr("n/a (cross-attention)") if a_qk is None else f"{a_qk:.4f}")
        qk_name = (self.tr("<b>QKᵀ</b> (shared: W_Q = W_K)") if s.options.share_qk
                   else self.tr("<b>QKᵀ</b> (separate W_Q, W_K)"))
        self.qk_title.setText(qk_name + "<br>" + self.tr("asymmetry {0}").format(qk_text))
        self.kk_title.setText(self.tr("<b>KKᵀ</b> (as if W_Q = W_K)") + "<br>"
                              + self.tr("asymmetry {0}").format(f"{a_kk:.4f}"))
