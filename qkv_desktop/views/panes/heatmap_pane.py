"""One pyqtgraph heatmap pane: a matrix, its colour bar, cell values and links.

The pane displays ``model.result`` and forwards hover and clicks to the model;
it never computes attention and keeps no state of its own beyond what it draws.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QApplication, QMenu, QToolTip, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.cell_tip import cell_tip
from qkv_desktop.presentation.colormaps import levels_for, lut_for
from qkv_desktop.presentation.pane_info import (
    HEAD_INDEPENDENT,
    pane_caption,
    pane_head_starts,
    pane_labels,
    pane_matrix,
    pane_relevant,
    pane_short_title,
    pane_title,
    values_are_boolean,
    values_may_be_negative,
)
from qkv_desktop.state import CellRef
from qkv_desktop.state.catalogue import NM_MATRICES
from qkv_desktop.state.linking import pane_links
from qkv_desktop.state.session_state import same_structure
from qkv_desktop.views.elided_label import ElidedLabel
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.panes.color_bar import ColorBar
from qkv_desktop.views.panes.heatmap_plot import MAX_LABEL_CELLS, HeatmapPlot
from qkv_desktop.views.panes.values_note import ValuesNote
from qkv_desktop.views.retranslate import Retranslating

POINTER_WATCH_MS = 150
"""How often the pointer is looked at after a pane's menu closed over the pane."""

__all__ = ["HeatmapPane", "MAX_LABEL_CELLS"]

CHROME_ESTIMATE = (95, 50)
"""Pixels of a pane beside and above/below its matrix (axes, colour bar, title) before
the pane is first laid out."""
PLOT_LEAST_HEIGHT = 88
"""The least height of a plot whose values show there (its column axis included): four
tokens' cells of 16 px hold 8 px text (``LEGIBLE_PX``). See ``least_height``."""
PLOT_HEIGHT_WITHOUT_VALUES = 100
"""The least height of a plot whose values do not show that low: its heatmap and names
are kept as large as they were. At 100 for every plot, five rows of panes (ALiBi on,
or the causal mask's pane) needed 644 px at 1024 × 700 in Chinese, 22 more than the
grid's room: the output's token names were cut until scrolled to (a first user)."""


class HeatmapPane(RefreshWhenShown, Retranslating, QWidget):
    """A titled heatmap of one matrix of ``model.result`` with a colour bar.

    Signals ``exportRequested(key)`` and ``copyRequested(key)`` come from the
    pane's context menu; the main window performs them. ``cellPinned(CellRef)``: a
    click pinned a cell of this pane (the window shows its explanation).
    """

    exportRequested = Signal(str)
    copyRequested = Signal(str)
    cellPinned = Signal(object)
    chromeMeasured = Signal()

    def __init__(self, model: AttentionModel, key: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.key = key
        self.setObjectName(f"pane_{key}")
        self.title = ElidedLabel(self)
        self.title.setObjectName("paneTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.plot = HeatmapPlot(lut_for(key), self, signed=values_may_be_negative(key),
                                boolean=values_are_boolean(key))
        self.plot.setMinimumSize(120, PLOT_LEAST_HEIGHT)
        self.image, self.mask, self.overlay = self.plot.image, self.plot.mask, self.plot.overlay
        self.colorbar = ColorBar(lut_for(key), width=12, boolean=values_are_boolean(key))
        self.colorbar.insert_in(self.plot.getPlotItem())
        self.values_note = ValuesNote(hover=True, parent=self)
        """Says, under the plot, that the values are hidden (and how to read them)."""
        self.plot.valuesHiddenChanged.connect(self._on_values_hidden)
        self.retranslate()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.values_note)
        self._shape: tuple[int, int] | None = None
        self._labels: tuple[list[str], list[str]] | None = None
        self._levels: tuple[float, float] | None = None
        self._tip_shown = False  # this pane showed the cell tip last
        self._tip_at = None  # (global position, widget rectangle, text) of that tip
        self._pointer_watch = QTimer(self, interval=POINTER_WATCH_MS,
                                     timeout=self._check_pointer)
        """After the pane's menu closed over it: whether the pointer has left it."""
        self._hover_check = QTimer(self, singleShot=True, interval=0,
                                   timeout=self._hover_follows_pointer)
        """Once the layout has settled after a move or resize (``moveEvent``)."""

        self.chrome: tuple[float, float] = CHROME_ESTIMATE
        """Pixels beside and above/below the matrix (``value_px_at``)."""
        self.plot.view_box.sigResized.connect(self._measure_chrome)
        self.plot.view_box.sigTransformChanged.connect(self._hover_check.start)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.viewport().installEventFilter(self)  # Qt's own tool-tip events
        self.plot.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        model.resultChanged.connect(self.refresh)
        model.resultChanged.connect(self._renew_tip)
        model.hoverChanged.connect(self._on_links_changed)
        model.selectionChanged.connect(self._on_links_changed)
        model.currentHeadChanged.connect(self.refresh)
        model.images.ready.connect(self._on_image_ready)
        self.plot.imageWanted.connect(self._on_image_wanted)
        self.refresh()

    def _set_title(self, result, head: int) -> None:
        """The pane's title, and its name and shape where the title does not fit."""
        self.title.setText(pane_title(result, self.key, head))
        short = pane_short_title(result, self.key, head)
        self.title.set_shorter(() if short is None else (short,))

    def retranslate(self) -> None:
        """Title the pane in the current language: its formula, or its short name."""
        result = self.model.result
        self._titled = None  # the next result's title in this language
        if result is not None and pane_relevant(result.state, self.key):
            self._set_title(result, self.model.current_head)
        else:
            self.title.setText(pane_caption(self.key))
            self.title.set_shorter(())
        self.title.set_note(self.tr("Right-click the pane to export or copy it."))
        self.values_note.retranslate()
        self._measure_note()

    def _measure_note(self) -> None:
        """The note's height at the pane's width (``HeatmapPlot.note_px``)."""
        self.plot.note_px = max(0, self.values_note.heightForWidth(max(self.width() - 4, 1)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._hover_check.start()  # (``_hover_follows_pointer``)
        self._measure_note()  # before the plot's deferred refit of its values

    def _on_values_hidden(self, _hidden: bool) -> None:
        # (a method, not a lambda over ``self``: the plot's connection would hold it,
        # and through it the pane, as long as the plot lives)
        self.values_note.follow(self.plot)
        self.plot.set_note_shown(self.values_note.isVisibleTo(self))

    # ----------------------------------------------------------- display
    def refresh(self, *_args) -> None:
        """Draw the model's result for the current head, once the grid shows the pane."""
        result = self.model.result
        if result is None or not pane_relevant(result.state, self.key):
            return  # the grid hides a pane that has nothing to show
        self._on_screen_at(self.plot.pixels())  # (shown again: e.g. un-minimised)
        due = self._due()
        if due is None:
            return  # hidden (drawn when shown again), or already on display
        result, head = due
        images, pixels = self.model.images, self.plot.pixels()
        # the forward's worker made the picture before the result came…
        image = images.made(result, self.key, head, pixels)
        if image is None and images.off_thread(result):
            # …or a worker makes it now (and S − max(S) of another head with it)
            images.want(self.key, result, self.key, head, pixels)
            self._shown = None  # drawn when ``ready``
            return
        data = pane_matrix(result, self.key, head)
        head_starts = pane_head_starts(result, self.key)
        redraw = not self._same_matrix(data) or head_starts != self.overlay.head_starts
        titled = (result.state.structure(), head)
        if (self._titled is None or self._titled[1] != head
                or not same_structure(self._titled[0], titled[0])):
            self._set_title(result, head)  # (not after an edit of X)
        self._titled = titled
        labels = pane_labels(result, self.key)
        if data.shape != self._shape or labels != self._labels:
            self._shape, self._labels = data.shape, labels
            self.plot.set_labels(*labels)
        if redraw:
            levels = image.levels if image is not None else levels_for(self.key, data)
            self.plot.show_matrix(data, levels, head_starts, image)
            if levels != self._levels:  # an unchanged colour bar is not redrawn
                self._levels = levels
                self.colorbar.setLevels(levels)
        self._on_links_changed()

    def _on_image_wanted(self, _factors=None) -> None:
        """The plot was resized: its picture of the matrix on display at the new size.

        While a newer result waits for its picture (``_shown`` is None) it is that one
        the pane asks for, at the new size: reducing the older matrix on display again
        would be an n × n reduction on the GUI thread for a picture about to go."""
        if self._shown is None:
            self.refresh()  # asks for the newest picture (or draws it, if made)
            return
        result, head = self._shown
        pixels, images = self.plot.pixels(), self.model.images
        self._on_screen_at(pixels)
        image = None if result is None else images.made(result, self.key, head, pixels)
        if image is None and result is not None and images.off_thread(result):
            images.want(self.key, result, self.key, head, pixels)
            return
        if image is None:
            self.plot.make_image()
        else:
            self.plot.show_image(image)

    def _on_image_ready(self, result, key: str, head: int) -> None:
        """A picture this pane asked for is made: show it, if it is still wanted."""
        if key != self.key:
            return
        if self._shown == (result, head):  # a resize of what is on display
            self._on_image_wanted()
        elif (result, head) == (self.model.result, self.model.current_head):
            self.refresh()

    def hideEvent(self, event) -> None:
        self.model.images.hide(self.key)  # no pictures made for a pane out of sight
        super().hideEvent(event)

    def _on_screen_at(self, pixels) -> None:
        """Tell ``model.images`` this pane's size, while it is really on screen (a pane
        drawn before the window shows, then hidden, gets no hide event)."""
        if self.isVisible():
            self.model.images.show(self.key, self.key, pixels)

    def value_px_at(self, width: float, height: float) -> int:
        """The value labels' pixel size were this pane ``width`` × ``height`` (0: hidden,
        -1: never labelled), for the grid's choice of columns. What is not the matrix
        (title, axes, colour bar) is as last laid out, or estimated before that."""
        chrome_w, chrome_h = self.chrome
        return self.plot.value_px_in(width - chrome_w, height - chrome_h)

    def least_height(self, width: float = 0) -> int:
        """The pane's minimum height without its "values hidden" note, for the grid: at
        ``width``, the least height at which the values show, where they show with a
        plot ``PLOT_HEIGHT_WITHOUT_VALUES`` high; else (or without a width) the height
        that plot takes. The grid keeps its rows this high (scrolling beyond), so that
        rows that fit only a little lower show their values there, and panes whose
        values would hide lower stay where they show them.

        The note is left out: it is shown only where the values do not fit, so it is no
        measure of a layout where they would (counted in, it made two columns look tall
        enough while the values were hidden at three, and short again once they showed
        there: the grid flipped between the two for ever)."""
        layout = self.layout()
        items = [layout.itemAt(i) for i in range(layout.count())]
        heights = [item.minimumSize().height() for item in items
                   if not item.isEmpty() and item.widget() is not self.values_note]
        margins = layout.contentsMargins()
        low = (sum(heights) + layout.spacing() * max(len(heights) - 1, 0)
               + margins.top() + margins.bottom())
        high = low + max(PLOT_HEIGHT_WITHOUT_VALUES - self.plot.minimumHeight(), 0)
        if width <= 0 or self.value_px_at(width, high) <= 0:
            return high
        if self.value_px_at(width, low) > 0:  # the usual answer, in one more measure
            return low
        while low < high:  # the values show at ``high``; more height never hides them
            middle = (low + high) // 2
            if self.value_px_at(width, middle) > 0:
                high = middle
            else:
                low = middle + 1
        return high

    def _measure_chrome(self, *_args) -> None:
        """Note the pixels around the matrix, when the view box has just been sized for
        the pane as it is (the "values hidden" note left out: it goes with the values)."""
        vb = self.plot.view_box
        if vb.width() <= 0 or vb.height() <= 0:
            return
        note = self.values_note.height() if self.values_note.isVisibleTo(self) else 0
        chrome = (self.width() - vb.width(), self.height() - note - vb.height())
        if chrome != self.chrome:
            self.chrome = chrome
            self.chromeMeasured.emit()

    def _same_matrix(self, data: np.ndarray) -> bool:
        """Whether ``data`` is what the pane already shows (X after an option change, a
        small V after a scaling change): then the image, the colour bar and the value
        labels are left as they are. Large matrices are compared by identity only."""
        shown = self.overlay.data
        if data is shown:
            return True
        return (data.size <= MAX_LABEL_CELLS and data.shape == shown.shape
                and data.dtype == shown.dtype and np.array_equal(data, shown, equal_nan=True))

    def _on_screen(self) -> bool:
        """Not hidden by the grid (View menu, irrelevant pane); the window itself may not
        be shown yet (a pane draws before the first paint, and for tests and exports)."""
        parent = self.parentWidget()
        return parent is None or self.isVisibleTo(parent)

    def _on_links_changed(self, *_args) -> None:
        model, result = self.model, self.model.result
        links: list[tuple[int, int, int, int]] = []
        pinned = None
        if result is not None:
            s = result.state
            m = result.head().weights.shape[1]
            head = model.current_head
            for ref in (model.hover, model.shown_selection):  # (the pin as in ``result``)
                if ref is None or ref.head != head and ref.matrix not in HEAD_INDEPENDENT:
                    continue
                masked = ref.matrix in NM_MATRICES and result.masked(ref.row, ref.col, head)
                cells = pane_links(ref.matrix, ref.row, ref.col, s.n, m, s.d_model, s.d_k,
                                   head, s.n_heads, cross=s.mode == "cross", masked=masked,
                                   projection=s.W_O is not None)
                if ref is model.hover:
                    links = cells.get(self.key, [])
                elif ref.matrix == self.key:
                    pinned = (ref.row, ref.col)
        if (links, pinned) == (self.overlay.links, self.overlay.pinned):
            return  # (every refresh asks): a repaint of the whole matrix for nothing
        self.overlay.links = links
        self.overlay.pinned = pinned
        self.overlay.update()

    # ------------------------------------------------------------- input
    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        """The (row, col) under a scene position, or None outside the matrix."""
        if self._shape is None:
            return None
        vb = self.plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        pt: QPointF = vb.mapSceneToView(scene_pos)
        i, j = int(np.floor(pt.y())), int(np.floor(pt.x()))
        if 0 <= i < self._shape[0] and 0 <= j < self._shape[1]:
            return i, j
        return None

    def _ref(self, cell) -> CellRef:
        return CellRef(self.key, cell[0], cell[1], self.model.current_head)

    def _on_mouse_moved(self, scene_pos) -> None:
        cell = self.cell_at(scene_pos)
        ref = None if cell is None else self._ref(cell)
        if ref == self.model.hover:
            return  # the same cell: nothing to say again (a move within it costs nothing)
        self.model.set_hover(ref)
        self._show_tip(ref, scene_pos)

    def _show_tip(self, ref: CellRef | None, scene_pos) -> None:
        """The hovered cell's value, matrix, row and column at the cursor (``cell_tip``),
        once per cell entered: Qt hides the tip when the mouse leaves the cell's
        rectangle, a key is pressed or a button clicked."""
        result = self.model.result
        text = "" if ref is None or result is None else cell_tip(result, ref)
        if not text:
            if self._tip_shown:
                QToolTip.hideText()
                self._tip_shown, self._tip_at = False, None
            return
        view, vb = self.plot, self.plot.getPlotItem().getViewBox()
        cell = vb.mapViewToScene(QRectF(ref.col, ref.row, 1, 1)).boundingRect()
        rect = view.mapFromScene(cell).boundingRect()
        viewport = view.viewport()
        at = viewport.mapToGlobal(view.mapFromScene(scene_pos))
        QToolTip.showText(at, text, viewport, rect)
        self._tip_shown = True
        self._tip_at = (at, rect, text)

    def eventFilter(self, watched, event) -> bool:
        """Qt's own tool-tip event over a cell (sent 20 ms after any tip shows while
        the mouse rests, or after the wake-up delay) is the cell's: the scene, which has
        no item tip there, answered it with an empty text, and Qt hid the cell's tip
        300 ms later, with the mouse still on the cell. Elsewhere (an axis's note) the
        scene answers as before."""
        if event.type() == QEvent.Type.ToolTip and watched is self.plot.viewport():
            scene_pos = self.plot.mapToScene(event.pos())
            cell = self.cell_at(scene_pos)
            if cell is not None:
                up = (self._tip_shown and self._tip_at is not None and QToolTip.isVisible()
                      and QToolTip.text() == self._tip_at[2]
                      and self._tip_at[1].contains(event.pos()))
                if not up:  # hidden by a key or a click: a rest shows it again
                    self._show_tip(self._ref(cell), scene_pos)
                return True
        return super().eventFilter(watched, event)

    def _renew_tip(self, *_args) -> None:
        """A new result while this pane's tip is up (the cursor entered the cell before
        the forward ended, or an undo from the keyboard): the tip says the new value,
        as the status bar does, once per result; it is hidden when the cell is gone.

        The hover is a position: a change of the pane's shape (a token inserted or
        deleted) lets it go (``ViewSelection.follow``), and it is the cell now under
        the cursor, if any, that this pane hovers and tips, not a cell elsewhere."""
        if self.model.hover is None and self.underMouse():
            viewport = self.plot.viewport()
            self._on_mouse_moved(self.plot.mapToScene(viewport.mapFromGlobal(QCursor.pos())))
        if not self._tip_shown or self._tip_at is None or not QToolTip.isVisible():
            return
        at, rect, shown = self._tip_at
        ref, result = self.model.hover, self.model.result
        if QToolTip.text() != shown:
            return  # another pane's tip, or Qt hid ours
        mine = ref is not None and ref.matrix == self.key
        text = "" if result is None or not mine else cell_tip(result, ref)
        if not text:
            QToolTip.hideText()
            self._tip_shown, self._tip_at = False, None
        elif text != shown:
            QToolTip.showText(at, text, self.plot.viewport(), rect)
            self._tip_at = (at, rect, text)

    pins_on_click = True
    """Whether a click pins the cell (the mask pane paints instead: ``MaskPainter``)."""

    def _on_mouse_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.pins_on_click:
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None:
            ref = self._ref(cell)
            pin = None if ref == self.model.shown_selection else ref
            self.model.set_selection(pin)
            if pin is not None:
                self.cellPinned.emit(pin)

    def leaveEvent(self, event) -> None:
        self._let_hover_go()
        super().leaveEvent(event)

    def _let_hover_go(self) -> None:
        """This pane's hover let go: the outlines it draws and the status bar's
        read-out go with it."""
        if self.model.hover is not None and self.model.hover.matrix == self.key:
            self.model.set_hover(None)

    def contextMenuEvent(self, event) -> None:
        menu = QMenu(self)
        export = QAction(self.tr("Export…"), menu)
        export.triggered.connect(lambda: self.exportRequested.emit(self.key))
        copy = QAction(self.tr("Copy image"), menu)
        copy.triggered.connect(lambda: self.copyRequested.emit(self.key))
        menu.addAction(export)
        menu.addAction(copy)
        menu.exec(event.globalPos())
        menu.deleteLater()  # a child of the pane: it would stay for the session
        # The menu, and the export dialog it may have opened, took the mouse: the
        # pane's Leave never came, and the outlines on X, Q, K, V and the read-out
        # stayed until the mouse crossed a pane again. Where the pointer is now decides.
        if not self._pointer_inside():
            self._let_hover_go()
        else:
            # Closed over the pane (Esc in the export dialog): Qt may send no Leave when
            # the pointer then goes (a first user saw the outlines stay), so watch it.
            self._pointer_watch.start()

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        self._hover_check.start()

    def _hover_follows_pointer(self) -> None:
        """The pane moved or was resized under a resting pointer (F5, a zoom, a dock
        shown or hidden): its hover is the cell now under the pointer, or none. Qt
        sends no mouse move then, and the outlines and the status bar went on naming a
        cell of K while the pointer rested on QKᵀ (a first user, F5 mid-explanation)."""
        hover = self.model.hover
        mine = hover is not None and hover.matrix == self.key
        if not self.isVisible() or not self.window().isActiveWindow():
            # (inactive: another program's window may lie over the pointer, which Qt's
            # ``widgetAt`` does not see; no hover, nor tip, under it)
            if mine and not self.isVisible():
                self._let_hover_go()
            return
        viewport = self.plot.viewport()
        at = QCursor.pos()
        local = viewport.mapFromGlobal(at)
        top = QApplication.widgetAt(at)
        if (viewport.rect().contains(local)
                and (top is viewport or (top is not None and self.isAncestorOf(top)))):
            # (another pane's hover too is stale: the pointer is here)
            self._on_mouse_moved(self.plot.mapToScene(local))
        elif mine:
            self._let_hover_go()
            self._show_tip(None, None)

    def _pointer_inside(self) -> bool:
        return self.rect().contains(self.mapFromGlobal(QCursor.pos()))

    def _check_pointer(self) -> None:
        """The pointer watched since the pane's menu closed: the hover goes when it has
        left the pane (or the watch ends when the hover is another pane's or none)."""
        hover = self.model.hover
        if hover is None or hover.matrix != self.key:
            self._pointer_watch.stop()
        elif not self._pointer_inside():
            self._pointer_watch.stop()
            self._let_hover_go()
