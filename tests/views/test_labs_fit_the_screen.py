"""Every lab window opens inside a laptop screen and closes from the keyboard."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState

LABS = ["qkv_desktop.views.teaching.kv_cache_lab", "qkv_desktop.views.teaching.tiles_lab",
        "qkv_desktop.views.teaching.gradient_lab", "qkv_desktop.views.teaching.rope_lab"]


def lab_classes():
    import importlib
    import inspect

    from PySide6.QtWidgets import QWidget
    found = []
    for module_name in LABS:
        module = importlib.import_module(module_name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module_name and issubclass(cls, QWidget) \
                    and "Lab" in cls.__name__ and not cls.__name__.startswith("_"):
                found.append(cls)
    return found


@pytest.mark.parametrize("cls", lab_classes(), ids=lambda c: c.__name__)
def test_a_lab_opens_inside_a_1024x700_screen(cls, qtbot, monkeypatch):
    screen = QApplication.primaryScreen()
    monkeypatch.setattr(type(screen), "availableGeometry", lambda self: QRect(0, 0, 1024, 700))
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    try:
        lab = cls(model)
    except TypeError:
        pytest.skip(f"{cls.__name__} is not a top-level lab window")
    qtbot.addWidget(lab)
    lab.show()
    qtbot.waitExposed(lab)
    QApplication.processEvents()
    assert lab.width() <= 1024 and lab.height() <= 700, (lab.width(), lab.height())


def test_the_rope_lab_closes_with_escape(qtbot):
    from qkv_desktop.views.teaching.rope_lab import RopeLab
    lab = RopeLab(AttentionModel(SessionState.from_preset("tutorial-1")))
    qtbot.addWidget(lab)
    lab.show()
    qtbot.waitExposed(lab)
    lab.activateWindow()
    assert "QKV Desktop" in lab.windowTitle()
    from PySide6.QtGui import QKeySequence, QShortcut
    keys = {s.key() for s in lab.findChildren(QShortcut)}
    assert QKeySequence(Qt.Key.Key_Escape) in keys
    assert QKeySequence(QKeySequence.StandardKey.Close) in keys
