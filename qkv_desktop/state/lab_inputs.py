"""One head of the session as the labs' core functions take it: X, weights, options.

The same conversions ``compute`` applies (dtype, Q tied to K when shared, causal only
for self-attention), so a lab's numbers are the panes' numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.weights import Weights
from qkv_desktop.state.core_options import core_dtype, core_options
from qkv_desktop.state.session_state import SessionState

__all__ = ["HeadInputs", "head_inputs"]


@dataclass(frozen=True, eq=False)
class HeadInputs:
    """``X`` (and ``X_kv`` for cross-attention), one head's ``weights`` and ``options``
    (scale, temperature, causal, stable, X_kv) ready for ``attention(X, weights, **options)``."""

    X: np.ndarray
    weights: Weights
    options: dict
    cross: bool

    @property
    def causal(self) -> bool:
        return bool(self.options["causal"])


def head_inputs(state: SessionState, head: int = 0) -> HeadInputs:
    """Head ``head`` of ``state`` (clamped to the heads there are), with every option
    ``compute`` gives it: positions, RoPE, the mask rules and this head's ALiBi slope."""
    o = state.options
    dtype = core_dtype(o)
    head = state.head_index(head)
    w = state.heads[head]
    if o.share_qk:
        w = w.tied()
    cross = state.mode == "cross"
    options = {**core_options(state),
               "X_kv": state.X_kv.astype(dtype, copy=False) if cross else None,
               "alibi_slope": None if o.alibi is None else float(o.alibi[head])}
    return HeadInputs(state.X.astype(dtype, copy=False), w, options, cross)
