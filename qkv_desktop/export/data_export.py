"""The numbers behind the figures: CSV, ``.npy``, one ``.npz`` and JSON.

What is exported
----------------
Every format holds the same matrices, named alike (``exported_names``): ``X``, head
``h``'s ``W_Q, W_K, W_V, Q, K, V, scores, scaled, weights, output``, then those of
the catalogue's ``optional_export`` that the session has: ``X_kv`` (cross-attention),
``X_pos`` (sinusoidal positions), ``Q_rope``, ``K_rope`` (RoPE, head ``h``), ``mask``
(1 = allowed, when a rule or the painted mask hides keys), ``bias`` (ALiBi, head
``h``), ``concat`` (h > 1), ``W_O`` and ``projected`` (with W_O). With several heads,
every head's per-head matrices follow under the figures' suffix (``W_Q_h1`` …
``output_h1``, ``Q_rope_h1`` …, then ``_h2`` …), so one export holds all heads while
the unsuffixed names stay head ``h``'s, as in a one-head session. A checkpoint's bias
vectors (b_Q, b_K, b_V) are not matrices of the catalogue: the session file keeps
them.

Formats
-------
CSV
    One matrix per file, UTF-8 with a byte-order mark (so that Excel shows Chinese
    tokens correctly; Python reads it with ``encoding="utf-8-sig"``). The first row is
    a header: the corner cell (``token``, or ``dim`` for the weight matrices) and then
    the column labels: key tokens for the n×m matrices, ``d0, d1, …`` for dimensions,
    ``h1·d0 …`` for the concatenated heads. Each later row starts with its token (or
    ``d<i>``, ``h<k>·d<i>`` for W_O). Numbers are written in the shortest form that
    reads back to the same value of the matrix's dtype; non-finite values are ``inf``,
    ``-inf`` and ``nan``.
``.npy``
    One matrix per file, its dtype kept.
``matrices.npz``
    ``tokens`` then the matrices above: exactly ``NPZ_KEYS`` for a one-head session
    without RoPE or W_O. ``tokens`` is a unicode array, so ``np.load(...,
    allow_pickle=False)`` reads everything.
JSON
    ``{"format": "qkv-desktop/matrices", "version": 2, "tokens": [...],
    "key_tokens": [...], "head_index": h, "head_number": h + 1, "n_heads": ...,
    "dtype": ..., "options": {...}, "nonfinite": ..., "matrices": {"X": [[...], ...],
    ...}}``. ``head_index`` counts from 0 (as a session file's ``layout.head``),
    ``head_number`` from 1 (as the window's "head 2 of 2" and the ``_h2`` names).
    JSON has no infinities, so non-finite values are the strings ``"Infinity"``,
    ``"-Infinity"`` and ``"NaN"`` (``float()`` in Python and ``Number()`` in JavaScript
    read them back); ``"-Infinity"`` in ``scaled`` marks a masked cell, and the
    ``nonfinite`` note names the masks that hide some (``nonfinite_note``). The file is
    strict JSON (no bare ``NaN``/``Infinity`` tokens).

Single files are written atomically; ``export_data`` writes a whole set of files
together or not at all.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from qkv_desktop.core.masks import CAUSAL, REASONS
from qkv_desktop.export.formats import check_choices
from qkv_desktop.io.files import atomic_write_bytes
from qkv_desktop.io.staged_files import StagedFiles
from qkv_desktop.state.catalogue import (
    HEAD_EXPORT,
    MATRIX,
    OPTIONAL_EXPORT,
    TOKEN_KINDS,
    axis_labels,
    head_file_name,
)
from qkv_desktop.state.compute import ModelResult
from qkv_desktop.state.session_state import options_to_json

__all__ = ["MATRIX_NAMES", "NPZ_KEYS", "OPTIONAL_NPZ_KEYS", "DATA_FORMATS", "NONFINITE_NOTE",
           "JSON_VERSION", "nonfinite_note",
           "LabelledMatrix", "exported_matrices", "exported_names",
           "labelled_matrices", "csv_bytes", "npy_bytes", "npz_bytes", "json_bytes",
           "write_csv", "write_npy", "write_npz", "write_json", "check_data_formats",
           "data_files", "export_data"]

MATRIX_NAMES = HEAD_EXPORT
"""The matrices every data export holds, in order (the catalogue's ``head_export``)."""
NPZ_KEYS = ("tokens",) + MATRIX_NAMES
"""The first keys of ``matrices.npz``, in order (all of them for one head without RoPE
or W_O)."""
OPTIONAL_NPZ_KEYS = OPTIONAL_EXPORT
"""Exported after ``MATRIX_NAMES`` when the session has them (the catalogue's
``optional_export``: ``X_kv``, ``X_pos``, ``Q_rope``, ``K_rope``, ``mask``, ``bias``,
``concat``, ``W_O``, ``projected``)."""

DATA_FORMATS = ("csv", "npy", "npz", "json")

NONFINITE_NOTE = 'non-finite values are the strings "Infinity", "-Infinity" and "NaN"'
"""The start of the JSON's ``nonfinite`` note; ``nonfinite_note`` adds what masks cells."""

JSON_VERSION = 2
"""Version 2 names the head ``head_index`` (from 0) and ``head_number`` (from 1); version 1
had a bare ``head`` from 0 beside figures and ``_hN`` names counting from 1."""


def nonfinite_note(result: ModelResult, h: int = 0) -> str:
    """``NONFINITE_NOTE`` and which masks hide the cells that are ``"-Infinity"`` in
    ``scaled``: the rules that really mask some cell of head ``h`` (``core.masks.REASONS``:
    causal, window, custom), e.g. ``… marks a masked cell (masked by: causal, custom;
    0 in "mask")``; ``… no cell is masked`` when none is."""
    codes = np.unique(result.head(h).mask_reasons)
    kinds = [REASONS[c] for c in sorted(int(c) for c in codes) if c >= CAUSAL]
    if not kinds:
        return NONFINITE_NOTE + "; no cell is masked"
    return (NONFINITE_NOTE + '; "-Infinity" in scaled marks a masked cell (masked by: '
            + ", ".join(kinds) + '; 0 in "mask")')


@dataclass(frozen=True, eq=False)
class LabelledMatrix:
    """A matrix with the labels of its rows and columns and the header's corner cell."""

    name: str
    data: np.ndarray
    row_labels: list[str]
    col_labels: list[str]
    corner: str


def exported_matrices(state, h: int = 0) -> list[tuple[str, str, int]]:
    """``(export name, catalogue name, head)`` of every matrix the data export holds, in
    file order (see the module notes).

    The one list all four formats write, so that CSV, NPY, NPZ and JSON hold the same
    matrices (CSV once lacked RoPE's ``Q_rope``, which the NPZ had) and a session of
    several heads exports each of them, not only head ``h``.
    """
    h = state.head_index(h)
    names = [n for n in HEAD_EXPORT + OPTIONAL_EXPORT
             if MATRIX[n].present is None or MATRIX[n].present(state)]
    out = [(n, n, h) for n in names]
    if state.n_heads > 1:
        out += [(head_file_name(n, k), n, k) for k in range(state.n_heads)
                for n in names if MATRIX[n].per_head]
    return out


def exported_names(state) -> list[str]:
    """The names of the exported matrices, in file order (the same for every head)."""
    return [name for name, _, _ in exported_matrices(state)]


def labelled_matrices(result: ModelResult, h: int = 0) -> dict[str, LabelledMatrix]:
    """Every exported matrix (``exported_matrices``; head ``h``'s under the plain names)
    with its labels, keyed by its export name."""
    state = result.state
    dim = "d{}".format
    out = {}
    for name, matrix, head in exported_matrices(state, h):
        spec = MATRIX[matrix]
        corner = "token" if spec.rows in TOKEN_KINDS else "dim"
        out[name] = LabelledMatrix(name, np.asarray(result.matrix(matrix, head)),
                                   axis_labels(state, spec.rows, dim),
                                   axis_labels(state, spec.cols, dim), corner)
    return out


def _number_strings(data: np.ndarray) -> np.ndarray:
    """Shortest round-trip text of every value, in the array's own dtype."""
    if data.dtype.kind != "f":
        data = data.astype(np.float64)
    return data.astype(str)


def csv_bytes(data: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str],
              corner: str = "token") -> bytes:
    """One matrix as CSV (UTF-8 with BOM, header row, one labelled row per matrix row)."""
    data = np.asarray(data)
    if data.ndim != 2 or data.shape != (len(row_labels), len(col_labels)):
        raise ValueError(f"a {data.shape} matrix needs {data.shape[0] if data.ndim else 0} "
                         f"row and {data.shape[1] if data.ndim == 2 else 0} column labels, "
                         f"got {len(row_labels)} and {len(col_labels)}")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow([corner, *col_labels])
    for label, row in zip(row_labels, _number_strings(data).tolist(), strict=True):
        writer.writerow([label, *row])
    return text.getvalue().encode("utf-8-sig")


def npy_bytes(data: np.ndarray) -> bytes:
    """One matrix in NumPy's ``.npy`` format (no pickling)."""
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(data), allow_pickle=False)
    return buffer.getvalue()


def npz_bytes(result: ModelResult, h: int = 0, extra: dict | None = None) -> bytes:
    """``matrices.npz``: the tokens, every exported matrix (``exported_matrices``: head
    ``h``'s ``NPZ_KEYS``, the optional ones the session has, every head's for h > 1),
    then ``extra`` (name → array), e.g. a model's ``token_ids`` and next-token
    predictions."""
    arrays = {"tokens": np.array(list(result.state.tokens), dtype=np.str_)}
    arrays.update((m.name, m.data) for m in labelled_matrices(result, h).values())
    for name, value in (extra or {}).items():
        if name in arrays:
            raise ValueError(f"extra array {name!r} would replace a matrix of the result")
        arrays[name] = np.asarray(value)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # no object arrays: readable with allow_pickle=False
    return buffer.getvalue()


def _json_matrix(data: np.ndarray) -> list[list]:
    """Rows of numbers (shortest round-trip form), non-finite values as strings."""
    special = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}
    return [[special[t] if t in special else float(t) for t in row]
            for row in _number_strings(np.asarray(data)).tolist()]


def json_bytes(result: ModelResult, h: int = 0) -> bytes:
    """Every exported matrix (head ``h``'s under the plain names) with the tokens and
    options as strict JSON (UTF-8)."""
    state = result.state
    h = state.head_index(h)
    o = state.options
    doc = {
        "format": "qkv-desktop/matrices",
        "version": JSON_VERSION,
        "tokens": list(state.tokens),
        "key_tokens": list(state.key_tokens),
        "head_index": h,  # from 0, as a session file's layout.head and model.head
        "head_number": h + 1,  # from 1, as the window, the figures and the _hN names
        "n_heads": state.n_heads,
        "dtype": o.dtype,
        "options": {
            **{k: v for k, v in options_to_json(o).items() if k != "dtype"},
            "divisor": float(result.head(h).divisor),
            "mode": state.mode,
        },
        "nonfinite": nonfinite_note(result, h),
        "matrices": {m.name: _json_matrix(m.data)
                     for m in labelled_matrices(result, h).values()},
    }
    return (json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=1) + "\n").encode()


def write_csv(path: str | os.PathLike, data: np.ndarray, row_labels: Sequence[str],
              col_labels: Sequence[str], corner: str = "token") -> Path:
    """Write one labelled matrix as CSV, atomically."""
    path = Path(path)
    atomic_write_bytes(path, csv_bytes(data, row_labels, col_labels, corner))
    return path


def write_npy(path: str | os.PathLike, data: np.ndarray) -> Path:
    """Write one matrix as ``.npy``, atomically."""
    path = Path(path)
    atomic_write_bytes(path, npy_bytes(data))
    return path


def write_npz(path: str | os.PathLike, result: ModelResult, h: int = 0) -> Path:
    """Write ``matrices.npz`` (see ``npz_bytes``), atomically."""
    path = Path(path)
    atomic_write_bytes(path, npz_bytes(result, h))
    return path


def write_json(path: str | os.PathLike, result: ModelResult, h: int = 0) -> Path:
    """Write every matrix with tokens and options as JSON, atomically."""
    path = Path(path)
    atomic_write_bytes(path, json_bytes(result, h))
    return path


def check_data_formats(formats: str | Iterable[str]) -> tuple[str, ...]:
    """``formats`` as a tuple of known data formats, or a ``ValueError`` naming the bad one."""
    return check_choices(formats, DATA_FORMATS, "data")


def data_files(result: ModelResult, out_dir: str | os.PathLike,
               formats: str | Iterable[str] = ("csv",),
               h: int = 0) -> list[tuple[Path, Callable[[], bytes]]]:
    """The files ``export_data`` writes, each with the function that makes its bytes.

    A caller that shows progress (the window's Export all) encodes them one by one;
    the order is that of ``formats``, and within CSV/NPY that of ``exported_matrices``.
    """
    formats = check_data_formats(formats)
    out_dir = Path(out_dir)
    mats = labelled_matrices(result, h)
    files: list[tuple[Path, Callable[[], bytes]]] = []
    for fmt in formats:
        if fmt == "csv":
            files += [(out_dir / f"{m.name}.csv",
                       partial(csv_bytes, m.data, m.row_labels, m.col_labels, m.corner))
                      for m in mats.values()]
        elif fmt == "npy":
            files += [(out_dir / f"{m.name}.npy", partial(npy_bytes, m.data))
                      for m in mats.values()]
        elif fmt == "npz":
            files.append((out_dir / "matrices.npz", partial(npz_bytes, result, h)))
        else:
            files.append((out_dir / "matrices.json", partial(json_bytes, result, h)))
    return files


def export_data(result: ModelResult, out_dir: str | os.PathLike,
                formats: str | Iterable[str] = ("csv",), h: int = 0) -> list[Path]:
    """Write the session's matrices (head ``h``'s under the plain names, every head's
    for h > 1: ``exported_matrices``) into ``out_dir``, all files or none.

    ``csv`` and ``npy`` give one file per matrix (``Q.csv``, ``Q_h2.npy``…), ``npz``
    gives ``matrices.npz`` and ``json`` gives ``matrices.json``. ``out_dir`` must exist.
    """
    files = data_files(result, out_dir, formats, h)
    if not Path(out_dir).is_dir():
        raise ValueError(f"{os.fspath(out_dir)!r} is not an existing folder")
    with StagedFiles() as staged:
        for path, make in files:
            staged.add(path, make())
        return staged.commit()
