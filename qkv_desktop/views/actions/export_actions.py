"""Export in the window: a pane or the dashboard as PNG/SVG/PDF, the clipboard, all files.

The pictures and numbers come from the headless engine (``export.figures``,
``export.pane_figures``, ``export.data_export``, ``export.render``), so a figure
exported here is byte for byte the one ``qkv-desktop render`` writes. This module only
asks where and how: a save dialog and a small options dialog (PNG scale, background)
for one figure, a folder-and-formats dialog for Export all / Export data, a cancellable
progress dialog while the files are encoded. A set of files is staged and moved into place
together, so an error or a cancel leaves the folder as it was. The last folder,
formats, scale and background are remembered in ``QSettings`` under ``export/``; before
the first export every dialog starts in the open session file's folder (else the
Documents folder: ``start_folder``), where a user looks for the files of that session.

The export engine (figures, fonts, SVG and PDF writers, data formats) is imported
when an export is asked for, inside the functions that use it, not when the window
starts: the first paint needs none of it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.io.files import atomic_write_bytes
from qkv_desktop.io.staged_files import StagedFiles
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.pane_info import ALL_PANES, pane_relevant
from qkv_desktop.presentation.texts import join_list, say
from qkv_desktop.state.compute import ModelResult
from qkv_desktop.views.editors.spin_boxes import (
    ClampSayingDoubleSpinBox,
    apply_typing,
    holds_enter,
    red_line,
    say_briefly,
)
from qkv_desktop.views.panes.pane_grid import HEADS_KEY, PaneGrid, grid_columns
from qkv_desktop.views.retranslate import FollowsWindowLanguage, Retranslating
from qkv_desktop.views.start_folder import start_folder
from qkv_desktop.views.styles import ERROR_STYLE

__all__ = ["FigureOptions", "FigureOptionsDialog", "ExportChoice", "ExportAllDialog",
           "ExportActions", "DEFAULT_SCALE"]

DEFAULT_SCALE = 2.0
"""PNG pixels per point unless the user chose otherwise."""

_BACKGROUNDS = ("white", "transparent")
_Files = list[tuple[Path, Callable[[], bytes]]]


@dataclass(frozen=True)
class FigureOptions:
    """How to draw one figure: PNG pixels per point and the background."""

    scale: float = DEFAULT_SCALE
    background: str = "white"


@dataclass(frozen=True)
class ExportChoice:
    """What Export all / Export data writes: the folder, the formats, the PNG options."""

    folder: Path
    image_formats: tuple[str, ...] = ("png",)
    data_formats: tuple[str, ...] = ("npz",)
    scale: float = DEFAULT_SCALE
    background: str = "white"


# ------------------------------------------------------------------ shared widgets
class _ScaleSpin(ClampSayingDoubleSpinBox):
    """PNG scale, 0.5× to ``MAX_SCALE``×, in half steps with the arrows; a scale typed
    past them is said in the dialog's red line (``error``), which ``said`` fills."""

    def __init__(self, scale: float, parent: QWidget | None = None):
        from qkv_desktop.export.figures import MAX_SCALE
        super().__init__(parent, objectName="scale")
        self.setRange(0.5, MAX_SCALE)
        self.setSingleStep(0.5)
        self.setSuffix("×")
        self.setValue(scale)
        # keeps its room (a note wraps in the narrow dialog): the rows below stay put
        self.error = red_line("scaleError", lines=2)
        self.said.connect(partial(say_briefly, self.error))


class _BackgroundCombo(QComboBox):
    """White or transparent; the item data is the engine's name for it."""

    def __init__(self, background: str, parent: QWidget | None = None):
        super().__init__(parent, objectName="background")
        for name in _BACKGROUNDS:
            self.addItem("", name)
        self.setCurrentIndex(max(0, self.findData(background)))

    def retranslate(self) -> None:
        self.setItemText(0, self.tr("White"))
        self.setItemText(1, self.tr("Transparent"))

    def background(self) -> str:
        return self.currentData()


# ------------------------------------------------------------------ one figure
TITLE_BAR_ROOM = 170
"""Pixels a window manager's title bar takes besides the title: the icon and the
minimise, maximise and close buttons, and their margins."""


def title_bar_width(window: QWidget) -> int:
    """A width at which ``window``'s title shows whole in its title bar: the form of
    the export options is narrower than "Export options: PNG" and its buttons, and the
    title was cut to "Export opt…" (the title font is often bold: a fifth more)."""
    title = window.fontMetrics().horizontalAdvance(window.windowTitle())
    return math.ceil(title * 1.2) + TITLE_BAR_ROOM


def _room_for(line: QLabel) -> QWidget:
    """``line`` (a red line that keeps its room) in a box of its own for a form: a form
    lays out no row of a hidden widget, so the room the line keeps was not kept there
    and its note pushed OK down."""
    room = QWidget()
    layout = QVBoxLayout(room)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(line)
    return room


class FigureOptionsDialog(Retranslating, QDialog):
    """The PNG scale (with the resulting pixel size) and the background of one figure.

    ``size_pt`` is the figure's size in points; the scale only applies to PNG, and an
    image over the engine's size limit disables OK with the reason shown.
    """

    def __init__(self, fmt: str, size_pt: tuple[float, float],
                 options: FigureOptions = FigureOptions(), parent: QWidget | None = None):
        super().__init__(parent, objectName="figureOptions")
        self.fmt, self.size_pt = fmt, size_pt
        self.scale = _ScaleSpin(options.scale)
        self.scale.setEnabled(fmt == "png")
        self.size_label = QLabel(objectName="sizeLabel")
        self.background = _BackgroundCombo(options.background)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.labels = [QLabel() for _ in range(3)]
        form = QFormLayout(self)
        for label, widget in zip(self.labels, (self.scale, self.size_label, self.background), strict=True):
            label.setBuddy(widget)
            form.addRow(label, widget)
            if widget is self.scale:
                form.addRow(_room_for(self.scale.error))
        form.addRow(self.buttons)
        self.scale.valueChanged.connect(self._update_size)
        # the size follows the scale as it is typed (the box applies it on Enter)
        self.scale.lineEdit().textEdited.connect(self._update_size)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Export options: {0}").format(self.fmt.upper()))
        self.setMinimumWidth(title_bar_width(self))
        for label, text in zip(self.labels, (self.tr("&Scale:"), self.tr("Size:"),
                                             self.tr("&Background:")), strict=True):
            label.setText(text)
        self.scale.subject = self.tr("The PNG scale")
        self.scale.setToolTip(self.tr("PNG pixels per point: 2× suits slides and print")
                              if self.fmt == "png" else
                              self.tr("SVG and PDF are vector formats: sharp at any size"))
        self.background.retranslate()
        self._update_size()

    def _update_size(self) -> None:
        from qkv_desktop.export.figures import check_png_size
        w, h = self.size_pt
        scale = self.scale.typed_value()
        ok = True
        if self.fmt != "png":
            text = self.tr("{0} × {1} pt (vector)").format(round(w), round(h))
        else:
            try:
                size = check_png_size(w, h, scale)
                text = self.tr("{0} × {1} px").format(size.width(), size.height())
            except ValueError:
                text = self.tr("{0} × {1} px is too large; lower the scale").format(
                    math.ceil(w * scale), math.ceil(h * scale))
                ok = False
        self.size_label.setText(text)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def options(self) -> FigureOptions:
        return FigureOptions(self.scale.value(), self.background.background())

    def accept(self) -> None:
        if not holds_enter(self.scale):  # the scale just clamped: read it first
            super().accept()

    @classmethod
    def ask(cls, parent: QWidget, fmt: str, size_pt: tuple[float, float],
            options: FigureOptions) -> FigureOptions | None:
        """The options chosen, or None when cancelled (tests replace this)."""
        dialog = cls(fmt, size_pt, options, parent)
        try:
            return dialog.options() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()


# ------------------------------------------------------------------ many files
class ExportAllDialog(Retranslating, QDialog):
    """A folder, the image and data formats, and the PNG options for a set of files.

    With ``figure_names`` None only the data formats are offered (Export data).
    ``matrix_names`` are the matrices the data export writes for this session
    (``data_export.exported_names``: more with RoPE, W_O or several heads), so that the
    count of CSV and NPY files is the one written; by default those of every session.
    ``figure_sizes`` are the figures' sizes in points, in the order of ``figure_names``:
    a PNG scale at which one is over the engine's size limit (the dashboard, the
    largest, first) disables Export with the reason shown, as the one-figure dialog does.
    """

    def __init__(self, choice: ExportChoice, figure_names: list[str] | None = None,
                 parent: QWidget | None = None, matrix_names: list[str] | None = None,
                 figure_sizes: list[tuple[float, float]] | None = None):
        from qkv_desktop.export.data_export import DATA_FORMATS, MATRIX_NAMES
        from qkv_desktop.export.figures import FORMATS
        super().__init__(parent, objectName="exportAll")
        self.figure_names = figure_names
        self.figure_sizes = list(figure_sizes or ())
        self.matrix_names = list(MATRIX_NAMES if matrix_names is None else matrix_names)
        self.folder = QLineEdit(str(choice.folder), objectName="folder")
        self.browse = QPushButton(objectName="browse")
        self.browse.clicked.connect(self._on_browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(self.browse)
        self.folder_label = QLabel()
        self.folder_label.setBuddy(self.folder)

        self.image_boxes = {f: QCheckBox(f.upper(), objectName=f"image_{f}") for f in FORMATS}
        self.scale = _ScaleSpin(choice.scale)
        self.background = _BackgroundCombo(choice.background)
        self.figures_group = QGroupBox(objectName="figures")
        figures = QFormLayout(self.figures_group)
        boxes = QHBoxLayout()
        for f, box in self.image_boxes.items():
            box.setChecked(f in choice.image_formats)
            boxes.addWidget(box)
        boxes.addStretch(1)
        figures.addRow(boxes)
        self.scale_label, self.background_label = QLabel(), QLabel()
        self.scale_label.setBuddy(self.scale)
        self.background_label.setBuddy(self.background)
        figures.addRow(self.scale_label, self.scale)
        figures.addRow(self.scale.error)
        figures.addRow(self.background_label, self.background)
        self.figures_group.setVisible(figure_names is not None)

        self.data_boxes = {f: QCheckBox(f.upper(), objectName=f"data_{f}")
                           for f in DATA_FORMATS}
        self.data_group = QGroupBox(objectName="data")
        data = QHBoxLayout(self.data_group)
        for f, box in self.data_boxes.items():
            box.setChecked(f in choice.data_formats)
            data.addWidget(box)
        data.addStretch(1)

        self.summary = QLabel(objectName="summary")
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.folder_label)
        layout.addLayout(folder_row)
        layout.addWidget(self.figures_group)
        layout.addWidget(self.data_group)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.folder.textChanged.connect(self._update)
        for box in (*self.image_boxes.values(), *self.data_boxes.values()):
            box.toggled.connect(self._update)
        self.scale.valueChanged.connect(self._update)
        self.setMinimumWidth(460)
        self.retranslate()

    def retranslate(self) -> None:
        images = self.figure_names is not None
        self.setWindowTitle(self.tr("Export all") if images else self.tr("Export data"))
        self.folder_label.setText(self.tr("&Folder:"))
        self.browse.setText(self.tr("&Browse…"))
        self.figures_group.setTitle(self.tr("Figures (every pane and the dashboard)"))
        self.scale_label.setText(self.tr("PNG &scale:"))
        self.scale.subject = self.tr("The PNG scale")
        self.background_label.setText(self.tr("&Background:"))
        self.data_group.setTitle(self.tr("Data (the numbers of every matrix)"))
        self.data_boxes["csv"].setToolTip(self.tr("One CSV per matrix, with token labels"))
        self.data_boxes["npy"].setToolTip(self.tr("One NumPy .npy per matrix"))
        self.data_boxes["npz"].setToolTip(self.tr("matrices.npz: every matrix and the tokens"))
        self.data_boxes["json"].setToolTip(
            self.tr("matrices.json: every matrix, the tokens and the options"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Export"))
        self.background.retranslate()
        self._update()

    def _on_browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder"),
                                                  self.folder.text())
        if folder:
            self.folder.setText(folder)

    def file_count(self) -> int:
        """How many files the current choice writes."""
        c = self.choice()
        matrices = len(self.matrix_names)
        per_data = {"csv": matrices, "npy": matrices, "npz": 1, "json": 1}
        return (len(self.figure_names or ()) * len(c.image_formats)
                + sum(per_data[f] for f in c.data_formats))

    def too_large(self) -> str:
        """Why the chosen PNG scale cannot be written ("dashboard.png: a 12790×10160 px
        image is too large; …", in the window's language), or "" when it can: the largest
        figure over the limit decides."""
        from qkv_desktop.export.figures import check_png_size
        if "png" not in self.choice().image_formats:
            return ""
        scale = self.scale.value()
        by_area = sorted(zip(self.figure_names or (), self.figure_sizes, strict=False),
                         key=lambda item: -item[1][0] * item[1][1])
        for name, (w, h) in by_area:
            try:
                check_png_size(w, h, scale)
            except ValueError as exc:  # (the engine refused it at Export: in English)
                return self.tr("{0}.png: {1}").format(name, say(exc))
        return ""

    def _update(self) -> None:
        count = self.file_count()
        folder = self.folder.text().strip()
        too_large = self.too_large()
        if not folder:
            text = self.tr("Choose a folder.")
        elif count == 0:
            text = self.tr("Choose at least one format.")
        elif too_large:
            text = too_large
        else:
            text = self.tr("Writes %n files into the folder, all together or none.", "",
                           count)
        self.summary.setText(text)
        self.summary.setStyleSheet(ERROR_STYLE if text == too_large else "")
        self.scale.setEnabled(self.image_boxes["png"].isChecked())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(folder) and count > 0 and not too_large)

    def accept(self) -> None:
        if not holds_enter(self.scale):  # the scale just clamped: read it first
            super().accept()

    def choice(self) -> ExportChoice:
        images = tuple(f for f, b in self.image_boxes.items() if b.isChecked()) \
            if self.figure_names is not None else ()
        return ExportChoice(Path(self.folder.text().strip()).expanduser(), images,
                            tuple(f for f, b in self.data_boxes.items() if b.isChecked()),
                            self.scale.value(), self.background.background())

    @classmethod
    def ask(cls, parent: QWidget, choice: ExportChoice, figure_names: list[str] | None,
            matrix_names: list[str] | None = None,
            figure_sizes: list[tuple[float, float]] | None = None) -> ExportChoice | None:
        """The choice made, or None when cancelled (tests replace this)."""
        dialog = cls(choice, figure_names, parent, matrix_names, figure_sizes)
        try:
            return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()


# ------------------------------------------------------------------ the actions
class ExportActions(FollowsWindowLanguage, QObject):
    """File → Export… actions and the panes' Export… / Copy image for ``window``."""

    def __init__(self, window: QMainWindow, model: AttentionModel, settings: QSettings,
                 menu: QMenu, panes: PaneGrid, before: QAction | None = None,
                 session_file: Callable[[], Path | None] | None = None):
        """``session_file()`` is the open session's file (None: untitled), whose folder
        the export dialogs start in until the user has exported somewhere."""
        super().__init__(window)
        self.window, self.model, self.settings, self.panes = window, model, settings, panes
        self.session_file = session_file or (lambda: None)

        def action(slot, name, key=None):  # texts come from retranslate
            a = QAction(window, objectName=name)
            if key is not None:
                a.setShortcut(QKeySequence(key))
            a.triggered.connect(slot)
            menu.insertAction(before, a)
            return a

        self.dashboard_action = action(self.export_dashboard, "exportDashboard")
        self.export_all_action = action(self.export_all, "exportAll", "Ctrl+E")
        self.export_data_action = action(self.export_data, "exportData")
        menu.insertSeparator(before)
        panes.exportRequested.connect(self.export_pane)  # every pane's, also those built later
        panes.copyRequested.connect(self.copy_pane)
        self.follow_language_of(window)
        self.retranslate()

    def retranslate(self) -> None:
        for a, text, tip in (
                (self.dashboard_action, self.tr("Export figure of the &dashboard…"),
                 self.tr("All shown panes in one image (PNG, SVG or PDF)")),
                (self.export_all_action, self.tr("&Export all…"),
                 self.tr("Every pane, the dashboard and the matrices into a folder (Ctrl+E)")),
                (self.export_data_action, self.tr("Export &data…"),
                 self.tr("The matrices as CSV, NPY, NPZ or JSON"))):
            a.setText(text)
            a.setToolTip(tip)
            a.setStatusTip(tip)


    # ------------------------------------------------------------ asking, telling
    def ask(self, question: str) -> bool:
        """A yes/no question (tests replace this)."""
        answer = QMessageBox.question(self.window, self.tr("Export"), question)
        return answer == QMessageBox.StandardButton.Yes

    def show_error(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10000)
        QMessageBox.warning(self.window, self.tr("Export"), text)

    def _message(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10000)

    # ------------------------------------------------------------ settings
    def folder(self) -> Path:
        """Where every export dialog starts, the labs' too: the folder of the last export,
        else the open session file's folder (a first export of a saved session went to
        the home folder, away from the session it came from), else the Documents folder
        (``start_folder``)."""
        session = self.session_file()
        return start_folder(self.settings.value("export/folder"),
                            session.parent if session is not None else None)

    def remember_folder(self, folder: Path) -> None:
        """``folder`` is where the next export dialog starts (``folder()``)."""
        self.settings.setValue("export/folder", str(folder))

    def _options(self) -> FigureOptions:
        from qkv_desktop.export.figures import MAX_SCALE
        try:
            scale = float(self.settings.value("export/scale", DEFAULT_SCALE))
        except (TypeError, ValueError):
            scale = DEFAULT_SCALE
        if not 0.5 <= scale <= MAX_SCALE:
            scale = DEFAULT_SCALE
        background = self.settings.value("export/background", "white")
        return FigureOptions(scale, background if background in _BACKGROUNDS else "white")

    def _formats(self, key: str, known: tuple[str, ...], default: tuple[str, ...]):
        """Formats saved as "png,svg" ("" for none); ``default`` before the first export."""
        value = self.settings.value(key)
        if not isinstance(value, str):
            return default
        return tuple(f for f in known if f in value.split(","))

    def _remember(self, folder: Path, options: FigureOptions, fmt: str | None = None) -> None:
        s = self.settings
        self.remember_folder(folder)
        s.setValue("export/scale", options.scale)
        s.setValue("export/background", options.background)
        if fmt is not None:
            s.setValue("export/format", fmt)

    # ------------------------------------------------------------ what to draw
    def _result(self) -> ModelResult | None:
        """The result of the current state, or None (and a message) if there is none.

        A number typed in a box and not yet applied is applied first (every export
        reads the state here): the figure and the data held the number before it."""
        apply_typing()
        if not self.model.wait_until_idle() or self.model.result is None:
            self.show_error(self.tr("The current session could not be computed, so there "
                                    "is nothing to export; see the status bar."))
            return None
        return self.model.result

    def _relevant_keys(self, result: ModelResult) -> list[str]:
        return [p.key for p in ALL_PANES if pane_relevant(result.state, p.key)]

    def _dashboard_keys(self, result: ModelResult) -> list[str]:
        """The panes the window shows, in its order; every pane if none is shown."""
        relevant = self._relevant_keys(result)
        shown = [k for k in self.panes.shown() if k != HEADS_KEY and k in relevant]
        return shown or relevant

    def _figure_set(self, result: ModelResult) -> list[tuple]:
        """The one figure set (``export.figure_set``) of the current head; the dashboard
        shows the panes as the window arranges them."""
        from qkv_desktop.export.figure_set import figure_set
        keys = self._dashboard_keys(result)
        return figure_set(result, self.model.current_head, dashboard=keys,
                          columns=grid_columns(len(keys), self.panes.columns))

    # ------------------------------------------------------------ one figure
    def export_pane(self, key: str) -> None:
        """Pane → Export…: the pane's figure for the current head as PNG, SVG or PDF."""
        from qkv_desktop.export.figures import layout_figure
        from qkv_desktop.export.pane_figures import pane_spec
        result = self._result()
        if result is None:
            return
        try:
            spec = pane_spec(result, key, self.model.current_head)
        except ValueError as exc:
            self.show_error(self.tr("Cannot export this pane: {0}").format(say(exc)))
            return
        self._export_figure(layout_figure(spec), spec.name)

    def export_dashboard(self) -> None:
        """File → Export figure of the dashboard…: every shown pane in one figure."""
        from qkv_desktop.export.figure_set import DASHBOARD, dashboard_layout
        result = self._result()
        if result is None:
            return
        keys = self._dashboard_keys(result)
        self._export_figure(dashboard_layout(result, self.model.current_head, None, keys,
                                             grid_columns(len(keys), self.panes.columns)),
                            DASHBOARD)

    def _ask_image_path(self, name: str) -> tuple[Path, str] | None:
        """A file name and format from the save dialog; None when cancelled."""
        from qkv_desktop.export.figures import FORMATS
        filters = {"png": self.tr("PNG image (*.png)"),
                   "svg": self.tr("SVG vector image (*.svg)"),
                   "pdf": self.tr("PDF document (*.pdf)")}
        last = self.settings.value("export/format", "png")
        last = last if last in FORMATS else "png"
        path, chosen = QFileDialog.getSaveFileName(
            self.window, self.tr("Export figure"), str(self.folder() / f"{name}.{last}"),
            ";;".join(filters.values()), filters[last])
        if not path:
            return None
        path = Path(path)
        fmt = path.suffix.lower().lstrip(".")
        if fmt not in FORMATS:  # no known extension: the filter's, then ask about overwriting
            fmt = next((f for f, text in filters.items() if text == chosen), last)
            path = path.with_name(f"{path.name}.{fmt}")
            if path.exists() and not self.ask(
                    self.tr("{0} already exists. Replace it?").format(path.name)):
                return None
        return path, fmt

    def _export_figure(self, lay, name: str) -> None:
        from qkv_desktop.export.figures import encode_layout
        target = self._ask_image_path(name)
        if target is None:
            return
        path, fmt = target
        options = FigureOptionsDialog.ask(self.window, fmt, (lay.width, lay.height),
                                          self._options())
        if options is None:
            return
        self._remember(path.parent, options, fmt)
        try:
            atomic_write_bytes(path, encode_layout(lay, fmt, options.scale, options.background))
        except (OSError, ValueError) as exc:
            self.show_error(self.tr("Could not export {0}: {1}. Nothing was written.")
                            .format(os.fspath(path), say(exc)))
            return
        self._message(self.tr("Exported {0}").format(os.fspath(path)))

    def copy_pane(self, key: str) -> None:
        """Pane → Copy image: the pane's figure on the clipboard, at the remembered scale."""
        from qkv_desktop.export.figures import figure_image
        from qkv_desktop.export.pane_figures import pane_spec
        result = self._result()
        if result is None:
            return
        try:
            spec = pane_spec(result, key, self.model.current_head)
            image = figure_image(spec, self._options().scale, "white")
        except ValueError as exc:
            self.show_error(self.tr("Cannot copy this pane: {0}").format(say(exc)))
            return
        QGuiApplication.clipboard().setImage(image)
        self._message(self.tr("Copied {0} as a {1} × {2} px image").format(
            spec.title, image.width(), image.height()))

    # ------------------------------------------------------------ sets of files
    def _choice(self, images: bool) -> ExportChoice:
        from qkv_desktop.export.data_export import DATA_FORMATS
        from qkv_desktop.export.figures import FORMATS
        options = self._options()
        return ExportChoice(self.folder(),
                            self._formats("export/image_formats", FORMATS, ("png",))
                            if images else (),
                            self._formats("export/data_formats", DATA_FORMATS, ("npz",)),
                            options.scale, options.background)

    def _figure_files(self, result: ModelResult, choice: ExportChoice) -> _Files:
        """The figure set, per chosen image format: render's files and names."""
        from qkv_desktop.export.figures import check_png_size, encode_layout
        if not choice.image_formats:
            return []
        layouts = self._figure_set(result)
        if "png" in choice.image_formats:
            for _, lay in layouts:
                check_png_size(lay.width, lay.height, choice.scale)
        return [(choice.folder / f"{name}.{fmt}",
                 partial(encode_layout, lay, fmt, choice.scale, choice.background))
                for fmt in choice.image_formats for name, lay in layouts]

    def export_all(self) -> bool:
        """File → Export all…: panes, dashboard and data into one folder, all or nothing."""
        from qkv_desktop.export.data_export import exported_names
        result = self._result()
        if result is None:
            return False
        layouts = self._figure_set(result)  # (their sizes: a PNG scale too large is said)
        choice = ExportAllDialog.ask(self.window, self._choice(True),
                                     [name for name, _ in layouts],
                                     exported_names(result.state),
                                     figure_sizes=[(lay.width, lay.height) for _, lay in layouts])
        return choice is not None and self._export_set(result, choice)

    def export_data(self) -> bool:
        """File → Export data…: every head's matrices (the current head's under the plain
        names) as CSV, NPY, NPZ or JSON."""
        from qkv_desktop.export.data_export import exported_names
        result = self._result()
        if result is None:
            return False
        choice = ExportAllDialog.ask(self.window, self._choice(False), None,
                                     exported_names(result.state))
        return choice is not None and self._export_set(result, choice)

    def _export_set(self, result: ModelResult, choice: ExportChoice) -> bool:
        from qkv_desktop.export.data_export import data_files
        self._remember(choice.folder, FigureOptions(choice.scale, choice.background))
        if choice.image_formats:  # Export data leaves the image choice as it was
            self.settings.setValue("export/image_formats", ",".join(choice.image_formats))
        self.settings.setValue("export/data_formats", ",".join(choice.data_formats))
        if not choice.folder.is_dir():
            self.show_error(self.tr("{0} is not an existing folder. Nothing was written.")
                            .format(os.fspath(choice.folder)))
            return False
        try:
            files = self._figure_files(result, choice)
            if choice.data_formats:
                files += data_files(result, choice.folder, choice.data_formats,
                                    self.model.current_head)
        except ValueError as exc:
            self.show_error(self.tr("Nothing was exported: {0}").format(say(exc)))
            return False
        existing = [p.name for p, _ in files if p.exists()]
        if existing and not self.ask(
                self.tr("{0} of these files already exist in {1}: {2}. Replace them?").format(
                    len(existing), os.fspath(choice.folder),
                    join_list(existing[:6] + ["…"] * (len(existing) > 6)))):
            return False
        if self._write(files):
            self._message(self.tr("Exported %n files to {0}", "", len(files)).format(
                os.fspath(choice.folder)))
            return True
        return False

    def _write(self, files: _Files) -> bool:
        """Encode and stage ``files`` under a cancellable progress dialog; commit at the end."""
        progress = QProgressDialog(self.window, objectName="exportProgress")
        progress.setWindowTitle(self.tr("Export"))
        progress.setCancelButtonText(self.tr("Cancel"))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setRange(0, len(files) + 1)
        progress.setMinimumDuration(0)
        progress.setAutoReset(False)
        try:
            with StagedFiles() as staged:
                for i, (path, make) in enumerate(files):
                    progress.setLabelText(self.tr("Writing {0}…").format(path.name))
                    progress.setValue(i)
                    if progress.wasCanceled():
                        self._message(self.tr("Export cancelled; nothing was written"))
                        return False
                    staged.add(path, make())
                progress.setLabelText(self.tr("Moving the files into place…"))
                progress.setValue(len(files))
                if progress.wasCanceled():
                    self._message(self.tr("Export cancelled; nothing was written"))
                    return False
                staged.commit()
        except (OSError, ValueError) as exc:
            folder = files[0][0].parent if files else ""
            progress.close()  # not left at "Writing …" over the message until it is read
            self.show_error(self.tr("Could not export to {0}: {1}. Nothing was written.")
                            .format(os.fspath(folder), say(exc)))
            return False
        finally:
            progress.close()
            progress.deleteLater()
        return True
