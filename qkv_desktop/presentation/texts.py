"""The state layer's sentences (refusals, notes, undo texts) in the interface language."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from qkv_desktop.presentation.numbers import MINUS, format_value
from qkv_desktop.state.texts import CellValue, EditError, Text, say_in

__all__ = ["say", "stale_note"]


def say(item: Text | Exception | str) -> str:
    """``item`` translated (context "Edits", where the state marks its texts), with the
    fields that are sentences themselves (a bad cell inside "row 2, column 3: …") and
    the matrix values (``CellValue``) written as the tables write them."""
    if isinstance(item, EditError):
        item = item.text
    if isinstance(item, Text):  # a field that is itself a sentence is said too
        write = _value_writer([a.value for a in item.args if isinstance(a, CellValue)])
        args = tuple(say(a) if isinstance(a, (Text, EditError))
                     else write(a.value) if isinstance(a, CellValue) else a
                     for a in item.args)
        return say_in(QCoreApplication.translate("Edits", item.template), args)  # marked texts
    return str(item)


def _value_writer(values: list[float]):
    """``format_value``, unless it writes two different values of one sentence alike
    ("0.1000 → 0.1000" for a typed 0.10001): then each value's shortest exact form,
    with the tables' minus sign, so an undo step never reads as if nothing changed."""
    if len({format_value(v) for v in values}) == len(set(values)):
        return format_value
    return lambda v: repr(float(v)).replace("-", MINUS)


def stale_note() -> str:
    """What a read-out of the shown result says while the table's values do not compute
    (``AttentionModel.compute_error``): its numbers are the last result's, not the
    table's (the Explain panel said "X[我, d1] = 0.1000" beside a table holding 1e200)."""
    return QCoreApplication.translate(
        "Stale", "These are the numbers of the last result that computed: the table's "
                 "values do not compute (the banner above the panes says why).")
