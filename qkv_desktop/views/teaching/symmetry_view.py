"""QKᵀ beside KKᵀ for the current head: why queries and keys need different matrices.

The right-hand map is what the scores would be with one shared projection
(W_Q = W_K): symmetric across the diagonal, s_ij = s_ji. The weights are not: softmax
divides each row by its own sum, so w_ij / w_ji = Z_j / Z_i. The view says so with the
session's own pair of tokens (``KKComparison.pair``), which is the tutorial's error
corrected. Both maps share one colour scale so they compare cell by cell.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import lut_for, max_abs_finite, symmetric_levels
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.presentation.texts import token_in_text
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
from qkv_desktop.views.panes.values_note import ValuesNote
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
        self.lesson = QLabel(objectName="symmetryLesson")
        """Symmetric scores, asymmetric weights: the session's pair that shows it."""
        self.lesson.setWordWrap(True)
        self.qk_title = QLabel(objectName="qkTitle")
        self.kk_title = QLabel(objectName="kkTitle")
        for label in (self.qk_title, self.kk_title):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)
        self.qk = HeatmapPlot(lut_for("scores"))
        self.kk = HeatmapPlot(lut_for("scores"))
        self.values_note = ValuesNote(hover=False, objectName="symmetryValuesHidden")
        """Says that the maps' values are hidden when the dock is too small for them."""
        for plot in (self.qk, self.kk):
            plot.setMinimumSize(90, 90)
            plot.valuesHiddenChanged.connect(self._on_values_hidden)
        grid = QGridLayout()
        grid.addWidget(self.qk_title, 0, 0)
        grid.addWidget(self.kk_title, 0, 1)
        grid.addWidget(self.qk, 1, 0)
        grid.addWidget(self.kk, 1, 1)
        grid.setRowStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.explanation)
        layout.addWidget(self.lesson)
        layout.addLayout(grid, 1)
        layout.addWidget(self.values_note)
        model.lessonsChanged.connect(self.refresh)  # after the panes
        model.resultCleared.connect(self._on_result_cleared)
        model.currentHeadChanged.connect(self.refresh)
        self.retranslate()

    def retranslate(self) -> None:
        self.explanation.setText(self.tr(
            "<b>Why three matrices?</b> With one shared W (Q = K) the scores are KKᵀ, "
            "which is symmetric: the score of i for j equals that of j for i "
            "(s<sub>ij</sub> = s<sub>ji</sub>). In “猫 追 老鼠”, 追 looks at 猫 to ask who "
            "chases, while 猫 looks at 追 to ask what the cat does: different questions, "
            "which one shared projection cannot score differently, so W_Q and W_K differ "
            "(and W_V decides what is passed on). Both maps share one colour scale."))
        self.values_note.retranslate()
        self.redraw_due()
        self.refresh()

    def _on_values_hidden(self, _hidden: bool) -> None:
        self.values_note.follow(self.qk, self.kk)

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
        qk_text = (self.tr("n/a (cross-attention)") if a_qk is None else format_value(a_qk))
        # with RoPE the scores are of the turned queries and keys (the view said KKᵀ
        # where it showed RoPE(K)·RoPE(K)ᵀ, and a first user's KKᵀ by hand differed)
        rope = s.options.positions == "rope"
        qk, kk = (("RoPE(Q)·RoPE(K)ᵀ", "RoPE(K)·RoPE(K)ᵀ") if rope else ("QKᵀ", "KKᵀ"))
        qk_name = (self.tr("<b>{0}</b> (shared: W_Q = W_K)") if s.options.share_qk
                   else self.tr("<b>{0}</b> (separate W_Q, W_K)")).format(qk)
        self.qk_title.setText(qk_name + "<br>" + self.tr("asymmetry {0}").format(qk_text))
        cross = s.mode == "cross"
        # in cross-attention KKᵀ is not what one shared W would give: the keys against
        # themselves (it was titled "as if W_Q = W_K" beside a lesson saying otherwise)
        self.kk_title.setText((self.tr("<b>{0}</b> (keys against keys)") if cross else
                               self.tr("<b>{0}</b> (as if W_Q = W_K)")).format(kk) + "<br>"
                              + self.tr("asymmetry {0}").format(format_value(a_kk)))
        self.qk.setToolTip(self.tr("The scores this head really uses: {0}.").format(qk))
        self.kk.setToolTip((self.tr(
            "{0}: the key sequence scored against itself, symmetric across the diagonal. "
            "It is not what one shared W gives here: the queries come from X.") if cross
            else self.tr("The scores if W_Q were W_K: {0}, symmetric across the diagonal "
                         "(its weights are not: each row has its own softmax sum)."))
            .format(kk))
        self.lesson.setText(self._lesson_text(comparison, keys, (qk, kk), cross))

    def _lesson_text(self, comparison, keys: list[str], names: tuple[str, str],
                     cross: bool) -> str:
        """The pair of ``comparison`` whose weights differ most, in numbers, its map
        named ``names[1]``; in cross-attention, why there is none (the keys are not the
        queries: it quoted weights of keys attending to keys, which no pane shows, a
        first user)."""
        if cross:
            return self.tr(
                "<b>Cross-attention:</b> the queries come from X and the keys from X_kv, "
                "so even with one shared W the scores {0} are not {1}, nor symmetric. The "
                "symmetry this view is about is self-attention's: the right-hand map is "
                "the key sequence scored against itself.").format(*names)
        if comparison.pair is None:
            return self.tr(
                "<b>Symmetric scores, asymmetric weights</b> needs two tokens that see "
                "each other both ways; under this mask none do. Turn the mask off to "
                "compare a pair's weights.") if comparison.masked_out else ""
        i, j = comparison.pair
        s, w = comparison.kk, comparison.weights
        a, b = html.escape(token_in_text(keys[i])), html.escape(token_in_text(keys[j]))
        f = format_value
        return self.tr(
            "<b>Symmetric scores, asymmetric weights.</b> With W_Q = W_K, {5}[{0}, {1}] = "
            "{5}[{1}, {0}] = {2}, yet w[{1}→{0}] = {3} and w[{0}→{1}] = {4}: softmax "
            "divides each row by its own sum Z = Σ exp(s), so w<sub>ij</sub> / "
            "w<sub>ji</sub> = Z<sub>j</sub> / Z<sub>i</sub>. What one shared W makes equal "
            "is the score, not the attention.").format(
            a, b, f(s[i, j]), f(w[j, i]), f(w[i, j]), names[1])
