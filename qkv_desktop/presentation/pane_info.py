"""What each heatmap pane shows: its matrix, title formula and axis labels.

Shared by the live panes and the exported figures so both say the same thing.
``PANES`` are the eight panes every session has; ``EXTRA_PANES`` appear only when
``pane_relevant`` says so: the key/value sequence in cross mode, the concatenated
head outputs for h > 1 and their W_O projection when W_O is on. A pane the
catalogue marks ``hidden_by_default`` is in neither: it is in ``ALL_PANES`` (the grid
and the View menu have it, hidden until shown) but not among the rendered figures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QCoreApplication

from qkv_desktop.presentation.cell_text import projection_formula
from qkv_desktop.presentation.numbers import format_setting
from qkv_desktop.presentation.texts import join_list
from qkv_desktop.state.catalogue import (
    BOOLEAN,
    HEAD_INDEPENDENT,
    MATRICES,
    MATRIX,
    UNIT_RANGE,
    MatrixSpec,
    axis_labels,
    matrix_shape,
    pane_relevant,
)
from qkv_desktop.state.compute import ModelResult

__all__ = ["PANES", "EXTRA_PANES", "ALL_PANES", "PANE_BY_KEY", "HEAD_INDEPENDENT",
           "PaneInfo", "pane_title", "pane_short_title", "pane_matrix", "pane_labels", "pane_relevant",
           "pane_head_starts", "pane_caption", "pane_tip", "pane_condition", "mask_formula",
           "scaled_formula",
           "values_may_be_negative", "values_are_boolean"]


@dataclass(frozen=True)
class PaneInfo:
    """``key`` names the matrix (as in ``matrices.npz``); ``file`` names exports.

    ``rows`` and ``cols`` are the catalogue's label kinds (``state.catalogue``).
    """

    key: str
    file: str
    rows: str
    cols: str


def _pane(spec: MatrixSpec) -> PaneInfo:
    return PaneInfo(spec.name, spec.name.lower(), spec.rows, spec.cols)


ALL_PANES: tuple[PaneInfo, ...] = tuple(_pane(s) for s in MATRICES if s.pane)
"""Every pane in display order (the catalogue's): X_kv next to X, multi-head results last."""
PANES: tuple[PaneInfo, ...] = tuple(p for p in ALL_PANES if MATRIX[p.key].present is None
                                    and not MATRIX[p.key].hidden_by_default)
EXTRA_PANES: tuple[PaneInfo, ...] = tuple(p for p in ALL_PANES
                                          if MATRIX[p.key].present is not None)
PANE_BY_KEY = {p.key: p for p in ALL_PANES}


def pane_matrix(result: ModelResult, key: str, head: int = 0) -> np.ndarray:
    """The matrix pane ``key`` shows for ``head``; ``ValueError`` if it has none."""
    if not pane_relevant(result.state, key):
        raise ValueError(f"there is no {key!r} matrix in this session")
    if key == "weights":  # masked cells drawn as masked, not as weights of 0
        return result.shown_weights(head)
    return result.matrix(key, head)


def values_may_be_negative(key: str) -> bool:
    """Whether pane ``key``'s matrix can hold a negative value after some edit: its
    value labels then keep room for a minus sign (``fit_value_font``'s ``signed``), so
    that a first negative value does not hide the values. The weights and the mask
    (``MatrixSpec.unit_range``) never need it."""
    return key not in UNIT_RANGE


def values_are_boolean(key: str) -> bool:
    """Whether pane ``key``'s values are written 1 and 0 (``format_boolean``: the
    mask), in the pane's labels and its exported figure alike."""
    return key in BOOLEAN


def pane_head_starts(result: ModelResult, key: str) -> list[int]:
    """Columns where a new head's block begins (the concatenation's head borders)."""
    if key != "concat":
        return []
    d_k = result.state.d_k
    return [h * d_k for h in range(1, result.state.n_heads)]


def pane_caption(key: str) -> str:
    """A short name for the pane when it has no data to show (menus, hidden panes): a
    name a learner reads, never the internal key alone ("scaled", "S_shift")."""
    translate = QCoreApplication.translate
    return {
        "X": translate("Panes", "X (input vectors)"),
        "Q": translate("Panes", "Q (queries)"),
        "K": translate("Panes", "K (keys)"),
        "V": translate("Panes", "V (values)"),
        "scores": translate("Panes", "scores QKᵀ"),
        "scaled": translate("Panes", "scaled scores"),
        "weights": translate("Panes", "weights = softmax"),
        "output": translate("Panes", "output = weights·V"),
        "X_kv": translate("Panes", "X_kv (key/value sequence)"),
        "concat": translate("Panes", "concat (all heads)"),
        "projected": translate("Panes", "final output = concat·W_O"),
        "X_pos": translate("Panes", "X + P (sinusoidal positions)"),
        "Q_rope": translate("Panes", "RoPE(Q) (queries after the rotation)"),
        "K_rope": translate("Panes", "RoPE(K) (keys after the rotation)"),
        "mask": translate("Panes", "mask (1 = allowed, 0 = masked)"),
        "bias": translate("Panes", "ALiBi bias −m·|i−j|"),
        "S_shift": translate("Panes", "shifted scores S − max(S)"),
    }.get(key, key)


def pane_tip(key: str) -> str:
    """What pane ``key`` shows, in a sentence a learner reads (the View menu's tips)."""
    translate = QCoreApplication.translate
    return {
        "X": translate("Panes", "The input: one row of numbers per token, the table you "
                       "edit."),
        "X_kv": translate("Panes", "Cross-attention's second sequence: the tokens the "
                          "queries look at, which make K and V."),
        "X_pos": translate("Panes", "X plus a sinusoidal vector for each position: what "
                           "the projections read when positions are sinusoidal."),
        "Q": translate("Panes", "The queries: each token's row of X times W_Q, what it "
                       "looks for."),
        "K": translate("Panes", "The keys: each token's row times W_K, what it offers to "
                       "the queries."),
        "Q_rope": translate("Panes", "The queries after RoPE turned each pair of their "
                            "dimensions by an angle that grows with the position."),
        "K_rope": translate("Panes", "The keys after RoPE turned each pair of their "
                            "dimensions by an angle that grows with the position."),
        "V": translate("Panes", "The values: each token's row times W_V, what it passes "
                       "on to the output."),
        "scores": translate("Panes", "One score per query and key: the dot product of "
                            "the query's row of Q with the key's row of K."),
        "mask": translate("Panes", "Which keys each query may attend to: 1 allowed, "
                          "0 masked."),
        "bias": translate("Panes", "ALiBi's penalty, added to the scaled scores: the "
                          "farther the key, the lower."),
        "scaled": translate("Panes", "The scores divided by the divisor (√d_k unless "
                            "changed) and the temperature T, with the mask and ALiBi "
                            "bias if any: what the softmax reads."),
        "S_shift": translate("Panes", "Each row of the scaled scores minus its maximum: "
                             "what a stable softmax exponentiates."),
        "weights": translate("Panes", "The softmax of each row of the scaled scores: how "
                             "much each query takes from each key; a row sums to 1."),
        "output": translate("Panes", "Each query's output: its row of weights times V, a "
                            "weighted sum of the value rows."),
        "concat": translate("Panes", "Every head's output side by side, one block of "
                            "columns per head."),
        "projected": translate("Panes", "The final output: the heads side by side times "
                               "W_O."),
    }[key]


def pane_condition(key: str) -> str:
    """When pane ``key`` shows, and where that is set: said beside a greyed View menu
    entry, which told what the pane shows but not how to bring it ("" for a pane every
    session has). ``key`` "heads" is the heads overview."""
    translate = QCoreApplication.translate
    positions = translate("Panes", "Shown with {0} (the Positions, mask tab).")
    several = translate("Panes", "Shown with two heads or more (heads h, in the editor).")
    return {
        "X_kv": translate("Panes", "Shown in cross-attention (attention, in the editor)."),
        "X_pos": positions.format(translate("Panes", "sinusoidal positions")),
        "Q_rope": positions.format("RoPE"),
        "K_rope": positions.format("RoPE"),
        "bias": positions.format("ALiBi"),
        "mask": translate("Panes", "Shown with the causal mask, or with a window, a prefix "
                                   "or the custom mask (the Positions, mask tab)."),
        "concat": several,
        "heads": several,
        "projected": translate("Panes", "Shown with the output projection W_O (in the "
                                        "editor)."),
    }.get(key, "")


def mask_formula(state) -> str:
    """The rules of the session's mask, e.g. ``causal, window 3, 1 sink, custom``."""
    translate = QCoreApplication.translate
    spec = state.mask_spec()
    parts = []
    if spec.prefix is not None:
        parts.append(translate("Panes", "prefix-LM {0}").format(spec.prefix))
    elif spec.causal:
        parts.append(translate("Panes", "causal"))
    if spec.window is not None:
        parts.append(translate("Panes", "window {0}").format(spec.window))
    if spec.sinks:
        parts.append(translate("Panes", "{0} sink(s)").format(spec.sinks))
    if spec.custom is not None:
        parts.append(translate("Panes", "custom"))
    if not parts:  # the custom mask switched on, nothing painted yet ("mask:  (4×4)")
        parts.append(translate("Panes", "custom, no cell masked yet")
                     if state.options.custom_mask else translate("Panes", "none"))
    return join_list(parts)  # 、 in Chinese


def scaled_formula(result: ModelResult, head: int = 0) -> str:
    """What the scaled scores of ``head`` are with the session's options, e.g.
    ``RoPE(Q)·RoPE(K)ᵀ / √d_k / T(0.95) + ALiBi + mask``: the scaled pane's title and
    every lab showing those numbers (the tiles lab's grids) say it alike."""
    translate = QCoreApplication.translate
    state = result.state
    o = state.options
    div = ("√d_k" if o.scale == "sqrt_dk" else
           "1" if o.scale == "none" else f"{result.head(head).divisor:g}")
    t = "" if o.temperature == 1 else f" / T({format_setting(o.temperature)})"
    mask = translate("Panes", " + mask") if state.mask_spec().restricts else ""
    bias = translate("Panes", " + ALiBi") if o.alibi is not None else ""
    scores = "RoPE(Q)·RoPE(K)ᵀ" if o.positions == "rope" else "QKᵀ"
    return f"{scores} / {div}{t}{bias}{mask}"


def pane_title(result: ModelResult, key: str, head: int = 0) -> str:
    """The pane's formula and shape, e.g. ``Q = X·W_Q (4×4)``."""
    return _title(*_title_parts(result, key, head))


TITLE_SEPARATORS = (": ", "：", " = ", " (", "（")
"""Where a pane's formula turns from its name to what it is, the first found first."""


def pane_short_title(result: ModelResult, key: str, head: int = 0) -> str | None:
    """The pane's name and shape, for a pane too narrow for its title (``RoPE(Q)
    (4×64)``), or None where the title is no longer than that. Cut at its end, the title
    lost its shape at 1024 × 700 ("RoPE(Q): queries turned by position (…", a first
    user); the name before the formula's first separator keeps it."""
    prefix, formula, shape = _title_parts(result, key, head)
    for sep in TITLE_SEPARATORS:
        if (at := formula.find(sep)) > 0:
            return _title(prefix, formula[:at], shape)
    return None


def _title(prefix: str, formula: str, shape: tuple[int, int]) -> str:
    return QCoreApplication.translate("Panes", "{0}{1} ({2}×{3})").format(
        prefix, formula, *shape)


def _title_parts(result: ModelResult, key: str, head: int) -> tuple[str, str, tuple]:
    """A pane's title as (head prefix, formula, shape)."""
    translate = QCoreApplication.translate  # lupdate reads translate("Panes", "…")
    state = result.state
    src = "X_kv" if state.mode == "cross" else "X"
    o = state.options
    if key == "scaled":
        formula = scaled_formula(result, head)
    else:
        formula = {
            "X": (translate("Panes", "X (query sequence)") if src == "X_kv"
                  else translate("Panes", "X (input vectors)")),
            "X_kv": translate("Panes", "X_kv (key/value sequence)"),
            "concat": translate("Panes", "concat = [head 1 | … | head {0}]").format(
                state.n_heads),
            "projected": translate("Panes", "final output = concat·W_O"),
            "Q": translate("Panes", "Q = {0} (queries)").format(_projection(state, head, "Q")),
            "K": translate("Panes", "K = {0} (keys)").format(_projection(state, head, "K")),
            "V": translate("Panes", "V = {0} (values)").format(_projection(state, head, "V")),
            "X_pos": translate("Panes", "X + P: X plus the sinusoidal positions"),
            "Q_rope": translate("Panes", "RoPE(Q): queries turned by position"),
            "K_rope": translate("Panes", "RoPE(K): keys turned by position"),
            "mask": translate("Panes", "mask: {0}").format(mask_formula(state)),
            # the slope first: a narrow pane's title is cut at its end, and with several
            # heads ("head 2: ") it cut the slope, the one number of the pane's title
            "bias": (translate("Panes", "ALiBi bias, m = {0:.4g}: −m·|i−j|").format(
                o.alibi[min(head, len(o.alibi) - 1)]) if o.alibi else ""),
            "scores": _scores_formula(state),
            "weights": (translate("Panes", "weights = softmax")
                        + ("" if o.stable else translate("Panes", " (naive)"))),
            "output": translate("Panes", "output = weights·V"),
            "S_shift": translate("Panes", "shifted scores S − max(S): each row minus its "
                                 "maximum, all ≤ 0"),
        }[key]
    if not pane_relevant(state, key):
        raise ValueError(f"there is no {key!r} matrix in this session")
    # From the catalogue, not the matrix: the View menu names every pane after each
    # edit, and a hidden pane's title must not make its matrix (S − max(S) is a new
    # n × m array: 4 million cells on the GUI thread at n = 2048).
    shape = matrix_shape(state, key)
    per_head = state.n_heads > 1 and key not in HEAD_INDEPENDENT
    prefix = translate("Panes", "head {0}: ").format(head + 1) if per_head else ""
    return prefix, formula, shape


def _scores_formula(state) -> str:
    """QKᵀ, and with one shared W what it then equals: KKᵀ, or RoPE(K)·RoPE(K)ᵀ with
    RoPE (the pane said "= KKᵀ" above RoPE(K)'s products), and nothing in
    cross-attention, where Q comes from X and K from X_kv (it said "= KKᵀ" above an
    asymmetric n × m matrix)."""
    translate = QCoreApplication.translate
    rope = state.options.positions == "rope"
    formula = "RoPE(Q)·RoPE(K)ᵀ" if rope else "QKᵀ"
    if not state.options.share_qk:
        return formula
    if state.mode == "cross":
        return formula + translate("Panes", " (shared W)")
    return formula + (translate("Panes", " = RoPE(K)·RoPE(K)ᵀ (shared W)") if rope
                      else translate("Panes", " = KKᵀ (shared W)"))


def _projection(state, head: int, matrix: str) -> str:
    """``X·W_K + b_K`` and the like: the product that really makes ``matrix``."""
    weight, bias = projection_formula(state, head, matrix)
    src = "X_kv" if matrix != "Q" and state.mode == "cross" else "X"
    if state.options.positions == "sinusoidal":
        src = f"({src} + P)"
    return f"{src}·{weight}" + (f" + {bias}" if bias else "")


def pane_labels(result: ModelResult, key: str) -> tuple[list[str], list[str]]:
    """Row and column labels: token names, or dimension indices."""
    info = PANE_BY_KEY[key]
    return axis_labels(result.state, info.rows), axis_labels(result.state, info.cols)
