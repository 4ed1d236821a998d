"""Memory sizes as a reader wants them: 188,743,680 bytes is "180 MiB"."""

from __future__ import annotations

__all__ = ["format_bytes"]


def format_bytes(n: int) -> str:
    """1536 → "1.5 KiB": binary units (KiB = 1024 B), three significant figures.

    From 999.5 of a unit on, the next unit: three figures of 1000 MiB were written
    "1e+03 MiB" (a review); it is "0.977 GiB". Bytes are whole ("1023 B")."""
    value, unit = float(n), "B"
    for next_unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < (1024 if unit == "B" else 999.5):
            break
        value, unit = value / 1024, next_unit
    return f"{int(value)} B" if unit == "B" else f"{value:.3g} {unit}"
