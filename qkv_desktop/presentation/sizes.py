"""Memory sizes as a reader wants them: 188,743,680 bytes is "180 MiB"."""

from __future__ import annotations

__all__ = ["format_bytes"]


def format_bytes(n: int) -> str:
    """1536 → "1.5 KiB": binary units (KiB = 1024 B), three significant figures."""
    value, unit = float(n), "B"
    for next_unit in ("KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < 1024:
            break
        value, unit = value / 1024, next_unit
    return f"{int(value)} B" if unit == "B" else f"{value:.3g} {unit}"
