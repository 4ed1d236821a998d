"""The matrix and option catalogues: one entry each, and everything else follows.

Qt-free: the catalogue, ``compute`` and the session format run without a QApplication.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace

import numpy as np
import pytest

from qkv_desktop.core.weights import Weights
from qkv_desktop.export.data_export import NPZ_KEYS, labelled_matrices
from qkv_desktop.io import session
from qkv_desktop.state.catalogue import (
    HEAD_EXPORT,
    HEAD_INDEPENDENT,
    MATRICES,
    NM_MATRICES,
    UNIT_RANGE,
    WEIGHT_NAMES,
    CellRef,
    axis_labels,
    cell_in,
    matrix_shape,
)
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import OPTION_KEYS, Options, SessionState, option_field


def sessions() -> dict[str, SessionState]:
    base = SessionState.from_preset("tutorial-1")
    multi = base.reinitialised(n_heads=2, d_k=3, with_output=True)
    rng = np.random.RandomState(3)
    cross = multi.with_(mode="cross", kv_tokens=("a", "b", "c", "d", "e", "f"),
                        X_kv=rng.rand(6, base.d_model))
    rope = cross.reinitialised(d_k=2, options=replace(base.options, positions="rope"))
    return {"single": base, "multi": multi, "cross": cross, "rope": rope}


@pytest.mark.parametrize("name", ["single", "multi", "cross", "rope"])
def test_every_catalogue_shape_is_the_shape_compute_produces(name):
    state = sessions()[name]
    result = compute(state)
    for spec in MATRICES:
        for h in range(state.n_heads):
            value = result.matrix(spec.name, h)
            if value is None:  # e.g. no X_kv in self-attention, no W_O
                continue
            assert value.shape == matrix_shape(state, spec.name), (spec.name, h)
            rows, cols = axis_labels(state, spec.rows), axis_labels(state, spec.cols)
            assert (len(rows), len(cols)) == value.shape, spec.name
    if name != "single":
        assert result.matrix("projected") is not None


@pytest.mark.parametrize("positions", ["rope", "sinusoidal"])
def test_per_head_entries_differ_between_heads_and_the_others_do_not(positions):
    state = sessions()["cross"]
    state = state.reinitialised(d_k=2).with_(options=replace(
        state.options, positions=positions, window=4, alibi=(0.5, 0.25)))
    result = compute(state)
    for spec in MATRICES:
        if spec.present is not None and not spec.present(state):
            assert result.matrix(spec.name, 0) is None, spec.name
            continue
        a, b = result.matrix(spec.name, 0), result.matrix(spec.name, 1)
        if a is None and b is None:  # Q_rope without RoPE, X_pos without sinusoidal
            assert not spec.present(state), spec.name
            continue
        assert (spec.name in HEAD_INDEPENDENT) == (a is b or np.array_equal(a, b)), spec.name


@pytest.mark.parametrize("name", ["single", "multi", "cross", "rope"])
def test_a_unit_range_matrix_is_in_0_1_and_drawn_and_labelled_so(name):
    """The one fact, on the catalogue: the weights and the mask are in [0, 1], so they
    take the fixed [0, 1] colour scale and no room for a minus sign in their labels;
    every other matrix may hold negatives (the colour maps and the pane facts repeated
    the two names each)."""
    from qkv_desktop.presentation.colormaps import SEQUENTIAL_MATRICES, levels_for
    from qkv_desktop.presentation.pane_info import values_may_be_negative
    state = sessions()[name].with_(options=replace(sessions()[name].options, causal=True))
    result = compute(state)
    assert UNIT_RANGE == {"weights", "mask"}
    assert SEQUENTIAL_MATRICES is UNIT_RANGE
    for spec in MATRICES:
        assert values_may_be_negative(spec.name) == (spec.name not in UNIT_RANGE)
        value = result.matrix(spec.name, 0)
        if spec.name in UNIT_RANGE and value is not None:
            finite = value[np.isfinite(value)]
            assert ((finite >= 0) & (finite <= 1)).all(), spec.name
            assert levels_for(spec.name, value) == (0.0, 1.0)


def test_cell_in_checks_head_row_and_column_against_the_state():
    state = sessions()["multi"]  # n = 4, d_model = 4, d_k = 3, two heads
    assert cell_in(state, CellRef("weights", 3, 3, 1))
    assert not cell_in(state, CellRef("weights", 4, 0))
    assert not cell_in(state, CellRef("Q", 0, 3))
    assert cell_in(state, CellRef("concat", 0, 5))
    assert not cell_in(state, CellRef("Q", 0, 0, head=2))
    assert not cell_in(state, CellRef("nonsense", 0, 0))


def test_the_derived_sets_name_the_matrices_they_did():
    assert WEIGHT_NAMES == ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V")
    assert WEIGHT_NAMES == tuple(f.name for f in fields(Weights))
    # the attention stages in order (an entry added later, such as a pane hidden by
    # default, may join them)
    assert [m for m in NM_MATRICES if m in ("scores", "mask", "bias", "scaled", "weights")] == [
        "scores", "mask", "bias", "scaled", "weights"]
    assert HEAD_EXPORT == ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores", "scaled",
                           "weights", "output")
    assert NPZ_KEYS == ("tokens", *HEAD_EXPORT)
    assert HEAD_INDEPENDENT == {"X", "X_kv", "X_pos", "mask", "concat", "W_O", "projected"}


def test_data_export_labels_come_from_the_label_kinds():
    state = sessions()["cross"]
    mats = labelled_matrices(compute(state), 1)
    assert mats["K"].row_labels == list(state.kv_tokens)
    assert mats["scores"].col_labels == list(state.kv_tokens)
    assert mats["W_Q"].row_labels == [f"d{i}" for i in range(state.d_model)]
    assert mats["W_Q"].corner == "dim" and mats["Q"].corner == "token"


def test_session_option_keys_are_the_fields_of_options():
    assert OPTION_KEYS == tuple(f.name for f in fields(Options))
    doc = json.loads(session.session_to_json(sessions()["single"]))
    assert tuple(doc["options"]) == OPTION_KEYS


@dataclass(frozen=True)
class _WithWindow(Options):
    """An Options with one more field, as a future option (e.g. a mask flag) would add."""

    windowed: bool = option_field(False, "flag", name="windowed")


def test_a_new_option_field_is_saved_loaded_and_validated_without_other_changes(monkeypatch):
    monkeypatch.setattr(session, "Options", _WithWindow)
    state = sessions()["single"].with_(options=_WithWindow(windowed=True, causal=True))
    text = session.session_to_json(state)
    assert json.loads(text)["options"]["windowed"] is True
    loaded = session.parse_session(json.loads(text), "s.qkv.json").state
    assert loaded.options == _WithWindow(windowed=True, causal=True)
    doc = json.loads(text)
    doc["options"]["windowed"] = "yes"
    with pytest.raises(session.SessionError, match=r'windowed \(options.windowed\) is "yes", expected true'):
        session.parse_session(doc, "s.qkv.json")
