"""The state layer's sentences (refusals, notes, undo texts) in the interface language."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from qkv_desktop.io.files import os_reason
from qkv_desktop.presentation.numbers import DECIMALS, MINUS, format_value
from qkv_desktop.state.texts import CellValue, Listed, Text, said_by, say_in

__all__ = ["say", "stale_note", "join_sentences", "join_list", "join_clauses", "token_in_text"]

VISIBLE_SPACE = "␣"
"""How a space at a token's edge is written in a sentence (as ``io.byte_tokens`` writes
a token that is only spaces)."""


def say(item: Text | Exception | str) -> str:
    """``item`` translated (in its context: "Edits", where the state marks its texts,
    "Files" for the file readers' messages), with the fields that are sentences
    themselves (a bad cell inside "row 2, column 3: …") and the matrix values
    (``CellValue``) written as the tables write them. An error that carries a ``Text``
    (``EditError``, ``FileFormatError``, ``CheckpointError``) is said by it; an
    ``OSError`` (a full disk, a read-only folder) by its cause (``io.files.os_reason``:
    "the disk is full", not the system's English); any other item is its ``str()``."""
    item = said_by(item) or item
    if isinstance(item, OSError):
        item = os_reason(item)
    if isinstance(item, Text):  # a field that is itself a sentence is said too
        write = _value_writer([a.value for a in item.args if isinstance(a, CellValue)])
        args = tuple(_said_field(a, write) for a in item.args)
        count = -1 if item.count is None else item.count  # -1: no plural (Qt's default)
        return say_in(QCoreApplication.translate(item.context, item.template, None, count),  # marked texts
                      args)
    if isinstance(item, Listed):
        return _said_list(item, format_value)
    return str(item)


def _said_field(field, write):
    """A field of a ``Text`` as the sentence shows it (``write`` writes its values)."""
    if isinstance(field, Text | OSError) or said_by(field):
        return say(field)
    if isinstance(field, CellValue):
        return write(field.value)
    if isinstance(field, Listed):
        return _said_list(field, write)
    return field


def _said_list(listed: Listed, write) -> str:
    items = [str(_said_field(item, write)) for item in listed.items]
    return join_clauses(items) if listed.clauses else join_list(items)


def join_list(items) -> str:
    """Items of a list in the interface language: "a, b, c", in Chinese "a、b、c"."""
    return QCoreApplication.translate("Lists", ", ").join(items)


def join_clauses(items) -> str:
    """Clauses one after another in the interface language: "a; b", in Chinese "a；b"."""
    return QCoreApplication.translate("Lists", "; ").join(items)


def _value_writer(values: list[float]):
    """``format_value``, unless it writes two different values of one sentence alike
    ("0.8000 → 0.8000" for a typed 0.80001): then the fewest decimals past the tables'
    four that tell them apart ("0.80000 → 0.80001"), so an undo step never reads as if
    nothing changed, or the shortest exact forms where no fixed count does."""
    distinct = set(values)
    if len({format_value(v) for v in values}) == len(distinct):
        return format_value
    for decimals in range(DECIMALS + 1, 18):
        if len({f"{v:.{decimals}f}" for v in distinct}) == len(distinct):
            return lambda v, d=decimals: f"{float(v):.{d}f}".replace("-", MINUS)
    return lambda v: repr(float(v)).replace("-", MINUS)


def stale_note() -> str:
    """What a read-out of the shown result says while the table's values do not compute
    (``AttentionModel.compute_error``): its numbers are the last result's, not the
    table's (the Explain panel said "X[我, d1] = 0.1000" beside a table holding 1e200)."""
    return QCoreApplication.translate(
        "Stale", "These are the numbers of the last result that computed: the table's "
                 "values do not compute (the banner above the panes says why).")


_CLOSED_WITHOUT_SPACE = ("。", "；", "：", "！", "？", "）", "”")
"""Full-width marks after which Chinese writes the next sentence without a space."""


def join_sentences(parts) -> str:
    """Sentences one after another: a space between them, as English writes them, but
    none after a full-width mark (the Chinese banner read "是平的。 分数这么小")."""
    text = ""
    for part in parts:
        if text and not text.endswith(_CLOSED_WITHOUT_SPACE):
            text += " "
        text += part
    return text


WORD_JOINER = "\u2060"
"""An invisible character no line breaks beside."""

NO_BREAK_SPACE = "\u00a0"
"""A space no line breaks at."""


def unbroken_bars(text: str) -> str:
    """``text`` with no line break after a "|": Unicode lets a line break after a
    bar, and a tip wrapped "−m·|i−j|" as "−0.003906·|" over "2−1| = −0.0039" (a first
    user). A word joiner after each bar keeps ``|2−1|`` whole; the spaces still wrap."""
    return text.replace("|", "|" + WORD_JOINER)


_SPACE_BETWEEN_HANZI = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")


def between_hanzi_unspaced(text: str) -> str:
    """``text`` without a space between two Chinese characters: a sentence made of a
    subject and a predicate read "查询头数 最大为 1024" (a first-time user), where
    Chinese writes none. A space beside Latin letters or digits stays ("KV 头数")."""
    return _SPACE_BETWEEN_HANZI.sub("", text)


def token_in_text(name: str) -> str:
    """``name`` as a sentence or a table cell writes it: spaces at its edges as ␣.

    A byte-level model's words start with a space (" of", " capital"): an axis label
    keeps it, but in "w[ of→ of]" the status bar read as a stray space, and a trailing
    one was not seen at all (a first-time user)."""
    core = name.strip(" ")
    lead = len(name) - len(name.lstrip(" "))
    trail = len(name) - len(name.rstrip(" ")) if core else 0
    return VISIBLE_SPACE * lead + core + VISIBLE_SPACE * trail
