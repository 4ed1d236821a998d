"""The eight standard attention panes as figure specs, titled like the live panes.

``pane_specs`` turns one head of a computed result into ``FigureSpec`` objects named
``x, q, k, v, scores, scaled, weights, output`` (the file names ``render`` writes).
Titles, matrices and axis labels come from ``presentation.pane_info``, so an exported figure
says exactly what its pane says; rows of the n×m matrices are query tokens, columns
key tokens, and K and V rows are key tokens. ``pane_spec`` also draws the extra panes
a session may have (``x_kv``, ``concat``, ``projected``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QCoreApplication

from qkv_desktop.export.figures import FigureSpec
from qkv_desktop.presentation.pane_info import PANE_BY_KEY, PANES, pane_labels, pane_matrix, pane_title
from qkv_desktop.presentation.source_text import source_text
from qkv_desktop.state.compute import ModelResult

__all__ = ["PANE_NAMES", "pane_spec", "pane_specs"]

PANE_NAMES = tuple(p.file for p in PANES)
"""File/figure names of the standard panes, in display order."""

Translate = Callable[[str, str], str]


def pane_spec(result: ModelResult, key: str, h: int = 0,
              translate: Translate | None = None, *, source: bool = True) -> FigureSpec:
    """The figure of the pane ``key`` for head ``h``: one of the eight panes or an
    extra one (``"X_kv"``, ``"concat"``, ``"projected"``) when the session has it.
    ``source``: a model's session names its model, layer and head after the title
    (``source_text``), so a figure on a slide says what it shows; a dashboard's panes
    leave that to the dashboard's title.

    Parameters are those of ``pane_specs``; ``ValueError`` names a key that is unknown
    or has nothing to show in this session (``pane_info.pane_relevant``).
    """
    if key not in PANE_BY_KEY:
        raise ValueError(f"unknown pane {key!r}; choose from: {', '.join(PANE_BY_KEY)}")
    translate = translate or QCoreApplication.translate
    state = result.state
    h = state.head_index(h)
    pane = PANE_BY_KEY[key]
    data = pane_matrix(result, key, h)
    rows, cols = pane_labels(result, key)
    dimension = translate("Figures", "dimension")
    key_caption = translate("Figures", "key")
    captions = {"queries": translate("Figures", "query"), "keys": key_caption, "kv": key_caption,
                "dims": dimension, "d_k": dimension, "heads": dimension}
    row_axis = translate("Figures", "token") if key == "X" and state.mode == "self" \
        else captions[pane.rows]
    # −∞ is a masked cell in every pane (scaled, S − max(S), …), as the live panes and
    # their hover say; an overflow is +∞ or NaN, never −∞ (``presentation.colormaps``)
    masked = np.isneginf(data) if state.mask_spec().restricts else None
    if masked is not None and not masked.any():
        masked = None  # Q, K, V…: nothing masked, no legend for it
    title = pane_title(result, key, h)
    if source and state.provenance is not None:
        title += " · " + source_text(state.provenance,
                                     h if state.provenance.scope == "layer" else None)
    return FigureSpec(
        pane.file, title, data, rows, cols,
        colormap=key, masked=masked, row_axis=row_axis, col_axis=captions[pane.cols],
        masked_label=translate("Figures", "masked"),
        nonfinite_label=translate("Figures", "non-finite"))


def pane_specs(result: ModelResult, h: int = 0,
               translate: Translate | None = None) -> list[FigureSpec]:
    """Figure specs of head ``h``'s eight panes.

    Parameters
    ----------
    result : ModelResult
        From ``qkv_desktop.state.compute.compute(state)``.
    h : int
        The head (clamped to the existing heads, as ``ModelResult.head`` does).
    translate : callable(context, text) -> str, optional
        Translates the figure-only texts (axis captions, legend);
        ``QCoreApplication.translate`` by default. Titles come from
        ``pane_info.pane_title`` and follow the installed ``QTranslator``.
    """
    return [pane_spec(result, pane.key, h, translate) for pane in PANES]
