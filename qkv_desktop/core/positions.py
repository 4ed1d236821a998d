"""Where a token sits: rotary position embeddings (RoPE).

Attention by itself is blind to word order. RoPE (Su et al., 2021) tells it by turning
each pair of dimensions of every query and key by an angle that grows with the token's
position, so that the score q·k of two rotated vectors depends only on how far apart
the two tokens are. Which dimensions form a pair is a layout convention:

* ``pairing="half"`` pairs dimension i with i + d/2, as Hugging Face's LLaMA code does
  (``rotate_half``);
* ``pairing="interleaved"`` pairs 2i with 2i + 1, as GPT-J and llama.cpp do.

Pair i turns by ``position · base^(−2i/d)`` in both conventions.

The original Transformer (Vaswani et al., 2017) told it differently: it adds a fixed
table of sines and cosines to the token vectors before the projections
(``sinusoidal_positions``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["ROPE_PAIRINGS", "rope", "rope_angles", "sinusoidal_positions"]

ROPE_PAIRINGS = ("half", "interleaved")


def rope_angles(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """The angles (n × d/2, float64, radians): row m, column i is m · base^(−2i/d)."""
    if isinstance(d, bool) or int(d) != d or d < 2 or d % 2:
        raise ValueError(f"RoPE needs an even number of dimensions ≥ 2, got {d}")
    if isinstance(base, bool) or not (np.isfinite(base) and base > 0):
        raise ValueError(f"the RoPE base must be a positive finite number, got {base!r}")
    pos = np.asarray(positions)
    if pos.ndim != 1 or pos.dtype.kind not in "fiu":
        raise ValueError(f"positions must be a 1-D array of numbers, got shape {pos.shape}")
    pos = pos.astype(np.float64)
    if not np.isfinite(pos).all():
        raise ValueError("positions must be finite")
    inv_freq = float(base) ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    return pos[:, None] * inv_freq[None, :]


def rope(x, positions, *, base: float = 10000.0, pairing: str = "half") -> np.ndarray:
    """Rotate each pair of dimensions of every row of ``x`` by its position's angle.

    Parameters
    ----------
    x : array (n, d), d even
        Queries or keys, one row per token.
    positions : array (n,)
        The position of each row (usually 0 … n−1).
    base : float
        The wavelength base: pair i turns by ``position · base^(−2i/d)``.
    pairing : {"half", "interleaved"}
        Which dimensions rotate together: (i, i + d/2) or (2i, 2i + 1).

    A pair (a, b) becomes (a·cos θ − b·sin θ, b·cos θ + a·sin θ). float32 input stays
    float32 (the angles are computed in float64, then rounded once); anything else is
    computed in float64. Returns a new array.
    """
    if pairing not in ROPE_PAIRINGS:
        raise ValueError(f"pairing must be 'half' or 'interleaved', got {pairing!r}")
    a = np.asarray(x)
    if a.ndim != 2 or a.dtype.kind not in "fiu":
        raise ValueError(f"x must be a 2-D numeric array (n × d), got shape {a.shape}")
    dtype = np.float32 if a.dtype == np.float32 else np.float64
    a = a.astype(dtype, copy=False)
    n, d = a.shape
    angles = rope_angles(positions, d, base)
    if angles.shape[0] != n:
        raise ValueError(f"{len(angles)} positions for {n} rows")
    cos, sin = np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)
    out = np.empty_like(a)
    if pairing == "half":
        first, second = slice(0, d // 2), slice(d // 2, d)
    else:
        first, second = slice(0, d, 2), slice(1, d, 2)
    x1, x2 = a[:, first], a[:, second]
    out[:, first] = x1 * cos - x2 * sin
    out[:, second] = x2 * cos + x1 * sin
    return out


def sinusoidal_positions(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    """The original Transformer's position table (n × d, float64, read-only).

    Row ``pos``, column 2i is ``sin(pos / base^(2i/d))`` and column 2i + 1 is
    ``cos(pos / base^(2i/d))``: each pair of columns is one frequency, from a full turn
    every 2π tokens (i = 0) down to one every 2π·base tokens. An odd ``d`` ends with a
    sine column of its own. Tables are kept for the last few shapes: every edit of a
    session recomputes attention with the same n and d.
    """
    for name, v in (("n", n), ("d", d)):
        if isinstance(v, bool) or int(v) != v or v < (0 if name == "n" else 1):
            raise ValueError(f"{name} must be a {'non-negative' if name == 'n' else 'positive'} "
                             f"integer, got {v!r}")
    if isinstance(base, bool) or not (np.isfinite(base) and base > 0):
        raise ValueError(f"the base must be a positive finite number, got {base!r}")
    return _table(int(n), int(d), float(base))


@lru_cache(maxsize=8)
def _table(n: int, d: int, base: float) -> np.ndarray:
    angles = (np.arange(n, dtype=np.float64)[:, None]
              / base ** (np.arange(0, d, 2, dtype=np.float64) / d)[None, :])
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles[:, : d // 2])
    table.flags.writeable = False
    return table
