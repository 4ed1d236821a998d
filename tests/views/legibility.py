"""What a learner cannot read without hovering, though nothing is cut or overlapping.

The layout rule (``geometry.layout_problems``) accepts a pane whose values are hidden
because its cells are too small, an axis that shows every k-th token name, and a text
shortened with "…": each says so on hover. They are still what makes a screen size
poor to learn on, so the screenshot script lists them beside each picture; they are
notes for a person to weigh, not failures.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from qkv_desktop.views.elided_label import ElidedLabel
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from tests.views.plot_geometry import axis_texts

__all__ = ["legibility_notes"]


def _shown(w: QWidget, window: QWidget) -> bool:
    return w.isVisible() and w.window() is window and not w.visibleRegion().isEmpty()


def legibility_notes(window: QWidget) -> list[str]:
    """Panes with hidden values, axes that leave token names out or shorten them, and
    shortened one-line texts, in ``window`` as it is on screen."""
    notes: list[str] = []
    for pane in window.findChildren(HeatmapPane):
        if not _shown(pane, window):
            continue
        plot = pane.plot
        if plot.values_hidden:
            notes.append(f"pane {pane.key}: values hidden")
        labels = getattr(plot, "_labels", None)
        if labels is None:
            continue
        item = plot.getPlotItem()
        for side, names in (("left", labels[0]), ("bottom", labels[1])):
            if not names or all(n.isdigit() for n in names):
                continue  # an index axis: every k-th number reads as a normal axis
            drawn = [text for text, _rect in axis_texts(item.getAxis(side))]
            if len(drawn) < len(names):
                notes.append(f"pane {pane.key}: {side} axis names {len(drawn)} of "
                             f"{len(names)} tokens ({' '.join(drawn)})")
            elif any(t.endswith("…") for t in drawn):
                notes.append(f"pane {pane.key}: {side} axis names shortened "
                             f"({' '.join(drawn)})")
    for label in window.findChildren(ElidedLabel):
        # cut with "…", or a shorter wording (a pane's name and shape for its formula)
        if _shown(label, window) and label.is_shortened():
            notes.append(f"shortened: {label.shown_text()!r}")
    return notes
