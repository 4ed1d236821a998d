"""Live read-outs of the current head: per-query entropy and max weight, QKᵀ asymmetry.

These are the numbers behind the tutorial's claims: whether attention is focused
or flat (entropy against log n), and whether separate W_Q and W_K really make
QKᵀ asymmetric (‖S − Sᵀ‖/‖S‖, 0 for the shared-weight KKᵀ).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.lessons import UNIFORM_FRACTION
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_percent, format_value, rounding_of
from qkv_desktop.presentation.texts import (
    join_clauses,
    join_sentences,
    stale_note,
    token_in_text,
)
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.status_bar import QWIDGETSIZE_MAX

__all__ = ["DiagnosticsPanel", "DiagnosticsTableModel", "AsymmetryBadge", "BAR_ROLE"]

BAR_ROLE = Qt.ItemDataRole.UserRole + 1
"""Item data role holding a 0…1 fraction drawn as a bar behind the number."""


class _BarDelegate(QStyledItemDelegate):
    """Paints a pale bar, as long as the cell's ``BAR_ROLE`` fraction, under the text."""

    def paint(self, painter, option, index) -> None:
        frac = index.data(BAR_ROLE)
        if isinstance(frac, float) and np.isfinite(frac):
            r = option.rect
            bar = QRectF(r.left() + 1, r.top() + 3, max(0.0, min(frac, 1.0)) * (r.width() - 2),
                         r.height() - 6)
            painter.fillRect(bar, QColor(127, 205, 187, 150))
        super().paint(painter, option, index)


class AsymmetryBadge(Retranslating, QLabel):
    """A status-bar read-out of the current head's QKᵀ asymmetry, always in view."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("asymmetryBadge")
        self._fitted: tuple | None = None  # what the fixed size was found for (``_fit``)
        model.lessonsChanged.connect(self.refresh)  # after the panes
        model.currentHeadChanged.connect(self.refresh)
        model.resultCleared.connect(self.clear)  # the session closed before's value
        self.retranslate()

    def retranslate(self) -> None:
        self.setToolTip(self.tr(
            "How asymmetric the scores are: ‖S − Sᵀ‖ / ‖S‖ for S = QKᵀ. It is 0 when the "
            "scores are symmetric, s_ij = s_ji (as when W_Q = W_K: S = KKᵀ), and larger "
            "the more s_ij and s_ji differ. Even symmetric scores give weights that are "
            "in general not symmetric: each row of the softmax has its own sum."))
        self.refresh()

    def refresh(self, *_args) -> None:
        result = self.model.result
        if result is None:
            return
        value = result.lessons(self.model.current_head).asymmetry  # None in cross mode
        if value is None:
            self.setText(self.tr("QKᵀ asymmetry: n/a (cross-attention)"))
            style = "color: #555555;"
        elif value == 0:
            self.setText(self.tr("QKᵀ symmetric: ‖S−Sᵀ‖/‖S‖ = 0"))
            style = "color: #1d5a96; font-weight: bold;"
        else:
            self.setText(self.tr("QKᵀ asymmetry ‖S−Sᵀ‖/‖S‖ = {0}").format(format_value(value)))
            style = "color: #7a2e00;"
        style += " padding: 0 6px;"
        if style != self.styleSheet():  # a new style sheet re-polishes the status bar
            self.setStyleSheet(style)
        self._fit()

    def _fit(self) -> None:
        """Hold the badge at its text's size. Every edit writes a new value, and a label
        whose size may change asks its layout again: the status bar, then the whole
        window, were laid out anew on each edit (issue 20). A fixed-size widget asks
        nothing, so the size is fixed, and found again only when the text's width, the
        font or the style is another (a longer value, another language, bold)."""
        key = (self.fontMetrics().horizontalAdvance(self.text()), self.font().key(),
               self.styleSheet())
        if key == self._fitted:
            return
        self._fitted = key
        self.setMinimumSize(0, 0)  # the natural size (a label's hint is at least its minimum)
        self.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
        self.setFixedSize(self.sizeHint())

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()


class DiagnosticsTableModel(QAbstractTableModel):
    """Per-query rows of a head's ``RowUniformity``, formatted only when the view asks.

    A result replaces the arrays and resets the model: no per-cell items are built, so
    n = 2048 costs what the visible rows cost.
    """

    COLUMNS = 5

    def __init__(self, parent=None):
        super().__init__(parent)
        self._u = None
        self._tokens: tuple = ()
        self._keys: tuple = ()
        self._exact = 0.0
        self._headers: tuple = ("",) * self.COLUMNS
        self._tips: tuple = ("",) * self.COLUMNS

    def set_rows(self, u, tokens, keys, dtype=np.float64) -> None:
        """``dtype``: the forward's, which bounds the rounding of H / log n."""
        self.beginResetModel()
        self._u, self._tokens, self._keys = u, tuple(tokens), tuple(keys)
        self._exact = rounding_of(dtype)
        self.endResetModel()

    def _one_key(self, i: int) -> bool:
        """Row ``i`` sees one key and its weight is the 1 that gives (a naive softmax that
        broke makes it NaN: that row reads NaN as the others do)."""
        u = self._u
        return bool(u.visible[i] <= 1 and np.isfinite(u.max_weight[i]))

    def set_headers(self, headers, tips) -> None:
        self._headers, self._tips = tuple(headers), tuple(tips)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.COLUMNS - 1)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self._u is None else len(self._tokens)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self.COLUMNS

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < self.COLUMNS:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tips[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._u is None:
            return None
        i, c, u = index.row(), index.column(), self._u
        if role == Qt.ItemDataRole.DisplayRole:
            if c == 0:
                return token_in_text(self._tokens[i])
            if c == 1:
                return format_value(u.entropy[i])
            if c == 2:
                if self._one_key(i):  # log 1 = 0: H / log n is 0/0, not 100 %
                    return "—"
                return format_percent(u.fraction[i], exact_within=self._exact)
            if c == 3:
                return format_value(u.max_weight[i])
            return token_in_text(self._keys[int(u.argmax[i])]) if np.isfinite(u.max_weight[i]) else "—"
        if role == Qt.ItemDataRole.ToolTipRole and c == 2 and self._one_key(i):
            return self.tr("This query sees one key: its weight is 1, its entropy 0, and "
                           "H / log n is 0 / 0 (log 1 = 0), so it has no fraction.")
        if role == BAR_ROLE and c in (2, 3):
            if c == 2 and self._one_key(i):
                return None
            return float(u.fraction[i] if c == 2 else u.max_weight[i])
        if role == Qt.ItemDataRole.TextAlignmentRole and c:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class DiagnosticsPanel(RefreshWhenShown, Retranslating, QWidget):
    """A table of the current head's per-query entropy, H / log n and max weight.

    It reads the result's cached lesson read-outs, and only while on screen: a panel
    hidden (or behind another dock tab) catches up when it is shown.
    """

    COLUMNS = DiagnosticsTableModel.COLUMNS

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("diagnosticsPanel")
        self.asymmetry_label = QLabel(objectName="diagAsymmetry")
        self.asymmetry_label.setWordWrap(True)
        self.summary = QLabel(objectName="diagSummary")
        self.summary.setWordWrap(True)
        self.rows = DiagnosticsTableModel(self)
        self.table = QTableView(objectName="diagTable")
        self.table.setModel(self.rows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        # Sections as wide as their header and cells, the last one taking what is left: in
        # a narrow dock stretched sections cut the headers ("ntropy H (nats"); a
        # horizontal scroll bar is better than an unreadable header.
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setItemDelegate(_BarDelegate(self.table))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.asymmetry_label)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        model.lessonsChanged.connect(self.refresh)  # after the panes
        model.currentHeadChanged.connect(self.refresh)
        model.computeErrorChanged.connect(self._on_compute_error)
        model.resultCleared.connect(self._on_result_cleared)
        self.retranslate()

    def retranslate(self) -> None:
        headers = (self.tr("query"), self.tr("entropy H (nats)"), self.tr("H / log n"),
                   self.tr("max weight"), self.tr("attends most to"))
        tips = (self.tr("The query token (one row of the weights)."),
                self.tr("Entropy of the row's weights in nats: 0 = all on one key, "
                        "log n = spread evenly."),
                self.tr("Entropy as a fraction of its largest possible value log n "
                        "(n = keys the query may see): near 1 = nearly uniform."),
                self.tr("The largest weight of the row: 1/n when uniform, 1 when one-hot."),
                self.tr("The key with the largest weight."))
        self.rows.set_headers(headers, tips)
        self.redraw_due()
        self.refresh()

    def refresh(self, *_args) -> None:
        """Show the current head's read-outs, if the panel is on screen and they changed."""
        due = self._due()
        if due is None:
            return
        result, head = due
        lessons = result.lessons(head)
        self._show_asymmetry(lessons.asymmetry)
        dtype = result.head(head).weights.dtype
        self._show_summary(lessons, result.state.n_heads > 1, head, dtype)
        self.rows.set_rows(lessons.uniformity, result.state.tokens, result.state.key_tokens,
                           dtype)

    def _on_compute_error(self, _error: str) -> None:
        self.redraw_due()  # the same result, said to be stale (or no longer)
        self.refresh()

    def _show_asymmetry(self, value: float | None) -> None:
        if value is None:
            text = self.tr("<b>QKᵀ asymmetry</b>: not defined in cross-attention "
                           "(queries and keys are different sequences).")
        else:
            text = self.tr("<b>QKᵀ asymmetry</b> ‖S − Sᵀ‖ / ‖S‖ = <b>{0}</b>").format(
                format_value(value))
            text += " — " + (self.tr("symmetric scores, s_ij = s_ji; the weights may "
                                     "still differ, since each row has its own softmax sum.")
                             if value == 0 else
                             self.tr("i→j and j→i differ, as separate W_Q and W_K allow."))
        self.asymmetry_label.setText(text)

    def _show_summary(self, lessons, multi: bool, head: int, result_dtype) -> None:
        prefix = self.tr("Head {0}: ").format(head + 1) if multi else ""
        u = lessons.uniformity
        over, under, summed = lessons.broken_rows or (0, 0, 0)
        if np.isnan(u.fraction).any() or summed:
            parts = []
            if over:
                parts.append(self.tr("%n rows overflowed (an exp(s) is ∞, and ∞/∞ = NaN)",
                                     "", over))
            if under:
                parts.append(self.tr("%n rows underflowed (every exp(s) is 0, and 0/0 = "
                                     "NaN)", "", under))
            if summed:  # finite weights, so no NaN: every one of the row is exp(s)/∞ = 0
                parts.append(self.tr("%n rows' sums overflowed (every exp(s) is finite, "
                                     "their sum is ∞, and every weight is 0)", "", summed))
            text = (self.tr("Some weights are NaN (naive softmax): {0}.")
                    if over or under else
                    self.tr("The naive softmax broke: {0}.")).format(join_clauses(parts))
        elif lessons.nearly_uniform:
            text = self.tr("Nearly uniform: every row's entropy is above {0:.0%} of log n "
                           "(max |w − 1/n| = {1}).").format(UNIFORM_FRACTION,
                                                           format_value(u.deviation.max()))
        else:
            # over the rows that see two keys or more: a one-key row has no fraction
            # (0/0) and its max weight is 1 whatever the scores
            several = u.visible > 1
            mean = (format_percent(np.mean(u.fraction[several]),
                                   exact_within=rounding_of(result_dtype))
                    if several.any() else "—")
            # "= < 0.0001%" read as a slip (a first user): a bound is said as one
            relation = mean if mean[0] in "<>" else "= " + mean
            text = self.tr("Mean H / log n {0}; mean max weight = {1}.").format(
                relation,
                format_value(np.mean(u.max_weight[several])) if several.any() else "—")
        if self.model.compute_error:  # the last result's numbers, not the table's
            text = join_sentences((stale_note(), text))
        self.summary.setText(prefix + text)
