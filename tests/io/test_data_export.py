"""The numbers behind the figures: CSV, .npy, matrices.npz and JSON."""

from __future__ import annotations

import csv
import io
import json
import os

import numpy as np
import pytest

from qkv_desktop.export import data_export
from qkv_desktop.export.data_export import (
    MATRIX_NAMES,
    NPZ_KEYS,
    csv_bytes,
    export_data,
    json_bytes,
    labelled_matrices,
    write_csv,
    write_json,
    write_npy,
    write_npz,
)
from qkv_desktop.io.staged_files import StagedFiles
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import Options, SessionState

TOKENS = ["我", "爱", "人工", "智能"]


@pytest.fixture
def result():
    return compute(SessionState.from_preset("tutorial-1"))


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "UTF-8 with BOM, for Excel"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def strict_json(data: bytes):
    def refuse(token):
        raise AssertionError(f"bare {token} is not JSON")
    return json.loads(data.decode("utf-8"), parse_constant=refuse)


def test_npz_has_exactly_the_keys_and_the_core_numbers(result, tmp_path):
    path = write_npz(tmp_path / "matrices.npz", result)
    with np.load(path, allow_pickle=False) as npz:
        assert sorted(npz.files) == sorted(NPZ_KEYS)
        assert npz["tokens"].dtype.kind == "U"
        assert npz["tokens"].tolist() == TOKENS
        expected = result.matrices()
        for name in MATRIX_NAMES:
            assert npz[name].dtype == expected[name].dtype
            np.testing.assert_array_equal(npz[name], expected[name])
    assert NPZ_KEYS == ("tokens", "X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores",
                        "scaled", "weights", "output")


def test_npz_keeps_float32_and_the_chosen_head():
    base = SessionState.initialised(TOKENS, np.eye(4, 6), d_k=3, n_heads=2)
    res = compute(base.with_(options=Options(dtype="float32")))
    with np.load(io.BytesIO(data_export.npz_bytes(res, h=1)), allow_pickle=False) as npz:
        assert npz["Q"].dtype == np.float32
        np.testing.assert_array_equal(npz["Q"], res.head(1).Q)
        np.testing.assert_array_equal(npz["W_Q"], base.heads[1].W_Q)


def test_rope_matrices_are_in_csv_npy_and_json_as_in_npz(tmp_path):
    """With RoPE, matrices.npz held Q_rope and K_rope but no Q_rope.csv was written."""
    state = SessionState.from_preset("tutorial-1")
    state = state.with_(options=Options(positions="rope"))
    result = compute(state)
    export_data(result, tmp_path, formats=("csv", "npy", "npz", "json"))
    with np.load(tmp_path / "matrices.npz", allow_pickle=False) as npz:
        npz_names = set(npz.files) - {"tokens"}
    assert {"Q_rope", "K_rope"} <= npz_names
    assert {p.stem for p in tmp_path.glob("*.csv")} == npz_names
    assert {p.stem for p in tmp_path.glob("*.npy")} == npz_names
    doc = strict_json((tmp_path / "matrices.json").read_bytes())
    assert set(doc["matrices"]) == npz_names
    for name in ("Q_rope", "K_rope"):
        rows = read_csv((tmp_path / f"{name}.csv").read_bytes())
        assert rows[0] == ["token", "d0", "d1", "d2", "d3"]
        assert [r[0] for r in rows[1:]] == TOKENS
        values = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
        np.testing.assert_array_equal(values, getattr(result.head(), name))
        np.testing.assert_array_equal(np.load(tmp_path / f"{name}.npy"),
                                      getattr(result.head(), name))


def test_every_head_the_concatenation_and_w_o_are_exported(tmp_path):
    """Two heads with W_O: each head's matrices under ``_h1``/``_h2`` (the figures'
    suffix), the plain names the current head's as in a one-head session, and the
    concatenation, W_O and the projected output once (only head 1's were written)."""
    state = SessionState.initialised(TOKENS, np.eye(4, 6), d_k=3, n_heads=2,
                                     with_output=True)
    result = compute(state)
    export_data(result, tmp_path, formats=("csv", "npz", "json"), h=1)
    csv_names = {p.stem for p in tmp_path.glob("*.csv")}
    assert {"concat", "W_O", "projected"} <= csv_names
    for h in (0, 1):
        assert {f"{m}_h{h + 1}" for m in MATRIX_NAMES if m != "X"} <= csv_names
    assert not {"X_h1", "concat_h1", "W_O_h1"} & csv_names  # the same for every head
    with np.load(tmp_path / "matrices.npz", allow_pickle=False) as npz:
        assert set(npz.files) == csv_names | {"tokens"}
        for h in (0, 1):
            head = result.head(h)
            for m in ("Q", "K", "V", "scores", "scaled", "weights", "output"):
                np.testing.assert_array_equal(npz[f"{m}_h{h + 1}"], getattr(head, m))
            np.testing.assert_array_equal(npz[f"W_V_h{h + 1}"], state.heads[h].W_V)
        np.testing.assert_array_equal(npz["Q"], result.head(1).Q)  # the chosen head
        np.testing.assert_array_equal(npz["concat"], result.multi.concat)
        np.testing.assert_array_equal(npz["W_O"], state.W_O)
        np.testing.assert_array_equal(npz["projected"], result.multi.output)
    w_o = read_csv((tmp_path / "W_O.csv").read_bytes())
    assert w_o[0] == ["dim", *(f"d{i}" for i in range(6))]
    assert [r[0] for r in w_o[1:]] == ["h1·d0", "h1·d1", "h1·d2", "h2·d0", "h2·d1", "h2·d2"]
    assert read_csv((tmp_path / "concat.csv").read_bytes())[0][1:] == [r[0] for r in w_o[1:]]
    doc = strict_json((tmp_path / "matrices.json").read_bytes())
    assert set(doc["matrices"]) == csv_names and doc["n_heads"] == 2
    # head 2 of 2 in the window and the _h2 names: unambiguous, from 0 and from 1
    assert "head" not in doc and (doc["head_index"], doc["head_number"]) == (1, 2)


def test_csv_has_token_headers_and_exact_numbers(result, tmp_path):
    mats = labelled_matrices(result)
    w = mats["weights"]
    rows = read_csv(write_csv(tmp_path / "w.csv", w.data, w.row_labels, w.col_labels,
                              w.corner).read_bytes())
    assert rows[0] == ["token", *TOKENS]
    assert [r[0] for r in rows[1:]] == TOKENS
    values = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    np.testing.assert_array_equal(values, result.head().weights)  # exact round trip

    q = mats["Q"]
    assert read_csv(csv_bytes(q.data, q.row_labels, q.col_labels))[0] == \
        ["token", "d0", "d1", "d2", "d3"]
    wq = mats["W_Q"]
    rows = read_csv(csv_bytes(wq.data, wq.row_labels, wq.col_labels, wq.corner))
    assert rows[0][0] == "dim" and [r[0] for r in rows[1:]] == [f"d{i}" for i in range(8)]


def test_csv_quotes_awkward_tokens_and_spells_out_infinity():
    data = np.array([[-np.inf, 1.5], [np.nan, np.float32(0.1)]], dtype=np.float32)
    rows = read_csv(csv_bytes(data, ['a,b', 'say "hi"'], ["x", "\n"]))
    assert rows[0] == ["token", "x", "\n"]
    assert rows[1] == ["a,b", "-inf", "1.5"]
    assert rows[2] == ['say "hi"', "nan", "0.1"]  # shortest float32 text, not 0.10000000149
    with pytest.raises(ValueError, match="labels"):
        csv_bytes(data, ["one"], ["x", "y"])


def test_keys_label_k_v_and_columns_in_cross_mode():
    state = SessionState.from_preset("tutorial-1").with_(
        mode="cross", kv_tokens=("猫", "老鼠"), X_kv=np.ones((2, 8)))
    mats = labelled_matrices(compute(state))
    assert mats["K"].row_labels == ["猫", "老鼠"] and mats["Q"].row_labels == TOKENS
    assert mats["scores"].col_labels == ["猫", "老鼠"]
    assert mats["V"].col_labels == ["d0", "d1", "d2", "d3"]


def test_npy_round_trip(result, tmp_path):
    path = write_npy(tmp_path / "Q.npy", result.head().Q)
    np.testing.assert_array_equal(np.load(path, allow_pickle=False), result.head().Q)


def test_json_is_strict_and_encodes_masks_as_minus_infinity(tmp_path):
    state = SessionState.from_preset("tutorial-1").with_(options=Options(causal=True,
                                                                         temperature=2.0))
    res = compute(state)
    doc = strict_json(write_json(tmp_path / "m.json", res).read_bytes())
    assert doc["format"] == "qkv-desktop/matrices" and doc["version"] == 2
    assert doc["tokens"] == TOKENS and doc["key_tokens"] == TOKENS
    assert doc["options"]["causal"] is True and doc["options"]["temperature"] == 2.0
    assert doc["options"]["divisor"] == 2.0 and doc["options"]["scale"] == "sqrt_dk"
    assert set(doc["matrices"]) == set(MATRIX_NAMES) | {"mask"}  # causal: the mask too
    assert doc["matrices"]["mask"] == np.tril(np.ones((4, 4))).tolist()
    scaled = doc["matrices"]["scaled"]
    assert scaled[0][1:] == ["-Infinity"] * 3 and isinstance(scaled[1][0], float)
    decoded = np.array([[float(v) for v in row] for row in scaled])
    np.testing.assert_array_equal(decoded, res.head().scaled)
    np.testing.assert_array_equal(np.array(doc["matrices"]["weights"]), res.head().weights)
    assert "-Infinity" in doc["nonfinite"]


@pytest.mark.parametrize("options, says", [
    (Options(custom_mask=True, masked=((3, 0), (2, 1))), "(masked by: custom;"),
    (Options(causal=True, custom_mask=True, masked=((3, 0),)), "(masked by: causal, custom;"),
    (Options(window=2), "(masked by: window;"),
    (Options(causal=True, window=2), "(masked by: causal, window;"),
    (Options(), "no cell is masked"),
])
def test_the_json_note_names_the_masks_that_hide_cells(options, says):
    """The note said "-Infinity" marks "a causally masked cell" whatever hid it: a
    painted cell or a window's is not causal. It names the session's masks now."""
    doc = strict_json(json_bytes(compute(SessionState.from_preset("tutorial-1").with_(
        options=options))))
    note = doc["nonfinite"]
    assert says in note and "causally" not in note
    if options.causal:
        assert doc["matrices"]["scaled"][0][1] == "-Infinity"
    else:
        assert "causal" not in note


def test_json_float32_values_read_back_exactly():
    state = SessionState.from_preset("tutorial-1").with_(options=Options(dtype="float32"))
    res = compute(state)
    doc = strict_json(json_bytes(res))
    q = np.array(doc["matrices"]["Q"], dtype=np.float32)
    np.testing.assert_array_equal(q, res.head().Q)
    assert doc["dtype"] == "float32"
    assert "0.10000000149" not in json_bytes(res).decode()


def test_export_data_writes_every_file(result, tmp_path):
    written = export_data(result, tmp_path, formats=("csv", "npy", "npz", "json"))
    names = sorted(p.name for p in written)
    expected = sorted([f"{m}.csv" for m in MATRIX_NAMES] + [f"{m}.npy" for m in MATRIX_NAMES]
                      + ["matrices.npz", "matrices.json"])
    assert names == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == expected  # no temporaries left
    mode = os.stat(tmp_path / "Q.csv").st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_export_data_is_all_or_nothing(result, tmp_path, monkeypatch):
    for name in ("Q.csv", "K.csv"):
        (tmp_path / name).write_text("old " + name)
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        if len(calls) == 9:  # moving V.csv in, after Q.csv and K.csv replaced old files
            raise OSError("disk full")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        export_data(result, tmp_path, formats="csv")
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["K.csv", "Q.csv"]
    assert (tmp_path / "Q.csv").read_text() == "old Q.csv"
    assert (tmp_path / "K.csv").read_text() == "old K.csv"


def test_export_data_refuses_bad_formats_and_folders(result, tmp_path):
    with pytest.raises(ValueError, match="xlsx"):
        export_data(result, tmp_path, formats=("csv", "xlsx"))
    with pytest.raises(ValueError, match="no data format"):
        export_data(result, tmp_path, formats=())
    with pytest.raises(ValueError, match="not an existing folder"):
        export_data(result, tmp_path / "missing")
    assert list(tmp_path.iterdir()) == []


def test_staged_files_vanish_without_commit(tmp_path):
    (tmp_path / "a.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with StagedFiles() as staged:
            staged.add(tmp_path / "a.txt", b"new")
            staged.add(tmp_path / "b.txt", b"new")
            raise RuntimeError("stop")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "old"
    with StagedFiles() as staged:
        staged.add(tmp_path / "a.txt", b"new")
        with pytest.raises(ValueError, match="twice"):
            staged.add(tmp_path / "a.txt", b"again")
        assert staged.commit() == [tmp_path / "a.txt"]
    assert (tmp_path / "a.txt").read_text() == "new"


def test_a_cross_session_exports_the_sequence_its_keys_come_from(tmp_path):
    """The K and V rows of cross-attention come from X_kv, which the export lacked."""
    from qkv_desktop.export.data_export import exported_names
    state = SessionState.from_preset("tutorial-2")
    rng = np.random.default_rng(0)
    state = state.with_(mode="cross", X_kv=rng.standard_normal((3, state.d_model)),
                        kv_tokens=("a", "b", "c"))
    res = compute(state)
    assert "X_kv" in exported_names(state)
    written = export_data(res, tmp_path, formats=("csv", "npz"))
    assert tmp_path / "X_kv.csv" in written
    np.testing.assert_array_equal(np.load(tmp_path / "matrices.npz")["X_kv"], state.X_kv)
