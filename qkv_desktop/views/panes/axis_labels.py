"""How a heatmap axis names its tokens when they do not all fit.

In order, as long as the labels would overlap: a smaller font, then each name cut
to its first letters with "…" (at least ``MIN_ABBREVIATED``), then the names turned
upright along the columns (``AxisPlan.rotated``: a name then needs a line's height,
not its width; cut shorter while the longest is longer than the plot lets a turned
name be, ``depth_px``), and only then every k-th name. Every token keeps a label as long as
any of these fits; a cut or a left-out name is said on hover over the axis, with the
whole list. Rows are stacked, so for the left axis only the font (down to the
smallest legible) and the thinning help, and rows need less gap than names side by side;
row names are cut only to keep the axis narrow (``MAX_ROW_NAMES_SHARE``).
Thinned, a token axis names the first cell, every k-th after it and the last, and,
while its cells are at least ``MIN_MARK_PITCH_PX`` apart, marks each cell it leaves
unnamed with a short tick (``AxisPlan.unnamed``). An index axis names every k-th and
has no marks: it stays a ruler (0 4 8 … 28). Narrower cells get no marks: four a
pixel (1024 cells in 250) drew a solid bar, and one line per cell cost a redraw of
the 16 axes 86 ms at n = 1024 and over a second at n = 4096.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF

from qkv_desktop.presentation.numbers import LEGIBLE_PX

__all__ = ["AxisPlan", "plan_axis", "SMALL_TICK_PX", "MAX_LABEL_CHARS", "MIN_ABBREVIATED",
           "MAX_ROTATED_CHARS", "MAX_TURNED_SHARE", "MAX_ROW_NAMES_SHARE", "MIN_MARK_PITCH_PX"]

SMALL_TICK_PX = 9
"""The label size a crowded axis falls back to before it cuts or leaves out names."""
SMALLEST_ROW_PX = LEGIBLE_PX
"""Rows can be named in the smallest legible font before any is left out (a cut name
does not shorten a row, and rows cannot be turned)."""
MAX_LABEL_CHARS = 12
"""Longer token names are always shortened with "…" on the axes."""
MIN_ABBREVIATED = 3
"""A cut name keeps at least this many letters before its "…": shorter ("[C…", "ch…")
it no longer reads as the token, and the names are turned upright instead."""
MAX_ROTATED_CHARS = 10
"""Turned names are cut to this many characters, so the axis stays short."""
MAX_TURNED_SHARE = 1 / 3
"""The most of a plot's height an axis of turned names takes (its names cut shorter to
stay within it, ``plan_axis``'s ``depth_px``). Cut only to ten letters, one long token
name (supercalifragilisticexpialidocious_token) turned took 59 px of the QKᵀ/√d_k
plot's 106 at 1024×700: its 4×4 heatmap a 27 px strip, two of its four rows named, its
values hidden, while the weights pane beside it cut the name to "sup…" (a first-time
user)."""
MAX_ROW_NAMES_SHARE = 1 / 4
"""The most of a plot's width its row names take (cut shorter to stay within it). The
same name's row, "supercalifr…", took 85 of those panes' 273 px: their columns too
narrow for "sup…" side by side, or for their values."""
GAP_PX = 6
"""Pixels between names side by side."""
ROW_GAP_PX = 2
"""Pixels between stacked names (rows, or turned names): a line's leading already parts them."""
MIN_MARK_PITCH_PX = 3.0
"""Unnamed cells are marked only when cells are at least this many pixels apart: closer,
the marks merge into a bar and show no cell."""


@dataclass(frozen=True)
class AxisPlan:
    font: QFont
    ticks: list[tuple[float, str]]  # (position, label) at cell centres
    note: str  # the axis tool tip: empty when every name is shown whole
    rotated: bool = False  # names turned upright (bottom axis only)
    unnamed: tuple[float, ...] = ()
    """Cell centres left without a name (every k-th shown): the axis marks each, so
    the names read as those of the cells they stand at, not of a block of cells."""


_WIDTHS: dict[tuple[str, str], int] = {}
"""Label widths by (font, text): the panes of a session share their token names."""
MAX_WIDTHS = 1 << 16


def _width(metrics: QFontMetrics, font_key: str, text: str) -> int:
    key = (font_key, text)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) >= MAX_WIDTHS:  # the names of sessions long gone
            _WIDTHS.clear()
        width = _WIDTHS[key] = metrics.horizontalAdvance(text)
    return width


_HEIGHTS: dict[tuple[str, str], float] = {}
"""Line heights by (font, text), as ``labels_inside`` measures the glyphs it keeps apart."""


def _line_height(metrics: QFontMetricsF, font_key: str, names) -> float:
    """The tallest line of ``names``: a CJK name's line comes from a fallback font,
    taller than the font's own (``QFontMetrics.height``). Planned at the font's own
    height, 人工 at 6-7 rows overlapped its neighbours, which were then left out with
    no mark (found by a first-time user)."""
    tallest = metrics.height()
    for text in set(names):
        key = (font_key, text)
        height = _HEIGHTS.get(key)
        if height is None:
            if len(_HEIGHTS) >= MAX_WIDTHS:
                _HEIGHTS.clear()
            height = _HEIGHTS[key] = metrics.boundingRect(
                QRectF(0, 0, 1000, 1000), int(Qt.AlignmentFlag.AlignCenter), text).height()
        tallest = max(tallest, height)
    return tallest


def _cut(name: str, chars: int) -> str:
    return name if len(name) <= chars else name[:chars] + "…"


def plan_axis(labels: list[str], room: float, vertical: bool,
              depth_px: float | None = None) -> AxisPlan:
    """The font and ticks for ``labels`` (one per cell) along ``room`` pixels.

    ``depth_px``: the farthest a name may reach away from the cells (None: no bound but
    ``MAX_LABEL_CHARS`` and ``MAX_ROTATED_CHARS``): a row name's width, a turned column
    name's length. Longer names are cut (to ``MIN_ABBREVIATED`` letters at most); column
    names that would need a shorter cut are not turned."""
    normal, small, smallest = QFont(), QFont(), QFont()
    small.setPixelSize(SMALL_TICK_PX)
    smallest.setPixelSize(SMALLEST_ROW_PX)
    fonts = (normal, small, smallest) if vertical else (normal, small)
    names = [_cut(x, MAX_LABEL_CHARS - 1) for x in labels]
    per_cell = room / max(len(labels), 1)

    def need(font: QFont, shown: list[str], stacked: bool = vertical,
             pitch: float = per_cell) -> int:
        if stacked:
            own = QFontMetrics(font).height() + ROW_GAP_PX
            if own > pitch:  # does not fit whatever the names: none measured (n = 8192)
                return own
            # a line's box (leading included) is what must not overlap the next
            return max(own, math.ceil(_line_height(QFontMetricsF(font), font.key(), shown)))
        metrics, key = QFontMetrics(font), font.key()
        return max((_width(metrics, key, x) for x in set(shown)), default=0) + GAP_PX

    shown, font, rotated = names, normal, False
    # Narrower cells than the gap between two names (8192 tokens in 300 pixels): no
    # font, cut or turn fits, and measuring every name for each would take seconds.
    hopeless = not vertical and per_cell < GAP_PX
    for font in fonts:
        if not hopeless and need(font, names) <= per_cell:
            break
    else:
        font = fonts[-1]
        if not vertical and not hopeless:
            shown = _shortened(names, per_cell, lambda cut, f=font: need(f, cut))
            least = [_cut(x, MIN_ABBREVIATED) for x in names]  # the narrowest cut
            # where only a cut that merges names would fit, they are thinned whole, in
            # the axis's height a cut would have taken (not turned: turned, the heads'
            # concatenation took a pane's rows from X beside it at 1366 × 768)
            merging = shown is None and need(font, least) <= per_cell
            if shown is None and not merging and need(font, names, stacked=True) <= per_cell:
                shown = _within(names, font, depth_px, MAX_ROTATED_CHARS - 1, distinct=True)
                rotated = shown is not None
            # thinned, the names are cut too: a long name whole took the room of three
            # cells, and only it was named ("超级长的词元名字…" alone over 3 columns,
            # 人工 and 智能 left out, while the weights beside it read "超级长…"; a first
            # user)
            shown = shown or (least if _distinct(least, names) else names)
    if vertical and depth_px is not None:
        shown = (_within(names, font, depth_px, MAX_LABEL_CHARS - 1)
                 or [_cut(x, MIN_ABBREVIATED) for x in names])
    if rotated:
        step = 1
    else:
        step = max(1, -(-len(shown) * need(font, shown) // max(int(room), 1)))
    # an index axis reads as a ruler (0 4 8 … 28) in round steps; a token axis ends on
    # its last token
    index = all(x.isdigit() for x in labels)
    if index:
        step = ruler_step(step)
    named = _every_kth(len(shown), step, last=not index)
    # (an axis laid out 0 px high for a moment, while the grid moves panes, has no cell
    # pitch to thin by: a ZeroDivisionError in Qt's event loop, seen in a full test run)
    # thinned by the font's own line: the names kept may be taller
    while vertical and step > 1 and per_cell > 0:
        tallest = need(font, [shown[k] for k in named], pitch=step * per_cell)
        # an end's name moves inside the axis by what it stands past it (``labels_inside``)
        room = tallest + max(0.0, (tallest - per_cell) / 2)
        if room <= step * per_cell:
            break
        step = math.ceil(room / per_cell)
        if index:
            step = ruler_step(step)
        named = _every_kth(len(shown), step, last=not index)
    ticks = [(k + 0.5, shown[k]) for k in named]
    unnamed: tuple[float, ...] = ()
    if step > 1 and not index and per_cell >= MIN_MARK_PITCH_PX:
        # at most room / MIN_MARK_PITCH_PX cells
        keep = set(named)
        unnamed = tuple(k + 0.5 for k in range(len(shown)) if k not in keep)
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
    return AxisPlan(font, ticks, note, rotated, unnamed)


def ruler_step(step: int) -> int:
    """The least round step (1, 2, 4, 5, then 1, 2, 5 × 10ᵏ) of at least ``step``:
    columns of d_k = 1024 were named "0 145 290 … 1015" in one pane and "0 154 … 924"
    in the next (a first user); now "0 200 400 … 1000" in both."""
    if step <= 5:
        return {3: 4}.get(step, step)
    scale = 10 ** (len(str(step)) - 1)
    return next(r * scale for r in (1, 2, 5, 10) if r * scale >= step)


def _every_kth(count: int, step: int, last: bool = True) -> list[int]:
    """The cells named when only one in ``step`` fits: the first, every ``step``-th
    after it, and with ``last`` the last (the [SEP] of a sentence), which takes the
    place of a k-th name closer to it than ``step``. No two names are closer than
    ``step`` cells: when only the first fits, the last is left out."""
    named = list(range(0, count, step))
    if last and count and named[-1] != count - 1:
        if count - 1 - named[-1] < step:
            if len(named) == 1:
                return named  # only the first fits
            named.pop()  # the k-th before it is then ``step`` or more away
        named.append(count - 1)
    return named


def _within(names: list[str], font: QFont, px: float | None, chars: int,
            distinct: bool = False) -> list[str] | None:
    """The names cut to ``chars`` letters, and further (to ``MIN_ABBREVIATED`` at most)
    while the longest is wider than ``px`` in ``font`` (None: no bound); None if it
    still is, or (with ``distinct``) once a cut makes two names one (``_distinct``)."""
    metrics, key = QFontMetrics(font), font.key()
    longest = max((len(x) for x in names), default=0)
    for most in range(max(min(chars, longest), MIN_ABBREVIATED), MIN_ABBREVIATED - 1, -1):
        cut = [_cut(x, most) for x in names]
        if distinct and not _distinct(cut, names):
            return None
        if px is None or max(_width(metrics, key, x) for x in set(cut)) <= px:
            return cut
    return None


def _shortened(names: list[str], per_cell: float, need) -> list[str] | None:
    """The names cut as little as fits ``per_cell`` (to ``MIN_ABBREVIATED`` letters at
    most), else None. A cut that makes two names one (``_distinct``) is no answer."""
    longest = max((len(x) for x in names), default=0)
    for chars in range(longest - 1, MIN_ABBREVIATED - 1, -1):
        cut = [_cut(x, chars) for x in names]
        if not _distinct(cut, names):
            return None  # (a shorter cut only merges more)
        if need(cut) <= per_cell:
            return cut
    return None


def _distinct(cut: list[str], names: list[str]) -> bool:
    """Whether ``cut`` tells apart the names that differ: the concatenation's columns
    h1·d0 … h1·d3 cut to "h1·…" read as one column four times (a first user); thinned,
    they keep their names."""
    return len(set(cut)) == len(set(names))
