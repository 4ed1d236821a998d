"""The status-bar sentence for a hovered cell: its value and formula, with numbers."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication

from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.state import CellRef
from qkv_desktop.state.compute import ModelResult

__all__ = ["describe_cell", "projection_formula"]


def projection_formula(state, head: int, matrix: str) -> tuple[str, str]:
    """The weight and bias names that make ``matrix`` ("Q", "K" or "V") of ``head``:
    ("W_K", "b_K") for Q with shared W_Q = W_K, ("W_Q", "") without biases.

    Shared weights compute Q with W_K (and b_K), and checkpoint heads add their bias;
    the status bar and the pane titles both say which.
    """
    used = "K" if matrix == "Q" and state.options.share_qk else matrix
    weights = state.heads[min(max(head, 0), state.n_heads - 1)]
    bias = f"b_{used}" if getattr(weights, f"b_{used}") is not None else ""
    return f"W_{used}", bias


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
    f = format_value
    if ref.matrix == "X":
        return QCoreApplication.translate(
            "CellText", "X[{0}, d{1}] = {2}  (input vector of {0})").format(q, j, f(s.X[i, j]))
    if ref.matrix == "X_kv":
        return QCoreApplication.translate(
            "CellText", "X_kv[{0}, d{1}] = {2}").format(keys[i], j, f(s.X_kv[i, j]))
    if ref.matrix in ("Q", "K", "V"):
        tok = q if ref.matrix == "Q" else keys[i]
        src = "X" if ref.matrix == "Q" or s.mode == "self" else "X_kv"
        weight, bias = projection_formula(s, ref.head, ref.matrix)
        plus = f" + {bias}[{j}]" if bias else ""
        v = getattr(r, ref.matrix)[i, j]
        return f"{ref.matrix}[{tok}, {j}] = {src}[{tok}]·{weight}[:, {j}]{plus} = {f(v)}"
    if ref.matrix == "scores":
        return f"QKᵀ[{q}, {k}] = q_{q}·k_{k} = {f(r.scores[i, j])}"
    if ref.matrix == "scaled":
        v = r.scaled[i, j]
        if v == -np.inf:
            return QCoreApplication.translate(
                "CellText", "s[{0}, {1}] is masked: a causal query cannot see later keys "
                "(weight exactly 0)").format(q, k)
        div = s.options.temperature * r.divisor
        return f"s[{q}, {k}] = QKᵀ / {div:.4g} = {f(r.scores[i, j])} / {div:.4g} = {f(v)}"
    if ref.matrix == "weights":
        softmax = "exp(s−max)/Σ" if s.options.stable else "exp(s)/Σ"  # naive: unshifted
        return f"w[{q}→{k}] = {softmax} = {f(r.weights[i, j])}"
    if ref.matrix == "output":
        return QCoreApplication.translate(
            "CellText", "out[{0}, {1}] = Σ_j w[{0}→j]·V[j, {1}] = {2}").format(
            q, j, f(r.output[i, j]))
    if ref.matrix == "concat":
        h, c = divmod(j, s.d_k)
        return QCoreApplication.translate(
            "CellText", "concat[{0}, {1}] = head {2} out[{0}, {3}] = {4}").format(
            q, j, h + 1, c, f(M[i, j]))
    if ref.matrix == "projected":
        return QCoreApplication.translate(
            "CellText", "final[{0}, {1}] = concat[{0}, :]·W_O[:, {1}] = {2}").format(
            q, j, f(M[i, j]))
    return ""
