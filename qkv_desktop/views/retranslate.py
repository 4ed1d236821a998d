"""The one piece every translated widget shares: re-set texts on a language change."""

from __future__ import annotations

from PySide6.QtCore import QEvent

__all__ = ["Retranslating"]


class Retranslating:
    """Mixin for a ``QWidget`` subclass with a ``retranslate()`` method.

    Switching the language (View → Language) makes Qt send ``LanguageChange`` to every
    widget; this calls ``retranslate()`` then. List it before the Qt base class:
    ``class Panel(Retranslating, QWidget)``.
    """

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
