"""The one line that names where a session's weights came from, for the status bar and
for exported figures: "SmolLM2-135M · layer 3 of 30 · head 2 of 9 (weights edited)".

A figure of a model's head that does not say which model, layer and head it shows
cannot be told from another on a slide; the status bar's label said it, the figures
did not (found by a first-time user).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from qkv_desktop.state.provenance import Provenance

__all__ = ["source_text"]


def source_text(source: Provenance, head: int | None = None) -> str:
    """``source`` in one line; ``head`` (0-based): the head a figure shows of a whole
    layer (a layer's session names its heads as "all h heads" without it)."""
    translate = QCoreApplication.translate
    if source.scope == "layer" and head is None:
        text = translate("Provenance", "{0} · layer {1} of {2} · all {3} heads").format(
            source.name, source.layer + 1, source.n_layers, source.n_heads)
    else:
        shown = source.head if source.scope == "head" or head is None else head
        text = translate("Provenance", "{0} · layer {1} of {2} · head {3} of {4}").format(
            source.name, source.layer + 1, source.n_layers, shown + 1, source.n_heads)
    if source.weights == "replaced":
        return translate("Provenance",
                         "{0} (edited; the weights are no longer the model's)").format(text)
    if source.weights == "edited":
        return translate("Provenance", "{0} (weights edited)").format(text)
    if source.edited:
        return translate("Provenance", "{0} (edited)").format(text)
    return text
