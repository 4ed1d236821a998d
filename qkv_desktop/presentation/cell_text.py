"""The status-bar sentence for a hovered cell: its value and formula, with numbers."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication

from qkv_desktop.state import CellRef
from qkv_desktop.state.compute import ModelResult

__all__ = ["describe_cell"]


def describe_cell(result: ModelResult, ref: CellRef) -> str:
    """E.g. ``w[爱→智能] = exp(s−max)/Σ = 0.2490``."""
    s = result.state
    r = result.head(ref.head)
    i, j = ref.row, ref.col
    M = result.matrix(ref.matrix, ref.head)
    if M is None or not (0 <= i < M.shape[0] and 0 <= j < M.shape[1]):
        return ""  # a cell of a newer state than this result: nothing to say yet
    q = s.tokens[i] if i < s.n else str(i)
    keys = s.key_tokens
    k = keys[j] if j < len(keys) else str(j)
    if ref.matrix == "X":
        return QCoreApplication.translate(
            "CellText", "X[{0}, d{1}] = {2:.6g}  (input vector of {0})").format(q, j, s.X[i, j])
    if ref.matrix == "X_kv":
        return QCoreApplication.translate(
            "CellText", "X_kv[{0}, d{1}] = {2:.6g}").format(keys[i], j, s.X_kv[i, j])
    if ref.matrix in ("Q", "K", "V"):
        tok = q if ref.matrix == "Q" else keys[i]
        src = "X" if ref.matrix == "Q" or s.mode == "self" else "X_kv"
        v = getattr(r, ref.matrix)[i, j]
        return f"{ref.matrix}[{tok}, {j}] = {src}[{tok}]·W_{ref.matrix}[:, {j}] = {v:.4f}"
    if ref.matrix == "scores":
        return f"QKᵀ[{q}, {k}] = q_{q}·k_{k} = {r.scores[i, j]:.4f}"
    if ref.matrix == "scaled":
        v = r.scaled[i, j]
        if v == -np.inf:
            return QCoreApplication.translate(
                "CellText", "s[{0}, {1}] is masked: a causal query cannot see later keys "
                "(weight exactly 0)").format(q, k)
        div = s.options.temperature * r.divisor
        return f"s[{q}, {k}] = QKᵀ / {div:.4g} = {r.scores[i, j]:.4f} / {div:.4g} = {v:.4f}"
    if ref.matrix == "weights":
        return f"w[{q}→{k}] = exp(s−max)/Σ = {r.weights[i, j]:.4f}"
    if ref.matrix == "output":
        return QCoreApplication.translate(
            "CellText", "out[{0}, {1}] = Σ_j w[{0}→j]·V[j, {1}] = {2:.4f}").format(
            q, j, r.output[i, j])
    if ref.matrix == "concat":
        h, c = divmod(j, s.d_k)
        return QCoreApplication.translate(
            "CellText", "concat[{0}, {1}] = head {2} out[{0}, {3}] = {4:.4f}").format(
            q, j, h + 1, c, M[i, j])
    if ref.matrix == "projected":
        return QCoreApplication.translate(
            "CellText", "final[{0}, {1}] = concat[{0}, :]·W_O[:, {1}] = {2:.4f}").format(
            q, j, M[i, j])
    return ""
