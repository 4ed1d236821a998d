"""A tiny random LLaMA written on the fly as a GGUF file with ``gguf.GGUFWriter``.

3 layers, d_model 64, 4 query heads sharing 2 key/value heads (GQA 4:2, head size 16),
RoPE base 500, a SwiGLU of 96 and a byte-level BPE vocabulary of the 256 byte
characters, a few merges and one control token. The weights are drawn in Hugging Face's
layout (torch ``Linear``: out × in) and W_Q / W_K rows are permuted exactly as
llama.cpp's ``convert_hf_to_gguf.py`` does before they are written, so reading the file
back must undo it. ``hf`` holds the float64 values of what was written (after any
quantisation), which the independent reference forward in the tests uses.
"""

from __future__ import annotations

import gguf
import numpy as np

CONFIG = {"n_layers": 3, "d_model": 64, "n_heads": 4, "n_kv_heads": 2, "ffn": 96,
          "context": 32, "rope_base": 500.0, "eps": 1e-5}
CONTROL = "<|endoftext|>"
MERGES = [("Ġ", "c"), ("a", "t"), ("Ġc", "at"), ("Ġ", "s"), ("Ġs", "at"), ("t", "h"),
          ("th", "e"), ("Ġ", "the")]


def byte_chars() -> list[str]:
    """GPT-2's 256 byte stand-ins, in byte order (written out here independently)."""
    keep = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    chars, extra = [], 0
    for b in range(256):
        if b in keep:
            chars.append(chr(b))
        else:
            chars.append(chr(256 + extra))
            extra += 1
    return chars


def vocabulary() -> list[str]:
    return [CONTROL] + byte_chars() + ["".join(m) for m in MERGES]


def converter_permute(W: np.ndarray, n_heads: int) -> np.ndarray:
    """llama.cpp's ``LlamaModel.permute``: HF rows → rows that rotate as neighbours."""
    return (W.reshape(n_heads, 2, W.shape[0] // n_heads // 2, *W.shape[1:])
            .swapaxes(1, 2).reshape(W.shape))


def random_hf_tensors(seed: int = 0, config=CONFIG) -> dict[str, np.ndarray]:
    """Float32 weights under Hugging Face names (out × in), norms near 1."""
    rng = np.random.default_rng(seed)
    d, f = config["d_model"], config["ffn"]
    hd = d // config["n_heads"]
    kvd = config["n_kv_heads"] * hd
    v = len(vocabulary())

    def m(*shape, scale=0.3):
        return (scale * rng.normal(size=shape)).astype(np.float32)

    t = {"embed": m(v, d, scale=1.0), "norm": (1 + m(d, scale=0.1))}
    for i in range(config["n_layers"]):
        t.update({f"{i}.q": m(d, d), f"{i}.k": m(kvd, d), f"{i}.v": m(kvd, d),
                  f"{i}.o": m(d, d), f"{i}.gate": m(f, d), f"{i}.up": m(f, d),
                  f"{i}.down": m(d, f), f"{i}.attn_norm": 1 + m(d, scale=0.1),
                  f"{i}.ffn_norm": 1 + m(d, scale=0.1)})
    return t


def write_tiny_llama(path, *, qtype: str = "F32", seed: int = 0, arch: str = "llama",
                     config=CONFIG, tied: bool = True, override_type: dict | None = None):
    """Write the model to ``path``; returns the float64 HF-layout tensors as stored.

    ``qtype`` quantises the matrices (not the norms) through ``gguf.quants``;
    ``override_type`` maps a GGUF tensor name to a raw type to store it as instead.
    """
    t = random_hf_tensors(seed, config)
    w = gguf.GGUFWriter(str(path), arch)
    w.add_block_count(config["n_layers"])
    w.add_context_length(config["context"])
    w.add_embedding_length(config["d_model"])
    w.add_feed_forward_length(config["ffn"])
    w.add_head_count(config["n_heads"])
    w.add_head_count_kv(config["n_kv_heads"])
    w.add_rope_freq_base(config["rope_base"])
    w.add_layer_norm_rms_eps(config["eps"])
    w.add_rope_dimension_count(config["d_model"] // config["n_heads"])
    vocab = vocabulary()
    w.add_vocab_size(len(vocab))
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("smollm")
    w.add_token_list(vocab)
    w.add_token_types([3] + [1] * (len(vocab) - 1))
    w.add_token_merges([f"{a} {b}" for a, b in MERGES])
    stored: dict[str, np.ndarray] = {}

    def put(gguf_name: str, hf_key: str, array: np.ndarray, kind: str, permute: int = 0):
        data = converter_permute(array, permute) if permute else array
        kind = (override_type or {}).get(gguf_name, kind)
        qt = gguf.GGMLQuantizationType[kind]
        if kind == "F32":
            w.add_tensor(gguf_name, data)
            back = data
        elif kind in ("I32", "F64"):
            raw = data.astype(np.int32 if kind == "I32" else np.float64)
            w.add_tensor(gguf_name, raw, raw_dtype=qt)
            back = data
        else:
            q = gguf.quants.quantize(data, qt)
            w.add_tensor(gguf_name, q, raw_dtype=qt)
            back = gguf.quants.dequantize(q, qt)
        back = np.asarray(back, dtype=np.float64)
        if permute:  # what the file holds, in HF order again (inverse by independent means)
            inverse = np.argsort(converter_permute(np.arange(array.shape[0]), permute))
            back = back[inverse]
        stored[hf_key] = back

    put("token_embd.weight", "embed", t["embed"], qtype)
    put("output_norm.weight", "norm", t["norm"], "F32")
    if not tied:
        put("output.weight", "lm_head", t["embed"][::-1].copy(), qtype)
    for i in range(config["n_layers"]):
        b = f"blk.{i}."
        put(b + "attn_norm.weight", f"{i}.attn_norm", t[f"{i}.attn_norm"], "F32")
        put(b + "attn_q.weight", f"{i}.q", t[f"{i}.q"], qtype, config["n_heads"])
        put(b + "attn_k.weight", f"{i}.k", t[f"{i}.k"], qtype, config["n_kv_heads"])
        put(b + "attn_v.weight", f"{i}.v", t[f"{i}.v"], qtype)
        put(b + "attn_output.weight", f"{i}.o", t[f"{i}.o"], qtype)
        put(b + "ffn_norm.weight", f"{i}.ffn_norm", t[f"{i}.ffn_norm"], "F32")
        put(b + "ffn_gate.weight", f"{i}.gate", t[f"{i}.gate"], qtype)
        put(b + "ffn_up.weight", f"{i}.up", t[f"{i}.up"], qtype)
        put(b + "ffn_down.weight", f"{i}.down", t[f"{i}.down"], qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return stored
