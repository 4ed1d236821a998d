"""Live Qt objects without widgets: the model, its undo commands, the document.

The Qt-free session they hold lives in ``qkv_desktop.state``.
"""

from qkv_desktop.model.attention_model import AttentionModel

__all__ = ["AttentionModel"]
