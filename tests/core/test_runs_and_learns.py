"""Issue 23's core: KV-cache decoding, online softmax, FlashAttention tiles, gradients.

Each is checked against the plain forward (``attention``/``softmax``) or, for the
gradients, against central finite differences of the loss.
"""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.core import (
    Weights,
    attention,
    attention_grads,
    attention_memory,
    decode_with_cache,
    flash_attention,
    init_weights,
    kv_cache_bytes,
    online_softmax,
    recompute_step,
    scaling_comparison,
    softmax,
    target_pattern,
    train_step,
)
from qkv_desktop.core.kv_cache import KV_MODEL_PRESETS, cached_madds, recomputed_madds
from qkv_desktop.core.presets import get_preset
from qkv_desktop.core.training import normalise_pattern, output_loss, pattern_loss


def close(actual, desired, rel=1e-12):
    """Equal to ``rel`` relative to the largest magnitude (entries may cancel to ~0)."""
    actual, desired = np.asarray(actual), np.asarray(desired)
    assert actual.shape == desired.shape
    assert np.isfinite(actual).all()
    scale = max(float(np.abs(desired).max()), np.finfo(float).tiny)
    assert float(np.abs(actual - desired).max()) <= rel * scale


def random_weights(rng, d_model, d_k, biases=False, s=0.5):
    mats = [rng.standard_normal((d_model, d_k)) * s for _ in range(3)]
    bias = [rng.standard_normal(d_k) * s if biases else None for _ in range(3)]
    return Weights(*mats, *bias)


# --------------------------------------------------------------------- KV cache

@pytest.mark.parametrize("seed", range(8))
def test_decode_with_cache_equals_causal_attention_row_by_row(seed):
    rng = np.random.default_rng(seed)
    n, d_model, d_k = rng.integers(1, 40), rng.integers(1, 20), rng.integers(1, 40)
    X = rng.standard_normal((n, d_model))
    w = random_weights(rng, d_model, d_k, biases=bool(seed % 2))
    options = {"scale": ("sqrt_dk", "none", 3.0)[seed % 3], "temperature": 0.5 + seed / 4}
    result = decode_with_cache(X, w, **options)
    full = attention(X, w, causal=True, **options)
    assert result.outputs.shape == (n, d_k)
    close(result.outputs, full.output, 1e-13)
    for t, step in enumerate(result.steps):
        close(step.output, full.output[t], 1e-13)
        close(step.weights, full.weights[t, :t + 1], 1e-13)
        assert step.K_cache.shape == step.V_cache.shape == (t + 1, d_k)
        close(step.q, full.Q[t], 1e-13)


@pytest.mark.parametrize("options", [
    {"positions": "rope"}, {"positions": "rope", "rope_pairing": "interleaved"},
    {"positions": "sinusoidal"}, {"window": 3}, {"window": 2, "sinks": 1},
    {"alibi_slope": 0.5}, {"positions": "rope", "window": 4, "alibi_slope": 0.25},
    {"mask": np.tri(9, k=-1, dtype=bool).T | np.eye(9, dtype=bool) | np.tri(9, k=-3, dtype=bool)},
])
def test_decode_with_cache_follows_positions_and_masks(options):
    rng = np.random.default_rng(len(str(options)))
    X = rng.standard_normal((9, 6))
    w = random_weights(rng, 6, 4)
    full = attention(X, w, causal=True, **options)
    result = decode_with_cache(X, w, **options)
    close(result.outputs, full.output, 1e-13)
    for t, step in enumerate(result.steps):
        close(step.weights, full.weights[t, :t + 1], 1e-13)
        close(step.output, recompute_step(X, w, t, **options), 1e-13)
        # the keys the mask lets token t see (the lab draws the others masked)
        np.testing.assert_array_equal(step.allowed, full.allowed[t, :t + 1])
    if options.get("positions") == "rope":  # the cache holds the rotated keys
        close(result.steps[-1].K_cache, full.K_rope, 1e-13)


def test_decode_with_a_custom_mask_and_what_it_refuses():
    rng = np.random.default_rng(12)
    X = rng.standard_normal((5, 3))
    w = random_weights(rng, 3, 2)
    mask = np.ones((5, 5), bool)
    mask[3, 1] = mask[4, 0] = False
    close(decode_with_cache(X, w, mask=mask).outputs,
          attention(X, w, causal=True, mask=mask).output, 1e-13)
    with pytest.raises(ValueError, match="prefix"):
        decode_with_cache(X, w, prefix=2)
    empty = np.ones((5, 5), bool)
    empty[2, :3] = False
    with pytest.raises(ValueError, match="query row 2"):
        decode_with_cache(X, w, mask=empty)


def test_the_caches_grow_by_exactly_one_row_and_never_change():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((7, 5))
    w = random_weights(rng, 5, 3)
    steps = decode_with_cache(X, w).steps
    for prev, step in zip(steps, steps[1:], strict=False):
        assert step.K_cache.shape[0] == prev.K_cache.shape[0] + 1
        np.testing.assert_array_equal(step.K_cache[:-1], prev.K_cache)
        np.testing.assert_array_equal(step.V_cache[:-1], prev.V_cache)
        np.testing.assert_array_equal(step.K_cache[-1], step.k)
    with pytest.raises(ValueError):
        steps[0].K_cache[0, 0] = 1.0  # read-only: later steps share the cache


def test_cached_step_is_bit_for_bit_the_recomputation_where_the_sums_are_exact():
    """Small integers make every product and sum of Q, K, V and QKᵀ exact, whatever order
    BLAS adds them in; then the scores and the new weight row agree to the last bit with
    the forward recomputed without a cache (the softmax does the same operations)."""
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, (9, 4)).astype(float)
    w = Weights(*(rng.integers(-2, 3, (4, 4)).astype(float) for _ in range(3)))
    result = decode_with_cache(X, w)
    for t, step in enumerate(result.steps):
        prefix = attention(X[:t + 1], w, causal=True)
        np.testing.assert_array_equal(step.q, prefix.Q[t])
        np.testing.assert_array_equal(step.K_cache, prefix.K)
        np.testing.assert_array_equal(step.V_cache, prefix.V)
        np.testing.assert_array_equal(step.weights, prefix.weights[t])
        close(step.output, recompute_step(X, w, t), 1e-14)


def test_decode_needs_a_causal_self_attention_session():
    X = np.ones((2, 2))
    w = random_weights(np.random.default_rng(0), 2, 2)
    with pytest.raises(ValueError, match="causal"):
        decode_with_cache(X, w, causal=False)
    with pytest.raises(ValueError, match="X_kv"):
        decode_with_cache(X, w, X_kv=X)


def test_multiply_adds_and_cache_memory():
    assert cached_madds(0, 4, 2) == 3 * 4 * 2 + 2 * 2
    assert recomputed_madds(3, 4, 2) == 3 * 4 * 4 * 2 + 2 * 16 * 2
    assert sum(recomputed_madds(t, 8, 4) for t in range(16)) > \
        sum(cached_madds(t, 8, 4) for t in range(16))
    smol = {p.name: p for p in KV_MODEL_PRESETS}["SmolLM2-135M"]
    assert (smol.layers, smol.query_heads, smol.kv_heads, smol.head_dim) == (30, 9, 3, 64)
    # 2 (K and V) × 30 layers × 3 KV heads × 64 × 8192 tokens × 2 bytes (bf16)
    assert kv_cache_bytes(30, 3, 64, 8192, 2) == 2 * 30 * 3 * 64 * 8192 * 2 == 188_743_680
    with pytest.raises(ValueError, match="layers"):
        kv_cache_bytes(-1, 3, 64, 10, 2)


def test_gqa_kv_heads_must_divide_the_query_heads():
    """Each KV head serves query_heads / kv_heads query heads: 9 share 1, 3 or 9, never 4
    (2.25 each) nor 20 (more KV heads than query heads); sizing those was a wrong answer."""
    from qkv_desktop.core.kv_cache import gqa_kv_head_counts, kv_heads_for
    assert gqa_kv_head_counts(9) == (1, 3, 9)
    assert gqa_kv_head_counts(1) == (1,)
    assert gqa_kv_head_counts(12) == (1, 2, 3, 4, 6, 12)
    assert kv_heads_for("GQA", 9, 3) == 3
    for kv in (4, 20, 0):
        with pytest.raises(ValueError, match="divide"):
            kv_heads_for("GQA", 9, kv)
    assert (kv_heads_for("MHA", 9, 4), kv_heads_for("MQA", 9, 4)) == (9, 1)
    with pytest.raises(ValueError, match="query_heads"):
        gqa_kv_head_counts(0)


# -------------------------------------------------------------- online softmax

BLOCKS = (1, 2, 3, 5, 7, 16, 17, 100)


@pytest.mark.parametrize("block", BLOCKS)
def test_online_softmax_equals_softmax_for_any_block_size(block):
    rng = np.random.default_rng(block)
    for n in (1, 5, 16, 17):
        scores = rng.standard_normal((4, n)) * 3
        weights, trace = online_softmax(scores, block)
        close(weights, softmax(scores))
        assert len(trace) == -(-n // block)
        assert trace[-1].stop == n
        np.testing.assert_array_equal(trace[-1].m_new, scores.max(axis=1))
        row, row_trace = online_softmax(scores[0], min(block, n))  # a 1-D row, block = n
        close(row, softmax(scores[0]))


def test_online_softmax_survives_what_breaks_the_naive_formula():
    scores = np.array([1e4, -1e4, 9999.0, 3.0, 1e4 - 0.5, -5.0, 2e3])
    with np.errstate(all="ignore"):
        assert not np.isfinite(softmax(scores, stable=False)).all()
    for block in (1, 2, 3, 7):
        result = online_softmax(scores, block)
        close(result.weights, softmax(scores))
        for b in result.trace:  # every rescale factor is in [0, 1]: no exp of a positive
            assert 0.0 <= float(b.rescale) <= 1.0


def test_online_softmax_trace_is_the_recurrence():
    scores = np.array([0.0, 2.0, 1.0, 5.0, -1.0])
    trace = online_softmax(scores, 2).trace
    assert [(b.start, b.stop) for b in trace] == [(0, 2), (2, 4), (4, 5)]
    assert [float(b.m_new) for b in trace] == [2.0, 5.0, 5.0]
    np.testing.assert_allclose(float(trace[1].rescale), np.exp(2.0 - 5.0))
    np.testing.assert_allclose(float(trace[1].l), (np.exp(-2) + 1) * np.exp(-3) + np.exp(-4) + 1)
    assert float(trace[2].rescale) == 1.0
    np.testing.assert_allclose(float(trace[-1].l), np.exp(scores - 5).sum())


def test_online_softmax_masked_scores_weigh_nothing():
    scores = np.array([[1.0, -np.inf, -np.inf, 2.0], [-np.inf, -np.inf, 0.5, 0.5]])
    weights, _ = online_softmax(scores, 1)
    close(weights, softmax(scores))
    assert weights[0, 1] == weights[1, 0] == 0.0
    with pytest.raises(ValueError):
        online_softmax(scores, 0)


# --------------------------------------------------------------- FlashAttention

def reference_attention(Q, K, V, scale, causal):
    S = Q @ K.T * scale
    if causal:
        S[np.triu(np.ones(S.shape, bool), 1)] = -np.inf
    return softmax(S) @ V


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("block_q,block_k", [(1, 1), (13, 13), (4, 4), (3, 5), (5, 2),
                                             (13, 1), (1, 13), (6, 100)])
def test_flash_attention_equals_attention(block_q, block_k, causal):
    rng = np.random.default_rng(block_q * 31 + block_k)
    n, d_model, d_k = 13, 6, 4
    X = rng.standard_normal((n, d_model))
    w = random_weights(rng, d_model, d_k, biases=True)
    r = attention(X, w, causal=causal)
    output, trace = flash_attention(r.Q, r.K, r.V, block_q=block_q, block_k=block_k,
                                    causal=causal)
    close(output, r.output)
    nq, nk = -(-n // block_q), -(-n // block_k)
    assert len(trace) == nq * nk
    assert [(t.q_block, t.k_block) for t in trace] == [(i, j) for i in range(nq)
                                                       for j in range(nk)]
    for t in trace:  # skipped tiles are exactly the ones wholly in the future
        assert t.skipped == (causal and t.cols[0] > t.rows[1] - 1)
    last = [t for t in trace if t.k_block == nk - 1]
    for t in last:
        close(t.partial, r.output[t.rows[0]:t.rows[1]])
        close(t.m, r.scaled[t.rows[0]:t.rows[1]].max(axis=1))


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_with_scores_that_overflow_exp(causal):
    rng = np.random.default_rng(5)
    Q = rng.choice([-1.0, 1.0], (9, 3)) * 100
    K = rng.choice([-1.0, 1.0], (9, 3)) * 100  # scores of ±3e4 before the scale
    V = rng.standard_normal((9, 2))
    with np.errstate(all="ignore"):
        naive = np.exp(Q @ K.T)
    assert np.isinf(naive).any()
    for bq, bk in ((1, 1), (2, 4), (9, 9), (4, 5)):
        result = flash_attention(Q, K, V, block_q=bq, block_k=bk, scale=1.0, causal=causal)
        close(result.output, reference_attention(Q, K, V, 1.0, causal))


@pytest.mark.parametrize("options", [{"alibi_slope": 0.5, "causal": True},
                                     {"window": 3}, {"window": 2, "causal": True, "sinks": 1},
                                     {"alibi_slope": 0.25, "window": 4}])
def test_flash_attention_with_a_bias_equals_masked_and_alibi_attention(options):
    from qkv_desktop.core.masks import MaskSpec, alibi_bias
    rng = np.random.default_rng(len(str(options)))
    X = rng.standard_normal((11, 5))
    w = random_weights(rng, 5, 4)
    r = attention(X, w, **options)
    spec = MaskSpec(options.get("causal", False), options.get("window"), None,
                    options.get("sinks", 0), None)
    bias = alibi_bias(11, 11, options["alibi_slope"]) if "alibi_slope" in options \
        else np.zeros((11, 11))
    bias[~spec.allowed(11, 11)] = -np.inf
    for bq, bk in ((1, 1), (3, 4), (11, 11), (2, 5)):
        out, trace = flash_attention(r.Q, r.K, r.V, block_q=bq, block_k=bk, bias=bias,
                                     causal=options.get("causal", False))
        close(out, r.output)
        for t in trace:
            tile = bias[t.rows[0]:t.rows[1], t.cols[0]:t.cols[1]]
            assert t.skipped == bool(np.isneginf(tile).all())


def test_flash_attention_scale_defaults_to_one_over_root_dk():
    rng = np.random.default_rng(2)
    Q, K, V = (rng.standard_normal((6, 9)) for _ in range(3))
    default = flash_attention(Q, K, V, block_q=4, block_k=4).output
    close(default, reference_attention(Q, K, V, 1 / 3, False))
    close(flash_attention(Q, K, V, block_q=4, block_k=4, scale=1.0).output,
          reference_attention(Q, K, V, 1.0, False))
    with pytest.raises(ValueError, match="causal"):
        flash_attention(Q, K[:5], V[:5], block_q=2, block_k=2, causal=True)


def test_memory_read_out_is_linear_in_n_for_flash():
    small, large = attention_memory(512, 64, 64, 64), attention_memory(8192, 64, 64, 64)
    assert small.score_matrix == 512 * 512 * 4
    assert large.score_matrix / small.score_matrix == 256
    assert large.flash / small.flash < 17  # ≈ 16 = 8192 / 512: linear
    assert large.standard > 10 * large.flash


# -------------------------------------------------------------------- gradients

def finite_difference(f, A, h=1e-6):
    G = np.zeros_like(A)
    for idx in np.ndindex(A.shape):
        old = A[idx]
        A[idx] = old + h
        up = f()
        A[idx] = old - h
        down = f()
        A[idx] = old
        G[idx] = (up - down) / (2 * h)
    return G


@pytest.mark.parametrize("scale", ["sqrt_dk", "none"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("upstream", ["weights", "output", "both"])
def test_attention_grads_match_central_differences(scale, causal, upstream):
    rng = np.random.default_rng(hash((scale, causal, upstream)) % 2**32)
    n, d_model, d_k = 5, 4, 3
    X = rng.standard_normal((n, d_model))
    arrays = {name: rng.standard_normal((d_model, d_k)) * 0.6
              for name in ("W_Q", "W_K", "W_V")}
    arrays.update({name: rng.standard_normal(d_k) * 0.3 for name in ("b_Q", "b_K", "b_V")})
    GP = rng.standard_normal((n, n))  # L = Σ GP ⊙ P + Σ GO ⊙ O: dL/dP = GP, dL/dO = GO
    GO = rng.standard_normal((n, d_k))
    options = {"scale": scale, "causal": causal, "temperature": 0.8}
    use_p, use_o = upstream in ("weights", "both"), upstream in ("output", "both")

    def loss():
        r = attention(X, Weights(**arrays), **options)
        return (use_p * np.sum(GP * r.weights)) + (use_o * np.sum(GO * r.output))

    grads = attention_grads(X, Weights(**arrays), dL_dweights=GP if use_p else None,
                            dL_doutput=GO if use_o else None, **options)
    for name, A in arrays.items():
        numeric = finite_difference(loss, A)
        if name == "b_K":
            # b_K adds q_i·b_K to every score of row i: softmax ignores it, the gradient is 0
            # (the finite difference is rounding noise around 0).
            assert np.abs(grads.b_K).max() < 1e-14 and np.abs(numeric).max() < 1e-8
            continue
        close(grads[name], numeric, 1e-6)
        close(getattr(grads, name), numeric, 1e-6)


@pytest.mark.parametrize("options", [
    {"positions": "rope"}, {"positions": "rope", "rope_pairing": "interleaved", "causal": True},
    {"positions": "sinusoidal"}, {"alibi_slope": 0.7, "causal": True}, {"window": 2},
])
def test_attention_grads_with_positions_and_masks(options):
    rng = np.random.default_rng(len(str(options)) + 3)
    X = rng.standard_normal((5, 4))
    arrays = {name: rng.standard_normal((4, 4)) * 0.6 for name in ("W_Q", "W_K", "W_V")}
    arrays["b_Q"] = rng.standard_normal(4) * 0.3
    GO = rng.standard_normal((5, 4))

    def loss():
        return np.sum(GO * attention(X, Weights(**arrays), **options).output)

    grads = attention_grads(X, Weights(**arrays), dL_doutput=GO, **options)
    for name, A in arrays.items():
        close(grads[name], finite_difference(loss, A), 1e-6)


def test_attention_grads_cross_attention_and_no_biases():
    rng = np.random.default_rng(9)
    X, X_kv = rng.standard_normal((3, 4)), rng.standard_normal((6, 4))
    arrays = {name: rng.standard_normal((4, 2)) for name in ("W_Q", "W_K", "W_V")}
    GO = rng.standard_normal((3, 2))

    def loss():
        return np.sum(GO * attention(X, Weights(**arrays), X_kv=X_kv).output)

    grads = attention_grads(X, Weights(**arrays), dL_doutput=GO, X_kv=X_kv)
    for name, A in arrays.items():
        close(grads[name], finite_difference(loss, A), 1e-6)
    with pytest.raises(ValueError, match="dL_dweights"):
        attention_grads(X, Weights(**arrays))


def test_pattern_and_output_losses_and_their_gradients():
    rng = np.random.default_rng(4)
    P = softmax(rng.standard_normal((4, 4)))
    T = target_pattern("previous", 4)
    np.testing.assert_array_equal(T.argmax(axis=1), [0, 0, 1, 2])
    loss, dP = pattern_loss(P, T)
    assert loss == pytest.approx(-np.mean(np.log(P[[0, 1, 2, 3], [0, 0, 1, 2]])))
    close(dP, finite_difference(lambda: pattern_loss(P, T)[0], P), 1e-6)
    out, target = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    loss, dO = output_loss(out, target)
    close(dO, finite_difference(lambda: output_loss(out, target)[0], out), 1e-6)
    painted = normalise_pattern([[0, 3, 1], [2, 2, 0], [0, 0, 0]], causal=True)
    np.testing.assert_allclose(painted, [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]])


@pytest.mark.parametrize("kind", ["previous", "first", "diagonal"])
def test_training_learns_a_pattern(kind):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 8))
    w = random_weights(rng, 8, 8, s=0.3)
    T = target_pattern(kind, 6)
    losses = []
    for _ in range(300):
        step = train_step(X, w, T, "pattern", 0.5, causal=True)
        losses.append(step.loss)
        w = step.after
    assert losses[-1] < 0.25 * losses[0]
    P = attention(X, w, causal=True).weights
    np.testing.assert_array_equal(P.argmax(axis=1), T.argmax(axis=1))


def test_scaling_comparison_reports_true_gradient_norms():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((6, 8))
    T = target_pattern("previous", 6)
    runs = scaling_comparison(X, T, d_ks=(4, 64), steps=3, lr=0.1, init_scale=1.0)
    assert [(r.d_k, r.scaled) for r in runs] == [(4, False), (4, True), (64, False), (64, True)]
    for run in runs:
        w = init_weights(8, run.d_k, seed=0, scale=1.0)
        step = train_step(X, w, T, "pattern", 0.1, scale="sqrt_dk" if run.scaled else "none")
        assert run.grad_W_Q[0] == pytest.approx(step.grad_norms()["W_Q"])
        assert run.losses[0] == pytest.approx(step.loss)
        assert len(run.losses) == 3 + 1  # the start and after each step
        # the end is the loss at the weights the run ended with, not before its last step
        opts = {"scale": "sqrt_dk" if run.scaled else "none"}
        for _ in range(3):
            w = train_step(X, w, T, "pattern", 0.1, **opts).after
        end = train_step(X, w, T, "pattern", 0.1, **opts)  # its loss: at the weights reached
        assert run.losses[-1] == pytest.approx(end.loss)
        assert run.grad_W_Q[-1] == pytest.approx(end.grad_norms()["W_Q"])


def test_scaling_comparison_reports_each_step_and_stops_when_asked():
    """The gradient lab's comparison ran for seconds with no progress and no Stop: it
    says each step it trains, and a stop asked ends it before the next step, returning
    only the runs that finished (the one under way is not one)."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((6, 8))
    T = target_pattern("previous", 6)
    calls = []
    kw = {"d_ks": (4, 64), "steps": 3, "lr": 0.1, "progress": lambda *a: calls.append(a)}
    runs = scaling_comparison(X, T, **kw)
    assert calls == [(r, d, s, k) for r, (d, s) in enumerate((d, s) for d in (4, 64)
                                                             for s in (False, True))
                     for k in (1, 2, 3)]
    assert len(runs) == 4
    for asked in (5, 1, 3):  # mid-run, after a run's first step, after a whole run
        calls.clear()
        runs = scaling_comparison(X, T, should_stop=lambda a=asked: len(calls) >= a, **kw)
        assert len(calls) == asked  # no step after the stop
        assert [(r.d_k, r.scaled) for r in runs] == [(4, False)][:asked // 3]
        assert all(len(r.losses) == 3 + 1 for r in runs)


def test_layer_norm_gives_rows_of_mean_0_and_variance_1():
    from qkv_desktop.core.training import layer_norm
    X = get_preset("tutorial-1").X
    Y = layer_norm(X)
    np.testing.assert_allclose(Y.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(Y.var(axis=1), 1, rtol=1e-3)  # (eps = 1e-5)


def test_scaling_comparison_with_the_loss_on_the_output_shows_what_scaling_prevents():
    """The gradient lab's comparison said that unscaled heads' gradients vanish: with the
    weights' cross-entropy they learned faster (a first user's table). Through the
    output, as in a Transformer, the unscaled softmax starts saturated at d_k = 256 and
    those heads end far above the scaled ones; with the cross-entropy they do not."""
    from qkv_desktop.core.training import layer_norm
    X = layer_norm(get_preset("tutorial-1").X)
    n, d = X.shape
    T = normalise_pattern(target_pattern("previous", n))
    kw = {"d_ks": (256,), "steps": 100, "lr": 0.1, "seed": 42, "init_scale": d ** -0.5}
    unscaled, scaled = scaling_comparison(X, T, kind="output", **kw)
    assert unscaled.max_weight > 0.95 > 0.7 > scaled.max_weight  # saturated at the start
    assert unscaled.losses[-1] > 10 * scaled.losses[-1]
    # per output component: the first loss is the output's squared error / d_k
    w = init_weights(d, 256, seed=42, scale=d ** -0.5)
    start = attention(X, w, scale="none")
    step = train_step(X, w, T @ start.V, "output", 0.1 / 256, scale="none")
    assert unscaled.losses[0] == pytest.approx(step.loss / 256)
    assert unscaled.grad_W_Q[0] == pytest.approx(step.grad_norms()["W_Q"] / 256)
    # the weights' cross-entropy: (p − pattern)/n reaches the scores whole
    unscaled, scaled = scaling_comparison(X, T, kind="pattern", **kw)
    assert unscaled.mean_p1p < 1e-3 < scaled.mean_p1p
    assert unscaled.losses[-1] < scaled.losses[-1]
    with pytest.raises(ValueError):
        scaling_comparison(X, T, kind="other", **kw)


def test_the_mean_p1p_of_a_causal_run_counts_visible_keys_only():
    """Masked keys (p = 0) and a causal row 0 (one key, p = 1) are no saturation: the
    lab's mean p(1−p) at the start averages over each row's visible keys, over the rows
    that see more than one, as its max weight beside it does (a domain review: 0.0994
    shown, 0.183 so counted, on tutorial-1 at d_k = 256 with ÷√d_k)."""
    X = get_preset("tutorial-1").X
    T = normalise_pattern(target_pattern("previous", X.shape[0]))
    (_, run), = [scaling_comparison(X, T, d_ks=(256,), steps=1, causal=True)]
    start = attention(X, init_weights(X.shape[1], 256, seed=0, scale=1.0), causal=True)
    p, seen = start.weights, start.allowed
    per_row = [np.mean(p[i][seen[i]] * (1 - p[i][seen[i]]))
               for i in range(len(p)) if seen[i].sum() > 1]
    assert run.mean_p1p == pytest.approx(np.mean(per_row), rel=1e-12)
    assert run.mean_p1p > 1.2 * start.mean_gradient.mean()  # the diluted figure


def test_a_saturated_head_keeps_its_cross_entropy_gradient():
    """Learning rate 100 on the previous-token pattern read loss 708.3964 with
    ‖∂L/∂W_Q‖ = ‖∂L/∂W_K‖ = 0 (a first user): the weights of the target keys had
    underflowed to 0, the loss took log P at its floor 2⁻¹⁰²², and dL/dP = −T/(nP)
    through the softmax's Jacobian multiplied the gradient away. The gradient on the
    scaled scores is (P − T)/n, as large as ever: the loss is computed from them (log P =
    s − max − log Σ exp), so it is the true cross-entropy and the head trains on (at this
    rate it diverges, and the run says so when a number overflows)."""
    from qkv_desktop.core.gradients import attention_grads
    from qkv_desktop.core.training import pattern_loss_on_logits
    X = np.eye(4) * 40.0
    w = Weights(np.eye(4), np.eye(4), np.eye(4))  # scores 800 on the diagonal: one-hot
    T = target_pattern("first", 4)
    r = attention(X, w)
    assert np.all((r.weights == 0) | (r.weights == 1))
    step = train_step(X, w, T, "pattern", 1.0, start_loss=1.0)  # not refused as stuck
    # the true cross-entropy: rows 1–3 put −800 on key 0 (log P = −800 exactly), row 0 0
    assert step.loss == pytest.approx(3 * 800 / 4)
    norms = step.grad_norms()
    assert norms["W_Q"] > 1 and norms["W_K"] > 1
    loss, dS = pattern_loss_on_logits(r.scaled, T)
    np.testing.assert_allclose(dS, (r.weights - T) / 4)
    # the weights' way: the same gradient in exact arithmetic, 0 where P underflowed
    _, dP = pattern_loss(r.weights, T)
    through_p = attention_grads(X, w, dL_dweights=dP)
    assert np.linalg.norm(through_p.W_Q) == 0.0
    assert not np.array_equal(step.after.W_Q, w.W_Q)


def test_the_logits_loss_is_the_weights_loss_where_nothing_underflows():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 6))
    w = init_weights(6, 4, seed=1, scale=0.5)
    T = normalise_pattern(rng.random((5, 5)), causal=True)
    r = attention(X, w, causal=True)
    from qkv_desktop.core.gradients import attention_grads
    from qkv_desktop.core.training import pattern_loss_on_logits
    loss, dS = pattern_loss_on_logits(r.scaled, T)
    loss_p, dP = pattern_loss(r.weights, T)
    assert loss == pytest.approx(loss_p, rel=1e-12)
    a = attention_grads(X, w, dL_dlogits=dS, causal=True)
    b = attention_grads(X, w, dL_dweights=dP, causal=True)
    for name in ("W_Q", "W_K"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-9, atol=1e-12)


def test_a_run_whose_softmax_saturates_on_the_output_stops_as_diverged():
    """On the output (squared error through weights · V) the softmax's Jacobian is 0
    where the weights are 0 or 1: a run that blows up into saturation cannot come back.
    Given the run's starting loss, the step raises ``SoftmaxSaturated`` (a
    ``ValueError``, as an overflow does)."""
    from qkv_desktop.core.training import SoftmaxSaturated
    X = np.eye(4) * 40.0
    w = Weights(np.eye(4), np.eye(4), np.eye(4))
    target = target_pattern("first", 4) @ attention(X, w).V
    with pytest.raises(SoftmaxSaturated) as caught:
        train_step(X, w, target, "output", 1.0, start_loss=1.0)
    stuck = caught.value
    assert isinstance(stuck, ValueError) and stuck.start_loss == 1.0
    assert stuck.step.grad_norms()["W_Q"] == 0 == stuck.step.grad_norms()["W_K"]
    # a head that learned its pattern exactly is one-hot too, at the least loss: no stop
    step = train_step(X, w, target_pattern("diagonal", 4), "pattern", 1.0, start_loss=1.0)
    assert step.loss == 0.0 and step.grad_norms()["W_Q"] == 0.0
    # on the output below its start, W_V still trains: not stuck
    out = train_step(X, w, target, "output", 0.1).loss
    assert train_step(X, w, target, "output", 0.1, start_loss=out).loss == out
