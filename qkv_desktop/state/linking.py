"""Which cells a hovered cell is made of, or feeds (pure Python).

The panes ask this module what to highlight, so the rules live in one place and
are tested without widgets. A highlight is a list of rectangles
``(row, col, n_rows, n_cols)`` per matrix name.

The rules follow the arithmetic: ``weights[i, j]`` weighs V's row j in output row i
(``output_i = Σ_j w_ij · V_j``), so hovering it outlines both, unless the mask hides
key j from query i: then the score is still computed from ``q_i`` and ``k_j`` but the
scaled score is −∞ and the weight exactly 0, so the cell feeds neither V's row j nor
output row i. ``output[i, c]`` is weights row i times V column c, and ``V[j, c]``
reaches only output column c, through weights column j. The mask and the ALiBi bias
are made from the positions i and j alone, not from ``q_i`` and ``k_j``: their cell
(i, j) outlines the (i, j) cell of every n × m matrix (the scaled score it is added to
and the weight it makes), not Q's row i and K's row j. The matrices with positions (RoPE's rotated ``Q_rope``
and ``K_rope``, the sinusoidal ``X_pos``) are their plain matrix's rows with the
position mixed in: hovering one links like its plain matrix, and every outline of a
plain matrix's row is drawn on its alias too.
"""

from __future__ import annotations

from qkv_desktop.state.catalogue import NM_MATRICES

__all__ = ["linked_cells", "concat_links", "pane_links", "Rect", "POSITION_ALIASES",
           "POSITION_ONLY"]

Rect = tuple[int, int, int, int]

POSITION_ALIASES = {"Q_rope": "Q", "K_rope": "K", "X_pos": "X"}
"""A matrix with positions → the plain matrix whose rows it is (same shape, same
tokens): RoPE's rotated Q and K, X plus the sinusoidal positions."""

POSITION_ONLY = frozenset({"mask", "bias"})
"""The n × m matrices made from the query's and the key's positions only (the mask
rules, ALiBi's −slope·|i − j|), not from Q and K: one of their cells links no Q, K or X
row (it was outlined as if it were a score)."""


def linked_cells(matrix: str, i: int, j: int, n: int, m: int, d_model: int, d_k: int,
                 cross: bool = False, masked: bool = False) -> dict[str, list[Rect]]:
    """Cells linked to ``matrix[i, j]`` for n queries, m keys, d_model and d_k.

    ``masked``: an n × m cell whose key j the mask hides from query i (causal, window
    or custom): its weight is exactly 0, so it links no output row and no V row.

    In cross mode K and V rows come from the key/value sequence ``X_kv`` (its positions
    have no pane, so ``X_pos`` follows the queries' X only).
    """
    kv_source = "X_kv" if cross else "X"
    row = lambda r, width: (r, 0, 1, width)  # noqa: E731
    out: dict[str, list[Rect]] = {}
    matrix = POSITION_ALIASES.get(matrix, matrix)
    aliases = {plain: alias for alias, plain in POSITION_ALIASES.items()}

    def add(name: str, rect: Rect) -> None:
        for target in (name, aliases.get(name)):
            if target is not None and rect not in out.setdefault(target, []):
                out[target].append(rect)

    if matrix in NM_MATRICES:
        if matrix not in POSITION_ONLY:  # a score q_i·k_j; the mask and bias come from i, j
            add("Q", row(i, d_k))
            add("K", row(j, d_k))
            add("X", row(i, d_model))
            add(kv_source, row(j, d_model))
        for name in NM_MATRICES:
            add(name, (i, j, 1, 1))
        if not masked:  # a masked cell: scaled −∞, weight 0, nothing reaches the output
            add("output", row(i, d_k))
            if matrix == "weights":  # w_ij weighs V_j in output_i
                add("V", row(j, d_k))
    elif matrix == "output":  # output[i, c] = Σ_j weights[i, j] · V[j, c]
        add("weights", row(i, m))
        add("V", (0, j, m, 1))
        add("output", (i, j, 1, 1))  # the hovered cell, as an n × m pane marks its own
    elif matrix == "Q":
        add("X", row(i, d_model))
        add("Q", row(i, d_k))
        for name in NM_MATRICES:
            add(name, row(i, m))
    elif matrix in ("K", "V"):
        add(kv_source, row(i, d_model))
        add(matrix, row(i, d_k))
        if matrix == "K":
            for name in NM_MATRICES:
                add(name, (0, i, n, 1))
        else:
            add("weights", (0, i, n, 1))  # V[i, j] reaches output[:, j] weighed by w[:, i]
            add("output", (0, j, n, 1))
    elif matrix in ("X", "X_kv"):
        add(matrix, row(i, d_model))
        if matrix == "X":
            add("Q", row(i, d_k))
        if matrix == kv_source:
            add("K", row(i, d_k))
            add("V", row(i, d_k))
    return out


def concat_links(matrix: str, i: int, j: int, head: int, n_heads: int, d_k: int,
                 d_model: int) -> dict[str, list[Rect]]:
    """Cells linking the heads' outputs, their concatenation and its W_O projection.

    ``head`` is the head the per-head panes show: a concatenation column of another
    head has no cell in them. ``d_model`` is the width of the projection.
    """
    width = n_heads * d_k
    out: dict[str, list[Rect]] = {}
    if matrix == "output":
        out["concat"] = [(i, head * d_k + j, 1, 1)]
        out["projected"] = [(i, 0, 1, d_model)]
    elif matrix == "concat":
        h, c = divmod(j, d_k)
        out["concat"] = [(i, h * d_k, 1, d_k), (i, j, 1, 1)]
        out["projected"] = [(i, 0, 1, d_model)]
        if h == head:
            out["output"] = [(i, c, 1, 1)]
    elif matrix == "projected":
        out["projected"] = [(i, j, 1, 1)]
        out["concat"] = [(i, 0, 1, width)]
        out["output"] = [(i, 0, 1, d_k)]
    return out


def pane_links(matrix: str, i: int, j: int, n: int, m: int, d_model: int, d_k: int,
               head: int, n_heads: int, cross: bool = False, masked: bool = False,
               projection: bool = False) -> dict[str, list[Rect]]:
    """Every pane's outlines for ``matrix[i, j]`` of head ``head``: ``linked_cells``,
    and with several heads or a W_O projection ``concat_links`` too.

    Each outline of the head's output is drawn on its columns of the concatenation as
    well (head h's output column c is concat column ``h·d_k + c``): hovering V[j, c]
    outlined output column c and not concat's, which is the same column.
    """
    cells = linked_cells(matrix, i, j, n, m, d_model, d_k, cross=cross, masked=masked)
    if n_heads > 1 or projection:
        extra = concat_links(matrix, i, j, head, n_heads, d_k, d_model)
        if n_heads > 1:
            extra.setdefault("concat", []).extend(
                (r, head * d_k + c, rows, cols) for r, c, rows, cols in cells.get("output", ()))
        for name, rects in extra.items():
            target = cells.setdefault(name, [])
            for rect in rects:
                if rect not in target:
                    target.append(rect)
    return cells
