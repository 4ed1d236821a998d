"""The attention mathematics in pure NumPy: no Qt, usable from a notebook.

>>> from qkv_desktop.core import init_weights, attention
>>> r = attention(X, init_weights(d_model=8, d_k=4, seed=42, scale=0.1))
>>> r.weights.sum(axis=1)  # each row sums to 1
"""

from qkv_desktop.core.attention import POSITION_KINDS, AttentionResult, attention, divisor_for
from qkv_desktop.core.flash_attention import (
    AttentionMemory,
    FlashResult,
    TileVisit,
    attention_memory,
    flash_attention,
)
from qkv_desktop.core.gradients import AttentionGrads, attention_grads
from qkv_desktop.core.kv_cache import (
    KV_MODEL_PRESETS,
    DecodeResult,
    DecodeStep,
    KVModelShape,
    decode_with_cache,
    kv_cache_bytes,
    recompute_step,
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
from qkv_desktop.core.llama import (
    LlamaLayerWeights,
    first_token_mass,
    kv_head_for,
    llama_layer,
    rms_norm,
    silu,
    swiglu,
)
from qkv_desktop.core.masks import REASONS, EmptyRowError, MaskSpec, alibi_bias, alibi_slopes
from qkv_desktop.core.multihead import MultiHeadResult, init_multihead_weights, multi_head_attention
from qkv_desktop.core.online_softmax import OnlineSoftmaxResult, SoftmaxBlock, online_softmax
from qkv_desktop.core.positions import ROPE_PAIRINGS, rope, rope_angles, sinusoidal_positions
from qkv_desktop.core.presets import PRESETS, Preset, get_preset
from qkv_desktop.core.softmax import softmax
from qkv_desktop.core.training import (
    PATTERNS,
    ScalingRun,
    TrainStep,
    scaling_comparison,
    target_pattern,
    train_step,
)
from qkv_desktop.core.weights import Weights, init_weights

__all__ = [
    "AttentionResult", "attention", "divisor_for", "softmax", "Weights", "init_weights",
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
    "LlamaLayerWeights", "first_token_mass", "kv_head_for", "llama_layer",
    "rms_norm", "silu", "swiglu",
]
