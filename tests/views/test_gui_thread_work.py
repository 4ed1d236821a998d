"""What a large session leaves to the GUI thread (issue 20: it is never blocked by work
that grows with n²). Counted and recorded by thread, never timed."""

from __future__ import annotations

import threading

import numpy as np

from qkv_desktop.state import SessionState
from qkv_desktop.state.compute import ModelResult


def _state(n: int, d_model: int = 8, d_k: int = 4, **options) -> SessionState:
    rng = np.random.default_rng(3)
    from qkv_desktop.state.session_state import Options
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)), d_k=d_k,
                                    options=Options(**options))


def test_a_hidden_panes_title_does_not_make_its_matrix(make_window, monkeypatch):
    """The View menu names every pane after each edit; the hidden S − max(S) pane's name
    comes from the catalogue's shape, not from a new n × m matrix."""
    made = []
    real = ModelResult.shifted
    monkeypatch.setattr(ModelResult, "shifted", lambda self, h=0: made.append(
        threading.current_thread().name) or real(self, h))
    window = make_window(_state(64))
    assert "S_shift" not in window.panes.shown()
    made.clear()  # (the pane drew the first result while it was built, before the grid hid it)
    window.model.set_cell("X", 1, 2, 0.5)
    assert window.model.wait_until_idle()
    assert "(64×64)" in window.pane_actions["S_shift"].text()
    assert made == []


def test_the_x_table_reduces_its_matrix_once_per_edit(make_window, monkeypatch):
    """The column width (widest value) and the tints' levels both come from X's largest
    |value|, taken once per new X, by two reductions (no copy of |X|)."""
    from qkv_desktop.views.editors import matrix_table
    window = make_window(_state(64))
    window.editor.table.data(window.editor.table.value_index(0, 0),
                             matrix_table._BACKGROUND)  # tints in use: their levels count
    reduced = []
    real = matrix_table.max_abs_finite
    monkeypatch.setattr(matrix_table, "max_abs_finite",
                        lambda M: reduced.append(M.shape) or real(M))
    for k in range(3):
        window.model.set_cell("X", k, 1, 2.0 + k)
        assert window.model.wait_until_idle()
        window.editor.viewport().repaint()
    assert reduced == [(64, 8)] * 3
