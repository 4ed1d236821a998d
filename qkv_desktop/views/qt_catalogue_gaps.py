"""Qt's own dialog texts that the ``qtbase`` catalogue shipped with PySide6 lacks.

The wheel's ``qtbase_zh_CN.qm`` translates "Look in:" but not the "&Look in:" and
"Files of &type:" that Qt 6's ``QFileDialog`` really shows, so the open and save
dialogs said them in English in a Chinese window. Listing them here puts them into the
app's own catalogue under Qt's context, where the installed translator finds them
(``views.i18n`` installs ours beside ``qtbase``). Nothing calls these at run time.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

__all__ = ["QT_DIALOG_TEXTS"]

QT_DIALOG_TEXTS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)
