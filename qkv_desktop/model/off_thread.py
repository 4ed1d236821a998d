"""Which states are computed and drawn off the GUI thread: one rule for all of it.

A state's forward, its lesson read-outs and its panes' pictures either all run on
workers or all run on the GUI thread. There used to be two thresholds (300,000 score
cells over all heads for the forward, 262,144 cells of one matrix for a picture):
between them a state was computed on the GUI thread and its pictures made one worker
round later, and a session of many tokens and few dimensions the other way round
(issue 20). The rule measures the largest thing a forward or a picture handles at once.
"""

from __future__ import annotations

from qkv_desktop.state.session_state import SessionState

__all__ = ["OFF_THREAD_CELLS", "state_cells", "off_thread"]

OFF_THREAD_CELLS = 1 << 18
"""States with more cells than this (512 × 512) are computed and drawn off the GUI
thread; a smaller one costs less than a frame where it is asked for."""


def state_cells(state: SessionState) -> int:
    """The cells of the largest thing ``state``'s forward or a picture handles: every
    head's scores (n × m × heads), or the widest matrix a pane draws (the tokens × the
    model's or the heads' concatenated dimensions: X, X_kv, the output, the concatenation)."""
    n, m = state.n, state.n_keys
    kv = 0 if state.X_kv is None else state.X_kv.shape[0]
    width = max(state.d_model, state.n_heads * state.d_k)
    return max(n * m * state.n_heads, max(n, m, kv) * width)


def off_thread(state: SessionState) -> bool:
    """Whether ``state``'s forward, read-outs and pictures run off the GUI thread."""
    return state_cells(state) > OFF_THREAD_CELLS
