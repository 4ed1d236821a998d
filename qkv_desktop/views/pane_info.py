"""What each heatmap pane shows: its matrix, title formula and axis labels.

Shared by the live panes and the exported figures so both say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QCoreApplication

from ..model.compute import ModelResult

__all__ = ["PANES", "PaneInfo", "pane_title", "pane_matrix", "pane_labels"]


@dataclass(frozen=True)
class PaneInfo:
    """``key`` names the matrix (as in ``matrices.npz``); ``file`` names exports."""

    key: str
    file: str
    rows: str  # "queries" or "keys": which tokens label the rows
    cols: str  # "dims", "d_k" or "keys"


PANES: tuple[PaneInfo, ...] = (
    PaneInfo("X", "x", "queries", "dims"),
    PaneInfo("Q", "q", "queries", "d_k"),
    PaneInfo("K", "k", "keys", "d_k"),
    PaneInfo("V", "v", "keys", "d_k"),
    PaneInfo("scores", "scores", "queries", "keys"),
    PaneInfo("scaled", "scaled", "queries", "keys"),
    PaneInfo("weights", "weights", "queries", "keys"),
    PaneInfo("output", "output", "queries", "d_k"),
)
PANE_BY_KEY = {p.key: p for p in PANES}


def _tr(text: str) -> str:
    return QCoreApplication.translate("Panes", text)


def pane_matrix(result: ModelResult, key: str, head: int = 0) -> np.ndarray:
    return result.matrices(head)[key]


def pane_title(result: ModelResult, key: str, head: int = 0) -> str:
    """The pane's formula and shape, e.g. ``Q = X·W_Q (4×4)``."""
    state = result.state
    r = result.head(head)
    src = "X_kv" if state.mode == "cross" else "X"
    o = state.options
    if key == "scaled":
        div = "√d_k" if o.scale == "sqrt_dk" else ("1" if o.scale == "none" else f"{r.divisor:g}")
        t = "" if o.temperature == 1 else f" / T({o.temperature:.3g})"
        formula = f"QKᵀ / {div}{t}" + (_tr(" + causal mask") if o.causal and src == "X" else "")
    else:
        formula = {
            "X": _tr("X (input vectors)"),
            "Q": _tr("Q = X·W_Q (queries)"),
            "K": _tr("K = {0}·W_K (keys)").format(src),
            "V": _tr("V = {0}·W_V (values)").format(src),
            "scores": "QKᵀ" + (_tr(" = KKᵀ (shared W)") if o.share_qk else ""),
            "weights": _tr("weights = softmax") + ("" if o.stable else _tr(" (naive)")),
            "output": _tr("output = weights·V"),
        }[key]
    shape = pane_matrix(result, key, head).shape
    prefix = _tr("head {0}: ").format(head + 1) if state.n_heads > 1 and key != "X" else ""
    return f"{prefix}{formula} ({shape[0]}×{shape[1]})"


def pane_labels(result: ModelResult, key: str) -> tuple[list[str], list[str]]:
    """Row and column labels: token names, or dimension indices."""
    state = result.state
    info = PANE_BY_KEY[key]
    queries, keys = list(state.tokens), list(state.key_tokens)
    rows = queries if info.rows == "queries" else keys
    if info.cols == "keys":
        cols = keys
    else:
        width = state.d_model if info.cols == "dims" else state.d_k
        cols = [str(c) for c in range(width)]
    return rows, cols
