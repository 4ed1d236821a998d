"""The tutorial's example sentences and seeded random examples, as plain data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Preset", "PRESETS", "get_preset"]


@dataclass(frozen=True)
class Preset:
    """Tokens, their vectors, and how the weights are initialised."""

    name: str
    tokens: tuple[str, ...]
    X: np.ndarray
    d_k: int
    seed: int
    scale: float


def _random(name: str, n: int, d_model: int, d_k: int, seed: int) -> Preset:
    rng = np.random.RandomState(seed)
    tokens = tuple(f"t{i}" for i in range(n))
    return Preset(name, tokens, np.round(rng.randn(n, d_model), 2), d_k, seed, 0.5)


PRESETS: dict[str, Preset] = {
    "tutorial-1": Preset(
        "tutorial-1", ("我", "爱", "人工", "智能"),
        np.array([
            [0.8, 0.1, 0.3, 0.2, 0.5, 0.1, 0.0, 0.4],
            [0.1, 0.9, 0.2, 0.1, 0.3, 0.6, 0.2, 0.1],
            [0.3, 0.2, 0.8, 0.4, 0.1, 0.2, 0.5, 0.3],
            [0.1, 0.1, 0.3, 0.9, 0.2, 0.1, 0.4, 0.6],
        ]), d_k=4, seed=42, scale=0.1),
    "tutorial-2": Preset(
        "tutorial-2", ("猫", "追", "老鼠"),
        np.array([
            [0.9, 0.1, 0.2, 0.1, 0.3, 0.1],
            [0.2, 0.8, 0.3, 0.1, 0.5, 0.2],
            [0.1, 0.2, 0.9, 0.1, 0.1, 0.3],
        ]), d_k=3, seed=123, scale=0.5),
    "random-small": _random("random-small", 5, 8, 4, 7),
    "random-medium": _random("random-medium", 12, 16, 8, 11),
}


def get_preset(name: str) -> Preset:
    """The preset called ``name``; ``ValueError`` lists the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; choose one of: "
                         + ", ".join(PRESETS)) from None
