"""The status bar's message is read whole beside a loaded model's name, at 1024 px.

Its permanent fields took their whole text's width: presentation mode's hint read
"Presentation mo…" beside all-MiniLM-L6-v2's source at 1024 × 700, and a model load's
note lost its "Ctrl+Z brings them back". The hint also stayed after leaving
presentation mode, and in its old language after a language change.
"""

from __future__ import annotations

import pytest

pytest.importorskip("safetensors", reason="checkpoints need: pip install safetensors")
pytest.importorskip("tokenizers", reason="checkpoints need: pip install tokenizers")

from PySide6.QtCore import QCoreApplication  # noqa: E402

from qkv_desktop.views import zoom  # noqa: E402
from tests.io.tiny_bert import SENTENCE, write_checkpoint  # noqa: E402
from tests.views.sessions import settle  # noqa: E402

NAME = "all-MiniLM-L6-v2"
"""The name the tiny checkpoint is opened under: as long as the installed model's."""


@pytest.fixture
def narrow(make_window, qtbot, tmp_path, monkeypatch):
    """A 1024 px wide window on a head of a model opened through File → Open model…;
    presentation mode's hint stays while the test looks (a busy machine took 4 s)."""
    monkeypatch.setattr(zoom, "HINT_MS", 600_000, raising=False)
    window = make_window(size=(1024, 700))
    folder = tmp_path / "tiny-bert-uncased"
    write_checkpoint(folder)
    window.edited_before_load = window.model.state
    window.model.set_cell("X", 1, 2, 5.0)  # the learner's edit, which the load replaces
    settle(window)
    window.statusBar().clearMessage()
    dialog = window.models.open_dialog()
    dialog.open_folder(folder, name=NAME)
    qtbot.waitUntil(lambda: not dialog.busy)
    dialog.text_edit.setText(SENTENCE)
    with qtbot.waitSignal(dialog.loaded):
        dialog.ok_button.click()
    settle(window)
    yield window
    window.view_scale.leave_presentation()
    window.view_scale.set_zoom(1.0)


def test_a_model_loads_note_says_ctrl_z_whole_beside_the_models_name(narrow):
    bar, source = narrow.statusBar(), narrow.models.source_label
    assert bar.said() == "Your edits were replaced; Ctrl+Z brings them back."
    assert bar.shown_message() == bar.said()  # "…; Ctrl+Z br…" beside the name
    assert source.isVisible() and source.text().startswith(NAME)  # the load is named there
    assert NAME in source.toolTip() or not source.is_shortened()
    bar.clearMessage()
    QCoreApplication.processEvents()
    assert not source.is_shortened()  # its room back once the note has gone


def test_the_presentation_hint_is_read_whole_beside_the_models_name(narrow):
    window, scale = narrow, narrow.view_scale
    scale.enter_presentation()
    window.showNormal()  # full screen on a 1024 × 700 projector (the test screen is wider)
    window.resize(1024, 700)
    settle(window)
    bar = window.statusBar()
    assert bar.width() <= 1024
    assert bar.said() == "Presentation mode: F5 or Esc to leave"
    assert bar.shown_message() == bar.said(), bar.shown_message()  # "Presentation mo…"
    assert window.models.source_label.isVisible()
    assert window.teaching.badge.isVisible()


def test_the_presentation_hint_goes_when_presentation_mode_does(narrow):
    scale, bar = narrow.view_scale, narrow.statusBar()
    scale.enter_presentation()
    assert "Esc" in bar.said()
    scale.leave_presentation()  # within its time: it stayed, telling how to leave
    assert bar.currentMessage() == "" and bar.said() == ""
    settle(narrow)
    assert bar.currentMessage() == ""


def test_the_presentation_hint_speaks_the_new_language(narrow, speak):
    scale, bar = narrow.view_scale, narrow.statusBar()
    speak("zh_CN")
    scale.enter_presentation()
    settle(narrow)
    assert bar.said() == "演示模式：按 F5 或 Esc 退出"
    speak("en")  # the Chinese hint stayed up in an English window
    assert bar.said() == "Presentation mode: F5 or Esc to leave"
    speak("zh_CN")
    scale.leave_presentation()
    settle(narrow)
    assert bar.currentMessage() == ""
