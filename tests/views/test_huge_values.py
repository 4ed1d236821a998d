"""Issue 19, finding 1: finite values near the float64 limit never crash a paint.

Symmetric colour levels ±m span 2m, which is infinite once m ≥ 8.99e307; pyqtgraph
segfaulted painting a colour-bar axis of infinite span. The levels are clamped in
``presentation.colormaps`` (shared by panes and figures), so every such session paints.
The window runs in a subprocess: on the old code the process died with SIGSEGV.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.core import Weights
from qkv_desktop.io.session import save_session
from qkv_desktop.presentation.colormaps import (
    MAX_LEVEL,
    clip_to_levels,
    levels_for,
    map_to_rgba,
    symmetric_levels,
)
from qkv_desktop.state import SessionState

REPO_ROOT = Path(__file__).resolve().parents[2]
FLOAT_MAX = float(np.finfo(np.float64).max)


def _one_cell(value: float) -> SessionState:
    s = SessionState.from_preset("tutorial-1")
    X = s.X.copy()
    X[1, 2] = value
    return s.with_(X=X)


def _scores_at_the_limit() -> SessionState:
    """X = 6e153 with identity weights: the scores reach 1.44e308, X itself is modest."""
    eye = np.eye(4)
    return SessionState(("a", "b", "c"), np.full((3, 4), 6e153), (Weights(eye, eye, eye),))


CASES = {
    "one cell 9e307": lambda: _one_cell(9e307),
    "one cell -max": lambda: _one_cell(-FLOAT_MAX),
    "one cell +max": lambda: _one_cell(FLOAT_MAX),
    "scores 1.4e308": _scores_at_the_limit,
}


@pytest.mark.parametrize("value", [9e307, FLOAT_MAX, -FLOAT_MAX, 1e308])
def test_levels_have_a_finite_span(value):
    data = np.array([[value, 1.0], [-3.0, 0.0]])
    lo, hi = levels_for("X", data)
    assert np.isfinite(hi - lo) and hi == MAX_LEVEL and lo == -MAX_LEVEL
    with np.errstate(all="raise"):  # no overflow anywhere on the way to colours
        rgba = map_to_rgba(data, np.zeros((256, 4), np.uint8), (lo, hi))
        clipped = clip_to_levels(data, (lo, hi))
    assert rgba.shape == (2, 2, 4)
    assert np.isfinite(clipped.max() - clipped.min())


def test_symmetric_levels_of_nothing_are_unit():
    assert symmetric_levels(0.0) == (-1.0, 1.0)
    assert symmetric_levels(2.5) == (-2.5, 2.5)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_window_paints_values_at_the_float64_limit(case, tmp_path):
    session = tmp_path / "huge.qkv.json"
    save_session(CASES[case](), session)
    shot = tmp_path / "shot.png"
    env = dict(os.environ, HOME=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "qkv_desktop", str(session), "--screenshot", str(shot),
         "--size", "1200x800"], cwd=REPO_ROOT, env=env, capture_output=True, text=True,
        timeout=120)
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-2000:]}"
    assert shot.stat().st_size > 10_000
    assert "RuntimeWarning" not in proc.stderr, proc.stderr


def test_typing_the_limit_into_a_cell_paints(main_window, qtbot):
    """The edit path (not a file): a typed 9e307 and then the float maximum repaint.
    Their scores pass float64's largest number: the status bar says so, and the panes
    keep the last result (never an overflowed −inf drawn as a masked cell)."""
    from tests.views.helpers import type_into_cell
    window = main_window
    for text in ("9e307", "1.7976931348623157e308", "-1.7976931348623157e308"):
        type_into_cell(window.editor, 0, 0, text)
        window.model.wait_until_idle()
        assert "overflow" in window.model.compute_error
        window.grab()  # paints every pane now, with the colour bars' axes
        bar = window.panes.panes["X"].colorbar
        assert np.isfinite(bar.levels[1] - bar.levels[0])
    assert window.model.state.X[0, 0] == -FLOAT_MAX


def test_render_of_an_overflowing_session_prints_no_warnings(tmp_path):
    """Also from issue 19: a successful render says nothing on stderr (no NumPy warnings)."""
    session = tmp_path / "over.qkv.json"
    state = _scores_at_the_limit()
    from dataclasses import replace
    save_session(state.with_(options=replace(state.options, stable=False)), session)
    proc = subprocess.run(
        [sys.executable, "-m", "qkv_desktop", "render", str(session), "--out",
         str(tmp_path / "out")], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
