"""``CopiesTableAsText``: a label's table copied as a reader pastes it.

A ``QLabel`` with rich text copies its selection through its own text control, out of
reach of Python (Ctrl+C, its context menu's Copy, X11's selection). For a table that
puts one cell per line on the clipboard, so a paste into a text editor or a
spreadsheet's plain-text import was one long column; the gradient lab's headers went
with their invisible word joiners (U+2060: they break only at spaces), and a search for
"∂L/∂W_Q" in the paste found nothing; and "9.878e−06", with the cells' minus sign, is no
number to a spreadsheet or to ``float``. So when the clipboard's new text is the label's
own selection, its text is put back as tab-separated rows, without word joiners, and
with numbers in ASCII; its HTML (what a word processor or a spreadsheet pastes) without
word joiners (Qt's OpenDocument copy, which would keep them, is left out). Another
program's copy is never read or rewritten.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QObject
from PySide6.QtGui import QClipboard, QGuiApplication, QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication, QLabel

from qkv_desktop.presentation.texts import WORD_JOINER

__all__ = ["CopiesTableAsText", "table_text"]

_MARKS = str.maketrans("", "", "\ufdd0\ufdd1\u2028\u2029" + WORD_JOINER)
"""What Qt marks a selection's frames, paragraphs and lines with, and the joiners."""


def _letters(text: str) -> str:
    """``text`` without its spaces, line ends and marks: a copy and the selection it
    was made of agree on these alone (``QLabel.selectedText`` runs a table's cells
    together; the copy puts each on a line)."""
    return "".join(text.translate(_MARKS).split())


def _cell(text: str) -> str:
    """A cell's text in one line, a number with an ASCII minus ("-0.5", not "−0.5")."""
    text = " ".join(text.translate(_MARKS).split())
    ascii_minus = text.replace("\u2212", "-")
    try:
        float(ascii_minus)
    except ValueError:
        return text
    return ascii_minus


IN_PROCESS_CLIPBOARDS = ("offscreen", "minimal")
"""Platforms whose clipboard lives in this process: they own nothing, and hold only
what this process put there."""


def _ours(clipboard: QClipboard, mode: QClipboard.Mode) -> bool:
    """Whether this application put the data of ``mode`` on the clipboard."""
    if QGuiApplication.platformName() in IN_PROCESS_CLIPBOARDS:
        return True
    if mode == QClipboard.Mode.Selection:
        return clipboard.ownsSelection()
    if mode == QClipboard.Mode.FindBuffer:
        return clipboard.ownsFindBuffer()
    return clipboard.ownsClipboard()


def table_text(html: str) -> str | None:
    """``html``'s text with each row of its tables on a line, its cells a tab apart, and
    each paragraph around them on a line of its own (None: it has no table)."""
    document = QTextDocument()
    document.setHtml(html)
    lines: list[str] = []
    row: list[str] = []
    at = None  # (the table's first position, the row) of ``row``
    has_table = False
    block = document.begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        cell = None if table is None else table.cellAt(block.position())
        key = None if cell is None else (table.firstPosition(), cell.row())
        if key != at and row:
            lines.append("\t".join(_cell(c) for c in row))
            row = []
        at = key
        if cell is None:
            if block.text().strip():
                lines.append(_cell(block.text()))
        elif len(row) > cell.column():  # a cell's next paragraph
            row[cell.column()] += " " + block.text()
        else:
            has_table = True
            row.extend([""] * (cell.column() - len(row)) + [block.text()])
        block = block.next()
    if row:
        lines.append("\t".join(_cell(c) for c in row))
    return "\n".join(lines) if has_table else None


class CopiesTableAsText(QObject):
    """Puts ``label``'s copies of its table back on the clipboard as rows of text."""

    def __init__(self, label: QLabel):
        super().__init__(label)
        self._label = label
        QApplication.clipboard().changed.connect(self._on_clipboard_changed)

    def _on_clipboard_changed(self, mode: QClipboard.Mode) -> None:
        clipboard = QApplication.clipboard()
        if not _ours(clipboard, mode):
            return  # another program's: on X11 reading it asks that program (a review)
        data = clipboard.mimeData(mode)
        if data is None or not self._label.hasSelectedText():
            return
        text = data.text()
        if not text or _letters(text) != _letters(self._label.selectedText()):
            return  # not this label's copy
        html = data.html() if data.hasHtml() else ""
        rows = table_text(html) if html else None
        plain = (text if rows is None else rows).replace(WORD_JOINER, "")
        if plain == text and WORD_JOINER not in html:
            return
        put = QMimeData()
        put.setText(plain)
        if html:
            put.setHtml(html.replace(WORD_JOINER, ""))
        clipboard.setMimeData(put, mode)
