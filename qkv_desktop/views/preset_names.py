"""What the Presets menu calls each preset: a readable name and one line on why to try it.

The ids (``tutorial-1``) stay for the command line and session files; a learner reads
"Tutorial 1 — 我 爱 人工 智能" and what it shows.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from qkv_desktop.core import PRESETS
from qkv_desktop.presentation.texts import say
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Text

__all__ = ["preset_name", "preset_text", "preset_description"]

_NAMES = {
    "tutorial-1": QT_TRANSLATE_NOOP("Presets", "Tutorial 1 — {0}"),
    "tutorial-2": QT_TRANSLATE_NOOP("Presets", "Tutorial 2 — {0}"),
    "random-small": QT_TRANSLATE_NOOP("Presets", "Random, small — 5 tokens, d_model 8"),
    "random-medium": QT_TRANSLATE_NOOP("Presets", "Random, medium — 12 tokens, d_model 16"),
}


def preset_text(key: str) -> Text | str:
    """The name of preset ``key``, to be said in the language of the moment (an undo
    step's text keeps it: "Load preset …" follows View → Language); its id if unknown."""
    if key not in _NAMES:
        return key
    return Text(_NAMES[key], (" ".join(PRESETS[key].tokens),) if "{0}" in _NAMES[key] else (),
                "Presets")


def preset_name(key: str) -> str:
    """The menu text of preset ``key`` in the current language (its id if unknown)."""
    return say(preset_text(key))


def preset_description(key: str) -> str:
    """One line on what preset ``key`` shows."""
    translate = QCoreApplication.translate
    return {
        "tutorial-1": translate("Presets", "The tutorial's first example: why attention is "
                                "nearly uniform here (weights × 0.1)."),
        "tutorial-2": translate("Presets", "The tutorial's second example: who chases whom, "
                                "and why W_Q and W_K must differ."),
        "random-small": translate("Presets", "Seeded random vectors with larger weights: "
                                  "sharper, uneven attention."),
        "random-medium": translate("Presets", "A longer random sequence, for the patterns "
                                   "of a bigger weight matrix."),
    }.get(key, "")
