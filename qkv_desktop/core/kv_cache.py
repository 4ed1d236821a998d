"""Decoding one token at a time with a key/value cache, and what the cache costs.

A causal model generating text sees token t only after tokens 0…t−1. Its attention
row t needs q_t and *every* key and value up to t, but keys and values of earlier
tokens never change (the mask hides later tokens from them), so they are kept: each
step appends exactly one row to the K cache and one to the V cache. Without the cache
every step recomputes Q, K and V of the whole prefix.

``decode_with_cache`` runs that loop; ``recompute_step`` is the cache-less step it is
compared with; ``kv_cache_bytes`` and ``KV_MODEL_PRESETS`` size the cache of a real model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.attention import POSITION_KINDS, Scale, attention, divisor_for
from qkv_desktop.core.masks import EmptyRowError, MaskSpec, alibi_rows
from qkv_desktop.core.positions import rope, sinusoidal_positions
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import Weights

__all__ = ["DecodeStep", "DecodeResult", "decode_with_cache", "recompute_step",
           "cached_madds", "recomputed_madds", "KVModelShape", "KV_MODEL_PRESETS",
           "kv_cache_bytes", "kv_heads_for", "gqa_kv_head_counts"]


@dataclass(frozen=True, eq=False)
class DecodeStep:
    """What decoding step ``t`` (0-based) computed.

    ``q``, ``k``, ``v`` are the new token's projections (d_k,); ``K_cache`` and
    ``V_cache`` are the caches after appending k and v, (t+1) × d_k; ``weights`` is the
    new attention row over the t+1 cached keys and ``output`` the new output row.
    ``madds`` is the multiply-adds of this step with the cache. ``allowed`` (t+1
    booleans) says which cached keys the mask lets token t see: a hidden one (a window,
    a painted mask) has weight exactly 0.
    """

    t: int
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    K_cache: np.ndarray
    V_cache: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    madds: int
    allowed: np.ndarray


@dataclass(frozen=True, eq=False)
class DecodeResult:
    """All steps of a cached decode; ``outputs`` stacks their output rows (n × d_k)."""

    steps: tuple[DecodeStep, ...]
    outputs: np.ndarray
    divisor: float

    def __len__(self) -> int:
        return len(self.steps)


def _check(temperature: float, causal: bool, X_kv, prefix) -> None:
    if not causal:
        raise ValueError("a key/value cache only exists for causal attention (causal=True)")
    if X_kv is not None:
        raise ValueError("decoding with a cache is self-attention: X_kv is not allowed")
    if prefix is not None:
        raise ValueError("a prefix-LM sees its prefix in both directions: the prefix is "
                         "not decoded token by token")
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature}")


def _row(x: np.ndarray, W: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    out = x @ W
    if b is not None:
        out += b
    return out


def decode_with_cache(X, weights: Weights, *, scale: Scale = "sqrt_dk",
                      temperature: float = 1.0, causal: bool = True, X_kv=None,
                      stable: bool = True, positions: str | None = None,
                      rope_base: float = 10000.0, rope_pairing: str = "half",
                      window: int | None = None, alibi_slope: float | None = None,
                      prefix: int | None = None, sinks: int = 0, mask=None) -> DecodeResult:
    """Decode ``X`` token by token, appending one key and one value row per step.

    Takes the options of ``attention`` so a session's options can be passed as they
    are (``causal`` must be True, ``X_kv`` and ``prefix`` None). Step t projects only
    token t (with its sinusoidal position added, or its query and key rotated by RoPE
    at position t: the cache keeps rotated keys, as real decoders do); the new weight
    row is the softmax of q_t·K_cacheᵀ/(divisor·T), plus the ALiBi bias, over the keys
    the mask lets token t see. Output row t equals row t of
    ``attention(X, weights, causal=True, …)`` and ``recompute_step(X, weights, t, …)``,
    the same step without a cache, to rounding: a matrix product may add its terms in
    another order for many rows than for one.
    """
    _check(temperature, causal, X_kv, prefix)
    X = as_matrix(X, "X")
    w = weights.astype(X.dtype)
    if X.shape[1] != w.d_model:
        raise ValueError(f"X has {X.shape[1]} columns but the weights expect "
                         f"d_model = {w.d_model}")
    n, d_k = X.shape[0], w.d_k
    divisor = divisor_for(scale, d_k)
    if positions not in POSITION_KINDS:
        raise ValueError(f"positions must be None, 'sinusoidal' or 'rope', got {positions!r}")
    spec = MaskSpec(True, window, None, sinks, mask)
    spec.check_shape(n, n)
    if positions == "sinusoidal":
        X = X + sinusoidal_positions(n, X.shape[1]).astype(X.dtype)
    div = X.dtype.type(divisor * temperature)
    # The caches as a whole; the steps hold views of their first t+1 rows, made
    # read-only before the steps are built.
    K = np.empty((n, d_k), X.dtype)
    V = np.empty((n, d_k), X.dtype)
    outputs = np.empty((n, d_k), X.dtype)
    rows = []
    for t in range(n):
        x = X[t:t + 1]
        q = _row(x, w.W_Q, w.b_Q)
        k = _row(x, w.W_K, w.b_K)
        if positions == "rope":
            q = rope(q, [t], base=rope_base, pairing=rope_pairing)
            k = rope(k, [t], base=rope_base, pairing=rope_pairing)
        K[t:t + 1] = k
        V[t:t + 1] = _row(x, w.W_V, w.b_V)
        s = np.divide(q @ K[:t + 1].T, div)
        if alibi_slope is not None:
            s += alibi_rows(t, t + 1, t + 1, float(alibi_slope), X.dtype)
        allowed = np.ones(t + 1, bool)
        if spec.restricts:
            hidden = spec.hidden_rows(t, t + 1, n)[:, :t + 1]
            if hidden.all():
                raise EmptyRowError(t, n)
            np.copyto(s, -np.inf, where=hidden)
            allowed = ~hidden[0]
        p = _softmax_row(s, stable)
        out = p @ V[:t + 1]
        outputs[t] = out[0]
        rows.append((q[0], p[0], allowed))
    for a in (K, V, outputs):
        a.flags.writeable = False
    steps = [DecodeStep(t, q, K[t], V[t], K[:t + 1], V[:t + 1], p, outputs[t],
                        cached_madds(t, w.d_model, d_k), allowed)
             for t, (q, p, allowed) in enumerate(rows)]
    return DecodeResult(tuple(steps), outputs, divisor)


def _softmax_row(s: np.ndarray, stable: bool) -> np.ndarray:
    """Softmax of a 1 × m block the way ``attention`` does it (same operations, same order)."""
    with np.errstate(over="ignore", invalid="ignore"):
        z = s - s.max(axis=1, keepdims=True) if stable else s
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


def recompute_step(X, weights: Weights, t: int, **options) -> np.ndarray:
    """Step t without a cache: the full causal forward of tokens 0…t, its last output row.

    A custom ``mask`` (n × n, of the whole sequence) is taken for those tokens: its
    first t+1 rows and columns (the whole one made the stepper fail at its first step:
    "the mask is 4 × 4 but the scores are 1 × 1")."""
    X = as_matrix(X, "X")
    if not 0 <= t < X.shape[0]:
        raise ValueError(f"step t must be in 0…{X.shape[0] - 1}, got {t}")
    options = {**options, "causal": True}
    if options.get("mask") is not None:
        options["mask"] = np.asarray(options["mask"])[:t + 1, :t + 1]
    return attention(X[:t + 1], weights, **options).output[t]


def cached_madds(t: int, d_model: int, d_k: int) -> int:
    """Multiply-adds of cached step t: q, k, v of one token, t+1 scores, t+1 value rows."""
    return 3 * d_model * d_k + 2 * (t + 1) * d_k


def recomputed_madds(t: int, d_model: int, d_k: int) -> int:
    """Multiply-adds of step t without a cache, as ``attention`` computes it.

    Q, K and V of all t+1 tokens, the full (t+1) × (t+1) QKᵀ and weights · V (a
    masked matrix product still multiplies the masked cells).
    """
    m = t + 1
    return 3 * m * d_model * d_k + 2 * m * m * d_k


# ----------------------------------------------------------------- memory of the cache

@dataclass(frozen=True)
class KVModelShape:
    """The numbers that size a model's KV cache.

    ``query_heads`` is the number of attention heads, ``kv_heads`` how many of them
    have their own K and V (= query_heads for multi-head attention, fewer for grouped-
    query attention, 1 for multi-query attention). ``context``: the most tokens it
    reads (its ``max_position_embeddings``). ``encoder``: the model reads its input in
    both directions at once and never decodes token by token, so it keeps no cache; its
    shape still says what one would hold.
    """

    name: str
    layers: int
    query_heads: int
    kv_heads: int
    head_dim: int
    context: int
    encoder: bool = False


KV_MODEL_PRESETS: tuple[KVModelShape, ...] = (
    # sentence-transformers/all-MiniLM-L6-v2: BERT, hidden 384 = 12 heads × 32.
    # 512 positions
    KVModelShape("all-MiniLM-L6-v2", layers=6, query_heads=12, kv_heads=12, head_dim=32,
                 context=512, encoder=True),
    # HuggingFaceTB/SmolLM2-135M: Llama, hidden 576 = 9 heads × 64, 3 KV heads (GQA),
    # 8192 positions
    KVModelShape("SmolLM2-135M", layers=30, query_heads=9, kv_heads=3, head_dim=64,
                 context=8192),
)
"""Real models for the memory calculator (from their config.json)."""


def gqa_kv_head_counts(query_heads: int) -> tuple[int, ...]:
    """The KV-head counts grouped-query attention allows for ``query_heads``: its divisors.

    Each KV head serves the same number of query heads, query_heads / kv_heads, so that
    quotient must be a whole number (at least 1): 9 query heads share 1, 3 or 9 KV heads,
    never 4 (9 / 4 = 2.25) nor 20 (more KV heads than query heads).
    """
    if isinstance(query_heads, bool) or int(query_heads) != query_heads or query_heads < 1:
        raise ValueError(f"query_heads must be a positive integer, got {query_heads!r}")
    q = int(query_heads)
    return tuple(k for k in range(1, q + 1) if q % k == 0)


def kv_heads_for(kind: str, query_heads: int, gqa_kv_heads: int) -> int:
    """KV heads of ``kind`` "MHA" (one per query head), "GQA" (the model's) or "MQA" (1).

    For "GQA", ``gqa_kv_heads`` must divide ``query_heads`` (``gqa_kv_head_counts``):
    a count that does not is no model, and sizing its cache would be a wrong answer
    rather than an error, so it raises ``ValueError``.
    """
    if kind == "MHA":
        return query_heads
    if kind == "GQA":
        if gqa_kv_heads not in gqa_kv_head_counts(query_heads):
            raise ValueError(f"{query_heads} query heads cannot share {gqa_kv_heads} "
                             "key/value heads: grouped-query attention needs kv_heads to "
                             "divide query_heads")
        return gqa_kv_heads
    if kind == "MQA":
        return 1
    raise ValueError(f"kind must be 'MHA', 'GQA' or 'MQA', got {kind!r}")


def kv_cache_bytes(layers: int, kv_heads: int, head_dim: int, tokens: int,
                   bytes_per_value: int, batch: int = 1) -> int:
    """Bytes of a KV cache: 2 (K and V) × layers × KV heads × d_k × tokens × bytes × batch."""
    for name, value in (("layers", layers), ("kv_heads", kv_heads), ("head_dim", head_dim),
                        ("tokens", tokens), ("bytes_per_value", bytes_per_value),
                        ("batch", batch)):
        if isinstance(value, bool) or int(value) != value or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return 2 * int(layers) * int(kv_heads) * int(head_dim) * int(tokens) \
        * int(bytes_per_value) * int(batch)
