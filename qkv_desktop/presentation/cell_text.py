"""The status-bar sentence for a hovered cell: its value and formula, with numbers."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication

from qkv_desktop.core.masks import CAUSAL, CUSTOM, PREFIX, SINK, WINDOW
from qkv_desktop.presentation.numbers import format_boolean, format_nonzero
from qkv_desktop.presentation.texts import token_in_text
from qkv_desktop.state import CellRef
from qkv_desktop.state.catalogue import MATRIX, axis_labels
from qkv_desktop.state.compute import ModelResult

__all__ = ["describe_cell", "projection_formula", "mask_reason_text", "masked_weight",
           "masked_weight_heading"]

_MASKING = (CAUSAL, WINDOW, CUSTOM)
"""The ``REASONS`` codes that hide a key from a query (the others allow it)."""


def mask_reason_text(code: int, q: str, k: str) -> str:
    """Why key ``k`` is visible to query ``q`` or hidden from it (a ``REASONS`` code)."""
    translate = QCoreApplication.translate
    return {
        CAUSAL: translate("CellText", "masked (causal): key {1} comes after query {0}"),
        WINDOW: translate("CellText", "masked (window): key {1} is outside the sliding window "
                          "of query {0}"),
        CUSTOM: translate("CellText", "masked (custom): you masked {0} → {1} on the mask pane"),
        PREFIX: translate("CellText", "allowed (prefix): {0} and {1} are both in the prefix, "
                          "which is seen in both directions"),
        SINK: translate("CellText", "allowed (sink): key {1} is an attention sink, visible "
                        "whatever the window"),
    }.get(code, translate("CellText", "allowed: query {0} may attend to key {1}")).format(q, k)


def masked_weight(result: ModelResult, ref: CellRef) -> int | None:
    """The mask's reason code when ``ref`` is a cell of the weights a mask set to 0
    (its scaled score is −∞), ``None`` for any other cell."""
    if ref.matrix != "weights":
        return None
    r = result.head(ref.head)
    i, j = ref.row, ref.col
    if not (0 <= i < r.scaled.shape[0] and 0 <= j < r.scaled.shape[1]):
        return None
    code = int(r.mask_reasons[i, j])
    return code if r.scaled[i, j] == -np.inf and code in _MASKING else None


def masked_weight_heading(code: int) -> str:
    """A masked weight's value in words, the way the status bar explains it (a tip
    headed "0.0000" read as a weight that happened to be small: a first-time user)."""
    translate = QCoreApplication.translate
    return {
        CAUSAL: translate("CellText", "masked (causal): weight exactly 0"),
        WINDOW: translate("CellText", "masked (window): weight exactly 0"),
    }.get(code, translate("CellText", "masked (custom): weight exactly 0"))


def _score_formula(s, q: str, k: str, i: int, j: int) -> str:
    if s.options.positions == "rope":
        return f"R({i})q_{q}·R({j})k_{k}"
    return f"q_{q}·k_{k}"


def projection_formula(state, head: int, matrix: str) -> tuple[str, str]:
    """The weight and bias names that make ``matrix`` ("Q", "K" or "V") of ``head``:
    ("W_K", "b_K") for Q with shared W_Q = W_K, ("W_Q", "") without biases.

    Shared weights compute Q with W_K (and b_K), and checkpoint heads add their bias;
    the status bar and the pane titles both say which.
    """
    used = "K" if matrix == "Q" and state.options.share_qk else matrix
    weights = state.heads[state.head_index(head)]
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
    q = token_in_text(s.tokens[i]) if i < s.n else str(i)
    keys = s.key_tokens
    k = token_in_text(keys[j]) if j < len(keys) else str(j)
    f = format_nonzero  # a tiny value is not 0 (the tip is headed by its size too)
    if ref.matrix == "X":
        return QCoreApplication.translate(
            "CellText", "X[{0}, d{1}] = {2}  (input vector of {0})").format(q, j, f(s.X[i, j]))
    if ref.matrix == "X_kv":
        return QCoreApplication.translate(
            "CellText", "X_kv[{0}, d{1}] = {2}").format(token_in_text(keys[i]), j, f(s.X_kv[i, j]))
    if ref.matrix == "X_pos":
        # P as the core's table has it (``sinusoidal_positions``): column 2k is a sine,
        # 2k + 1 a cosine, of the position over 10000^(2k/d)
        d = s.X.shape[1]
        wave, k2 = ("sin", j) if j % 2 == 0 else ("cos", j - 1)
        P = r.X_pos[i, j] - s.X[i, j]
        return QCoreApplication.translate(
            "CellText", "(X + P)[{0}, d{1}] = X {2} + P(position {3}, d{1}) {4} = "
            "{5}, where P = {6}({3} / 10000^({7}/{8}))").format(
            q, j, f(s.X[i, j]), i, f(P), f(r.X_pos[i, j]), wave, k2, d)
    if ref.matrix in ("Q", "K", "V"):
        tok = q if ref.matrix == "Q" else token_in_text(keys[i])
        src = "X" if ref.matrix == "Q" or s.mode == "self" else "X_kv"
        if s.options.positions == "sinusoidal":
            src = f"({src} + P)"
        weight, bias = projection_formula(s, ref.head, ref.matrix)
        plus = f" + {bias}[{j}]" if bias else ""
        v = getattr(r, ref.matrix)[i, j]
        return f"{ref.matrix}[{tok}, {j}] = {src}[{tok}]·{weight}[:, {j}]{plus} = {f(v)}"
    if ref.matrix in ("Q_rope", "K_rope"):
        tok = q if ref.matrix == "Q_rope" else token_in_text(keys[i])
        d = M.shape[1]
        pair = j % (d // 2) if s.options.rope_pairing == "half" else j // 2
        angle = i * s.options.rope_base ** (-2 * pair / d)
        return QCoreApplication.translate(
            "CellText", "{0}[{1}, {2}] = {3}[{1}] turned by position {4}: pair {5} turns by "
            "{4}·{6:g}^(−2·{5}/{7}) = {8} rad, giving {9}").format(
            ref.matrix, tok, j, ref.matrix[0], i, pair, s.options.rope_base, d, f(angle),
            f(M[i, j]))
    if ref.matrix == "mask":
        code = int(r.mask_reasons[i, j])
        return f"mask[{q}, {k}] = {format_boolean(M[i, j])}: " + mask_reason_text(code, q, k)
    if ref.matrix == "bias":
        text = f"bias[{q}, {k}] = −m·|i−j| = −{r.alibi_slope:.4g}·|{i}−{j}| = {f(M[i, j])}"
        if s.mode == "cross":  # two sequences: their positions are compared as if aligned
            text += QCoreApplication.translate(
                "CellText", " (cross-attention: i is the query's position, j the key's in "
                "the other sequence, compared as if the two sequences were aligned)")
        return text
    if ref.matrix == "scores":
        name = "RoPE(Q)·RoPE(K)ᵀ" if s.options.positions == "rope" else "QKᵀ"
        return f"{name}[{q}, {k}] = {_score_formula(s, q, k, i, j)} = {f(r.scores[i, j])}"
    if ref.matrix == "scaled":
        v = r.scaled[i, j]
        if v == -np.inf:
            return QCoreApplication.translate(
                "CellText", "s[{0}, {1}] = −∞, {2} (weight exactly 0)").format(
                q, k, mask_reason_text(int(r.mask_reasons[i, j]), q, k))
        div = s.options.temperature * r.divisor
        if r.bias is not None:
            m, b = r.alibi_slope, r.bias[i, j]
            dot = _score_formula(s, q, k, i, j)
            return (f"s[{q}, {k}] = {dot} / {div:.4g} − m·|i−j| = {f(r.scores[i, j])} / "
                    f"{div:.4g} − {m:.4g}·|{i}−{j}| = {f(r.scores[i, j] / div)} + ({f(b)}) "
                    f"= {f(v)}")
        name = "RoPE(Q)·RoPE(K)ᵀ" if s.options.positions == "rope" else "QKᵀ"
        return f"s[{q}, {k}] = {name} / {div:.4g} = {f(r.scores[i, j])} / {div:.4g} = {f(v)}"
    if ref.matrix == "S_shift":
        v = M[i, j]
        if v == -np.inf:
            return QCoreApplication.translate(
                "CellText", "S_shift[{0}, {1}] = −∞, {2}").format(
                q, k, mask_reason_text(int(r.mask_reasons[i, j]), q, k))
        return QCoreApplication.translate(
            "CellText", "S_shift[{0}, {1}] = s − max of row {0} = {2} − {3} = {4} "
            "(≤ 0, so exp ≤ 1)").format(q, k, f(r.scaled[i, j]), f(r.scaled[i, j] - v), f(v))
    if ref.matrix == "weights":
        code = masked_weight(result, ref)
        if code is not None:
            # masked: why it is 0, not "exp(s−max)/Σ = 0.0000" (found by a first-time user)
            return QCoreApplication.translate(
                "CellText", "w[{0}→{1}] = 0 exactly: {2}").format(
                q, k, mask_reason_text(code, q, k))
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
    spec = MATRIX[ref.matrix]  # an entry without a sentence of its own: its cell and value
    rows, cols = axis_labels(s, spec.rows), axis_labels(s, spec.cols)
    return f"{ref.matrix}[{rows[i]}, {cols[j]}] = {f(M[i, j])}"
