"""The KV-cache stepper: decode the session one token at a time, as a causal model does.

At step t the new token's query row meets the key and value caches, which have just
grown by exactly one row (k_t and v_t); the new weight row and output row appear.
Beside it the same step is recomputed without a cache, with the largest difference
and the multiply-adds each way. Below, a calculator sizes the cache of real models:
2 (K and V) × layers × KV heads × d_k × tokens × bytes, for MHA, GQA and MQA. KV heads
that grouped-query attention cannot have (not dividing the query heads) are refused
under the table, which then leaves the GQA row empty; the KV heads go up to the query
heads, so a count typed past them becomes one the table takes.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QColor, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.kv_cache import (
    KV_MODEL_PRESETS,
    cached_madds,
    decode_with_cache,
    gqa_kv_head_counts,
    kv_cache_bytes,
    kv_heads_for,
    recompute_step,
    recomputed_madds,
)
from qkv_desktop.core.masks import EmptyRowError
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_nonzero, format_setting
from qkv_desktop.presentation.sizes import format_byte_count, format_bytes
from qkv_desktop.presentation.texts import (
    NO_BREAK_SPACE,
    join_list,
    join_sentences,
    say,
    token_in_text,
)
from qkv_desktop.state.core_options import core_dtype
from qkv_desktop.state.head_groups import head_groups
from qkv_desktop.state.lab_inputs import head_inputs
from qkv_desktop.state.session_state import MAX_CELLS
from qkv_desktop.views.editors.spin_boxes import ClampSayingSpinBox, red_line, say_briefly
from qkv_desktop.views.editors.wheel_focus import FocusComboBox
from qkv_desktop.views.layout import fit_to_screen, wraps_in_any_width
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.styles import ERROR_COLOR
from qkv_desktop.views.teaching.lab_window import LabWindow, StepControls
from qkv_desktop.views.teaching.matrix_grid import MatrixGrid
from qkv_desktop.views.teaching.table_copy import CopiesTableAsText

__all__ = ["KVCacheLab", "MemoryCalculator", "MAX_SHOWN_ROWS",
           "MAX_SHOWN_COLS"]

MAX_SHOWN_ROWS = 12
"""The caches show their newest rows only beyond this (the numbers above still count)."""

MAX_SHOWN_COLS = 16
"""Columns of d_k shown; wider heads are cut, and their grids' titles say so (the
read-outs use all of them). SmolLM2's 64 showed as 16 without a word (a user)."""
ROW_NAME_CHARS = 10
"""A grid's row name (``3·capital``) longer than this ends in "…"."""


def _row_name(k: int, token: str) -> str:
    """Row ``k``'s name in the caches' grids: its number and token, cut with "…"."""
    name = f"{k}·{token_in_text(token)}"
    return name if len(name) <= ROW_NAME_CHARS else name[:ROW_NAME_CHARS - 1] + "…"

BYTES = (("float32", 4), ("float16 / bfloat16", 2), ("int8", 1), ("float64", 8))


def _mark_refused(box: QWidget, refused: bool) -> None:
    """``box``'s text in the refusals' red while ``refused``, by its palette: a style
    sheet changes a spin box's frame, and the box and its row moved by 2 px."""
    palette = box.palette()
    colour = QColor(ERROR_COLOR) if refused else QApplication.palette(box).color(
        QPalette.ColorRole.Text)
    if palette.color(QPalette.ColorRole.Text) != colour:  # (every refresh asks)
        palette.setColor(QPalette.ColorRole.Text, colour)
        box.setPalette(palette)


WIDEST_EXACT_BYTES = int(9.99 * 2 ** 30)
"""The calculator's table has room for its byte counts up to this one, whole."""
BYTES_CHARS = len(f"{WIDEST_EXACT_BYTES:,}")
"""Byte counts longer than 9.99 GiB's are written in powers of ten (``format_byte_count``)."""

PROBLEM_LINES = 3
"""Lines the calculator's red line keeps under its boxes and table, in the group's whole
width, said or not: the longest refusal with a clamp at 1024 × 700 (99999999999 typed
as the query heads over 7 KV heads), in English and in Chinese (two lines of its taller
characters)."""

FORMULA_LINES = 2
"""Lines the calculator's formula keeps, in one line or two: the widest (1000 layers,
d_k of 16777216, 10000000 tokens, 8 B) takes two at the result's least width, in English
and in Chinese."""

CELLS = "<style>td, th { padding-top: 0; padding-bottom: 0 }</style>"
"""The calculator's table cells: 3 px apart side by side, none above or below. The
padding above and below them pays for the room of the formula's second line
(``FORMULA_LINES``): with both, the calculator was 18 px higher in Chinese, and the
stepper above lacked them at 1024 × 700."""


class MemoryCalculator(QGroupBox):
    """layers × KV heads × d_k × tokens × bytes, for this session, real models or typed numbers.

    Every box holds the number the table uses: a KV-head count that grouped-query
    attention cannot have is refused in red under the table (the GQA row shows "—")
    rather than replaced by another, and the ranges hold anything a session can bring.
    The KV heads go up to the query heads (``_kv_heads_follow``), so that a clamp gives
    a count the table takes.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("kvMemory")
        self.preset = FocusComboBox(objectName="kvPreset")
        # (before the boxes, which say a clamped number there). Its lines are kept
        # while it is hidden: a refusal wrapped beside the table made the group higher,
        # and the boxes moved under the pointer (a review)
        self.problem = wraps_in_any_width(red_line("kvMemoryError", lines=PROBLEM_LINES))
        self.layers = self._spin("kvLayers", 1, 1000, 1)
        self.query_heads = self._spin("kvQueryHeads", 1, 1024, 1)
        # up to the query heads (``_kv_heads_follow``): up to 1024, 99999999999 typed
        # over 9 query heads became 1024, which the table then refused (a re-check)
        self.kv_heads = self._spin("kvKVHeads", 1, self.query_heads.value(), 1)
        self._followed = ""  # the KV heads' clamp said in the event being handled
        self._preset_tokens: int | None = None  # the tokens a model's preset last set
        # A session's d_k is bounded only by its cell limit; a smaller maximum would
        # clamp it silently when "this session" is chosen.
        self.head_dim = self._spin("kvHeadDim", 1, MAX_CELLS, 4)
        self.tokens = self._spin("kvTokens", 1, 10_000_000, 8192)
        self.dtype = FocusComboBox(objectName="kvBytes")
        for name, size in BYTES:
            self.dtype.addItem(f"{name} ({size} B)", size)
        self.dtype.currentIndexChanged.connect(self.refresh)
        self.result = QLabel(objectName="kvMemoryResult")
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.result)  # (a copy of its table: rows of cells, tab apart)
        # its formula wraps: in one line, a model's numbers ("30 layers", "8192 tokens")
        # widened the lab by 22 px when chosen (a first user: 980 → 1002 at 1024 × 700)
        self.result.setWordWrap(True)
        # at the top of the room kept for the formula's second line (``FORMULA_LINES``),
        # under the formula: in the middle, the table stood a line apart from it
        self.result.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._labels = [QLabel() for _ in range(7)]
        form = QGridLayout()
        for k, (label, w) in enumerate(zip(self._labels, (self.preset, self.layers,
                                                          self.query_heads, self.kv_heads,
                                                          self.head_dim, self.tokens,
                                                          self.dtype), strict=True)):
            form.addWidget(label, k // 2, 2 * (k % 2))
            form.addWidget(w, k // 2, 2 * (k % 2) + 1)
        form.setRowStretch(form.rowCount(), 1)  # the boxes together at the top
        row = QHBoxLayout()
        row.addLayout(form)
        row.addWidget(self.result, 1, Qt.AlignmentFlag.AlignTop)
        # the red line under the boxes and the table, in the group's whole width: beside
        # the table, in what the boxes left, the longest refusal took six lines, kept
        # empty below the table, and the stepper above lost them (a first-time user at
        # 1024 × 700 found its outputs and cost table cut)
        column = QVBoxLayout(self)
        margins = column.contentsMargins()  # (the title is space enough above the boxes)
        column.setContentsMargins(margins.left(), margins.top() // 3, margins.right(),
                                  margins.bottom())
        column.addLayout(row)
        column.addWidget(self.problem)
        # only the height it needs: the stepper above takes the rest
        policy = self.sizePolicy()
        policy.setVerticalPolicy(QSizePolicy.Policy.Maximum)
        self.setSizePolicy(policy)
        self.session_shape = (1, 1, 1, 1, 4, 8)
        self.preset.currentIndexChanged.connect(self._apply_preset)
        self._applying = False

    def _spin(self, name: str, lo: int, hi: int, value: int) -> ClampSayingSpinBox:
        spin = ClampSayingSpinBox(objectName=name)
        spin.setRange(lo, hi)
        spin.setValue(value)
        spin.valueChanged.connect(self._typed)
        # a typed number out of range, said in red beside the table, under the boxes
        spin.said.connect(self._say)
        return spin

    def _say(self, text: str) -> None:
        """A box's note (a clamp), with the KV heads' clamp that the same typing made
        (``_kv_heads_follow``) and why the GQA row is empty if it is: the note takes the
        line the refusal is on, and a clamp of the query heads alone read "at most 1024"
        beside a GQA row of "—"."""
        followed = self._followed if self._followed != text else ""
        say_briefly(self.problem, join_sentences(
            part for part in (text, followed, self.gqa_problem()) if part))

    def _kv_heads_follow(self) -> str:
        """The KV heads' maximum is the query heads: more KV heads than query heads is
        no model, and a count typed past them becomes the query heads (multi-head
        attention), which the table takes. Lowering the query heads under the KV heads
        lowers the KV heads too: returned is that note, to say once the table shows it
        ("" if none)."""
        q, before = self.query_heads.value(), self.kv_heads.value()
        if self.kv_heads.maximum() == q:
            return ""
        with QSignalBlocker(self.kv_heads):  # (the refresh that follows reads it)
            self.kv_heads.setRange(1, q)
        if self._applying or self.kv_heads.value() == before:
            return ""
        self._followed = join_sentences([
            self.kv_heads.clamp_note("above", q, str(before)),
            self.tr("There are never more KV heads than query heads: each KV head serves "
                    "at least one query head, and as many as the query heads is multi-head "
                    "attention.")])
        QTimer.singleShot(0, self, self._forget_followed)
        return self._followed

    def _forget_followed(self) -> None:
        self._followed = ""

    def retranslate(self) -> None:
        self.setTitle(self.tr("Memory of the KV cache"))
        texts = (self.tr("model"), self.tr("layers"), self.tr("query heads"),
                 self.tr("KV heads (GQA)"), self.tr("d_k (head dim)"), self.tr("tokens"),
                 self.tr("bytes per number"))
        for label, text in zip(self._labels, texts, strict=True):
            label.setText(text)
        index = max(0, self.preset.currentIndex())
        self.preset.blockSignals(True)
        self.preset.clear()
        self.preset.addItem(self.tr("this session"), "session")
        for shape in KV_MODEL_PRESETS:
            if not shape.encoder:
                self.preset.addItem(shape.name, shape.name)
                continue
            self.preset.addItem(self.tr("{0} (encoder: shape only)").format(shape.name),
                                shape.name)
            self.preset.setItemData(self.preset.count() - 1, self.tr(
                "An encoder (BERT) reads its whole input at once, in both directions, and "
                "never decodes token by token: it keeps no KV cache. The sizes are those "
                "a cache of its shape would take."), Qt.ItemDataRole.ToolTipRole)
        self.preset.addItem(self.tr("typed numbers"), "custom")
        self.preset.setCurrentIndex(index)
        self.preset.blockSignals(False)
        self.kv_heads.set_tip(self.tr("Heads with their own K and V. Grouped-query "
                                      "attention shares each among query heads ÷ KV "
                                      "heads query heads, so the KV heads must divide "
                                      "the query heads."))
        for spin, subject, tip in (
                (self.layers, self.tr("The number of layers"), self.tr("Layers of the model")),
                (self.query_heads, self.tr("The number of query heads"),
                 self.tr("Query heads of each layer")),
                (self.kv_heads, self.tr("The number of KV heads"), None),
                (self.head_dim, self.tr("d_k"), self.tr("Dimension of each head's keys and "
                                                        "values")),
                (self.tokens, self.tr("The number of tokens"),
                 self.tr("Tokens in the cache (the context length)"))):
            spin.subject = subject
            if tip is not None:
                spin.set_tip(tip)
        self.refresh()

    def set_session(self, layers: int, heads: int, kv_heads: int, d_k: int, tokens: int,
                    size: int) -> None:
        """The session's shape for "this session": ``kv_heads`` are its heads with keys
        and values of their own (fewer than ``heads`` when a grouped-query model's query
        heads share them, ``state.head_groups``)."""
        self.session_shape = (layers, heads, kv_heads, d_k, tokens, size)
        if self.preset.currentData() == "session":
            self._apply_preset()

    def session_replaced(self) -> None:
        """A new session (New, a preset, a file): numbers typed over the last one's
        ("typed numbers") give way to this session's, and their red line with them (9
        query heads and 1024 KV heads, refused, stayed over an unrelated session). A
        real model chosen keeps its numbers: they are that model's, not the session's."""
        if self.preset.currentData() in ("custom", None):
            self.select("session")

    def select(self, name: str) -> None:
        """Choose a preset by its data ("session", a model's name, "custom")."""
        self.preset.setCurrentIndex(max(0, self.preset.findData(name)))

    def _apply_preset(self, *_args) -> None:
        key = self.preset.currentData()
        if key == "custom" or key is None:
            self.refresh()
            return
        if key == "session":
            layers, heads, kv_heads, d_k, tokens, size = self.session_shape
            values = (layers, heads, kv_heads, d_k, tokens)
        else:
            s = {p.name: p for p in KV_MODEL_PRESETS}[key]
            # A model reads its own context length, or the tokens typed if fewer: the
            # encoder's preset said 8192 tokens of a model with 512 positions (a
            # first-time user). The session's few, or another preset's, are not typed.
            typed = self.tokens.value()
            tokens = (s.context if typed in (self.session_shape[4], self._preset_tokens)
                      else min(typed, s.context))
            if tokens != typed:  # (typed tokens kept stay the typed ones)
                self._preset_tokens = tokens
            values = (s.layers, s.query_heads, s.kv_heads, s.head_dim, tokens)
            size = 2
        self._applying = True
        for spin, v in zip((self.layers, self.query_heads, self.kv_heads, self.head_dim,
                            self.tokens), values, strict=True):
            spin.setValue(v)
        self.dtype.setCurrentIndex(max(0, self.dtype.findData(size)))
        self._applying = False
        self.refresh()

    def _typed(self, *_args) -> None:
        followed = self._kv_heads_follow()
        if not self._applying and self.preset.currentData() != "custom":
            self.preset.blockSignals(True)
            self.preset.setCurrentIndex(self.preset.findData("custom"))
            self.preset.blockSignals(False)
        if not self._applying:
            self.refresh()
        if followed:  # (after the refresh, which sets the line's lasting text)
            self._say(followed)

    def gqa_problem(self) -> str:
        """Why the typed KV heads cannot be grouped-query attention, or "" if they can.

        Each KV head serves query heads ÷ KV heads query heads, so the count must divide
        the query heads; the message says which counts would (the learner's next try).
        """
        q, kv = self.query_heads.value(), self.kv_heads.value()
        counts = gqa_kv_head_counts(q)
        if kv in counts:
            return ""
        choices = join_list(str(k) for k in counts)
        if self.preset.currentData() == "session":  # not typed: groups an edit made uneven
            return self.tr("This session's {1} heads have {0} different pairs of W_K and "
                           "W_V (an edit gave a head keys and values of its own), in groups "
                           "of unequal size: not grouped-query attention, whose KV heads "
                           "each serve the same number of query heads (possible with {1} "
                           "query heads: {2} KV heads).").format(
                kv, q, choices)
        return self.tr("KV heads ({0}) must divide query heads ({1}): in grouped-query "
                       "attention each KV head serves query heads ÷ KV heads query heads, "
                       "the same number for each, and {1} ÷ {0} is not a whole number. "
                       "KV heads possible here: {2}.").format(kv, q, choices)

    def sizes(self) -> dict[str, int | None]:
        """Bytes of the cache for MHA, GQA (the typed KV heads) and MQA.

        GQA is None while the typed KV heads do not divide the query heads
        (``gqa_problem``): no model has that cache, and no other count is put in its place.
        """
        q, kv = self.query_heads.value(), self.kv_heads.value()
        valid = kv in gqa_kv_head_counts(q)
        return {kind: kv_cache_bytes(self.layers.value(), kv_heads_for(kind, q, kv),
                                     self.head_dim.value(), self.tokens.value(),
                                     self.dtype.currentData())
                if kind != "GQA" or valid else None
                for kind in ("MHA", "GQA", "MQA")}

    def refresh(self, *_args) -> None:
        sizes = self.sizes()
        q, kv = self.query_heads.value(), self.kv_heads.value()
        heads = {"MHA": q, "GQA": kv, "MQA": 1}
        names = {"MHA": self.tr("multi-head (MHA)"), "GQA": self.tr("grouped-query (GQA)"),
                 "MQA": self.tr("multi-query (MQA)")}
        table = self._table(names, heads, sizes)
        problem = self.gqa_problem()
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        # The box holding the refused number is red too, so the eye finds it: its
        # palette's text, not a style sheet, which changed the box's frame and moved it
        # and its row by 2 px under the pointer
        _mark_refused(self.kv_heads, bool(problem))
        formula = self.tr("2 (K and V) × {0} × KV heads × {1} × {2} × {3} B").format(
            self.tr("%n layers", "", self.layers.value()), self.head_dim.value(),
            self.tr("%n tokens", "", self.tokens.value()), self.dtype.currentData())
        # a line breaks only before a "×": "8" and "B" were parted, a lone "B" on the
        # second line (a first-time user at 1024 × 700)
        formula = " ×".join(part.replace(" ", NO_BREAK_SPACE) for part in formula.split(" ×"))
        self.result.setText("<p>" + formula + "</p>" + table)
        self._keep_formula_room(formula, table)
        # room for a table of up to 9.99 GiB, its widest below 10 (SmolLM2's at 8192
        # tokens is 540 MiB), so that choosing a model does not widen the lab (its byte
        # counts widened it by 22 px at 1024 × 700, a first user); the formula wraps,
        # and larger counts are written in powers of ten (``BYTES_CHARS``)
        widest = QTextDocument()
        widest.setDefaultFont(self.result.font())
        widest.setHtml(self._table(names, dict.fromkeys(names, self.query_heads.maximum()),
                                   dict.fromkeys(names, WIDEST_EXACT_BYTES)))
        self.result.setMinimumWidth(math.ceil(widest.idealWidth()))

    def _keep_formula_room(self, formula: str, table: str) -> None:
        """The result keeps the height of ``FORMULA_LINES`` lines of ``formula`` above
        ``table``, in one line or two: the formula wrapped to a second line with a
        model's numbers or 10000000 tokens, the group (at the lab's bottom, as high as
        it needs) grew upwards, and its boxes moved 18 px under the pointer (a
        re-checking user, in Chinese at 1024 × 700). Each kept line is the whole
        formula's, unbroken: as high as either part of it, whichever glyphs it holds."""
        room = QTextDocument()
        room.setDocumentMargin(0)  # (a label's text has none)
        room.setDefaultFont(self.result.font())
        lines = "<br>".join([formula] * FORMULA_LINES)
        room.setHtml(f"<p style='white-space: nowrap'>{lines}</p>{table}")
        self.result.setMinimumHeight(math.ceil(room.size().height()))

    def changeEvent(self, event) -> None:
        """A new font (View → Zoom, presentation mode) changes the formula's kept room."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and hasattr(self, "result"):
            self.refresh()  # (not before the constructor has made its boxes)

    def _table(self, names: dict, heads: dict, sizes: dict) -> str:
        """The MHA, GQA and MQA rows, each in one line."""
        rows = "".join(
            f"<tr><td>{names[k]}</td><td align='right'>{heads[k]}</td>"
            + (f"<td align='right'><b>{format_bytes(v)}</b></td>"
               f"<td align='right'>{format_byte_count(v, BYTES_CHARS)}</td></tr>"
               if v is not None else
               "<td align='right'>—</td><td align='right'>—</td></tr>")
            for k, v in sizes.items())
        # its cells parted by their padding only: the spacing between the rows took the
        # 10 px that the stepper above lacked at 1024 × 700 in Chinese
        return (CELLS + "<table cellpadding='3' cellspacing='0' style='white-space: nowrap'>"
                "<tr><th></th><th>"
                + self.tr("KV heads") + "</th><th>" + self.tr("cache") + "</th><th>"
                + self.tr("bytes") + "</th></tr>" + rows + "</table>")


class KVCacheLab(RefreshWhenShown, LabWindow):
    """Step through a cached decode of the current head (Lab → KV-cache stepper).

    The decode is redone after each edit only while the lab is open
    (``RefreshWhenShown``); a closed lab catches up when shown again.
    """

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("kvCacheLab")
        self.resize(*fit_to_screen((1250, 820), self.screen()))  # never past the screen
        self.decode = None
        self.inputs = None
        # the long lines wrap in the window's width, never widen it past the screen
        self.intro = wraps_in_any_width(QLabel(objectName="labIntro"))
        self.note = wraps_in_any_width(QLabel(objectName="kvNote"))
        wraps_in_any_width(self.error)
        self.controls = StepControls(self)
        top = QHBoxLayout()
        top.addWidget(self.controls, 1)
        top.addWidget(self.export_view_button)
        top.addWidget(self.export_steps_button)
        self.grids = {name: MatrixGrid(probabilities=(name == "weights"), cell=30)
                      for name in ("q", "K", "V", "weights", "output", "outputs")}
        self.compare = QLabel(objectName="kvCompare")
        self.compare.setWordWrap(True)
        self.compare.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.compare)  # (copied: rows of cells, tab apart)
        # The comparison beside both rows of grids, not beside the lower one only: there
        # it had the width the outputs left, wrapped into a column taller than the grids,
        # and at 1024 × 700 the step's own rows (3·智能) and its cost table were cut
        # under the stepper's scroll bar (a first-time user)
        inner = QWidget()
        grid = QGridLayout(inner)
        margins = grid.contentsMargins()  # (the scroll area's frame is border enough
        grid.setContentsMargins(margins.left(), 0, margins.right(), 0)  # above and below)
        for r, names in enumerate((("q", "K", "V"), ("outputs", "weights", "output"))):
            row = QHBoxLayout()
            for name in names:
                row.addWidget(self.grids[name], 0, Qt.AlignmentFlag.AlignTop)
            row.addStretch(1)
            grid.addLayout(row, r, 0)
        grid.addWidget(self.compare, 0, 1, 2, 1, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(2, 1)
        scroll = QScrollArea(objectName="kvSteps")
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        self.memory = MemoryCalculator()
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addWidget(self.note)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.memory)
        model.resultChanged.connect(self.refresh)
        model.resultCleared.connect(self._on_result_cleared)
        model.replaced.connect(self.memory.session_replaced)
        model.currentHeadChanged.connect(self.refresh)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("KV-cache stepper — QKV Desktop"))
        self.intro.setText(self.tr(
            "<b>Decoding with a KV cache.</b> A causal model produces one token at a time. "
            "For token t (row t of the tables) it needs the new query q_t and the keys "
            "and values of tokens 0…t; "
            "those of earlier tokens never change, so they are kept in the cache, which "
            "grows by exactly <i>one</i> row per step (k_t, v_t). Space plays, ← → step."))
        self.controls.retranslate()
        self.retranslate_export()
        self.memory.retranslate()
        self.redraw_due()
        self.refresh()

    # ------------------------------------------------------------- computing
    def refresh(self, *_args) -> None:
        """Decode the current head of the session again (after any edit)."""
        if self._due() is None:
            return  # closed: decoded when shown again, or already on display
        state = self.model.state
        self.inputs = head_inputs(state, self.model.current_head)
        size = np.dtype(core_dtype(state.options)).itemsize
        # the heads with keys and values of their own: a grouped-query model's query
        # heads share them, and the cache holds each shared K/V head once
        kv_heads = len(head_groups(state).groups)
        # the cache holds keys and values: m of them, X_kv's tokens in cross-attention
        self.memory.set_session(1, state.n_heads, kv_heads, state.d_k, state.n_keys, size)
        if self.inputs.cross:
            self.decode = None
            self.note.hide()  # (about a causal option cross-attention does not have)
            self.show_error(self.tr("The KV-cache stepper decodes self-attention; this "
                                    "session is cross-attention. Switch to self-attention "
                                    "to step through it."))
            self.go_to(0)
            return
        options = {k: v for k, v in self.inputs.options.items()
                   if k not in ("causal", "X_kv")}
        try:
            self.decode = decode_with_cache(self.inputs.X, self.inputs.weights, **options)
        except EmptyRowError as exc:  # the session is not causal; decoding is
            self.decode = None
            tokens = self.model.state.tokens
            self.show_error(self.tr(
                "Cannot decode this session: decoding is causal, and with its mask token "
                "{0} “{1}” would see no key at its step (the mask hides every key from 0 "
                "to {0}). Unmask one of them in the mask pane.").format(
                    exc.row, token_in_text(tokens[exc.row]) if exc.row < len(tokens) else exc.row))
        except ValueError as exc:
            self.decode = None
            self.show_error(self.tr("Cannot decode this session: {0}").format(say(exc)))
        else:
            if np.isfinite(self.decode.outputs).all():
                self.show_error("")
            else:  # weights a diverged training run left: the outputs overflowed
                self.decode = None
                self.show_error(self.tr(
                    "Cannot decode this session: its numbers overflow float64 (beyond "
                    "±1.8e308); the main window says where."))
        # the row names of later steps too, so that the grids' cells keep still
        tokens = self.model.state.tokens
        for name, grid in self.grids.items():
            grid.label_room = ([str(k) for k in range(len(tokens))]
                               if name in ("weights", "output") else
                               [_row_name(k, token) for k, token in enumerate(tokens)])
        self.note.setVisible(not self.inputs.causal)
        self.note.setText(self.tr("This session is not causal; decoding always is (token t "
                                  "cannot see later tokens), so these weights are those of "
                                  "the causal option, not of the panes."))
        self.go_to(self.position)

    def step_count(self) -> int:
        return 0 if self.decode is None else len(self.decode)

    def recomputed(self, t: int) -> np.ndarray:
        """Output row t recomputed without a cache (the whole prefix again)."""
        options = {k: v for k, v in self.inputs.options.items() if k not in ("causal", "X_kv")}
        return recompute_step(self.inputs.X, self.inputs.weights, t, **options)

    def show_step(self) -> None:
        if self.decode is None:  # refused: no grid keeps the last decode's title
            for g in self.grids.values():
                g.title = ""
                g.set_data(np.zeros((0, 0)))
            self.compare.setText("")
            return
        t = self.position
        step = self.decode.steps[t]
        tokens = list(self.model.state.tokens)
        first = max(0, t + 1 - MAX_SHOWN_ROWS)
        cols = slice(0, MAX_SHOWN_COLS)
        d_k = step.q.shape[0]
        cut = (self.tr(" · dimensions 0–{0} of {1}").format(MAX_SHOWN_COLS - 1, d_k)
               if d_k > MAX_SHOWN_COLS else "")
        names = [_row_name(k, tokens[k]) for k in range(first, t + 1)]
        newest = [t - first]
        g = self.grids
        g["q"].title = self.tr("q_t (new query)") + cut
        g["q"].set_data(step.q[cols], [_row_name(t, tokens[t])])
        g["K"].title = self.tr("K cache: %n rows (+1)", "", t + 1) + cut
        g["K"].set_data(step.K_cache[first:, cols], names, highlight_rows=newest)
        g["V"].title = self.tr("V cache: %n rows (+1)", "", t + 1) + cut
        g["V"].set_data(step.V_cache[first:, cols], names, highlight_rows=newest)
        g["weights"].title = self.tr("new weight row")
        g["weights"].set_data(step.weights[first:][None, :], [str(t)],
                              col_labels=[str(k) for k in range(first, t + 1)],
                              masked=~step.allowed[first:])  # 0, masked as in the panes
        g["output"].title = self.tr("new output row") + cut
        g["output"].set_data(step.output[cols], [str(t)])
        outputs = np.full((len(self.decode), min(self.decode.outputs.shape[1], MAX_SHOWN_COLS)),
                          np.nan)
        outputs[:t + 1] = self.decode.outputs[:t + 1, cols]
        shown = slice(first, min(len(self.decode), first + MAX_SHOWN_ROWS))
        g["outputs"].title = self.tr("outputs so far") + cut
        g["outputs"].set_data(outputs[shown],
                              [_row_name(k, tokens[k]) for k in range(shown.start, shown.stop)],
                              highlight_rows=[t - first])
        self.compare.setText(self._comparison_html(t, step))

    def _comparison_html(self, t: int, step) -> str:
        try:
            again = self.recomputed(t)
        except ValueError as exc:  # (an overflow the cached path did not meet)
            return html.escape(self.tr("Recomputed without the cache: {0}").format(say(exc)))
        diff = float(np.max(np.abs(step.output - again))) if again.size else 0.0
        top = float(np.max(np.abs(again))) if again.size else 0.0
        # the spacing of floats at the largest value: ε·|top| (ε the spacing at 1) is up
        # to twice it, and read 0.7110 units for a difference of one (an audit)
        ulps = diff / float(np.spacing(again.dtype.type(top))) if top > 0 else 0.0
        d_model, d_k = self.inputs.weights.d_model, self.inputs.weights.d_k
        cached_now, again_now = cached_madds(t, d_model, d_k), recomputed_madds(t, d_model, d_k)
        cached_sum = sum(cached_madds(s, d_model, d_k) for s in range(t + 1))
        again_sum = sum(recomputed_madds(s, d_model, d_k) for s in range(t + 1))
        verdict = (self.tr("equal to the last bit") if diff == 0 else
                   self.tr("equal to rounding ({0} × the unit in the last place of the "
                           "largest value): a matrix product adds its d terms in another "
                           "order for many rows than for one").format(format_setting(ulps)))
        # tokens are numbered from 0, as in the tables; the step counter counts from 1
        again_text = (self.tr("Q, K and V of token 0 again, then the whole 1×1 QKᵀ.")
                      if t == 0 else
                      self.tr("Q, K and V of tokens 0…{0} again, then the whole {1}×{1} "
                              "QKᵀ.").format(t, t + 1))
        # (the colon of the interface's language: "词元 0: 重新计算" read mixed)
        return ("<p>" + self.tr("{0}: {1}").format(
                    "<b>" + self.tr("Token {0} without a cache").format(t) + "</b>",
                    again_text) + "</p><p>"
                + self.tr("max |cached − recomputed| = {0}: {1}.").format(
                    format_nonzero(diff), verdict)
                + "</p><table cellpadding='3'><tr><th></th><th>" + self.tr("this step")
                + "</th><th>" + (self.tr("tokens 0…{0}").format(t) if t else self.tr("token 0"))
                + "</th></tr>"
                + "<tr><td>" + self.tr("multiply-adds with the cache") + f"</td><td align='right'>"
                f"{cached_now:,}</td><td align='right'>{cached_sum:,}</td></tr>"
                + "<tr><td>" + self.tr("multiply-adds recomputing") + f"</td><td align='right'>"
                f"{again_now:,}</td><td align='right'>{again_sum:,}</td></tr></table><p>"
                + self.tr("With the cache a step costs 3·d_model·d_k + 2·(t+1)·d_k; "
                          "recomputing, 3·(t+1)·d_model·d_k + 2·(t+1)²·d_k.") + "</p>")
