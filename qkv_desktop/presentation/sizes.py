"""Memory sizes as a reader wants them: 188,743,680 bytes is "180 MiB"."""

from __future__ import annotations

__all__ = ["format_byte_count", "format_bytes"]


def format_bytes(n: int) -> str:
    """1536 → "1.5 KiB": binary units (KiB = 1024 B), three significant figures.

    From 999.5 of a unit on, the next unit: three figures of 1000 MiB were written
    "1e+03 MiB" (a review); it is "0.977 GiB". Bytes are whole ("1023 B")."""
    value, unit = float(n), "B"
    for next_unit in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"):
        if value < (1024 if unit == "B" else 999.5):
            break
        value, unit = value / 1024, next_unit
    return f"{int(value)} B" if unit == "B" else f"{value:.3g} {unit}"


_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_byte_count(n: int, max_chars: int) -> str:
    """``n`` bytes as a whole number with thousands separators ("10,726,621,102"), or,
    when that takes more than ``max_chars`` characters, to three figures in powers of
    ten ("≈ 8.05 × 10¹⁸"): a column made for the one, and cut on the right, read
    "8,053,063,6" for 8,053,063,680,000,000,000 (a first-time user)."""
    exact = f"{n:,}"
    if len(exact) <= max_chars:
        return exact
    mantissa, exponent = f"{n:.2e}".split("e")
    return f"≈ {mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPTS)}"
