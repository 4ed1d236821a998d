"""The Positions and Mask groups of the editor: where tokens sit and what each may see.

**Positions**: none, the sinusoidal table added to X, or RoPE (its base and pairing).
**Mask**: a sliding window, a prefix-LM prefix, attention sinks, ALiBi with one slope
per head, and the custom mask painted on the mask pane (here: how many cells, and a
button to clear it). The causal flag stays with the other options.

As in ``ControlsPanel``, every control forwards the change to the model, and every
model change sets the controls with their signals blocked; a refused value (RoPE with
an odd d_k, a mask that leaves a query nothing) is said in the status bar and the
controls go back to the session's values.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QSize, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core import alibi_slopes
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.texts import join_sentences, say
from qkv_desktop.views.editors.cell_balloon import Balloon
from qkv_desktop.views.editors.spin_boxes import ClampSayingDoubleSpinBox, ClampSayingSpinBox
from qkv_desktop.views.editors.wheel_focus import FocusComboBox
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["PositionsMaskPanel"]

SLOPES_PER_ROW = 4
ROPE_BASE_RANGE = (1.0, 1e9)
"""The RoPE bases the controls offer: the box here and the RoPE lab's slider."""
MAX_SHOWN_SLOPES = 16
"""Per-head slope boxes shown; more heads keep the paper's slopes (reset restores them)."""


class _WrappingLabel(QLabel):
    """A word-wrapped label that asks for one line's height and gets as many lines as
    its width needs (a form row takes the larger of the two): a plain one asks for two
    lines whatever its width, and a row that wide left one of them empty."""

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumSizeHint().height())


class PositionsMaskPanel(Retranslating, QWidget):
    """Two groups of controls over the session's position and mask options."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.balloon = Balloon(self)
        """A refusal under the control that asked (``_apply``); gone when a change lands."""
        model.landed.connect(self.balloon.hide)  # a refusal is old news once a change lands
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)

        self.positions_group = QGroupBox(objectName="positionsGroup")
        pform = QFormLayout(self.positions_group)
        self.positions = FocusComboBox(objectName="positions")
        for data in ("none", "sinusoidal", "rope"):
            self.positions.addItem("", data)
        self.positions.currentIndexChanged.connect(
            lambda _i: self._apply(positions=self.positions.currentData(), by=self.positions))
        self.rope_base = ClampSayingDoubleSpinBox(objectName="rope_base")
        self.rope_base.setRange(*ROPE_BASE_RANGE)
        self.rope_base.setSingleStep(1000.0)
        self.rope_base.said.connect(model.refused)  # in the status bar, as every refusal
        self.rope_base.valueChanged.connect(
            lambda v: self._apply(merge_key="rope_base", rope_base=float(v), by=self.rope_base))
        self.rope_pairing = FocusComboBox(objectName="rope_pairing")
        for data in ("half", "interleaved"):
            self.rope_pairing.addItem("", data)
        self.rope_pairing.currentIndexChanged.connect(
            lambda _i: self._apply(rope_pairing=self.rope_pairing.currentData(),
                                   by=self.rope_pairing))
        for combo in (self.positions, self.rope_pairing):
            # as wide as the dock gives, not as its longest choice ("i with i + d/2
            # (Hugging Face LLaMA)"): the tab needed a sideways scroll at 1024 × 700;
            # the list that opens shows each choice whole
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        self._plabels = [QLabel() for _ in range(3)]
        for label, w in zip(self._plabels, (self.positions, self.rope_base, self.rope_pairing),
                            strict=True):
            pform.addRow(label, w)

        self.mask_group = QGroupBox(objectName="maskGroup")
        mform = QFormLayout(self.mask_group)
        self.window_box = ClampSayingSpinBox(objectName="window")
        self.prefix = ClampSayingSpinBox(objectName="prefix")
        self.sinks = ClampSayingSpinBox(objectName="sinks")
        for box in (self.window_box, self.prefix, self.sinks):
            box.said.connect(model.refused)
        for box, name in ((self.window_box, "window"), (self.prefix, "prefix")):
            box.setRange(0, 1 << 20)  # 0 = off (the special value text)
            box.valueChanged.connect(lambda v, name=name, box=box: self._apply(
                merge_key=name, by=box, **{name: v or None}))
        self.sinks.setRange(0, 1 << 20)
        self.sinks.valueChanged.connect(
            lambda v: self._apply(merge_key="sinks", sinks=v, by=self.sinks))
        self.alibi = QCheckBox(objectName="alibi")
        self.alibi.toggled.connect(self._on_alibi)
        self.slopes_grid = QGridLayout()
        self.slopes: list[ClampSayingDoubleSpinBox] = []
        alibi_row = QHBoxLayout()
        alibi_row.addWidget(self.alibi, 0, Qt.AlignmentFlag.AlignTop)
        alibi_row.addLayout(self.slopes_grid, 1)
        self.custom = QCheckBox(objectName="custom_mask")
        self.custom.toggled.connect(lambda on: self._apply(custom_mask=on, by=self.custom))
        self.custom_label = _WrappingLabel(objectName="customMaskLabel", wordWrap=True)
        self.clear_custom = QPushButton(objectName="clearCustomMask")
        self.clear_custom.clicked.connect(lambda: self._apply(masked=(), by=self.clear_custom))
        custom_row = QWidget()
        row = QHBoxLayout(custom_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.custom)
        row.addWidget(self.custom_label, 1)
        row.addWidget(self.clear_custom)
        self._mlabels = [QLabel() for _ in range(5)]
        for label, w in zip(self._mlabels, (self.window_box, self.prefix, self.sinks, alibi_row,
                                            custom_row), strict=True):
            mform.addRow(label, w)

        outer.addWidget(self.positions_group)
        outer.addWidget(self.mask_group)
        outer.addStretch(1)
        self._shown: tuple | None = None
        self.retranslate()
        model.changed.connect(self._on_model_changed)
        self._on_model_changed()

    # ------------------------------------------------------------- texts
    def retranslate(self) -> None:
        self.positions_group.setTitle(self.tr("Positions"))
        self.mask_group.setTitle(self.tr("Mask"))
        for label, text in zip(self._plabels, (self.tr("positions"), self.tr("RoPE base"),
                                               self.tr("RoPE pairs")), strict=True):
            label.setText(text)
        for i, text in enumerate(("", self.tr("sinusoidal (added to X)"),
                                  self.tr("RoPE (rotates Q and K)"))):
            self.positions.setItemText(i, text)
        self.rope_base.subject = self.tr("The RoPE base")
        self.rope_base.set_tip(self.tr("Pair i turns by position · base^(−2i/d_k): a larger "
                                          "base turns slower, for longer contexts."))
        self.rope_pairing.setItemText(0, self.tr("i with i + d/2 (Hugging Face LLaMA)"))
        self.rope_pairing.setItemText(1, self.tr("2i with 2i + 1 (GPT-J; llama.cpp's LLaMA files)"))
        self.rope_pairing.setToolTip(self.tr("Which dimensions RoPE turns together."))
        for label, text in zip(self._mlabels, (self.tr("window"), self.tr("prefix"),
                                               self.tr("sinks"), self.tr("ALiBi"),
                                               self.tr("custom")), strict=True):
            label.setText(text)
        off = self.tr("off")
        self.window_box.setSpecialValueText(off)
        self.prefix.setSpecialValueText(off)
        self.window_box.subject = self.tr("The window")
        self.prefix.subject = self.tr("The prefix")
        self.sinks.subject = self.tr("The number of sinks")
        self.window_box.set_tip(self.tr(
            "Sliding window of w keys: with the causal mask a query sees its w most recent "
            "keys (i − w < j ≤ i), without it the keys with |i − j| < w."))
        self.prefix.set_tip(self.tr(
            "Prefix-LM: the first p tokens see each other in both directions, the rest "
            "causally (self-attention only)."))
        self.sinks.set_tip(self.tr(
            "Attention sinks: the first s keys stay visible to every later query whatever "
            "the window."))
        self.alibi.setText(self.tr("slopes m"))
        self.alibi.setToolTip(self.tr(
            "ALiBi adds −m·|i − j| to the scaled scores: the further the key, the lower its "
            "score. On: the paper's slopes, one per head (2^(−8k/h) for head k = 1 … h when h "
            "is a power of two, otherwise the interleaved powers of two of the paper's "
            "code); edit them per head."))
        self.custom.setText(self.tr("on"))
        self.custom.setToolTip(self.tr("Apply the cells painted on the mask pane (they are "
                                       "kept while this is off). On shows the mask pane."))
        self.clear_custom.setText(self.tr("Clear"))
        self.clear_custom.setToolTip(self.tr("Remove every cell painted on the mask pane."))
        self._shown = None
        self._on_model_changed()

    # ------------------------------------------------------------- changes
    def _apply(self, merge_key: str | None = None, by: QWidget | None = None,
               **changes) -> None:
        """The options ``changes``; refused, said in the status bar and under ``by``,
        the control that asked, which shows its value again."""
        try:
            self.model.set_options(merge_key=merge_key, **changes)
        except ValueError as exc:
            text = self.tr("Not applied: {0}").format(say(exc))
            self.model.refused.emit(text)
            self._on_model_changed(force=True)
            if by is not None:
                self.balloon.show_below(by, text)

    def _on_alibi(self, on: bool) -> None:
        h = self.model.state.n_heads
        self._apply(alibi=tuple(float(m) for m in alibi_slopes(h)) if on else None,
                    by=self.alibi)

    def _on_slope(self, head: int, value: float) -> None:
        slopes = list(self.model.state.options.alibi or ())
        if head < len(slopes):
            slopes[head] = float(value)
            self._apply(merge_key=f"alibi{head}", alibi=tuple(slopes))

    def _sync_slope_boxes(self, count: int) -> None:
        while len(self.slopes) > count:
            box = self.slopes.pop()
            self.slopes_grid.removeWidget(box)
            box.deleteLater()
        while len(self.slopes) < count:
            head = len(self.slopes)
            # (its decimals keep the paper's slopes, powers of two: 2^-8 = 0.00390625)
            box = ClampSayingDoubleSpinBox(objectName=f"alibi_slope_{head}")
            box.setRange(0.0, 100.0)
            box.setSingleStep(0.01)
            box.said.connect(self.model.refused)
            box.valueChanged.connect(lambda v, head=head: self._on_slope(head, v))
            self.slopes_grid.addWidget(box, *divmod(head, SLOPES_PER_ROW))
            self.slopes.append(box)
        for head, box in enumerate(self.slopes):
            box.set_tip(self.tr("ALiBi slope m of head {0}").format(head + 1))
            box.subject = self.tr("The ALiBi slope of head {0}").format(head + 1)

    def _say_none(self, learned: bool) -> None:
        """What "none" means for this session. A BERT encoder's X is a layer's input:
        the model added its learned position embeddings to the word vectors before
        layer 1, so X holds the positions, and its attention is not order-blind (a
        MiniLM session said "none (order-blind)")."""
        self.positions.setItemText(0, self.tr("none added (X holds the model's positions)")
                                   if learned else self.tr("none (order-blind without a mask or ALiBi)"))
        tip = self.tr(
            "Without positions, a mask or ALiBi, attention cannot tell word order: "
            "shuffling the tokens only shuffles the output. The causal mask breaks this (a "
            "token sees only itself and earlier tokens), and so does ALiBi, whose bias "
            "−m·|i − j| depends on where the tokens stand. Sinusoidal: the original Transformer "
            "adds sin/cos of the position to X before the projections. RoPE: each pair of "
            "dimensions of q and k is turned by an angle that grows with the position, so "
            "the positions enter q·k only through the distance between the tokens.")
        if learned:
            tip = join_sentences([tip, self.tr(
                "This session's X comes from a BERT encoder, which added its learned "
                "position embeddings to the word vectors before its first layer: X "
                "already tells the order.")])
        self.positions.setToolTip(tip)

    def _on_model_changed(self, force: bool = False) -> None:
        s = self.model.state
        o = s.options
        shown = (o, s.n_heads, s.mode, s.provenance is not None and s.provenance.kind)
        if shown == self._shown and not force:
            return
        self._shown = shown
        slopes = o.alibi or ()
        self._sync_slope_boxes(min(len(slopes), MAX_SHOWN_SLOPES))
        widgets = (self.positions, self.rope_base, self.rope_pairing, self.window_box, self.prefix,
                   self.sinks, self.alibi, self.custom, *self.slopes)
        blockers = [QSignalBlocker(w) for w in widgets]
        self.positions.setCurrentIndex(self.positions.findData(o.positions))
        self._say_none(s.provenance is not None and s.provenance.kind == "encoder")
        self.rope_base.setValue(o.rope_base)
        self.rope_pairing.setCurrentIndex(self.rope_pairing.findData(o.rope_pairing))
        rope = o.positions == "rope"
        self.rope_base.setEnabled(rope)
        self.rope_pairing.setEnabled(rope)
        self.window_box.setValue(o.window or 0)
        self.prefix.setValue(o.prefix or 0)
        self.prefix.setEnabled(s.mode == "self")
        self.sinks.setValue(o.sinks)
        self.alibi.setChecked(o.alibi is not None)
        for box, m in zip(self.slopes, slopes, strict=False):
            box.setValue(m)
        self.custom.setChecked(o.custom_mask)
        count = len(o.masked)
        self.custom_label.setText(
            self.tr("{0} cell(s) masked; click or drag on the mask pane").format(count)
            if count else self.tr("none; click or drag on the mask pane to mask cells"))
        self.clear_custom.setEnabled(bool(count))
        del blockers
