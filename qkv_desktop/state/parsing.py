"""Strict, locale-independent parsing of what users type or paste (pure Python).

The same rules apply everywhere a number or a token name enters the app, so the
table editor, paste and imports accept and refuse exactly the same things.
"""

from __future__ import annotations

import math
import re
import unicodedata

import numpy as np

from qkv_desktop.state.session_state import MAX_TOKEN_LENGTH
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, EditError, Listed, Text

__all__ = ["ParseError", "parse_number", "validate_token", "parse_block", "MAX_TOKEN_LENGTH",
           "NUMBER", "as_ascii"]


_ASCII_FORMS = {0x2212: "-", 0x3002: ".", 0x3000: " ",
                **{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}}
"""The minus sign (U+2212) and the full-width forms and stop of a CJK input method, as
the ASCII a number is written in."""
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as typed in a cell, pasted or read from a CSV file (the one rule: the
tables, paste and ``io.imports`` all use it). ASCII digits only: Python's float()
would also take "1_0" and "١٢", which no spreadsheet user means as a number here."""


def as_ascii(text: str) -> str:
    """``text`` with the minus sign and the full-width forms ``parse_number`` reads as
    ASCII written in ASCII ("１ｅ３" → "1e3"): the spin boxes show what they read."""
    return text.translate(_ASCII_FORMS)


class ParseError(EditError):
    """Text that is not a usable value; the message says why, for the status bar.

    Like every refusal of the state layer it carries an English template and its fields
    (``.text``), which the views translate (context "Edits"); ``str()`` is the English.
    """


def parse_number(text: str) -> tuple[float, Text | None]:
    """Parse one cell: ``(value, note)``, where ``note`` explains a rounding to 0.

    Accepted: plain decimal or scientific notation with a dot ("0.5", "-1e-3", ".5"),
    surrounding spaces ignored; the minus sign the app writes ("−0.25", U+2212, copied
    from a pane's tip or the Explain panel) and the full-width forms a Chinese input
    method types ("０．５", "１。５") read as their ASCII selves. Refused with a
    reason: empty text, words, nan, inf, hexadecimal, a decimal comma ("1,5"), other
    digits than 0–9 ("١٢"), values too large to be finite. A value too small for a
    float64 (e.g. "1e-400") is stored as 0 and the note says so; subnormal values are
    kept as they are.
    """
    s = text.translate(_ASCII_FORMS).strip()
    if not s:
        raise ParseError(QT_TRANSLATE_NOOP("Edits", "empty cell: type a number such as 0.5 or -1e-3"))
    if len(s) > 64:
        raise ParseError(QT_TRANSLATE_NOOP("Edits", "not a number: the text is {0} characters long"), len(s))
    low = s.lower()
    if low.lstrip("+-") in ("nan", "inf", "infinity"):
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "{0!r} is not allowed: only finite numbers can be used"), s)
    if not NUMBER.fullmatch(s):
        if re.fullmatch(r"[+-]?[0-9]+,[0-9]+", s):
            raise ParseError(QT_TRANSLATE_NOOP(
                "Edits", "{0!r}: use a dot as the decimal separator (e.g. 1.5)"), s)
        if low.lstrip("+-").startswith("0x"):
            raise ParseError(QT_TRANSLATE_NOOP("Edits", "{0!r}: hexadecimal numbers are not accepted"), s)
        raise ParseError(QT_TRANSLATE_NOOP("Edits", "{0!r} is not a number: type e.g. 0.5 or -1e-3"), s)
    value = float(s)
    if not math.isfinite(value):
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "{0!r} is too large: the largest allowed magnitude is about 1.8e308"),
                         s)
    note = None
    if value == 0.0 and re.search(r"[1-9]", s.split("e")[0].split("E")[0]):
        note = Text(QT_TRANSLATE_NOOP(
            "Edits", "{0} is smaller than the smallest float64 and was stored as 0"), (s,))
    return value, note


def validate_token(name: str) -> str:
    """Return ``name`` if it can be a token, else raise ``ParseError`` saying why.

    Any script is fine (CJK, emoji, right-to-left); empty names, control characters
    (newlines, tabs) and names over 200 characters are refused.
    """
    if not isinstance(name, str) or not name.strip():
        raise ParseError(QT_TRANSLATE_NOOP("Edits", "a token name cannot be empty"))
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "a token name cannot contain control characters (newline, tab…)"))
    if len(name) > MAX_TOKEN_LENGTH:
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "a token name can have at most {0} characters, this one has {1}"),
                         MAX_TOKEN_LENGTH, len(name))
    return name


_NOTHING_TO_PASTE = QT_TRANSLATE_NOOP("Edits", "the clipboard holds no values to paste")


def parse_block(text: str, max_cells: int,
                max_rows: int | None = None) -> tuple[list[str] | None, np.ndarray]:
    """Parse a block copied from a spreadsheet: ``(token names or None, values)``.

    Rows are lines; cells are split on tabs (TSV), else on commas (CSV), else on
    runs of spaces. If the first cell of every row is not a number, that column is
    taken as token names. Every other cell must parse, or the whole block is refused
    with the row and column of the first bad cell (1-based, as a spreadsheet shows).
    More than ``max_cells`` cells or ``max_rows`` rows are refused before any cell is
    parsed, so an enormous paste fails at once.
    """
    lines = [ln for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
             if ln.strip()]
    if not lines:
        raise ParseError(_NOTHING_TO_PASTE)
    if max_rows is not None and len(lines) > max_rows:
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "the paste has {0:,} rows; at most {1:,} tokens are allowed"),
                         len(lines), max_rows)
    sep = "\t" if "\t" in text else ("," if "," in text else None)
    rows = [ln.split(sep) if sep else ln.split() for ln in lines]
    n_cells = sum(len(r) for r in rows)
    if n_cells > max_cells:
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "the paste has {0:,} cells; at most {1:,} are allowed"), n_cells, max_cells)

    def is_number(cell: str) -> bool:
        try:
            parse_number(cell)
            return True
        except ParseError:
            return False

    names = None
    if all(r and not is_number(r[0]) for r in rows):
        names = [validate_token(r[0].strip()) for r in rows]
        rows = [r[1:] for r in rows]
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ParseError(QT_TRANSLATE_NOOP(
            "Edits", "the pasted rows have different numbers of values ({0})"),
                         Listed(sorted(widths)))
    width = widths.pop()
    if width == 0 and names is None:
        raise ParseError(_NOTHING_TO_PASTE)
    values = np.empty((len(rows), width))
    offset = 2 if names is not None else 1
    for i, r in enumerate(rows):
        for j, cell in enumerate(r):
            try:
                values[i, j] = parse_number(cell)[0]
            except ParseError as exc:
                raise ParseError(QT_TRANSLATE_NOOP("Edits", "row {0}, column {1}: {2}"),
                                 i + 1, j + offset, exc.text) from None
    return names, values
