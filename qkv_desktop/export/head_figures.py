"""The figures a session has beyond one head's eight panes.

``render`` draws the eight panes of one head; a multi-head or cross-attention session
has more to show. ``extra_pane_specs`` gives those figures, named for their files:
``x_kv`` (cross mode), for h > 1 every head's per-head panes with the head in the name
(``q_h1`` … ``weights_h2`` …) and the concatenation ``concat``, and ``projected``
when W_O is on, and the position and mask panes the session has (``x_pos``, ``q_rope``,
``k_rope``, ``mask``, ``bias``; per head when they differ between heads). Titles and
labels come from ``pane_figures.pane_spec``, so each figure matches its live pane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from qkv_desktop.export.figures import FigureSpec
from qkv_desktop.export.pane_figures import pane_spec
from qkv_desktop.presentation.pane_info import HEAD_INDEPENDENT, PANES, pane_relevant
from qkv_desktop.state.compute import ModelResult

__all__ = ["extra_pane_specs", "head_file_name", "POSITION_MASK_PANES"]

POSITION_MASK_PANES = ("X_pos", "Q_rope", "K_rope", "mask", "bias")
"""The panes that appear with positions (sinusoidal, RoPE) or a mask (and ALiBi)."""

Translate = Callable[[str, str], str]


def head_file_name(file: str, h: int) -> str:
    """The file name of pane ``file`` of head ``h`` (0-based): ``weights_h2`` for h = 1."""
    return f"{file}_h{h + 1}"


def extra_pane_specs(result: ModelResult,
                     translate: Translate | None = None) -> list[FigureSpec]:
    """Figures of the extra panes and, for h > 1, of every head (empty for one head in
    self-attention without W_O). ``translate`` is that of ``pane_figures.pane_specs``.
    """
    state = result.state
    specs = []
    if pane_relevant(state, "X_kv"):
        specs.append(pane_spec(result, "X_kv", 0, translate))
    if state.n_heads > 1:
        for h in range(state.n_heads):
            for pane in PANES:
                if pane.key not in HEAD_INDEPENDENT:
                    spec = pane_spec(result, pane.key, h, translate)
                    specs.append(replace(spec, name=head_file_name(spec.name, h)))
    for key in POSITION_MASK_PANES:
        if not pane_relevant(state, key):
            continue
        if key in HEAD_INDEPENDENT or state.n_heads == 1:
            specs.append(pane_spec(result, key, 0, translate))
            continue
        for h in range(state.n_heads):
            spec = pane_spec(result, key, h, translate)
            specs.append(replace(spec, name=head_file_name(spec.name, h)))
    for key in ("concat", "projected"):
        if pane_relevant(state, key):
            specs.append(pane_spec(result, key, 0, translate))
    return specs
