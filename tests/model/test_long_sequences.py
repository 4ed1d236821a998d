"""Issue 20, long sequences: a float32 session may attend over 8192 tokens (the length
real decoder models read), four times the float64 cap, because each attention cell
takes half the bytes (measured peak 1.9 GB RSS at n = 8192, d_model = 768 in the
window: ``tests/benchmarks/bench_process.py memory``). float64 keeps 4096."""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.io.session import load_session, save_session
from qkv_desktop.state import SessionState, edits
from qkv_desktop.state.session_state import (
    MAX_CELLS,
    MAX_TOKENS,
    MAX_TOKENS_FLOAT32,
    Options,
    check_size,
)

N = MAX_TOKENS_FLOAT32


def _long_state(dtype: str, n: int = N) -> SessionState:
    X = np.random.default_rng(0).standard_normal((n, 4)).round(3)
    return SessionState.initialised([f"t{i}" for i in range(n)], X, d_k=2,
                                    options=Options(dtype=dtype))


def test_float32_attends_over_8192_tokens_float64_over_4096():
    assert (MAX_TOKENS, N) == (4096, 8192)
    check_size(N, N, 768, 64, 1, dtype="float32")
    with pytest.raises(ValueError, match="in float64; in float32 up to"):
        check_size(N, N, 768, 64, 1)
    with pytest.raises(ValueError, match="attention cells"):
        check_size(N + 1, N, 8, 4, 1, dtype="float32")
    with pytest.raises(ValueError, match="attention cells"):
        check_size(N // 2, N // 2, 8, 4, 5, dtype="float32")
    with pytest.raises(ValueError, match="d_model"):  # other matrices keep MAX_CELLS
        check_size(N, N, MAX_CELLS // N + 1, 4, 1, dtype="float32")
    assert _long_state("float32").n == N
    with pytest.raises(ValueError, match="attention cells"):
        _long_state("float64")


def test_a_long_float32_session_round_trips_through_its_file(tmp_path):
    state = _long_state("float32")
    save_session(state, tmp_path / "long.qkv.json")
    assert load_session(tmp_path / "long.qkv.json").state.equals(state)


def test_switching_a_long_session_to_float64_is_refused_with_a_reason():
    state = _long_state("float32", MAX_TOKENS + 1)
    with pytest.raises(edits.EditError) as refused:
        edits.set_options(state, dtype="float64")
    assert "in float64; in float32 up to" in str(refused.value)
    assert edits.set_options(state, window=3).state.options.dtype == "float32"
