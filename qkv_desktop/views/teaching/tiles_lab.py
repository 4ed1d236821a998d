"""Online softmax and FlashAttention tiles, stepped through on the session's scores.

Tab 1 walks one row of scores block by block: the running maximum m, the running sum
l and the rescale factor exp(m_old − m_new) of each block, ending at the stable
softmax, while the naive exp(s)/Σexp(s) of the same row may overflow.

Tab 2 cuts the score matrix into query × key tiles and visits them in FlashAttention-2's
order (each query block sweeps the key blocks); the query block's m, l and partial
output change at every tile, and the final output equals standard attention although
the n × n matrix never existed: O(n·d) memory instead of O(n²).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.flash_attention import attention_memory, flash_attention
from qkv_desktop.core.masks import alibi_bias
from qkv_desktop.core.online_softmax import online_softmax
from qkv_desktop.core.softmax import softmax
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_nonzero, format_setting, format_value
from qkv_desktop.presentation.pane_info import scaled_formula
from qkv_desktop.presentation.sizes import format_bytes
from qkv_desktop.presentation.texts import join_sentences
from qkv_desktop.state.lab_inputs import head_inputs
from qkv_desktop.views.editors.spin_boxes import ClampSayingDoubleSpinBox, ClampSayingSpinBox
from qkv_desktop.views.editors.wheel_focus import FocusSlider
from qkv_desktop.views.layout import fit_to_screen
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.teaching.lab_window import LabWindow, StepControls, applies_typing_first
from qkv_desktop.views.teaching.matrix_grid import MatrixGrid, same_cell_width
from qkv_desktop.views.teaching.table_copy import CopiesTableAsText

__all__ = ["TilesLab", "MAX_TILE_CELLS", "MAX_TILES", "MEMORY_SIZES"]

MAX_TILE_CELLS = 64
"""The tile grid draws at most this many query rows and key columns."""

MAX_TILES = 4096
"""More tiles than this are refused (each is a step; pick larger blocks)."""

MEMORY_SIZES = (512, 8192)
"""Sequence lengths of the memory read-out, besides the session's own n."""

CURRENT = QColor(230, 85, 13)
VISITED = QColor(33, 102, 172)
SKIPPED = QColor(170, 170, 170)


def _num(v: float) -> str:
    """A number of the tables by the app's one rule (four decimals, −∞ for an empty
    running maximum)."""
    return format_value(v)


def _slider(name: str) -> QSlider:
    s = FocusSlider(Qt.Orientation.Horizontal, objectName=name)
    s.setRange(1, 1)
    s.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # ← → step the lab, not the slider
    return applies_typing_first(s)


def _tab(controls: QGridLayout, content: QWidget) -> QWidget:
    """A tab of the lab: its ``controls`` on top, ``content`` below in a scroll area
    (the grids outgrow a small screen), the same for both tabs."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setWidget(content)
    tab = QWidget()
    layout = QVBoxLayout(tab)
    layout.addLayout(controls)
    layout.addWidget(scroll, 1)
    return tab


EXP_OVERFLOW = float(np.log(np.finfo(np.float64).max))
"""exp(s) is ∞ above this (709.7827…)."""
EXP_UNDERFLOW = 1075 * float(np.log(2))
"""exp(s) is 0 below −this (745.1332…: half the smallest subnormal, 2⁻¹⁰⁷⁵)."""


def _overflow_factor(s: np.ndarray) -> float:
    """The factor g at which Σ exp(g·s) reaches the largest double (``s`` finite, its
    largest > 0): log Σ exp(g·s) is convex in g and rises past g·max(s), so bisection
    between (limit − log n) / max and limit / max finds it."""
    top = float(s.max())

    def log_sum(g: float) -> float:
        return g * top + float(np.log(np.exp(g * (s - top)).sum()))

    lo, hi = max(0.0, (EXP_OVERFLOW - np.log(s.size)) / top), EXP_OVERFLOW / top
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if log_sum(mid) > EXP_OVERFLOW:
            hi = mid
        else:
            lo = mid
    return hi


def _up(x: float) -> float:
    """``x`` rounded up to the four decimals it is printed with: "more than" that
    number is then enough, never short of the threshold by the rounding."""
    return math.ceil(x * 1e4) / 1e4


PARTIAL_COLUMNS = 16
"""Columns of a tile's partial output the grid shows (d_k may be 64 or more)."""

class TilesLab(RefreshWhenShown, LabWindow):
    """Lab → Online softmax and FlashAttention tiles.

    It recomputes the online softmax and every tile after each edit, which at n = 1024
    costs more than the edit itself: only while it is open (``RefreshWhenShown``); a
    closed lab catches up when shown again.
    """

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("tilesLab")
        self.resize(*fit_to_screen((1250, 860), self.screen()))  # never past the screen
        self.online = None
        self.flash = None
        self.head = None
        self.formula = ""
        self.intro = QLabel(objectName="labIntro")
        self.intro.setWordWrap(True)
        self.tabs = QTabWidget(objectName="tilesTabs")
        self.tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        applies_typing_first(self.tabs)
        self.tabs.addTab(self._build_online(), "")
        self.tabs.addTab(self._build_flash(), "")
        self.controls = StepControls(self)
        top = QHBoxLayout()
        top.addWidget(self.controls, 1)
        top.addWidget(self.export_view_button)
        top.addWidget(self.export_steps_button)
        self.tabs.currentChanged.connect(lambda _i: self.go_to(0))
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addWidget(self.tabs, 1)
        model.resultChanged.connect(self.refresh)
        model.resultCleared.connect(self._on_result_cleared)
        model.currentHeadChanged.connect(self.refresh)
        self.retranslate()

    # ----------------------------------------------------------------- building
    def _build_online(self) -> QWidget:
        self.row = ClampSayingSpinBox(objectName="onlineRow")
        self.factor = ClampSayingDoubleSpinBox(objectName="onlineFactor")
        self.factor.setRange(1e-3, 1e6)
        self.factor.setValue(1.0)
        for box in (self.row, self.factor):
            box.said.connect(self.show_note)
        self.block = _slider("onlineBlock")
        self.block_label = QLabel(objectName="onlineBlockLabel")
        for w in (self.row, self.factor):
            w.valueChanged.connect(self.recompute_online)
        self.block.valueChanged.connect(self.recompute_online)
        self._online_labels = [QLabel() for _ in range(3)]
        form = QGridLayout()
        for k, (label, w) in enumerate(zip(self._online_labels, (self.row, self.factor,
                                                                 self.block), strict=True)):
            form.addWidget(label, 0, 2 * k)
            form.addWidget(w, 0, 2 * k + 1)
        form.addWidget(self.block_label, 0, 6)
        form.setColumnStretch(5, 1)
        self.scores_grid = MatrixGrid()
        self.so_far_grid = MatrixGrid(probabilities=True)
        self.online_grid = MatrixGrid(probabilities=True)
        self.naive_grid = MatrixGrid(probabilities=True)
        self.naive_grid.blank_nan = False  # its NaN is the lesson, not a cell to come
        same_cell_width(self.so_far_grid, self.online_grid, self.naive_grid)  # the weights
        self.block_table = QLabel(objectName="onlineTrace")
        self.block_table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.block_table)  # (copied: rows of cells, tab apart)
        self.online_verdict = QLabel(objectName="onlineVerdict")
        self.online_verdict.setWordWrap(True)
        inner = QWidget()
        v = QVBoxLayout(inner)
        for w in (self.scores_grid, self.so_far_grid, self.block_table, self.online_grid,
                  self.naive_grid, self.online_verdict):
            v.addWidget(w)
        v.addStretch(1)
        return _tab(form, inner)

    def _build_flash(self) -> QWidget:
        self.block_q = _slider("flashBlockQ")
        self.block_k = _slider("flashBlockK")
        self.block_q_label = QLabel(objectName="flashBlockQLabel")
        self.block_k_label = QLabel(objectName="flashBlockKLabel")
        for s in (self.block_q, self.block_k):
            s.valueChanged.connect(self.recompute_flash)
        self._flash_labels = [QLabel(), QLabel()]
        form = QGridLayout()
        form.addWidget(self._flash_labels[0], 0, 0)
        form.addWidget(self.block_q, 0, 1)
        form.addWidget(self.block_q_label, 0, 2)
        form.addWidget(self._flash_labels[1], 0, 3)
        form.addWidget(self.block_k, 0, 4)
        form.addWidget(self.block_k_label, 0, 5)
        self.tile_grid = MatrixGrid()
        self.tile_info = QLabel(objectName="flashTile")
        self.tile_info.setWordWrap(True)
        self.tile_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.partial_grid = MatrixGrid()
        self.flash_verdict = QLabel(objectName="flashVerdict")
        self.flash_verdict.setWordWrap(True)
        self.memory_table = QLabel(objectName="flashMemory")
        self.memory_table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.memory_table)  # (copied: rows of cells, tab apart)
        self.memory_table.setWordWrap(True)
        right = QVBoxLayout()
        for w in (self.tile_info, self.partial_grid, self.flash_verdict, self.memory_table):
            right.addWidget(w)
        right.addStretch(1)
        inner = QWidget()
        row = QHBoxLayout(inner)
        row.addWidget(self.tile_grid, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(right, 1)
        return _tab(form, inner)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Online softmax and FlashAttention tiles — QKV Desktop"))
        self.intro.setText(self.tr(
            "<b>The softmax's maximum and sum in one pass, attention in tiles.</b> The "
            "online softmax keeps a running maximum m and a running sum l = Σ exp(s − m); "
            "when a block raises m, "
            "the sum so far is multiplied by exp(m_old − m_new). FlashAttention does the "
            "same per query block over key tiles, so the n × n matrix is never stored. "
            "Space plays, ← → step."))
        self.tabs.setTabText(0, self.tr("Online softmax"))
        self.tabs.setTabText(1, self.tr("FlashAttention tiles"))
        for label, text in zip(self._online_labels, (self.tr("query row"),
                                                     self.tr("multiply the scores by"),
                                                     self.tr("block size")), strict=True):
            label.setText(text)
        self.factor.set_tip(self.tr("Scale the row up to see the naive formula "
                                    "overflow while the online one does not (the "
                                    "verdict below says by how much)."))
        self.factor.subject = self.tr("The factor")
        self.row.set_tip(self.tr("The row of the scores walked block by block"))
        self.row.subject = self.tr("The query row")
        self._flash_labels[0].setText(self.tr("query block"))
        self._flash_labels[1].setText(self.tr("key block"))
        self.controls.retranslate()
        self.retranslate_export()
        self.redraw_due()
        self.refresh()

    # ------------------------------------------------------------- computing
    def refresh(self, *_args) -> None:
        due = self._due()
        if due is None:
            return  # closed: drawn when shown again, or already on display
        result = due[0]
        self.head = result.head(self.model.current_head)
        # what the grids' numbers are, as the scaled pane's title says it
        self.formula = scaled_formula(result, self.model.current_head)
        n, m = self.head.scaled.shape
        self.row.blockSignals(True)
        self.row.setRange(0, n - 1)
        self.row.blockSignals(False)
        for slider, top, default in ((self.block, m, max(1, m // 3)),
                                     (self.block_q, n, max(1, n // 2)),
                                     (self.block_k, m, max(1, m // 2))):
            first = slider.maximum() == 1 and slider.value() == 1
            slider.blockSignals(True)
            slider.setRange(1, max(1, top))
            if first:
                slider.setValue(default)
            slider.blockSignals(False)
        self.recompute_online()
        self.recompute_flash()

    def scores_row(self) -> np.ndarray:
        """The chosen row of the scaled scores (÷ divisor·T, masked) × the factor."""
        row = np.asarray(self.head.scaled[self.row.value()], dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            return row * self.factor.value()

    def recompute_online(self, *_args) -> None:
        if self.head is None:
            return
        self.online = online_softmax(self.scores_row(), self.block.value())
        self.block_label.setText(self.tr("{0} → {1} blocks").format(self.block.value(),
                                                                    len(self.online.trace)))
        if self.tabs.currentIndex() == 0:
            self.go_to(self.position)

    def flash_scale(self) -> float:
        state = self.model.state
        return 1.0 / (self.head.divisor * state.options.temperature)

    def flash_causal(self) -> bool:
        return bool(self.model.state.mask_spec().causal)

    def flash_bias(self) -> np.ndarray | None:
        """The session's ALiBi bias and masks (−inf) as one n × m bias, or None."""
        n, m = self.head.scaled.shape
        spec = self.model.state.mask_spec()
        slope = head_inputs(self.model.state, self.model.current_head).options["alibi_slope"]
        if slope is None and not spec.restricts:
            return None
        bias = alibi_bias(n, m, slope) if slope is not None else np.zeros((n, m))
        bias[~spec.allowed(n, m)] = -np.inf
        return bias

    def recompute_flash(self, *_args) -> None:
        if self.head is None:
            return
        h = self.head
        n, m = h.scaled.shape
        bq, bk = self.block_q.value(), self.block_k.value()
        tiles = -(-n // bq) * -(-m // bk)
        self.block_q_label.setText(str(bq))
        self.block_k_label.setText(str(bk))
        self.memory_table.setText(self._memory_html())
        if tiles > MAX_TILES:
            self.flash = None
            self.show_error(self.tr("{0} tiles are too many to step through (at most {1}): "
                                    "choose larger blocks.").format(tiles, MAX_TILES))
            if self.tabs.currentIndex() == 1:
                self.go_to(0)
            return
        self.show_error("")
        Q = h.Q if h.Q_rope is None else h.Q_rope  # the scores are of the rotated Q, K
        K = h.K if h.K_rope is None else h.K_rope
        self.flash = flash_attention(Q, K, h.V, block_q=self.block_q.value(),
                                     block_k=self.block_k.value(), scale=self.flash_scale(),
                                     causal=self.flash_causal(), bias=self.flash_bias())
        if self.tabs.currentIndex() == 1:
            self.go_to(self.position)

    def step_count(self) -> int:
        if self.tabs.currentIndex() == 0:
            return 0 if self.online is None else len(self.online.trace)
        return 0 if self.flash is None else len(self.flash.trace)

    def show_step(self) -> None:
        if self.head is None:
            return
        if self.tabs.currentIndex() == 0:
            self._show_online()
        else:
            self._show_flash()

    # ------------------------------------------------------------ online tab
    def _show_online(self) -> None:
        if self.online is None or not self.online.trace:
            return
        k = self.position
        s = self.scores_row()
        block = self.online.trace[k]
        m = s.size
        factor = self.factor.value()
        formula = (self.formula if factor == 1 else
                   f"({self.formula}) × {format_setting(factor)}")
        self.scores_grid.title = self.tr("row {0} of {1} (block {2}: columns {3}…{4})").format(
            self.row.value(), formula, k + 1, block.start, block.stop - 1)
        self.scores_grid.set_data(s, col_labels=[str(j) for j in range(m)],
                                  boxes=[(0, 1, block.start, block.stop, CURRENT)])
        # The weights as if the row ended after this block: exp(s − m) / l so far.
        so_far = np.full(m, np.nan)
        seen = s[:block.stop]
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            mm = float(block.m_new) if np.isfinite(block.m_new) else 0.0
            so_far[:block.stop] = np.exp(seen - mm) / float(block.l)
        self.so_far_grid.title = self.tr("exp(s − m) / l so far (the softmax of the columns "
                                         "seen)")
        # the keys the mask hides from this row: weight 0, drawn masked as in the panes
        hidden = ~self.head.allowed[self.row.value()]
        self.so_far_grid.set_data(so_far, col_labels=[str(j) for j in range(m)],
                                  masked=hidden)
        self.block_table.setText(self._trace_html(k))
        stable = softmax(s)
        with np.errstate(all="ignore"):
            naive = softmax(s, stable=False)
        self.online_grid.title = self.tr("online softmax (after the last block)")
        self.online_grid.set_data(self.online.weights, col_labels=[str(j) for j in range(m)],
                                  masked=hidden)
        self.naive_grid.title = self.tr("naive exp(s) / Σ exp(s) of the same row")
        self.naive_grid.set_data(naive, col_labels=[str(j) for j in range(m)], masked=hidden)
        diff = float(np.nanmax(np.abs(self.online.weights - stable)))
        text = self.tr("Online against the stable softmax: max |difference| = {0}.").format(
            format_nonzero(diff))  # (an exact 0 and 2e−17 told apart, as in the KV lab)
        self.online_verdict.setText(join_sentences((text, self._naive_verdict(s))))

    def _naive_verdict(self, s: np.ndarray) -> str:
        """Why the naive softmax exp(s) / Σ exp(s) breaks on row ``s``, or by how much to
        scale the row to break it. (The hint said "multiply by 1000" for a row whose
        largest score × 1000 is 9.35; and a row of tied scores near 709 read "still
        works" while Σ exp(s) had overflowed and every weight was 0.)"""
        finite = s[np.isfinite(s)]
        top = float(finite.max()) if finite.size else 0.0
        limit = format_value(EXP_OVERFLOW)
        with np.errstate(over="ignore", under="ignore"):
            terms = np.exp(finite)
            total = float(terms.sum())
        if np.isinf(terms).any():
            return self.tr("The naive formula breaks on this row: exp(s) overflows to ∞ "
                           "above s ≈ {1} (the largest score is {0}) and ∞/∞ is NaN; "
                           "the online softmax only ever exponentiates s − m ≤ 0."
                           ).format(format_value(top), limit)
        if np.isinf(total):
            return self.tr("The naive formula breaks on this row: every exp(s) is finite "
                           "(the largest score is {0}, below {1}), but their sum overflows "
                           "to ∞, so every weight is exp(s) / ∞ = 0 and the row sums to 0; "
                           "the online softmax sums exp(s − m) ≤ 1 instead."
                           ).format(format_value(top), limit)
        if finite.size and total == 0:
            return self.tr("The naive formula breaks on this row: every exp(s) underflows "
                           "to 0 (the largest score is {0}, below −745) and 0/0 is NaN; "
                           "the online softmax exponentiates s − m, whose largest is 0."
                           ).format(format_value(top))
        now = self.factor.value()
        if top > 0:
            needed = now * _overflow_factor(finite)
            if needed > self.factor.maximum():  # beyond the box: larger inputs
                return self.tr("The naive formula still works here: the largest score is "
                               "{0}, and exp overflows only above {1}, beyond this box's "
                               "factor; make the session's scores larger (× 100 the "
                               "inputs).").format(format_value(top), limit)
            return self.tr("The naive formula still works here: the largest score is {0}, "
                           "and exp overflows only above {2}. Multiply the scores by "
                           "more than {1} to make it overflow.").format(
                format_value(top), format_value(_up(needed)), limit)
        if top < 0:
            return self.tr("The naive formula still works here: every score is negative "
                           "(the largest is {0}), so exp cannot overflow; multiplied by "
                           "more than {1}, every exp(s) underflows to 0 and 0/0 is NaN."
                           ).format(format_value(top),
                                    format_value(_up(now * EXP_UNDERFLOW / -top)))
        return self.tr("The naive formula still works here: the largest score is 0, and "
                       "no factor makes exp overflow.")

    def _trace_html(self, k: int) -> str:
        head = (self.tr("block"), self.tr("columns"), self.tr("block max"), "m_old",
                "m_new", self.tr("rescale exp(m_old − m_new)"), "l")
        # middle: a header in Chinese has the taller line of the CJK font, and "m_old",
        # "m_new", "l" at the top of the row sat higher than the others
        rows = ["<tr>" + "".join(f"<th valign='middle'>{h}</th>" for h in head) + "</tr>"]
        for i, b in enumerate(self.online.trace[:k + 1]):
            style = " style='color:#e6550d; font-weight:bold'" if i == k else ""
            cells = (str(i + 1), f"{b.start}…{b.stop - 1}", _num(float(b.block_max)),
                     _num(float(b.m_old)), _num(float(b.m_new)), _num(float(b.rescale)),
                     _num(float(b.l)))
            rows.append(f"<tr{style}>" + "".join(f"<td align='right'>{c}</td>"
                                                  for c in cells) + "</tr>")
        return "<table cellpadding='3'>" + "".join(rows) + "</table>"

    # ------------------------------------------------------------- flash tab
    def _show_flash(self) -> None:
        if self.flash is None or not self.flash.trace:
            self.tile_grid.set_data(np.zeros((0, 0)))
            self.partial_grid.set_data(np.zeros((0, 0)))
            self.tile_info.setText("")
            self.flash_verdict.setText("")
            return
        k = self.position
        tile = self.flash.trace[k]
        h = self.head
        n, m = h.scaled.shape
        shown_n, shown_m = min(n, MAX_TILE_CELLS), min(m, MAX_TILE_CELLS)
        boxes = []
        for i, t in enumerate(self.flash.trace[:k + 1]):
            colour = CURRENT if i == k else SKIPPED if t.skipped else VISITED
            boxes.append((t.rows[0], t.rows[1], t.cols[0], t.cols[1], colour))
        self.tile_grid.cell = max(9, min(34, 620 // max(shown_n, shown_m)))
        with np.errstate(over="ignore", invalid="ignore"):
            scaled = h.scaled[:shown_n, :shown_m].astype(np.float64)
        self.tile_grid.title = self.tr("{0}: tile {1} of {2} (query block {3}, "
                                       "key block {4})").format(
            self.formula, k + 1, len(self.flash.trace), tile.q_block + 1, tile.k_block + 1)
        self.tile_grid.set_data(scaled, boxes=boxes)
        r0, r1 = tile.rows
        rows = ["<tr><th>" + self.tr("query") + "</th><th>m</th><th>l</th><th>"
                + self.tr("rescale") + "</th></tr>"]
        for i in range(r1 - r0):
            rows.append(f"<tr><td>{r0 + i}</td><td align='right'>{_num(tile.m[i])}</td>"
                        f"<td align='right'>{_num(tile.l[i])}</td>"
                        f"<td align='right'>{_num(tile.rescale[i])}</td></tr>")
        what = (self.tr("Skipped: the mask hides every key of this tile from every query.")
                if tile.skipped else
                self.tr("Queries {0}…{1} × keys {2}…{3}: this tile's scores update the query "
                        "block's running m and l and its output accumulator.").format(
                    r0, r1 - 1, tile.cols[0], tile.cols[1] - 1))
        self.tile_info.setText("<p>" + what + "</p><table cellpadding='2'>" + "".join(rows)
                               + "</table>")
        shown, width = min(PARTIAL_COLUMNS, tile.partial.shape[1]), tile.partial.shape[1]
        title = self.tr("partial output of queries {0}…{1} (accumulator / l)").format(
            r0, r1 - 1)
        if shown < width:  # (it showed 16 of d_k = 64 columns without a word)
            title += " " + self.tr("· columns 0…{0} of {1}").format(shown - 1, width)
        self.partial_grid.title = title
        self.partial_grid.set_data(tile.partial[:, :shown], [str(r) for r in range(r0, r1)])
        diff = float(np.max(np.abs(self.flash.output - h.output)))
        self.flash_verdict.setText(self.tr(
            "After the last tile the output equals standard attention: max |flash − "
            "attention| = {0} over all {1}×{2} outputs.").format(format_nonzero(diff),
                                                                *h.output.shape))

    def _memory_html(self) -> str:
        h = self.head
        d = h.Q.shape[1]
        sizes = sorted({*MEMORY_SIZES, h.scaled.shape[0]})
        head = ("n", self.tr("n × n scores"), self.tr("standard"), "FlashAttention")
        rows = ["<tr>" + "".join(f"<th>{x}</th>" for x in head) + "</tr>"]
        for n in sizes:
            mem = attention_memory(n, d, self.block_q.value(), self.block_k.value())
            mark = " style='font-weight:bold'" if n == h.scaled.shape[0] else ""
            rows.append(f"<tr{mark}><td align='right'>{n:,}</td><td align='right'>"
                        f"{format_bytes(mem.score_matrix)}</td><td align='right'>"
                        f"{format_bytes(mem.standard)}</td><td align='right'>"
                        f"{format_bytes(mem.flash)}</td></tr>")
        return ("<p>" + self.tr("Memory of one head, d_k = {0}, float32 (4 B): standard "
                                "attention holds the n × n scores and weights, O(n²); "
                                "FlashAttention only Q, K, V, the output, m and l and one "
                                "tile, O(n·d). Bold: this session.").format(d)
                + "</p><table cellpadding='3'>" + "".join(rows) + "</table>")
