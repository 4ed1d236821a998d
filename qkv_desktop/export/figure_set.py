"""The one set of figures a session exports: used by ``render`` and by Export all.

Head ``h``'s eight panes (``x, q, k, v, scores, scaled, weights, output``), then what
the session has beyond them (``head_figures.extra_pane_specs``: ``x_kv`` in cross
mode, every head's per-head panes ``q_h1`` … for h > 1, ``concat``, ``projected``),
then the dashboard. The headless render and the window's Export all write the same
files with the same names; only the dashboard's panes and columns may follow the
window's arrangement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication

from qkv_desktop.export.figures import FigureSpec, layout_dashboard, layout_figure
from qkv_desktop.export.head_figures import extra_pane_specs
from qkv_desktop.export.pane_figures import pane_spec, pane_specs
from qkv_desktop.presentation.pane_info import PANES
from qkv_desktop.presentation.source_text import source_text
from qkv_desktop.state.compute import ModelResult
from qkv_desktop.state.session_state import SessionState

__all__ = ["figure_specs", "figure_set", "dashboard_layout", "dashboard_title", "DASHBOARD"]

Translate = Callable[[str, str], str]

DASHBOARD = "dashboard"
"""The file name (without suffix) of the dashboard figure."""


def figure_specs(result: ModelResult, h: int = 0,
                 translate: Translate | None = None) -> list[FigureSpec]:
    """Every figure of the set but the dashboard, in file order."""
    return [*pane_specs(result, h, translate), *extra_pane_specs(result, translate, h)]


def figure_set(result: ModelResult, h: int = 0, translate: Translate | None = None, *,
               dashboard: Sequence[str] | None = None, columns: int = 4) -> list[tuple]:
    """``(name, layout)`` of every figure, the dashboard last.

    ``dashboard`` lists the pane keys the dashboard shows (head ``h``'s eight panes by
    default), ``columns`` how many to a row.
    """
    layouts = [(spec.name, layout_figure(spec)) for spec in figure_specs(result, h, translate)]
    layouts.append((DASHBOARD, dashboard_layout(result, h, translate, dashboard, columns)))
    return layouts


def dashboard_layout(result: ModelResult, h: int = 0, translate: Translate | None = None,
                     keys: Sequence[str] | None = None, columns: int = 4):
    """The dashboard of panes ``keys`` (head ``h``'s eight by default), titled."""
    keys = [p.key for p in PANES] if keys is None else list(keys)
    return layout_dashboard([pane_spec(result, key, h, translate, source=False)
                             for key in keys],
                            dashboard_title(result.state, h, translate), columns)


def dashboard_title(state: SessionState, h: int = 0, translate: Translate | None = None) -> str:
    """"Self-attention: 我 爱 人工 智能", or "… (512 tokens)" when the tokens are many;
    a model's session adds its model, layer and head (``source_text``)."""
    translate = translate or QCoreApplication.translate
    kind = (translate("Figures", "Self-attention") if state.mode == "self"
            else translate("Figures", "Cross-attention"))
    source = state.provenance
    if source is not None and source.kind == "decoder" and not source.edited:
        # the sentence the model read: its tokens are labels carrying their own spaces
        # (" capital", joined with one more: "The  capital  of  France  is"; a first
        # user) or a part of a character each ("我……爱…"; a review)
        text = source.text
    else:
        text = " ".join(state.tokens)
    if len(state.tokens) > 16 or len(text) > 60:
        text = translate("Figures", "{0} tokens").format(state.n)
    title = translate("Figures", "{0}: {1}").format(kind, text)
    if state.provenance is not None:  # which model, layer and head (its heads: this one)
        return title + " · " + source_text(state.provenance, state.head_index(h)
                                           if state.provenance.scope == "layer" else None)
    if state.n_heads > 1:
        title += " · " + translate("Figures", "head {0} of {1}").format(
            state.head_index(h) + 1, state.n_heads)
    return title
