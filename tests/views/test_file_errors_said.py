"""A damaged session or a bad import file is refused in the window's language: the
readers of ``io`` mark their messages (context "Files") and the window says them
(``presentation.say``), the file name and what the file held kept as they are."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings

from qkv_desktop.io.imports import ImportFileError, import_vectors
from qkv_desktop.io.session import SessionError, load_session
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.texts import say
from qkv_desktop.views import i18n
from qkv_desktop.views.main_window import MainWindow

TS = (Path(__file__).resolve().parents[2] / "qkv_desktop" / "resources" / "translations"
      / "qkv_desktop_zh_CN.ts")
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def speak(qapp):
    """``speak(lang)`` installs that language as the app does; English afterwards."""
    def install(lang):
        i18n.install_translators(qapp, lang)
        QCoreApplication.sendPostedEvents()
    yield install
    install("en")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(AttentionModel(), settings)
    w.files.session.folder = tmp_path / "data"
    w.files.session.folder.mkdir()
    qtbot.addWidget(w, before_close_func=lambda win: win.model.undo_stack.setClean())
    w.shown = []
    monkeypatch.setattr("qkv_desktop.views.actions.file_actions.QMessageBox.warning",
                        lambda *a: w.shown.append(a[2]))
    return w


def test_a_damaged_session_is_refused_in_chinese(window, tmp_path, speak):
    bad = tmp_path / "坏了.qkv.json"
    bad.write_text('{"format": "qkv-desktop-session", "version": 1, "tokens": ["a"], '
                   '"X": [[1, 2')
    speak("zh_CN")
    before = window.model.state
    assert not window.files.session.open(bad)
    assert window.model.state is before
    message = window.shown[-1]
    assert message.startswith("坏了.qkv.json：不是有效的 JSON")
    assert "文件似乎不完整" in message and "not valid JSON" not in message
    assert window.statusBar().currentMessage() == message
    speak("en")  # the same file in the English window
    assert not window.files.session.open(bad)
    assert window.shown[-1].startswith("坏了.qkv.json: is not valid JSON")


def test_a_session_field_of_the_wrong_kind_names_the_field_and_the_value(window, tmp_path,
                                                                          speak):
    bad = tmp_path / "s.qkv.json"
    bad.write_text('{"format": "qkv-desktop-session", "version": 2, "tokens": ["a"], '
                   '"X": [[1, "{x}"]], "d_k": 1, "heads": [{}]}')
    speak("zh_CN")
    assert not window.files.session.open(bad)
    # the value the file held ("{x}", braces and all) is a field, kept as it was typed
    assert window.shown[-1] == 's.qkv.json：X[0][1] 是 "{x}"，应为数字'
    with pytest.raises(SessionError, match=re.escape('X[0][1] is "{x}", expected a number')):
        load_session(bad)  # scripts and the command line read English


def test_importing_a_csv_with_a_word_for_a_number_is_refused_in_chinese(window, tmp_path,
                                                                         speak, monkeypatch):
    csv = tmp_path / "vectors.csv"
    csv.write_text("token,d1,d2\nthe,0.1,0.2\ncat,0.3,zero\n", encoding="utf-8")
    monkeypatch.setattr("qkv_desktop.views.actions.file_actions.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(csv), ""))
    speak("zh_CN")
    before = window.model.state
    window.files.on_import_vectors()
    assert window.model.state is before
    assert window.shown[-1] == ("vectors.csv：第 3 行第 3 列是“zero”，应为一个数字"
                                "（以“.”作小数点）")
    with pytest.raises(ImportFileError) as info:
        import_vectors(csv)
    assert str(info.value) == ('vectors.csv: line 3, column 3 is "zero", expected a number '
                               '(with "." as the decimal mark)')


def test_a_missing_weights_file_is_refused_in_chinese(window, tmp_path, speak, monkeypatch):
    gone = tmp_path / "weights.npz"
    monkeypatch.setattr("qkv_desktop.views.actions.file_actions.QFileDialog.getOpenFileName",
                        lambda *a, **k: (str(gone), ""))
    speak("zh_CN")
    window.files.on_import_weights()
    assert window.shown[-1] == f"weights.npz：文件不存在（{gone}）"


def test_an_unreadable_autosave_is_reported_in_chinese(tmp_path, speak):
    """Recovery after a crash: an autosave that cannot be read is reported, and kept."""
    from qkv_desktop.model.document import SessionController
    model = AttentionModel()
    session = SessionController(model, QSettings(str(tmp_path / "s.ini"),
                                                 QSettings.Format.IniFormat),
                                folder=tmp_path / "data")
    errors = []
    session.error.connect(errors.append)
    session.folder.mkdir(parents=True, exist_ok=True)
    orphan = session.folder / "autosave-dead.qkv.json"
    orphan.write_bytes(b"")
    speak("zh_CN")
    try:
        assert not session.offer_recovery(lambda _question: True)
    finally:
        session.release_lock()
    assert errors == ["无法读取自动保存的内容：autosave-dead.qkv.json：文件是空的"]
    assert orphan.exists()


def test_say_translates_the_file_errors_and_leaves_str_english(speak, tmp_path):
    empty = tmp_path / "e.qkv.json"
    empty.write_bytes(b"")
    with pytest.raises(SessionError) as info:
        load_session(empty)
    assert str(info.value) == "e.qkv.json: the file is empty"
    assert info.value.problem == "the file is empty"
    speak("zh_CN")
    assert say(info.value) == "e.qkv.json：文件是空的"
    speak("en")
    assert say(info.value) == "e.qkv.json: the file is empty"


def test_every_file_message_is_translated():
    """Every template the readers mark (context "Files") has a finished Chinese text with
    the same fields (the catalogue test checks that none is missing)."""
    files = [c for c in ET.parse(TS).getroot() if c.findtext("name") == "Files"]
    assert len(files) == 1
    messages = files[0].findall("message")
    assert len(messages) > 100
    for m in messages:
        source, translation = m.findtext("source"), m.find("translation")
        assert translation.get("type") is None, source
        text = translation.text or ""
        assert sorted(re.findall(r"\{\d+\}", text)) == sorted(re.findall(r"\{\d+\}", source))
        if re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", re.sub(r"\{\d+\}", "", source)):
            assert HAN.search(text), source  # a sentence, not a field name: said in Chinese


@pytest.mark.parametrize("damage, chinese", [
    (lambda f: (f / "model.safetensors").unlink(), "中缺少 model.safetensors"),
    (lambda f: (f / "config.json").write_text('{"model_type": "gpt2"}'),
     "不支持 model_type 'gpt2'；只能打开 BERT 编码器"),
], ids=["missing-weights", "not-bert"])
def test_the_open_model_dialog_refuses_a_bad_folder_in_chinese(qtbot, tmp_path, speak,
                                                                damage, chinese):
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    from qkv_desktop.views.dialogs.model_dialog import ModelDialog
    from tests.io.tiny_bert import write_checkpoint
    folder = tmp_path / "tiny-bert"
    write_checkpoint(folder)
    damage(folder)
    speak("zh_CN")
    model = AttentionModel()
    dialog = ModelDialog(model, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(dialog)
    try:
        dialog.open_folder(folder)
        qtbot.waitUntil(lambda: not dialog.busy)
        text = dialog.error_label.text()
        assert chinese in text and str(folder) in text
        assert "is missing" not in text and "is not supported" not in text
    finally:
        model.shutdown()


def test_the_token_preview_refuses_empty_text_in_chinese(qtbot, tmp_path, speak):
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    from qkv_desktop.views.dialogs.model_dialog import ModelDialog
    from tests.io.tiny_bert import write_checkpoint
    folder = tmp_path / "tiny-bert"
    write_checkpoint(folder)
    speak("zh_CN")
    model = AttentionModel()
    dialog = ModelDialog(model, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(dialog)
    try:
        dialog.open_folder(folder)
        qtbot.waitUntil(lambda: not dialog.busy)
        dialog.text_edit.setText("  ")
        assert "文本为空" in dialog.tokens_label.text()
        dialog.text_edit.setText("the cat " * 8)
        assert "最多接受 16 个" in dialog.tokens_label.text()
    finally:
        model.shutdown()


def test_an_export_target_that_is_a_folder_is_refused_in_chinese(tmp_path, speak):
    from qkv_desktop.io.staged_files import StagedFiles
    target = tmp_path / "weights.png"
    target.mkdir()
    with StagedFiles() as staged, pytest.raises(ValueError) as info:
        staged.add(target, b"figure")
    assert str(info.value) == f"{str(target)!r} is a folder; nothing was written or moved"
    speak("zh_CN")
    assert say(info.value) == f"{str(target)!r} 是文件夹；没有写入或移动任何文件"


def test_a_session_too_large_to_open_again_is_not_saved_and_says_so_in_chinese(
        window, tmp_path, speak, monkeypatch):
    monkeypatch.setattr("qkv_desktop.io.session.MAX_SESSION_BYTES", 1024**2)
    monkeypatch.setattr("qkv_desktop.io.session.session_to_json",
                        lambda state, extra=None: "x" * (3 * 1024**2))
    speak("zh_CN")
    target = tmp_path / "大.qkv.json"
    assert not window.files.session.save_as(target)
    assert not target.exists()
    assert window.shown[-1] == ("无法保存 大.qkv.json：会话文件将有 3 MB，而超过 1 MB 的会话"
                                "文件无法再次打开；请改为把它的矩阵导出为数据（.npz）")
