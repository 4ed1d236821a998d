"""The complete, immutable description of what the user is looking at.

A ``SessionState`` is pure data (no Qt): the model holds one, undo commands swap
them, sessions serialise them and ``render`` computes from them. Arrays inside are
made read-only so that a state can be shared safely between commands and threads.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field, fields, replace

import numpy as np

from qkv_desktop.core import (
    ROPE_PAIRINGS,
    MaskSpec,
    Weights,
    alibi_slopes,
    get_preset,
    init_multihead_weights,
)
from qkv_desktop.core.attention import divisor_for
from qkv_desktop.core.weights import WEIGHT_NAMES
from qkv_desktop.state.cow_matrix import made_from
from qkv_desktop.state.provenance import Provenance
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, EditError, Listed, Text

__all__ = ["Options", "SessionState", "MAX_CELLS", "MAX_TOKENS", "MAX_CELLS_FLOAT32",
           "MAX_TOKENS_FLOAT32", "MAX_HEADS", "MAX_TOKEN_LENGTH",
           "OPTION_KEYS", "OPTION_NAMES", "DTYPES", "POSITIONS", "check_size",
           "check_token_names", "frozen_array",
           "head_dim_for", "option_field", "options_to_json"]

MAX_CELLS = 4096 * 4096
"""Largest matrix the app accepts, counted as n·m·heads for the attention matrices of a
float64 session (and as cells for every other matrix of any session).

The n×m matrices dominate memory: a result holds scores, scaled and weights in
float64 (measured: about 24 bytes per n·m·heads cell), the previous result stays
alive while the next one is computed, and the panes keep images of them. At 16.8M
cells (one head over 4,096 tokens) that peaks near 1.5 GB, which a typical 8 GB
laptop can spare; at the former 50M it was several GB. The same bound applies to
every other matrix (X, Q/K/V of all heads, the weights), so no single array of a
session exceeds 128 MB. Bigger inputs are refused before anything is allocated.
"""

MAX_CELLS_FLOAT32 = 8192 * 8192
"""The attention cells (n·m·heads) of a float32 session: half the bytes per cell, so
four times ``MAX_CELLS`` fit in about the same memory as float64 at ``MAX_CELLS``
(measured: n = 8192, d_model = 768, float32, opened, edited and painted in the window,
peaks at 1.9 GB RSS; ``tests/benchmarks/bench_process.py memory``). That is the
length real decoder models read. The other matrices keep ``MAX_CELLS``."""

MAX_TOKENS = math.isqrt(MAX_CELLS)
"""The longest sequence one float64 head can attend over (n × n ≤ ``MAX_CELLS``)."""

MAX_TOKENS_FLOAT32 = math.isqrt(MAX_CELLS_FLOAT32)
"""The longest sequence one float32 head can attend over."""

MAX_SEED = 2**32 - 1
"""The largest seed: NumPy's ``RandomState`` takes 0 … 2³² − 1 (session files, the seed box)."""

MAX_HEADS = 256
"""The most attention heads a session may have (the largest models use 128 or fewer).

Every head adds seven figures to a render and a thumbnail to the small multiples;
65,000 heads of d_k = 1 fit ``MAX_CELLS`` but took minutes and gigabytes to paint.
"""

MAX_TOKEN_LENGTH = 200
"""The longest token name, in characters. Labels are elided from the name; a
10 MB name made laying out one label take minutes."""

Scale = str | float


def frozen_array(a, dtype=np.float64) -> np.ndarray:
    """A read-only float copy of ``a`` (no copy if it already is one)."""
    arr = np.asarray(a, dtype=dtype)
    if arr.flags.writeable:
        arr = arr.copy()
        arr.flags.writeable = False
    return arr


def check_size(n: int, m: int, d_model: int, d_k: int, heads: int, kv: int = 0,
               dtype: str = "float64") -> None:
    """Raise ``EditError`` (a ``ValueError``) if a session of these dimensions would not
    fit in memory.

    ``n`` queries attend over ``m`` keys (m = n in self-attention) in ``heads`` heads;
    ``kv`` is the length of a stored key/value sequence; ``dtype`` the session's
    (float32 allows ``MAX_CELLS_FLOAT32`` attention cells). Python integers, so the
    products cannot overflow however large the request.
    """
    if heads > MAX_HEADS:
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "{0} heads are more than the {1} this app can show"), f"{heads:,}", MAX_HEADS)
    limit = MAX_CELLS_FLOAT32 if dtype == "float32" else MAX_CELLS
    if n * m * heads > limit:
        hint = (Text(QT_TRANSLATE_NOOP("Edits", "; in float32 up to {0} fit"),
                     (f"{MAX_CELLS_FLOAT32:,}",))
                if dtype != "float32" and n * m * heads <= MAX_CELLS_FLOAT32 else "")
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "{0} queries × {1} keys × {2} heads make {3} attention cells, more than "
                     "the {4} this app can hold in memory in {5}{6}"),
            f"{n:,}", f"{m:,}", heads, f"{n * m * heads:,}", f"{limit:,}", dtype, hint)
    biggest = max(max(n, kv) * d_model, d_model * d_k * heads, max(n, m) * d_k * heads)
    if biggest > MAX_CELLS:
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "{0} tokens with d_model = {1}, d_k = {2} and {3} heads make a matrix of "
                     "{4} cells, more than the {5} this app can hold in memory"),
            f"{max(n, kv):,}", f"{d_model:,}", f"{d_k:,}", heads, f"{biggest:,}",
            f"{MAX_CELLS:,}")


_VALID_NAMES: list[tuple[str, ...]] = []
"""The last tuples of names found valid. A tuple of strings cannot change, and every
edit of a value makes a new state with the same tuple: 8192 names were checked again
on the GUI thread at each edit."""


def check_token_names(tokens, what: str = "tokens") -> None:
    """``EditError`` for a token that is not a non-empty string of at most
    ``MAX_TOKEN_LENGTH`` characters; ``what`` names the list in the message."""
    if type(tokens) is tuple and any(tokens is valid for valid in _VALID_NAMES):
        return
    _check_names(tokens, what)
    if type(tokens) is tuple:
        _VALID_NAMES[:] = [tokens, *_VALID_NAMES[:3]]


def _check_names(tokens, what: str) -> None:
    for i, t in enumerate(tokens):
        if not isinstance(t, str) or not t:
            raise EditError(QT_TRANSLATE_NOOP("Edits", "{0}[{1}] must be a non-empty string"),
                            what, i)
        if len(t) > MAX_TOKEN_LENGTH:
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "{0}[{1}] has {2} characters; a token name can have at most {3}"),
                what, i, f"{len(t):,}", MAX_TOKEN_LENGTH)


def head_dim_for(d_model: int, n_heads: int, d_k: int) -> int:
    """The d_k to use with ``n_heads`` heads: the user's ``d_k`` while h·d_k still fits
    in d_model, else d_model / h when h divides d_model.

    Splitting the model width (h·d_k = d_model, the transformer convention) is what
    adding heads needs; going back to fewer heads needs no split, so it keeps the d_k
    the user had (tutorial-1's d_k = 4 survives h = 2 → 1). When h does not divide
    d_model there is no split either, and ``d_k`` is kept.
    """
    if int(n_heads) != n_heads or n_heads < 1:
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "the number of heads must be a positive integer, got {0}"), n_heads)
    if n_heads * d_k <= d_model:
        return d_k
    return d_model // n_heads if d_model % n_heads == 0 else d_k


DTYPES = ("float64", "float32")

POSITIONS = ("none", "sinusoidal", "rope")
"""How a session tells the scores where each token sits: not at all, by the original
Transformer's sinusoidal table added to X, or by RoPE (rotating Q and K)."""


def option_field(default, kind: str, *, name: str, **meta):
    """An ``Options`` field; ``kind`` tells the session format how to read and write it,
    ``name`` is what the interface calls it (the words of its control's label, marked
    for translation: the Edit menu's "Undo Change RoPE base", ``OPTION_NAMES``).

    ``"scale"`` ("sqrt_dk", "none" or a positive number), ``"positive"`` (a positive
    number), ``"flag"`` (true or false), ``"choice"`` (one of ``meta["choices"]``),
    ``"count"`` (an integer ≥ ``meta["minimum"]``, or null when ``meta["optional"]``),
    ``"slopes"`` (null or a list of non-negative numbers, one per head) or ``"cells"``
    (a list of [row, column] pairs of non-negative integers).
    """
    return field(default=default, metadata={"kind": kind, "name": name, **meta})


_COUNT_RULES = {
    (1, False): QT_TRANSLATE_NOOP("Edits", "{0} must be a positive integer, got {1}"),
    (1, True): QT_TRANSLATE_NOOP("Edits", "{0} must be a positive integer or off, got {1}"),
    (0, False): QT_TRANSLATE_NOOP("Edits", "{0} must be a non-negative integer, got {1}"),
    (0, True): QT_TRANSLATE_NOOP("Edits",
                                 "{0} must be a non-negative integer or off, got {1}"),
}
_MASKED_CELL_RULES = (
    QT_TRANSLATE_NOOP("Edits", "a masked cell's row must be a non-negative integer, got {0}"),
    QT_TRANSLATE_NOOP("Edits",
                      "a masked cell's column must be a non-negative integer, got {0}"))


def _check_count(name: str, v, minimum: int, optional: bool) -> None:
    if v is None and optional:
        return
    if _bad_count(v, minimum):
        raise EditError(_COUNT_RULES[min(minimum, 1), optional], name, repr(v))


def _bad_count(v, minimum: int) -> bool:
    return isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum


@dataclass(frozen=True)
class Options:
    """How scores become weights. ``scale``: "sqrt_dk", "none" or a positive divisor.

    This is the one catalogue of options: the session format's ``options`` keys, their
    validation on load and their JSON form all follow these fields (``OPTION_KEYS``,
    ``options_to_json``), so a new option is one field here plus its control.
    """

    scale: Scale = option_field("sqrt_dk", "scale",
                                name=QT_TRANSLATE_NOOP("Edits", "scaling"))
    temperature: float = option_field(1.0, "positive",
                                      name=QT_TRANSLATE_NOOP("Edits", "temperature"))
    causal: bool = option_field(False, "flag",
                                name=QT_TRANSLATE_NOOP("Edits", "causal mask"))
    stable: bool = option_field(True, "flag",
                                name=QT_TRANSLATE_NOOP("Edits", "naive softmax"))
    share_qk: bool = option_field(False, "flag",
                                  name=QT_TRANSLATE_NOOP("Edits", "share W_Q = W_K"))
    dtype: str = option_field("float64", "choice", choices=DTYPES,
                              name=QT_TRANSLATE_NOOP("Edits", "float32"))
    positions: str = option_field("none", "choice", choices=POSITIONS,
                                  name=QT_TRANSLATE_NOOP("Edits", "positions"))
    rope_base: float = option_field(10000.0, "positive",
                                    name=QT_TRANSLATE_NOOP("Edits", "RoPE base"))
    rope_pairing: str = option_field("half", "choice", choices=ROPE_PAIRINGS,
                                     name=QT_TRANSLATE_NOOP("Edits", "RoPE pairs"))
    window: int | None = option_field(None, "count", minimum=1, optional=True,
                                      name=QT_TRANSLATE_NOOP("Edits", "window"))
    prefix: int | None = option_field(None, "count", minimum=1, optional=True,
                                      name=QT_TRANSLATE_NOOP("Edits", "prefix"))
    sinks: int = option_field(0, "count", minimum=0, optional=False,
                              name=QT_TRANSLATE_NOOP("Edits", "sinks"))
    alibi: tuple[float, ...] | None = option_field(None, "slopes",
                                                   name=QT_TRANSLATE_NOOP("Edits", "ALiBi"))
    custom_mask: bool = option_field(False, "flag",
                                     name=QT_TRANSLATE_NOOP("Edits", "custom mask"))
    """Whether the custom mask applies (and the mask pane is there to paint it)."""
    masked: tuple[tuple[int, int], ...] = option_field((), "cells",
                                                       name=QT_TRANSLATE_NOOP("Edits", "masked cells"))
    """The custom mask: the (query row, key column) cells the user has masked, sorted.
    Kept while ``custom_mask`` is off, so switching it shows the difference."""

    def __post_init__(self) -> None:
        self._check_scale()
        divisor_for(self.scale, 1)  # the core's rule, which the check above says in words
        if not (np.isfinite(self.temperature) and self.temperature > 0):
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "temperature must be a positive number, got {0}"), self.temperature)
        for f in fields(self):
            v = getattr(self, f.name)
            if f.metadata["kind"] == "choice" and v not in f.metadata["choices"]:
                raise EditError(QT_TRANSLATE_NOOP("Edits", "{0} must be one of {1}, got {2}"),
                                f.name, Listed(f.metadata["choices"]), repr(v))
            if f.metadata["kind"] == "count":
                _check_count(f.name, v, f.metadata["minimum"], f.metadata["optional"])
        if isinstance(self.rope_base, bool) or not (np.isfinite(self.rope_base)
                                                    and self.rope_base > 0):
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "rope_base must be a positive number, got {0}"), repr(self.rope_base))
        if self.alibi is not None:
            slopes = tuple(float(m) for m in self.alibi)
            if not slopes or not all(np.isfinite(m) and m >= 0 for m in slopes):
                raise EditError(QT_TRANSLATE_NOOP(
                    "Edits", "ALiBi slopes must be non-negative numbers, one per head, got {0}"),
                    repr(self.alibi))
            object.__setattr__(self, "alibi", slopes)
        cells = set()
        for cell in self.masked:
            i, j = cell
            for rule, v in zip(_MASKED_CELL_RULES, (i, j), strict=True):
                if _bad_count(v, 0):
                    raise EditError(rule, repr(v))
            cells.add((int(i), int(j)))
        object.__setattr__(self, "masked", tuple(sorted(cells)))

    def _check_scale(self) -> None:
        """The core's rule for a scale (``divisor_for``), refused in words the window can
        translate (the core's own ``ValueError`` is plain English)."""
        scale = self.scale
        if isinstance(scale, str):
            if scale in ("sqrt_dk", "none"):
                return
        elif not isinstance(scale, bool) and isinstance(scale, (int, float, np.number)):
            if not (np.isfinite(scale) and scale > 0):
                raise EditError(QT_TRANSLATE_NOOP(
                    "Edits", "a custom scale divisor must be a positive finite number, got {0}"),
                    scale)
            return
        raise EditError(QT_TRANSLATE_NOOP(
            "Edits", "scale must be 'sqrt_dk', 'none' or a positive number, got {0}"),
            repr(scale))


OPTION_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Options))
"""The keys of a session's ``options`` object, in field order."""
OPTION_NAMES: dict[str, str] = {f.name: f.metadata["name"] for f in fields(Options)}
"""Each option's name as the interface says it (its control's label; "RoPE base" for
``rope_base``), untranslated: the "Edits" context translates it."""


def options_to_json(o: Options) -> dict:
    """``o`` as plain JSON values (numbers as floats, flags as booleans), in field order."""
    out = {}
    for f in fields(o):
        v, kind = getattr(o, f.name), f.metadata["kind"]
        if kind == "flag":
            v = bool(v)
        elif kind == "positive" or (kind == "scale" and not isinstance(v, str)):
            v = float(v)
        elif kind == "count":
            v = None if v is None else int(v)
        elif kind == "slopes":
            v = None if v is None else [float(m) for m in v]
        elif kind == "cells":
            v = [[int(i), int(j)] for i, j in v]
        out[f.name] = v
    return out


@dataclass(frozen=True, eq=False)
class SessionState:
    """Tokens, vectors, weights and options: everything that decides the result.

    ``heads`` holds one ``Weights`` per attention head (one for single-head);
    ``W_O`` is the optional output projection (h·d_k × d_model). In ``cross`` mode the
    keys and values come from ``kv_tokens`` / ``X_kv``. ``provenance`` names the model
    head a session was loaded from (``state.provenance``); edits keep it truthful.
    """

    tokens: tuple[str, ...]
    X: np.ndarray
    heads: tuple[Weights, ...]
    seed: int = 42
    init_scale: float = 0.1
    options: Options = field(default_factory=Options)
    W_O: np.ndarray | None = None
    mode: str = "self"
    kv_tokens: tuple[str, ...] = ()
    X_kv: np.ndarray | None = None
    provenance: Provenance | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tuple(self.tokens))
        object.__setattr__(self, "kv_tokens", tuple(self.kv_tokens))
        check_token_names(self.tokens)
        check_token_names(self.kv_tokens, "kv_tokens")
        object.__setattr__(self, "X", frozen_array(self.X))
        if self.X.ndim != 2:
            raise EditError(QT_TRANSLATE_NOOP("Edits", "X must be 2-D, got shape {0}"),
                            self.X.shape)
        if len(self.tokens) != self.X.shape[0]:
            raise EditError(QT_TRANSLATE_NOOP("Edits", "{0} tokens but X has {1} rows"),
                            len(self.tokens), self.X.shape[0])
        if not self.heads:
            raise EditError(QT_TRANSLATE_NOOP("Edits", "there must be at least one head"))
        for h, w in enumerate(self.heads):
            if w.W_Q.shape != (self.d_model, self.d_k):
                raise EditError(QT_TRANSLATE_NOOP(
                    "Edits", "head {0} weights are {1}, expected {2}"),
                    h, w.W_Q.shape, (self.d_model, self.d_k))
        if self.mode not in ("self", "cross"):
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "mode must be 'self' or 'cross', got {0}"), repr(self.mode))
        if self.X_kv is not None:
            object.__setattr__(self, "X_kv", frozen_array(self.X_kv))
            if self.X_kv.ndim != 2 or self.X_kv.shape[1] != self.d_model:
                raise EditError(QT_TRANSLATE_NOOP("Edits", "X_kv must be n_kv × {0}, got {1}"),
                                self.d_model, self.X_kv.shape)
            if len(self.kv_tokens) != self.X_kv.shape[0]:
                raise EditError(QT_TRANSLATE_NOOP(
                    "Edits", "{0} key/value tokens but X_kv has {1} rows"),
                    len(self.kv_tokens), self.X_kv.shape[0])
        elif self.mode == "cross":
            raise EditError(QT_TRANSLATE_NOOP("Edits", "cross mode needs a key/value sequence"))
        if self.W_O is not None:
            object.__setattr__(self, "W_O", frozen_array(self.W_O))
            if self.W_O.shape != (self.n_heads * self.d_k, self.d_model):
                raise EditError(QT_TRANSLATE_NOOP("Edits", "W_O must be {0} × {1}, got {2}"),
                                self.n_heads * self.d_k, self.d_model, self.W_O.shape)
        kv = 0 if self.X_kv is None else self.X_kv.shape[0]
        check_size(self.n, kv if self.mode == "cross" else self.n, self.d_model, self.d_k,
                   self.n_heads, kv, self.options.dtype)
        self._check_positions_and_mask()
        check_dtype_range(self)

    def _check_positions_and_mask(self) -> None:
        """RoPE needs pairs of dimensions, ALiBi one slope per head, and the mask must
        leave every query a key. Masked cells outside the matrix (a state built with
        fewer tokens) are dropped; the token edits take painted cells along with their
        tokens (``edits._mask_follows``)."""
        o = self.options
        if o.positions == "rope" and self.d_k % 2:
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "RoPE turns pairs of dimensions, so d_k must be even, got {0}"),
                self.d_k)
        if o.alibi is not None and len(o.alibi) != self.n_heads:
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "{0} ALiBi slopes for {1} heads; there must be one per head"),
                len(o.alibi), self.n_heads)
        m = self.n_keys
        if any(i >= self.n or j >= m for i, j in o.masked):
            kept = tuple((i, j) for i, j in o.masked if i < self.n and j < m)
            object.__setattr__(self, "options", replace(o, masked=kept))
        row = self.mask_spec().first_empty_row(self.n, m)
        if row is not None:
            raise EditError(QT_TRANSLATE_NOOP(
                "Edits", "the mask leaves the query “{0}” (row {1}) with no key to attend to"),
                self.tokens[row], row)  # rows numbered from 0, as the tables show them

    def mask_spec(self) -> MaskSpec:
        """The core's mask rules for this session (causal and prefix in self-attention only).

        Built once per state (the custom mask is an n × m array) and shared: the state
        is immutable, and panes, figures and compute all ask for it.
        """
        spec = self.__dict__.get("_mask_spec")
        if spec is None:
            spec = self._build_mask_spec()
            object.__setattr__(self, "_mask_spec", spec)
        return spec

    def _build_mask_spec(self) -> MaskSpec:
        o = self.options
        selfish = self.mode == "self"
        custom = None
        if o.custom_mask and o.masked:
            custom = np.ones((self.n, self.n_keys), dtype=bool)
            rows, cols = zip(*o.masked, strict=True)
            custom[list(rows), list(cols)] = False
            custom.flags.writeable = False
        return MaskSpec(causal=o.causal and selfish, window=o.window,
                        prefix=o.prefix if selfish else None, sinks=o.sinks, custom=custom)

    # -- shape ---------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def d_model(self) -> int:
        return self.X.shape[1]

    @property
    def d_k(self) -> int:
        return self.heads[0].d_k

    @property
    def n_heads(self) -> int:
        return len(self.heads)

    @property
    def n_keys(self) -> int:
        """How many keys each query attends over (m: X_kv's rows in cross mode, else n)."""
        return self.X_kv.shape[0] if self.mode == "cross" else self.n

    @property
    def weights(self) -> Weights:
        """The first head's weights (the only ones in single-head mode)."""
        return self.heads[0]

    def head_index(self, head: int) -> int:
        """``head`` clamped into 0 … n_heads − 1: the head a view shows when asked for
        one the session no longer has (the one rule; every view and export uses it)."""
        return min(max(int(head), 0), self.n_heads - 1)

    @property
    def key_tokens(self) -> tuple[str, ...]:
        """Tokens along the columns of the n×m matrices."""
        return self.kv_tokens if self.mode == "cross" else self.tokens

    # -- construction --------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str) -> SessionState:
        p = get_preset(name)
        return cls.initialised(p.tokens, p.X, d_k=p.d_k, seed=p.seed, init_scale=p.scale)

    @classmethod
    def initialised(cls, tokens, X, *, d_k: int, seed: int = 42, init_scale: float = 0.1,
                    n_heads: int = 1, with_output: bool = False, **kwargs) -> SessionState:
        """A state whose weights come from the tutorial's seeded initialisation."""
        X = np.asarray(X, dtype=np.float64)
        heads, W_O = init_multihead_weights(X.shape[1], d_k, n_heads, seed, init_scale,
                                            with_output)
        return cls(tuple(tokens), X, tuple(heads), seed, init_scale, W_O=W_O, **kwargs)

    def reinitialised(self, *, d_model: int | None = None, d_k: int | None = None,
                      seed: int | None = None, init_scale: float | None = None,
                      n_heads: int | None = None, with_output: bool | None = None,
                      X=None, **changes) -> SessionState:
        """This state with fresh seeded weights for new dimensions, seed or scale.

        ``changes`` are further fields replaced at the same time (e.g. tokens).
        """
        X = self.X if X is None else X
        d_k = self.d_k if d_k is None else d_k
        seed = self.seed if seed is None else seed
        init_scale = self.init_scale if init_scale is None else init_scale
        n_heads = self.n_heads if n_heads is None else n_heads
        with_output = (self.W_O is not None) if with_output is None else with_output
        d_model = np.asarray(X).shape[1] if d_model is None else d_model
        X = _resize_columns(np.asarray(X), d_model)
        X_kv = changes.pop("X_kv", self.X_kv)
        X_kv = None if X_kv is None else _resize_columns(np.asarray(X_kv), d_model)
        heads, W_O = init_multihead_weights(d_model, d_k, n_heads, seed, init_scale,
                                            with_output)
        o = changes.pop("options", self.options)
        if o.alibi is not None and len(o.alibi) != n_heads:  # new heads: the paper's slopes
            o = replace(o, alibi=tuple(alibi_slopes(n_heads)))
        if self.provenance is not None and "provenance" not in changes:
            changes["provenance"] = self.provenance.after_reinit()
        return replace(self, X=X, X_kv=X_kv, heads=tuple(heads), W_O=W_O, seed=seed,
                       init_scale=init_scale, options=o, **changes)

    def equals(self, other: SessionState) -> bool:
        """Bit-exact equality of every field (``==`` on arrays would be ambiguous)."""
        if not isinstance(other, SessionState):
            return False
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "heads":
                if len(a) != len(b) or not all(_weights_equal(x, y) for x, y in zip(a, b, strict=True)):
                    return False
            elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                if not _bits_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    def structure(self) -> tuple:
        """Everything but the input values, for ``same_structure``: the shapes of X and
        X_kv, then every other field's value, the very object."""
        X_kv = self.X_kv
        return (self.X.shape, None if X_kv is None else X_kv.shape,
                *(getattr(self, f.name) for f in fields(self) if f.name not in ("X", "X_kv")))

    def with_(self, **changes) -> SessionState:
        """A copy with ``changes`` applied (validated like a new state).

        Every edit goes through here or ``reinitialised``, so a loaded model head's
        ``provenance`` is marked edited (its weights too, if they changed) unless
        ``changes`` set it themselves.
        """
        if self.provenance is not None and "provenance" not in changes:
            changed = {k for k, v in changes.items() if not _same(getattr(self, k), v)}
            if changed:  # a change to the same values leaves the state equal
                changes["provenance"] = self.provenance.after_edit(
                    weights=bool({"heads", "W_O"} & changed))
        return replace(self, **changes)


def same_structure(a: tuple, b: tuple) -> bool:
    """Whether two ``SessionState.structure()`` are of states that differ at most in the
    values of their inputs: the same shapes, and every other field the same object (or
    an equal number or text). An edit of X (or X_kv) leaves them so, keeping the other
    fields' objects: what is derived from those alone (the panes' titles, whether the
    weights are the seeded ones) need not be derived again (issue 20)."""
    if len(a) != len(b) or a[:2] != b[:2]:
        return False
    return all(x is y or (type(x) is type(y) and type(x) in (int, float, str) and x == y)
               for x, y in zip(a[2:], b[2:], strict=True))


def _same(a, b) -> bool:
    """Whether a field's new value ``b`` equals its old ``a`` (arrays bit for bit)."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and _bits_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, tuple) and a and isinstance(a[0], Weights):
        return len(a) == len(b) and all(map(_weights_equal, a, b))
    return a == b


def _bits_equal(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _weights_equal(a: Weights, b: Weights) -> bool:
    return all(_bits_equal(getattr(a, n), getattr(b, n)) for n in WEIGHT_NAMES)


def _resize_columns(X: np.ndarray, d_model: int) -> np.ndarray:
    if d_model < 1:
        raise EditError(QT_TRANSLATE_NOOP("Edits", "d_model must be at least 1"))
    n, d = X.shape
    if d_model <= d:
        return X[:, :d_model]
    return np.concatenate([X, np.zeros((n, d_model - d))], axis=1)


class Float32RangeError(EditError):
    """A float32 session with a value float32 cannot hold."""


def check_dtype_range(state: SessionState) -> None:
    """Refuse a float32 session holding a value beyond float32's range (``EditError``).

    Casting would turn it into inf silently and nothing could be computed; checked for
    every state, so neither an edit (typing 1e300, then ticking float32) nor a file can
    make one, and no autosave holds one that could not be opened again.
    """
    if state.options.dtype != "float32":
        return
    top = float(np.finfo(np.float32).max)
    arrays = [("X", state.X), ("X_kv", state.X_kv if state.mode == "cross" else None),
              ("W_O", state.W_O)]
    arrays += [(Text(QT_TRANSLATE_NOOP("Edits", "{0} of head {1}"), (name, h + 1)),
                getattr(w, name)) for h, w in enumerate(state.heads) for name in WEIGHT_NAMES]
    for name, a in arrays:  # the extremes, not |a| (a copy of X at every edit)
        if a is None or not a.size or _in_float32_range(a, top):
            continue
        if max(float(a.max()), -float(a.min())) > top:
            raise Float32RangeError(QT_TRANSLATE_NOOP(
                "Edits", "{0} has values beyond ±3.4e38, too large for float32; switch "
                         "float32 off to compute in float64"), name)
        _IN_RANGE.add(a)


class _IdentitySet:
    """Read-only arrays by identity, each forgotten when it is freed (arrays cannot be
    hashed, so a ``WeakSet`` cannot hold them)."""

    def __init__(self):
        self._refs: dict[int, weakref.ref] = {}

    def add(self, a: np.ndarray) -> None:
        if a.flags.writeable:
            return  # its values may still change
        key = id(a)
        self._refs[key] = weakref.ref(a, lambda ref, key=key: self._refs.pop(key, None)
                                      if self._refs.get(key) is ref else None)

    def __contains__(self, a: np.ndarray) -> bool:
        ref = self._refs.get(id(a))
        return ref is not None and ref() is a


_IN_RANGE = _IdentitySet()
"""Arrays already found within float32's range: an edit's copy of one is checked on the
cells it wrote (``made_from``), not with two passes over all of X (7 ms at 8192 × 768)."""


def _in_float32_range(a: np.ndarray, top: float) -> bool:
    if a in _IN_RANGE:
        return True
    made = made_from(a)
    if made is None or made[0] not in _IN_RANGE:
        return False
    rows, cols = made[1]
    if not rows.size or float(np.abs(a[rows, cols]).max()) <= top:
        _IN_RANGE.add(a)
        return True
    return False
