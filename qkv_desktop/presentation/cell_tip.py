"""What the tool tip at the cursor says about a hovered cell: its value, which matrix,
which row and column, and how it is computed.

The status bar's sentence (``describe_cell``) is at the bottom of the window, far from
the cell a learner looks at (found by first-time users): the tip repeats it under the
value and says in words what the row and the column are (a token of the queries or
the keys, a dimension), with the pane's own title for the matrix.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication

from qkv_desktop.presentation.cell_text import (
    describe_cell,
    masked_weight,
    masked_weight_heading,
)
from qkv_desktop.presentation.numbers import format_boolean, format_nonzero
from qkv_desktop.presentation.pane_info import pane_relevant, pane_title, values_are_boolean
from qkv_desktop.presentation.texts import token_in_text, unbroken_bars
from qkv_desktop.state import CellRef
from qkv_desktop.state.catalogue import MATRIX, axis_labels
from qkv_desktop.state.compute import ModelResult

__all__ = ["cell_tip"]

def _role(state, matrix: str, kind: str) -> str:
    """What a row or column of label ``kind`` of ``matrix`` is, in a word or two."""
    translate = QCoreApplication.translate
    if kind == "queries":  # X's rows are the query tokens only in cross-attention
        query = state.mode == "cross" or matrix not in ("X", "X_pos")
        return translate("CellTip", "query") if query else translate("CellTip", "token")
    return {
        "keys": translate("CellTip", "key"),
        "kv": translate("CellTip", "key/value token"),
        "dims": translate("CellTip", "dimension"),
        "d_k": translate("CellTip", "dimension"),
        "heads": translate("CellTip", "head · dimension"),
    }.get(kind, "")


def _name(state, kind: str, index: int) -> str:
    if kind == "dims":
        return f"d{index}"
    labels = axis_labels(state, kind)
    return token_in_text(labels[index]) if index < len(labels) else str(index)


def cell_tip(result: ModelResult, ref: CellRef) -> str:
    """Rich text for the tool tip at cell ``ref``; empty when ``result`` has no such
    cell (a newer state's cell, before its result arrives)."""
    state = result.state
    spec = MATRIX.get(ref.matrix)
    if spec is None or not pane_relevant(state, ref.matrix):
        return ""
    M = result.matrix(ref.matrix, ref.head)
    if M is None or not (0 <= ref.row < M.shape[0] and 0 <= ref.col < M.shape[1]):
        return ""
    translate = QCoreApplication.translate
    where = translate("CellTip", "row {0} ({1}) · column {2} ({3})").format(
        html.escape(_name(state, spec.rows, ref.row)), _role(state, ref.matrix, spec.rows),
        html.escape(_name(state, spec.cols, ref.col)), _role(state, ref.matrix, spec.cols))
    masked = masked_weight(result, ref)
    if masked is not None:  # says it is masked, as the status bar does, not "0.0000"
        value = masked_weight_heading(masked)
    else:
        # a value that rounds to 0.0000 but is not 0 says so here, where there is room
        # (a RoPE score of 8.07e−6 read as the exact 0 beside it: a first user)
        value = (format_boolean if values_are_boolean(ref.matrix) else format_nonzero)(
            M[ref.row, ref.col])
    lines = [f"<b>{html.escape(value)}</b>",
             html.escape(pane_title(result, ref.matrix, ref.head)), where,
             f"<span style='color:#555555'>"
             f"{unbroken_bars(html.escape(describe_cell(result, ref)))}</span>"]
    return "<br>".join(lines)
