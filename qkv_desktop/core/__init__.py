"""The attention mathematics in pure NumPy: no Qt, usable from a notebook.

>>> from qkv_desktop.core import init_weights, attention
>>> r = attention(X, init_weights(d_model=8, d_k=4, seed=42, scale=0.1))
>>> r.weights.sum(axis=1)  # each row sums to 1
"""

from importlib import import_module

from qkv_desktop.core.attention import (
    POSITION_KINDS,
    AttentionResult,
    ScoreOverflowError,
    attention,
    divisor_for,
)
from qkv_desktop.core.flash_attention import (
    AttentionMemory,
    FlashResult,
    TileVisit,
    attention_memory,
    flash_attention,
)
from qkv_desktop.core.lessons import (
    DEMO_SCORES,
    RowStats,
    ScalingSweep,
    SoftmaxComparison,
    asymmetry,
    compare_softmax,
    dot_product_demo,
    row_stats,
    scaling_sweep,
    session_sweep,
)
from qkv_desktop.core.masks import REASONS, EmptyRowError, MaskSpec, alibi_bias, alibi_slopes
from qkv_desktop.core.multihead import MultiHeadResult, init_multihead_weights, multi_head_attention
from qkv_desktop.core.online_softmax import OnlineSoftmaxResult, SoftmaxBlock, online_softmax
from qkv_desktop.core.positions import ROPE_PAIRINGS, rope, rope_angles, sinusoidal_positions
from qkv_desktop.core.presets import PRESETS, Preset, get_preset
from qkv_desktop.core.softmax import softmax
from qkv_desktop.core.weights import Weights, init_weights

__all__ = [
    "AttentionResult", "ScoreOverflowError", "attention", "divisor_for", "softmax", "Weights", "init_weights",
    "MultiHeadResult", "multi_head_attention", "init_multihead_weights",
    "Preset", "PRESETS", "get_preset",
    "DEMO_SCORES", "RowStats", "ScalingSweep", "SoftmaxComparison", "asymmetry",
    "compare_softmax", "dot_product_demo", "row_stats", "scaling_sweep", "session_sweep",
    "ROPE_PAIRINGS", "rope", "rope_angles", "sinusoidal_positions", "POSITION_KINDS",
    "MaskSpec", "EmptyRowError", "REASONS", "alibi_slopes", "alibi_bias",
    # how attention runs and learns (issue 23)
    "decode_with_cache", "recompute_step", "DecodeResult", "DecodeStep", "KVModelShape",
    "KV_MODEL_PRESETS", "kv_cache_bytes",
    "online_softmax", "OnlineSoftmaxResult", "SoftmaxBlock",
    "flash_attention", "FlashResult", "TileVisit", "AttentionMemory", "attention_memory",
    "attention_grads", "AttentionGrads",
    "train_step", "TrainStep", "target_pattern", "PATTERNS", "scaling_comparison", "ScalingRun",
    # the decoder (issue 21)
    "LlamaLayerWeights", "even_first_token_mass", "first_token_mass", "kv_head_for",
    "llama_layer",
    "rms_norm", "silu", "swiglu",
]

_LAZY = {
    # Lessons and labs the first window does not show: imported on first use, so that
    # start-up does not pay for them (``__getattr__``, PEP 562). Not flash_attention or
    # online_softmax: importing either module would make its name here the module.
    "AttentionGrads": "gradients",
    "attention_grads": "gradients",
    "KV_MODEL_PRESETS": "kv_cache",
    "DecodeResult": "kv_cache",
    "DecodeStep": "kv_cache",
    "KVModelShape": "kv_cache",
    "decode_with_cache": "kv_cache",
    "kv_cache_bytes": "kv_cache",
    "recompute_step": "kv_cache",
    "LlamaLayerWeights": "llama",
    "even_first_token_mass": "llama",
    "first_token_mass": "llama",
    "kv_head_for": "llama",
    "llama_layer": "llama",
    "rms_norm": "llama",
    "silu": "llama",
    "swiglu": "llama",
    "PATTERNS": "training",
    "ScalingRun": "training",
    "TrainStep": "training",
    "scaling_comparison": "training",
    "target_pattern": "training",
    "train_step": "training",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
