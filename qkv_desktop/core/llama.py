"""One LLaMA-style decoder layer in NumPy: RMSNorm, RoPE, grouped-query causal
attention and the SwiGLU feed-forward.

This is the arithmetic of LLaMA and its descendants (SmolLM2, Mistral, Qwen…), written
out so that a learner can see every step and the app can show any head's real numbers:

    a = RMSNorm(h)·g₁;  Q = a·W_Q,  K = a·W_K,  V = a·W_V      (no biases)
    Q, K ← RoPE(Q), RoPE(K)                                  (per head, by position)
    head j: softmax(Q_j·K_{j // group}ᵀ / √d_k, causal) · V_{j // group}
    h ← h + concat(heads)·W_O
    h ← h + SwiGLU(RMSNorm(h)·g₂) = h + (SiLU(b·W_gate) ⊙ b·W_up)·W_down

Grouped-query attention (GQA): ``n_heads`` query heads share ``n_kv_heads`` key/value
heads, ``group = n_heads / n_kv_heads`` query heads per key/value head, so query head j
reads key/value head ``j // group``. Weights are stored as x·W (d_in × d_out), the
app's convention, not torch's (out, in).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.masks import MaskSpec
from qkv_desktop.core.positions import rope
from qkv_desktop.core.softmax import softmax

__all__ = ["LlamaLayerWeights", "LayerTrace", "SINK_RATIO", "even_first_token_mass",
           "first_token_mass", "is_attention_sink", "kv_head_for",
           "llama_layer",
           "rms_norm", "silu", "swiglu"]


def rms_norm(x, weight, eps: float) -> np.ndarray:
    """x / √(mean(x²) + eps) · weight over the last axis (no centring, no bias)."""
    x = np.asarray(x)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * weight


def silu(x) -> np.ndarray:
    """x·σ(x), computed without overflow for large negative x."""
    x = np.asarray(x)
    with np.errstate(over="ignore"):
        return x / (1.0 + np.exp(-x))


def swiglu(x, W_gate, W_up, W_down) -> np.ndarray:
    """The gated feed-forward (SiLU(x·W_gate) ⊙ x·W_up)·W_down."""
    return (silu(x @ W_gate) * (x @ W_up)) @ W_down


def first_token_mass(weights) -> np.ndarray:
    """The attention sink: how much of each query row's weight falls on the first key.

    Decoders learn to park attention they do not need on the first token, which every
    query can see; in late layers this is often most of the weight. Row 0 can see only
    that token, so its value is always 1.
    """
    w = np.asarray(weights)
    if w.ndim != 2 or w.shape[1] == 0:
        raise ValueError(f"weights must be a non-empty n × m matrix, got shape {w.shape}")
    return w[:, 0].copy()


def even_first_token_mass(n: int, m: int, mask_spec: MaskSpec | None = None) -> np.ndarray:
    """Each query row's weight on the first key if it spread its weight evenly over the
    keys it may see: 1/(i + 1) for row i under the causal mask, 0 where the mask hides
    the first key. An attention sink is weight on the first token beyond this: 30 % on
    it, averaged over four causal rows, is less than even weights give (32 %)."""
    out = np.zeros(n)
    step = max(1, (1 << 22) // max(m, 1))  # rows of at most 4 M cells at a time
    for r0 in range(0, n, step):
        r1 = min(n, r0 + step)
        allowed = np.ones((r1 - r0, m), bool) if mask_spec is None else \
            mask_spec.rows(r0, r1, m)
        seen = allowed.sum(axis=1)
        out[r0:r1] = np.where(allowed[:, 0], 1.0 / np.maximum(seen, 1), 0.0)
    return out


SINK_RATIO = 2.0
"""How many times the share that even weights put on the first token a head's rows must
put there, on average, to be called an attention sink (``is_attention_sink``)."""


def is_attention_sink(mean: float, even: float) -> bool:
    """Whether rows that put ``mean`` of their weight on the first token, on average, where
    even weights put ``even``, make an attention sink: ``SINK_RATIO`` times ``even``, or
    halfway from ``even`` to all of it, whichever is less.

    Twice the even share alone asked the impossible of short rows: two causal tokens'
    second row spreads 1/2 evenly, so a sink needed 100 %, which a softmax never reaches
    (99.9 % on the first token was "no attention sink"). Halfway to all asks 75 % there."""
    if even <= 0.0:  # a mask that hides the first key from every row: nothing can sink
        return False
    return mean >= min(SINK_RATIO * even, (1.0 + even) / 2.0)


def kv_head_for(head: int, n_heads: int, n_kv_heads: int) -> int:
    """The key/value head that query ``head`` reads under grouped-query attention."""
    if n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ValueError(f"{n_heads} query heads cannot share {n_kv_heads} key/value heads "
                         "evenly")
    if not 0 <= head < n_heads:
        raise ValueError(f"head {head} is out of range 0 … {n_heads - 1}")
    return head // (n_heads // n_kv_heads)


@dataclass(frozen=True, eq=False)
class LlamaLayerWeights:
    """One layer's weights in x·W layout: W_Q (d × h·d_k), W_K and W_V (d × kv·d_k),
    W_O (h·d_k × d), the two RMSNorm gains (d,) and the SwiGLU matrices."""

    attn_norm: np.ndarray
    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray
    ffn_norm: np.ndarray
    W_gate: np.ndarray
    W_up: np.ndarray
    W_down: np.ndarray


@dataclass(frozen=True, eq=False)
class LayerTrace:
    """What one layer computed: its output residual, and (if asked) per-head weights."""

    output: np.ndarray
    weights: np.ndarray | None  # (n_heads, n, n) attention probabilities, or None


def llama_layer(h, w: LlamaLayerWeights, *, n_heads: int, n_kv_heads: int, eps: float,
                rope_base: float | None = 10000.0, rope_pairing: str = "half",
                positions=None, keep_weights: bool = False) -> LayerTrace:
    """The residual stream after one decoder layer (see the module docstring).

    ``rope_base=None`` switches RoPE off. ``positions`` default to 0 … n−1. The layer
    computes in the dtype of ``h`` (float64 unless ``h`` is float32).
    """
    h = np.asarray(h)
    n, d = h.shape
    d_k = w.W_Q.shape[1] // n_heads
    group = n_heads // n_kv_heads
    if n_heads % n_kv_heads or w.W_K.shape[1] != n_kv_heads * d_k:
        raise ValueError(f"W_K has {w.W_K.shape[1]} columns; {n_heads} query heads of "
                         f"{d_k} dimensions sharing {n_kv_heads} key/value heads need "
                         f"{n_kv_heads * d_k}")
    pos = np.arange(n) if positions is None else positions
    a = rms_norm(h, w.attn_norm, eps)

    def heads(W, count):  # (n, count·d_k) → count × (n, d_k)
        y = a @ W
        return [y[:, j * d_k:(j + 1) * d_k] for j in range(count)]

    q, k, v = heads(w.W_Q, n_heads), heads(w.W_K, n_kv_heads), heads(w.W_V, n_kv_heads)
    if rope_base is not None:
        q = [rope(x, pos, base=rope_base, pairing=rope_pairing) for x in q]
        k = [rope(x, pos, base=rope_base, pairing=rope_pairing) for x in k]
    scale = h.dtype.type(math.sqrt(d_k))
    allowed = MaskSpec(causal=True).allowed(n, n)
    context = np.empty((n, n_heads * d_k), h.dtype)
    kept = []
    for j in range(n_heads):  # one head at a time: a single n × n matrix in memory
        kv = j // group
        scores = np.where(allowed, q[j] @ k[kv].T / scale, -np.inf)
        p = softmax(scores, axis=-1)
        context[:, j * d_k:(j + 1) * d_k] = p @ v[kv]
        if keep_weights:
            kept.append(p)
    h = h + context @ w.W_O
    h = h + swiglu(rms_norm(h, w.ffn_norm, eps), w.W_gate, w.W_up, w.W_down)
    return LayerTrace(h, np.stack(kept) if keep_weights else None)
