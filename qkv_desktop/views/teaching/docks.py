"""Puts the teaching lab into the main window: docks, banners, the Lab menu.

``install_teaching(window)`` is the one call ``MainWindow.__init__`` makes; it adds

* the explain panel, the diagnostics and the QKᵀ | KKᵀ view as docks under the editor
  (tabbed, so the eight heatmap panes keep the whole right side),
* the lesson banners above the panes and the QKᵀ asymmetry in the status bar,
* a Lab menu: the scaling lab window (Ctrl+L), "× 100 the inputs" and the docks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QVBoxLayout, QWidget

from qkv_desktop.presentation.texts import say
from qkv_desktop.views.lazy_refresh import refreshes_held
from qkv_desktop.views.retranslate import FollowsWindowLanguage
from qkv_desktop.views.teaching.diagnostics import AsymmetryBadge, DiagnosticsPanel
from qkv_desktop.views.teaching.explain_panel import ExplainPanel
from qkv_desktop.views.teaching.lesson_banners import LessonBanners
from qkv_desktop.views.window_shortcuts import undo_in_lab

if TYPE_CHECKING:  # imported when first shown: the first paint needs none of them
    from qkv_desktop.views.teaching.rope_lab import RopeLab
    from qkv_desktop.views.teaching.scaling_lab import ScalingLab
    from qkv_desktop.views.teaching.symmetry_view import SymmetryView

__all__ = ["Teaching", "install_teaching", "EDITOR_HEIGHT", "COMPACT_HEIGHT"]

EDITOR_HEIGHT = 660
"""Default height of the editor dock; the teaching docks take the rest of the column."""
COMPACT_HEIGHT = 860
"""Windows lower than this (a 768 px laptop screen) tab the teaching docks with the editor."""
HYSTERESIS = 20
"""Pixels above ``COMPACT_HEIGHT`` a window must reach to leave the tabbed layout."""


def _dock(window: QMainWindow, name: str, widget: QWidget | None) -> QDockWidget:
    dock = QDockWidget(window, objectName=name)
    if widget is not None:
        dock.setWidget(widget)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                     | QDockWidget.DockWidgetFeature.DockWidgetClosable)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    return dock


def _wrap_central(window: QMainWindow, banners: QWidget) -> None:
    """Put the banners above the pane grid, in the central area."""
    panes = window.takeCentralWidget()
    box = QWidget(objectName="centralBox")
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(banners)
    layout.addWidget(panes, 1)
    window.setCentralWidget(box)


class Teaching(FollowsWindowLanguage, QObject):
    """What the teaching lab added to a main window; retranslates with it.

    Attributes: ``explain``, ``diagnostics``, ``symmetry`` (the dock contents; the
    last is built when its dock is first shown, or asked for),
    ``docks`` (by those names), ``banners``, ``badge`` (status-bar asymmetry),
    ``lab`` (the scaling lab window, built when first shown), ``lab_menu``, ``lab_action``,
    ``scale_inputs_action``.
    """

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.main_window = window
        model = window.model
        self.explain = ExplainPanel(model)
        self.diagnostics = DiagnosticsPanel(model)
        self._symmetry: SymmetryView | None = None
        self.docks = {"explain": _dock(window, "explainDock", self.explain),
                      "diagnostics": _dock(window, "diagnosticsDock", self.diagnostics),
                      "symmetry": _dock(window, "symmetryDock", None)}
        self.docks["symmetry"].visibilityChanged.connect(self._on_symmetry_shown)
        self.banners = LessonBanners(model)
        _wrap_central(window, self.banners)
        self.badge = AsymmetryBadge(model)
        window.statusBar().addPermanentWidget(self.badge)
        self._lab: ScalingLab | None = None
        self._rope_lab: RopeLab | None = None
        self._build_menu()
        self.retranslate()
        self._placed_for: str | None = None  # "compact" or "wide": the last default placed
        self._front: dict[str, QDockWidget | None] = {}
        """Per default layout, the dock that was in front when the window left it."""
        self.place_docks()
        window.panes.cellPinned.connect(self.show_explanation)  # every pane's, also later ones
        self.follow_language_of(window)  # (also the window's resizes: ``eventFilter``)

    @property
    def symmetry(self) -> SymmetryView:
        """The QKᵀ | KKᵀ view, made (into its dock) when first asked for: its two maps
        were 40 ms of start-up for a dock behind the explain panel's tab (issue 20)."""
        if self._symmetry is None:
            from qkv_desktop.views.teaching.symmetry_view import SymmetryView
            self._symmetry = SymmetryView(self.main_window.model)
            self.docks["symmetry"].setWidget(self._symmetry)
        return self._symmetry

    def _on_symmetry_shown(self, visible: bool) -> None:
        if visible:
            self.symmetry  # noqa: B018 (made on first show)

    def _build_menu(self) -> None:
        window = self.main_window
        ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
        self.lab_action = QAction(window, objectName="showScalingLab")
        self.lab_action.setShortcut(QKeySequence(ctrl | Qt.Key.Key_L))
        self.lab_action.triggered.connect(self.show_lab)
        self.rope_lab_action = QAction(window, objectName="showRopeLab")
        self.rope_lab_action.setShortcut(QKeySequence(ctrl | Qt.Key.Key_R))
        self.rope_lab_action.triggered.connect(self.show_rope_lab)
        self.scale_inputs_action = QAction(window, objectName="scaleInputs100")
        self.scale_inputs_action.setShortcut(QKeySequence(ctrl | shift | Qt.Key.Key_X))
        self.scale_inputs_action.triggered.connect(self.scale_inputs)
        self.lab_menu = QMenu(window, objectName="labMenu")
        window.menuBar().insertMenu(window.help_menu.menuAction(), self.lab_menu)
        self.lab_menu.addAction(self.lab_action)
        self.lab_menu.addAction(self.rope_lab_action)
        self.lab_menu.addAction(self.scale_inputs_action)
        self.lab_menu.addSeparator()
        reset = window.findChild(QAction, "resetLayout")
        for dock in self.docks.values():
            self.lab_menu.addAction(dock.toggleViewAction())
            window.view_menu.insertAction(reset, dock.toggleViewAction())
        window.view_menu.insertAction(reset, self.lab_action)
        window.view_menu.insertSeparator(reset)
        reset.triggered.connect(self.place_docks)


    def place_docks(self) -> None:
        """The default layout: editor on top, the teaching docks tabbed below it; on a
        window lower than ``COMPACT_HEIGHT`` all four tabbed together, so that the editor
        has the whole column (its form and five rows of each token table)."""
        self._front.clear()  # the default's fronts (Reset layout), not those chosen before
        with refreshes_held():
            self._place_docks()

    def _place_docks(self, front: QDockWidget | None = None) -> None:
        """``front``: the dock to show in front of its group (default: the editor in
        the tabbed layout, Explain under the editor; the editor is always in sight in
        the latter)."""
        window = self.main_window
        editor = window.editor_dock
        first, *rest = self.docks.values()
        for dock in self.docks.values():
            # out of any tab group first: splitting the editor from a dock tabbed with it
            # left the two tabbed, the dock in front and the editor out of sight
            window.removeDockWidget(dock)
            window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            dock.setFloating(False)
            dock.show()
        self._placed_for = ("compact" if window.height() < COMPACT_HEIGHT else "wide")
        # the editor's default width too: a window shrunk and grown again, or Reset
        # layout, left the column at its narrow width, X's last columns out of sight
        window.resizeDocks([editor], [window.editor_width()], Qt.Orientation.Horizontal)
        if self._placed_for == "compact":
            for dock in self.docks.values():
                window.tabifyDockWidget(editor, dock)
            (front or editor).raise_()
            return
        window.splitDockWidget(editor, first, Qt.Orientation.Vertical)
        for dock in rest:
            window.tabifyDockWidget(first, dock)
        (front if front in rest else first).raise_()
        height = min(EDITOR_HEIGHT, int(window.height() * 0.62))  # a laptop: less room
        window.resizeDocks([editor, first], [height, max(window.height() - height, 1)],
                           Qt.Orientation.Vertical)

    def _height_class(self) -> str:
        """The layout the window's height calls for. Back to "wide" only from
        ``COMPACT_HEIGHT`` + ``HYSTERESIS``: an edge dragged about 860 px does not
        re-place the docks at every pixel."""
        height = self.main_window.height()
        if self._placed_for == "compact":
            return "compact" if height < COMPACT_HEIGHT + HYSTERESIS else "wide"
        return "compact" if height < COMPACT_HEIGHT else "wide"

    def follow_restored_layout(self) -> None:
        """After the window's saved size and docks are restored: the layout to follow
        from now on is the restored one if it is a default (it was placed for the size
        the window had before the restore), else none (the user's own)."""
        self._placed_for = self.default_layout()
        self._front.clear()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.main_window and event.type() == QEvent.Type.Resize:
            # in the resize itself, not a turn later: the panes then lay out for the
            # new docks in the same pass of the event loop
            self._on_height_changed()
        return super().eventFilter(watched, event)  # (the window's language)

    def _on_height_changed(self) -> None:
        """The window went across ``COMPACT_HEIGHT``: the default layout of its new
        height, if the docks are still as the old default put them. A window opened on
        a large screen and made 700 px high kept the docks split under the editor, and
        the token table showed two rows; a layout the user made stays as it is."""
        if self._placed_for is None or self._height_class() == self._placed_for:
            return
        scale = getattr(self.main_window, "view_scale", None)
        if scale is not None and scale.presenting:
            return  # the docks are hidden for the slides; they come back as they were
        if self.default_layout() == self._placed_for:
            # The tab read stays in front. Diagnostics read in the tabbed layout stays
            # in front under the editor when the window is made tall (it was Explain
            # again); made low again, the tabbed layout shows what it showed when it
            # was left (it was the editor), else the editor: under the editor one of
            # the teaching docks is always in sight, which says nothing of a choice.
            leaving, entering = self._placed_for, self._height_class()
            seen = self._front_teaching_dock()
            if seen is not None or leaving == "compact":  # (none seen: minimised)
                self._front[leaving] = seen or self.main_window.editor_dock
            front = (seen if entering == "wide" else None) or self._front.get(entering)
            with refreshes_held():
                self._place_docks(front)
        else:
            self._placed_for = None  # the user's own layout: left alone from now on

    def _front_teaching_dock(self) -> QDockWidget | None:
        """The teaching dock one sees, if any (a dock behind a tab is moved out of sight,
        not hidden)."""
        return next((d for d in self.docks.values() if not d.visibleRegion().isEmpty()),
                    None)

    def default_layout(self) -> str | None:
        """``"compact"`` (the teaching docks tabbed with the editor), ``"wide"`` (the
        editor alone, the teaching docks tabbed together) or None: a dock floating,
        closed or in another area (the user's own layout, or presentation mode)."""
        window, editor = self.main_window, self.main_window.editor_dock
        docks = list(self.docks.values())
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        if any(d.isFloating() or d.isHidden() or window.dockWidgetArea(d) != left
               for d in (editor, *docks)):
            return None
        with_editor = set(window.tabifiedDockWidgets(editor))
        if with_editor == set(docks):
            return "compact"
        first, *rest = docks
        if not with_editor and set(window.tabifiedDockWidgets(first)) == set(rest):
            return "wide"
        return None

    def show_explanation(self, *_ref) -> None:
        """A cell was pinned in a pane: bring the Explain tab to the front, where the
        answer is (tabbed behind the editor on a laptop screen, it went unseen). A
        closed or floating Explain dock is left as the user put it."""
        dock = self.docks["explain"]
        if not dock.isHidden() and not dock.isFloating():
            dock.raise_()

    @property
    def lab(self) -> ScalingLab:
        """The scaling lab window, built on first use (its plots cost half a second),
        with the main window's Undo and Redo (``undo_in_lab``)."""
        if self._lab is None:
            from qkv_desktop.views.teaching.scaling_lab import ScalingLab
            main = self.main_window
            self._lab = undo_in_lab(ScalingLab(main.model, main), main)
        return self._lab

    @property
    def rope_lab(self) -> RopeLab:
        """The RoPE lab window, built on first use, with the main window's Undo and
        Redo: its base slider edits the session (``undo_in_lab``)."""
        if self._rope_lab is None:
            from qkv_desktop.views.teaching.rope_lab import RopeLab
            main = self.main_window
            self._rope_lab = undo_in_lab(RopeLab(main.model, main), main)
        return self._rope_lab

    def show_rope_lab(self) -> None:
        self.rope_lab.show()
        self.rope_lab.raise_()
        self.rope_lab.activateWindow()

    def show_lab(self) -> None:
        self.lab.show()
        self.lab.raise_()
        self.lab.activateWindow()

    def scale_inputs(self) -> None:
        """The overflow lesson's "× 100 the inputs", one undoable step."""
        model = self.main_window.model
        try:
            model.scale_inputs(100)
        except ValueError as exc:
            model.refused.emit(self.tr("Not applied: {0}").format(say(exc)))

    def retranslate(self) -> None:
        titles = {"explain": self.tr("Explain"), "diagnostics": self.tr("Diagnostics"),
                  "symmetry": self.tr("QKᵀ | KKᵀ")}
        for key, dock in self.docks.items():
            dock.setWindowTitle(titles[key])
        self.lab_menu.setTitle(self.tr("&Lab"))
        self.lab_action.setText(self.tr("&Scaling lab…"))
        self.lab_action.setToolTip(self.tr("Plots of why the scores are divided by √d_k "
                                           "(Ctrl+L)"))
        self.rope_lab_action.setText(self.tr("&RoPE lab…"))
        self.rope_lab_action.setToolTip(self.tr(
            "One query and one key turned by their positions, the scores under a shift, the "
            "decay with distance per base, and shuffled tokens (Ctrl+R)"))
        self.scale_inputs_action.setText(self.tr("× 100 the inputs"))
        self.scale_inputs_action.setToolTip(self.tr(
            "Multiply every input vector by 100 (undoable): with the naive softmax the "
            "scores soon overflow exp."))
        self.scale_inputs_action.setStatusTip(self.scale_inputs_action.toolTip())


def install_teaching(window) -> Teaching:
    """Add the teaching lab to ``window`` (a ``MainWindow`` whose menus are built)."""
    return Teaching(window)
