"""A tiny BERT checkpoint written on the fly, shared by the checkpoint, dialog and render tests.

``write_checkpoint(folder)`` lays out a folder as Hugging Face does (``config.json``,
``model.safetensors``, ``tokenizer.json`` or ``vocab.txt``) with random float32 weights
over an 18-word vocabulary: 3 layers, 2 heads, d_model 8, so every test that opens a
real checkpoint runs in milliseconds and needs no download.
"""

import json
import math

import numpy as np
from safetensors.numpy import save_file
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "chased", "mouse",
         "dog", "a", "sat", "on", "mat", "un", "##believ", "##able", "##s"]
SENTENCE = "The cat chased the mouse"
TOKENS = ["[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]"]
CONFIG = {"model_type": "bert", "hidden_size": 8, "num_attention_heads": 2,
          "num_hidden_layers": 3, "intermediate_size": 16, "vocab_size": len(VOCAB),
          "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
          "hidden_act": "gelu"}
LAYER_PARTS = {"attention.self.query": "dd", "attention.self.key": "dd",
               "attention.self.value": "dd", "attention.output.dense": "dd",
               "intermediate.dense": "id", "output.dense": "di"}


def random_tensors(config=CONFIG, seed=0):
    """Canonical-named float32 tensors of a BERT encoder, LayerNorms near identity."""
    rng = np.random.default_rng(seed)
    d, inner = config["hidden_size"], config["intermediate_size"]
    size = {"d": d, "i": inner}
    t = {"embeddings.word_embeddings.weight": rng.normal(size=(config["vocab_size"], d)),
         "embeddings.position_embeddings.weight": rng.normal(
             size=(config["max_position_embeddings"], d)),
         "embeddings.token_type_embeddings.weight": rng.normal(size=(2, d)),
         "embeddings.LayerNorm.weight": 1 + 0.2 * rng.normal(size=d),
         "embeddings.LayerNorm.bias": 0.2 * rng.normal(size=d)}
    for layer in range(config["num_hidden_layers"]):
        base = f"encoder.layer.{layer}."
        for part, (out, inp) in LAYER_PARTS.items():
            t[base + part + ".weight"] = rng.normal(size=(size[out], size[inp])) / math.sqrt(
                size[inp]) * 1.5
            t[base + part + ".bias"] = 0.3 * rng.normal(size=size[out])
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            t[base + norm + ".weight"] = 1 + 0.2 * rng.normal(size=d)
            t[base + norm + ".bias"] = 0.2 * rng.normal(size=d)
    return {k: v.astype(np.float32) for k, v in t.items()}


def json_tokenizer(pad_to=None, truncate_to=None):
    """A BERT WordPiece tokenizer over VOCAB, optionally padding and truncating."""
    tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    if pad_to:
        tok.enable_padding(length=pad_to, pad_id=0, pad_token="[PAD]")
    if truncate_to:
        tok.enable_truncation(max_length=truncate_to)
    return tok


def write_checkpoint(folder, *, tensors=None, config=None, prefix="bert.",
                     tokenizer="json", tokenizer_config=None, extra=True):
    """A checkpoint folder as Hugging Face writes it; returns the canonical tensors."""
    folder.mkdir(parents=True, exist_ok=True)
    tensors = random_tensors() if tensors is None else tensors
    stored = {prefix + k: v for k, v in tensors.items()}
    if extra:  # tensors a BERT file carries that the encoder forward must ignore
        stored[prefix + "embeddings.position_ids"] = np.arange(16, dtype=np.int64)[None]
        stored[prefix + "pooler.dense.weight"] = np.zeros((8, 8), np.float32)
    save_file(stored, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps(config or CONFIG))
    if tokenizer == "json":
        json_tokenizer(pad_to=16, truncate_to=4).save(str(folder / "tokenizer.json"))
    elif tokenizer == "vocab":
        (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n")
    if tokenizer_config is not None:
        (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    return tensors
