"""A damaged session or a bad import file is refused in the window's language: the
readers of ``io`` mark their messages (context "Files") and the window says them
(``presentation.say``), the file name and what the file held kept as they are."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from qkv_desktop.io.imports import ImportFileError, import_vectors
from qkv_desktop.io.session import SessionError, load_session
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.texts import say
from qkv_desktop.views.main_window import MainWindow

TS = (Path(__file__).resolve().parents[2] / "qkv_desktop" / "resources" / "translations"
      / "qkv_desktop_zh_CN.ts")
HAN = re.compile(r"[\u4e00-\u9fff]")


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
    errors, orphan = _recover(tmp_path, speak, b"")
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


# -- the state's own checks (context "Edits"), reached through a session file ----------

_ENGLISH = re.compile(r"[A-Za-z]{3,} [A-Za-z]{2,} [A-Za-z]{2,}")
"""Three English words in a row: a sentence left untranslated (field names, values and
lists of names such as "name, text, layer" are not)."""


def _session(**changes) -> str:
    """A small valid version 3 session with ``changes`` to its fields."""
    import json
    eye = [[1, 0], [0, 1]]
    obj = {"format": "qkv-desktop-session", "version": 3, "tokens": ["我", "爱"],
           "X": [[1, 2], [3, 4]], "d_k": 2, "heads": [{"W_Q": eye, "W_K": eye, "W_V": eye}],
           "model": {"name": "tiny", "text": "我爱", "layer": 0, "head": 0}}
    obj.update(changes)
    return json.dumps(obj, ensure_ascii=False)


_MODEL = {"name": "tiny", "text": "我爱", "layer": 0, "head": 0}


@pytest.mark.parametrize("changes, chinese", [
    ({"options": {"temperature": -1}}, "温度（options.temperature） 是 -1，应为正数"),
    # named as its box is labelled, not by its key alone (a first user looked for "rope_base")
    ({"options": {"rope_base": 0}}, "RoPE 底数（options.rope_base） 是 0，应为正数"),
    ({"X": [[1, 2]]}, "有 2 个词元，但 X 有 1 行"),
    ({"tokens": ["我", ""]}, "tokens[1] 是空字符串；每个词元都需要名称"),
    ({"model": {**_MODEL, "layer": -3}}, "model：layer 是 -3，应为非负整数"),
    ({"model": {**_MODEL, "edited": 1}}, "model：edited 是 1，应为 true 或 false"),
    ({"model": {**_MODEL, "scope": "block"}}, "model：scope 是 'block'，应为 \"head\" 或 \"layer\""),
    ({"model": {**_MODEL, "weights": "mine"}},
     "model：weights 是 'mine'，应为 \"model\"、\"edited\"、\"replaced\" 之一"),
    ({"model": {**_MODEL, "colour": "red"}}, "model：未知字段“colour”；应为 name、text、layer、"),
    ({"model": {"name": "tiny", "layer": 0, "head": 0}}, 'model：没有 "text" 字段'),
    ({"heads": [{"W_Q": [[1e39, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]}],
      "options": {"dtype": "float32"}}, "头 1 的 W_Q 含有超出 ±3.4e38 的值"),
], ids=["temperature", "rope-base", "X-rows", "empty-token", "model-layer", "model-edited", "model-scope",
        "model-weights", "model-unknown-field", "model-missing-field", "float32-head"])
def test_a_session_the_state_refuses_is_refused_in_chinese(window, tmp_path, speak, changes,
                                                           chinese):
    """The file is well-formed JSON, but a value breaks a rule of the session itself;
    the window names the value in Chinese, with no English sentence left in."""
    bad = tmp_path / "坏.qkv.json"
    bad.write_text(_session(**changes), encoding="utf-8")
    speak("zh_CN")
    before = window.model.state
    assert not window.files.session.open(bad)
    assert window.model.state is before
    message = window.shown[-1]
    assert message.startswith("坏.qkv.json：") and chinese in message, message
    assert not _ENGLISH.search(message), message


def test_an_autosave_with_a_bad_model_field_is_reported_in_chinese(tmp_path, speak):
    """Crash recovery reads the autosave as Open does, and says why it cannot."""
    errors, orphan = _recover(tmp_path, speak,
                              _session(model={**_MODEL, "head": -1}).encode("utf-8"))
    assert errors == ["无法读取自动保存的内容：autosave-dead.qkv.json：model：head 是 -1，"
                      "应为非负整数"]
    assert orphan.exists()


def _state(**changes):
    import numpy as np

    from qkv_desktop.core import Weights
    from qkv_desktop.state.session_state import SessionState
    eye = np.eye(2)
    fields = dict(tokens=("我", "爱"), X=np.ones((2, 2)), heads=(Weights(eye, eye, eye),))
    fields.update(changes)
    return SessionState(**fields)


def _bad_states():
    import numpy as np

    from qkv_desktop.core import Weights
    from qkv_desktop.state.provenance import Provenance
    from qkv_desktop.state.session_state import Options, head_dim_for
    eye = np.eye(2)
    return [
        (lambda: Options(temperature=-1.0), "temperature must be a positive number, got -1.0",
         "温度（temperature）必须是正数，实际为 -1.0"),
        (lambda: Options(scale=0.0),
         "a custom scale divisor must be a positive finite number, got 0.0",
         "自定义缩放除数必须是有限的正数，实际为 0.0"),
        (lambda: Options(scale="cube"),
         "scale must be 'sqrt_dk', 'none' or a positive number, got 'cube'",
         "scale 必须是 'sqrt_dk'、'none' 或一个正数，实际为 'cube'"),
        (lambda: Options(dtype="float16"),
         "dtype must be one of float64, float32, got 'float16'",
         "dtype 必须是 float64、float32 之一，实际为 'float16'"),
        (lambda: Options(rope_base=0.0), "rope_base must be a positive number, got 0.0",
         "rope_base 必须是正数，实际为 0.0"),
        (lambda: Options(window=0), "window must be a positive integer or off, got 0",
         "window 必须是正整数或关闭，实际为 0"),
        (lambda: Options(sinks=-2), "sinks must be a non-negative integer, got -2",
         "sinks 必须是非负整数，实际为 -2"),
        (lambda: Options(masked=((-1, 0),)),
         "a masked cell's row must be a non-negative integer, got -1",
         "被掩码单元格的行号必须是非负整数，实际为 -1"),
        (lambda: Options(alibi=(-0.5,)),
         "ALiBi slopes must be non-negative numbers, one per head, got (-0.5,)",
         "ALiBi 斜率必须是非负数，每个头一个，实际为 (-0.5,)"),
        (lambda: _state(tokens=("我", "")), "tokens[1] must be a non-empty string",
         "tokens[1] 必须是非空字符串"),
        (lambda: _state(tokens=("我",)), "1 tokens but X has 2 rows",
         "有 1 个词元，但 X 有 2 行"),
        (lambda: _state(X=np.ones(2)), "X must be 2-D, got shape (2,)",
         "X 必须是二维的，实际形状为 (2,)"),
        (lambda: _state(heads=()), "there must be at least one head", "至少需要一个头"),
        (lambda: _state(heads=(Weights(eye, eye, eye), Weights(eye[:1], eye[:1], eye[:1]))),
         "head 1 weights are (1, 2), expected (2, 2)", "头 1 的权重形状为 (1, 2)，应为 (2, 2)"),
        (lambda: _state(mode="both"), "mode must be 'self' or 'cross', got 'both'",
         "mode 必须是 'self' 或 'cross'，实际为 'both'"),
        (lambda: _state(mode="cross"), "cross mode needs a key/value sequence",
         "交叉注意力模式需要一个键/值序列"),
        (lambda: _state(X_kv=np.ones((1, 3)), kv_tokens=("k",)),
         "X_kv must be n_kv × 2, got (1, 3)", "X_kv 的形状必须是 n_kv × 2，实际为 (1, 3)"),
        (lambda: _state(X_kv=np.ones((1, 2)), kv_tokens=()),
         "0 key/value tokens but X_kv has 1 rows", "有 0 个键/值词元，但 X_kv 有 1 行"),
        (lambda: _state(W_O=np.ones((3, 2))), "W_O must be 2 × 2, got (3, 2)",
         "W_O 的形状必须是 2 × 2，实际为 (3, 2)"),
        (lambda: head_dim_for(4, 0, 2), "the number of heads must be a positive integer, got 0",
         "头数必须是正整数，实际为 0"),
        (lambda: Provenance("m", "t", 0, 0, n_heads=-1),
         "n_heads is -1, expected a non-negative integer", "n_heads 是 -1，应为非负整数"),
        (lambda: Provenance.from_json({"name": "m", "text": "t", "layer": 0}),
         'no "head" field', '没有 "head" 字段'),
    ]


def test_the_states_own_refusals_keep_their_english_and_are_said_in_chinese(speak):
    """Every check of ``SessionState``, ``Options`` and ``Provenance`` a damaged file (or
    a script) can reach carries its sentence for the window: ``str()`` stays the
    English the command line prints, ``say`` speaks the window's language."""
    speak("zh_CN")
    for build, english, chinese in _bad_states():
        with pytest.raises(ValueError) as info:
            build()
        assert str(info.value) == english
        assert say(info.value) == chinese, english


def _recover(tmp_path, speak, autosave: bytes):
    """Crash recovery in the Chinese window over an autosave holding ``autosave``: the
    errors said, and the autosave's path."""
    from qkv_desktop.model.document import SessionController
    session = SessionController(AttentionModel(), QSettings(str(tmp_path / "s.ini"),
                                                            QSettings.Format.IniFormat),
                                folder=tmp_path / "data")
    errors = []
    session.error.connect(errors.append)
    session.folder.mkdir(parents=True, exist_ok=True)
    orphan = session.folder / "autosave-dead.qkv.json"
    orphan.write_bytes(autosave)
    speak("zh_CN")
    try:
        assert not session.offer_recovery(lambda _question: True)
    finally:
        session.release_lock()
    return errors, orphan


# -- the operating system's refusals (a full disk, a read-only folder) ------------------

_OS_REASONS = [
    ("ENOSPC", "磁盘已满", "the disk is full"),
    ("EACCES", "没有访问权限", "permission denied"),
    ("EPERM", "没有访问权限", "permission denied"),
    ("EROFS", "磁盘或文件夹是只读的", "the disk or folder is read-only"),
    ("ENOENT", "没有这个文件或文件夹", "there is no such file or folder"),
    ("EEXIST", "已有同名的文件或文件夹", "a file or folder of that name already exists"),
    ("EISDIR", "这是文件夹，不是文件", "it is a folder, not a file"),
    ("ENOTDIR", "路径中有一部分不是文件夹", "a part of the path is not a folder"),
    ("ENAMETOOLONG", "名称太长", "the name is too long"),
    ("EDQUOT", "已超出你的磁盘配额", "you are over your disk quota"),
    ("EMFILE", "打开的文件太多", "too many files are open; close some programs and try again"),
    ("ENFILE", "打开的文件太多", "too many files are open; close some programs and try again"),
    ("EIO", "输入/输出错误：磁盘或与它的连接出了故障",
     "input/output error: the disk or the connection to it failed"),
    ("EBUSY", "文件或文件夹正被占用", "the file or folder is in use"),
    ("EXDEV", "无法移动到另一个磁盘", "it cannot be moved to another disk"),
]


def _os_error(name: str) -> OSError:
    import errno
    import os
    code = getattr(errno, name, None)
    if code is None:
        pytest.skip(f"no {name} on this system")
    return OSError(code, os.strerror(code))


@pytest.mark.parametrize("name, chinese, english", _OS_REASONS,
                         ids=[r[0] for r in _OS_REASONS])
def test_a_save_the_system_refuses_says_why_in_chinese(window, tmp_path, speak, monkeypatch,
                                                       name, chinese, english):
    """"无法保存 …：No space left on device": the cause was the system's English words."""
    error = _os_error(name)

    def refuse(path, data):
        raise error
    monkeypatch.setattr("qkv_desktop.io.session.atomic_write_bytes", refuse)
    target = tmp_path / "课.qkv.json"
    speak("zh_CN")
    assert not window.files.session.save_as(target)
    message = window.shown[-1]
    assert message.startswith("无法保存 课.qkv.json：") and chinese in message, message
    said = message.removeprefix("无法保存 课.qkv.json：")
    assert error.strerror not in said and not re.search(r"[A-Za-z]{2,}", said), message
    assert window.statusBar().currentMessage() == message
    speak("en")
    assert not window.files.session.save_as(target)
    assert window.shown[-1] == f"Could not save 课.qkv.json: {english}"
    assert not target.exists()


def test_an_error_the_app_has_no_words_for_keeps_the_systems(window, tmp_path, monkeypatch,
                                                            speak):
    import errno
    error = OSError(errno.ELOOP, "Too many levels of symbolic links")

    def refuse(path, data):
        raise error
    monkeypatch.setattr("qkv_desktop.io.session.atomic_write_bytes", refuse)
    speak("zh_CN")
    assert not window.files.session.save_as(tmp_path / "s.qkv.json")
    assert window.shown[-1] == "无法保存 s.qkv.json：Too many levels of symbolic links"


def test_a_save_into_a_folder_that_does_not_exist_names_the_folder(window, tmp_path, speak):
    """"没有这个文件或文件夹" named neither; the folder is what is missing."""
    gone = tmp_path / "gone"
    assert not window.files.session.save_as(gone / "s.qkv.json")
    assert window.shown[-1] == f"Could not save s.qkv.json: the folder {gone} does not exist."
    speak("zh_CN")
    assert not window.files.session.save_as(gone / "s.qkv.json")
    assert window.shown[-1] == f"无法保存 s.qkv.json：文件夹 {gone} 不存在。"
    assert not gone.exists()


@pytest.fixture
def export_window(window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QApplication, QProgressDialog

    from qkv_desktop.views.actions.export_actions import ExportAllDialog, ExportChoice
    window.progress_shown = []

    def warn(parent, title, text):  # a message box runs the event loop while it is read
        QApplication.processEvents()
        window.shown.append(text)
        window.progress_shown.append([p.isVisible() for p in window.findChildren(
            QProgressDialog, "exportProgress")])
    monkeypatch.setattr("qkv_desktop.views.actions.export_actions.QMessageBox.warning", warn)
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(ExportAllDialog, "ask", classmethod(
        lambda cls, *a, **k: ExportChoice(out, (), ("npz",))))
    window.out = out
    return window


def test_an_export_to_a_read_only_folder_says_why_in_chinese(export_window, speak,
                                                            monkeypatch):
    error = _os_error("EROFS")

    def refuse(tmp, data, like, hold=False):
        raise error
    monkeypatch.setattr("qkv_desktop.io.staged_files.write_synced", refuse)
    speak("zh_CN")
    assert not export_window.exports.export_data()
    assert export_window.shown[-1] == (f"无法导出到 {export_window.out}：磁盘或文件夹是只读的。"
                                       "没有写入任何文件。")
    assert list(export_window.out.iterdir()) == []
    progress = export_window.progress_shown[-1]
    assert progress and not any(progress)  # "Writing matrices.npz… 0%" stayed over it


def test_an_export_of_one_figure_to_a_full_disk_says_why_in_chinese(export_window, speak,
                                                                   monkeypatch, tmp_path):
    from qkv_desktop.views.actions.export_actions import FigureOptionsDialog
    target = export_window.out / "q.png"
    monkeypatch.setattr("qkv_desktop.views.actions.export_actions.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(target), ""))
    monkeypatch.setattr(FigureOptionsDialog, "ask",
                        classmethod(lambda cls, parent, fmt, size, options: options))
    error = _os_error("ENOSPC")

    def refuse(path, data):
        raise error
    monkeypatch.setattr("qkv_desktop.views.actions.export_actions.atomic_write_bytes", refuse)
    speak("zh_CN")
    export_window.exports.export_pane("Q")
    assert export_window.shown[-1] == f"无法导出 {target}：磁盘已满。没有写入任何文件。"


def test_a_target_that_cannot_be_looked_at_is_said_in_chinese(tmp_path, speak, monkeypatch):
    """``StagedFiles`` checks each target first; a refusal there said the OS's words."""
    from qkv_desktop.io.staged_files import StagedFiles
    error = _os_error("EACCES")

    def refuse(path):
        raise error
    monkeypatch.setattr("qkv_desktop.io.staged_files.os.lstat", refuse)
    target = tmp_path / "weights.png"
    with StagedFiles() as staged, pytest.raises(ValueError) as info:
        staged.add(target, b"figure")
    assert str(info.value) == f"{str(target)!r} cannot be written: permission denied"
    speak("zh_CN")
    assert "没有访问权限" in say(info.value) and "permission" not in say(info.value)


def test_a_reader_naming_the_systems_error_says_it_in_chinese(speak):
    """A checkpoint that cannot be read puts the ``OSError`` itself in its sentence."""
    from qkv_desktop.io.files import problem
    from qkv_desktop.state.texts import QT_TRANSLATE_NOOP
    text = problem(QT_TRANSLATE_NOOP("Files", "{0}: cannot read ({1})"), "m.safetensors",
                   _os_error("EIO"))
    speak("zh_CN")
    assert "输入/输出错误" in say(text) and "Input/output" not in say(text)
