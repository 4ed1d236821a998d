"""How a heatmap axis names its tokens when they do not all fit.

In order, as long as the labels would overlap: a smaller font, then each name cut
to its first letters with "…" (every token keeps a label), and only then every k-th
name. A cut or a left-out name is said on hover over the axis, with the whole list.
Rows are stacked, so for the left axis only the font and the thinning help.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont, QFontMetrics

__all__ = ["AxisPlan", "plan_axis", "SMALL_TICK_PX", "MAX_LABEL_CHARS", "MIN_ABBREVIATED"]

SMALL_TICK_PX = 9
"""The label size a crowded axis falls back to before it cuts or leaves out names."""
MAX_LABEL_CHARS = 12
"""Longer token names are always shortened with "…" on the axes."""
MIN_ABBREVIATED = 2
"""A cut name keeps at least this many characters before its "…"."""
GAP_PX = 6


@dataclass(frozen=True)
class AxisPlan:
    font: QFont
    ticks: list[tuple[float, str]]  # (position, label) at cell centres
    note: str  # the axis tool tip: empty when every name is shown whole


def _cut(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[:chars] + "…"


def plan_axis(labels: list[str], room: float, vertical: bool) -> AxisPlan:
    """The font and ticks for ``labels`` (one per cell) along ``room`` pixels."""
    normal, small = QFont(), QFont()
    small.setPixelSize(SMALL_TICK_PX)
    names = [_cut(x, MAX_LABEL_CHARS - 1) for x in labels]
    per_cell = room / max(len(labels), 1)

    def need(font: QFont, shown: list[str]) -> int:
        metrics = QFontMetrics(font)
        return (metrics.height() if vertical else
                max((metrics.horizontalAdvance(x) for x in shown), default=0)) + GAP_PX

    shown, font = names, normal
    for font in (normal, small):
        if need(font, names) <= per_cell:
            break
    else:
        font = small
        if not vertical:
            longest = max((len(x) for x in names), default=0)
            for chars in range(longest - 1, MIN_ABBREVIATED - 1, -1):
                cut = [_cut(x, chars) for x in names]
                if need(font, cut) <= per_cell:
                    shown = cut
                    break
    step = max(1, -(-len(shown) * need(font, shown) // max(int(room), 1)))
    ticks = [(k + 0.5, shown[k]) for k in range(0, len(shown), step)]
    translate = QCoreApplication.translate
    whole = " ".join(labels)
    if step > 1:
        note = translate("AxisLabels", "Only one name in {0} fits here; all of them: {1}. "
                         "Hover a cell to read its tokens.").format(step, whole)
    elif shown != labels:
        note = translate("AxisLabels", "Names are shortened to fit: {0}. Hover a cell to "
                         "read its tokens.").format(whole)
    else:
        note = ""
    return AxisPlan(font, ticks, note)
