"""Position and mask options in sessions: saved, loaded bit-exact, migrated, validated."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from qkv_desktop.io.session import (
    CURRENT_VERSION,
    SessionError,
    load_session,
    parse_session,
    save_session,
    session_to_json,
)
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import Options, SessionState


def _state(**options) -> SessionState:
    s = SessionState.from_preset("tutorial-1")
    return s.with_(options=replace(s.options, **options))


def test_every_new_option_round_trips_and_computes_the_same(tmp_path):
    state = _state(causal=True, positions="rope", rope_base=5e5, rope_pairing="interleaved",
                   window=2, prefix=2, sinks=1, alibi=(0.25,), custom_mask=True, masked=((3, 2), (2, 0)))
    path = tmp_path / "p.qkv.json"
    save_session(state, path)
    doc = json.loads(path.read_text("utf-8"))
    assert doc["version"] == CURRENT_VERSION == 3
    assert doc["options"]["masked"] == [[2, 0], [3, 2]]
    assert doc["options"]["alibi"] == [0.25] and doc["options"]["window"] == 2
    loaded = load_session(path).state
    assert loaded.options == state.options
    a, b = compute(state).head(), compute(loaded).head()
    assert a.weights.tobytes() == b.weights.tobytes()
    assert not a.allowed[3, 2] and a.mask_reasons[3, 2] == 5  # custom


def test_defaults_are_written_as_null_and_empty():
    doc = json.loads(session_to_json(SessionState.from_preset("tutorial-1")))
    o = doc["options"]
    assert (o["positions"], o["window"], o["prefix"], o["sinks"], o["alibi"], o["masked"]) == \
        ("none", None, None, 0, None, [])


def _v2(options: dict) -> dict:
    doc = json.loads(session_to_json(SessionState.from_preset("tutorial-1")))
    doc["version"] = 2
    doc["options"] = {k: v for k, v in doc["options"].items()
                      if k in ("scale", "temperature", "causal", "stable", "share_qk", "dtype")}
    doc["options"].update(options)
    return doc


def test_a_version_2_session_migrates_without_positions_or_masks():
    loaded = parse_session(_v2({"causal": True}), "old.qkv.json")
    assert loaded.source_version == 2
    o = loaded.state.options
    assert o == Options(causal=True)
    assert (o.positions, o.window, o.prefix, o.sinks, o.alibi, o.masked) == \
        ("none", None, None, 0, None, ())
    # the old file computes exactly as before: attention with the causal flag only
    r = compute(loaded.state).head()
    assert r.Q_rope is None and r.bias is None


@pytest.mark.parametrize("key", ["positions", "window", "alibi", "masked"])
def test_a_version_2_session_cannot_hold_version_3_options(key):
    with pytest.raises(SessionError, match=f'unknown option "{key}" for a version 2 session'):
        parse_session(_v2({key: None}), "old.qkv.json")


@pytest.mark.parametrize("options,message", [
    ({"positions": "alibi"}, r'positions \(options.positions\) is "alibi", expected "none" or '
                             r'"sinusoidal" or "rope"'),
    ({"rope_base": 0}, r"RoPE base \(options.rope_base\) is 0, expected a positive number"),
    ({"rope_pairing": "odd"}, r'RoPE pairs \(options.rope_pairing\) is "odd"'),
    ({"window": 0}, r"window \(options.window\) is 0, expected a positive integer or null"),
    ({"window": 2.5}, r"window \(options.window\) is 2.5"),
    ({"prefix": True}, r"prefix \(options.prefix\) is true"),
    ({"sinks": None}, r"sinks \(options.sinks\) is null, expected a non-negative integer"),
    ({"alibi": [0.5, -1]}, r"ALiBi \(options.alibi\[1\]\) is -1, expected a non-negative number"),
    ({"alibi": []}, r"ALiBi \(options.alibi\) is a list, expected null or a list of slopes"),
    ({"alibi": [0.5, 0.25]}, "2 ALiBi slopes for 1 heads"),
    ({"masked": [[0, 1, 2]]},
     r"masked cells \(options.masked\[0\]\) is a list, expected a \[row, column\] pair"),
    ({"masked": [[0, -1]]}, r"masked cells \(options.masked\[0\]\[1\]\) is -1"),
    ({"masked": {"0": 1}}, r"masked cells \(options.masked\) is an object"),
    ({"causal": True, "custom_mask": True, "masked": [[0, 0]]},
     "the mask leaves the query “我” \\(row 0\\) with no key"),
])
def test_bad_position_and_mask_options_are_refused_naming_the_field(options, message):
    doc = json.loads(session_to_json(SessionState.from_preset("tutorial-1")))
    doc["options"].update(options)
    with pytest.raises(SessionError, match=message):
        parse_session(doc, "bad.qkv.json")


def test_rope_needs_an_even_d_k():
    s = SessionState.initialised(["a", "b"], np.ones((2, 3)), d_k=3)
    with pytest.raises(ValueError, match="d_k must be even"):
        s.with_(options=replace(s.options, positions="rope"))
