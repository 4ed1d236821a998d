"""The session's options as the core's arguments: written once, for every caller.

``compute`` (all heads), ``head_inputs`` (one head, for the labs) and the KV-cache lab
must give the core the same options, or a lab would disagree with the panes. So the
mapping from ``Options`` (and the mask rules of ``SessionState.mask_spec``) to the
keyword arguments of ``core.attention`` / ``core.multi_head_attention`` lives here.
"""

from __future__ import annotations

import numpy as np

from qkv_desktop.state.session_state import Options, SessionState

__all__ = ["core_dtype", "core_options"]


def core_dtype(options: Options) -> type[np.floating]:
    """The NumPy float type the core computes in for ``options.dtype``."""
    return np.float32 if options.dtype == "float32" else np.float64


def core_options(state: SessionState) -> dict:
    """The keyword arguments every head shares: scaling, softmax, positions, masks.

    Not included: the inputs (X, X_kv), the weights and ALiBi, which the multi-head
    call takes as ``alibi`` (all slopes) and one head as ``alibi_slope``.
    """
    o = state.options
    spec = state.mask_spec()
    return {"scale": o.scale, "temperature": o.temperature, "causal": spec.causal,
            "stable": o.stable,
            "positions": None if o.positions == "none" else o.positions,
            "rope_base": o.rope_base, "rope_pairing": o.rope_pairing,
            "window": spec.window, "prefix": spec.prefix, "sinks": spec.sinks,
            "mask": spec.custom}
