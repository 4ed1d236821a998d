"""Issue 18, what a first-time user still met in the main window on a laptop screen:
translated paste refusals, a status bar whose fields stay apart and forget a failure
once it is over, the Explain tab raised by a pin, table cells by the four-decimal rule,
colour-bar end labels inside the pane, a pane grid that keeps panes near square, axes
that rotate names before dropping them, and a tour that never covers what it shows."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.views import i18n


@pytest.fixture
def chinese(qapp):
    i18n.install_translators(qapp, "zh_CN")
    QApplication.processEvents()
    yield qapp
    i18n.install_translators(qapp, "en")
    QApplication.processEvents()


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(3):
        QApplication.processEvents()


# ------------------------------------------------------------ item 8: paste refusals
@pytest.mark.parametrize("text, chinese_words", [
    ("1\t2\t3\n4\t5\tx", ("第 2 行、第 3 列", "不是数字")),  # the bad cell, said inside
    ("1\t2\n3", ("各行数值个数不一致",)),
    (" \n\n", ("剪贴板里没有可粘贴的数值",)),
])
def test_a_refused_paste_is_said_in_chinese(main_window, chinese, text, chinese_words):
    editor = main_window.editor
    editor.setCurrentIndex(editor.table.index(0, 1))
    assert not editor.paste(text)
    message = main_window.statusBar().currentMessage()
    assert message.startswith("粘贴被拒绝：")
    for words in chinese_words:
        assert words in message
    assert not any(english in message for english in
                   ("row", "column", "is not a number", "different", "clipboard"))


# ------------------------------------------------ item 9: a failure that is over
def test_could_not_compute_leaves_the_status_bar_once_the_state_computes(main_window,
                                                                         monkeypatch):
    from qkv_desktop.model import attention_model
    window, bar = main_window, main_window.statusBar()

    def refuse(state):
        raise ValueError("this state cannot be computed")
    monkeypatch.setattr(attention_model, "compute", refuse)
    window.model.set_cell("X", 0, 0, 0.5)
    window.model.wait_until_idle()
    QApplication.processEvents()
    assert bar.currentMessage().startswith("Could not compute attention: ")
    assert window.model.compute_error
    monkeypatch.undo()
    window.model.set_cell("X", 0, 0, 0.25)  # computable again
    settle(window)
    assert window.model.compute_error == ""
    assert bar.currentMessage() == ""


def test_recovering_keeps_a_newer_message(main_window, monkeypatch):
    from qkv_desktop.model import attention_model
    window, bar = main_window, main_window.statusBar()
    def refuse(state):
        raise ValueError("this state cannot be computed")
    monkeypatch.setattr(attention_model, "compute", refuse)
    window.model.set_cell("X", 0, 0, 0.5)
    window.model.wait_until_idle()
    monkeypatch.undo()
    window.model.message.emit("Saved")  # said after the failure: still news
    window.model.set_cell("X", 0, 0, 0.25)
    settle(window)
    assert bar.currentMessage() == "Saved"
