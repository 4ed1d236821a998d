"""The one rule for a number shown in a cell, and the font its labels fit in.

The tutorial prints four decimals, and its lessons compare values that differ only in
the fourth (tutorial-1's weights 0.2480, 0.2509, 0.2499, 0.2512). So every cell value
the app shows, in a pane, a dock, a thumbnail, the status bar, the explain panel or an
exported figure, keeps four decimals at any magnitude below 10⁴; from there on it is
four significant digits in scientific form (``−4.180e+05``), which is as wide as a
four-decimal number of that size and still tells the magnitude at a glance. A view
that lacks room shrinks the font (down to ``LEGIBLE_PX``) and only then hides the
values; it never drops digits, since two values that differ in the fourth decimal
must never read the same.

Minus signs are typographic (U+2212): wider than a hyphen, so a negative value does
not read like a positive one next to an axis tick, and the same in every view.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np
from PySide6.QtGui import QFont, QFontMetricsF

__all__ = ["DECIMALS", "SCIENTIFIC_FROM", "MINUS", "LEGIBLE_PX", "LABEL_PAD",
           "MOST_DECIMALS", "format_value", "format_nonzero", "format_values", "format_boolean",
           "format_percent",
           "format_setting", "format_rope_base", "rounding_of",
           "fit_value_font", "with_minus",
           "any_value_may_fit", "decimals_that_add_up", "label_widths", "longest_labels"]

DECIMALS = 4
"""Digits after the point, as the tutorial prints them."""
SCIENTIFIC_FROM = 1e4
"""Magnitudes from here on (after rounding) are written as 4 significant digits."""
MINUS = "\u2212"
LEGIBLE_PX = 8
"""The smallest value font (pixels) any view uses; below it values are hidden."""
MOST_DECIMALS = 8
"""The most decimals a worked sum shows so that its rounded terms add up (float64 keeps
about 16 significant digits; a teaching example needs far fewer)."""
LABEL_PAD = 4.0
"""Horizontal room (pixels or points) a label leaves inside its cell, both sides together."""


def format_value(value: float) -> str:
    """``value`` by the one rule: ``0.2480``, ``−0.2180``, ``−4.180e+05``, ``NaN``, ``∞``.

    A value that rounds to zero is ``0.0000`` without a sign.
    """
    v = float(value)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "∞" if v > 0 else MINUS + "∞"
    text = f"{v:.{DECIMALS}f}"
    if abs(float(text)) >= SCIENTIFIC_FROM:
        text = f"{v:.{DECIMALS - 1}e}"
    elif float(text) == 0:
        return f"{0:.{DECIMALS}f}"
    return text.replace("-", MINUS)


def format_nonzero(value: float) -> str:
    """``format_value``, except that a value that is not 0 but rounds to ``0.0000`` keeps
    four significant digits in scientific form (``3.142e−05``, ``−1.000e−17``).

    For a measure whose size is the lesson, a gradient norm or a loss: the gradient lab
    read "‖∂L/∂W_Q‖ = 0.0000" beside a log plot of 3e−5, as if the gradient had
    vanished. An exact 0 still reads ``0.0000``."""
    text = format_value(value)
    v = float(value)
    if v != 0 and text == f"{0:.{DECIMALS}f}":
        return with_minus(f"{v:.{DECIMALS - 1}e}")
    return text


def format_percent(fraction: float, decimals: int = 1, most: int = 4,
                   exact_within: float = 0.0, significant: int = 0,
                   toward: str | None = None) -> str:
    """``fraction`` as a percentage that never reads as a bound it is not.

    ``f"{x:.1%}"`` writes an entropy at 99.997 % of log n as ``100.0%``, which a learner
    reads as "perfectly uniform", and a first token holding 0.2 % of a row's weight as
    ``0%``. Here a value that is not exactly 0 or ±1 gets more decimals (up to ``most``)
    until it stops reading as 0 % or 100 %, and beyond them reads as a true inequality
    (``< 0.0001%``, ``> 99.9999%``, ``< 100.0001%``). A value within ``exact_within`` of
    0 or ±1 is that bound: a measure computed in floating point (an exactly uniform
    row's H / log n is 1.0000000186 in float32) must not read as "not quite".
    ``NaN`` and ``∞`` read as in ``format_value``.

    ``significant``: at least that many significant digits (more decimals, up to
    ``most``): with 0 decimals a row's 0.51 % read ``1%``, twice itself. ``toward``
    (``"down"`` or ``"up"``, towards −∞ or +∞) rounds one way instead of to the nearest,
    for a value a sentence states as a bound: "least 0.51%" of a row at 0.5149 %, "most
    50%" of one at 49.01 % (to the nearest, "most 49%" was below it). The rounding is
    of the value as Python writes it (``repr``), so 0.0057 reads 0.57 % either way.
    """
    x = float(fraction)
    if not math.isfinite(x):
        return format_value(x)
    for bound in (0.0, 1.0, -1.0):
        if abs(x - bound) <= exact_within:
            x = bound
    sign, a = (MINUS if x < 0 else ""), abs(x)
    most = max(decimals, most)
    start = decimals
    if significant and 0 < a:
        start = max(decimals, min(most, significant - 1 - math.floor(math.log10(a * 100))))
    if toward not in (None, "down", "up"):
        raise ValueError(f'toward must be None, "down" or "up", got {toward!r}')
    # the magnitude's rounding: up for x is towards 0 for a negative x
    ceiling = (toward == "up") != (x < 0)
    for d in range(start, most + 1):
        if toward is None:
            text = f"{a * 100:.{d}f}"
        else:
            text = format((Decimal(repr(a)) * 100).quantize(  # "f": never "1E-8"
                Decimal(1).scaleb(-d), rounding=ROUND_CEILING if ceiling else ROUND_FLOOR), "f")
        if a in (0.0, 1.0) or float(text) not in (0.0, 100.0):
            return sign + text + "%"
    step = 10.0 ** -most
    if float(text) == 0.0:  # a tiny value: between 0 and ± one step
        return f"> {MINUS}{step:.{most}f}%" if x < 0 else f"< {step:.{most}f}%"
    if a < 1:  # just inside ±100 %
        return f"< {MINUS}{100 - step:.{most}f}%" if x < 0 else f"> {100 - step:.{most}f}%"
    return f"> {MINUS}{100 + step:.{most}f}%" if x < 0 else f"< {100 + step:.{most}f}%"


def rounding_of(dtype) -> float:
    """How far a measure computed in ``dtype`` from a few sums and logs (H / log n, a
    row's weight sum) may stray from an exact 0 or 1 by rounding alone: 16 units of
    the dtype's last place. An exactly uniform row's H / log n is 1.0000000186 in
    float32; ``format_percent(..., exact_within=rounding_of(dtype))`` reads it 100 %."""
    return 16 * float(np.finfo(dtype).eps)


def format_setting(value: float) -> str:
    """A setting (the temperature T, a divisor) as it is used: ``2.65``, ``2.6451``,
    ``1``, ``1e-05``. Six significant digits, no trailing zeros: a setting typed or
    saved with more digits shows them, and a tiny one never reads 0 (decimals would
    show T = 1e-5 as "T(0)")."""
    text = f"{float(value):.6g}"
    return with_minus(text) if text.startswith("-") else text


def format_rope_base(value: float) -> str:
    """A RoPE base as the papers write it, ``10000`` or ``1000000``, never ``1e+06``
    (``{:g}`` wrote Llama 3's base so: a code review); a base that is not whole keeps
    its decimals (``1234.5``, the RoPE lab's slider's ``1.02``)."""
    return np.format_float_positional(float(value), trim="-")


def format_boolean(value: float) -> str:
    """A value of a boolean matrix (``MatrixSpec.boolean``: the mask) as ``1`` or ``0``.

    Its values are a yes or no, not measurements: four decimals ("1.0000") made them
    read like a weight that happened to round to 1. The one exception to the rule,
    kept here beside it so every view and figure writes such a matrix alike.
    """
    return "0" if value == 0 else "1"


def with_minus(text: str) -> str:
    """``text`` (a number as Python or a library writes it) with typographic minus
    signs: the one place every number the app writes outside ``format_value`` gets
    its minus (colour-bar ticks, typed scores, worked sums, figure ticks)."""
    return text.replace("-", MINUS)


def decimals_that_add_up(terms: Iterable[float], total: float) -> int:
    """The fewest decimals, from ``DECIMALS`` up to ``MOST_DECIMALS``, at which ``terms``
    as written add up to ``total`` as written.

    A reader checks a worked sum with the digits on the screen: exp(0.0005 − 0.0065)
    must not read exp(−0.0061) (the true difference, −0.00606, rounds so), which at five
    decimals is exp(0.00049 − 0.00655) = exp(−0.00606). Numbers from ``SCIENTIFIC_FROM``
    on, or not finite, keep the rule's own form (``DECIMALS``).
    """
    values = [float(t) for t in terms] + [float(total)]
    if not all(math.isfinite(v) and abs(v) < SCIENTIFIC_FROM for v in values):
        return DECIMALS
    *parts, whole = values
    for d in range(DECIMALS, MOST_DECIMALS + 1):
        if sum(Decimal(f"{t:.{d}f}") for t in parts) == Decimal(f"{whole:.{d}f}"):
            return d
    return MOST_DECIMALS


_PLAIN_BELOW = 9999.9
"""Below this magnitude a finite value is never written in scientific form: its four
decimals round to less than ``SCIENTIFIC_FROM``."""


def format_values(data: np.ndarray, boolean: bool = False) -> list[list[str]]:
    """Every cell of a 2-D ``data`` by ``format_value``, row by row (by
    ``format_boolean`` for a ``boolean`` matrix, the mask).

    A pane formats its matrix on every edit. The common value (finite, below 10⁴) takes
    the rule's short path here, its four decimals and its minus sign, without the
    checks ``format_value`` makes for every value (NaN, ∞, rounding up to scientific
    form); the others go through ``format_value`` itself.
    """
    if boolean:
        return [[format_boolean(v) for v in row] for row in np.asarray(data).tolist()]
    return [[_short(v) if -_PLAIN_BELOW < v < _PLAIN_BELOW else format_value(v)
             for v in row] for row in np.asarray(data).tolist()]


def _short(v: float) -> str:
    """``format_value(v)`` for a finite ``v`` below ``_PLAIN_BELOW`` in magnitude."""
    text = f"{v:.{DECIMALS}f}"
    if text[0] == "-":
        return _ZERO if text == _NEGATIVE_ZERO else MINUS + text[1:]
    return text


_ZERO = f"{0:.{DECIMALS}f}"
_NEGATIVE_ZERO = "-" + _ZERO


def fit_value_font(texts: Iterable[str], cell_w: float, cell_h: float, base: QFont,
                   largest_px: int, smallest_px: int = LEGIBLE_PX,
                   signed: bool = False) -> QFont | None:
    """The largest font (``largest_px`` down to ``smallest_px``, then the same sizes
    condensed) in which every text of ``texts``, measured at its real width, fits a
    ``cell_w`` × ``cell_h`` cell with ``LABEL_PAD`` to spare; ``None`` if none does
    (the view then hides the values and says so).

    Centred in their cells, labels that fit can touch neither each other nor anything
    outside the cell block. The condensed face comes before hiding because a narrow
    pane (four keys at 1366×768) has room for four decimals only in it.

    ``signed``: the matrix may hold negative values (``values_may_be_negative``), so
    every label is measured with room for a minus sign, as if it had one, where some
    font fits so. A learner's first negative value then never hides values that fitted
    a moment ago: "−0.5000" is a fifth wider than "0.8000", and with the room it fitted
    at the smallest font, X's 32 values vanished at once (1366×768, tutorial-1,
    X[0, 0] = −0.5). Where no font fits with that room, the labels as they are decide:
    values that fit are shown (the room hid X's positive values in panes they fitted,
    two heads with W_O at 1400×900), and a negative one typed later may hide them.
    """
    texts = set(texts)
    plain_fit = None  # the largest font the labels fit without the room, if needed
    for font, fm, height, key in _candidate_fonts(base, largest_px, smallest_px):
        if height > cell_h:
            continue
        widths = _widths_for(key)
        widest = unsigned = 0.0
        for t in texts:
            w = widths.get(t)
            if w is None:
                w = widths[t] = fm.horizontalAdvance(t)
            if signed and not t.startswith(MINUS):
                unsigned = max(unsigned, w)
            else:
                widest = max(widest, w)
        if widest + LABEL_PAD > cell_w:
            continue  # fits neither way (a label's own width is always measured)
        if unsigned and unsigned + _minus_width(widths, fm) + LABEL_PAD > cell_w:
            if plain_fit is None and unsigned + LABEL_PAD <= cell_w:
                plain_fit = font
            continue
        return font
    return plain_fit


def longest_labels(texts: Iterable[str], count: int, signed: bool = False) -> list[str]:
    """The texts among which ``fit_value_font`` finds its widest label, either way it
    measures: the ``count`` longest with a minus sign's room reserved (``signed``) and
    the ``count`` longest as they are (the widest labels are among the longest)."""
    texts = set(texts)
    longest = set(heapq.nlargest(count, texts, key=len))
    if signed:
        longest.update(heapq.nlargest(
            count, texts, key=lambda t: len(t) + (not t.startswith(MINUS))))
    return sorted(longest)


def _minus_width(widths: dict[str, float], fm: QFontMetricsF) -> float:
    """The advance a minus sign adds before a label in this font (measured once)."""
    w = widths.get(MINUS)
    if w is None:
        w = widths[MINUS] = fm.horizontalAdvance(MINUS + "0") - fm.horizontalAdvance("0")
    return w


def any_value_may_fit(cell_w: float, cell_h: float, base: QFont, largest_px: int,
                      smallest_px: int = LEGIBLE_PX) -> bool:
    """Whether some font of ``fit_value_font`` could hold a value in the cell at all.

    Every finite value has at least five digits and a point ("0.0000"), so a cell
    narrower than five of the narrowest digit and a point (or lower than the font)
    holds none: the view can hide 4096 values without formatting one of them.
    """
    for _font, fm, height, key in _candidate_fonts(base, largest_px, smallest_px):
        if height > cell_h:
            continue
        widths = _widths_for(key)
        least = widths.get("")  # no label is narrower than this
        if least is None:
            narrowest = min(fm.horizontalAdvance(d) for d in "0123456789")
            least = widths[""] = 5 * narrowest + fm.horizontalAdvance(".")
        if least + LABEL_PAD <= cell_w:
            return True
    return False


_CANDIDATES: dict[tuple[str, int, int], list[tuple[QFont, QFontMetricsF, float, str]]] = {}
"""The candidate fonts by (base font, largest, smallest pixel size)."""


def _candidate_fonts(base: QFont, largest_px: int, smallest_px: int):
    """The fonts ``fit_value_font`` tries, in order, with their metrics, heights and
    keys: made once per base font and sizes, not for every pane on every edit (issue
    20). The fonts returned are shared: callers keep them as they are."""
    key = (base.key(), int(largest_px), int(smallest_px))
    fonts = _CANDIDATES.get(key)
    if fonts is None:
        fonts = _CANDIDATES[key] = []
        for stretch in (QFont.Stretch.Unstretched, QFont.Stretch.Condensed):
            for px in range(int(largest_px), int(smallest_px) - 1, -1):
                font = QFont(base)
                font.setPixelSize(px)
                font.setStretch(stretch)
                fm = QFontMetricsF(font)
                fonts.append((font, fm, fm.height(), font.key()))
    return fonts


_WIDTHS: dict[str, dict[str, float]] = {}
"""Measured label widths per font (``QFont.key()``): an edit changes a few values, and
re-measuring all of a pane's labels in every candidate font was most of a repaint."""
_MAX_WIDTHS = 50_000


def label_widths(font: QFont) -> dict[str, float]:
    """The widths of value texts already measured in ``font`` (by ``fit_value_font``),
    by text: a view places its labels with the widths their font was chosen by,
    instead of measuring or laying out every new value a second time."""
    return _widths_for(font.key())


def _widths_for(key: str) -> dict[str, float]:
    widths = _WIDTHS.get(key)
    if widths is None or len(widths) > _MAX_WIDTHS:
        widths = _WIDTHS[key] = {}
    return widths
