"""The Qt-free session: immutable state, pure edits, ``compute()`` and its result.

Everything here runs without Qt (sessions, checkpoints and ``render`` use it
headless); the Qt model in ``qkv_desktop.model`` holds a ``SessionState`` and
swaps it for a new one on every undoable edit.
"""

from qkv_desktop.state.catalogue import CellRef
from qkv_desktop.state.compute import ModelResult, compute
from qkv_desktop.state.session_state import Options, SessionState

__all__ = ["CellRef", "ModelResult", "compute", "Options", "SessionState"]
