"""Multi-head attention: h independent heads, concatenated, optionally projected by W_O."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.attention import AttentionResult, attention
from qkv_desktop.core.masks import alibi_slopes
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import Weights, _check_dims, init_head_weights

__all__ = ["MultiHeadResult", "multi_head_attention", "init_multihead_weights"]


@dataclass(frozen=True, eq=False)
class MultiHeadResult:
    """Per-head ``AttentionResult``s, their concatenation (n × h·d_k) and the W_O projection."""

    heads: tuple[AttentionResult, ...]
    concat: np.ndarray
    output: np.ndarray | None


def init_multihead_weights(d_model: int, d_k: int, heads: int, seed: int = 42,
                           scale: float = 0.1, with_output: bool = False):
    """Per-head weights drawn from one seeded stream, head after head.

    Head 0 gets exactly ``init_weights(d_model, d_k, seed, scale)``, so h = 1 is the
    single-head case. W_O (h·d_k × d_model), when asked for, is drawn after the heads.
    Returns ``(list_of_Weights, W_O_or_None)``.
    """
    _check_dims(d_model, d_k)
    if int(heads) != heads or heads < 1:
        raise ValueError(f"heads must be a positive integer, got {heads}")
    rng = np.random.RandomState(seed)
    per_head = [init_head_weights(rng, d_model, d_k, scale) for _ in range(heads)]
    W_O = rng.randn(heads * d_k, d_model) * scale if with_output else None
    return per_head, W_O


def multi_head_attention(X, heads: Sequence[Weights], *, W_O=None, X_kv=None, alibi=None,
                         on_rows: Callable[[int, int, int, dict], None] | None = None,
                         **options) -> MultiHeadResult:
    """Run ``attention`` once per head; ``options`` are those of ``attention``.

    ``on_rows(h, r0, r1, matrices)`` is ``attention``'s ``on_rows`` of head h.

    ``alibi=True`` gives head k the k-th of ``alibi_slopes(h)`` (the ALiBi paper's one
    slope per head); a sequence of h numbers gives each head its own slope.
    """
    if not heads:
        raise ValueError("multi-head attention needs at least one head")
    slopes = [options.pop("alibi_slope", None)] * len(heads)
    if alibi is not None and alibi is not False:
        if slopes[0] is not None:
            raise ValueError("give either alibi (one slope per head) or alibi_slope, not both")
        if alibi is True:
            slopes = list(alibi_slopes(len(heads)))
        else:
            slopes = list(alibi)
            if len(slopes) != len(heads):
                raise ValueError(f"{len(slopes)} ALiBi slopes for {len(heads)} heads")
    results = tuple(attention(X, w, X_kv=X_kv, alibi_slope=m, **options,
                              on_rows=None if on_rows is None else functools.partial(on_rows, h))
                    for h, (w, m) in enumerate(zip(heads, slopes, strict=True)))
    concat = np.concatenate([r.output for r in results], axis=1)
    output = None
    if W_O is not None:
        W_O = as_matrix(W_O, "W_O", concat.dtype)
        if W_O.shape[0] != concat.shape[1]:
            raise ValueError(f"W_O has {W_O.shape[0]} rows but the heads concatenate to "
                             f"{concat.shape[1]} columns")
        output = concat @ W_O
    return MultiHeadResult(results, concat, output)
