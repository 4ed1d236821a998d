"""Export in the window: pane figures, the clipboard, the dashboard, Export all / data.

The file dialogs and the options dialogs are replaced by functions returning the
user's choices; the written files are compared with what the headless engine
(``io.figures``, ``io.render``, ``io.data_export``) makes for the same result.
"""

import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QProgressDialog,
    QStackedWidget,
)

from qkv_desktop.core import attention
from qkv_desktop.export.data_export import MATRIX_NAMES, NPZ_KEYS
from qkv_desktop.export.figures import (
    check_png_size,
    dashboard_bytes,
    figure_bytes,
    figure_image,
    layout_figure,
)
from qkv_desktop.export.pane_figures import pane_spec, pane_specs
from qkv_desktop.export.render import dashboard_title, render
from qkv_desktop.io import staged_files
from qkv_desktop.state import SessionState
from qkv_desktop.views.actions import export_actions
from qkv_desktop.views.actions.export_actions import (
    ExportAllDialog,
    ExportChoice,
    FigureOptions,
    FigureOptionsDialog,
)
from qkv_desktop.views.panes.pane_grid import DEFAULT_HIDDEN

PANE_FILES = ("x", "q", "k", "v", "scores", "scaled", "weights", "output", "dashboard")
FILTERS = {"png": "PNG image (*.png)", "svg": "SVG vector image (*.svg)",
           "pdf": "PDF document (*.pdf)"}


def same_document(a: bytes, b: bytes) -> bool:
    """Equal bytes, apart from a PDF's times and random IDs (in its info and XMP)."""
    def strip(x):
        for pattern in (rb"\(D:\d+Z?\)", rb"/ID \[[^\]]*\]", rb"uuid:[0-9a-f-]+",
                        rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"):
            x = re.sub(pattern, b"_", x)
        return x
    return strip(a) == strip(b)


@pytest.fixture
def dialogs(monkeypatch):
    """Scripted answers: ``dialogs.save``, ``.options``, ``.choice``, ``.answer``; every
    question, error and save-dialog call is recorded."""
    class Dialogs:
        save = ("", "")
        options = FigureOptions()
        choice = None
        answer = True
        matrix_names = None  # what the last Export all / data dialog was told to count
        questions, errors, save_calls, option_calls, choice_calls = [], [], [], [], []

    d = Dialogs()

    def get_save(parent, caption, start, filters, selected):
        d.save_calls.append((start, filters, selected))
        return d.save

    def ask_options(parent, fmt, size_pt, options):
        d.option_calls.append((fmt, size_pt, options))
        return d.options

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(get_save))
    monkeypatch.setattr(FigureOptionsDialog, "ask", classmethod(
        lambda cls, parent, fmt, size_pt, options: ask_options(parent, fmt, size_pt, options)))
    def ask_choice(parent, choice, names, matrix_names=None):
        d.choice_calls.append((choice, names))
        d.matrix_names = matrix_names
        return d.choice

    monkeypatch.setattr(ExportAllDialog, "ask", classmethod(
        lambda cls, parent, choice, names, matrix_names=None, figure_sizes=None: ask_choice(
            parent, choice, names, matrix_names)))
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda parent, title, text: d.errors.append(text)))
    return d


@pytest.fixture
def window(main_window, dialogs):
    exports = main_window.exports
    exports.ask = lambda question: (dialogs.questions.append(question), dialogs.answer)[1]
    main_window.settings.remove("export")
    yield main_window
    main_window.panes.set_arrangement(main_window.panes.order, DEFAULT_HIDDEN)


def files_in(folder) -> set[str]:
    return set(os.listdir(folder))


# ------------------------------------------------------------------ one pane
@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_pane_export_writes_the_engines_figure(window, dialogs, tmp_path, fmt):
    dialogs.save = (str(tmp_path / f"queries.{fmt}"), FILTERS[fmt])
    dialogs.options = FigureOptions(3.0, "transparent")
    window.panes.panes["Q"].exportRequested.emit("Q")

    spec = pane_spec(window.model.result, "Q", 0)
    written = (tmp_path / f"queries.{fmt}").read_bytes()
    assert same_document(written, figure_bytes(spec, fmt, 3.0, "transparent"))
    assert not same_document(written, figure_bytes(pane_spec(window.model.result, "K"), fmt,
                                                   3.0, "transparent"))
    assert files_in(tmp_path) == {f"queries.{fmt}"}
    assert dialogs.option_calls[-1][0] == fmt
    assert str(tmp_path / f"queries.{fmt}") in window.statusBar().currentMessage()
    s = window.settings
    assert (s.value("export/folder"), s.value("export/format")) == (str(tmp_path), fmt)
    assert (float(s.value("export/scale")), s.value("export/background")) == (3.0, "transparent")


def test_png_size_follows_the_chosen_scale(window, dialogs, tmp_path):
    lay = layout_figure(pane_spec(window.model.result, "weights"))
    sizes = {}
    for scale in (1.0, 2.5):
        dialogs.save = (str(tmp_path / f"w{scale}.png"), FILTERS["png"])
        dialogs.options = FigureOptions(scale, "white")
        window.exports.export_pane("weights")
        image = QImage(str(tmp_path / f"w{scale}.png"))
        sizes[scale] = (image.width(), image.height())
        assert sizes[scale] == (math.ceil(lay.width * scale), math.ceil(lay.height * scale))
    assert sizes[2.5][0] > 2 * sizes[1.0][0]


def test_the_save_dialog_starts_from_the_remembered_folder_and_format(window, dialogs,
                                                                      tmp_path):
    dialogs.save = (str(tmp_path / "a.pdf"), FILTERS["pdf"])
    window.exports.export_pane("scores")
    dialogs.save = ("", "")
    window.exports.export_pane("K")
    start, filters, selected = dialogs.save_calls[-1]
    assert start == str(tmp_path / "k.pdf")
    assert selected == FILTERS["pdf"] and filters.split(";;") == list(FILTERS.values())
    assert len(dialogs.option_calls) == 1  # cancelled: no options dialog, no file
    assert files_in(tmp_path) == {"a.pdf"}


def test_a_name_without_extension_gets_the_filters_format(window, dialogs, tmp_path):
    dialogs.save = (str(tmp_path / "figure"), FILTERS["svg"])
    window.exports.export_pane("V")
    assert files_in(tmp_path) == {"figure.svg"}
    assert (tmp_path / "figure.svg").read_bytes().lstrip().startswith(b"<?xml")

    dialogs.answer = False  # figure.svg exists now: asked, and kept
    (tmp_path / "figure.svg").write_bytes(b"old")
    window.exports.export_pane("V")
    assert "figure.svg" in dialogs.questions[-1]
    assert (tmp_path / "figure.svg").read_bytes() == b"old"


def test_extra_panes_and_other_heads_are_exported(window, dialogs, tmp_path):
    model = window.model
    model.set_heads(2)
    model.set_output_projection(True)
    assert model.wait_until_idle()
    model.set_current_head(1)
    result = model.result
    for key in ("concat", "projected", "weights"):
        dialogs.save = (str(tmp_path / f"{key}.svg"), FILTERS["svg"])
        window.exports.export_pane(key)
        assert (tmp_path / f"{key}.svg").read_bytes() == \
            figure_bytes(pane_spec(result, key, 1), "svg")
    svg = (tmp_path / "weights.svg").read_text(encoding="utf-8")
    assert "head 2" in svg and "head 1" not in svg
    assert "concat" in (tmp_path / "concat.svg").read_text(encoding="utf-8")


def test_an_unwritable_place_gives_a_message_and_writes_nothing(window, dialogs, tmp_path):
    dialogs.save = (str(tmp_path / "missing" / "q.png"), FILTERS["png"])
    window.exports.export_pane("Q")
    assert len(dialogs.errors) == 1
    assert "q.png" in dialogs.errors[0] and "Nothing was written" in dialogs.errors[0]
    assert files_in(tmp_path) == set()


# ------------------------------------------------------------------ clipboard
def test_copy_image_puts_the_figure_on_the_clipboard(window, dialogs):
    window.settings.setValue("export/scale", 1.5)
    window.panes.panes["scaled"].copyRequested.emit("scaled")
    image = QGuiApplication.clipboard().image()
    expected = figure_image(pane_spec(window.model.result, "scaled"), 1.5)
    assert not image.isNull()
    assert image.size() == expected.size()
    lay = layout_figure(pane_spec(window.model.result, "scaled"))
    assert image.size() == check_png_size(lay.width, lay.height, 1.5)
    assert "px" in window.statusBar().currentMessage()


# ------------------------------------------------------------------ dashboard
def test_dashboard_export_draws_the_shown_panes(window, dialogs, tmp_path):
    result, state = window.model.result, window.model.state
    specs = pane_specs(result)
    title = dashboard_title(state)
    dialogs.save = (str(tmp_path / "all.svg"), FILTERS["svg"])
    window.exports.export_dashboard()
    assert (tmp_path / "all.svg").read_bytes() == dashboard_bytes(specs, "svg", title=title)

    window.panes.set_visible("X", False)
    dialogs.save = (str(tmp_path / "some.pdf"), FILTERS["pdf"])
    window.exports.export_dashboard()
    assert same_document((tmp_path / "some.pdf").read_bytes(),
                         dashboard_bytes(specs[1:], "pdf", title=title))


# ------------------------------------------------------------------ Export all
def test_export_all_writes_renders_files_and_the_cores_numbers(window, dialogs, tmp_path):
    out, ref = tmp_path / "out", tmp_path / "ref"
    out.mkdir()
    dialogs.choice = ExportChoice(out, ("png", "svg"), ("csv", "npz"), 1.0, "white")
    assert window.exports.export_all()

    expected = {f"{n}.{f}" for n in PANE_FILES for f in ("png", "svg")}
    expected |= {f"{m}.csv" for m in MATRIX_NAMES} | {"matrices.npz"}
    assert files_in(out) == expected
    state = window.model.state
    for path in render(state, ref, ("png", "svg"), 1.0):
        assert (out / path.name).read_bytes() == path.read_bytes(), path.name

    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert tuple(npz.files) == NPZ_KEYS
        assert list(npz["tokens"]) == list(state.tokens)
        o = state.options
        core = attention(state.X, state.heads[0], scale=o.scale, temperature=o.temperature,
                         causal=o.causal, stable=o.stable)
        for name in ("Q", "K", "V", "scores", "scaled", "weights", "output"):
            np.testing.assert_array_equal(npz[name], getattr(core, name), err_msg=name)
        np.testing.assert_array_equal(npz["W_Q"], state.heads[0].W_Q)
    assert str(out) in window.statusBar().currentMessage()
    assert window.settings.value("export/image_formats") == "png,svg"
    assert window.settings.value("export/data_formats") == "csv,npz"

    dialogs.choice = None  # the next dialog starts from this choice; cancelling writes nothing
    assert not window.exports.export_all()
    assert dialogs.choice_calls[-1] == (ExportChoice(out, ("png", "svg"), ("csv", "npz"), 1.0,
                                                     "white"), list(PANE_FILES))
    assert not window.exports.export_data()
    assert dialogs.choice_calls[-1] == (ExportChoice(out, (), ("csv", "npz"), 1.0, "white"),
                                        None)


def test_export_all_and_render_write_one_figure_set_for_heads_and_cross(window, dialogs,
                                                                        tmp_path):
    """Two heads with W_O in cross mode: every head's panes, x_kv, concat and projected,
    under the same names and with the same bytes as the headless render (the dashboard
    follows the window's panes, so it is compared by name only)."""
    model = window.model
    model.set_mode("cross")
    model.set_heads(2)
    model.set_output_projection(True)
    assert model.wait_until_idle()
    out, ref = tmp_path / "out", tmp_path / "ref"
    out.mkdir()
    dialogs.choice = ExportChoice(out, ("png",), (), 1.0, "white")
    assert window.exports.export_all()
    rendered = render(model.state, ref, ("png",), 1.0)
    assert files_in(out) == {p.name for p in rendered} - {"matrices.npz"}
    assert {"weights_h1.png", "weights_h2.png", "x_kv.png", "concat.png",
            "projected.png"} <= files_in(out)
    names = dialogs.choice_calls[-1][1]
    assert sorted(f"{n}.png" for n in names) == sorted(files_in(out))
    for path in rendered:
        if path.suffix == ".png" and path.stem != "dashboard":
            assert (out / path.name).read_bytes() == path.read_bytes(), path.name


def test_export_all_shows_a_progress_dialog_and_cancel_writes_nothing(
        window, dialogs, tmp_path, monkeypatch):
    seen = []

    class Spy(QProgressDialog):
        cancel_at = None

        def setValue(self, value):
            super().setValue(value)
            seen.append((value, self.isVisible(), self.maximum()))
            if value == Spy.cancel_at:
                self.cancel()

    monkeypatch.setattr(export_actions, "QProgressDialog", Spy)
    dialogs.choice = ExportChoice(tmp_path, ("pdf",), ("json",))
    assert window.exports.export_all()
    assert seen[-1][2] == len(PANE_FILES) + 1 + 1  # files, then the commit
    assert any(visible for _, visible, _ in seen)
    assert files_in(tmp_path) == {f"{n}.pdf" for n in PANE_FILES} | {"matrices.json"}

    cancelled = tmp_path / "cancelled"
    cancelled.mkdir()
    seen.clear()
    Spy.cancel_at = 4
    dialogs.choice = ExportChoice(cancelled, ("png",), ("npz",))
    assert not window.exports.export_all()
    assert files_in(cancelled) == set()  # no files, no temporaries
    assert max(v for v, _, _ in seen) == 4
    assert "cancelled" in window.statusBar().currentMessage()


def test_existing_files_are_replaced_only_when_confirmed(window, dialogs, tmp_path):
    (tmp_path / "q.png").write_bytes(b"old")
    dialogs.choice = ExportChoice(tmp_path, ("png",), ())
    dialogs.answer = False
    assert not window.exports.export_all()
    assert "q.png" in dialogs.questions[-1] and "1 of these files" in dialogs.questions[-1]
    assert files_in(tmp_path) == {"q.png"}
    assert (tmp_path / "q.png").read_bytes() == b"old"

    dialogs.answer = True
    assert window.exports.export_all()
    assert (tmp_path / "q.png").read_bytes() == figure_bytes(
        pane_spec(window.model.result, "Q"), "png", 2.0)


def test_an_unwritable_folder_gives_a_message_and_writes_nothing(
        window, dialogs, tmp_path, monkeypatch):
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x")
    dialogs.choice = ExportChoice(not_a_folder, ("png",), ("npz",))
    assert not window.exports.export_all()
    assert "file.txt" in dialogs.errors[-1] and "Nothing was written" in dialogs.errors[-1]

    # the disk refuses the fifth file: what was staged is removed, nothing appears
    out = tmp_path / "out"
    out.mkdir()
    (out / "q.svg").write_bytes(b"old")
    add = staged_files.StagedFiles.add
    calls = []

    def failing_add(self, path, data):
        calls.append(path)
        if len(calls) == 5:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return add(self, path, data)

    monkeypatch.setattr(staged_files.StagedFiles, "add", failing_add)
    dialogs.choice = ExportChoice(out, ("svg",), ("csv",))
    assert not window.exports.export_all()
    assert dialogs.errors[-1] == f"Could not export to {out}: permission denied. Nothing was written."
    assert files_in(out) == {"q.svg"}
    assert (out / "q.svg").read_bytes() == b"old"
    assert len(dialogs.errors) == 2


def test_export_data_writes_the_chosen_formats(window, dialogs, tmp_path):
    dialogs.choice = ExportChoice(tmp_path, (), ("npy", "json"))
    assert window.exports.export_data()
    assert files_in(tmp_path) == {f"{m}.npy" for m in MATRIX_NAMES} | {"matrices.json"}
    mats = window.model.result.matrices(0)
    for name in MATRIX_NAMES:
        got = np.load(tmp_path / f"{name}.npy", allow_pickle=False)
        assert got.dtype == mats[name].dtype
        np.testing.assert_array_equal(got, mats[name])


def test_export_data_writes_every_head_the_concatenation_and_w_o(window, dialogs, tmp_path):
    """Two heads with W_O, head 2 shown: each head's matrices, concat, W_O and the
    projected output (only head 2's were written), and the dialog counts them."""
    from qkv_desktop.export.data_export import exported_names
    model = window.model
    model.set_heads(2)
    model.set_output_projection(True)
    assert model.wait_until_idle()
    model.set_current_head(1)
    dialogs.choice = ExportChoice(tmp_path, (), ("csv",))
    assert window.exports.export_data()
    names = exported_names(model.state)
    assert dialogs.matrix_names == names
    assert files_in(tmp_path) == {f"{n}.csv" for n in names}
    assert {"Q_h1.csv", "Q_h2.csv", "weights_h2.csv", "concat.csv", "W_O.csv",
            "projected.csv"} <= files_in(tmp_path)
    assert f"Exported {len(names)} files" in window.statusBar().currentMessage()


def test_export_dialogs_start_in_the_session_folder_until_an_export(window, dialogs,
                                                                    tmp_path, monkeypatch):
    """A first export of a saved session started in the home folder; the session's
    folder is where its files belong. A remembered export folder still comes first."""
    sessions = tmp_path / "lessons"
    sessions.mkdir()
    monkeypatch.setattr(window.files.session, "path", sessions / "lesson.qkv.json")
    assert not window.exports.export_data()
    assert dialogs.choice_calls[-1][0].folder == sessions
    window.exports.export_pane("Q")  # cancelled in the save dialog
    assert dialogs.save_calls[-1][0] == str(sessions / "q.png")

    out = tmp_path / "out"
    out.mkdir()
    dialogs.choice = ExportChoice(out, (), ("npz",))
    assert window.exports.export_data()
    dialogs.choice = None
    assert not window.exports.export_all()
    assert dialogs.choice_calls[-1][0].folder == out  # the last export's folder

    monkeypatch.setattr(window.files.session, "path", None)
    window.settings.remove("export")
    assert not window.exports.export_data()
    assert dialogs.choice_calls[-1][0].folder == Path.home()  # untitled, no Documents: home


def _typed_not_applied(qtbot, monkeypatch, window, name: str, text: str):
    """``text`` typed in the window's box ``name``, no Enter, the box keeping the focus."""
    box = window.findChild(QAbstractSpinBox, name)
    child = box
    while (parent := child.parentWidget()) is not None:  # its tab brought to the front
        if isinstance(parent, QStackedWidget):
            parent.setCurrentWidget(child)
        child = parent
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    # offscreen the window may not be active: the box is the focus widget, as it is
    # when the user picks the menu item with the number still in it
    monkeypatch.setattr(QApplication, "focusWidget", staticmethod(lambda: box))
    return box


def test_export_data_takes_a_number_typed_and_not_applied(window, dialogs, tmp_path,
                                                          qtbot, monkeypatch):
    """d_k typed as 6 without Enter, then Export data: the files held d_k 4."""
    model = window.model
    assert model.state.d_k == 4
    _typed_not_applied(qtbot, monkeypatch, window, "d_k", "6")
    assert model.state.d_k == 4  # not applied yet
    dialogs.choice = ExportChoice(tmp_path, (), ("npy",))
    assert window.exports.export_data()
    assert np.load(tmp_path / "Q.npy").shape[1] == 6
    assert model.state.d_k == 6


@pytest.mark.parametrize("how", ["pane", "dashboard", "all"])
def test_figure_exports_take_a_number_typed_and_not_applied(window, dialogs, tmp_path,
                                                            qtbot, monkeypatch, how):
    """The weight scale typed as 0.5 without Enter, then a figure export: the figure was
    drawn from the weights before it."""
    model = window.model
    before = pane_spec(model.result, "Q", 0)
    _typed_not_applied(qtbot, monkeypatch, window, "init_scale", "0.5")
    assert model.state.init_scale != 0.5  # not applied yet
    dialogs.save = (str(tmp_path / "figure.svg"), FILTERS["svg"])
    dialogs.choice = ExportChoice(tmp_path, ("svg",), ())
    if how == "pane":
        window.panes.panes["Q"].exportRequested.emit("Q")
        written = tmp_path / "figure.svg"
    elif how == "dashboard":
        window.exports.export_dashboard()
        written = tmp_path / "figure.svg"
    else:
        assert window.exports.export_all()
        written = tmp_path / "q.svg"
    assert model.state.init_scale == 0.5
    after = pane_spec(model.result, "Q", 0)
    assert not np.array_equal(after.data, before.data)
    if how != "dashboard":
        assert same_document(written.read_bytes(), figure_bytes(after, "svg"))
    else:
        assert not same_document(written.read_bytes(), figure_bytes(before, "svg"))


# ------------------------------------------------------------------ the dialogs
def test_export_all_dialog_offers_formats_and_counts_files(qtbot, tmp_path):
    names = list(PANE_FILES)
    dialog = ExportAllDialog(ExportChoice(tmp_path, ("png",), ("npz",), 3.0), names)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled() and dialog.file_count() == len(names) + 1
    for box in (*dialog.image_boxes.values(), *dialog.data_boxes.values()):
        box.setChecked(False)
    assert not ok.isEnabled() and not dialog.scale.isEnabled()
    dialog.image_boxes["svg"].setChecked(True)
    dialog.data_boxes["csv"].setChecked(True)
    dialog.background.setCurrentIndex(dialog.background.findData("transparent"))
    assert dialog.choice() == ExportChoice(tmp_path, ("svg",), ("csv",), 3.0, "transparent")
    assert dialog.file_count() == len(names) + len(MATRIX_NAMES)
    assert str(dialog.file_count()) in dialog.summary.text()
    dialog.folder.setText("  ")
    assert not ok.isEnabled()

    data_only = ExportAllDialog(ExportChoice(tmp_path, ("png",), ("json",)), None)
    qtbot.addWidget(data_only)
    assert data_only.figures_group.isHidden()
    assert data_only.choice().image_formats == () and data_only.file_count() == 1

    session = ExportAllDialog(ExportChoice(tmp_path, (), ("csv", "npz")), None,
                              matrix_names=["X", "Q", "Q_rope", "K_rope"])
    qtbot.addWidget(session)
    assert session.file_count() == 4 + 1  # the session's matrices, not the eleven of any


class _Counting(QTranslator):
    """Records the count ``tr(…, "", n)`` passes, and gives English's singular form."""

    def __init__(self):
        super().__init__()
        self.counts = []

    def translate(self, context, source, disambiguation=None, n=-1):
        if context == "ExportAllDialog" and source.startswith("Writes %n files"):
            self.counts.append(n)
            return source.replace("files", "file") if n == 1 else source
        return ""

    def isEmpty(self):
        return False


def test_the_file_count_is_a_plural_form(qtbot, tmp_path):
    """"Writes 1 files": the count goes to tr() as Qt's plural number (``%n``)."""
    translator = _Counting()
    app = QCoreApplication.instance()
    app.installTranslator(translator)
    try:
        dialog = ExportAllDialog(ExportChoice(tmp_path, (), ("npz",)), None)
        qtbot.addWidget(dialog)
        assert dialog.summary.text().startswith("Writes 1 file into the folder")
        assert translator.counts[-1] == 1
        dialog.data_boxes["json"].setChecked(True)
        assert dialog.summary.text().startswith("Writes 2 files into the folder")
        assert translator.counts[-1] == 2
    finally:
        app.removeTranslator(translator)


def test_options_dialog_shows_the_png_size_and_refuses_too_large(qtbot):
    dialog = FigureOptionsDialog("png", (300.5, 200.2), FigureOptions(2.0, "white"))
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert "601 × 401 px" in dialog.size_label.text() and ok.isEnabled()
    dialog.scale.setValue(4.0)
    assert "1202 × 801 px" in dialog.size_label.text()
    assert dialog.options() == FigureOptions(4.0, "white")
    # the size follows the scale as it is typed, before Enter applies it (a first user
    # typed 3 and read the size of 2×); a number past the range shows the clamped one
    edit = dialog.scale.lineEdit()
    edit.selectAll()
    QTest.keyClicks(edit, "3")
    assert dialog.scale.value() == 4.0 and "902 × 601 px" in dialog.size_label.text()
    edit.selectAll()
    QTest.keyClicks(edit, "1e")  # no number yet: the value's size stays
    assert "1202 × 801 px" in dialog.size_label.text()

    huge = FigureOptionsDialog("png", (9000, 9000), FigureOptions(2.0))
    qtbot.addWidget(huge)
    assert not huge.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert "too large" in huge.size_label.text()

    vector = FigureOptionsDialog("pdf", (9000, 9000), FigureOptions(2.0, "transparent"))
    qtbot.addWidget(vector)
    assert not vector.scale.isEnabled()
    assert vector.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert vector.options().background == "transparent"


class _Shouting(QTranslator):
    """Upper-cases every text of the export module: shows what got retranslated."""

    def translate(self, context, source, disambiguation=None, n=-1):
        if context in ("ExportActions", "ExportAllDialog", "FigureOptionsDialog",
                       "_BackgroundCombo"):
            return source.upper()
        return ""

    def isEmpty(self):
        return False


def test_texts_follow_a_language_change(window, qtbot, tmp_path):
    dialog = ExportAllDialog(ExportChoice(tmp_path), list(PANE_FILES), window)
    qtbot.addWidget(dialog)
    translator = _Shouting()
    app = QCoreApplication.instance()
    app.installTranslator(translator)
    try:
        app.processEvents()
        assert window.exports.export_all_action.text() == "&EXPORT ALL…"
        assert window.exports.dashboard_action.text() == "EXPORT FIGURE OF THE &DASHBOARD…"
        assert dialog.windowTitle() == "EXPORT ALL"
        assert dialog.background.itemText(0) == "WHITE"
    finally:
        app.removeTranslator(translator)
        app.processEvents()
    assert window.exports.export_all_action.text() == "&Export all…"


# ------------------------------------------------------------------ a PNG scale too large
TOO_LARGE = {
    "en": "dashboard.png: a {0}×{1} px image is too large; lower the scale (limit "
          "120,000,000 pixels, 32767 px a side)",
    "zh_CN": "dashboard.png：{0}×{1} 像素的图像太大；请降低缩放比例（上限 120,000,000 像素，"
             "每边 32767 像素）",
}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_export_all_at_a_png_scale_too_large_disables_export_and_says_why(
        main_window, monkeypatch, speak, lang):
    """At 10× Export all let the user press Export and then failed with the engine's
    English ("没有导出任何内容：a 12790×10160 px image is too large …"): like the one-figure
    dialog it now checks the largest figure (the dashboard) first and says why, in the
    window's language."""
    from PySide6.QtWidgets import QDialog
    speak(lang)
    main_window.settings.remove("export")
    main_window.model.reset(SessionState.from_preset("random-medium"))
    assert main_window.model.wait_until_idle()
    seen = {}

    def look(dialog):
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        dialog.image_boxes["png"].setChecked(True)
        dialog.scale.setValue(2.0)
        seen["at 2"] = (ok.isEnabled(), dialog.summary.text())
        dialog.scale.setValue(10.0)
        seen["at 10"] = (ok.isEnabled(), dialog.summary.text())
        dialog.image_boxes["png"].setChecked(False)  # SVG and PDF have no pixels
        dialog.image_boxes["svg"].setChecked(True)
        seen["svg at 10"] = ok.isEnabled()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportAllDialog, "exec", look)
    assert not main_window.exports.export_all()
    result = main_window.model.result
    dashboard = dict(main_window.exports._figure_set(result))["dashboard"]
    w, h = math.ceil(dashboard.width * 10), math.ceil(dashboard.height * 10)
    assert w * h > 120_000_000, (w, h)  # (the session's dashboard is over the limit)
    assert seen["at 2"][0] and "dashboard" not in seen["at 2"][1]
    assert seen["at 10"] == (False, TOO_LARGE[lang].format(w, h))
    assert seen["svg at 10"]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_engines_size_refusal_is_said_in_the_windows_language(speak, lang):
    from qkv_desktop.presentation.texts import say
    speak(lang)
    with pytest.raises(ValueError) as caught:
        check_png_size(1279, 1016, 10)
    said = TOO_LARGE[lang].format(12790, 10160).split(".png", 1)[1].lstrip(":： ")
    assert say(caught.value) == said
    # the command line's English stays
    assert str(caught.value) == TOO_LARGE["en"].format(12790, 10160).split(": ", 1)[1]


def test_a_clamp_note_in_the_options_dialog_moves_no_button_and_shows_whole(qtbot):
    """"The PNG scale can be at most 10: 99 became 10." wrapped onto two lines in the
    room of one: OK moved down under it, the note was cut at its top and bottom, and
    the click aimed at OK's new place missed it (a first user)."""
    dialog = FigureOptionsDialog("png", (300.5, 200.2), FigureOptions(2.0, "white"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    before = ok.mapTo(dialog, ok.rect().topLeft())
    edit = dialog.scale.lineEdit()
    edit.selectAll()
    QTest.keyClicks(edit, "99")
    dialog.scale.interpretText()
    dialog.scale._on_editing_finished()  # what leaving the box or Enter does
    QApplication.processEvents()
    note = dialog.scale.error
    assert note.isVisible() and "99" in note.text()
    assert ok.mapTo(dialog, ok.rect().topLeft()) == before
    assert note.height() >= note.heightForWidth(note.width())  # not cut
