"""The weight and option controls: d_k, seed, scale, scaling, temperature, toggles.

Each control forwards the user's change to the model; each model change updates
the controls with their signals blocked, so the model stays the only state.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout,
                               QLabel, QSlider, QSpinBox, QWidget)

from ..model import AttentionModel

__all__ = ["ControlsPanel", "temperature_from_slider", "slider_from_temperature"]

T_MIN, T_MAX, T_STEPS = 0.05, 10.0, 1000


def temperature_from_slider(pos: int) -> float:
    """Logarithmic slider: position 0…1000 → temperature 0.05…10."""
    return round(T_MIN * (T_MAX / T_MIN) ** (pos / T_STEPS), 4)


def slider_from_temperature(t: float) -> int:
    t = min(max(t, T_MIN), T_MAX)
    return round(T_STEPS * math.log(t / T_MIN) / math.log(T_MAX / T_MIN))


class ControlsPanel(QWidget):
    """A form of the settings that decide the weights and how scores become weights."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)

        self.d_k = QSpinBox(objectName="d_k")
        self.d_k.setRange(1, 1024)
        self.d_k.setToolTip(self.tr("Dimension of the query/key/value vectors. Changing it "
                                    "re-initialises W_Q, W_K, W_V from the seed."))
        self.d_k.valueChanged.connect(lambda v: self._apply(model.set_d_k, v))
        self.seed = QSpinBox(objectName="seed")
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip(self.tr("Random seed of the weight initialisation "
                                     "(the tutorial uses 42 and 123)."))
        self.seed.valueChanged.connect(lambda v: self._apply(model.set_seed, v))
        self.init_scale = QDoubleSpinBox(objectName="init_scale")
        self.init_scale.setRange(0.001, 10.0)
        self.init_scale.setDecimals(3)
        self.init_scale.setSingleStep(0.05)
        self.init_scale.setToolTip(self.tr("Weights are randn(d_model, d_k) × this scale."))
        self.init_scale.valueChanged.connect(lambda v: self._apply(model.set_init_scale, v))

        self.scaling = QComboBox(objectName="scaling")
        self.scaling.addItem(self.tr("÷ √d_k"), "sqrt_dk")
        self.scaling.addItem(self.tr("none"), "none")
        self.scaling.addItem(self.tr("custom ÷"), "custom")
        self.scaling.setToolTip(self.tr("What the scores QKᵀ are divided by before softmax."))
        self.divisor = QDoubleSpinBox(objectName="divisor")
        self.divisor.setRange(0.01, 1000.0)
        self.divisor.setValue(1.0)
        self.divisor.setToolTip(self.tr("The custom divisor of the scores."))
        self.scaling.currentIndexChanged.connect(self._on_scaling)
        self.divisor.valueChanged.connect(self._on_scaling)
        scale_row = QHBoxLayout()
        scale_row.addWidget(self.scaling, 1)
        scale_row.addWidget(self.divisor)

        self.temperature = QSlider(Qt.Orientation.Horizontal, objectName="temperature")
        self.temperature.setRange(0, T_STEPS)
        self.temperature.setToolTip(self.tr("Temperature T (0.05…10, logarithmic): weights = "
                                            "softmax(QKᵀ / (divisor·T)). Low T sharpens, "
                                            "high T flattens."))
        self.temperature_label = QLabel()
        self.temperature_label.setMinimumWidth(44)
        self.temperature.valueChanged.connect(self._on_temperature)
        t_row = QHBoxLayout()
        t_row.addWidget(self.temperature, 1)
        t_row.addWidget(self.temperature_label)

        self.causal = QCheckBox(self.tr("causal mask"), objectName="causal")
        self.causal.setToolTip(self.tr("Each token may attend only to itself and earlier "
                                       "tokens, as in a decoder."))
        self.causal.toggled.connect(lambda on: self._apply(model.set_options, causal=on))
        self.share = QCheckBox(self.tr("share W_Q = W_K"), objectName="share_qk")
        self.share.setToolTip(self.tr("Use the same matrix for queries and keys: QKᵀ becomes "
                                      "the symmetric KKᵀ of the tutorial's demo 2."))
        self.share.toggled.connect(lambda on: self._apply(model.set_options, share_qk=on))
        self.naive = QCheckBox(self.tr("naive softmax"), objectName="naive")
        self.naive.setToolTip(self.tr("exp(x)/Σexp(x) without subtracting the row maximum: "
                                      "large scores overflow to inf/NaN."))
        self.naive.toggled.connect(lambda on: self._apply(model.set_options, stable=not on))
        self.float32 = QCheckBox(self.tr("float32"), objectName="float32")
        self.float32.setToolTip(self.tr("Compute in single precision: about twice as fast "
                                        "for long sequences."))
        self.float32.toggled.connect(
            lambda on: self._apply(model.set_options, dtype="float32" if on else "float64"))
        toggles = QHBoxLayout()
        for box in (self.causal, self.share, self.naive, self.float32):
            toggles.addWidget(box)
        toggles.addStretch(1)

        self._labels = [QLabel() for _ in range(6)]
        rows = [self.d_k, self.seed, self.init_scale, scale_row, t_row, toggles]
        for label, field in zip(self._labels, rows):
            form.addRow(label, field)
        self.retranslate()
        model.changed.connect(self._on_model_changed)
        self._on_model_changed()

    def retranslate(self) -> None:
        for label, text in zip(self._labels, (self.tr("d_k"), self.tr("seed"),
                                              self.tr("weight scale"), self.tr("scaling"),
                                              self.tr("temperature"), self.tr("options"))):
            label.setText(text)

    def _apply(self, fn, *args, **kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except ValueError as exc:
            self.model.message.emit(self.tr("Not applied: {0}").format(exc))
            self._on_model_changed()

    def _on_scaling(self, *_args) -> None:
        mode = self.scaling.currentData()
        self.divisor.setEnabled(mode == "custom")
        scale = self.divisor.value() if mode == "custom" else mode
        self._apply(self.model.set_options, scale=scale, merge_key="scale")

    def _on_temperature(self, pos: int) -> None:
        t = temperature_from_slider(pos)
        self.temperature_label.setText(f"{t:.3g}")
        self._apply(self.model.set_options, temperature=t, merge_key="temperature")

    def _on_model_changed(self) -> None:
        s = self.model.state
        o = s.options
        blockers = [QSignalBlocker(w) for w in (
            self.d_k, self.seed, self.init_scale, self.scaling, self.divisor,
            self.temperature, self.causal, self.share, self.naive, self.float32)]
        self.d_k.setValue(s.d_k)
        self.seed.setValue(s.seed)
        self.init_scale.setValue(s.init_scale)
        if isinstance(o.scale, str):
            self.scaling.setCurrentIndex(self.scaling.findData(o.scale))
        else:
            self.scaling.setCurrentIndex(self.scaling.findData("custom"))
            self.divisor.setValue(float(o.scale))
        self.divisor.setEnabled(not isinstance(o.scale, str))
        self.temperature.setValue(slider_from_temperature(o.temperature))
        self.temperature_label.setText(f"{o.temperature:.3g}")
        self.causal.setChecked(o.causal)
        self.causal.setEnabled(s.mode == "self")
        self.causal.setToolTip(
            self.tr("Each token may attend only to itself and earlier tokens, as in a "
                    "decoder.") if s.mode == "self" else
            self.tr("Causal masking is off in cross-attention: every query may see the "
                    "whole encoder sequence, which has no 'later' tokens for it."))
        self.share.setChecked(o.share_qk)
        self.naive.setChecked(not o.stable)
        self.float32.setChecked(o.dtype == "float32")
        del blockers
