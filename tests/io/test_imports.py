"""Importing vectors (CSV/TSV/text/.npy) and weights (.npy/.npz): good files load
exactly, bad ones are refused with the file name and the line, cell or array named."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest
from numpy.lib import format as npy_format

from qkv_desktop.core import Weights
from qkv_desktop.io import files
from qkv_desktop.io.imports import ImportFileError, import_vectors, import_weights
from qkv_desktop.state.session_state import MAX_TOKENS


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path, phrase: str, *args):
    fn = import_weights if args else import_vectors
    with pytest.raises(ImportFileError) as info:
        fn(path, *args)
    assert str(info.value).startswith(f"{path.name}: ")
    assert phrase in str(info.value)
    assert isinstance(info.value, ValueError)
    return info.value


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b, dtype=np.float64)
    return a.dtype == np.float64 and a.shape == b.shape and a.tobytes() == b.tobytes()


# -- CSV / TSV / text ------------------------------------------------------------------

def test_csv_with_header_and_token_column(tmp_path):
    path = write(tmp_path, "v.csv", 'token,d0,d1,d2\n我,0.1,-2e-3,5\n"a, b",+.5,1.,-0.0\n')
    tokens, X = import_vectors(path)
    assert tokens == ("我", "a, b")
    assert same_bits(X, [[0.1, -2e-3, 5.0], [0.5, 1.0, -0.0]])


def test_csv_with_token_column_and_no_header(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", "cat,1,2\ndog,3,4\n"))
    assert tokens == ("cat", "dog") and same_bits(X, [[1, 2], [3, 4]])


def test_csv_of_numbers_only_has_no_tokens(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", "1,2,3\n4,5,6\n\n"))
    assert tokens is None and same_bits(X, [[1, 2, 3], [4, 5, 6]])


def test_numeric_header_names_without_token_column(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", "x0,x1\n1,2\n3,4\n"))
    assert tokens is None and same_bits(X, [[1, 2], [3, 4]])


def test_pandas_style_empty_header_cell_makes_numeric_tokens(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", ",a,b\n2024,1,2\n2025,3,4\n"))
    assert tokens == ("2024", "2025") and same_bits(X, [[1, 2], [3, 4]])


def test_single_column_with_header(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", "value\n0.5\n0.25\n"))
    assert tokens is None and same_bits(X, [[0.5], [0.25]])


def test_tsv_and_bom_and_crlf(tmp_path):
    path = tmp_path / "v.tsv"
    path.write_bytes("\ufefftok\tx\ty\r\nα\t1.5\t2\r\nβ\t3\t4.25\r\n".encode("utf-8"))
    tokens, X = import_vectors(path)
    assert tokens == ("α", "β") and same_bits(X, [[1.5, 2], [3, 4.25]])


def test_savetxt_text_file_round_trips_exactly(tmp_path):
    X = np.random.RandomState(0).randn(4, 3)
    np.savetxt(tmp_path / "v.txt", X)  # space-delimited, %.18e
    tokens, got = import_vectors(tmp_path / "v.txt")
    assert tokens is None and same_bits(got, X)


def test_comma_decimal_is_two_cells_in_a_csv(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.csv", "a,1,5\nb,2,5\n"))
    assert tokens == ("a", "b") and same_bits(X, [[1, 5], [2, 5]])
    refused(write(tmp_path, "h.csv", "token,x\na,1,5\n"),
            "the header (line 1) has 2 cells but line 2 has 3")


def test_semicolon_text_file_and_its_comma_decimals(tmp_path):
    tokens, X = import_vectors(write(tmp_path, "v.txt", "a;1.5;2\nb;3;4\n"))
    assert tokens == ("a", "b") and same_bits(X, [[1.5, 2], [3, 4]])
    refused(write(tmp_path, "w.txt", "a;1,5;2\nb;3;4\n"),
            'line 1, column 2 is "1,5", expected a number (with "." as the decimal mark)')


@pytest.mark.parametrize("text, phrase", [
    ("a,1,2\nb,1,\n", "line 2, column 3 is empty, expected a number"),
    ("a,1,2\nb,1,nan\n", 'line 2, column 3 is "nan"; only finite numbers are allowed'),
    ("a,1,2\nb,-inf,1\n", 'line 2, column 2 is "-inf"; only finite numbers'),
    ("a,1,2\nb,1e999,1\n", "line 2, column 2 is 1e999, too large for a 64-bit float"),
    ("a,1,2\nb,１,1\n", 'line 2, column 2 is "１", expected a number'),
    ("a,1,2\nb,1_000,1\n", 'line 2, column 2 is "1_000", expected a number'),
    ("a,1,2\nb,0x10,1\n", 'line 2, column 2 is "0x10", expected a number'),
    ("1,2,3\n4,5\n", "line 2 has 2 cells, expected 3 (as on line 1)"),
    ("x,y,z\n1,2\n", "the header (line 1) has 3 cells but line 2 has 2"),
    ("a,1\n,2\n", "line 2, column 1: the token name is empty"),
    ("a\n", "has a header line but no lines of numbers"),
    ("a\nb\n", "line 2 has no numbers after the token name"),
    ("tok\na\nb\n", "line 2 has no numbers after the token name"),
    ("", "is empty; expected one line of numbers per token"),
    ("\n \n,,\n", "is empty"),
    ('a"b,1\n"x"y,2\n', "line 2: "),
])
def test_bad_csv_is_refused_with_line_and_column(tmp_path, text, phrase):
    refused(write(tmp_path, "bad.csv", text), phrase)


def test_too_many_tokens_are_refused_before_parsing_them_all(tmp_path, monkeypatch):
    text = "1\n" * (MAX_TOKENS + 1) + "x,y,z\n"  # the bad last line is never reached
    err = refused(write(tmp_path, "long.csv", text),
                  f"{MAX_TOKENS + 1:,} queries × {MAX_TOKENS + 1:,} keys")
    assert "attention cells, more than" in str(err)


def test_binary_and_non_utf8_text_are_refused(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("café,1,2\n".encode("latin-1"))
    refused(path, "is not UTF-8 text (byte 0xe9 at offset 3)")
    path = tmp_path / "nul.csv"
    path.write_bytes(b"1,2\x00\x00\n")
    refused(path, "contains binary data")


@pytest.mark.parametrize("name, phrase", [
    ("v.xlsx", "unsupported file type '.xlsx'"),
    ("vectors", "unsupported file type '(none)'"),
])
def test_unsupported_vector_file_types(tmp_path, name, phrase):
    refused(write(tmp_path, name, "1,2\n"), phrase)


def test_missing_directory_and_oversized_files_are_refused(tmp_path, monkeypatch):
    refused(tmp_path / "gone.csv", "the file does not exist")
    (tmp_path / "dir.npy").mkdir()
    refused(tmp_path / "dir.npy", "is a folder, not a file")
    big = tmp_path / "big.npy"
    with open(big, "wb") as f:
        f.truncate(files.MAX_FILE_BYTES + 1)
    monkeypatch.setattr(files, "open", lambda *a, **k: pytest.fail("opened"), raising=False)
    refused(big, "files over 50 MB are refused")
    refused(big, "files over 50 MB are refused", 8, 4)


# -- .npy vectors ----------------------------------------------------------------------

def save_npy(tmp_path, name, arr, **kwargs):
    path = tmp_path / name
    np.save(path, arr, **kwargs)
    return path


@pytest.mark.parametrize("arr", [
    np.random.RandomState(1).randn(5, 3),
    np.array([[0.1, 1e-300], [5e-324, -0.0]]),
    np.asfortranarray(np.arange(6.0).reshape(2, 3)),
    np.array([[1.5, 2.25]], dtype=np.float32),
    np.array([[1, 2], [3, 4]], dtype=np.int16),
])
def test_npy_vectors_load_exactly_as_float64(tmp_path, arr):
    tokens, X = import_vectors(save_npy(tmp_path, "v.npy", arr))
    assert tokens is None and same_bits(X, arr.astype(np.float64))


@pytest.mark.parametrize("arr, phrase", [
    (np.array([[1.0, "a"]], dtype=object), "holds Python objects (dtype object)"),
    (np.arange(4.0), "holds a 1-D array of shape (4,); expected a 2-D array"),
    (np.zeros((2, 2, 2)), "holds a 3-D array"),
    (np.zeros((0, 3)), "holds an empty array of shape (0, 3)"),
    (np.array([[1.0, 2.0], [3.0, np.nan]]), "X[1, 1] is nan; only finite numbers"),
    (np.array([[np.inf]], dtype=np.float32), "X[0, 0] is inf"),
    (np.array([[1e300]], dtype=np.longdouble) * 1e300, "X[0, 0] is inf"),
    (np.ones((2, 2), dtype=complex), "has dtype complex128; only real numbers"),
    (np.ones((2, 2), dtype=bool), "has dtype bool"),
    (np.zeros((2, 2), dtype="U3"), "has dtype <U3"),
    (np.zeros(2, dtype=[("a", "f8"), ("b", "f8")]), "only real numbers"),
])
def test_bad_npy_vectors_are_refused(tmp_path, arr, phrase):
    refused(save_npy(tmp_path, "v.npy", arr, allow_pickle=True), phrase)


def test_npy_header_promising_a_huge_array_is_refused_before_allocation(tmp_path):
    path = tmp_path / "huge.npy"
    with open(path, "wb") as f:
        npy_format.write_array_header_1_0(
            f, {"descr": "<f8", "fortran_order": False, "shape": (10, 100_000_000)})
        f.write(b"\0" * 64)
    refused(path, "10 tokens with d_model = 100,000,000")


def test_truncated_and_fake_npy_files_are_refused(tmp_path):
    good = save_npy(tmp_path, "good.npy", np.ones((10, 10)))
    cut = tmp_path / "cut.npy"
    cut.write_bytes(good.read_bytes()[:-8])
    refused(cut, "is truncated: its header promises 928 bytes but there are 920")
    fake = tmp_path / "fake.npy"
    fake.write_bytes(b"1,2,3\n4,5,6\n")
    refused(fake, "is not a valid .npy array")


# -- weights ---------------------------------------------------------------------------

def _weights(d_model=5, d_k=3, seed=0):
    rng = np.random.RandomState(seed)
    return [rng.randn(d_model, d_k) for _ in range(3)]


def test_npy_stack_gives_one_head(tmp_path):
    W = _weights()
    w = import_weights(save_npy(tmp_path, "w.npy", np.stack(W)), 5, 3)
    assert isinstance(w, Weights)
    assert all(same_bits(getattr(w, n), m) for n, m in zip(("W_Q", "W_K", "W_V"), W, strict=True))
    assert w.b_Q is None


def test_npy_four_d_stack_gives_one_weights_per_head(tmp_path):
    stack = np.stack([np.stack(_weights(seed=s)) for s in range(3)]).astype(np.float32)
    heads = import_weights(save_npy(tmp_path, "w.npy", stack), 5, 3)
    assert isinstance(heads, list) and len(heads) == 3
    assert same_bits(heads[2].W_V, stack[2, 2].astype(np.float64))


@pytest.mark.parametrize("arr, phrase", [
    (np.zeros((3, 5, 4)), "holds an array of shape (3, 5, 4); expected (3, 5, 3)"),
    (np.zeros((5, 3)), "holds an array of shape (5, 3)"),
    (np.zeros((0, 3, 5, 3)), "holds an array of shape (0, 3, 5, 3)"),
    (np.where(np.arange(45).reshape(3, 5, 3) == 44, np.nan, 0.0), "stack[2, 4, 2] is nan"),
    (np.zeros((3, 5, 3), dtype=object), "holds Python objects"),
])
def test_bad_npy_weights_are_refused(tmp_path, arr, phrase):
    refused(save_npy(tmp_path, "w.npy", arr, allow_pickle=True), phrase, 5, 3)


@pytest.mark.parametrize("compressed", [False, True])
def test_npz_with_biases(tmp_path, compressed):
    W = _weights()
    b = np.array([0.1, -0.0, 5e-324])
    save = np.savez_compressed if compressed else np.savez
    save(tmp_path / "w.npz", W_Q=W[0], W_K=W[1], W_V=W[2], b_K=b)
    w = import_weights(tmp_path / "w.npz", 5, 3)
    assert isinstance(w, Weights)
    assert same_bits(w.W_K, W[1]) and same_bits(w.b_K, b)
    assert w.b_Q is None and w.b_V is None


def test_npz_multi_head(tmp_path):
    stacks = [np.stack([_weights(seed=h)[i] for h in range(2)]) for i in range(3)]
    b_V = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.savez(tmp_path / "w.npz", W_Q=stacks[0], W_K=stacks[1], W_V=stacks[2], b_V=b_V)
    heads = import_weights(tmp_path / "w.npz", 5, 3)
    assert isinstance(heads, list) and len(heads) == 2
    assert same_bits(heads[1].W_Q, stacks[0][1]) and same_bits(heads[1].b_V, b_V[1])
    assert heads[0].b_Q is None


@pytest.mark.parametrize("arrays, phrase", [
    ({"W_Q": 0, "W_K": 0}, 'has no array named "W_V"'),
    ({"W_Q": 0, "W_K": 0, "W_V": 0, "W_O": 0}, 'holds an array named "W_O"'),
    ({"W_Q": np.zeros((5, 4)), "W_K": 0, "W_V": 0},
     "W_Q has shape (5, 4), expected (5, 3) (d_model × d_k)"),
    ({"W_Q": 0, "W_K": np.zeros((2, 5, 3)), "W_V": 0},
     "W_K has shape (2, 5, 3), expected (5, 3)"),
    ({"W_Q": np.zeros((2, 5, 3)), "W_K": np.zeros((3, 5, 3)), "W_V": 0},
     "W_K has shape (3, 5, 3), expected (2, 5, 3) (heads × d_model × d_k)"),
    ({"W_Q": 0, "W_K": 0, "W_V": 0, "b_Q": np.zeros(4)}, "b_Q has shape (4,), expected (3,)"),
    ({"W_Q": 0, "W_K": 0, "W_V": np.full((5, 3), np.inf)}, "W_V[0, 0] is inf"),
    ({"W_Q": np.zeros((5, 3), dtype=object), "W_K": 0, "W_V": 0}, "W_Q holds Python objects"),
])
def test_bad_npz_weights_are_refused(tmp_path, arrays, phrase):
    arrays = {k: np.zeros((5, 3)) if isinstance(v, int) else v for k, v in arrays.items()}
    np.savez(tmp_path / "w.npz", allow_pickle=True, **arrays)
    refused(tmp_path / "w.npz", phrase, 5, 3)


def test_npz_that_is_not_a_zip_or_has_a_damaged_member(tmp_path):
    path = tmp_path / "w.npz"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    refused(path, "is not a valid .npz archive", 5, 3)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for key in ("W_Q", "W_K", "W_V"):
            z.writestr(f"{key}.npy", b"garbage")
    path.write_bytes(buf.getvalue())
    refused(path, "W_Q is not a valid .npy array", 5, 3)


def test_npz_member_promising_a_huge_array_is_refused_before_reading(tmp_path):
    member = io.BytesIO()
    npy_format.write_array_header_1_0(
        member, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)})
    path = tmp_path / "w.npz"
    with zipfile.ZipFile(path, "w") as z:
        for key in ("W_Q", "W_K", "W_V"):
            z.writestr(f"{key}.npy", member.getvalue())
    refused(path, "W_Q has shape (1000000, 1000000), expected (5, 3)", 5, 3)


def test_unsupported_weight_file_type(tmp_path):
    refused(write(tmp_path, "w.csv", "1,2\n"), "unsupported file type '.csv'", 5, 3)
