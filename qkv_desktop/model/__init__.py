"""The model layer: immutable session state, undo commands and the Qt model object.

``state`` and ``compute`` are pure; the Qt names are imported on first use, so
headless code (sessions, checkpoints, ``render``) can use the state without Qt.
"""

from .compute import ModelResult, compute
from .state import Options, SessionState

__all__ = ["AttentionModel", "CellRef", "ModelResult", "compute", "Options", "SessionState"]


def __getattr__(name: str):
    if name in ("AttentionModel", "CellRef"):
        from . import attention_model
        return getattr(attention_model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
