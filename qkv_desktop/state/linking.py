"""Which cells a hovered cell is made of, or feeds (pure Python).

The panes ask this module what to highlight, so the rules live in one place and
are tested without widgets. A highlight is a list of rectangles
``(row, col, n_rows, n_cols)`` per matrix name.
"""

from __future__ import annotations

from qkv_desktop.state.catalogue import NM_MATRICES

__all__ = ["linked_cells", "concat_links", "Rect"]

Rect = tuple[int, int, int, int]


def linked_cells(matrix: str, i: int, j: int, n: int, m: int, d_model: int, d_k: int,
                 cross: bool = False) -> dict[str, list[Rect]]:
    """Cells linked to ``matrix[i, j]`` for n queries, m keys, d_model and d_k.

    In cross mode K and V rows come from the key/value sequence ``X_kv``.
    """
    kv_source = "X_kv" if cross else "X"
    row = lambda r, width: (r, 0, 1, width)  # noqa: E731
    out: dict[str, list[Rect]] = {}

    def add(name: str, rect: Rect) -> None:
        out.setdefault(name, []).append(rect)

    if matrix in NM_MATRICES:
        add("Q", row(i, d_k))
        add("K", row(j, d_k))
        for name in NM_MATRICES:
            add(name, (i, j, 1, 1))
        add("X", row(i, d_model))
        add(kv_source, row(j, d_model))
        add("output", row(i, d_k))
    elif matrix == "output":
        add("weights", row(i, m))
        add("V", (0, 0, m, d_k))
        add("output", row(i, d_k))
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
            add("weights", (0, i, n, 1))
            add("output", (0, 0, n, d_k))
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
