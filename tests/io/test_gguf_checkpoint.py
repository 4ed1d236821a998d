"""Opening LLaMA GGUF files: a tiny random one written by ``tests/io/tiny_llama.py``
against an independent reference forward, quantised types, and bad files.

The reference below is written from the Hugging Face LLaMA formulas with plain loops
(``rotate_half`` RoPE, per-query masking, no code shared with the app), in float64 on
exactly the values stored in the file.
"""

import math
import shutil

import numpy as np
import pytest

pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
pytest.importorskip("tokenizers", reason="GGUF models need: pip install tokenizers")

import gguf  # noqa: E402

from qkv_desktop.core import attention  # noqa: E402
from qkv_desktop.io.checkpoint import CheckpointError  # noqa: E402
from qkv_desktop.io.gguf_checkpoint import load_gguf, unpermute_rope_rows  # noqa: E402
from qkv_desktop.state.compute import compute  # noqa: E402
from tests.io.tiny_llama import (  # noqa: E402
    CONFIG,
    converter_permute,
    vocabulary,
    write_tiny_llama,
)

TEXT = "the cat sat"


# -- the independent reference ---------------------------------------------------------------
def reference_forward(t, ids, c=CONFIG):
    """Layer inputs, per-layer attention probabilities and next-token probabilities."""
    n, d, H, KV = len(ids), c["d_model"], c["n_heads"], c["n_kv_heads"]
    hd, eps = d // H, c["eps"]
    x = np.array([t["embed"][i] for i in ids])
    inv = 1.0 / c["rope_base"] ** (np.arange(0, hd, 2) / hd)
    emb = np.concatenate([np.outer(np.arange(n), inv)] * 2, axis=1)  # HF: cat(freqs, freqs)
    cos, sin = np.cos(emb), np.sin(emb)

    def norm(v, g):
        return v / np.sqrt((v ** 2).mean(axis=1, keepdims=True) + eps) * g

    def rot(v):  # HF apply_rotary_pos_emb: v·cos + rotate_half(v)·sin
        half = np.concatenate([-v[:, hd // 2:], v[:, :hd // 2]], axis=1)
        return v * cos + half * sin

    inputs, probs = [x], []
    for layer in range(c["n_layers"]):
        a = norm(x, t[f"{layer}.attn_norm"])
        q, k, v = a @ t[f"{layer}.q"].T, a @ t[f"{layer}.k"].T, a @ t[f"{layer}.v"].T
        ctx, layer_p = np.zeros((n, H * hd)), np.zeros((H, n, n))
        for h in range(H):
            g = h // (H // KV)
            qh = rot(q[:, h * hd:(h + 1) * hd])
            kh = rot(k[:, g * hd:(g + 1) * hd])
            vh = v[:, g * hd:(g + 1) * hd]
            for i in range(n):
                s = np.array([qh[i] @ kh[j] / math.sqrt(hd) for j in range(i + 1)])
                e = np.exp(s - s.max())
                layer_p[h, i, :i + 1] = e / e.sum()
                ctx[i, h * hd:(h + 1) * hd] = layer_p[h, i, :i + 1] @ vh[:i + 1]
        probs.append(layer_p)
        x = x + ctx @ t[f"{layer}.o"].T
        b = norm(x, t[f"{layer}.ffn_norm"])
        gate = b @ t[f"{layer}.gate"].T
        x = x + ((gate / (1 + np.exp(-gate))) * (b @ t[f"{layer}.up"].T)) @ t[f"{layer}.down"].T
        inputs.append(x)
    last = norm(x[-1:], t["norm"])[0]
    logits = (t["lm_head"] if "lm_head" in t else t["embed"]) @ last
    p = np.exp(logits - logits.max())
    return inputs, probs, p / p.sum()


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny-llama.gguf"
    return path, write_tiny_llama(path)


def ids_of(*pieces):
    vocab = vocabulary()
    return [vocab.index(p) for p in pieces]


# -- the tiny model ---------------------------------------------------------------------------
def test_tokenizer_builds_byte_level_bpe_from_the_files_merges(tiny):
    ckpt = load_gguf(tiny[0])
    enc = ckpt.encode(TEXT)
    assert enc.tokens == ["the", "Ġcat", "Ġsat"]
    assert enc.ids == ids_of("the", "Ġcat", "Ġsat")
    assert ckpt.tokenize(TEXT) == ["the", " cat", " sat"]
    assert ckpt.encode("<|endoftext|> cat").ids == [0, *ids_of("Ġcat")]  # control token kept whole
    assert [label.special for label in ckpt.labels("<|endoftext|> cat")] == [True, False]


def test_residual_stream_attention_and_next_token_match_the_reference(tiny):
    path, t = tiny
    ckpt = load_gguf(path)
    ids = ckpt.encode(TEXT).ids
    inputs, probs, p_next = reference_forward(t, ids)
    for layer in range(CONFIG["n_layers"] + 1):
        np.testing.assert_allclose(ckpt.residual(TEXT, layer), inputs[layer], rtol=0, atol=1e-10)
    for layer in range(CONFIG["n_layers"]):
        own = ckpt.layer_attention(TEXT, layer)
        np.testing.assert_allclose(own, probs[layer], rtol=0, atol=1e-10)
        for head in range(CONFIG["n_heads"]):  # the session shows the model's own numbers
            r = compute(ckpt.session_state(TEXT, layer, head)).head(0)
            np.testing.assert_allclose(r.weights, probs[layer][head], rtol=0, atol=1e-10)
            assert (r.weights[np.triu_indices(len(ids), 1)] == 0).all()
    top = ckpt.next_tokens(TEXT)
    assert [x.id for x in top] == list(np.argsort(-p_next, kind="stable")[:5])
    np.testing.assert_allclose([x.probability for x in top], np.sort(p_next)[::-1][:5],
                               rtol=0, atol=1e-10)


def test_untied_output_head_is_used_when_present(tmp_path):
    path = tmp_path / "untied.gguf"
    t = write_tiny_llama(path, tied=False, seed=3)
    ckpt = load_gguf(path)
    _, _, p_next = reference_forward(t, ckpt.encode(TEXT).ids)
    np.testing.assert_allclose(ckpt.next_tokens(TEXT)[0].probability, p_next.max(), atol=1e-10)


def test_gqa_heads_share_key_value_weights(tiny):
    path, t = tiny
    ckpt = load_gguf(path)
    hd = CONFIG["d_model"] // CONFIG["n_heads"]
    assert ckpt.group_size == 2 and [ckpt.kv_group(h) for h in range(4)] == [0, 0, 1, 1]
    for h in range(4):
        w = ckpt.head_weights(1, h)
        g = h // 2
        np.testing.assert_array_equal(w.W_Q, t["1.q"][h * hd:(h + 1) * hd].T)
        np.testing.assert_array_equal(w.W_K, t["1.k"][g * hd:(g + 1) * hd].T)
        np.testing.assert_array_equal(w.W_V, t["1.v"][g * hd:(g + 1) * hd].T)
    budget = ckpt.attention_budget(10)
    d, layers = CONFIG["d_model"], CONFIG["n_layers"]
    assert budget["params_mha"] == 4 * d * d * layers
    assert budget["params_gqa"] == (2 * d * d + 2 * d * 2 * hd) * layers
    assert budget["kv_bytes_mha"] == 2 * budget["kv_bytes_gqa"] == 2 * layers * 4 * hd * 2 * 10


def test_llama_cpp_order_with_interleaved_pairs_gives_the_same_attention(tiny):
    """The file's own (permuted) rows rotated as neighbours equal the un-permuted rows
    rotated as halves: the README's statement about which dimensions pair up."""
    path, t = tiny
    ckpt = load_gguf(path)
    reader = gguf.GGUFReader(str(path))
    raw = {x.name: gguf.quants.dequantize(x.data, x.tensor_type).astype(np.float64)
           for x in reader.tensors}
    hd = CONFIG["d_model"] // CONFIG["n_heads"]
    _, X = ckpt.layer_input(TEXT, 2)
    for head in range(4):
        ours = compute(ckpt.session_state(TEXT, 2, head)).head(0)
        g = head // 2
        from qkv_desktop.core import Weights
        w = Weights(raw["blk.2.attn_q.weight"][head * hd:(head + 1) * hd].T,
                    raw["blk.2.attn_k.weight"][g * hd:(g + 1) * hd].T,
                    raw["blk.2.attn_v.weight"][g * hd:(g + 1) * hd].T)
        theirs = attention(X, w, causal=True, positions="rope",
                           rope_base=CONFIG["rope_base"], rope_pairing="interleaved")
        np.testing.assert_allclose(theirs.weights, ours.weights, rtol=0, atol=1e-12)
        assert not np.allclose(theirs.Q, ours.Q)  # the layouts really differ
    W = np.arange(24.0).reshape(8, 3)
    np.testing.assert_array_equal(unpermute_rope_rows(converter_permute(W, 2), 2), W)


@pytest.mark.parametrize("qtype", ["F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1"])
def test_quantised_types_round_trip_through_gguf_quants(tmp_path, qtype):
    path = tmp_path / f"tiny-{qtype}.gguf"
    t = write_tiny_llama(path, qtype=qtype, seed=1)
    ckpt = load_gguf(path)
    assert qtype in ckpt.tensor_types and ckpt.tensor_types["F32"] == 2 * CONFIG["n_layers"] + 1
    exact = write_tiny_llama(tmp_path / "exact.gguf", seed=1)
    error = np.abs(t["0.q"] - exact["0.q"]).max()
    assert 0 < error < {"F16": 1e-3, "BF16": 1e-2, "Q8_0": 0.02}.get(qtype, 0.2)
    inputs, probs, p_next = reference_forward(t, ckpt.encode(TEXT).ids)
    np.testing.assert_allclose(ckpt.residual(TEXT, 3), inputs[3], rtol=0, atol=1e-10)
    np.testing.assert_allclose(ckpt.layer_attention(TEXT, 1), probs[1], rtol=0, atol=1e-10)


# -- bad files and requests --------------------------------------------------------------------
def test_other_architecture_is_refused_by_name(tmp_path):
    path = tmp_path / "gpt2.gguf"
    write_tiny_llama(path, arch="gpt2")
    with pytest.raises(CheckpointError, match="architecture 'gpt2' is not supported"):
        load_gguf(path)


def test_unsupported_tensor_type_is_refused_by_name(tmp_path):
    path = tmp_path / "i32.gguf"
    write_tiny_llama(path, override_type={"blk.1.attn_v.weight": "I32"})
    with pytest.raises(CheckpointError, match=r"tensor blk\.1\.attn_v\.weight is stored as "
                                              r"I32.*supported: F32"):
        load_gguf(path)


def test_truncated_file_is_refused(tiny, tmp_path):
    cut = tmp_path / "cut.gguf"
    data = tiny[0].read_bytes()
    for size in (len(data) - 100, len(data) // 2, 40):
        cut.write_bytes(data[:size])
        with pytest.raises(CheckpointError, match="truncated|not a readable GGUF"):
            load_gguf(cut)


def test_not_a_gguf_file_and_a_missing_file(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model at all" * 10)
    with pytest.raises(CheckpointError, match="not a readable GGUF"):
        load_gguf(junk)
    with pytest.raises(CheckpointError, match="does not exist"):
        load_gguf(tmp_path / "absent.gguf")


def test_layer_head_and_text_are_checked_before_anything_runs(tiny):
    ckpt = load_gguf(tiny[0])
    with pytest.raises(CheckpointError, match=r"layer 3 is out of range: .* layers 0 … 2"):
        ckpt.session_state(TEXT, 3, 0)
    with pytest.raises(CheckpointError, match=r"head 4 is out of range: .* heads 0 … 3"):
        ckpt.session_state(TEXT, 0, 4)
    with pytest.raises(CheckpointError, match="layer must be an integer"):
        ckpt.session_state(TEXT, True, 0)
    with pytest.raises(CheckpointError, match="text is empty"):
        ckpt.session_state("  ", 0, 0)
    with pytest.raises(CheckpointError, match=r"text has 40 tokens; tiny-llama reads at most 32"):
        ckpt.session_state(" cat" * 40, 0, 0)


def test_a_stopped_run_keeps_the_previous_results(tiny):
    ckpt = load_gguf(tiny[0])
    before = ckpt.residual(TEXT, 2)

    def stop(done, total, message):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ckpt.run("the cat", stop)
    assert ckpt.residual(TEXT, 2) is before  # still cached: the stopped run left nothing


def test_copy_of_file_opens_under_its_own_name(tiny, tmp_path):
    other = tmp_path / "renamed.gguf"
    shutil.copy(tiny[0], other)
    ckpt = load_gguf(other)
    assert ckpt.name == "renamed" and ckpt.provenance(TEXT, 1, 2) == {
        "name": "renamed", "kind": "decoder", "source": "file", "location": str(other),
        "text": TEXT, "layer": 1, "head": 2, "n_layers": 3, "n_heads": 4}
