"""Which keys each query may see, why, and the ALiBi bias added to its scores.

A mask answers, for every (query i, key j) cell of the score matrix, "may i attend to
j?". Models combine a few rules, and a learner needs to know which rule hid a cell:

* ``causal``: a query sees no later key (j ≤ i);
* ``prefix=p`` (prefix-LM, as in T5 and UniLM): the first p tokens see each other in
  both directions, the rest causally; it implies the causal order for the rest;
* ``window=w`` (sliding-window attention, Longformer, Mistral): with the causal order a
  query sees the w most recent keys (i − w < j ≤ i), without it the keys |i − j| < w;
* ``sinks=s`` (attention sinks, StreamingLLM): the first s keys stay visible whatever
  the window (never past the causal order);
* ``custom``: a boolean n × m array, True = allowed, combined with the rest by AND.

ALiBi (Press et al., 2022) needs no mask of its own: it adds −m·|i − j| to the scaled
scores, so distant keys weigh less; ``alibi_slopes`` gives the paper's slope per head.

Everything here works on a block of rows at a time (``MaskSpec.rows``, ``alibi_rows``)
so that ``attention`` can build the mask inside its cache-sized softmax blocks instead
of allocating n × m arrays it does not keep.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["MaskSpec", "EmptyRowError", "alibi_slopes", "alibi_bias", "alibi_rows",
           "REASONS", "ALLOWED", "PREFIX", "SINK", "CAUSAL", "WINDOW", "CUSTOM"]

ALLOWED, PREFIX, SINK, CAUSAL, WINDOW, CUSTOM = range(6)
REASONS = ("allowed", "prefix", "sink", "causal", "window", "custom")
"""What ``MaskSpec.reasons`` codes mean: allowed (by the ordinary rules), allowed as part
of the prefix, allowed as a sink, or masked as a future key, outside the window or by
the custom mask. Codes below ``CAUSAL`` are allowed cells."""


class EmptyRowError(ValueError):
    """A query row whose every key is masked: its softmax would be 0/0 (NaN).

    ``row`` is the 0-based query index, so a caller can name its token.
    """

    def __init__(self, row: int, m: int):
        self.row = int(row)
        super().__init__(f"query row {row} has no key left to attend to: the mask hides all "
                         f"{m} keys, and a softmax over nothing is undefined")


def _count(v, name: str, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum:
        what = "a positive" if minimum == 1 else "a non-negative"
        raise ValueError(f"{name} must be {what} integer, got {v!r}")
    return int(v)


@dataclass(frozen=True, eq=False)
class MaskSpec:
    """The mask rules of one attention call (see the module notes)."""

    causal: bool = False
    window: int | None = None
    prefix: int | None = None
    sinks: int = 0
    custom: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.window is not None:
            object.__setattr__(self, "window", _count(self.window, "window", 1))
        if self.prefix is not None:
            object.__setattr__(self, "prefix", _count(self.prefix, "prefix", 0))
        object.__setattr__(self, "sinks", _count(self.sinks, "sinks", 0))
        if self.custom is not None:
            c = np.asarray(self.custom)
            if c.ndim != 2 or c.dtype != np.bool_:
                raise ValueError(f"mask must be a 2-D boolean array (True = allowed), got "
                                 f"{c.dtype} of shape {c.shape}")
            object.__setattr__(self, "custom", c)

    @property
    def ordered(self) -> bool:
        """Whether later keys are hidden (causal, or the causal part of a prefix-LM)."""
        return bool(self.causal) or self.prefix is not None

    @property
    def restricts(self) -> bool:
        """Whether any cell can be masked at all (sinks alone hide nothing)."""
        return self.ordered or self.window is not None or self.custom is not None

    def check_shape(self, n: int, m: int) -> None:
        if self.custom is not None and self.custom.shape != (n, m):
            raise ValueError(f"the mask is {self.custom.shape[0]} × {self.custom.shape[1]} but "
                             f"the scores are {n} × {m}")

    def _rules(self, r0: int, r1: int, m: int):
        """(future, outside, custom_hidden, in_prefix, sink_saved) for rows r0…r1−1.

        Any of them may be ``None`` (no cell of that kind)."""
        i = np.arange(r0, r1)[:, None]
        j = np.arange(m)[None, :]
        future = in_prefix = outside = saved = None
        if self.ordered:
            future = j > i
            if self.prefix:
                in_prefix = future & (j < self.prefix)
                future = future & ~in_prefix
        if self.window is not None:  # i − j ≥ w (and j − i ≥ w without the order)
            w = self.window
            outside = j <= i - w
            if not self.ordered:
                outside |= j >= i + w
            if self.sinks:
                saved = outside & (j < self.sinks)
                outside = outside & ~saved
        hidden = None if self.custom is None else ~self.custom[r0:r1]
        return future, outside, hidden, in_prefix, saved

    def hidden_rows(self, r0: int, r1: int, m: int) -> np.ndarray:
        """The masked cells (True) of query rows r0…r1−1 over m keys."""
        out = np.zeros((r1 - r0, m), dtype=bool)
        for hidden in self._rules(r0, r1, m)[:3]:
            if hidden is not None:
                out |= hidden
        return out

    def rows(self, r0: int, r1: int, m: int) -> np.ndarray:
        """The allowed cells (True) of query rows r0…r1−1 over m keys."""
        return ~self.hidden_rows(r0, r1, m)

    def may_empty_a_row(self, n: int, m: int) -> bool:
        """Whether some query row could be left with no key (else no check is needed).

        The causal order (self-attention) always leaves a query its own key, and so does
        a window; only a custom mask, or a window with no sink that a query of a longer
        query sequence lies wholly past (i ≥ m + w − 1, cross-attention), can empty one.
        """
        if self.custom is not None or m == 0:
            return True
        if self.ordered:
            return n > m
        return self.window is not None and not self.sinks and n >= m + self.window

    def allowed(self, n: int, m: int) -> np.ndarray:
        """The whole n × m allowed mask (True = the query may attend to the key)."""
        self.check_shape(n, m)
        return self.rows(0, n, m)

    def reasons(self, n: int, m: int) -> np.ndarray:
        """n × m codes (``REASONS``): why each cell is allowed or masked.

        A masked cell names the first rule that hid it, in the order causal, window,
        custom; an allowed cell says whether the prefix or a sink let it through.
        """
        self.check_shape(n, m)
        future, outside, hidden, in_prefix, saved = self._rules(0, n, m)
        codes = np.full((n, m), ALLOWED, dtype=np.int8)
        for where, code in ((saved, SINK), (in_prefix, PREFIX), (hidden, CUSTOM),
                            (outside, WINDOW), (future, CAUSAL)):
            if where is not None:
                codes[np.broadcast_to(where, (n, m))] = code
        return codes

    def first_empty_row(self, n: int, m: int) -> int | None:
        """The first query row with no allowed key, or ``None``."""
        if not self.may_empty_a_row(n, m):
            return None
        step = max(1, (1 << 22) // max(m, 1))
        for a in range(0, n, step):
            ok = self.rows(a, min(n, a + step), m).any(axis=1)
            if not ok.all():
                return a + int(np.argmin(ok))
        return None


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The ALiBi paper's slope of each head (float64), in the paper's order.

    For h a power of two the slopes are the geometric sequence 2^(−8i/h), i = 1 … h. For
    other h the paper's reference code takes the slopes of the next lower power of two
    and then every other slope of the next higher one, until there are h — so the
    order is largest first only for powers of two (6 heads: 2⁻², 2⁻⁴, 2⁻⁶, 2⁻⁸, 2⁻¹, 2⁻³).
    """
    h = _count(n_heads, "the number of heads", 1)

    def power_of_two(k: int) -> list[float]:
        return [2.0 ** (-8.0 * i / k) for i in range(1, k + 1)]

    if h & (h - 1) == 0:
        return np.array(power_of_two(h))
    lower = 2 ** int(math.floor(math.log2(h)))
    return np.array(power_of_two(lower) + power_of_two(2 * lower)[0::2][: h - lower])


def alibi_rows(r0: int, r1: int, m: int, slope: float, dtype=np.float64) -> np.ndarray:
    """The ALiBi bias −slope·|i − j| of query rows r0…r1−1 over m keys, in ``dtype``."""
    dtype = np.dtype(dtype)
    dist = np.abs(np.subtract.outer(np.arange(r0, r1, dtype=dtype), np.arange(m, dtype=dtype)))
    np.multiply(dist, dtype.type(slope), out=dist)
    return np.subtract(dtype.type(0), dist, out=dist)  # 0 − 0 is +0: no "−0.0000" cells


def alibi_bias(n: int, m: int, slope: float) -> np.ndarray:
    """The n × m ALiBi bias −slope·|i − j| (float64): 0 on the diagonal, more negative
    the further the key is from the query. With the causal mask only j ≤ i is used,
    where it is the paper's −slope·(i − j)."""
    return alibi_rows(0, n, m, slope)
