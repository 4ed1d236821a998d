"""The figures a session has beyond one head's eight panes.

``render`` draws the eight panes of one head; a multi-head or cross-attention session
has more to show. ``extra_pane_specs`` gives those figures, named for their files:
``x_kv`` (cross mode), for h > 1 every head's per-head panes with the head in the name
(``q_h1`` … ``weights_h2`` …) and the concatenation ``concat``, and ``projected``
when W_O is on, and the position and mask panes the session has (``x_pos``, ``q_rope``,
``k_rope``, ``mask``, ``bias``; when they differ between heads, the shown head's under
the plain name and every head's with the head in the name, as the data export does). Which pane
goes where is the catalogue's ``figure_group`` (in the order of ``FIGURE_GROUPS``, and
within a group in the catalogue's order), so a new optional matrix needs no change here.
Titles and labels come from ``pane_figures.pane_spec``, so each figure matches its live
pane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from qkv_desktop.export.figures import FigureSpec
from qkv_desktop.export.pane_figures import pane_spec
from qkv_desktop.presentation.pane_info import EXTRA_PANES, HEAD_INDEPENDENT, PANES, pane_relevant
from qkv_desktop.state.catalogue import FIGURE_GROUPS, MATRIX, head_file_name
from qkv_desktop.state.compute import ModelResult

__all__ = ["extra_pane_specs", "head_file_name"]


def _group(name: str) -> tuple[str, ...]:
    """The optional panes of figure group ``name``, in the catalogue's order."""
    return tuple(p.key for p in EXTRA_PANES if MATRIX[p.key].figure_group == name)


Translate = Callable[[str, str], str]


def extra_pane_specs(result: ModelResult, translate: Translate | None = None,
                     h: int = 0) -> list[FigureSpec]:
    """Figures of the extra panes and, for h > 1, of every head (empty for one head in
    self-attention without W_O). ``translate`` is that of ``pane_figures.pane_specs``.

    A per-head extra pane (``q_rope``, ``k_rope``, ``bias``) of several heads has head
    ``h``'s figure under the plain name before every head's: as the data export writes
    ``Q_rope.csv`` (head ``h``) beside ``Q_rope_h1.csv`` …, and as ``q.png`` is head
    ``h``'s beside ``q_h1.png`` …
    """
    state = result.state
    h = state.head_index(h)
    specs = []
    for group in FIGURE_GROUPS:
        if group == "head":
            if state.n_heads > 1:
                specs += [_head_spec(result, pane.key, h, translate)
                          for h in range(state.n_heads)
                          for pane in PANES if pane.key not in HEAD_INDEPENDENT]
            continue
        for key in _group(group):
            if not pane_relevant(state, key):
                continue
            if key in HEAD_INDEPENDENT or state.n_heads == 1:
                specs.append(pane_spec(result, key, 0, translate))
            else:
                specs.append(pane_spec(result, key, h, translate))
                specs += [_head_spec(result, key, k, translate) for k in range(state.n_heads)]
    return specs


def _head_spec(result: ModelResult, key: str, h: int, translate: Translate | None) -> FigureSpec:
    """Pane ``key``'s figure for head ``h``, its file named for the head."""
    spec = pane_spec(result, key, h, translate)
    return replace(spec, name=head_file_name(spec.name, h))
