"""The weight and option controls: attention mode, heads, d_k, seed, scale, scaling,
temperature, toggles.

Each control forwards the user's change to the model; each model change updates
the controls with their signals blocked, so the model stays the only state.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QWidget,
)

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_setting
from qkv_desktop.presentation.texts import say
from qkv_desktop.state.session_state import MAX_HEADS, MAX_SEED
from qkv_desktop.views.editors.cell_balloon import Balloon
from qkv_desktop.views.editors.spin_boxes import (
    ClampSayingDoubleSpinBox,
    ClampSayingSpinBox,
    ClampSayingWholeBox,
)
from qkv_desktop.views.editors.wheel_focus import FocusComboBox, FocusSlider
from qkv_desktop.views.retranslate import Retranslating

INIT_SCALE_RANGE = (0.001, 10.0)
"""The weight scale box's bounds; a session's own scale outside them widens them (for
the window's life)."""

__all__ = ["ControlsPanel", "temperature_from_slider", "slider_from_temperature"]

T_MIN, T_MAX, T_STEPS = 0.05, 10.0, 1000


def temperature_from_slider(pos: int) -> float:
    """Logarithmic slider: position 0…1000 → temperature 0.05…10, to three significant
    digits: the value the label and the pane titles show is the one divided by (it
    showed 2.65 while 2.6451 divided the scores, and a learner's check came out wrong)."""
    return float(f"{T_MIN * (T_MAX / T_MIN) ** (pos / T_STEPS):.3g}")


def slider_from_temperature(t: float) -> int:
    """The slider position of ``t``: one that gives ``t`` back where there is one (T = 1
    is position 566, while the nearest by the logarithm is 565, which gives 0.998)."""
    t = min(max(t, T_MIN), T_MAX)
    pos = round(T_STEPS * math.log(t / T_MIN) / math.log(T_MAX / T_MIN))
    for near in (pos, pos + 1, pos - 1):
        if 0 <= near <= T_STEPS and temperature_from_slider(near) == t:
            return near
    return pos


class ControlsPanel(Retranslating, QWidget):
    """A form of the settings that decide the weights and how scores become weights."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.balloon = Balloon(self)
        """A refusal under the control that asked (``_apply``); gone when a change lands."""
        model.landed.connect(self.balloon.hide)  # a refusal is old news once a change lands
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)

        self.mode = FocusComboBox(objectName="mode")
        self.mode.addItem("", "self")
        self.mode.addItem("", "cross")
        # The long item texts may be cut on a narrow dock (the tool tip says it all).
        self.mode.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.mode.setMinimumContentsLength(16)
        self.mode.currentIndexChanged.connect(
            lambda _i: self._apply(model.set_mode, self.mode.currentData(),
                                 by=self.mode))
        self.heads = ClampSayingSpinBox(objectName="heads")
        self.heads.setRange(1, MAX_HEADS)
        self.heads.valueChanged.connect(lambda v: self._apply(model.set_heads, v, by=self.heads))
        self.head = FocusComboBox(objectName="head")
        self.head.currentIndexChanged.connect(
            lambda i: model.set_current_head(i) if i >= 0 else None)
        self.head_label = QLabel()
        self.output_projection = QCheckBox(objectName="output_projection")
        self.output_projection.toggled.connect(
            lambda on: self._apply(model.set_output_projection, on, by=self.output_projection))
        heads_row = QHBoxLayout()
        heads_row.addWidget(self.heads)
        heads_row.addWidget(self.head_label)
        heads_row.addWidget(self.head, 1)
        heads_row.addWidget(self.output_projection)

        self.d_k = ClampSayingSpinBox(objectName="d_k")
        self.d_k.setRange(1, 1024)
        self.d_k.valueChanged.connect(lambda v: self._apply(model.set_d_k, v, by=self.d_k))
        self.seed = ClampSayingWholeBox(objectName="seed")
        self.seed.setRange(0, MAX_SEED)
        self.seed.valueChanged.connect(
            lambda v: self._apply(model.set_seed, int(v), by=self.seed))
        self.init_scale = ClampSayingDoubleSpinBox(objectName="init_scale")
        self.init_scale.setRange(*INIT_SCALE_RANGE)
        self.init_scale.setSingleStep(0.05)
        self.init_scale.valueChanged.connect(lambda v: self._apply(model.set_init_scale, v,
                                                                  by=self.init_scale))

        self.scaling = FocusComboBox(objectName="scaling")
        for data in ("sqrt_dk", "none", "custom"):
            self.scaling.addItem("", data)
        self.divisor = ClampSayingDoubleSpinBox(objectName="divisor")
        self.divisor.ROOM = "0.000000000"  # a typed 2.3456789 whole (its 9 was cut)
        self.divisor.setRange(0.01, 1000.0)
        self.divisor.setValue(1.0)
        self.scaling.currentIndexChanged.connect(self._on_scaling)
        self.divisor.valueChanged.connect(self._on_scaling)
        scale_row = QHBoxLayout()
        scale_row.addWidget(self.scaling, 1)
        scale_row.addWidget(self.divisor)

        self.temperature = FocusSlider(Qt.Orientation.Horizontal, objectName="temperature")
        self.temperature.setRange(0, T_STEPS)
        self.temperature_label = QLabel()
        self.temperature_label.setMinimumWidth(44)
        self.temperature.valueChanged.connect(self._on_temperature)
        t_row = QHBoxLayout()
        t_row.addWidget(self.temperature, 1)
        t_row.addWidget(self.temperature_label)

        self.causal = QCheckBox(objectName="causal")
        self.causal.toggled.connect(lambda on: self._apply(model.set_options, causal=on,
                                                            by=self.causal))
        self.share = QCheckBox(objectName="share_qk")
        self.share.toggled.connect(lambda on: self._apply(model.set_options, share_qk=on,
                                                           by=self.share))
        self.naive = QCheckBox(objectName="naive")
        self.naive.toggled.connect(lambda on: self._apply(model.set_options, stable=not on,
                                                           by=self.naive))
        self.float32 = QCheckBox(objectName="float32")
        self.float32.toggled.connect(
            lambda on: self._apply(model.set_options, dtype="float32" if on else "float64",
                                by=self.float32))
        toggles = QGridLayout()  # two by two: one row of four needed a 516 px wide dock
        for k, box in enumerate((self.causal, self.share, self.naive, self.float32)):
            toggles.addWidget(box, k // 2, k % 2)
        toggles.setColumnStretch(2, 1)

        for spin in (self.heads, self.d_k, self.seed, self.init_scale, self.divisor):
            # a typed number outside the range, or with too many decimals, said in the
            # status bar (Qt would have dropped the digits, or the number, without a word)
            spin.said.connect(model.refused)

        self._labels = [QLabel() for _ in range(8)]
        rows = [self.mode, heads_row, self.d_k, self.seed, self.init_scale, scale_row, t_row,
                toggles]
        for label, field in zip(self._labels, rows, strict=True):
            form.addRow(label, field)
        self._weight_source: str | None = None
        self.retranslate()
        self._shown: tuple | None = None
        model.changed.connect(self._on_model_changed)
        model.currentHeadChanged.connect(self._on_head_changed)
        self._on_model_changed()

    def retranslate(self) -> None:
        """Every label, item text and tooltip in the current language."""
        for label, text in zip(self._labels, (self.tr("attention"), self.tr("heads h"),
                                              self.tr("d_k"), self.tr("seed"),
                                              self.tr("weight scale"), self.tr("scaling"),
                                              self.tr("temperature"), self.tr("options")), strict=True):
            label.setText(text)
        self.mode.setItemText(0, self.tr("self-attention (Q, K, V from X)"))
        self.mode.setItemText(1, self.tr("cross-attention (K, V from X_kv)"))
        self.mode.setToolTip(self.tr("Self-attention: queries, keys and values all come from "
                                     "X. Cross-attention: queries come from X, keys and "
                                     "values from a second sequence X_kv (e.g. an encoder's "
                                     "output), edited in the second token table."))
        self.heads.set_tip(self.tr("Number of attention heads h, each with its own W_Q, "
                                      "W_K, W_V. d_k stays while h·d_k fits in d_model, "
                                      "else becomes d_model / h where h divides d_model (where "
                                      "it does not, d_k stays and the heads together are "
                                      "wider than d_model). Changing h re-initialises "
                                      "the weights from the seed. W_Q, W_K and W_V hold "
                                      "3·d_model·h·d_k numbers per layer: for GPT-3 175B "
                                      "3·12288² ≈ 4.5×10⁸ in one layer, over all 96 "
                                      "heads."))
        self.head_label.setText(self.tr("show"))
        self.head.setToolTip(self.tr("The head the panes and the weight tables show; or "
                                     "click a head in the small multiples."))
        for h in range(self.head.count()):
            self.head.setItemText(h, self.tr("head {0}").format(h + 1))
        self.output_projection.setText(self.tr("output projection W_O"))
        self.output_projection.setToolTip(self.tr("Project the concatenated head outputs "
                                                  "(n × h·d_k) back to d_model with W_O: "
                                                  "final output = concat·W_O."))
        self.d_k.set_tip(self.tr("Dimension of the query/key/value vectors. Changing it "
                                    "re-initialises W_Q, W_K, W_V from the seed."))
        if self._weight_source is None:
            self.seed.set_tip(self.tr("Random seed of the weight initialisation "
                                         "(the tutorial uses 42 and 123)."))
            self.init_scale.set_tip(self.tr("Weights are randn(d_model, d_k) × this scale."))
        else:
            tip = self.tr("The weights come from {0}: no seed or scale made them. Changing "
                          "d_k or h starts again from random weights.").format(self._weight_source)
            self.seed.set_tip(tip)
            self.init_scale.set_tip(tip)
            for spin in (self.seed, self.init_scale):
                spin.setSpecialValueText(self.tr("from {0}").format(self._weight_source))
        for i, text in enumerate((self.tr("÷ √d_k"), self.tr("none"), self.tr("custom ÷"))):
            self.scaling.setItemText(i, text)
        self.scaling.setToolTip(self.tr("What the scores QKᵀ are divided by before softmax."))
        self.divisor.set_tip(self.tr("The custom divisor of the scores."))
        for spin, name in ((self.heads, self.tr("The number of heads h")),
                           (self.d_k, self.tr("d_k")), (self.seed, self.tr("The seed")),
                           (self.init_scale, self.tr("The weight scale")),
                           (self.divisor, self.tr("The custom divisor"))):
            spin.subject = name  # what a message about a typed number calls it
        self.temperature.setToolTip(self.tr("Temperature T (0.05…10, logarithmic): weights = "
                                            "softmax(QKᵀ / (divisor·T)). Low T sharpens, "
                                            "high T flattens."))
        self.causal.setText(self.tr("causal mask"))
        self._update_causal_tip()
        self.share.setText(self.tr("share W_Q = W_K"))
        self.share.setToolTip(self.tr("Use the same matrix for queries and keys: in "
                                      "self-attention QKᵀ becomes the symmetric KKᵀ of the "
                                      "tutorial's demo 2 (RoPE(K)·RoPE(K)ᵀ with RoPE)."))
        self.naive.setText(self.tr("naive softmax"))
        self.naive.setToolTip(self.tr("exp(x)/Σexp(x) without subtracting the row maximum: "
                                      "large scores overflow to inf/NaN."))
        self.float32.setText(self.tr("float32"))
        self.float32.setToolTip(self.tr("Compute in single precision: about twice as fast "
                                        "for long sequences."))

    def set_weight_source(self, name: str | None) -> None:
        """The weights come from checkpoint ``name`` (or, for ``None``, from the seed).

        A checkpoint's weights have no seed and no scale: the two controls then say
        where the weights come from and are disabled (d_k and h stay: changing them
        re-initialises random weights, which ends the checkpoint's part).
        """
        if name == self._weight_source:
            return
        self._weight_source = name
        self._update_weight_source()

    def _update_weight_source(self) -> None:
        name = self._weight_source
        for spin in (self.seed, self.init_scale):
            spin.setSpecialValueText("")  # while the value is the minimum: the source
            spin.setEnabled(name is None)
        self.retranslate()  # the tool tips and the source's name
        self._on_model_changed(force=True)

    def _update_causal_tip(self) -> None:
        self.causal.setToolTip(
            self.tr("Each token may attend only to itself and earlier tokens, as in a "
                    "decoder.") if self.model.state.mode == "self" else
            self.tr("Causal masking is off in cross-attention: every query may see the "
                    "whole encoder sequence, which has no 'later' tokens for it."))

    def _apply(self, fn, *args, by: QWidget | None = None, **kwargs) -> None:
        """``fn(*args, **kwargs)``; refused, said in the status bar and under ``by``,
        the control that asked, which shows its value again."""
        try:
            fn(*args, **kwargs)
        except ValueError as exc:
            text = self.tr("Not applied: {0}").format(say(exc))
            self.model.refused.emit(text)
            self._on_model_changed(force=True)
            if by is not None:
                self.balloon.show_below(by, text)

    def _on_scaling(self, *_args) -> None:
        mode = self.scaling.currentData()
        self.divisor.setEnabled(mode == "custom")
        scale = self.divisor.value() if mode == "custom" else mode
        self._apply(self.model.set_options, scale=scale, merge_key="scale", by=self.scaling)

    def _on_temperature(self, pos: int) -> None:
        t = temperature_from_slider(pos)
        self.temperature_label.setText(format_setting(t))
        self._apply(self.model.set_options, temperature=t, merge_key="temperature",
                    by=self.temperature)

    def _on_head_changed(self, _head: int) -> None:
        # (a method, not a lambda over ``self``: the model's connection would hold the
        # lambda, and through it these controls, as long as the model lives)
        self._on_model_changed()

    def _on_model_changed(self, force: bool = False) -> None:
        """Set every control from the state; skipped when none of what they show changed.

        An edit of X changes none of them, and setting a spin box repaints it even to
        its own value. ``force`` resets them anyway (after a refused value).
        """
        s = self.model.state
        o = s.options
        shown = (s.mode, s.n_heads, self.model.current_head, s.W_O is None, s.d_k, s.seed,
                 s.init_scale, o)
        if shown == self._shown and not force:
            return
        self._shown = shown
        blockers = [QSignalBlocker(w) for w in (
            self.d_k, self.seed, self.init_scale, self.scaling, self.divisor,
            self.temperature, self.causal, self.share, self.naive, self.float32,
            self.mode, self.heads, self.head, self.output_projection)]
        self.mode.setCurrentIndex(self.mode.findData(s.mode))
        self.heads.setValue(s.n_heads)
        while self.head.count() > s.n_heads:
            self.head.removeItem(self.head.count() - 1)
        while self.head.count() < s.n_heads:
            self.head.addItem(self.tr("head {0}").format(self.head.count() + 1))
        self.head.setCurrentIndex(self.model.current_head)
        self.head.setEnabled(s.n_heads > 1)
        self.output_projection.setChecked(s.W_O is not None)
        # RoPE turns pairs of dimensions (d_k even): the arrows step by 2, as 9 was refused
        self.d_k.setSingleStep(2 if o.positions == "rope" else 1)
        self.d_k.setValue(s.d_k)
        checkpoint = self._weight_source is not None
        self.seed.setValue(self.seed.minimum() if checkpoint else s.seed)
        # a session file may hold a scale past the box's bounds: shown as it is used (20
        # read 10, the bound, while the weights were drawn with 20: a first user). The
        # bounds only widen: narrowed again to each new value, 18 typed after 15 was
        # said to be "at most 15" though 20 had been in use (a review)
        scale = self.init_scale.minimum() if checkpoint else s.init_scale
        self.init_scale.setRange(min(self.init_scale.minimum(), scale),
                                 max(self.init_scale.maximum(), scale))
        self.init_scale.setValue(scale)
        if isinstance(o.scale, str):
            self.scaling.setCurrentIndex(self.scaling.findData(o.scale))
        else:
            self.scaling.setCurrentIndex(self.scaling.findData("custom"))
            self.divisor.setValue(float(o.scale))
        self.divisor.setEnabled(not isinstance(o.scale, str))
        self.temperature.setValue(slider_from_temperature(o.temperature))
        self.temperature_label.setText(format_setting(o.temperature))
        self.causal.setChecked(o.causal)
        self.causal.setEnabled(s.mode == "self")
        self._update_causal_tip()
        self.share.setChecked(o.share_qk)
        self.naive.setChecked(not o.stable)
        self.float32.setChecked(o.dtype == "float32")
        del blockers
