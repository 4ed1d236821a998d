"""Issue 19, findings 2 and 3: the head count and token names are capped at input.

65,000 heads (d_k = 1) fitted the cell limit but took gigabytes and minutes to paint,
and a 10 MB token name made ``render`` spend two minutes eliding one label. Both are
now refused where a file enters, with the limit in the message, before any array is
built; ``SessionState`` itself refuses them for every other path.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from qkv_desktop.io import session as session_module
from qkv_desktop.io.imports import ImportFileError, import_vectors, import_weights
from qkv_desktop.io.session import SessionError, load_session
from qkv_desktop.state import SessionState
from qkv_desktop.state.session_state import MAX_HEADS, MAX_TOKEN_LENGTH


def session_text(n_heads: int, d_model: int = 2, d_k: int = 1, token: str = "a") -> str:
    """A version-2 session file with ``n_heads`` heads, written as text (no state built)."""
    head = {"W_Q": [[0.1] * d_k] * d_model, "W_K": [[0.2] * d_k] * d_model,
            "W_V": [[0.3] * d_k] * d_model}
    return json.dumps({"format": "qkv-desktop-session", "version": 2,
                       "tokens": [token, "b"], "X": [[1.0] * d_model, [2.0] * d_model],
                       "d_k": d_k, "heads": [head] * n_heads})


def test_a_session_of_65000_heads_is_refused_before_any_head_is_built(tmp_path, monkeypatch):
    path = tmp_path / "heads.qkv.json"
    path.write_text(session_text(65_000))
    assert path.stat().st_size > 3_000_000

    def no_head_built(*_args):
        raise AssertionError("a head was built before the head count was checked")

    monkeypatch.setattr(session_module, "_head", no_head_built)
    with pytest.raises(SessionError, match=f"65,000 heads are more than the {MAX_HEADS}"):
        load_session(path)


def test_the_cap_itself_loads_and_one_more_does_not(tmp_path):
    path = tmp_path / "cap.qkv.json"
    path.write_text(session_text(MAX_HEADS))
    assert load_session(path).state.n_heads == MAX_HEADS
    path.write_text(session_text(MAX_HEADS + 1))
    with pytest.raises(SessionError, match="257 heads"):
        load_session(path)


def test_imported_weights_for_too_many_heads_are_refused(tmp_path):
    path = tmp_path / "many.npy"
    np.save(path, np.zeros((300, 3, 8, 4), np.float32))
    with pytest.raises(ImportFileError, match=f"300 heads are more than the {MAX_HEADS}"):
        import_weights(path, 8, 4)


def test_a_state_with_too_many_heads_is_refused():
    s = SessionState.from_preset("tutorial-1")
    with pytest.raises(ValueError, match="257 heads"):
        s.with_(heads=s.heads * (MAX_HEADS + 1))
    with pytest.raises(ValueError, match="257 heads"):
        s.reinitialised(n_heads=MAX_HEADS + 1, d_k=1)


def test_a_ten_megabyte_token_name_is_refused_on_load(tmp_path):
    path = tmp_path / "long.qkv.json"
    path.write_text(session_text(1, token="x" * 10_000_000))
    with pytest.raises(SessionError, match=f"tokens\\[0\\] has 10,000,000 characters; a token "
                                           f"name can have at most {MAX_TOKEN_LENGTH}"):
        load_session(path)


def test_the_longest_allowed_name_loads(tmp_path):
    path = tmp_path / "edge.qkv.json"
    path.write_text(session_text(1, token="y" * MAX_TOKEN_LENGTH))
    assert load_session(path).state.tokens[0] == "y" * MAX_TOKEN_LENGTH


def test_a_long_token_name_in_an_import_is_refused(tmp_path):
    path = tmp_path / "vectors.csv"
    path.write_text("ok,1,2\n" + "z" * 5000 + ",3,4\n")
    with pytest.raises(ImportFileError, match="line 2, column 1: the token name has 5,000 "
                                              "characters"):
        import_vectors(path)


def test_every_path_into_a_state_is_capped():
    s = SessionState.from_preset("tutorial-1")
    with pytest.raises(ValueError, match="at most 200"):
        s.with_(tokens=("q" * 201,) + s.tokens[1:])
    cross = s.with_(mode="cross", kv_tokens=("k",), X_kv=s.X[:1])
    with pytest.raises(ValueError, match="kv_tokens\\[0\\]"):
        cross.with_(kv_tokens=("k" * 1000,))
