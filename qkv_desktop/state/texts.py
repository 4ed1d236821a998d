"""Sentences for the user from Qt-free code: an English template, translated by Qt later.

The state layer cannot import Qt, so it marks its texts with ``QT_TRANSLATE_NOOP``
(lupdate reads the name in the source) and raises ``EditError`` carrying the
template and its fields; the model translates them (context ``"Edits"``) before a
view shows them. A list in a sentence is a ``Listed`` field: ``say`` joins it as the
interface language writes a list ("a, b, c"; in Chinese "a、b、c").
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["QT_TRANSLATE_NOOP", "Text", "CellValue", "Listed", "EditError", "said_by",
           "say_in"]


def QT_TRANSLATE_NOOP(context: str, template: str) -> str:  # noqa: N802 -- Qt's name
    """Marks ``template`` for lupdate without importing Qt; the Qt layer translates it."""
    return template


@dataclass(frozen=True)
class Text:
    """A sentence for the user: an English ``template`` with ``{0}``-style fields.

    ``context`` is the one its ``QT_TRANSLATE_NOOP`` names: "Edits" for the state's
    texts, "Files" for the messages of the file readers (``io``).
    """

    template: str
    args: tuple = ()
    context: str = "Edits"
    count: int | None = None
    """The number of a plural template ("Train %n steps"): it fills ``%n`` and picks the
    translation's plural form, as ``tr(template, "", count)`` does (an undo step's text
    said again in a new language keeps its number and its grammar)."""

    def __str__(self) -> str:
        template = self.template
        if self.count is not None:
            template = template.replace("%n", str(self.count))
        return say_in(template, self.args)


@dataclass(frozen=True)
class CellValue:
    """A matrix value in a sentence (an undo text's ``0.8000 → 0.9000``).

    The state layer cannot write it as the tables do: that rule (four decimals, a
    typographic minus) is the presentation layer's ``format_value``, which ``say``
    applies to these fields, so the Edit menu reads what the cell reads. ``str()``,
    for Qt-free code (scripts, tests), is Python's shortest exact form.
    """

    value: float

    def __str__(self) -> str:
        return repr(float(self.value))


@dataclass(frozen=True)
class Listed:
    """A list of items in a sentence ("one of sqrt_dk, none, custom").

    The state layer does not know the interface language, and Chinese joins the items
    of a list with "、" and clauses with "；", not ", " and "; ": ``say`` joins them
    (``join_list``, or ``join_clauses`` when ``clauses``). ``str()``, for Qt-free code,
    is the English. An item may itself be a ``Text`` (said too) or a ``CellValue``.
    """

    items: tuple
    clauses: bool = False

    def __init__(self, items, clauses: bool = False):
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "clauses", clauses)

    def __str__(self) -> str:
        return ("; " if self.clauses else ", ").join(str(item) for item in self.items)


def said_by(item) -> Text | None:
    """The ``Text`` an error carries for the user (``EditError``, ``io``'s
    ``FileFormatError`` and ``CheckpointError``: their ``text``), or ``None``."""
    text = getattr(item, "text", None) if isinstance(item, BaseException) else None
    return text if isinstance(text, Text) else None


class EditError(ValueError):
    """An edit that cannot be made; ``text`` says why (``str()`` is the English)."""

    def __init__(self, template: str, *args):
        self.text = Text(template, args)
        super().__init__(str(self.text))


def say_in(template: str, args: tuple) -> str:
    """``template`` with its fields filled; a sentence without fields is taken as it is
    (it may hold braces the user typed, as in "'{x}' is not a number")."""
    return template.format(*args) if args else template
