"""QKᵀ beside KKᵀ for the current head: why queries and keys need different matrices.

The right-hand map is what the scores would be with one shared projection
(W_Q = W_K): symmetric across the diagonal, so token i would attend to j exactly
as j attends to i. Both maps share one colour scale so they compare cell by cell.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import lut_for, max_abs_finite, symmetric_levels
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["SymmetryView"]


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
        self.qk = HeatmapPlot(lut_for("scores"))
        self.kk = HeatmapPlot(lut_for("scores"))
        for plot in (self.qk, self.kk):
            plot.setMinimumSize(140, 140)
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
        self.qk.set_labels(queries, keys)
        self.qk.show_matrix(qk, levels)
        self.kk.set_labels(keys, keys)
        self.kk.show_matrix(kk, levels)
        a_qk, a_kk = result.lessons(head).asymmetry, comparison.asymmetry
        self.values = (a_qk, a_kk)
        qk_text = (self.tr("n/a (cross-attention)") if a_qk is None else f"{a_qk:.4f}")
        qk_name = (self.tr("<b>QKᵀ</b> (shared: W_Q = W_K)") if s.options.share_qk
                   else self.tr("<b>QKᵀ</b> (separate W_Q, W_K)"))
        self.qk_title.setText(qk_name + "<br>" + self.tr("asymmetry {0}").format(qk_text))
        self.kk_title.setText(self.tr("<b>KKᵀ</b> (as if W_Q = W_K)") + "<br>"
                              + self.tr("asymmetry {0}").format(f"{a_kk:.4f}"))
