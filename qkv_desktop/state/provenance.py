"""Where a session's numbers came from: one head (or one layer's heads) of a real model.

A session loaded from a checkpoint carries a ``Provenance`` in
``SessionState.provenance``, so the source travels with the state through undo, redo,
autosave and the session file (its "model" object, whose keys are this dataclass's
fields), instead of the window remembering which state came from where.

``layer`` and ``head`` are 0-based indices (the window counts them from 1, out of
``n_layers`` and ``n_heads``; ``render --model`` takes them 0-based).

The two last fields keep the source honest once the user changes things: ``edited``
turns true with the first change of the loaded session, ``weights`` says whether the
weights are still the checkpoint's (``"model"``), the checkpoint's with edits
(``"edited"``), or not the checkpoint's any more (``"replaced"``: re-initialised from
the seed after a change of d_model, d_k or h, or imported). ``SessionState`` updates
both (``with_``, ``reinitialised``); an undo puts back the state, source and all.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace

from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, EditError, Listed

__all__ = ["PROVENANCE_TYPES", "REQUIRED_KEYS", "SCOPES", "WEIGHT_STATES", "Provenance",
           "provenance_to_json"]

SCOPES = ("head", "layer")
"""``"head"``: one head of the model; ``"layer"``: every query head of the layer."""

WEIGHT_STATES = ("model", "edited", "replaced")

_EXPECTED = {str: QT_TRANSLATE_NOOP("Edits", "{0} is {1}, expected a string"),
             int: QT_TRANSLATE_NOOP("Edits", "{0} is {1}, expected a non-negative integer"),
             bool: QT_TRANSLATE_NOOP("Edits", "{0} is {1}, expected true or false")}
"""The refusal of a field that does not hold a value of its type."""


@dataclass(frozen=True)
class Provenance:
    """Which model, text, layer and head a session was loaded from (pure data).

    ``source`` says how the model was found (``"folder"``, ``"file"`` or
    ``"package NAME"``) and ``location`` where.
    """

    name: str
    text: str
    layer: int
    head: int
    kind: str = "encoder"
    source: str = "folder"
    location: str = ""
    n_layers: int = 0
    n_heads: int = 0
    scope: str = "head"
    edited: bool = False
    weights: str = "model"

    def __post_init__(self) -> None:
        for f in fields(self):
            v, kind = getattr(self, f.name), PROVENANCE_TYPES[f.name]
            if type(v) is not kind or (kind is int and v < 0):
                raise EditError(_EXPECTED[kind], f.name, repr(v))
        if self.scope not in SCOPES:
            raise EditError(QT_TRANSLATE_NOOP("Edits", 'scope is {0}, expected "head" or "layer"'),
                            repr(self.scope))
        if self.weights not in WEIGHT_STATES:
            raise EditError(QT_TRANSLATE_NOOP("Edits", "weights is {0}, expected one of {1}"),
                            repr(self.weights), Listed(f'"{w}"' for w in WEIGHT_STATES))

    def after_edit(self, weights: bool) -> Provenance:
        """This source once the session was changed; ``weights``: W_Q/K/V, biases or W_O
        were among the changes."""
        state = "edited" if weights and self.weights == "model" else self.weights
        return replace(self, edited=True, weights=state)

    def after_reinit(self) -> Provenance:
        """This source once the weights were re-initialised from the seed."""
        return replace(self, edited=True, weights="replaced")

    @classmethod
    def from_json(cls, value: dict) -> Provenance:
        """From the session file's "model" object; ``EditError`` (a ``ValueError``)
        names a bad field."""
        unknown = [k for k in value if k not in PROVENANCE_TYPES]
        if unknown:
            raise EditError(QT_TRANSLATE_NOOP("Edits", 'unknown field "{0}"; expected {1}'),
                            unknown[0], Listed(PROVENANCE_TYPES))
        missing = [k for k in REQUIRED_KEYS if k not in value]
        if missing:
            raise EditError(QT_TRANSLATE_NOOP("Edits", 'no "{0}" field'), missing[0])
        return cls(**value)


_TYPES = {"str": str, "int": int, "bool": bool}
PROVENANCE_TYPES: dict[str, type] = {f.name: _TYPES[f.type] for f in fields(Provenance)}
"""The "model" object's keys and their JSON types, in field order."""

REQUIRED_KEYS: tuple[str, ...] = tuple(
    f.name for f in fields(Provenance) if f.default is MISSING)
"""The keys a "model" object must have (the fields without a default)."""


def provenance_to_json(p: Provenance) -> dict:
    """``p`` as the session file's "model" object (every field, in field order)."""
    return {f.name: getattr(p, f.name) for f in fields(p)}
