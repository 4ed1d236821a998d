"""Which heads of a session share their keys and values (grouped-query attention).

In grouped-query attention (GQA) several query heads read the same key/value head.
A session loaded from such a model holds each query head with a copy of its group's
W_K and W_V, so the grouping is read off the data itself: heads whose key and value
weights are bit-identical form a group. Editing one head's W_K splits it from its
group, and the overview says so, because that head no longer shares.
"""

from __future__ import annotations

from dataclasses import dataclass

from qkv_desktop.state.session_state import SessionState

__all__ = ["HeadGroups", "head_groups"]


@dataclass(frozen=True)
class HeadGroups:
    """The key/value groups of a session's heads and what sharing saves.

    ``groups`` lists the heads (0-based) of each group, in order of first head.
    ``params_*`` count W_Q, W_K, W_V (and W_O when present) of this one attention
    layer with the groups shared (GQA) or with every head its own (MHA);
    ``kv_values_*`` are the cached key and value numbers per token.
    """

    groups: tuple[tuple[int, ...], ...]
    params_gqa: int
    params_mha: int
    kv_values_gqa: int
    kv_values_mha: int

    @property
    def shared(self) -> bool:
        """True when at least two heads share their keys and values."""
        return len(self.groups) < sum(len(g) for g in self.groups)

    def group_of(self, head: int) -> int:
        return next(i for i, g in enumerate(self.groups) if head in g)


def _kv_key(w) -> bytes:
    parts = [w.W_K, w.W_V, w.b_K, w.b_V]
    return b"|".join(b"-" if a is None else a.dtype.str.encode() + a.tobytes() for a in parts)


def head_groups(state: SessionState) -> HeadGroups:
    """Group ``state``'s heads by identical key/value weights (see the module notes)."""
    found: dict[bytes, list[int]] = {}
    for h, w in enumerate(state.heads):
        found.setdefault(_kv_key(w), []).append(h)
    groups = tuple(tuple(g) for g in found.values())
    d, d_k, h, g = state.d_model, state.d_k, state.n_heads, len(groups)
    out = 0 if state.W_O is None else state.W_O.size
    return HeadGroups(groups, d * d_k * (h + 2 * g) + out, 3 * d * d_k * h + out,
                      2 * g * d_k, 2 * h * d_k)
