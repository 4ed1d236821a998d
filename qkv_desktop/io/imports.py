"""Importing token vectors (CSV, TSV, text, ``.npy``) and weights (``.npy``, ``.npz``).

Imported files are untrusted: the size is checked before reading, ``.npy`` headers are
checked (shape, dtype) before any array is allocated, pickled objects are never loaded,
and every problem becomes an ``ImportFileError`` naming the file and the field, line or
cell. Text files are read locale-independently: the decimal mark is always ".", so
"1,5" in a CSV file is two cells, never one and a half.
"""

from __future__ import annotations

import csv
import io
import math
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO

import numpy as np
from numpy.lib import format as npy_format

from qkv_desktop.core import Weights
from qkv_desktop.io.files import FileFormatError, decode_text, problem, read_limited
from qkv_desktop.state.catalogue import PROJECTION_NAMES, WEIGHT_NAMES
from qkv_desktop.state.parsing import NUMBER
from qkv_desktop.state.session_state import MAX_TOKEN_LENGTH, MAX_TOKENS, check_size
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Listed, Text, said_by

__all__ = ["ImportFileError", "import_vectors", "import_weights", "VECTOR_SUFFIXES",
           "WEIGHT_SUFFIXES"]

VECTOR_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".npy")
WEIGHT_SUFFIXES = (".npy", ".npz")
_TOKEN_HEADERS = ("", "token", "tokens", "word", "words")


class ImportFileError(FileFormatError):
    """A file that cannot be imported; the message names the file and the problem."""


def _unsupported(suffix: str, use: Listed):
    return problem(QT_TRANSLATE_NOOP("Files", "unsupported file type {0}; use {1}"),
                   repr(suffix or "(none)"), use)


# -- vectors ---------------------------------------------------------------------------

def import_vectors(path) -> tuple[tuple[str, ...] | None, np.ndarray]:
    """Token names (or ``None``) and their vectors X (n × d_model, float64) from a file.

    ``.npy``: a 2-D array of real numbers, no token names. ``.csv`` (comma), ``.tsv`` /
    ``.tab`` (tab), ``.txt`` (tab, else semicolon, else comma if the first line has
    one; otherwise runs of spaces): one token per line. The first line is a header when
    none of its cells after the first is a number. The first column holds token names
    when any of its cells below the header is not a number, or when the header's first
    cell is empty or "token". Lines and columns in messages count from 1, as in a
    spreadsheet.
    """
    path = Path(path)
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in VECTOR_SUFFIXES:
        raise ImportFileError(name, _unsupported(suffix, Listed(VECTOR_SUFFIXES)))
    data = read_limited(path, ImportFileError)
    if suffix == ".npy":
        X = _npy_array(lambda: io.BytesIO(data), name, "X", len(data),
                       _vector_shape_check(name))
        return None, X
    return _text_vectors(data, name, suffix)


def _vector_shape_check(name: str) -> Callable[[tuple], None]:
    def check(shape: tuple) -> None:
        if len(shape) != 2:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", "holds a {0}-D array of shape {1}; expected a 2-D array "
                         "(tokens × d_model)"), len(shape), shape))
        if 0 in shape:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", "holds an empty array of shape {0}"), shape))
        _check_size(name, *shape)
    return check


def _check_size(name: str, n: int = 1, d_model: int = 1, d_k: int = 1, heads: int = 1):
    """Refuse dimensions the app cannot hold (``check_size``) before allocating them."""
    try:
        check_size(n, n, d_model, d_k, heads)
    except ValueError as e:
        raise ImportFileError(name, said_by(e) or str(e)) from None


def _text_vectors(data: bytes, name: str, suffix: str):
    text = decode_text(data, name, ImportFileError, problem(QT_TRANSLATE_NOOP(
        "Files", "expected text with one token per line")))
    rows = list(_rows(text, _delimiter(text, suffix), name))
    if not rows:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is empty; expected one line of numbers per token")))
    header = rows.pop(0) if _is_header(rows[0][1]) else None
    if not rows:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "has a header line but no lines of numbers")))
    has_tokens = (any(not NUMBER.fullmatch(cells[0]) for _, cells in rows)
                  or (header is not None and header[1][0].lower() in _TOKEN_HEADERS))
    first = 1 if has_tokens else 0
    width = len(rows[0][1])
    if header is not None and len(header[1]) != width:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "the header (line {0}) has {1} cells but line {2} has {3}"),
            header[0], len(header[1]), rows[0][0], width))
    if width - first < 1:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "line {0} has no numbers after the token name"), rows[0][0]))
    _check_size(name, len(rows), width - first)
    X = np.empty((len(rows), width - first))
    tokens = []
    for i, (line, cells) in enumerate(rows):
        if len(cells) != width:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", "line {0} has {1} cells, expected {2} (as on line {3})"),
                line, len(cells), width, rows[0][0]))
        if has_tokens:
            if not cells[0]:
                raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                    "Files", "line {0}, column 1: the token name is empty"), line))
            if len(cells[0]) > MAX_TOKEN_LENGTH:
                raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                    "Files", "line {0}, column 1: the token name has {1} characters; at "
                             "most {2} are allowed"),
                    line, f"{len(cells[0]):,}", MAX_TOKEN_LENGTH))
            tokens.append(cells[0])
        for j in range(first, width):
            X[i, j - first] = _cell_number(cells[j], name, line, j + 1)
    return (tuple(tokens) if has_tokens else None), X


def _delimiter(text: str, suffix: str) -> str | None:
    """The cell delimiter; ``None`` means runs of whitespace."""
    if suffix == ".csv":
        return ","
    if suffix in (".tsv", ".tab"):
        return "\t"
    first = next((line for line in text.splitlines() if line.strip()), "")
    for d in ("\t", ";", ","):  # ";" before ",": "1,5" may be a decimal in such files
        if d in first:
            return d
    return None


def _rows(text: str, delimiter: str | None, name: str):
    """``(line number, stripped cells)`` for every non-blank line.

    Stops as soon as there are more rows than the attention matrix allows, before the
    rest of a long file is split into cells.
    """
    count = 0
    for line_no, cells in _split(text, delimiter, name):
        if any(cells):
            count += 1
            if count > MAX_TOKENS:
                _check_size(name, count)
            yield line_no, cells


def _split(text: str, delimiter: str | None, name: str):
    if delimiter is None:
        for line_no, line in enumerate(text.splitlines(), 1):
            yield line_no, line.split()
        return
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for cells in reader:
            yield reader.line_num, [c.strip() for c in cells]
    except csv.Error as e:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP("Files", "line {0}: {1}"),
                                            reader.line_num, str(e))) from None


def _is_header(cells: list[str]) -> bool:
    rest = cells[1:] if len(cells) > 1 else cells
    return not any(NUMBER.fullmatch(c) for c in rest)


def _cell_number(cell: str, name: str, line: int, column: int) -> float:
    where = problem(QT_TRANSLATE_NOOP("Files", "line {0}, column {1}"), line, column)
    if not cell:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} is empty, expected a number"), where))
    if not NUMBER.fullmatch(cell):
        shown = cell if len(cell) <= 30 else cell[:27] + "…"
        if cell.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", '{0} is "{1}"; only finite numbers are allowed'), where, shown))
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", '{0} is "{1}", expected a number (with "." as the decimal mark)'),
            where, shown))
    x = float(cell)
    if not math.isfinite(x):
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, too large for a 64-bit float; only finite numbers are "
                     "allowed"), where, cell))
    return x


# -- weights ---------------------------------------------------------------------------

def import_weights(path, d_model: int, d_k: int) -> Weights | list[Weights]:
    """Weights for the current d_model and d_k, one head or one per head.

    ``.npy``: W_Q, W_K, W_V stacked as (3, d_model, d_k) → one ``Weights``, or
    (heads, 3, d_model, d_k) → a list. ``.npz``: arrays named W_Q, W_K, W_V (and
    optionally b_Q, b_K, b_V), each (d_model, d_k) [biases (d_k,)] → one ``Weights``, or
    (heads, d_model, d_k) [(heads, d_k)] → a list. Other names are refused.
    """
    path = Path(path)
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in WEIGHT_SUFFIXES:
        raise ImportFileError(name, _unsupported(suffix, Listed((".npy", ".npz"))))
    data = read_limited(path, ImportFileError)
    if suffix == ".npy":
        return _npy_weights(data, name, d_model, d_k)
    return _npz_weights(data, name, d_model, d_k)


def _npy_weights(data: bytes, name: str, d_model: int, d_k: int):
    def check(shape: tuple) -> None:
        if shape == (3, d_model, d_k) or (len(shape) == 4 and shape[0] >= 1
                                          and shape[1:] == (3, d_model, d_k)):
            _check_size(name, 1, d_model, d_k, 1 if len(shape) == 3 else shape[0])
            return
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "holds an array of shape {0}; expected {1} (W_Q, W_K, W_V stacked, "
                     "each d_model × d_k) or {2}"),
            shape, f"(3, {d_model}, {d_k})",
            problem(QT_TRANSLATE_NOOP("Files", "(heads, 3, {0}, {1})"), d_model, d_k)))
    stack = _npy_array(lambda: io.BytesIO(data), name,
                       problem(QT_TRANSLATE_NOOP("Files", "stack")), len(data), check)
    if stack.ndim == 3:
        return Weights(*stack)
    return [Weights(*head) for head in stack]


def _npz_weights(data: bytes, name: str, d_model: int, d_k: int):
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = {info.filename: info for info in archive.infolist()}
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is not a valid .npz archive ({0})"), str(e))) from None
    keys = {}
    for member, info in members.items():
        if info.flag_bits & 0x1:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", "{0} is encrypted; only plain .npz archives (numpy.savez) can be "
                         "imported"), member))
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", "{0} uses an unsupported compression method {1}; save it with "
                         "numpy.savez or numpy.savez_compressed"), member, info.compress_type))
        key = member[:-4] if member.endswith(".npy") else member
        if key not in WEIGHT_NAMES:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", 'holds an array named "{0}"; expected W_Q, W_K, W_V and '
                         "optionally b_Q, b_K, b_V"), key))
        keys[key] = members[member]
    for key in PROJECTION_NAMES:
        if key not in keys:
            raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                "Files", 'has no array named "{0}"'), key))
    arrays = {}
    heads = None
    for key in WEIGHT_NAMES:
        if key not in keys:
            continue
        info = keys[key]
        is_matrix = key.startswith("W")
        tail = (d_model, d_k) if is_matrix else (d_k,)
        what = "d_model × d_k" if is_matrix else "d_k"

        def check(shape: tuple, key=key, tail=tail, what=what) -> None:
            nonlocal heads
            if heads is None and key == "W_Q" and len(shape) == len(tail) + 1 and shape[0]:
                heads = shape[0]
            expected = tail if heads is None else (heads, *tail)
            if shape != expected:
                raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                    "Files", "{0} has shape {1}, expected {2} ({3})"),
                    key, shape, expected,
                    problem(QT_TRANSLATE_NOOP("Files", "heads × {0}"), what) if heads else what))
            _check_size(name, 1, d_model, d_k, heads or 1)

        arrays[key] = _npy_array(lambda info=info: archive.open(info), name, key,
                                 info.file_size, check)
    if heads is None:
        return Weights(*(arrays.get(k) for k in WEIGHT_NAMES))
    return [Weights(*(None if k not in arrays else arrays[k][h] for k in WEIGHT_NAMES))
            for h in range(heads)]


# -- .npy ------------------------------------------------------------------------------

_STREAM_ERRORS = (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error,
                  RuntimeError, NotImplementedError)
"""What reading a member can raise: zipfile's own errors include ``RuntimeError``
(encrypted), ``NotImplementedError`` (compression method) and ``zlib.error``."""

def _npy_array(open_stream: Callable[[], IO[bytes]], name: str, what: str | Text, size: int,
               check_shape: Callable[[tuple], None]) -> np.ndarray:
    """A finite float64 array from a ``.npy`` stream, checked before it is allocated.

    The header is read first: object, structured, complex and non-numeric dtypes are
    refused, ``check_shape`` may refuse the shape, and a header promising more bytes
    than ``size`` is refused as truncated. Only then is the array read, never with
    pickle.
    """
    try:
        with open_stream() as f:
            version = npy_format.read_magic(f)
            if version == (1, 0):
                shape, _fortran, dtype = npy_format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _fortran, dtype = npy_format.read_array_header_2_0(f)
            else:
                raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
                    "Files", "{0}: unsupported .npy format version {1}"),
                    what, f"{version[0]}.{version[1]}"))
            header_end = f.tell()
    except ImportFileError:
        raise
    except _STREAM_ERRORS as e:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} is not a valid .npy array ({1})"), what, str(e))) from None
    if dtype.hasobject:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} holds Python objects (dtype {1}); only arrays of numbers can be "
                     "imported"), what, str(dtype)))
    if dtype.kind not in "fiu" or dtype.names is not None:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} has dtype {1}; only real numbers (float or integer) can be "
                     "imported"), what, str(dtype)))
    check_shape(tuple(shape))
    needed = header_end + math.prod(shape) * dtype.itemsize
    if needed > size:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} is truncated: its header promises {1} bytes but there are {2}"),
            what, f"{needed:,}", f"{size:,}"))
    try:
        with open_stream() as f:
            arr = npy_format.read_array(f, allow_pickle=False)
    except _STREAM_ERRORS as e:
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0} is damaged ({1})"), what, str(e))) from None
    with np.errstate(over="ignore"):
        arr = arr.astype(np.float64)
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = ", ".join(map(str, idx))
        raise ImportFileError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "{0}[{1}] is {2}; only finite numbers are allowed"),
            what, where, str(arr[idx])))
    return arr
