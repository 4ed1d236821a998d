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


class FollowsWindowLanguage:
    """Mixin for a ``QObject`` helper whose texts (menus, actions) live in a window.

    A plain ``QObject`` gets no ``LanguageChange`` of its own; ``follow_language_of``
    watches the window's and calls ``retranslate()``. List it before ``QObject``.
    """

    _language_window = None

    def follow_language_of(self, window) -> None:
        self._language_window = window
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if watched is self._language_window and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        return False
