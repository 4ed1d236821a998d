"""Spin boxes that tell when a typed number is outside their range.

Qt's spin boxes clamp typed numbers without a word: a key that takes the number past
the maximum is dropped (100000 typed in the d_k box up to 1024 read 1000), and a number
below the minimum is replaced by the previous value once the editing ends (0 typed as
the custom divisor read 1.00 again). These keep the number as it is typed, take the
nearest value allowed when the editing ends (Enter, or the focus leaving), and then
emit ``clamped(typed, bound, above)``: the owner says so where the user looks.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox

__all__ = ["ClampSayingSpinBox", "ClampSayingDoubleSpinBox"]


class _SaysClamp:
    """The shared part; ``clamped`` is each concrete class's signal."""

    _clamp: tuple[str, float] | None = None
    """The number typed and the bound it became, until the editing ends."""

    def _init_clamp(self) -> None:
        self.editingFinished.connect(self._on_editing_finished)

    def validate(self, text: str, pos: int):
        state, text, pos = super().validate(text, pos)
        if state == QValidator.State.Invalid and self._bound_for(text) is not None:
            state = QValidator.State.Intermediate  # shown as typed, taken at the end
        return state, text, pos

    def fixup(self, text: str) -> str:
        bound = self._bound_for(text)
        if bound is None:
            return super().fixup(text)
        self._clamp = (self._typed(text), bound)
        return self.textFromValue(bound)

    def _typed(self, text: str) -> str:
        return text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()

    def _bound_for(self, text: str) -> float | None:
        """The bound a typed number lies beyond, or ``None`` (in range, or no number)."""
        value, ok = self.locale().toDouble(self._typed(text))
        if not ok or not math.isfinite(value):
            return None
        if isinstance(self, QSpinBox) and not value.is_integer():
            return None
        if value > self.maximum():
            return self.maximum()
        if value < self.minimum():
            return self.minimum()
        return None

    def _on_editing_finished(self) -> None:
        clamp, self._clamp = self._clamp, None
        # said only when the bound was taken (a model that refused it said why itself
        # and set the box back)
        if clamp is not None and self.value() == clamp[1]:
            typed, bound = clamp
            self.clamped.emit(typed, self.textFromValue(bound), bound == self.maximum())


class ClampSayingSpinBox(_SaysClamp, QSpinBox):
    """A ``QSpinBox`` whose typed number beyond its range becomes the bound, said by
    ``clamped(typed, bound, above)``."""

    clamped = Signal(str, str, bool)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._init_clamp()


class ClampSayingDoubleSpinBox(_SaysClamp, QDoubleSpinBox):
    """A ``QDoubleSpinBox`` whose typed number beyond its range becomes the bound, said
    by ``clamped(typed, bound, above)``."""

    clamped = Signal(str, str, bool)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._init_clamp()
