"""The bilingual interface: the shipped catalogue, runtime switching, and the CLI's --lang.

The catalogue tests fail when a string of the code is not in the committed ``.ts``,
when an entry is unfinished or obsolete, when a translation changes a ``{0}``
placeholder or an HTML tag, or when the ``.qm`` was not recompiled: the fix is
``python resources/update_translations.py``, then translating what it lists.
"""

import ast
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings, Qt, QTranslator
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views import i18n

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "qkv_desktop" / "resources" / "translations"
TS = TRANSLATIONS / "qkv_desktop_zh_CN.ts"
QM = TRANSLATIONS / "qkv_desktop_zh_CN.qm"
TOOLS = Path(sys.executable).parent


def _tool(name: str) -> str:
    exe = TOOLS / f"pyside6-{name}"
    found = str(exe) if exe.exists() else shutil.which(f"pyside6-{name}")
    if not found:
        pytest.skip(f"pyside6-{name} is not installed")
    return found


def _messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) → the <message> element."""
    out = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out[(name, message.findtext("source") or "")] = message
    return out


# ---------------------------------------------------------------- the catalogue
def test_compiled_catalogue_loads_and_translates():
    translator = QTranslator()
    assert translator.load(str(i18n.catalogue_path("zh_CN")))
    assert translator.translate("MainWindow", "&File") == "文件(&F)"
    assert translator.translate("Panes", "Q = {0} (queries)") == "Q = {0}（查询）"
    # the shape goes through tr() too: full-width brackets, not "（查询） (4×4)" (issue 17)
    assert translator.translate("Panes", "{0}{1} ({2}×{3})") == "{0}{1}（{2}×{3}）"


def test_every_entry_is_translated_and_keeps_placeholders_and_tags():
    messages = _messages(TS)
    assert len(messages) > 200
    problems = []
    placeholder, tag = re.compile(r"\{[^{}]*\}"), re.compile(r"<[^<>]+>")
    for (context, source), message in messages.items():
        translation = message.find("translation")
        kind = translation.get("type")
        texts = _translations(message)
        if kind in ("unfinished", "vanished", "obsolete") or not all(t.strip() for t in texts):
            problems.append(f"[{context}] {source!r}: {kind or 'empty'}")
            continue
        for text in texts:
            for pattern in (placeholder, tag):
                if Counter(pattern.findall(source)) != Counter(pattern.findall(text)):
                    problems.append(f"[{context}] {source!r}: {pattern.pattern} differ in "
                                    f"{text!r}")
            if source.count("&") != text.count("&"):
                problems.append(f"[{context}] {source!r}: mnemonic '&' lost in {text!r}")
            if "%n" in source and "%n" not in text:
                problems.append(f"[{context}] {source!r}: the count %n lost in {text!r}")
    assert not problems, "fix qkv_desktop_zh_CN.ts:\n" + "\n".join(problems)


def _translations(message: ET.Element) -> list[str]:
    """The translation of a <message>: its text, or each plural form (``numerus``)."""
    translation = message.find("translation")
    forms = [f.text or "" for f in translation.iter("numerusform")]
    return forms if message.get("numerus") == "yes" else [translation.text or ""]


def test_english_counts_in_the_singular_and_the_plural():
    """English has a catalogue of plural forms only (Qt's way to say "1 row"), compiled
    and complete, with one entry for every counted text of the code."""
    messages = _messages(TRANSLATIONS / "qkv_desktop_en.ts")
    counted = {key for key, m in _messages(TS).items() if m.get("numerus") == "yes"}
    assert counted and set(messages) == counted
    for (context, source), message in messages.items():
        one, many = _translations(message)
        assert "%n" in one and many == source, (context, source, one, many)
    translator = QTranslator()
    assert translator.load(str(i18n.catalogue_path("en")))
    assert translator.translate("KVCacheLab", "K cache: %n rows (+1)", "", 1) \
        == "K cache: %n row (+1)"  # Qt's tr() puts the number in
    assert translator.translate("KVCacheLab", "K cache: %n rows (+1)", "", 2) \
        == "K cache: %n rows (+1)"


def test_ts_holds_every_string_of_the_code(tmp_path):
    """lupdate on the current code adds nothing and drops nothing."""
    copy = tmp_path / TS.name
    shutil.copyfile(TS, copy)
    sources = sorted(str(p) for p in (ROOT / "qkv_desktop").rglob("*.py"))
    subprocess.run([_tool("lupdate"), "-no-obsolete", "-locations", "none", *sources,
                    "-ts", str(copy)], check=True, capture_output=True)
    committed, current = set(_messages(TS)), set(_messages(copy))
    new = sorted(current - committed)
    gone = sorted(committed - current)
    assert not new and not gone, (
        "run `python resources/update_translations.py` and translate:\n"
        + "\n".join([f"new [{c}] {s!r}" for c, s in new]
                    + [f"gone [{c}] {s!r}" for c, s in gone]))


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_qm_is_compiled_from_the_committed_ts(tmp_path, lang):
    qm = tmp_path / "check.qm"
    ts = TRANSLATIONS / f"qkv_desktop_{lang}.ts"
    subprocess.run([_tool("lrelease"), str(ts), "-qm", str(qm)], check=True,
                   capture_output=True)
    assert qm.read_bytes() == ts.with_suffix(".qm").read_bytes(), \
        "the .qm is stale: run `python resources/update_translations.py`"


def _tr_calls_lupdate_cannot_read(path: Path) -> list[str]:
    """tr()/translate() calls inside f-strings, or whose text is not a literal.

    The one exception is a translate() of texts marked elsewhere with a literal
    ``QT_TRANSLATE_NOOP`` (the Qt-free edits), which says so with ``# marked texts``.
    """
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    in_fstring = {id(node) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr)
                  for node in ast.walk(f)}
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        qt_translate = isinstance(func, ast.Name) or (
            isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "QCoreApplication")
        if name == "tr":
            texts = node.args[:1]
        elif name == "translate" and qt_translate:  # not QPainter.translate(dx, dy)
            if "# marked texts" in lines[node.lineno - 1]:
                continue
            texts = node.args[:2]
        elif name == "QT_TRANSLATE_NOOP":
            texts = node.args[:2]
        else:
            continue
        literal = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in texts)
        if id(node) in in_fstring or not literal:
            bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return bad


def test_every_translated_text_is_a_literal_lupdate_can_read():
    bad = [hit for p in sorted((ROOT / "qkv_desktop").rglob("*.py"))
           for hit in _tr_calls_lupdate_cannot_read(p)]
    assert not bad, ("lupdate skips tr() inside f-strings and with computed texts; "
                     "use a literal, e.g. title = self.tr('…'), then f'{title}':\n"
                     + "\n".join(bad))


# --------------------------------------------------------- choosing a language
def test_language_choice_order(tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert i18n.choose_language("zh-cn", settings) == "zh_CN"
    assert i18n.choose_language("EN", settings) == "en"
    settings.setValue(i18n.SETTINGS_KEY, "zh_CN")
    assert i18n.choose_language(None, settings) == "zh_CN"
    assert i18n.choose_language("en", settings) == "en"  # an explicit --lang wins
    settings.setValue(i18n.SETTINGS_KEY, "klingon")  # unusable: the system decides
    assert i18n.choose_language(None, settings) == i18n.system_language()
    assert i18n.system_language(QLocale("zh_TW")) == "zh_CN"
    assert i18n.system_language(QLocale("de_DE")) == "en"
    with pytest.raises(ValueError, match="'fr'.*en, zh_CN"):
        i18n.normalize_language("fr")


# ------------------------------------------------------------ switching at run time
@pytest.fixture
def english_afterwards(qapp):
    """Whatever a test switches to, the next test starts in English."""
    yield qapp
    i18n.install_translators(qapp, "en")
    QCoreApplication.sendPostedEvents()


@pytest.fixture
def window(qtbot, tmp_path, english_afterwards):
    from qkv_desktop.views.main_window import MainWindow
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(AttentionModel(SessionState.from_preset("tutorial-1")), settings)
    w.files.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    assert w.model.wait_until_idle()
    return w


def _texts(w) -> dict[str, str]:
    """A sample of every kind of text the window shows."""
    return {
        "file menu": w.file_menu.title(),
        "view menu": w.view_menu.title(),
        "language menu": w.language_menu.title(),
        "undo": w.undo_action.text(),
        "save": w.files.save_action.text(),
        "open model": w.models.open_model_action.text(),
        "pane Q": w.panes.panes["Q"].title.text(),
        "pane weights": w.panes.panes["weights"].title.text(),
        "pane menu entry": w.pane_actions["Q"].text(),
        "causal": w.controls.causal.text(),
        "first control label": w.controls._labels[0].text(),
        "scaling item": w.controls.scaling.itemText(1),
        "tab": w.tabs.tabText(0),
        "dock": w.editor_dock.windowTitle(),
        "teaching dock": w.teaching.docks["explain"].windowTitle(),
        "lab menu": w.teaching.lab_menu.title(),
        "diagnostics header": w.teaching.diagnostics.table.model().headerData(
            1, Qt.Orientation.Horizontal),
        "token header": w.editor.table.headerData(0, w.editor.horizontalHeader().orientation()),
        "window title": w.windowTitle(),
        "scaling lab": w.teaching.lab_action.text(),
        "zoom menu": w.view_scale.zoom_menu.title(),
    }


def _switch(w, lang: str) -> None:
    w.language_actions[lang].trigger()  # View → Language, as the user does it
    QApplication.processEvents()  # delivers the LanguageChange Qt posted


CHINESE = {
    "file menu": "文件(&F)", "view menu": "视图(&V)", "language menu": "语言 Language(&L)",
    "undo": "撤销(&U)", "save": "保存(&S)", "open model": "打开模型(&M)……",
    "pane Q": "Q = X·W_Q（查询）（4×4）", "pane weights": "注意力权重 = softmax（4×4）",
    "pane menu entry": "Q = X·W_Q（查询）（4×4）", "causal": "因果掩码",
    "first control label": "注意力", "scaling item": "不缩放", "tab": "词元（X）",
    "dock": "编辑器", "teaching dock": "讲解", "lab menu": "实验室(&L)",
    "diagnostics header": "熵 H（奈特）", "token header": "词元",
    "window title": "未命名 — QKV Desktop",
    # one ellipsis (not "…" + "……"); ÷√d_k scaling and UI zoom named apart
    "scaling lab": "缩放实验室（÷√d_k）(&S)……", "zoom menu": "显示比例(&Z)（100%）",
}


def test_switching_language_at_run_time_retranslates_everything(window):
    english = _texts(window)
    assert english["file menu"] == "&File" and english["pane Q"].startswith("Q = X·W_Q (queries)")
    assert window.language_actions["en"].isChecked()

    _switch(window, "zh_CN")
    assert _texts(window) == CHINESE
    assert window.statusBar().currentMessage() == "界面语言：简体中文"
    assert window.language_actions["zh_CN"].isChecked()
    assert window.settings.value(i18n.SETTINGS_KEY) == "zh_CN"
    assert i18n.current_language() == "zh_CN"
    # Qt's own catalogue: standard buttons of dialogs and message boxes
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    assert buttons.buttons()[0].text() == "取消"

    window.model.set_seed(7)  # texts computed later are Chinese too
    assert window.model.wait_until_idle()
    assert window.model.undo_stack.undoText() == "将随机种子设为 7"
    assert window.undo_action.text() == "撤销(&U) 将随机种子设为 7"
    window.model.undo_stack.undo()
    assert window.model.wait_until_idle()

    _switch(window, "en")
    back = _texts(window)
    assert back == english
    assert window.statusBar().currentMessage() == "Interface language: English"
    assert window.settings.value(i18n.SETTINGS_KEY) == "en"


def _start(qtbot, lang=None):
    """``create_window`` as the launcher calls it, undone again by the test's end."""
    from qkv_desktop.app.launcher import create_window
    app, w = create_window(SessionState.from_preset("tutorial-1"), lang)
    qtbot.addWidget(w)
    w.files.maybe_save = lambda: True
    w.crash_guard.uninstall()
    app.removeEventFilter(w.files.open_event_filter)
    return w


def test_window_starts_in_the_saved_language(qtbot, english_afterwards):
    from qkv_desktop.views.identity import apply_identity
    apply_identity(english_afterwards)  # QSettings() is then the app's (sandboxed) file
    QSettings().setValue(i18n.SETTINGS_KEY, "zh_CN")  # as View → Language left it
    try:
        w = _start(qtbot)
        assert w.file_menu.title() == "文件(&F)"
        assert w.language_actions["zh_CN"].isChecked()
        w = _start(qtbot, "en")  # --lang overrides the saved choice
        assert w.file_menu.title() == "&File"
        assert w.language_actions["en"].isChecked()
    finally:
        QSettings().remove(i18n.SETTINGS_KEY)


# ------------------------------------------------------------------------- the CLI
def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_screenshot_and_render_in_chinese(tmp_path):
    shot = tmp_path / "zh.png"
    done = _run("--preset", "tutorial-1", "--lang", "zh_CN", "--screenshot", str(shot))
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 10_000

    out = tmp_path / "figures"
    done = _run("render", "--preset", "tutorial-1", "--out", str(out), "--format", "svg",
                "--lang", "zh_CN")
    assert done.returncode == 0, done.stderr
    dashboard = (out / "dashboard.svg").read_text(encoding="utf-8")
    assert "自注意力：我 爱 人工 智能" in dashboard
    assert "Q = X·W_Q（查询）" in (out / "q.svg").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [["--screenshot", "{out}/x.png"],
                                     ["render", "--out", "{out}"]])
def test_a_bad_lang_is_one_clear_line_and_exit_2(tmp_path, capsys, command):
    from qkv_desktop.app.launcher import main
    out = tmp_path / "out"
    argv = [a.format(out=out) for a in command] + ["--preset", "tutorial-1", "--lang", "xx"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--lang" in err[0] and "'xx'" in err[0] and "zh_CN" in err[0]
    assert not out.exists()


def test_the_qt_free_edits_speak_the_interface_language(english_afterwards):
    """Undo texts and refusals built in ``state.edits`` are translated by the model."""
    i18n.install_translators(english_afterwards, "zh_CN")
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    model.insert_tokens("X", 0)
    assert model.undo_stack.undoText() == "插入词元"
    with pytest.raises(ValueError, match="只能使用有限数值"):
        model.set_cell("X", 0, 0, float("nan"))
