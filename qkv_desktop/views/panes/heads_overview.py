"""Small multiples: the attention weights of every head side by side.

Seeing all heads at once is what shows that they attend differently; clicking a
head makes it the one the panes show (``model.set_current_head``). Each thumbnail is
the panes' own heatmap widget (``HeatmapPlot``): one picture of a matrix in the app.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.model.pane_images import PaneImages
from qkv_desktop.presentation.colormaps import levels_for, lut_for
from qkv_desktop.presentation.pane_info import pane_matrix, values_may_be_negative
from qkv_desktop.presentation.texts import join_clauses
from qkv_desktop.state.head_groups import head_groups
from qkv_desktop.views.elided_label import ElidedLabel
from qkv_desktop.views.panes.axis_labels import GAP_PX, plan_axis
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["HeadsOverview", "HeadThumbnail", "grid_shape", "heads_caption", "heads_tip",
           "MAX_THUMBNAILS", "shown_heads"]

MAX_THUMBNAILS = 16
"""The most thumbnails shown at once (4 × 4 at their 40-pixel minimum fit any pane).

With more heads the overview shows the block of 16 that holds the current head; the
head box reaches the others. Without the bound, 256 thumbnails forced a window
wider than the screen, and 65,000 made the app run out of memory."""

MIN_CELLS_SHARE = 2 / 3
"""A thumbnail names its tokens only while the names leave its cells at least this
share of its width: in the decoder's dock (SmolLM2, nine heads) the row names and the
room for the last column's name left the weights 30 of 80 pixels (a review)."""

HIGHLIGHT = QColor(255, 140, 0)
"""The chosen head's frame: the orange of the panes' hover links."""


def heads_caption() -> str:
    """The overview's name in the View menu, in the current language (without building it)."""
    return QCoreApplication.translate("HeadsOverview", "weights of every head")


def heads_tip() -> str:
    """What the overview shows, for the View menu's tips, in the current language."""
    return QCoreApplication.translate(
        "HeadsOverview", "The attention weights of every head side by side, small: how "
        "differently the heads attend.")


def grid_shape(count: int, width: float, height: float) -> tuple[int, int]:
    """Rows and columns for ``count`` tiles in a width × height area, tiles as large as possible."""
    best, best_size = (1, count), -1.0
    for rows in range(1, count + 1):
        cols = math.ceil(count / rows)
        size = min(width / cols, height / rows)
        if size > best_size:
            best, best_size = (rows, cols), size
    return best


def shown_heads(n_heads: int, current: int) -> range:
    """The heads the overview shows: the block of ``MAX_THUMBNAILS`` holding ``current``."""
    start = (min(max(current, 0), n_heads - 1) // MAX_THUMBNAILS) * MAX_THUMBNAILS
    return range(start, min(n_heads, start + MAX_THUMBNAILS))


class HeadThumbnail(Retranslating, QWidget):
    """One head's weights: a title over the app's one heatmap widget (``HeatmapPlot``).

    The same widget as the panes', so a thumbnail shows the same colours, the same grey
    (hatched) masked cells and magenta overflow, the same four-decimal values in the
    font that fits, and token axes thinned the same way. A click anywhere on it
    chooses the head (``clicked``); the chosen one has an orange frame and a bold title.
    """

    clicked = Signal(int)

    def __init__(self, head: int, parent: QWidget | None = None,
                 images: PaneImages | None = None):
        super().__init__(parent)
        self.head = head
        self.images = images
        """Where the pictures of a large session's weights are made (off the GUI thread)."""
        self._result = None  # the result on display
        self._pending: tuple | None = None  # set_data's arguments, until its picture is made
        self.setObjectName(f"headThumb_{head}")  # the tile's place; ``head`` may change
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(40, 40)
        self.current = False
        self.rows: list[str] = []
        self.cols: list[str] = []
        # whole or shortened with "…" (its tool tip then has the title), never cut at
        # both ends: "ead 2 · K/V" in the decoder's narrow dock (a review)
        self.caption = ElidedLabel(self, objectName="headThumbTitle")
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.plot = HeatmapPlot(lut_for("weights"), self,
                                signed=values_may_be_negative("weights"))
        self.plot.setCursor(Qt.CursorShape.PointingHandCursor)
        self.plot.setMinimumSize(10, 10)
        self.plot.viewport().installEventFilter(self)  # the plot would take the click
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.setSpacing(1)
        layout.addWidget(self.caption)
        layout.addWidget(self.plot, 1)
        self.retranslate()
        if images is not None:
            images.ready.connect(self._on_image_ready)
            self.plot.imageWanted.connect(self._on_image_wanted)

    @property
    def data(self) -> np.ndarray:
        """The weights on display."""
        return self.plot.data

    def retranslate(self) -> None:
        tip = self.tr("Show head {0} in the panes").format(self.head + 1)
        self.setToolTip(tip)
        self.caption.set_note(tip)
        self.caption.setText(self.title())
        shorter = [self.tr("head {0}").format(self.head + 1), str(self.head + 1)]
        if self.kv_group is not None:
            shorter.insert(0, self.tr("{0} · K/V {1}").format(self.head + 1,
                                                               self.kv_group + 1))
        self.caption.set_shorter(shorter)

    kv_group: int | None = None
    """The key/value group (0-based) this head shares, when heads share them (GQA)."""

    def title(self) -> str:
        if self.kv_group is not None:
            return self.tr("head {0} · K/V {1}").format(self.head + 1, self.kv_group + 1)
        return self.tr("head {0}").format(self.head + 1)

    def set_data(self, data: np.ndarray, rows: list[str], cols: list[str],
                 head: int | None = None, result=None) -> None:
        """Show ``data`` (of ``head``, if it changes) with its token labels; ``data`` is
        that head's weights in ``result``, whose picture a large session has made off
        the GUI thread (drawn when ready: the thumbnail shows the last one meanwhile)."""
        if head is not None and head != self.head:
            self.head = head
        self.retranslate()  # the head or its key/value group may have changed
        image, self._pending = None, None
        if result is not None and self.images is not None:
            image = self._picture(result)
            if image is None and self.images.off_thread(result):
                self._pending = (data, rows, cols, head, result)
                return
            self._result = result
        if (rows, cols) != (self.rows, self.cols) or data.shape != self.data.shape:
            self.rows, self.cols = rows, cols
            self.plot.set_labels(rows, cols)
            self._show_names()
        levels = image.levels if image is not None else levels_for("weights", data)
        self.plot.show_matrix(data, levels, image=image)

    def _picture(self, result):
        """This head's weights in ``result`` at the plot's size, if made; else asked for."""
        slot, pixels = self.objectName(), self.plot.pixels()
        if self.isVisible():  # (drawn before the window shows, then hidden: no hide event)
            self.images.show(slot, "weights", pixels, head=self.head)
        image = self.images.made(result, "weights", self.head, pixels)
        if image is None and self.images.off_thread(result):
            self.images.want(slot, result, "weights", self.head, pixels)
        return image

    def _on_image_wanted(self, _factors=None) -> None:
        """Resized: the picture of the weights on display at the new size, or of the
        newer result waiting for its picture (asking again for the one on display would
        replace that request, and the thumbnail would keep the older weights)."""
        if self._pending is not None:
            if self._picture(self._pending[4]) is not None:
                self.set_data(*self._pending)
            return
        if self._result is None or not self.images.off_thread(self._result):
            self.plot.make_image()
            return
        image = self._picture(self._result)
        if image is not None:
            self.plot.show_image(image)

    def _on_image_ready(self, result, key: str, head: int) -> None:
        if key != "weights" or head != self.head:
            return
        if self._pending is not None and self._pending[4] is result:
            self.set_data(*self._pending)
        elif result is self._result:
            self._on_image_wanted()

    def release(self) -> None:
        """The thumbnail leaves the overview: no more pictures made for it."""
        if self.images is not None:
            self.images.hide(self.objectName())

    def hideEvent(self, event) -> None:
        self.release()
        super().hideEvent(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.images is not None and self._result is not None:  # e.g. un-minimised
            self.images.show(self.objectName(), "weights", self.plot.pixels(), head=self.head)

    def set_current(self, current: bool) -> None:
        if current != self.current:
            self.current = current
            font = self.caption.font()
            font.setBold(current)
            self.caption.setFont(font)
            self.update()

    def eventFilter(self, watched, event) -> bool:
        if (event.type() == QEvent.Type.MouseButtonPress
                and event.button() == Qt.MouseButton.LeftButton):
            self.clicked.emit(self.head)
            return True
        return super().eventFilter(watched, event)

    def names_fit(self) -> bool:
        """Whether the token names are legible on this thumbnail, by the panes' own
        rule (``plan_axis``): the thumbnail is tall enough for a row's name above its
        column names (squeezed, 1024×700 with four heads, a name was cut by its edge),
        the row names and the last column's leave the cells ``MIN_CELLS_SHARE`` of its
        width, and the column names stand upright there: turned, they were a column
        of 9-pixel glyphs on their side (人工 智能 at 1024×700; a review). Otherwise the
        thumbnail shows its cells alone, and the panes name the tokens."""
        width, height = self.plot.width(), self.plot.height()
        line = QFontMetrics(self.plot.font()).height()
        if not (self.rows and self.cols) or height < 3 * line:
            return False
        left = plan_axis(self.rows, height - line - GAP_PX, True)
        row_names = max((QFontMetrics(left.font).horizontalAdvance(t) for _, t in left.ticks),
                        default=0) + GAP_PX
        cells = width - row_names - self._last_name_room()
        if cells < MIN_CELLS_SHARE * width:
            return False
        return not plan_axis(self.cols, cells, False).rotated

    def _last_name_room(self) -> float:
        """The last column's name is centred on it and may reach past the plot's right
        end (a pane's colour bar stands there; here nothing does): half the widest
        name, in the largest font it may take."""
        metrics = QFontMetrics(self.plot.font())
        return max((metrics.horizontalAdvance(c) for c in self.cols), default=0) / 2 + 1

    def _show_names(self) -> None:
        """The token axes, and the room right of the cells for the last column's
        name, only where the names are legible (``names_fit``)."""
        shown = self.names_fit()
        item = self.plot.getPlotItem()
        item.setContentsMargins(0, 0, self._last_name_room() if shown else 0, 0)
        for axis in ("left", "bottom"):
            if item.getAxis(axis).isVisible() != shown:
                item.showAxis(axis, shown)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._show_names()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.head)
            event.accept()
            return
        super().mousePressEvent(event)

    def paintEvent(self, event) -> None:
        if self.current:  # the frame, around the title and the plot
            p = QPainter(self)
            p.setPen(QPen(HIGHLIGHT, 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5))
            p.end()


class HeadsOverview(Retranslating, QWidget):
    """The weights of all heads as small multiples; clicking one chooses that head."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("headsOverview")
        # elided where narrow (whole on hover), as the panes' titles: unwrapped, its 261
        # px set the overview's least width, more than a grid column's at 1024 px
        self.title = ElidedLabel(self)
        self.title.setObjectName("paneTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.groups_label = QLabel(self, objectName="headGroups", wordWrap=True)
        self.groups_label.hide()
        self._groups = None
        self._counted = ""  # the matrices ``_groups`` counts: W_O only where it is counted
        self.thumbs: list[HeadThumbnail] = []
        self._tiles = QWidget(self)
        self._grid = QGridLayout(self._tiles)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(6)
        self._shape: tuple[int, int] | None = None
        self._heads = range(0)
        self._stale = False  # a result came while hidden
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.groups_label)
        layout.addWidget(self._tiles, 1)
        self.retranslate()
        model.resultChanged.connect(self._on_result_changed)
        model.currentHeadChanged.connect(self._on_head_changed)
        if model.result is not None:
            self._on_result_changed(model.result)

    def caption(self) -> str:
        return heads_caption()

    def retranslate(self) -> None:
        heads, total = self._heads, self.model.state.n_heads
        if 0 < len(heads) < total:
            self.title.setText(self.tr("weights of heads {0}–{1} of {2}: click one to show "
                                       "it").format(heads.start + 1, heads.stop, total))
        else:
            self.title.setText(self.tr("weights of every head: click one to show it"))
        g = self._groups
        self.groups_label.setVisible(g is not None and g.shared)
        if g is not None and g.shared:
            members = join_clauses(self.tr("K/V {0}: heads {1}").format(
                i + 1, " ".join(str(h + 1) for h in group)) for i, group in enumerate(g.groups))
            self.groups_label.setText(self.tr(
                "Grouped-query attention: {0} query heads share {1} key/value heads ({2}). "
                "This layer's {7}: {3:,} parameters, {4:,} if every head had "
                "its own keys and values (MHA); keys and values cached per token: {5:,} "
                "numbers, {6:,} with MHA.").format(
                sum(len(x) for x in g.groups), len(g.groups), members, g.params_gqa,
                g.params_mha, g.kv_values_gqa, g.kv_values_mha, self._counted))

    def _on_screen(self) -> bool:
        """Not hidden by the grid (one head, or the View menu); the window may not be
        shown yet."""
        parent = self.parentWidget()
        return parent is None or self.isVisibleTo(parent)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._on_result_changed(self.model.result)

    def _on_result_changed(self, result) -> None:
        if result is None:
            return
        self._stale = not self._on_screen()
        if self._stale:  # hidden (one head): every head's weights drawn when shown
            return
        s = result.state
        self._heads = shown_heads(s.n_heads, self.model.current_head)
        while len(self.thumbs) < len(self._heads):
            thumb = HeadThumbnail(len(self.thumbs), self._tiles, self.model.images)
            thumb.clicked.connect(self.model.set_current_head)
            self.thumbs.append(thumb)
        while len(self.thumbs) > len(self._heads):
            thumb = self.thumbs.pop()
            thumb.release()
            thumb.deleteLater()
        rows, cols = list(s.tokens), list(s.key_tokens)
        self._groups = head_groups(s) if s.n_heads > 1 else None
        self._counted = "W_Q, W_K, W_V" + (", W_O" if s.W_O is not None else "")
        shared = self._groups is not None and self._groups.shared
        for thumb, h in zip(self.thumbs, self._heads, strict=True):
            thumb.kv_group = self._groups.group_of(h) if shared else None
            # as the weights pane shows them: masked cells grey and hatched, not pale
            thumb.set_data(pane_matrix(result, "weights", h), rows, cols, head=h,
                           result=result)
            thumb.update()
        self.retranslate()
        self._mark_current(self.model.current_head)
        self._shape = None
        self._arrange()

    def _on_head_changed(self, head: int) -> None:
        if self.model.result is not None and head not in self._heads:
            self._on_result_changed(self.model.result)  # the block that holds it
        self._mark_current(head)

    def _mark_current(self, head: int) -> None:
        for thumb in self.thumbs:
            thumb.set_current(thumb.head == head)

    def _arrange(self) -> None:
        """Place the thumbnails in the grid that makes them largest for the current size."""
        shape = grid_shape(max(len(self.thumbs), 1), max(self._tiles.width(), 1),
                           max(self._tiles.height(), 1))
        if shape == self._shape:
            return
        self._shape = shape
        for thumb in self.thumbs:
            self._grid.removeWidget(thumb)
        for r in range(self._grid.rowCount()):
            self._grid.setRowStretch(r, 0)
        for c in range(self._grid.columnCount()):
            self._grid.setColumnStretch(c, 0)
        cols = shape[1]
        for k, thumb in enumerate(self.thumbs):
            r, c = divmod(k, cols)
            self._grid.addWidget(thumb, r, c)
            self._grid.setRowStretch(r, 1)
            self._grid.setColumnStretch(c, 1)
            thumb.show()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._arrange()
