"""The catalogue of a session's matrices: what a cell reference names."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CellRef"]


@dataclass(frozen=True)
class CellRef:
    """A cell of a named matrix (``"X"``, ``"Q"``, ``"weights"``…) of one head."""

    matrix: str
    row: int
    col: int
    head: int = 0
