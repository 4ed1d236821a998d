"""Editable tables over the model's matrices: token vectors (X, X_kv) and weights.

``MatrixTableModel`` is a ``QAbstractTableModel`` that reads the current state on
every ``data`` call and turns every ``setData`` into a model command, so the table
never holds a copy of the numbers. Text is parsed by ``state.parsing`` (strict and
locale-independent); refused input leaves the cell as it was and says why.

A view asks only for the cells it shows, so the cell tints are computed for blocks
of rows on first use: a 2048 × 768 X costs the few hundred cells on screen, not
1.5 million colours, after every edit.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import (
    DIVERGING,
    map_to_rgba,
    max_abs_finite,
    symmetric_levels,
    text_color_for,
)
from qkv_desktop.presentation.numbers import MINUS, format_value
from qkv_desktop.presentation.texts import say
from qkv_desktop.state.catalogue import EDITABLE_TABLES
from qkv_desktop.state.cow_matrix import edit_of
from qkv_desktop.state.parsing import ParseError, parse_number

__all__ = ["MatrixTableModel"]

Index = QModelIndex | QPersistentModelIndex

TINT_ROWS = 64
"""Rows whose tints are computed together, on the first request for one of them."""

_DISPLAY = Qt.ItemDataRole.DisplayRole
_EDIT = Qt.ItemDataRole.EditRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_BACKGROUND = Qt.ItemDataRole.BackgroundRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ROLES = frozenset(int(r) for r in (_DISPLAY, _EDIT, _TOOLTIP, _ALIGN, _BACKGROUND, _FOREGROUND))
"""The roles ``data`` answers; a view asks for about ten per cell on every repaint."""
_WHITE, _BLACK = QColor(255, 255, 255), QColor(0, 0, 0)
_EDITABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable


MAX_CELL_DIFF = 1 << 20
"""Tables up to this many cells compare old and new values to announce just the changes."""
MAX_CELLS_ANNOUNCED = 64


class MatrixTableModel(QAbstractTableModel):
    """Rows of a matrix of the session, optionally with a leading token column.

    ``source`` is ``"X"`` or ``"X_kv"`` (token vectors, with a token column) or
    ``"W_Q"``, ``"W_K"``, ``"W_V"`` (weights of the model's current head).

    ``refused(row, column, text)``: a typed value was not applied, and why (the view
    says so at the cell; ``model.message`` says it in the status bar).
    ``applied(row, column)``: a typed value (or token name) was taken, even one that
    changed nothing (the view's refusal note about that cell is then answered).
    """

    refused = Signal(int, int, str)
    applied = Signal(int, int)

    def __init__(self, model: AttentionModel, source: str = "X", parent=None):
        super().__init__(parent)
        self.model = model
        self.source = source
        self.has_tokens = source in EDITABLE_TABLES
        self._shape = self._matrix().shape
        self._levels: tuple[float, float] | None = None
        self._top: tuple[np.ndarray, float] | None = None  # (matrix, its largest |value|)
        self._tints: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._shown = (self._matrix(), self.tokens() if self.has_tokens else ())
        model.changed.connect(self._on_changed)
        model.currentHeadChanged.connect(self._on_head_changed)

    # ------------------------------------------------------------- reading
    def _matrix(self) -> np.ndarray:
        s = self.model.state
        if self.has_tokens:
            X = getattr(s, self.source)
            return np.zeros((0, s.d_model)) if X is None else X
        return getattr(s.heads[s.head_index(self.model.current_head)], self.source)

    def tokens(self) -> tuple[str, ...]:
        s = self.model.state
        return s.tokens if self.source == "X" else s.kv_tokens

    def _col_offset(self) -> int:
        return 1 if self.has_tokens else 0

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._matrix().shape[0]

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._matrix().shape[1] + self._col_offset()

    def _tint(self, r: int, c: int) -> tuple[np.ndarray, bool]:
        """(RGBA, white text?) of cell (r, c); its block of rows is coloured on first use."""
        block = r // TINT_ROWS
        tints = self._tints.get(block)
        if tints is None:
            M = self._matrix()
            if self._levels is None:
                self._levels = symmetric_levels(self._largest(M))
            rgba = map_to_rgba(M[block * TINT_ROWS:(block + 1) * TINT_ROWS], DIVERGING,
                               self._levels)
            tints = self._tints[block] = (rgba, text_color_for(rgba))
        r -= block * TINT_ROWS
        return tints[0][r, c], bool(tints[1][r, c])

    def data(self, index: Index, role: int = _DISPLAY):
        if role not in _ROLES or not index.isValid():
            return None
        r, c = index.row(), index.column() - self._col_offset()
        if c < 0:
            if role in (_DISPLAY, _EDIT, _TOOLTIP):
                return self.tokens()[r]
            return None
        if role == _DISPLAY:  # the one rule: four decimals; the tool tip has every digit
            return format_value(self._matrix()[r, c])
        if role in (_EDIT, _TOOLTIP):
            return repr(float(self._matrix()[r, c]))
        if role == _ALIGN:
            return _RIGHT
        if role == _BACKGROUND:
            return QBrush(QColor(*(int(x) for x in self._tint(r, c)[0])))
        if role == _FOREGROUND:
            return QBrush(_WHITE if self._tint(r, c)[1] else _BLACK)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole):
        """Token tables: rows numbered, columns d0… (the model dimensions). Weight tables
        (d_model × d_k): rows d0… (the column of X each multiplies) and columns named as
        the d_k axis of the Q, K and V panes ("k0" read as "key 0")."""
        vertical = orientation == Qt.Orientation.Vertical
        if role == _TOOLTIP and not self.has_tokens:
            product = self.source[-1]  # W_Q → Q
            return (self.tr("Input dimension d{0}: this row multiplies column d{0} of X.")
                    .format(section) if vertical else
                    self.tr("d_k dimension {0}: this column makes column {0} of {1}.")
                    .format(section, product))
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if vertical:
            return f"d{section}" if not self.has_tokens else str(section)
        if self.has_tokens and section == 0:
            return self.tr("token")
        c = section - self._col_offset()
        return f"d{c}" if self.has_tokens else str(c)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _EDITABLE if index.isValid() else Qt.ItemFlag.NoItemFlags

    # ------------------------------------------------------------- writing
    def setData(self, index: Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Parse ``value`` and send it to the model; refuse it with a message otherwise."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        r, c = index.row(), index.column() - self._col_offset()
        try:
            if c < 0:
                self.model.rename_token(self.source, r, str(value))
                self.applied.emit(index.row(), index.column())
                return True
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                number, note = float(value), None
                if not np.isfinite(number):
                    raise ParseError(self.tr("only finite numbers can be used"))
            else:
                number, note = parse_number(str(value))
            if self.has_tokens:
                self.model.set_cell(self.source, r, c, number)
            else:
                self.model.set_weight(self.model.current_head, self.source, r, c, number)
        except ValueError as exc:
            text = self.tr("Not applied: {0}").format(say(exc))
            self.model.refused.emit(text)
            self.refused.emit(index.row(), index.column(), text)
            return False
        self.applied.emit(index.row(), index.column())
        if note:
            self.model.noted.emit(say(note))  # of this step: gone once it is left
        return True

    def widest_text(self) -> str:
        """The widest value text the table shows now: its largest magnitude, negative
        (the columns are sized for it, so no value is cut to "0.0007…")."""
        widest = self._largest(self._matrix())
        return max((MINUS + "0.0000", format_value(-widest)), key=len)

    def _largest(self, M: np.ndarray) -> float:
        """The largest |finite value| of ``M``, once per matrix: the tints' levels and the
        columns' width both come from it (a copy of |X| for each was 90 ms per edit at
        2048 × 768)."""
        if self._top is None or self._top[0] is not M:
            self._top = (M, max_abs_finite(M))
        return self._top[1]

    def _follow_largest(self, old: np.ndarray, M: np.ndarray, rows, cols) -> None:
        """``M``'s largest |value| from ``old``'s, when ``M`` is ``old`` with the cells at
        (rows, cols) rewritten: it changes only if one of them was or becomes the
        largest, and only the first needs a pass over the matrix (left to ``_largest``)."""
        if self._top is None or self._top[0] is not old:
            return
        top, before, after = self._top[1], np.abs(old[rows, cols]), np.abs(M[rows, cols])
        if not (np.isfinite(before).all() and np.isfinite(after).all()):
            return
        new = float(after.max(initial=0.0))
        if new >= top or float(before.max(initial=0.0)) < top:
            self._top = (M, max(top, new))

    def value_index(self, row: int, col: int) -> QModelIndex:
        """The index of matrix cell (row, col), skipping the token column."""
        return self.index(row, col + self._col_offset())

    # ------------------------------------------------------------ updates
    def _on_head_changed(self, _head: int) -> None:
        # (a method, not a lambda over ``self``: the model's connection would hold the
        # lambda, and through it this table, as long as the model lives)
        self._on_changed()

    def _on_changed(self) -> None:
        M, tokens = self._matrix(), self.tokens() if self.has_tokens else ()
        (old, old_tokens), self._shown = self._shown, (M, tokens)
        if M is old and tokens == old_tokens:
            return  # e.g. the weight tables when X is edited, or any option change
        if self._announce_cells(M, old, tokens == old_tokens):
            return
        self._levels = None
        self._tints.clear()
        shape = M.shape
        if shape != self._shape:
            self.beginResetModel()
            self._shape = shape
            self.endResetModel()
        elif shape[0] and shape[1]:
            # The headers (row numbers, d0…) depend on the shape only: announcing them
            # changed would make the header re-measure every row (thousands at large n).
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(shape[0] - 1, shape[1] - 1 + self._col_offset()))

    def _announce_cells(self, M: np.ndarray, old: np.ndarray, same_tokens: bool) -> bool:
        """Announce only the cells that changed, when a few did and the colour scale held.

        A change over the whole range makes the view repaint all of itself; a typed
        value changes one cell. Returns False when the whole table must be announced.
        An edit's matrix says which cells it wrote (``edit_of``), at any size; another
        new matrix is compared with the old one when it is small enough.
        """
        if not same_tokens or M.shape != old.shape or self._levels is None:
            return False
        edited = edit_of(old, M)
        if edited is not None:
            rows, cols = edited
            # each cell written once, in order: a set, not ``np.unique``, whose first call
            # imports ``numpy.ma``, and shiboken's import hook reads that module's source
            # on the GUI thread: 10-15 ms in the first edit of every session (issue 20)
            changed = sorted(set(zip(rows.tolist(), cols.tolist(), strict=True)))
            self._follow_largest(old, M, rows, cols)
        elif M.size > MAX_CELL_DIFF:
            return False
        else:
            changed = np.argwhere(M != old).tolist()
        if (len(changed) > MAX_CELLS_ANNOUNCED
                or symmetric_levels(self._largest(M)) != self._levels):
            return False
        offset = self._col_offset()
        for r, c in changed:
            self._retint(M, r, c)
            index = self.index(r, c + offset)
            self.dataChanged.emit(index, index)
        return True

    def _retint(self, M: np.ndarray, r: int, c: int) -> None:
        """Colour cell (r, c) again in its block of tints, if that block is made (the
        whole block was 64 rows × d_model colours for one edited value)."""
        tints = self._tints.get(r // TINT_ROWS)
        if tints is None:
            return
        rgba = map_to_rgba(M[r:r + 1, c:c + 1], DIVERGING, self._levels)
        tints[0][r % TINT_ROWS, c] = rgba[0, 0]
        tints[1][r % TINT_ROWS, c] = text_color_for(rgba)[0, 0]
