"""Session files: bit-exact round trips, v1 migration, atomic saves, and a corpus of
bad files that must each be refused with a message naming the file and the problem."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qkv_desktop.core import Weights
from qkv_desktop.io import files, session
from qkv_desktop.io.session import (
    CURRENT_VERSION,
    LoadedSession,
    SessionError,
    load_session,
    parse_session,
    save_session,
    session_to_json,
)
from qkv_desktop.state.session_state import MAX_CELLS, MAX_TOKENS, Options, SessionState

HERE = Path(__file__).parent
BAD = HERE / "bad_sessions"

# file in bad_sessions/ → a phrase its error message must contain
BAD_CASES = {
    "empty.qkv.json": "the file is empty",
    "whitespace_only.qkv.json": "the file is empty",
    "truncated.qkv.json": "not valid JSON: Expecting value at line 13, column 25; the file "
                          "looks truncated",
    "not_json.qkv.json": "not valid JSON: Expecting value at line 1, column 1",
    "trailing_comma.qkv.json": "not valid JSON",
    "top_level_array.qkv.json": "the top level is a list, expected a JSON object",
    "top_level_number.qkv.json": "the top level is 42, expected a JSON object",
    "missing_format.qkv.json": 'has no "format" field',
    "unknown_format.qkv.json": 'unknown format "some-other-app"',
    "missing_version.qkv.json": 'has no "version" field',
    "future_version.qkv.json": "version 99 is newer than this app can read",
    "version_zero.qkv.json": "unknown version 0",
    "version_string.qkv.json": 'version is "2", expected an integer',
    "ragged_X.qkv.json": "X row 2 has 3 values, expected 4",
    "tokens_X_length_mismatch.qkv.json": "4 tokens but X has 3 rows",
    "X_not_a_list.qkv.json": 'X is "0.1 0.2 0.3 0.4", expected a list of rows',
    "X_empty.qkv.json": "X is empty",
    "X_row_not_a_list.qkv.json": "X[1] is 5, expected a row",
    "string_in_X.qkv.json": 'X[1][2] is "abc", expected a number',
    "numeric_string_in_X.qkv.json": 'X[0][0] is "0.1", expected a number',
    "string_in_weights.qkv.json": 'weights.W_Q[3][1] is "abc", expected a number',
    "nan_in_X.qkv.json": "X[1][3] is NaN; only finite numbers are allowed",
    "infinity_in_X.qkv.json": "X[0][0] is Infinity; only finite numbers are allowed",
    "negative_infinity_in_weights.qkv.json":
        "weights.W_V[1][0] is -Infinity; only finite numbers are allowed",
    "overflowing_float_in_X.qkv.json": "X[2][1] is 1e999; only finite numbers are allowed",
    "huge_integer_in_X.qkv.json":
        "X[0][0] is an integer of 401 digits; only finite numbers are allowed",
    "integer_with_too_many_digits.qkv.json":
        "X[0][0] is an integer of 5001 digits; only finite numbers are allowed",
    "bool_in_X.qkv.json": "X[0][1] is true, expected a number",
    "null_in_X.qkv.json": "X[2][3] is null, expected a number",
    "weights_too_few_rows.qkv.json": "weights.W_Q has 3 rows, expected 4 (d_model",
    "weights_wrong_columns.qkv.json": "weights.W_K row 0 has 3 values, expected 2 (d_k)",
    "weights_missing_W_V.qkv.json": 'weights has no "W_V"',
    "weights_missing.qkv.json": 'the field "weights" is missing',
    "bias_wrong_length.qkv.json": "weights.b_Q has 1 value, expected 2 (d_k)",
    "d_k_zero.qkv.json": "d_k is 0, expected a positive integer",
    "d_k_negative.qkv.json": "d_k is -2, expected a positive integer",
    "d_k_fraction.qkv.json": "d_k is 2.5, expected a positive integer",
    "d_k_string.qkv.json": 'd_k is "2", expected a positive integer',
    "temperature_zero.qkv.json": "temperature (options.temperature) is 0, expected a positive number",
    "temperature_negative.qkv.json": "temperature (options.temperature) is -1.0, expected a positive",
    "temperature_nan.qkv.json": "temperature (options.temperature) is NaN",
    "unknown_scale.qkv.json": 'scaling (options.scale) is "log", expected "sqrt_dk", "none" or a '
                              "positive number",
    "scale_negative.qkv.json": "scaling (options.scale) is -2",
    "causal_not_bool.qkv.json": 'causal mask (options.causal) is "yes", expected true or false',
    "unknown_option.qkv.json": 'unknown option "temprature"',
    "unknown_field.qkv.json": 'unknown field "colour" for a version 1 session',
    "duplicate_key.qkv.json": 'the key "d_k" appears twice',
    "tokens_not_a_list.qkv.json": 'tokens is "a b c", expected a list of strings',
    "tokens_empty.qkv.json": "tokens is empty",
    "token_empty_string.qkv.json": "tokens[1] is an empty string",
    "token_not_a_string.qkv.json": "tokens[2] is 3, expected a non-empty string",
    "seed_negative.qkv.json": "init.seed is -1, expected an integer from 0",
    "seed_fraction.qkv.json": "init.seed is 4.2",
    "init_scale_nan.qkv.json": "init.scale is NaN; only finite numbers are allowed",
    "v1_with_v2_field.qkv.json": 'unknown field "mode" for a version 1 session',
    "v2_heads_empty.qkv.json": "heads is empty",
    "v2_heads_not_a_list.qkv.json": "heads is an object, expected a list",
    "v2_head_unknown_field.qkv.json": 'unknown field "W_X" in heads[0]',
    "v2_second_head_wrong_shape.qkv.json": "heads[1].W_Q has 3 rows, expected 4",
    "v2_W_O_wrong_shape.qkv.json": "W_O has 3 rows, expected 4 (heads × d_k = 2 × 2)",
    "v2_cross_without_X_kv.qkv.json": 'mode is "cross" but X_kv is missing',
    "v2_kv_tokens_mismatch.qkv.json": "1 kv_tokens but X_kv has 2 rows",
    "v2_X_kv_wrong_width.qkv.json": "X_kv rows have 3 values, expected 4",
    "v2_unknown_mode.qkv.json": 'mode is "both", expected "self" or "cross"',
    "v2_unknown_dtype.qkv.json": '(options.dtype) is "float16"',
    "v2_layout_not_an_object.qkv.json": "layout is a list, expected a JSON object",
    "v2_layout_with_nan.qkv.json": "layout.zoom is NaN; only finite numbers are allowed",
    "invalid_utf8.qkv.json": "is not UTF-8 text (byte 0xe9 at offset",
    "nul_bytes.qkv.json": "contains binary data",
    "binary_garbage.bin": "is not UTF-8 text (byte 0x89 at offset 0)",
}

TRICKY = [0.1, 1e-300, 5e-324, -0.0, 1 / 3, -1.7976931348623157e308, 2.0**-1022,
          0.30000000000000004, 123456789.12345679, -2.5e-17]


def assert_identical(a: SessionState, b: SessionState) -> None:
    """Equal down to the bit: same shapes, dtypes and bytes (so -0.0 ≠ 0.0)."""

    def same(x, y, what):
        if x is None or y is None:
            assert x is None and y is None, what
            return
        assert x.shape == y.shape and x.dtype == y.dtype, what
        assert x.tobytes() == y.tobytes(), what

    assert a.tokens == b.tokens and a.kv_tokens == b.kv_tokens and a.mode == b.mode
    same(a.X, b.X, "X")
    same(a.X_kv, b.X_kv, "X_kv")
    same(a.W_O, b.W_O, "W_O")
    assert a.n_heads == b.n_heads
    for h, (wa, wb) in enumerate(zip(a.heads, b.heads, strict=True)):
        for name in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V"):
            same(getattr(wa, name), getattr(wb, name), f"heads[{h}].{name}")
    assert repr(a.seed) == repr(b.seed) and repr(a.init_scale) == repr(b.init_scale)
    assert a.options == b.options
    assert repr(a.options.temperature) == repr(b.options.temperature)
    assert repr(a.options.scale) == repr(b.options.scale)


def _round_trip(state, tmp_path, extra=None) -> LoadedSession:
    path = tmp_path / "s.qkv.json"
    save_session(state, path, extra)
    loaded = load_session(path)
    assert_identical(loaded.state, state)
    assert loaded.source_version == CURRENT_VERSION
    return loaded


def _multi_head_state() -> SessionState:
    s = SessionState.initialised(("a", "b", "c"), np.arange(15.0).reshape(3, 5) / 7, d_k=2,
                                 seed=5, init_scale=0.3, n_heads=3, with_output=True,
                                 options=Options(scale="none", causal=True, stable=False,
                                                 share_qk=True))
    h0 = s.heads[0]
    biased = Weights(h0.W_Q, h0.W_K, h0.W_V, np.array([0.1, -0.0]), None, np.array([1 / 3, 2.5]))
    return s.with_(heads=(biased, *s.heads[1:]))


def _cross_state() -> SessionState:
    base = SessionState.from_preset("tutorial-2")
    X_kv = np.random.RandomState(3).randn(5, base.d_model)
    return base.with_(mode="cross", kv_tokens=("k0", "k1", "k2", "k3", "k4"), X_kv=X_kv,
                      options=Options(temperature=0.7, dtype="float32"))


# -- round trips -----------------------------------------------------------------------

def test_tutorial_1_round_trips_bit_exactly(tmp_path):
    _round_trip(SessionState.from_preset("tutorial-1"), tmp_path)


def test_multi_head_state_with_W_O_and_biases_round_trips(tmp_path):
    state = _multi_head_state()
    assert state.W_O is not None and state.n_heads == 3
    _round_trip(state, tmp_path)


def test_cross_attention_state_round_trips(tmp_path):
    _round_trip(_cross_state(), tmp_path)


def test_self_mode_keeps_a_stored_kv_sequence(tmp_path):
    _round_trip(_cross_state().with_(mode="self"), tmp_path)


def test_tricky_floats_and_float32_options_round_trip(tmp_path):
    base = SessionState.from_preset("tutorial-1")
    X = base.X.copy()
    X.flat[: len(TRICKY)] = TRICKY
    W = base.heads[0].W_Q.copy()
    W.flat[-len(TRICKY):] = TRICKY
    state = base.with_(
        X=X, heads=(Weights(W, base.heads[0].W_K, base.heads[0].W_V),),
        init_scale=1 / 3,
        options=Options(scale=5e-324, temperature=1e-300))
    _round_trip(state, tmp_path)
    # float32 only with values float32 holds (issue 19: beyond them it is refused)
    (tmp_path / "f32").mkdir()
    _round_trip(base.with_(options=Options(scale=5e-324, temperature=1e-300,
                                           dtype="float32")), tmp_path / "f32")
    text = (tmp_path / "s.qkv.json").read_text(encoding="utf-8")
    for literal in ("5e-324", "-0.0", "1e-300", "0.3333333333333333", "-1.7976931348623157e+308"):
        assert literal in text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=6, max_size=6))
def test_any_finite_floats_round_trip(tmp_path_factory, values):
    base = SessionState.from_preset("tutorial-2")
    X = base.X.copy()
    X[0] = values
    _round_trip(base.with_(X=X), tmp_path_factory.mktemp("hyp"))


def test_layout_passes_through_and_file_is_plain_json(tmp_path):
    layout = {"window": {"width": 1280, "height": 720.5}, "panes": ["Q", "K", "weights"],
              "dock": None, "maximised": False, "名字": "自注意力"}
    loaded = _round_trip(SessionState.from_preset("tutorial-1"), tmp_path, {"layout": layout})
    assert loaded.extra == {"layout": layout}
    obj = json.loads((tmp_path / "s.qkv.json").read_text(encoding="utf-8"))
    assert obj["format"] == "qkv-desktop-session" and obj["version"] == CURRENT_VERSION
    assert "weights" not in obj and len(obj["heads"]) == 1
    assert obj["tokens"] == ["我", "爱", "人工", "智能"]  # written as UTF-8, not \u escapes


def test_the_head_on_show_round_trips_and_an_older_file_shows_the_first(tmp_path):
    """Reopened sessions showed head 1 whichever head the user had picked."""
    loaded = _round_trip(_multi_head_state(), tmp_path, {"layout": {"head": 2}})
    assert loaded.shown_head == 2
    assert _round_trip(_multi_head_state(), tmp_path).shown_head == 0  # no layout
    assert load_session(HERE / "sessions" / "v1_tutorial1.qkv.json").shown_head == 0


@pytest.mark.parametrize("head, phrase", [
    (3, "layout.head is 3, but the session's heads are numbered 0 to 2"),
    (-1, "layout.head is -1, expected a non-negative integer"),
    ("1", 'layout.head is "1", expected a non-negative integer'),
    (True, "layout.head is true, expected a non-negative integer"),
    (1.5, "layout.head is 1.5, expected a non-negative integer"),
])
def test_a_head_on_show_that_is_not_one_of_the_heads_is_refused(tmp_path, head, phrase):
    path = tmp_path / "s.qkv.json"
    save_session(_multi_head_state(), path, {"layout": {"head": head}})
    with pytest.raises(SessionError) as info:
        load_session(path)
    assert str(info.value) == f"s.qkv.json: {phrase}"


def test_lone_surrogates_round_trip_and_the_file_stays_utf8(tmp_path):
    state = SessionState.from_preset("tutorial-2").with_(tokens=("猫", "\ud800x", "老鼠"))
    layout = {"file": "/tmp/\udcff.qkv.json"}  # how Python spells an undecodable name
    loaded = _round_trip(state, tmp_path, {"layout": layout})
    assert loaded.extra["layout"] == layout
    (tmp_path / "s.qkv.json").read_bytes().decode("utf-8")


def test_saving_through_a_symlink_replaces_the_target(tmp_path):
    target = tmp_path / "real.qkv.json"
    save_session(SessionState.from_preset("tutorial-1"), target)
    link = tmp_path / "link.qkv.json"
    link.symlink_to(target)
    save_session(_cross_state(), link)
    assert link.is_symlink()
    assert_identical(load_session(target).state, _cross_state())


def test_without_layout_extra_is_empty(tmp_path):
    assert _round_trip(SessionState.from_preset("tutorial-2"), tmp_path).extra == {}


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.qkv.json"
    path.write_bytes(b"\xef\xbb\xbf" + session_to_json(_cross_state()).encode("utf-8"))
    assert_identical(load_session(path).state, _cross_state())


@pytest.mark.parametrize("extra, phrase", [
    ({"layout": {"zoom": float("nan")}}, "not plain JSON"),
    ({"layout": {"when": object()}}, "not plain JSON"),
    ({"layout": [1, 2]}, "must be a dict"),
    ({"colour": {}}, "extra key 'colour' is not allowed"),
])
def test_bad_extra_is_refused_before_touching_the_file(tmp_path, extra, phrase):
    path = tmp_path / "s.qkv.json"
    path.write_bytes(b"original")
    with pytest.raises(ValueError, match=phrase):
        save_session(SessionState.from_preset("tutorial-1"), path, extra)
    assert path.read_bytes() == b"original"
    assert sorted(os.listdir(tmp_path)) == ["s.qkv.json"]


# -- version 1 and migration -----------------------------------------------------------

def test_v1_file_migrates_to_the_tutorial_1_preset(tmp_path):
    loaded = load_session(HERE / "sessions" / "v1_tutorial1.qkv.json")
    assert loaded.source_version == 1 and loaded.extra == {}
    assert_identical(loaded.state, SessionState.from_preset("tutorial-1"))
    resaved = _round_trip(loaded.state, tmp_path)  # saving writes the current version
    assert json.loads((tmp_path / "s.qkv.json").read_text("utf-8"))["version"] == CURRENT_VERSION
    assert_identical(resaved.state, loaded.state)


def test_migrate_v1_to_v2_moves_weights_into_heads_without_mutating_input():
    v1 = json.loads((HERE / "sessions" / "v1_tutorial1.qkv.json").read_text("utf-8"))
    before = json.dumps(v1)
    v2 = session._migrate_v1_to_v2(v1)
    assert json.dumps(v1) == before
    assert v2["version"] == 2 and "weights" not in v2
    assert v2["heads"] == [v1["weights"]]
    assert set(session._MIGRATIONS) == set(range(1, CURRENT_VERSION))


def test_v1_defaults_for_options_it_did_not_have():
    state = load_session(HERE / "sessions" / "v1_tutorial1.qkv.json").state
    assert state.options == Options("sqrt_dk", 1.0, False, True, False, "float64")
    assert state.mode == "self" and state.W_O is None and state.X_kv is None


# -- bad files -------------------------------------------------------------------------

def test_corpus_lists_every_bad_file():
    assert sorted(p.name for p in BAD.iterdir()) == sorted(BAD_CASES)


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_file_is_refused_naming_file_and_problem(name):
    with pytest.raises(SessionError) as info:
        load_session(BAD / name)
    message = str(info.value)
    assert message.startswith(f"{name}: ")
    assert BAD_CASES[name] in message
    assert info.value.source == name and info.value.problem in message
    assert isinstance(info.value, ValueError)


def test_file_over_the_session_limit_is_refused_without_reading_it(tmp_path, monkeypatch):
    path = tmp_path / "huge.qkv.json"
    with open(path, "wb") as f:
        f.truncate(session.MAX_SESSION_BYTES + 1)  # sparse: costs no disk space

    def no_open(*args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(files, "open", no_open, raising=False)
    with pytest.raises(SessionError, match=r"^huge\.qkv\.json: is 256\.0 MB; files over "
                                           r"256 MB are refused"):
        load_session(path)


def test_a_session_file_over_the_import_limit_is_read(tmp_path):
    """Sessions are the app's own files: one above the 50 MB limit of imports is read
    (a long float32 session's autosave is bigger than that)."""
    path = tmp_path / "big.qkv.json"
    with open(path, "wb") as f:
        f.truncate(files.MAX_FILE_BYTES + 1)  # all NUL bytes: read, then refused as binary
    with pytest.raises(SessionError, match="contains binary data"):
        load_session(path)


def test_the_longest_float32_session_fits_the_session_limit():
    """The autosave of the longest session the app holds (8,192 float32 tokens at
    d_model = 768, BERT's width, one head of d_k = 64) must be readable: its size,
    measured from files of 32 and 64 rows written as the app writes them, is under
    ``MAX_SESSION_BYTES``."""
    from qkv_desktop.state.session_state import MAX_TOKENS_FLOAT32
    rng = np.random.default_rng(0)
    d_model, d_k = 768, 64
    X = rng.standard_normal((64, d_model)).astype(np.float32)

    def size(n: int) -> int:
        state = SessionState.initialised(tuple(f"t{i}" for i in range(n)), X[:n], d_k=d_k,
                                         seed=1, init_scale=0.1, n_heads=1,
                                         options=Options(dtype="float32"))
        return len(session_to_json(state).encode())

    per_row = (size(64) - size(32)) / 32
    assert MAX_TOKENS_FLOAT32 == 8192
    assert size(32) + per_row * (MAX_TOKENS_FLOAT32 - 32) < session.MAX_SESSION_BYTES


def test_a_session_too_big_to_open_again_is_not_written(tmp_path, monkeypatch):
    path = tmp_path / "s.qkv.json"
    state = SessionState.from_preset("tutorial-1")
    save_session(state, path)
    before = path.read_bytes()
    bigger = state.with_(X=state.X / 3)  # longer digits: a bigger file
    assert len(session_to_json(bigger).encode()) > len(before)
    monkeypatch.setattr(session, "MAX_SESSION_BYTES", len(before))
    with pytest.raises(ValueError, match=r"session files over 0 MB cannot be opened again"):
        save_session(bigger, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.qkv.json"]


def test_directory_is_refused(tmp_path):
    folder = tmp_path / "folder.qkv.json"
    folder.mkdir()
    with pytest.raises(SessionError, match=r"^folder\.qkv\.json: is a folder, not a file"):
        load_session(folder)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(SessionError, match=r"^gone\.qkv\.json: the file does not exist"):
        load_session(tmp_path / "gone.qkv.json")


def test_unreadable_file_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "locked.qkv.json"
    path.write_text(session_to_json(SessionState.from_preset("tutorial-1")), "utf-8")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "open", denied)
    with pytest.raises(SessionError,
                       match=r"^locked\.qkv\.json: cannot be opened: permission denied"):
        load_session(path)


def test_deeply_nested_json_is_refused(tmp_path):
    path = tmp_path / "deep.qkv.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SessionError, match="nested too deeply"):
        load_session(path)


def _valid_obj(n: int, row: list) -> dict:
    """A v1 object with n tokens that all share the same X row (cheap even when huge)."""
    w = [[0.0]] * len(row)
    return {"format": "qkv-desktop-session", "version": 1, "tokens": ["t"] * n,
            "X": [row] * n, "d_k": 1, "weights": {"W_Q": w, "W_K": w, "W_V": w}}


@pytest.mark.parametrize("n, d_model, phrase", [
    (MAX_TOKENS + 1, 1, "attention cells, more than the"),
    (2, MAX_CELLS // 2 + 1, "make a matrix of"),
])
def test_absurd_sizes_are_refused_before_any_array_is_built(monkeypatch, n, d_model, phrase):
    def no_matrix(*args, **kwargs):
        raise AssertionError("an array was built before the size check")

    monkeypatch.setattr(session, "_matrix", no_matrix)
    with pytest.raises(SessionError, match=f"^big: .*{phrase}") as info:
        parse_session(_valid_obj(n, [0.0] * d_model), "big")
    assert f"{MAX_CELLS:,}" in str(info.value)


def test_parse_session_accepts_a_small_decoded_object():
    state = parse_session(_valid_obj(3, [0.5, 1]), "mem").state
    assert state.X.tolist() == [[0.5, 1.0]] * 3 and state.X.dtype == np.float64


# -- atomic save -----------------------------------------------------------------------

@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "s.qkv.json"
    save_session(SessionState.from_preset("tutorial-1"), path)
    return path, path.read_bytes()


@pytest.mark.parametrize("target", ["replace", "fsync"])
def test_failed_save_leaves_original_untouched_and_no_temp_file(saved, monkeypatch, target):
    path, original = saved

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, target, boom)
    with pytest.raises(OSError, match="No space left"):
        save_session(_cross_state(), path)
    monkeypatch.undo()
    assert path.read_bytes() == original
    assert os.listdir(path.parent) == [path.name]
    assert_identical(load_session(path).state, SessionState.from_preset("tutorial-1"))


def test_failed_first_save_creates_nothing(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_session(SessionState.from_preset("tutorial-1"), tmp_path / "new.qkv.json")
    assert os.listdir(tmp_path) == []


def test_successful_save_replaces_content_and_keeps_permissions(saved):
    path, original = saved
    os.chmod(path, 0o640)
    save_session(_cross_state(), path)
    assert path.read_bytes() != original
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert os.listdir(path.parent) == [path.name]
    assert_identical(load_session(path).state, _cross_state())


def test_new_file_gets_umask_permissions_not_private_temp_ones(tmp_path):
    umask = os.umask(0o022)
    try:
        save_session(SessionState.from_preset("tutorial-1"), tmp_path / "n.qkv.json")
    finally:
        os.umask(umask)
    assert os.stat(tmp_path / "n.qkv.json").st_mode & 0o777 == 0o644
