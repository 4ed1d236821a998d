"""The stable softmax's shifted scores S − max(S): one catalogue entry, a pane hidden by default.

The pane's numbers are checked against NumPy on the tutorial's first example; the pane is
off until the View menu shows it, and it adds nothing to the data export or the figures.
"""

import io
from dataclasses import replace

import numpy as np

from qkv_desktop.core.presets import get_preset
from qkv_desktop.export.data_export import npz_bytes
from qkv_desktop.export.pane_figures import pane_specs
from qkv_desktop.presentation.cell_text import describe_cell
from qkv_desktop.state import CellRef, SessionState
from qkv_desktop.state.compute import compute


def _numpy_shifted(state: SessionState) -> np.ndarray:
    """(X W_Q)(X W_K)ᵀ / √d_k minus each row's maximum, straight from the preset."""
    w = state.heads[0]
    Q, K = state.X @ w.W_Q, state.X @ w.W_K
    S = Q @ K.T / np.sqrt(state.d_k)
    return S - S.max(axis=1, keepdims=True)


def test_the_pane_is_hidden_until_the_view_menu_shows_it(main_window):
    window = main_window
    preset = get_preset("tutorial-1")
    assert window.model.state.tokens == tuple(preset.tokens)
    pane, action = window.panes.panes["S_shift"], window.pane_actions["S_shift"]
    assert "S_shift" not in window.panes.shown() and not action.isChecked()
    assert not pane.isVisible()
    try:
        action.trigger()  # View → shifted scores
        assert "S_shift" in window.panes.shown() and pane.isVisible()
        values = pane.image.image
        expected = _numpy_shifted(window.model.state)
        np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)
        assert np.all(values.max(axis=1) == 0)  # the row maximum itself: exactly 0
        assert np.all(values <= 0)
        assert "S − max(S)" in action.text()  # the View menu names it by its title
        window.model.set_selection(CellRef("S_shift", 1, 0))
        explained = window.teaching.explain.html()  # its own sentence, not a weight's making
        assert "S_shift[" in explained and "w[" not in explained
    finally:
        window._on_reset_layout()
    assert "S_shift" not in window.panes.shown() and not action.isChecked()


def test_masked_cells_stay_masked_and_the_cell_speaks_for_itself(qapp):
    state = SessionState.from_preset("tutorial-1")
    state = state.with_(options=replace(state.options, causal=True))
    result = compute(state)
    S = result.matrix("S_shift")
    scaled = result.head().scaled
    assert np.array_equal(np.isneginf(S), np.isneginf(scaled))
    finite = np.isfinite(scaled)
    top = np.where(finite, scaled, -np.inf).max(axis=1, keepdims=True)
    np.testing.assert_allclose(S[finite], (scaled - top)[finite], rtol=0, atol=0)
    text = describe_cell(result, CellRef("S_shift", 1, 0))
    assert text.startswith("S_shift[") and "max" in text and "w[" not in text


def test_not_in_the_data_export_or_the_standard_figures(qapp):
    result = compute(SessionState.from_preset("tutorial-1"))
    keys = np.load(io.BytesIO(npz_bytes(result)), allow_pickle=False).files
    assert "S_shift" not in keys
    names = [spec.name for spec in pane_specs(result)]
    assert len(names) == 8 and "s_shift" not in names
