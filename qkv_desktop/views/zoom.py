"""View → Zoom and Presentation mode: everything larger, for a small screen or a projector.

Zoom scales the application font, so the panes' axis and value labels, the tables,
the controls and the docks grow together (each view takes its sizes from the font);
the factor is remembered. Presentation mode (F5) shows the panes alone, full screen
and zoomed, with the status bar's formula read-out; F5 or Esc gives the desk back.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QDockWidget,
    QMainWindow,
    QMenu,
    QWidget,
)
from shiboken6 import isValid

from qkv_desktop.views.retranslate import FollowsWindowLanguage

__all__ = ["ViewScale", "system_font", "ZOOM_STEPS", "SETTINGS_KEY", "PRESENTATION_ZOOM"]

ZOOM_STEPS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
SETTINGS_KEY = "view/zoom"
PRESENTATION_ZOOM = 1.5
"""Presentation mode's factor on top of the zoom chosen: readable from the back row."""
HINT_MS = 4000
"""How long presentation mode's hint ("F5 or Esc to leave") stays, unless left sooner."""
DOCKS_WAIT_MS = 3000
"""How long leaving presentation mode waits for the window's own size, to give the
docks theirs back (a window manager may give it another)."""


_SYSTEM_FONT: QFont | None = None


def system_font() -> QFont:
    """The application font as the desktop set it, before any zoom changed it."""
    global _SYSTEM_FONT
    if _SYSTEM_FONT is None:
        _SYSTEM_FONT = QFont(QApplication.instance().font())
    return QFont(_SYSTEM_FONT)


class ViewScale(FollowsWindowLanguage, QObject):
    """The zoom and presentation actions of ``window``'s View menu.

    ``presentingChanged(bool)``: presentation mode began or ended (the hint banner
    words itself for what is then on screen)."""

    presentingChanged = Signal(bool)

    def __init__(self, window: QMainWindow, settings: QSettings, menu: QMenu, before=None):
        super().__init__(window)
        self.window, self.settings = window, settings
        self._base = system_font()
        self._presenting: tuple | None = None  # what presentation mode hid, to restore
        self._docks_per_zoom: dict[float, tuple] = {}
        """zoom → (``_dock_layout()``, window size) as they were when it was left."""
        self._hint = ""  # the status bar's hint on entering, in the language of the day
        self._docks_timer = QTimer(self, singleShot=True, interval=DOCKS_WAIT_MS)
        self._docks_timer.timeout.connect(self._forget_docks)
        try:
            saved = float(settings.value(SETTINGS_KEY, 1.0))
        except (TypeError, ValueError):
            saved = 1.0
        self.zoom = min(ZOOM_STEPS, key=lambda z: abs(z - saved))
        ctrl = Qt.KeyboardModifier.ControlModifier

        def action(slot, keys, name):
            a = QAction(window, objectName=name)
            a.setShortcuts(_distinct(keys))
            a.triggered.connect(slot)
            return a

        self.zoom_in_action = action(lambda: self.step(1), [ctrl | Qt.Key.Key_Equal,
                                                            QKeySequence.StandardKey.ZoomIn],
                                     "zoomIn")
        self.zoom_out_action = action(lambda: self.step(-1), [ctrl | Qt.Key.Key_Minus,
                                                              QKeySequence.StandardKey.ZoomOut],
                                      "zoomOut")
        self.zoom_reset_action = action(lambda: self.set_zoom(1.0), [ctrl | Qt.Key.Key_0],
                                        "zoomReset")
        self.presentation_action = action(self.toggle_presentation, [Qt.Key.Key_F5],
                                          "presentation")
        self.presentation_action.setCheckable(True)
        self.leave_action = action(self.leave_presentation, [Qt.Key.Key_Escape],
                                   "leavePresentation")
        self.leave_action.setEnabled(False)
        window.addAction(self.leave_action)  # Esc: only while presenting
        # F5 also while presenting: the menu bar, and with it the View menu's shortcut,
        # is hidden then ("F5 or Esc to leave", and F5 did nothing)
        window.addAction(self.presentation_action)
        self.zoom_menu = QMenu(window, objectName="zoomMenu")
        for a in (self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action):
            self.zoom_menu.addAction(a)
        menu.insertMenu(before, self.zoom_menu)
        menu.insertAction(before, self.presentation_action)
        self.follow_language_of(window)
        self.retranslate()
        self._apply()

    def retranslate(self) -> None:
        self.zoom_menu.setTitle(self.tr("&Zoom ({0:.0%})").format(self.zoom))
        for a, text in ((self.zoom_in_action, self.tr("Zoom &in")),
                        (self.zoom_out_action, self.tr("Zoom &out")),
                        (self.zoom_reset_action, self.tr("&Actual size")),
                        (self.presentation_action, self.tr("&Presentation mode")),
                        (self.leave_action, self.tr("Leave presentation mode"))):
            a.setText(text)
        self.presentation_action.setToolTip(self.tr(
            "The panes alone, full screen and large, for a projector (F5; Esc leaves)."))
        hint = self.tr("Presentation mode: F5 or Esc to leave")
        if self.presenting:  # said anew in this language (it stayed in the one before)
            self.window.statusBar().reword(self._hint, hint)
        self._hint = hint

    # ---------------------------------------------------------------- zoom
    def step(self, direction: int) -> None:
        k = ZOOM_STEPS.index(self.zoom) + direction
        self.set_zoom(ZOOM_STEPS[min(max(k, 0), len(ZOOM_STEPS) - 1)])

    def set_zoom(self, zoom: float) -> None:
        """Scale every view to ``zoom`` (one of ``ZOOM_STEPS``) and remember it.

        Back at a zoom left before, in a window of the same size and with the same
        docks where they were, the docks get the sizes they had when it was left: a
        larger font widens the editor to its form's new minimum, and it stayed wide
        after Ctrl+0 (a first user). Only sizes: a dock closed, moved or floated
        meanwhile stays so."""
        zoom = min(ZOOM_STEPS, key=lambda z: abs(z - zoom))
        w = self.window
        if zoom != self.zoom and not self.presenting:
            self._docks_per_zoom[self.zoom] = (self._dock_layout(), w.size())
        self.zoom = zoom
        self.settings.setValue(SETTINGS_KEY, self.zoom)
        self._apply()
        self.retranslate()
        then = self._docks_per_zoom.pop(zoom, None)
        if then is not None and then[1] == w.size() and not self.presenting:
            QTimer.singleShot(0, w, lambda: self._give_docks_sizes(then[0]))

    def _dock_layout(self) -> dict:
        """Each dock's area, floating, visibility and size."""
        w = self.window
        return {dock: (w.dockWidgetArea(dock), dock.isFloating(), dock.isVisible(),
                       dock.size()) for dock in w.findChildren(QDockWidget)}

    def _give_docks_sizes(self, then: dict) -> None:
        """The docked, visible docks of ``then`` at their sizes then, if every dock is
        still where and as it was (a dock closed, moved or floated since: left so)."""
        now = self._dock_layout()
        if self.presenting or now.keys() != then.keys() or any(
                now[d][:3] != then[d][:3] for d in then):
            return
        self._settle_minimums()
        shown = [(d, area, size) for d, (area, floating, visible, size) in then.items()
                 if visible and not floating]
        sides = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
        across = [(d, s.width()) for d, area, s in shown if area in sides]
        down = [(d, s.height()) for d, area, s in shown if area not in sides]
        for pairs, orientation in ((across, Qt.Orientation.Horizontal),
                                   (down, Qt.Orientation.Vertical)):
            if pairs:
                self.window.resizeDocks([d for d, _ in pairs], [n for _, n in pairs],
                                        orientation)

    def factor(self) -> float:
        """The font scale in effect: the zoom, and presentation mode's on top."""
        return self.zoom * (PRESENTATION_ZOOM if self._presenting is not None else 1.0)

    def _apply(self) -> None:
        font = QFont(self._base)
        if self._base.pointSizeF() > 0:
            font.setPointSizeF(self._base.pointSizeF() * self.factor())
        else:
            font.setPixelSize(round(self._base.pixelSize() * self.factor()))
        if font == QApplication.font():
            return  # every widget has it already (start-up at 100 %: 13 ms of re-polishing)
        QApplication.instance().setFont(font)
        # A widget under a style sheet (the editor's tabs, the banners) keeps the font it
        # was polished with: setting the sheet again polishes it with the new one.
        for widget in [self.window, *self.window.findChildren(QWidget)]:
            if widget.styleSheet():
                widget.setStyleSheet(widget.styleSheet())
        for area in self.window.findChildren(QAbstractScrollArea):
            area.updateGeometry()  # a larger font: a larger minimum (the editor's form)

    _docks_at: tuple | None = None
    """(dock state, window size) to restore the docks at, once the window is that size."""

    def _forget_docks(self) -> None:
        self._docks_at = None

    def _restore_docks(self, state) -> None:
        """The docks' sizes from before presentation mode, in the window's own size.

        The editor's scroll area takes its minimum from its form, which had not finished
        shrinking back to the desk's font when ``_apply`` told the area: the dock kept
        the larger minimum (533 px wide, not 437), and no restore could narrow it."""
        self._settle_minimums()
        self.window.restoreState(state)

    def _settle_minimums(self) -> None:
        """The layouts' minimum sizes in the font now in effect (the editor's form)."""
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the form's minimum
        for area in self.window.findChildren(QAbstractScrollArea):
            area.updateGeometry()
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def eventFilter(self, watched, event) -> bool:
        if (watched is self.window and event.type() == QEvent.Type.Resize
                and self._docks_at is not None and event.size() == self._docks_at[1]):
            state = self._docks_at[0]
            self._forget_docks()
            # after the layout has taken the new size: the docks' sizes are then kept
            QTimer.singleShot(0, self.window, lambda: self._restore_docks(state))
        return super().eventFilter(watched, event)  # (the window's language)

    # -------------------------------------------------------- presentation
    @property
    def presenting(self) -> bool:
        return self._presenting is not None

    def toggle_presentation(self) -> None:
        if self.presenting:
            self.leave_presentation()
        else:
            self.enter_presentation()

    def enter_presentation(self) -> None:
        w = self.window
        if self.presenting:
            return
        self._forget_docks()  # a leave's dock sizes not given back yet: not now
        self._presenting = (w.saveState(), w.windowState(), w.menuBar().isVisible(),
                            w.size())
        self._window_sizes = [(other, other.size()) for other in _other_windows(w)]
        for dock in w.findChildren(type(w.editor_dock)):
            dock.hide()
        w.menuBar().hide()
        w.showFullScreen()
        self.presentation_action.setChecked(True)
        self.leave_action.setEnabled(True)
        self._apply()
        self.presentingChanged.emit(True)
        w.statusBar().showMessage(self._hint, HINT_MS)

    _window_sizes: list | tuple = ()
    """The lab windows open when presentation mode began, with their sizes then."""

    def _give_windows_their_sizes(self) -> None:
        """The lab windows at their sizes from before presentation mode. Its larger
        font raised their minimum sizes, and Qt widened them to it (the KV-cache
        stepper from 981 to 1274 px on a 1024 px screen); they stayed so, their Export
        buttons and red line cut at the screen's edge (a first-time user)."""
        sizes, self._window_sizes = self._window_sizes, ()

        def resize() -> None:
            # once the desk's font has shrunk the layouts' minimum sizes back
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            for other, size in sizes:
                if isValid(other) and other.isVisible():
                    other.resize(size)

        QTimer.singleShot(0, self.window, resize)

    def leave_presentation(self) -> None:
        if not self.presenting:
            return
        w = self.window
        state, window_state, menu, size = self._presenting
        self._presenting = None
        self._apply()  # the desk's font first: the docks' minimum sizes follow it
        w.setWindowState(window_state)
        w.menuBar().setVisible(menu)
        w.restoreState(state)
        if w.size() != size:
            # The window leaves full screen later (the platform answers with a resize),
            # and shrinking it took the room from the editor (639 px wide before F5, 533
            # after, and the grid then chose other columns): the docks get their sizes
            # again once the window has its own back.
            self._docks_at = (state, size)  # (``eventFilter`` watches the window)
            self._docks_timer.start()  # forgotten if it never gets that size
        else:  # (no window manager: full screen never came) once the font has settled
            QTimer.singleShot(0, w, lambda: self._restore_docks(state))
        self._give_windows_their_sizes()
        self.presentation_action.setChecked(False)
        self.leave_action.setEnabled(False)
        if w.statusBar().said() == self._hint:  # how to leave, once left, is old news
            w.statusBar().clearMessage()      # (it stayed its 4 s on the desk)
        self.presentingChanged.emit(False)


def _other_windows(window: QWidget) -> list[QWidget]:
    """The visible top-level windows of ``window`` but itself and its docks (which its
    saved state restores): the lab windows."""
    return [w for w in window.findChildren(QWidget)
            if w.isWindow() and w.isVisible() and not isinstance(w, QDockWidget)]


def _distinct(keys) -> list[QKeySequence]:
    """The key sequences of ``keys`` (keys or standard keys, all of a standard key's
    bindings on this platform), each once: Ctrl+Minus beside ``StandardKey.ZoomOut``,
    which is Ctrl+Minus on Linux, made Qt call the shortcut ambiguous and do nothing."""
    out: list[QKeySequence] = []
    for key in keys:
        for seq in (QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey)
                    else [QKeySequence(key)]):
            if not seq.isEmpty() and seq not in out:
                out.append(seq)
    return out
