"""Ideas that had several implementations now have one (issue 16): the head clamp,
the entropy of a row of weights, the number rule of cells and imports, the format
checks of render and data export. Each test pins the shared behaviour, no Qt."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import qkv_desktop.io.imports as imports
from qkv_desktop.core import Weights, attention
from qkv_desktop.core.lessons import row_stats, row_uniformity
from qkv_desktop.core.softmax import row_entropy, softmax
from qkv_desktop.export.data_export import check_data_formats
from qkv_desktop.export.render import check_formats
from qkv_desktop.state.compute import compute
from qkv_desktop.state.parsing import NUMBER, ParseError, parse_number
from qkv_desktop.state.session_state import SessionState


def test_one_head_clamp_for_state_result_and_views():
    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=2, d_k=4)
    assert [state.head_index(h) for h in (-3, 0, 1, 7)] == [0, 0, 1, 1]
    result = compute(state)
    assert result.head(7) is result.heads[1] and result.head(-1) is result.heads[0]
    np.testing.assert_array_equal(result.matrix("W_Q", 9), state.heads[1].W_Q)


def test_one_entropy_formula_for_the_naive_softmax_and_the_uniformity_read_out():
    p = np.array([[0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0], [np.nan, 0.5, 0.5, 0.0]])
    e = row_entropy(p)
    np.testing.assert_allclose(e[:2], [np.log(4), 0.0], rtol=0, atol=1e-15)
    assert np.isnan(e[2])
    scaled = np.log(np.array([[1.0, 2.0, 3.0], [5.0, 1.0, 1.0]]))
    weights = softmax(scaled)
    np.testing.assert_array_equal(row_uniformity(scaled, weights).entropy,
                                  row_entropy(weights))
    naive = attention(np.eye(3) * 30, Weights(np.eye(3), np.eye(3), np.eye(3)),
                                stable=False)
    np.testing.assert_array_equal(naive.entropy, row_entropy(naive.weights))
    # The scaling lab's row statistics, of one score row (1-D) or several (2-D).
    for scores in (np.array([2.0, 1.5, 0.5, -0.5, -1.0]), np.array([[3.0, -1e3], [0, 0]])):
        stats = row_stats(scores, 2.0)
        np.testing.assert_array_equal(stats.entropy, row_entropy(stats.weights))
    np.testing.assert_allclose(row_stats(np.zeros(4)).entropy, np.log(4), rtol=1e-15)


def test_one_number_rule_for_typed_cells_and_imported_files():
    assert imports.NUMBER is NUMBER  # io.imports has no pattern of its own
    for text in ("1.5", "-2e3", ".5", "+7."):
        assert NUMBER.fullmatch(text) and parse_number(text)[0] == float(text)
    for text in ("1_0", "١٢", "0x10", "nan"):
        assert not NUMBER.fullmatch(text)
        with pytest.raises(ParseError):
            parse_number(text)


@pytest.mark.parametrize("check, known, what", [(check_formats, ("png", "svg", "pdf"), "image"),
                                                 (check_data_formats, ("csv", "npy", "npz",
                                                                       "json"), "data")])
def test_one_format_check_for_figures_and_data(check, known, what):
    assert check([f" {known[1].upper()}", known[0], known[1]]) == (known[1], known[0])
    assert check(known[0]) == (known[0],)
    with pytest.raises(ValueError, match=f"unsupported {what} format 'gif'; choose from: "
                                         + ", ".join(known)):
        check(["gif"])
    with pytest.raises(ValueError, match=f"no {what} format given"):
        check([])


def test_one_mapping_of_the_options_to_the_core_for_compute_and_the_labs():
    from qkv_desktop.state.core_options import core_dtype, core_options
    from qkv_desktop.state.lab_inputs import head_inputs

    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=2, d_k=4)
    state = state.with_(options=dataclasses.replace(
        state.options, causal=True, temperature=0.5, dtype="float32"))
    shared = core_options(state)
    assert shared["causal"] is True and shared["temperature"] == 0.5
    inputs = head_inputs(state, 1)
    assert {k: v for k, v in inputs.options.items() if k in shared} == shared
    assert set(inputs.options) - set(shared) == {"X_kv", "alibi_slope"}
    assert inputs.X.dtype == core_dtype(state.options) == np.float32
    result = compute(state)
    np.testing.assert_array_equal(
        result.heads[1].weights,
        attention(inputs.X, inputs.weights, **inputs.options).weights)
