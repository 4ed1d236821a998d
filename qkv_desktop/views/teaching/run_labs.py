"""The Lab menu's "how attention runs and learns" windows, built when first opened.

KV-cache stepper, online softmax and FlashAttention tiles, gradient lab (issue 23).
Each is imported only when first opened: building a lab costs a moment.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from qkv_desktop.views.retranslate import FollowsWindowLanguage
from qkv_desktop.views.window_shortcuts import undo_in_lab

__all__ = ["RunLabs", "install_run_labs"]


def _kv_cache_lab(model, parent):
    from qkv_desktop.views.teaching.kv_cache_lab import KVCacheLab
    return KVCacheLab(model, parent)


def _tiles_lab(model, parent):
    from qkv_desktop.views.teaching.tiles_lab import TilesLab
    return TilesLab(model, parent)


def _gradient_lab(model, parent):
    from qkv_desktop.views.teaching.gradient_lab import GradientLab
    return GradientLab(model, parent)


LABS = {"kv_cache": ("showKVCacheLab", _kv_cache_lab),
        "tiles": ("showTilesLab", _tiles_lab),
        "gradients": ("showGradientLab", _gradient_lab)}
"""Lab key → (action object name, factory(model, parent))."""


class RunLabs(FollowsWindowLanguage, QObject):
    """The lab windows of one main window (``windows[key]`` once opened) and their actions."""

    def __init__(self, window, menu):
        super().__init__(window)
        self.main_window = window
        self.windows: dict[str, object] = {}
        self.actions: dict[str, QAction] = {}
        menu.addSeparator()
        for key, (name, _factory) in LABS.items():
            action = QAction(window, objectName=name)
            action.triggered.connect(lambda _checked=False, k=key: self.show(k))
            menu.addAction(action)
            self.actions[key] = action
        self.retranslate()
        self.follow_language_of(window)

    def lab(self, key: str):
        """The lab window ``key``, built on first use.

        The main window's Undo and Redo act in it too (``undo_in_lab``)."""
        if key not in self.windows:
            main = self.main_window
            self.windows[key] = undo_in_lab(LABS[key][1](main.model, main), main)
        return self.windows[key]

    def show(self, key: str):
        lab = self.lab(key)
        lab.show()
        lab.raise_()
        lab.activateWindow()
        return lab

    def retranslate(self) -> None:
        texts = {"kv_cache": (self.tr("&KV-cache stepper…"),
                              self.tr("Decode the session one token at a time with a "
                                      "key/value cache")),
                 "tiles": (self.tr("&Online softmax and FlashAttention tiles…"),
                           self.tr("Softmax block by block, and attention tile by tile "
                                   "without the n × n matrix")),
                 "gradients": (self.tr("&Gradient lab…"),
                               self.tr("Train W_Q, W_K and W_V towards a pattern and watch "
                                       "the loss and the gradients"))}
        for key, action in self.actions.items():
            text, tip = texts[key]
            action.setText(text)
            action.setToolTip(tip)
            action.setStatusTip(tip)


def install_run_labs(window) -> RunLabs:
    """Add the labs to ``window``'s Lab menu (``window.teaching.lab_menu``)."""
    return RunLabs(window, window.teaching.lab_menu)
