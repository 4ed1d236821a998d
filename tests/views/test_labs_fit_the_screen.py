"""Every lab window opens inside a laptop screen and closes from the keyboard."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState

LABS = ["qkv_desktop.views.teaching.kv_cache_lab", "qkv_desktop.views.teaching.tiles_lab",
        "qkv_desktop.views.teaching.gradient_lab", "qkv_desktop.views.teaching.rope_lab"]



def _type_a_refused_clamp(qtbot, memory) -> None:
    """9 query heads over 7 KV heads, then 99999999999 query heads: clamped to 1024,
    which 7 KV heads do not divide (the longest the memory panel's red line says: the
    clamp, and the refusal with the eleven KV-head counts 1024 takes)."""
    for box, text in ((memory.query_heads, "9"), (memory.kv_heads, "7"),
                      (memory.query_heads, "99999999999")):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, text)
        qtbot.keyClick(box, Qt.Key.Key_Return)

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


def _kv_lab(main_window, qtbot, speak, lang: str, size=None):
    """A KV-cache stepper on the main window's model, shown in ``lang``."""
    from qkv_desktop.views.teaching.kv_cache_lab import KVCacheLab
    speak(lang)
    lab = KVCacheLab(main_window.model)
    qtbot.addWidget(lab)
    if size is not None:
        lab.resize(*size)
    lab.show()
    qtbot.waitExposed(lab)
    QApplication.processEvents()
    return lab


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_kv_lab_keeps_its_width_when_long_messages_come(main_window, qtbot, speak,
                                                            monkeypatch, lang):
    """Switched to cross-attention with 99999999999 typed as the KV heads, the stepper
    grew from 1024 to 1178 px (1106 in Chinese): its red lines asked for the width of
    one long line each, and "Export steps (PDF)…" and the messages were cut off at the
    screen's edge. The messages wrap in the window's width; it asks for no more."""
    screen = QApplication.primaryScreen()
    monkeypatch.setattr(type(screen), "availableGeometry", lambda self: QRect(0, 0, 1024, 700))
    model = main_window.model
    lab = _kv_lab(main_window, qtbot, speak, lang, size=(1024, 700))
    wanted = lab.sizeHint().width()
    assert wanted <= 1024
    memory = lab.memory
    memory.select("custom")
    _type_a_refused_clamp(qtbot, memory)
    model.set_mode("cross")
    assert model.wait_until_idle()
    QApplication.processEvents()
    assert lab.error.isVisible() and memory.problem.isVisible()
    assert "1024" in memory.problem.text()
    assert lab.width() <= 1024 and lab.minimumSizeHint().width() <= 1024
    assert lab.sizeHint().width() == wanted  # the messages asked for no width
    # … and are read whole: wrapped inside the window, not cut at its edge
    for line in (lab.error, memory.problem):
        assert line.mapTo(lab, line.rect().topRight()).x() <= lab.width()
        assert line.height() >= line.heightForWidth(line.width())
    lab.close()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_choosing_a_model_in_the_kv_lab_does_not_widen_it(main_window, qtbot, speak, lang):
    """At 1024 × 700 a first user chose SmolLM2-135M in the memory calculator and the
    stepper grew from 980 to 1002 px: its formula was one line, and the byte counts are
    wider than the session's. The formula wraps, and the table has room for up to
    9.99 GiB from the start; the table's names stay on one line each."""
    lab = _kv_lab(main_window, qtbot, speak, lang)
    least = lab.minimumSizeHint().width()
    assert least <= 1024
    memory = lab.memory
    for name in ("SmolLM2-135M", "all-MiniLM-L6-v2", "SmolLM2-135M"):
        memory.select(name)
        QApplication.processEvents()
        assert lab.minimumSizeHint().width() == least, name
    assert "white-space: nowrap" in memory.result.text()
    lab.close()


def _steps(lab):
    """The stepper's scroll area (the lab's one)."""
    from PySide6.QtWidgets import QScrollArea
    (steps,) = lab.findChildren(QScrollArea)
    return steps


def _steps_fit(lab) -> int:
    """The stepper's room to spare (negative: cut) below its content at its width."""
    steps = _steps(lab)
    content, viewport = steps.widget(), steps.viewport()
    needed = content.minimumSizeHint().height()
    if content.hasHeightForWidth():
        needed = max(needed, content.heightForWidth(viewport.width()))
    return viewport.height() - needed


def _cut_in(lab) -> list[str]:
    """The lab's visible widgets outside the stepper's scroll area that are cut: past the
    window's edge, or a wrapped text lower than its lines."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLabel
    steps = _steps(lab)
    cut = []
    for w in lab.findChildren(QWidget):
        if not w.isVisible() or not isinstance(
                w, QLabel | QAbstractButton | QAbstractSpinBox | QComboBox) \
                or steps.isAncestorOf(w):
            continue
        rect = QRect(w.mapTo(lab, w.rect().topLeft()), w.size())
        if not lab.rect().contains(rect):
            cut.append(f"{w.objectName() or type(w).__name__} {rect} outside {lab.rect()}")
        elif isinstance(w, QLabel) and w.wordWrap() and w.height() < w.heightForWidth(w.width()):
            cut.append(f"{w.objectName()} {w.height()} < {w.heightForWidth(w.width())}")
        elif w.height() < w.minimumSizeHint().height():
            cut.append(f"{w.objectName() or type(w).__name__} lower than its least")
    return cut


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("free", [(1024, 700), (1366, 768), (1920, 1080)],
                         ids=lambda f: "x".join(map(str, f)))
def test_the_kv_steppers_steps_show_whole_above_the_memory_panel(main_window, qtbot, speak,
                                                                 monkeypatch, lang, free):
    """A first-time user at 1024 × 700 pressed Step ▶ three times: the stepper, in a box
    of 270 px with its own scroll bar, cut the outputs' row 3 (智能) and the multiply-adds
    table, while the memory panel below kept some 200 px empty (six lines for its red
    line beside the table, under boxes that needed less); a refusal there squeezed the
    stepper further. The comparison stands beside both rows of grids, the red line keeps
    its room in the panel's whole width, and the panel takes only the height it needs:
    the steps show whole, before and after a refusal, and nothing else is cut."""
    screen = QApplication.primaryScreen()
    monkeypatch.setattr(type(screen), "availableGeometry",
                        lambda self: QRect(0, 0, *free))
    lab = _kv_lab(main_window, qtbot, speak, lang)  # sized as a first start sizes it
    assert lab.width() <= free[0] and lab.height() <= free[1]
    memory = lab.memory
    for press in range(3):
        qtbot.mouseClick(lab.controls.step, Qt.MouseButton.LeftButton)
        QApplication.processEvents()
        if press:  # steps 3 and 4 of tutorial-1's four
            assert _steps_fit(lab) >= 0, (press, _steps_fit(lab))
    assert lab.position == 3
    assert not _steps(lab).verticalScrollBar().isVisible()
    assert memory.height() <= memory.sizeHint().height() + 2, (memory.height(),
                                                               memory.sizeHint())
    assert _cut_in(lab) == []
    # a refusal with a clamp: said whole in the panel's room, the stepper as it was
    steps_height, memory_height = _steps(lab).height(), memory.height()
    memory.select("custom")
    _type_a_refused_clamp(qtbot, memory)
    QApplication.processEvents()
    assert memory.problem.isVisible() and "1024" in memory.problem.text()
    assert memory.height() == memory_height
    assert _steps(lab).height() == steps_height
    assert _steps_fit(lab) >= 0
    assert _cut_in(lab) == []
    lab.close()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_kv_memory_table_shows_huge_byte_counts_whole(main_window, qtbot, speak, lang):
    """99999999999 typed as the layers, d_k and tokens at 1024 × 700: the bytes column,
    made for counts up to 9.99 GiB, was cut on the right, and 8,053,063,680,000,000,000
    read "8,053,063,6" (a first-time user). Counts longer than 9.99 GiB's are written to
    three figures in powers of ten; the table keeps its room, and every cell is read
    whole inside the label."""
    from PySide6.QtGui import QTextDocument

    from qkv_desktop.presentation.sizes import format_byte_count, format_bytes
    from qkv_desktop.views.teaching.kv_cache_lab import BYTES_CHARS
    lab = _kv_lab(main_window, qtbot, speak, lang, size=(1024, 700))
    least = lab.minimumSizeHint().width()
    memory = lab.memory
    memory.select("custom")
    for box in (memory.layers, memory.head_dim, memory.tokens):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box, "99999999999")
        qtbot.keyClick(box, Qt.Key.Key_Return)
    QApplication.processEvents()
    sizes = memory.sizes()
    text = memory.result.text()
    for size in sizes.values():
        assert size is not None and len(f"{size:,}") > BYTES_CHARS  # past the room
        assert format_byte_count(size, BYTES_CHARS) in text and f"{size:,}" not in text
        assert format_bytes(size) in text
    mha = sizes["MHA"]
    mantissa, power = format_byte_count(mha, BYTES_CHARS).removeprefix("≈ ").split(" × 10")
    exponent = int(power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
    assert abs(float(mantissa) * 10 ** exponent - mha) <= 0.005 * 10 ** exponent
    document = QTextDocument()
    document.setDefaultFont(memory.result.font())
    document.setHtml(text)
    document.setTextWidth(memory.result.width())
    assert document.idealWidth() <= memory.result.width()  # no cell past the label's edge
    assert lab.minimumSizeHint().width() == least and lab.width() <= 1024
    lab.close()


def _boxes_y(lab) -> int:
    """The memory calculator's boxes' top, in the lab (the layers box's)."""
    from PySide6.QtCore import QPoint
    return lab.memory.layers.mapTo(lab, QPoint(0, 0)).y()


def _formula_lines(memory) -> int:
    """Lines the calculator's formula takes in its label's width."""
    from PySide6.QtGui import QTextDocument
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(memory.result.font())
    document.setHtml(memory.result.text())
    document.setTextWidth(memory.result.width())
    document.size()  # (laid out)
    return document.firstBlock().layout().lineCount()


def _typed(qtbot, box, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("zoom", [1.0, 1.25])
def test_the_kv_memory_boxes_stay_when_the_formula_wraps(main_window, qtbot, speak,
                                                        monkeypatch, lang, zoom):
    """In Chinese at 1024 × 700 the calculator's boxes jumped 18 px up under the pointer
    when 10000000 tokens were typed, and back down with a model chosen: the formula
    above the table wrapped to a second line, and the group, at the lab's bottom and
    as high as it needs, grew upwards (a re-checking user). The formula keeps the room
    of two lines, one said or two, at any font (a zoom): the boxes stay, through a
    wrap, a model, the session and a refusal."""
    from PySide6.QtGui import QFont
    screen = QApplication.primaryScreen()
    monkeypatch.setattr(type(screen), "availableGeometry", lambda self: QRect(0, 0, 1024, 700))
    lab = _kv_lab(main_window, qtbot, speak, lang)  # sized as a first start sizes it
    memory = lab.memory
    if zoom != 1.0:  # (after the lab is built: the room follows a new font)
        room = memory.result.minimumHeight()
        font = QFont(lab.font())
        font.setPointSizeF(font.pointSizeF() * zoom)
        lab.setFont(font)
        QApplication.processEvents()
        assert memory.result.minimumHeight() > room
    where, lines = _boxes_y(lab), {_formula_lines(memory)}
    changes = (("10000000 tokens", lambda: _typed(qtbot, memory.tokens, "10000000")),
               ("SmolLM2-135M", lambda: memory.select("SmolLM2-135M")),
               ("10000000 tokens again", lambda: _typed(qtbot, memory.tokens, "10000000")),
               ("this session", lambda: memory.select("session")),
               ("9 query heads", lambda: _typed(qtbot, memory.query_heads, "9")),
               ("7 KV heads, refused", lambda: _typed(qtbot, memory.kv_heads, "7")),
               ("1000 layers", lambda: _typed(qtbot, memory.layers, "1000")))
    for name, change in changes:
        change()
        QApplication.processEvents()
        assert _boxes_y(lab) == where, (name, _boxes_y(lab), where)
        lines.add(_formula_lines(memory))
    assert memory.problem.isVisible()  # (the refusal said)
    assert lines == {1, 2}  # the formula did wrap, and the room held both
    assert memory.result.height() >= memory.result.heightForWidth(memory.result.width())
    lab.close()
