"""The eight standard attention panes as figure specs, titled like the live panes.

``pane_specs`` turns one head of a computed result into ``FigureSpec`` objects named
``x, q, k, v, scores, scaled, weights, output`` (the file names ``render`` writes).
Titles, matrices and axis labels come from ``views.pane_info``, so an exported figure
says exactly what its pane says; rows of the n×m matrices are query tokens, columns
key tokens, and K and V rows are key tokens.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from PySide6.QtCore import QCoreApplication

from ..model.compute import ModelResult
from ..views.pane_info import PANES, pane_labels, pane_matrix, pane_title
from .figures import FigureSpec

__all__ = ["PANE_NAMES", "pane_specs"]

PANE_NAMES = tuple(p.file for p in PANES)
"""File/figure names of the standard panes, in display order."""

Translate = Callable[[str, str], str]


def pane_specs(result: ModelResult, h: int = 0,
               translate: Translate | None = None) -> list[FigureSpec]:
    """Figure specs of head ``h``'s eight panes.

    Parameters
    ----------
    result : ModelResult
        From ``qkv_desktop.model.compute.compute(state)``.
    h : int
        The head (clamped to the existing heads, as ``ModelResult.head`` does).
    translate : callable(context, text) -> str, optional
        Translates the figure-only texts (axis captions, legend);
        ``QCoreApplication.translate`` by default. Titles come from
        ``pane_info.pane_title`` and follow the installed ``QTranslator``.
    """
    translate = translate or QCoreApplication.translate
    state = result.state
    h = min(max(h, 0), state.n_heads - 1)
    dimension = translate("Figures", "dimension")
    captions = {"queries": translate("Figures", "query"), "keys": translate("Figures", "key"),
                "dims": dimension, "d_k": dimension}
    specs = []
    for pane in PANES:
        data = pane_matrix(result, pane.key, h)
        rows, cols = pane_labels(result, pane.key)
        row_axis = translate("Figures", "token") if pane.key == "X" and state.mode == "self" \
            else captions[pane.rows]
        masked = None
        if pane.key == "scaled" and state.options.causal and state.mode == "self":
            masked = np.isneginf(data)
        specs.append(FigureSpec(
            pane.file, pane_title(result, pane.key, h), data, rows, cols,
            colormap=pane.key, masked=masked, row_axis=row_axis,
            col_axis=captions[pane.cols], masked_label=translate("Figures", "masked"),
            nonfinite_label=translate("Figures", "non-finite")))
    return specs
