"""The one check of a requested list of output formats (figures and data alike)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["check_choices"]


def check_choices(formats: str | Iterable[str], known: tuple[str, ...],
                  what: str) -> tuple[str, ...]:
    """``formats`` (one name or several) as a tuple of ``known`` names, lower case and
    without duplicates; ``ValueError`` names an unknown ``what`` format, or says that
    none was given."""
    items = (formats,) if isinstance(formats, str) else tuple(formats)
    out: list[str] = []
    for f in items:
        name = f.strip().lower() if isinstance(f, str) else None
        if name not in known:
            raise ValueError(f"unsupported {what} format {f!r}; choose from: "
                             f"{', '.join(known)}")
        if name not in out:
            out.append(name)
    if not out:
        raise ValueError(f"no {what} format given; choose from: " + ", ".join(known))
    return tuple(out)
