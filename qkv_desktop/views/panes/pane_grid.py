"""The grid of heatmap panes, in a user-chosen order with some panes hidden.

Panes that have nothing to show for the current session (``relevant_panes``: the
key/value sequence outside cross mode, the concatenation with one head, the W_O
projection without W_O) are left out, and greyed in the View menu by the same rule;
with more than one head the small multiples of every head's weights fill the rest of
the last row.

How many columns: the count (1 up to ``columns``, as many as ``MIN_PANE_WIDTH`` allows)
under which the most panes show their values (each pane says how large its labels
would be at a given size, by the four-decimal rule), with panes of a shape that reads
(``TOLERABLE_ASPECT``), of a sane one where that shows as many (``ASPECT_RANGE``),
then the one whose smallest values are largest (up to the size the zoom asks for: full
screen, four columns left X's eight columns 9 px values beside 19 px ones, three give
them 14), and then the panes nearest to square. Four narrow columns at
1920×1080 made tall thin panes with 8 px values; two at 1366×768 give the values room.
The grid remembers the columns it had for each set of panes, shapes, room, font and
language (``_remembered``), and a return to one of them (an undo, leaving presentation
mode, hiding a pane again) brings those columns back: the choice measures the panes as
they are laid out now (their axes and colour bars), so choosing afresh could differ from
what the user had (random-small at 1740×800: three columns, four after an insert and
its undo). For the same reason each of two layouts can find the other better; the grid
never goes back to columns it left for the same panes and room, but settles on the
better of the two as each measured while laid out (``_choose_columns``).

A pane is built the first time it is shown (``PaneMap``): the default session shows 8
of the 17 panes and no heads overview, and each pyqtgraph pane costs about 10 ms of
start-up (issue 20). The grid forwards every pane's requests (``exportRequested``,
``copyRequested``, ``cellPinned``), so the window connects to them once, before the
panes exist.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterator, Mapping

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QScrollArea, QStyle, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.pane_info import (
    ALL_PANES,
    pane_caption,
    pane_relevant,
    pane_tip,
    pane_title,
)
from qkv_desktop.state.catalogue import HEADS_OVERVIEW, HIDDEN_BY_DEFAULT, relevant_panes
from qkv_desktop.views.i18n import current_language
from qkv_desktop.views.panes.heads_overview import (
    MAX_THUMBNAILS,
    HeadsOverview,
    heads_caption,
    heads_tip,
)
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.panes.heatmap_plot import value_px_goal
from qkv_desktop.views.panes.mask_painter import MaskPainter
from qkv_desktop.views.panes.one_repaint import OneRepaint

__all__ = ["PaneGrid", "PaneMap", "DEFAULT_ORDER", "DEFAULT_HIDDEN", "HEADS_KEY",
           "grid_columns"]

DEFAULT_ORDER = tuple(p.key for p in ALL_PANES)
DEFAULT_HIDDEN = HIDDEN_BY_DEFAULT
"""Panes hidden until shown from the View menu (the catalogue's ``hidden_by_default``)."""
HEADS_KEY = HEADS_OVERVIEW
"""The key of the heads overview in ``hidden`` (it is not a ``HeatmapPane``)."""


def grid_columns(slots: int, preferred: int) -> int:
    """``preferred`` columns, or one fewer when that needs no more rows and fills them better.

    Nine panes (cross-attention) then make a full 3 × 3 grid instead of 4 + 4 + 1.
    """
    def cost(cols: int) -> tuple[int, int, int]:
        rows = -(-slots // cols)
        return rows, rows * cols - slots, -cols

    return min((c for c in (preferred - 1, preferred) if c >= 1), key=cost)


MIN_PANE_WIDTH = 190
"""Narrower than this a pane's axis, colour bar and cells stop being legible: the grid
then has fewer columns (and, in its scroll area, scrolls down) instead."""
BESIDE_HEADS = 4
"""The most heads whose thumbnails go into the one cell a last pane leaves beside it: four
fit a pane's least width (182 px of ``MIN_PANE_WIDTH``), five need 228 px, nine 412."""
REMEMBERED_LAYOUTS = 256
"""How many (panes, shapes, room, font) the grid remembers its columns for."""
ASPECT_RANGE = (0.5, 3.0)
"""Pane width / height the column choice keeps to when it can: a pane of four-decimal
labels reads best somewhat wider than tall, never a strip either way. Up to 3: with the
causal mask's ninth pane (or two heads, or the banner's details unfolded) in the window
a 1366 × 768 screen opens (1256 × 706), two columns make panes of 2.75 where every
pane shows its values, and three, of 1.1, hid them in five panes (2.5 allowed only
those; found by a first-time user)."""
TOLERABLE_ASPECT = (0.45, 3.3)
"""Pane shapes a little past ``ASPECT_RANGE``: among them the columns under which more
panes show their values win over a shape within it. Painting one mask cell adds the
mask's pane: at 1360 × 700 two columns made panes of 3.004, every value shown, and three
(of a sane shape) hid X's, numbers gone at a click elsewhere (a first-time user). Not
much further: two columns of 3.7 at 1600 × 993 (two heads with W_O) are strips, where
three of 1.7 hide two panes' values that a hover reads."""


class PaneMap(Mapping):
    """Every pane of the catalogue by key (``DEFAULT_ORDER``), each built the first time
    it is asked for.

    ``key in panes``, ``len`` and iterating the keys build nothing; asking for a pane, or
    for all of them (``values()``, ``items()``), builds what is not built yet.
    ``built()`` are the panes that exist. ``build`` (the grid's method) is held weakly:
    the grid holds this map, and a strong reference back would be a reference cycle,
    freed only by the cyclic collector (and never once ``gc.freeze`` has taken it).
    """

    def __init__(self, build):
        self._build = weakref.WeakMethod(build)
        self._built: dict[str, HeatmapPane] = {}

    def __getitem__(self, key: str) -> HeatmapPane:
        pane = self._built.get(key)
        if pane is None:
            if key not in DEFAULT_ORDER:
                raise KeyError(key)
            pane = self._built[key] = self._build()(key)
        return pane

    def __contains__(self, key) -> bool:
        return key in DEFAULT_ORDER

    def __iter__(self) -> Iterator[str]:
        return iter(DEFAULT_ORDER)

    def __len__(self) -> int:
        return len(DEFAULT_ORDER)

    def built(self) -> list[HeatmapPane]:
        return list(self._built.values())


class PaneGrid(QWidget):
    """Lays out the visible panes row by row, about ``columns`` per row (fewer when
    the grid is too narrow for that many legible panes)."""

    layoutChanged = Signal()
    exportRequested = Signal(str)
    """A pane's context menu asked to export pane ``key`` (``HeatmapPane``'s signal)."""
    copyRequested = Signal(str)
    cellPinned = Signal(object)

    def __init__(self, model: AttentionModel, columns: int = 4, parent=None):
        super().__init__(parent)
        self.columns = columns
        self._fit_columns = columns
        self._columns = columns  # as laid out (``grid_columns`` of ``_fit_columns``)
        self.model = model
        # A pane knows its axes' and colour bar's room only once laid out: choose again then.
        self._refit_timer = QTimer(self, singleShot=True, interval=0)
        self._refit_timer.timeout.connect(self._refit)
        self.panes = PaneMap(self._build_pane)
        self.mask_painter: MaskPainter | None = None
        self._heads_view: HeadsOverview | None = None
        self.order: list[str] = list(DEFAULT_ORDER)
        self.hidden: set[str] = set(DEFAULT_HIDDEN)
        self._relevant = self.relevant()
        self._shapes: tuple = ()
        self._context: tuple | None = None  # what the columns are chosen for (``_layout_context``)
        self._remembered: dict[tuple, int] = {}  # the columns the user had, by context
        self._left: dict[int, tuple] = {}  # columns left in this context: their merit there
        self._settled = False  # the columns in effect stay: recalled, or a flip-back settled
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(4)
        model.resultChanged.connect(self._on_result_changed)
        # the panes' repaints of a new result: one repaint of the window, not one a pane
        # (``_on_result_changed``, after the panes have taken it)
        self.one_repaint = OneRepaint(self)
        # …and of the pictures a worker made for them: they come one by one
        model.images.delivered.connect(self.one_repaint.hold)
        self._relayout()

    def _build_pane(self, key: str) -> HeatmapPane:
        pane = HeatmapPane(self.model, key, self)
        pane.hide()  # until ``_relayout`` places it (a child would show at 0, 0)
        pane.chromeMeasured.connect(self._refit_timer.start)
        pane.exportRequested.connect(self.exportRequested)
        pane.copyRequested.connect(self.copyRequested)
        pane.cellPinned.connect(self.cellPinned)
        # The grid reads the panes' shapes on a new result once they have drawn it: keep
        # its handler after the panes' (a pane built later connected after it).
        self.model.resultChanged.disconnect(self._on_result_changed)
        self.model.resultChanged.connect(self._on_result_changed)
        if key == "mask":
            self.mask_painter = MaskPainter(pane)
        return pane

    @property
    def heads_view(self) -> HeadsOverview:
        """The small multiples of every head, built the first time they are asked for."""
        if self._heads_view is None:
            self._heads_view = HeadsOverview(self.model, self)
            self._heads_view.hide()
        return self._heads_view

    def relevant(self) -> frozenset[str]:
        """The panes the grid has something to show for (``relevant_panes``) in the state
        its panes show: the result's, or the model's before one. The View menu greys
        the others."""
        result = self.model.result
        return relevant_panes(result.state if result is not None else self.model.state)

    def _on_result_changed(self, _result) -> None:
        relevant = self.relevant()
        shapes = self._pane_shapes()
        if relevant != self._relevant:
            self._relevant, self._shapes = relevant, shapes
            self._fit_columns = self._choose_columns()
            self._relayout()
        elif HEADS_KEY in self.shown() and self._wide_overview() != self._overview_wide:
            self._shapes = shapes
            self._relayout()  # (2 heads → 9: the thumbnails leave the cell beside a pane)
        elif shapes != self._shapes:  # other shapes: another number of columns may fit
            self._shapes = shapes
            self._refit()
        self.one_repaint.hold()  # the panes' repaints of it: one window repaint

    _overview_wide = False
    """Whether the heads overview was laid out as too wide for one cell (``_relayout``)."""

    def _wide_overview(self) -> bool:
        """Whether the heads overview shows more thumbnails than fit one grid cell
        (``BESIDE_HEADS``)."""
        result = self.model.result
        state = result.state if result is not None else self.model.state
        return min(state.n_heads, MAX_THUMBNAILS) > BESIDE_HEADS

    def _pane_shapes(self) -> tuple:
        return tuple((k, self.panes[k].plot.data.shape) for k in self.shown()
                      if k != HEADS_KEY)

    def caption(self, key: str) -> str:
        """The name of pane ``key`` (or of the heads overview) for menus, in the current
        language: its title for the current result, or a short name without one."""
        if key == HEADS_KEY:
            return heads_caption()
        result = self.model.result
        if result is not None and pane_relevant(result.state, key):
            return pane_title(result, key, self.model.current_head)
        return pane_caption(key)

    @staticmethod
    def tip(key: str) -> str:
        """What pane ``key`` (or the heads overview) shows, in a sentence, in the current
        language: the View menu's tool tip and status tip."""
        return heads_tip() if key == HEADS_KEY else pane_tip(key)

    def shown(self) -> list[str]:
        """Keys of the panes on screen, in order (``HEADS_KEY`` last when shown)."""
        keys = [k for k in self.order if k not in self.hidden and k in self._relevant]
        if HEADS_KEY in self._relevant and HEADS_KEY not in self.hidden:
            keys.append(HEADS_KEY)
        return keys

    def set_arrangement(self, order, hidden) -> None:
        """Apply a saved order and hidden set; unknown keys are ignored. A pane the saved
        order does not name (new since the settings were saved) takes its default."""
        order = [k for k in order if k in self.panes]
        new = [k for k in DEFAULT_ORDER if k not in order]
        self.order = order + new
        self.hidden = ({k for k in hidden if k in self.panes or k == HEADS_KEY}
                       | (DEFAULT_HIDDEN & set(new)))
        self._fit_columns = self._choose_columns()
        self._relayout()

    def set_visible(self, key: str, visible: bool) -> None:
        """Show or hide a pane; the columns are chosen again for the panes now shown
        (a ninth pane takes three columns, and hiding it again gives the two back)."""
        (self.hidden.discard if visible else self.hidden.add)(key)
        self._fit_columns = self._choose_columns()
        self._relayout()

    def move(self, key: str, delta: int) -> None:
        """Move a pane ``delta`` places earlier (<0) or later (>0) in the grid."""
        i = self.order.index(key)
        j = min(max(i + delta, 0), len(self.order) - 1)
        self.order.insert(j, self.order.pop(i))
        self._relayout()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refit()

    def _refit(self) -> None:
        fit = self._choose_columns()
        if fit != self._fit_columns:
            self._fit_columns = fit
            self._relayout()
        else:
            self._keep_rows_legible()

    def _layout_context(self) -> tuple:
        """What the choice of columns is for: the panes shown and their shapes, the
        room (its scroll area's, scroll bar or not), the font (the zoom), the language
        (the titles' and names' lengths: a layout settled in one is chosen afresh in
        another)."""
        return (tuple(self.shown()), self._pane_shapes(), self._room()[:2], QFont().key(),
                current_language())

    def _choose_columns(self) -> int:
        """The columns for the grid as it is now: the ones it had the last time it was
        in this context (``_remembered``), else the best (``_best_columns``).

        Leaving a context remembers the columns it had then, as the user saw them. In a
        context met anew the choice is made again as the panes' measures settle (their
        chrome laid out); in one recalled, the remembered columns stay.

        The measures depend on the columns the panes are laid out in (a row axis thinned
        in a low pane is narrower, a narrow pane turns its column names upright), so each
        of two layouts can find the other better: Chinese at 1366×768, h = 3 and d_k = 2
        flipped between two and three columns for ever, at 40 % of a core, values coming
        and going (a first-time user). The grid never goes back to columns it left in
        the same context without settling: it keeps, for good in this context, whichever
        of the two was better as measured while laid out (``_left``)."""
        context = self._layout_context()
        if context != self._context:
            if self._context is not None:
                self._remembered.pop(self._context, None)  # the newest last
                self._remembered[self._context] = self._fit_columns
                while len(self._remembered) > REMEMBERED_LAYOUTS:
                    del self._remembered[next(iter(self._remembered))]
            self._context = context
            self._left = {}
            recalled = self._remembered.get(context)
            self._settled = recalled is not None
            if recalled is not None:
                return recalled
            # (the layout on screen is not yet this context's: its measures are not
            # kept as the merit of its columns)
            return self._best_columns()
        if self._settled:
            return self._fit_columns
        best, current = self._best_columns(), self._fit_columns
        if best == current:
            return best
        merit = self._merits().get(current)
        if best in self._left:  # back to columns just left: settle on the better one
            self._settled = True
            return best if merit is None or self._left[best] > merit else current
        if merit is not None:
            self._left[current] = merit
        return best

    def _room(self) -> tuple[int, int, int]:
        """The width and height the grid is seen in, and the width a vertical scroll
        bar takes from it when the grid is taller than that.

        In its scroll area, the room is the viewport's without scroll bars
        (``QAbstractScrollArea.maximumViewportSize``) and the bar's extent is the one the
        area lays out (its size hint; none for a transient bar drawn over the content):
        the same whichever columns are shown, so that a candidate that scrolls is
        measured with the bar it will have, and one that does not, without. Read from
        the grid's own width, the room changed with the bar the columns chosen brought
        or took away, and with it the choice (a resize the grid itself caused)."""
        viewport = self.parentWidget()
        area = viewport.parentWidget() if viewport is not None else None
        if not isinstance(area, QScrollArea):
            height = viewport.height() if viewport is not None else self.height()
            return self.width(), height, 0
        room = area.maximumViewportSize()
        bar = area.verticalScrollBar()
        transient = area.style().styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar)
        as_needed = area.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded
        extent = bar.sizeHint().width() if as_needed and not transient else 0
        return room.width(), room.height(), extent

    def _best_columns(self) -> int:
        """The number of columns for the room the grid has (see the module's docstring)."""
        merits = self._merits()
        if not merits:
            width, _height, _bar = self._room()
            shown = self.shown()
            slots = len(shown) + (HEADS_KEY in shown)  # the heads overview takes two
            return grid_columns(slots, max(1, min(self.columns, width // MIN_PANE_WIDTH)))
        return max(merits, key=merits.get)

    def _merits(self) -> dict[int, tuple]:
        """How well each number of columns the room allows would show the panes, as
        they measure now (the larger the better); empty without room or panes."""
        width, height, bar = self._room()
        most = max(1, min(self.columns, width // MIN_PANE_WIDTH))
        shown = self.shown()
        panes = [self.panes[k] for k in shown if k != HEADS_KEY]
        slots = len(panes) + 2 * (HEADS_KEY in shown)
        if width <= 0 or height <= 0 or not panes:
            return {}
        spacing = self._grid.spacing()
        # No pane needs more than this to show its values (``least_height`` unmeasured):
        # rows at least as high need no measuring of how much lower they could go.
        ceiling = max(p.least_height() for p in panes)
        goal = value_px_goal()

        def merit(cols: int) -> tuple:
            rows = -(-slots // cols)
            pane_h = (height - (rows - 1) * spacing) / rows
            if pane_h >= ceiling:
                lowest = ceiling
            else:
                narrowest = self._narrowest(cols)
                lowest = max(p.least_height(narrowest) for p in panes)
            scrolls = pane_h < lowest  # then the panes are ``lowest`` high, beside a bar
            pane_w = (width - bar * scrolls - (cols - 1) * spacing) / cols
            pane_h = max(pane_h, lowest)
            aspect = pane_w / pane_h
            sizes = [p.value_px_at(pane_w, pane_h) for p in panes]
            legible = sum(px != 0 for px in sizes)
            smallest = min((px for px in sizes if px > 0), default=goal)
            sane = ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]
            tolerable = TOLERABLE_ASPECT[0] <= aspect <= TOLERABLE_ASPECT[1]
            return (tolerable, legible, sane, min(smallest, goal), -abs(math.log(aspect)),
                    -(rows * cols - slots))

        return {cols: merit(cols) for cols in range(1, most + 1)}

    def _narrowest(self, columns: int) -> float:
        """A pane's width in ``columns`` beside a scroll bar (if the grid may have one)."""
        width, _height, bar = self._room()
        return (width - bar - (columns - 1) * self._grid.spacing()) / columns

    def _keep_rows_legible(self) -> None:
        """Each row of panes at least as high as its panes need to show their values
        (``HeatmapPane.least_height``): lower, the grid scrolls."""
        least: dict[int, int] = {}
        panes = [self.panes[key] for key in self.shown() if key != HEADS_KEY]
        rows = max(1, self._grid.rowCount())
        _width, height, _bar = self._room()
        row_h = (height - (rows - 1) * self._grid.spacing()) / rows
        # Rows that high keep any pane's values without measuring how much lower they
        # could go (``_best_columns``' ``ceiling``): the measure is for tight layouts.
        width = 0 if all(p.least_height() <= row_h for p in panes) else (
            self._narrowest(self._columns))
        for pane in panes:
            row = self._grid.getItemPosition(self._grid.indexOf(pane))[0]
            least[row] = max(least.get(row, 0), pane.least_height(width))
        for row in range(self._grid.rowCount()):
            if self._grid.rowMinimumHeight(row) != least.get(row, 0):
                self._grid.setRowMinimumHeight(row, least.get(row, 0))

    def minimumSizeHint(self) -> QSize:
        """Two panes wide: the grid takes fewer columns rather than more width."""
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), 2 * MIN_PANE_WIDTH), hint.height())

    def _relayout(self) -> None:
        for pane in (*self.panes.built(), self._heads_view):
            if pane is not None:
                self._grid.removeWidget(pane)
        for r in range(self._grid.rowCount()):
            self._grid.setRowStretch(r, 0)
        for c in range(self._grid.columnCount()):
            self._grid.setColumnStretch(c, 0)
        shown = self.shown()
        panes = [k for k in shown if k != HEADS_KEY]
        # the heads overview wants at least two cells' width
        columns = self._columns = grid_columns(len(panes) + 2 * (HEADS_KEY in shown),
                                               self._fit_columns)
        for idx, key in enumerate(panes):
            r, c = divmod(idx, columns)
            self._grid.addWidget(self.panes[key], r, c)
            self._grid.setRowStretch(r, 1)
            self._grid.setColumnStretch(c, 1)
            self.panes[key].show()
        if HEADS_KEY in shown:  # the rest of the last row, or a whole new row
            r, c = divmod(len(panes), columns)
            self._overview_wide = self._wide_overview()
            if columns - c == 1 < columns and self._overview_wide:
                # one cell left beside the last pane: nine heads' thumbnails widened that
                # column and squeezed every pane of the other to 125 px (SmolLM2's layer
                # with a dock open; a first user). They take a row of their own.
                r, c = r + 1, 0
            self._grid.addWidget(self.heads_view, r, c, 1, columns - c)
            self._grid.setRowStretch(r, 1)
            for col in range(c, columns):
                self._grid.setColumnStretch(col, 1)
            self.heads_view.show()
        elif self._heads_view is not None:
            self._heads_view.hide()
        for pane in self.panes.built():
            if pane.key not in shown:
                pane.hide()
        self._keep_rows_legible()
        # The shapes this layout is for: a result of the same shapes keeps it. (Left at
        # its first ``()``, the first edit chose the columns again, by values that had
        # changed: at 1366×768 two columns jumped to three, X's values then hidden.)
        self._shapes = self._pane_shapes()
        self.layoutChanged.emit()
