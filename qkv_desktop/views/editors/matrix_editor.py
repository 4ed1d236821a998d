"""A table view for token vectors or weights: copy/paste blocks, scrub-to-edit.

It forwards every intent (typed value, paste, drag) to the model; refused input is
reported through ``model.refused`` and nothing is half-applied.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QStyledItemDelegate,
    QTableView,
)

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.texts import say
from qkv_desktop.state.catalogue import EDITABLE_TABLES, CellRef
from qkv_desktop.state.parsing import ParseError, parse_block
from qkv_desktop.state.session_state import MAX_CELLS, MAX_TOKENS
from qkv_desktop.views.editors.cell_balloon import CellBalloon
from qkv_desktop.views.editors.matrix_table import MatrixTableModel
from qkv_desktop.views.once_per_frame import SCRUB_INTERVAL_MS, OncePerFrame, scrub_interval_ms
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["MatrixEditor", "SCRUB_PER_PIXEL", "SCRUB_INTERVAL_MS", "scrub_interval_ms"]

SCRUB_PER_PIXEL = 0.01
"""Value change per pixel of a Ctrl+drag (×10 with Shift held as well)."""
CELL_PAD_PX = 14
"""Room a column leaves beside its widest value: the delegate's text margins and a gap."""


class EnterCommitsAtOnce(QStyledItemDelegate):
    """A cell editor that hands its value over as Enter is pressed, not a moment later.

    Qt's delegate commits on Enter through a queued call, so the keys already waiting
    (Enter → Right, or the next value, typed fast or in a busy frame) still went to the
    closing editor: Right was lost, the next value overwrote the same cell, or joined
    the old text ("0.50.75", refused). Here Enter commits and closes with the signals
    Qt's own Tab uses, so the next key finds the table (a re-checking user).
    """

    def eventFilter(self, editor, event) -> bool:
        if (event.type() == QEvent.Type.KeyPress and isinstance(editor, QLineEdit)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and editor.hasAcceptableInput()):
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.SubmitModelCache)
            return True
        return super().eventFilter(editor, event)


class MatrixEditor(Retranslating, QTableView):
    """``QTableView`` over a ``MatrixTableModel`` with spreadsheet-like editing."""

    def __init__(self, model: AttentionModel, source: str = "X", parent=None):
        super().__init__(parent)
        self.attention = model  # not ``model``: QTableView.model() is the table model
        self.table = MatrixTableModel(model, source, self)
        self.setModel(self.table)
        self.setItemDelegate(EnterCommitsAtOnce(self))  # before the note, which listens to it
        self.setObjectName(f"editor_{source}")
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._fit_sections()
        self._scrub: tuple[int, int, int, float, int] | None = None
        self._scrub_moves = OncePerFrame(self, self._apply_scrub)  # about one edit a frame
        self.clicked.connect(self._on_clicked)
        self.balloon = CellBalloon(self)
        self.table.refused.connect(
            lambda row, col, text: self.balloon.show_at(self.table.index(row, col), text))
        model.landed.connect(self.balloon.hide)  # a refusal is old news once a change lands
        self.table.applied.connect(self.balloon.hide)  # …or a good value (even an unchanged one)
        self.table.modelReset.connect(self.updateGeometry)  # rows added: a new minimum
        self.table.modelReset.connect(self._fit_sections)  # new values: maybe wider ones
        self.table.dataChanged.connect(self._fit_sections)
        self.retranslate()

    def retranslate(self) -> None:
        """The tooltip and the header texts (the "token" column) in the current language."""
        self.setToolTip(self.tr("Double-click or type to edit. Ctrl+C / Ctrl+V copy and "
                                "paste blocks (TSV/CSV). Ctrl+drag a value sideways to "
                                "scrub it."))
        columns = self.table.columnCount()
        if columns:
            self.table.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, columns - 1)

    def _fit_sections(self, *_args) -> None:
        """Rows and columns sized from the font, so that View → Zoom scales them too, and
        wide enough for the widest value by the four-decimal rule (cells showed
        "0.0007…" when the text was longer than the column)."""
        metrics = self.fontMetrics()
        width = max(58, metrics.horizontalAdvance(self.table.widest_text()) + CELL_PAD_PX)
        # Each edit comes here (the widest value may have grown): a header given its own
        # size again still repaints the whole table and its row numbers.
        for header, size in ((self.horizontalHeader(), width),
                             (self.verticalHeader(), max(24, metrics.height() + 8))):
            if size != header.defaultSectionSize():
                header.setDefaultSectionSize(size)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._fit_sections()
            # and once the font has settled: back at 100 % from 175 %, a FontChange came
            # with the metrics of a zoom between, and the rows stayed 28 px, not 24 (a
            # first user saw a scroll bar and a button gone into the » menu)
            QTimer.singleShot(0, self, self._fit_sections)
        super().changeEvent(event)

    MIN_ROWS = 5
    """Token tables are never shorter than this many rows (the editor scrolls instead):
    in cross mode each of the two tables showed 4 and hid tutorial's 5th query."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if not self.table.has_tokens:
            return hint
        rows = min(self.table.rowCount(), self.MIN_ROWS)
        height = (self.horizontalHeader().sizeHint().height()
                  + rows * self.verticalHeader().defaultSectionSize()
                  + self.horizontalScrollBar().sizeHint().height() + 2 * self.frameWidth())
        return QSize(hint.width(), max(hint.height(), height))

    def edit(self, index, trigger=QAbstractItemView.EditTrigger.AllEditTriggers,
             event=None) -> bool:
        """Open the cell editor (Qt's virtual: a typed key, a double click); a refusal
        note about another cell then goes, since the learner has moved on from it."""
        opened = super().edit(index, trigger, event)
        if opened:
            self.balloon.leave_for(index)
        return opened

    def closeEditor(self, editor, hint) -> None:
        """Qt's virtual: a cell editor closes. Tab or Backtab in it moves the current cell
        in the editor's own key handling, which never reaches ``keyPressEvent``: the pin
        moves here, as with the arrows (a code review: typing along a row with Tab left
        the panes' outline on the first cell)."""
        before = self.currentIndex()
        super().closeEditor(editor, hint)
        if (hint in (QAbstractItemDelegate.EndEditHint.EditNextItem,
                     QAbstractItemDelegate.EndEditHint.EditPreviousItem)
                and self.currentIndex() != before):
            self._on_clicked(self.currentIndex())

    # ------------------------------------------------------------ clipboard
    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
        elif event.matches(QKeySequence.StandardKey.Paste):
            self.paste()
        else:
            before = self.currentIndex()
            super().keyPressEvent(event)
            if self.currentIndex() != before and self.state() != self.State.EditingState:
                # an arrow key, Tab, Home or Page Down moves the pin as a click does: the
                # panes' outline stayed on the clicked row (a re-checking user)
                self._on_clicked(self.currentIndex())

    def copy_selection(self) -> str:
        """Copy the selected block as TSV (token names included when selected)."""
        idx = self.selectedIndexes() or ([self.currentIndex()] if self.currentIndex().isValid() else [])
        if not idx:
            return ""
        rows = sorted({i.row() for i in idx})
        cols = sorted({i.column() for i in idx})
        lines = []
        for r in rows:
            cells = []
            for c in cols:
                v = self.table.data(self.table.index(r, c), Qt.ItemDataRole.EditRole)
                cells.append("" if v is None else str(v))
            lines.append("\t".join(cells))
        text = "\n".join(lines)
        QGuiApplication.clipboard().setText(text)
        return text

    def paste(self, text: str | None = None) -> bool:
        """Paste a TSV/CSV block at the current cell; all or nothing."""
        text = QGuiApplication.clipboard().text() if text is None else text
        cur = self.currentIndex()
        row = max(cur.row(), 0)
        col = cur.column() - 1 if self.table.has_tokens else cur.column()
        try:
            names, values = parse_block(text, MAX_CELLS, MAX_TOKENS)
            if not self.table.has_tokens:
                raise ParseError(self.tr("paste into the weight tables is one value at a "
                                         "time; import weights from a file instead"))
            if col < 0 and names is None:  # pasted onto the token column: values follow it
                col = 0
            self.attention.paste_block(self.table.source, row, max(col, 0), values, names)
        except ValueError as exc:
            message = self.tr("Paste refused: {0}").format(say(exc))
            self.attention.refused.emit(message)
            self.balloon.show_at(cur if cur.isValid() else self.table.index(0, 0), message)
            return False
        return True

    # ---------------------------------------------------------------- scrub
    def mousePressEvent(self, event) -> None:
        # first: its value may widen the columns under the cursor
        self.end_scrub()  # one whose release never came (a dialog took the mouse)
        idx = self.indexAt(event.position().toPoint())
        scrubbable = idx.isValid() and (idx.column() >= 1 or not self.table.has_tokens) \
            and self.table.has_tokens
        if (event.button() == Qt.MouseButton.LeftButton and scrubbable
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            col = idx.column() - 1
            start = float(self.table._matrix()[idx.row(), col])
            self._scrub = (idx.row(), col, int(event.position().x()), start,
                           self.attention.new_gesture())
            self._scrub_moves.begin(self.screen())
            self.setCursor(Qt.CursorShape.SizeHorCursor)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._scrub is None:
            super().mouseMoveEvent(event)
            return
        _row, _col, x0, start, _gesture = self._scrub
        step = SCRUB_PER_PIXEL * (10 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
        self._scrub_moves.offer(round(start + (event.position().x() - x0) * step, 6))

    def _apply_scrub(self, value: float) -> None:
        """Apply a value of the scrub (``OncePerFrame`` calls this about once a frame)."""
        if self._scrub is None:
            return
        row, col, _x0, _start, gesture = self._scrub
        try:
            self.attention.set_cell(self.table.source, row, col, value, gesture=gesture)
        except ValueError as exc:
            self.attention.refused.emit(self.tr("Not applied: {0}").format(say(exc)))

    def mouseReleaseEvent(self, event) -> None:
        if self._scrub is not None:
            self.end_scrub()
            return
        super().mouseReleaseEvent(event)

    def hideEvent(self, event) -> None:
        self.end_scrub()  # another tab, a closed dock: no release will come
        super().hideEvent(event)

    def end_scrub(self) -> None:
        """End the scrub, if one is on: its last value applies (the value the drag ended
        on), and a later drag without Ctrl selects cells again. The window calls it
        before it closes (a value still waiting would land after the model shut down)."""
        if self._scrub is None:
            return
        self._scrub_moves.end()
        self._scrub = None
        self.unsetCursor()

    # ------------------------------------------------------------ selection
    def _on_clicked(self, index) -> None:
        """Clicking a token (or reaching it with the keys) pins it: the panes outline
        its row of X (or of X_kv)."""
        source = self.table.source
        if source not in EDITABLE_TABLES or not index.isValid():
            return
        col = max(index.column() - 1, 0)
        self.attention.set_selection(CellRef(source, index.row(), col, self.attention.current_head))

    def selected_rows(self) -> list[int]:
        rows = {i.row() for i in self.selectedIndexes()}
        if not rows and self.currentIndex().isValid():
            rows = {self.currentIndex().row()}
        return sorted(rows)

    def scroll_to_value(self, row: int, col: int) -> QPoint:
        """Centre of matrix cell (row, col) in viewport coordinates (tests, scrubbing)."""
        idx = self.table.value_index(row, col)
        self.scrollTo(idx)
        return self.visualRect(idx).center()
