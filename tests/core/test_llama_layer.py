"""RMSNorm, SwiGLU, grouped-query attention and the decoder layer against references
written here (RoPE itself is tested in ``test_positions_masks.py``).

The RoPE reference used for the attention check is written with complex numbers (the
RoFormer paper's form: pair (a, b) is a + ib, multiplied by e^{imθ_i}).
"""

import math

import numpy as np
import pytest

from qkv_desktop.core import (
    LlamaLayerWeights,
    Weights,
    attention,
    first_token_mass,
    kv_head_for,
    llama_layer,
    rms_norm,
    swiglu,
)


def rope_reference(x, positions, base, pairing):
    n, d = x.shape
    if pairing == "half":
        idx_a, idx_b = list(range(d // 2)), list(range(d // 2, d))
    else:
        idx_a, idx_b = list(range(0, d, 2)), list(range(1, d, 2))
    out = np.zeros((n, d))
    for r in range(n):
        for i, (a, b) in enumerate(zip(idx_a, idx_b, strict=True)):
            theta = positions[r] * base ** (-2 * i / d)
            z = complex(x[r, a], x[r, b]) * complex(math.cos(theta), math.sin(theta))
            out[r, a], out[r, b] = z.real, z.imag
    return out


def test_attention_with_rope_scores_rotated_queries_and_keys():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(5, 6))
    w = Weights(*(rng.normal(size=(6, 4)) for _ in range(3)))
    r = attention(X, w, causal=True, positions="rope", rope_base=100.0)
    Qr = rope_reference(X @ w.W_Q, range(5), 100.0, "half")
    Kr = rope_reference(X @ w.W_K, range(5), 100.0, "half")
    np.testing.assert_allclose(r.Q_rope, Qr, atol=1e-12)
    np.testing.assert_allclose(r.scores, Qr @ Kr.T, atol=1e-12)
    assert list(r.matrices())[:4] == ["Q", "K", "Q_rope", "K_rope"]
    assert attention(X, w).Q_rope is None and "Q_rope" not in attention(X, w).matrices()
    with pytest.raises(ValueError, match="positions must be"):
        attention(X, w, positions="alibi")


def test_rms_norm_and_swiglu():
    x = np.array([[3.0, 4.0]])
    np.testing.assert_allclose(rms_norm(x, np.array([1.0, 2.0]), 0.0),
                               [[3 / math.sqrt(12.5), 8 / math.sqrt(12.5)]])
    g, u, dn = np.eye(2), 2 * np.eye(2), np.ones((2, 1))
    silu = [v / (1 + math.exp(-v)) for v in (3.0, 4.0)]
    np.testing.assert_allclose(swiglu(x, g, u, dn), [[silu[0] * 6 + silu[1] * 8]])


def test_gqa_head_mapping_and_the_first_token_mass():
    assert [kv_head_for(h, 9, 3) for h in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError, match="cannot share"):
        kv_head_for(0, 9, 2)
    w = np.array([[1.0, 0.0], [0.75, 0.25]])
    assert first_token_mass(w).tolist() == [1.0, 0.75]


def test_even_weights_put_one_over_the_keys_seen_on_the_first_token():
    """The sink's baseline: under the causal mask row i sees i + 1 keys, so 1/(i + 1);
    without a mask 1/m; a window that hides the first key gives it nothing."""
    from qkv_desktop.core.llama import even_first_token_mass
    from qkv_desktop.core.masks import MaskSpec

    np.testing.assert_allclose(even_first_token_mass(4, 4, MaskSpec(causal=True)),
                               [1, 1 / 2, 1 / 3, 1 / 4])
    np.testing.assert_allclose(even_first_token_mass(3, 5), [1 / 5] * 3)
    np.testing.assert_allclose(even_first_token_mass(4, 4, MaskSpec(causal=True, window=2)),
                               [1, 1 / 2, 0, 0])
    # the review's head: 30 % averaged over rows 1 … 4 is below even weights' 32 %
    assert np.mean(even_first_token_mass(5, 5, MaskSpec(causal=True))[1:]) > 0.30


def test_llama_layer_uses_the_shared_key_value_head():
    """Query head j of a GQA 4:2 layer equals one-head attention with kv head j // 2."""
    rng = np.random.default_rng(2)
    d, hd, n = 16, 4, 6
    m = lambda *s: rng.normal(size=s) * 0.5  # noqa: E731
    w = LlamaLayerWeights(1 + m(d) * 0.1, m(d, 4 * hd), m(d, 2 * hd), m(d, 2 * hd),
                          m(4 * hd, d), 1 + m(d) * 0.1, m(d, 8), m(d, 8), m(8, d))
    h = m(n, d)
    trace = llama_layer(h, w, n_heads=4, n_kv_heads=2, eps=1e-6, rope_base=50.0,
                        keep_weights=True)
    a = rms_norm(h, w.attn_norm, 1e-6)
    ctx = []
    for j in range(4):
        g = j // 2
        head = Weights(w.W_Q[:, j * hd:(j + 1) * hd], w.W_K[:, g * hd:(g + 1) * hd],
                       w.W_V[:, g * hd:(g + 1) * hd])
        r = attention(a, head, causal=True, positions="rope", rope_base=50.0)
        np.testing.assert_allclose(trace.weights[j], r.weights, atol=1e-13)
        ctx.append(r.output)
    h1 = h + np.concatenate(ctx, axis=1) @ w.W_O
    expected = h1 + swiglu(rms_norm(h1, w.ffn_norm, 1e-6), w.W_gate, w.W_up, w.W_down)
    np.testing.assert_allclose(trace.output, expected, atol=1e-12)
