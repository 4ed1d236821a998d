"""The state layer's sentences (refusals, notes, undo texts) in the interface language."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from qkv_desktop.state.texts import EditError, Text, say_in

__all__ = ["say"]


def say(item: Text | Exception | str) -> str:
    """``item`` translated (context "Edits", where the state marks its texts)."""
    if isinstance(item, EditError):
        item = item.text
    if isinstance(item, Text):
        return say_in(QCoreApplication.translate("Edits", item.template), item.args)  # marked texts
    return str(item)
