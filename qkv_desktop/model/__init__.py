"""The model layer: immutable session state, undo commands and the Qt model object."""

from .attention_model import AttentionModel, CellRef
from .compute import ModelResult, compute
from .state import Options, SessionState

__all__ = ["AttentionModel", "CellRef", "ModelResult", "compute", "Options", "SessionState"]
