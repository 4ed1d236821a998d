"""Session files (``.qkv.json``): save atomically, load strictly, migrate old versions.

A session file is UTF-8 JSON holding one ``SessionState`` plus an optional free
``layout`` object for the UI. Loading trusts nothing: every field is checked for type,
shape and finiteness, and the first problem is reported as a ``SessionError`` that names
the file and the field down to row and column (indices count from 0, as in the JSON),
e.g. ``session.qkv.json: X[1][4] is NaN; only finite numbers are allowed``.

Older versions are read through explicit migration steps (``_MIGRATIONS``); unknown
formats and future versions are refused. Floats are written with ``repr`` (the
shortest string that reads back to the same double), so save → load is bit-exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from qkv_desktop.core import Weights
from qkv_desktop.io.files import (
    FileFormatError,
    FileProblemError,
    atomic_write_bytes,
    decode_text,
    problem,
    read_limited,
)
from qkv_desktop.state.catalogue import BIAS_NAMES, PROJECTION_NAMES, WEIGHT_NAMES
from qkv_desktop.state.provenance import PROVENANCE_TYPES, Provenance, provenance_to_json
from qkv_desktop.state.session_state import (
    MAX_SEED,
    MAX_TOKEN_LENGTH,
    Float32RangeError,
    Options,
    SessionState,
    check_size,
    frozen_array,
    options_to_json,
)
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP, Listed, Text, said_by

__all__ = ["SessionError", "LoadedSession", "save_session", "load_session",
           "parse_session", "session_to_json", "FORMAT", "CURRENT_VERSION", "SUFFIX",
           "EXTRA_KEYS", "MAX_SESSION_BYTES"]

FORMAT = "qkv-desktop-session"
CURRENT_VERSION = 3
SUFFIX = ".qkv.json"
EXTRA_KEYS = ("layout",)
"""Top-level keys ``save_session(extra=...)`` may add and ``LoadedSession.extra`` returns."""

_KEYS = {
    1: {"format", "version", "tokens", "X", "d_k", "weights", "init", "options"},
    2: {"format", "version", "tokens", "X", "d_k", "heads", "init", "options", "W_O",
        "mode", "kv_tokens", "X_kv", "layout"},
    3: {"format", "version", "tokens", "X", "d_k", "heads", "init", "options", "W_O",
        "mode", "kv_tokens", "X_kv", "layout", "model"},
}
_V3_OPTIONS = ("positions", "rope_base", "rope_pairing", "window", "prefix", "sinks", "alibi",
               "custom_mask", "masked")
"""The options version 3 added: positions (sinusoidal, RoPE) and masks (window, prefix,
sinks, ALiBi slopes, custom masked cells)."""
MAX_SESSION_BYTES = 256 * 1024 * 1024
"""Largest session file (256 MB) the app writes and reads back.

Sessions are the app's own files, and the one that matters most is the autosave that
recovers a long session after a crash: the app holds float32 sessions of 8,192 tokens,
and at d_model = 768 that is about 140 MB of text (a float32 value written as the
double it is takes about 20 characters). The 50 MB limit of imported files would make
that autosave unreadable, so sessions get their own limit, and ``save_session``
refuses to write a file above it, so no session is ever written that cannot be opened
again. Reading 256 MB of JSON costs about 1 GB of memory for a moment."""


class SessionError(FileFormatError):
    """A session file that cannot be opened; the message names the file and the problem."""


@dataclass(frozen=True)
class LoadedSession:
    """What a session file holds: the state, the UI's extras, the version it was saved as.

    ``extra`` has the keys of ``EXTRA_KEYS`` that the file had (``{"layout": {...}}``).
    ``source_version`` < ``CURRENT_VERSION`` means the file was migrated and saving
    will write the current version.
    """

    state: SessionState
    extra: dict = field(default_factory=dict)
    source_version: int = CURRENT_VERSION

    @property
    def shown_head(self) -> int:
        """The head the panes showed when the file was saved (``layout.head``, checked
        to be one of the state's heads), 0 in a file that does not say (older files)."""
        return (self.extra.get("layout") or {}).get("head", 0)


# -- saving ----------------------------------------------------------------------------

def save_session(state: SessionState, path, extra: dict | None = None) -> None:
    """Write ``state`` (and ``extra``, e.g. ``{"layout": {...}}``) to ``path`` atomically.

    Raises ``ValueError`` for an ``extra`` that is not plain JSON or a file larger than
    ``MAX_SESSION_BYTES`` (before touching the disk) and ``OSError`` if the file cannot
    be written; either way an existing file at ``path`` is left exactly as it was.
    """
    data = session_to_json(state, extra).encode("utf-8")
    if len(data) > MAX_SESSION_BYTES:
        raise FileProblemError(QT_TRANSLATE_NOOP(
            "Files", "the session would be a file of {0} MB, and session files over {1} MB "
                     "cannot be opened again; export its matrices as data (.npz) instead"),
            f"{len(data) / 1024**2:.0f}", MAX_SESSION_BYTES // 1024**2)
    atomic_write_bytes(path, data)


def session_to_json(state: SessionState, extra: dict | None = None) -> str:
    """The text of a current-version session file for ``state``."""
    obj: dict[str, Any] = {
        "format": FORMAT,
        "version": CURRENT_VERSION,
        "tokens": list(state.tokens),
        "X": _formatted(state.X),
        "d_k": state.d_k,
        "heads": [{name: _formatted(getattr(w, name)) for name in WEIGHT_NAMES}
                  for w in state.heads],
        "W_O": _formatted(state.W_O),
        "mode": state.mode,
        "kv_tokens": list(state.kv_tokens),
        "X_kv": _formatted(state.X_kv),
        "init": {"seed": int(state.seed), "scale": float(state.init_scale)},
        "options": options_to_json(state.options),
    }
    if state.provenance is not None:
        obj["model"] = provenance_to_json(state.provenance)
    for key, value in (extra or {}).items():
        if key not in EXTRA_KEYS:
            raise ValueError(f"extra key {key!r} is not allowed; use one of {EXTRA_KEYS}")
        if not isinstance(value, dict):
            raise ValueError(f"extra[{key!r}] must be a dict, got {type(value).__name__}")
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"extra[{key!r}] is not plain JSON data: {e}") from None
        obj[key] = value
    return _to_json(obj) + "\n"


class _Rows(tuple):
    """A matrix already formatted: one JSON array text per row (see ``_formatted``)."""


class _Row(str):
    """A vector already formatted as one JSON array text."""


def _formatted(a: np.ndarray | None):
    """``a`` formatted for ``_to_json``, one row at a time, without Python-level work per
    number: ``float.__repr__`` mapped over a row's floats in C writes exactly what
    ``json`` writes (the shortest text that reads back to the same double). Formatting
    a row at a time, each a short C call, lets the GUI thread take the GIL between rows
    while autosave formats a large session on its worker."""
    if a is None:
        return None
    a = np.asarray(a, dtype=np.float64)
    if not np.isfinite(a).all():
        raise ValueError("Out of range float values are not JSON compliant")
    if a.ndim == 1:
        return _Row("[" + ", ".join(map(float.__repr__, a.tolist())) + "]")
    return _Rows("[" + ", ".join(map(float.__repr__, row.tolist())) + "]" for row in a)


def _to_json(value, level: int = 0) -> str:
    """Indented JSON with one matrix row per line, so files stay readable and diffable."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, _Row):
        return value
    if isinstance(value, _Rows):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + row for row in value) + "\n" + pad + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        for k in value:
            if not isinstance(k, str):
                raise ValueError(f"JSON object keys must be strings, got {k!r}")
        items = (f"{inner}{_scalar(k)}: {_to_json(v, level + 1)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not any(isinstance(v, (dict, list, tuple)) for v in value):
            return "[" + ", ".join(map(_scalar, value)) + "]"
        items = (inner + _to_json(v, level + 1) for v in value)
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _scalar(value)


def _scalar(v) -> str:
    if type(v) is float and math.isfinite(v):
        return float.__repr__(v)  # exactly what json writes, without its per-call overhead
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate, e.g. from an undecodable file name
            return json.dumps(v)  # \u escapes keep the file UTF-8 and read back the same
    return json.dumps(v, ensure_ascii=False, allow_nan=False)


# -- loading ---------------------------------------------------------------------------

def load_session(path) -> LoadedSession:
    """Read and validate a session file; ``SessionError`` says what is wrong and where."""
    name = Path(path).name or str(path)
    data = read_limited(path, SessionError, limit=MAX_SESSION_BYTES)
    return parse_session(_decode_json(data, name), name)


class _NonFinite:
    """Stands in for NaN / ±Infinity / an overflowing literal so the validator can say
    which field held it (``json`` would otherwise turn them into floats silently)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _no_duplicates(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", 'the key "{0}" appears twice in one object'), k)
        obj[k] = v
    return obj


def _parse_float(text: str):
    x = float(text)
    return x if math.isfinite(x) else _NonFinite(text)


def _parse_int(text: str):
    digits = len(text.lstrip("-"))
    # beyond any float, and int() of thousands of digits is refused by Python anyway
    return int(text) if digits <= 309 else _NonFinite(problem(QT_TRANSLATE_NOOP(
        "Files", "an integer of {0} digits"), digits))


def _decode_json(data: bytes, name: str):
    if not data.removeprefix(b"\xef\xbb\xbf").strip():
        raise SessionError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "the file is empty")))
    text = decode_text(data, name, SessionError,
                       problem(QT_TRANSLATE_NOOP("Files", "it is not a session file")))
    try:
        return json.loads(text, parse_constant=_NonFinite, parse_float=_parse_float,
                          parse_int=_parse_int,
                          object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        hint = (problem(QT_TRANSLATE_NOOP("Files", "; the file looks truncated"))
                if e.pos >= len(text.rstrip())
                else problem(QT_TRANSLATE_NOOP("Files", "; the file is damaged or not a "
                                                        "session file")))
        raise SessionError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is not valid JSON: {0} at line {1}, column {2}{3}"),
            _JSON_PROBLEMS.get(e.msg, e.msg), e.lineno, e.colno, hint)) from None
    except _Invalid as e:
        raise SessionError(name, e.text) from None
    except RecursionError:
        raise SessionError(name, problem(QT_TRANSLATE_NOOP(
            "Files", "is nested too deeply to be a session file"))) from None


_JSON_PROBLEMS = {msg: problem(msg) for msg in (
    QT_TRANSLATE_NOOP("Files", "Expecting value"),
    QT_TRANSLATE_NOOP("Files", "Expecting property name enclosed in double quotes"),
    QT_TRANSLATE_NOOP("Files", "Expecting ':' delimiter"),
    QT_TRANSLATE_NOOP("Files", "Expecting ',' delimiter"),
    QT_TRANSLATE_NOOP("Files", "Extra data"),
    QT_TRANSLATE_NOOP("Files", "Unterminated string starting at"),
    QT_TRANSLATE_NOOP("Files", "Invalid control character at"),
    QT_TRANSLATE_NOOP("Files", "Invalid \\escape"),
    QT_TRANSLATE_NOOP("Files", "Invalid \\uXXXX escape"),
)}
"""What ``json`` finds wrong (its ``msg``, in its English words), said in the window's
language; a message not listed here is shown as ``json`` words it."""


class _Invalid(Exception):
    """A problem found by the validator, before the file name is attached: a template
    marked ``QT_TRANSLATE_NOOP("Files", …)`` and its fields, or a ``Text`` (or a
    sentence no one marked) of the state's, passed on as it is."""

    def __init__(self, template: str | Text, *args) -> None:
        self.text = template if isinstance(template, Text) else problem(template, *args)
        super().__init__(str(self.text))


def parse_session(obj, source_name: str) -> LoadedSession:
    """Validate decoded JSON ``obj`` (any version) and build the state it describes.

    ``source_name`` is the file name used in ``SessionError`` messages.
    """
    try:
        version = _check_header(obj)
        for key in obj:
            if key not in _KEYS[version]:
                raise _Invalid(QT_TRANSLATE_NOOP(
                    "Files", 'unknown field "{0}" for a version {1} session'), key, version)
        migrated = obj
        for v in range(version, CURRENT_VERSION):
            migrated = _MIGRATIONS[v](migrated)
        head_label = (lambda h: "weights") if version == 1 else (lambda h: f"heads[{h}]")
        state, extra = _build(migrated, head_label)
    except _Invalid as e:
        raise SessionError(source_name, e.text) from None
    return LoadedSession(state, extra, version)


def _check_header(obj) -> int:
    if not isinstance(obj, dict):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'the top level is {0}, expected a JSON object with "format": "{1}"'),
            _describe(obj), FORMAT)
    if "format" not in obj:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'has no "format" field; it is not a QKV Desktop session'))
    if obj["format"] != FORMAT:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'unknown format {0}; expected "{1}"'), _describe(obj["format"]), FORMAT)
    if "version" not in obj:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'has no "version" field'))
    version = obj["version"]
    if type(version) is not int:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "version is {0}, expected an integer"), _describe(version))
    if version > CURRENT_VERSION:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "version {0} is newer than this app can read (up to {1}); update QKV Desktop to "
                     "open it"), version, CURRENT_VERSION)
    if version < 1:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "unknown version {0}"), version)
    return version


def _migrate_v1_to_v2(obj: dict) -> dict:
    """Version 1 held one head under "weights"; version 2 holds a list under "heads".

    The fields version 2 added (W_O, mode, kv_tokens, X_kv, options stable / share_qk
    / dtype, layout) are optional and default to a single-head self-attention session.
    """
    if "weights" not in obj:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'the field "weights" is missing'))
    out = {k: v for k, v in obj.items() if k != "weights"}
    out["heads"] = [obj["weights"]]
    out["version"] = 2
    return out


def _migrate_v2_to_v3(obj: dict) -> dict:
    """Version 3 added the position and mask options (``_V3_OPTIONS``); they are optional
    and default to none, so a version 2 session reads unchanged: no positions, no mask
    beyond its causal flag."""
    options = obj.get("options")
    for key in _V3_OPTIONS:
        if isinstance(options, dict) and key in options:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", 'unknown option "{0}" for a version 2 session'), key)
    return {**obj, "version": 3}


_MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _migrate_v1_to_v2, 2: _migrate_v2_to_v3}
"""``_MIGRATIONS[v]`` turns a version-v object into a version-(v+1) object."""


def _build(obj: dict, head_label: Callable[[int], str]) -> tuple[SessionState, dict]:
    """A state from a current-version object; raises ``_Invalid`` on the first problem."""
    tokens = _tokens(_required(obj, "tokens"), "tokens", allow_empty=False)
    X_raw = _required(obj, "X")
    n, d_model = _shape(X_raw, "X")
    if n != len(tokens):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} tokens but X has {1} rows; there must be one row per token"),
            len(tokens), n)
    d_k = _required(obj, "d_k")
    if type(d_k) is not int or d_k < 1:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "d_k is {0}, expected a positive integer"), _describe(d_k))

    mode = obj.get("mode", "self")
    if mode not in ("self", "cross"):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'mode is {0}, expected "self" or "cross"'), _describe(mode))
    kv_tokens = _tokens(obj.get("kv_tokens", []), "kv_tokens", allow_empty=True)
    X_kv_raw = obj.get("X_kv")
    n_kv = None
    if X_kv_raw is not None:
        n_kv, d_kv = _shape(X_kv_raw, "X_kv")
        if d_kv != d_model:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "X_kv rows have {0}, expected {1} (d_model, the length of each X row)"),
                _values(d_kv), d_model)
        if n_kv != len(kv_tokens):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0} kv_tokens but X_kv has {1} rows; there must be one row per key/value "
                         "token"), len(kv_tokens), n_kv)
    elif mode == "cross":
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'mode is "cross" but X_kv is missing; cross-attention needs a key/value sequence'))

    heads_raw = _required(obj, "heads")
    if not isinstance(heads_raw, list):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "heads is {0}, expected a list of heads"), _describe(heads_raw))
    if not heads_raw:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "heads is empty; a session needs at least one head"))

    raw_options = obj.get("options")
    dtype = raw_options.get("dtype") if isinstance(raw_options, dict) else None
    try:  # before any array is built
        check_size(n, n_kv if mode == "cross" else n, d_model, d_k, len(heads_raw), n_kv or 0,
                   "float32" if dtype == "float32" else "float64")
    except ValueError as e:
        raise _Invalid(said_by(e) or str(e)) from None

    X = _matrix(X_raw, "X", (n, d_model), ("tokens", "d_model"))
    X_kv = (None if X_kv_raw is None
            else _matrix(X_kv_raw, "X_kv", (n_kv, d_model), ("kv_tokens", "d_model")))
    heads = tuple(_head(w, head_label(h), d_model, d_k) for h, w in enumerate(heads_raw))
    W_O = obj.get("W_O")
    if W_O is not None:
        rows = len(heads) * d_k
        W_O = _matrix(W_O, "W_O", (rows, d_model),
                      (f"heads × d_k = {len(heads)} × {d_k}", "d_model"))
    seed, init_scale = _init(obj.get("init", {}))
    options = _options(obj.get("options", {}))
    layout = obj.get("layout")
    extra = {}
    if "layout" in obj:
        if not isinstance(layout, dict):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "layout is {0}, expected a JSON object"), _describe(layout))
        _check_plain(layout, "layout")
        if "head" in layout:  # the head on show: one of the heads, or the file is damaged
            head = _count(layout["head"], "layout.head", 0, False)
            if head >= len(heads_raw):
                raise _Invalid(QT_TRANSLATE_NOOP(
                    "Files", "layout.head is {0}, but the session's heads are numbered 0 "
                             "to {1}"), head, len(heads_raw) - 1)
        extra["layout"] = layout
    provenance = _provenance(obj["model"]) if "model" in obj else None
    try:  # a float32 session beyond float32's range is refused here, as render refuses it
        state = SessionState(tokens, X, heads, seed, init_scale, options, W_O=W_O,
                             mode=mode, kv_tokens=kv_tokens, X_kv=X_kv,
                             provenance=provenance)
    except Float32RangeError as e:  # the option named as its control says it
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", '{0} is "float32", but {1}'), _option_path(_OPTION_FIELDS["dtype"]),
            e) from None
    except ValueError as e:  # the checks above should make this unreachable
        raise _Invalid(said_by(e) or str(e)) from None
    return state, extra


def _required(obj: dict, key: str):
    if key not in obj:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", 'the field "{0}" is missing'), key)
    return obj[key]


def _tokens(value, path: str, *, allow_empty: bool) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a list of strings"), path, _describe(value))
    if not value and not allow_empty:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is empty; a session needs at least one token"), path)
    for i, t in enumerate(value):
        if not isinstance(t, str):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0}[{1}] is {2}, expected a non-empty string"), path, i, _describe(t))
        if not t:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0}[{1}] is an empty string; every token needs a name"), path, i)
        if len(t) > MAX_TOKEN_LENGTH:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0}[{1}] has {2} characters; a token name can have at most {3}"),
                path, i, f"{len(t):,}", MAX_TOKEN_LENGTH)
    return tuple(value)


def _shape(value, path: str) -> tuple[int, int]:
    """Rows and columns of a list of equal-length lists (not yet checked cell by cell)."""
    if not isinstance(value, list):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a list of rows (lists of numbers)"),
            path, _describe(value))
    if not value:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is empty; it needs at least one row"), path)
    cols = None
    for i, row in enumerate(value):
        if not isinstance(row, list):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0}[{1}] is {2}, expected a row (a list of numbers)"),
                path, i, _describe(row))
        if cols is None:
            if not row:
                raise _Invalid(QT_TRANSLATE_NOOP(
                    "Files", "{0} row 0 is empty; rows need at least one value"), path)
            cols = len(row)
        elif len(row) != cols:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0} row {1} has {2}, expected {3}"), path, i, _values(len(row)), cols)
    return len(value), cols


def _matrix(value, path: str, shape: tuple[int, int], names: tuple[str, str]) -> np.ndarray:
    """``value`` as a read-only float64 array of ``shape``; the names explain the shape."""
    if not isinstance(value, list):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a list of rows (lists of numbers)"),
            path, _describe(value))
    if len(value) != shape[0]:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} has {1} rows, expected {2} ({3})"), path, len(value), shape[0], names[0])
    out = np.empty(shape)
    for i, row in enumerate(value):
        if not isinstance(row, list):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0}[{1}] is {2}, expected a row (a list of numbers)"),
                path, i, _describe(row))
        if len(row) != shape[1]:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "{0} row {1} has {2}, expected {3} ({4})"),
                path, i, _values(len(row)), shape[1], names[1])
        _fill(out, i, row, f"{path}[{i}]")
    return frozen_array(out)


def _vector(value, path: str, length: int) -> np.ndarray:
    if not isinstance(value, list):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected null or a list of {2} numbers"),
            path, _describe(value), length)
    if len(value) != length:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} has {1}, expected {2} (d_k)"), path, _values(len(value)), length)
    out = np.empty(length)
    _fill(out, slice(None), value, path)
    return frozen_array(out)


_NUMBER_TYPES = (int, float)


def _fill(out: np.ndarray, index, values: list, path: str) -> None:
    """Copy a list of numbers into ``out[index]``, or name the first cell that is not one."""
    if all(type(v) in _NUMBER_TYPES for v in values):  # bool is not int here
        try:
            out[index] = values
        except OverflowError:  # an integer literal beyond the float range
            pass
        else:
            if np.isfinite(out[index]).all():
                return
    for j, v in enumerate(values):
        _number(v, f"{path}[{j}]")


def _number(v, path: str | Text) -> float:
    """``v`` as a finite float; ints are fine, bools and strings are not."""
    if isinstance(v, _NonFinite):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}; only finite numbers are allowed"), path, v.text)
    if type(v) not in _NUMBER_TYPES:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a number"), path, _describe(v))
    try:
        x = float(v)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}; only finite numbers are allowed"), path, _describe(v))
    return x


def _head(value, label: str, d_model: int, d_k: int) -> Weights:
    if not isinstance(value, dict):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected an object with W_Q, W_K, W_V"), label, _describe(value))
    for key in value:
        if key not in WEIGHT_NAMES:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", 'unknown field "{0}" in {1}; expected {2}'),
                key, label, Listed(WEIGHT_NAMES))
    mats = [_matrix(_required_in(value, k, label), f"{label}.{k}", (d_model, d_k),
                    (_X_ROW_LENGTH, "d_k"))
            for k in PROJECTION_NAMES]
    biases = [None if value.get(k) is None else _vector(value[k], f"{label}.{k}", d_k)
              for k in BIAS_NAMES]
    return Weights(*mats, *biases)


def _required_in(obj: dict, key: str, label: str):
    if key not in obj:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", '{0} has no "{1}"'), label, key)
    return obj[key]


def _init(value) -> tuple[int, float]:
    if not isinstance(value, dict):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "init is {0}, expected an object with seed and scale"), _describe(value))
    for key in value:
        if key not in ("seed", "scale"):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", 'unknown field "{0}" in init; expected seed, scale'), key)
    seed = value.get("seed", 42)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "init.seed is {0}, expected an integer from 0 to {1}"),
            _describe(seed), MAX_SEED)
    return seed, _number(value.get("scale", 0.1), "init.scale")


def _options(value) -> Options:
    """The options object, read field by field as ``Options`` declares them."""
    if not isinstance(value, dict):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "options is {0}, expected an object"), _describe(value))
    known = [f.name for f in fields(Options)]
    for key in value:
        if key not in known:
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", 'unknown option "{0}"; known options: {1}'), key, Listed(known))
    parsed = {}
    for f in fields(Options):
        if f.name not in value:  # an option the file does not set keeps its default
            parsed[f.name] = f.default
            continue
        v, kind, path = value[f.name], f.metadata["kind"], _option_path(f)
        if kind == "scale":
            if isinstance(v, str):
                if v not in ("sqrt_dk", "none"):
                    raise _Invalid(QT_TRANSLATE_NOOP(
                        "Files", '{0} is {1}, expected "sqrt_dk", "none" or a positive number'),
                        path, _describe(v))
            else:
                v = _positive(v, path, problem(QT_TRANSLATE_NOOP(
                    "Files", 'expected "sqrt_dk", "none" or a positive number')))
        elif kind == "positive":
            v = _positive(v, path, problem(QT_TRANSLATE_NOOP(
                "Files", "expected a positive number")))
        elif kind == "flag":
            if not isinstance(v, bool):
                raise _Invalid(QT_TRANSLATE_NOOP(
                    "Files", "{0} is {1}, expected true or false"), path, _describe(v))
        elif kind == "choice":
            choices = f.metadata["choices"]
            if not isinstance(v, str) or v not in choices:
                raise _Invalid(QT_TRANSLATE_NOOP("Files", "{0} is {1}, expected {2}"),
                               path, _describe(v), _either(f'"{c}"' for c in choices))
        elif kind == "count":
            if not (v is None and f.metadata["optional"]):
                v = _count(v, path, f.metadata["minimum"], f.metadata["optional"])
        elif kind == "slopes":
            if v is not None:
                if not isinstance(v, list) or not v:
                    raise _Invalid(QT_TRANSLATE_NOOP(
                        "Files", "{0} is {1}, expected null or a list of slopes, one per head"),
                        path, _describe(v))
                v = tuple(_slope(m, _option_path(f, f"[{k}]")) for k, m in enumerate(v))
        elif kind == "cells":
            if not isinstance(v, list):
                raise _Invalid(QT_TRANSLATE_NOOP(
                    "Files", "{0} is {1}, expected a list of [row, column] pairs"),
                    path, _describe(v))
            v = tuple(_cell(c, f, f"[{k}]") for k, c in enumerate(v))
        parsed[f.name] = v
    try:
        return Options(**parsed)
    except ValueError as e:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "options: {0}"), e) from None


_OPTION_FIELDS: dict[str, Field] = {f.name: f for f in fields(Options)}


def _option_path(option: Field, within: str = "") -> Text:
    """An option of the file (or the item ``within`` it, "[1]") as a message names it:
    its control's label in the window's language (the field's ``name``, as in
    ``OPTION_NAMES``), then where it is in the file ("ALiBi (options.alibi[1])"); the
    key alone, "options.alibi", left a learner looking for a box of that name."""
    return problem(QT_TRANSLATE_NOOP("Files", "{0} ({1})"), Text(option.metadata["name"]),
                   f"options.{option.name}{within}")


_COUNT_EXPECTED = {
    (1, False): QT_TRANSLATE_NOOP("Files", "{0} is {1}, expected a positive integer"),
    (1, True): QT_TRANSLATE_NOOP("Files", "{0} is {1}, expected a positive integer or null"),
    (0, False): QT_TRANSLATE_NOOP("Files", "{0} is {1}, expected a non-negative integer"),
    (0, True): QT_TRANSLATE_NOOP("Files",
                                 "{0} is {1}, expected a non-negative integer or null"),
}
"""What a count field must be, by (its least value, whether null is allowed)."""


def _count(v, path: str | Text, minimum: int, optional: bool) -> int:
    if type(v) is not int or v < minimum:
        raise _Invalid(_COUNT_EXPECTED[(min(minimum, 1), optional)], path, _describe(v))
    return v


def _slope(v, path: str | Text) -> float:
    if isinstance(v, _NonFinite) or type(v) not in _NUMBER_TYPES:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a non-negative number"), path, _describe(v))
    x = _number(v, path)
    if x < 0:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a non-negative number"), path, _describe(v))
    return x


def _cell(v, option: Field, within: str) -> tuple[int, int]:
    """Cell ``within`` ``option`` ("[3]" of the masked cells)."""
    if not isinstance(v, list) or len(v) != 2:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, expected a [row, column] pair"),
            _option_path(option, within), _describe(v))
    return (_count(v[0], _option_path(option, f"{within}[0]"), 0, False),
            _count(v[1], _option_path(option, f"{within}[1]"), 0, False))


def _provenance(value) -> Provenance:
    """The "model" object (optional, version 3): which model, text, layer and head the
    session was loaded from, and whether it was edited since (``state.provenance``; its
    keys are the fields of ``Provenance``). It describes the data; nothing is re-read
    from the model when the session opens."""
    if not isinstance(value, dict):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "model is {0}, expected a JSON object"), _describe(value))
    for key, v in value.items():  # JSON-flavoured messages for what is not a plain value
        if key in PROVENANCE_TYPES and (isinstance(v, (_NonFinite, dict, list)) or v is None):
            raise _Invalid(QT_TRANSLATE_NOOP(
                "Files", "model.{0} is {1}, expected {2}"),
                key, _describe(v), _EXPECTED[PROVENANCE_TYPES.get(key, str)])
    try:
        return Provenance.from_json(value)
    except (TypeError, ValueError) as e:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "model: {0}"), e) from None


_EXPECTED = {str: problem(QT_TRANSLATE_NOOP("Files", "a string")),
             int: problem(QT_TRANSLATE_NOOP("Files", "a non-negative integer")),
             bool: problem(QT_TRANSLATE_NOOP("Files", "true or false"))}
_X_ROW_LENGTH = problem(QT_TRANSLATE_NOOP("Files", "d_model, the length of each X row"))


def _positive(v, path: str | Text, expected: Text) -> float:
    if isinstance(v, _NonFinite) or type(v) not in _NUMBER_TYPES:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, {2}"), path, _describe(v), expected)
    x = _number(v, path)
    if x <= 0:
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}, {2}"), path, _describe(v), expected)
    return x


def _check_plain(value, path: str) -> None:
    """Refuse NaN / Infinity anywhere inside a free-form object such as ``layout``."""
    if isinstance(value, _NonFinite):
        raise _Invalid(QT_TRANSLATE_NOOP(
            "Files", "{0} is {1}; only finite numbers are allowed"), path, value.text)
    if isinstance(value, dict):
        for k, v in value.items():
            _check_plain(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_plain(v, f"{path}[{i}]")


def _either(choices) -> str | Text:
    """'"a" or "b" or "c"', the "or" in the window's language."""
    choices = list(choices)
    said = choices[0]
    for choice in choices[1:]:
        said = problem(QT_TRANSLATE_NOOP("Files", "{0} or {1}"), said, choice)
    return said


def _values(count: int) -> Text:
    if count == 1:
        return problem(QT_TRANSLATE_NOOP("Files", "1 value"))
    return problem(QT_TRANSLATE_NOOP("Files", "{0} values"), count)


def _describe(v) -> str | Text:
    """A short, JSON-flavoured rendering of a value for an error message (the JSON
    text as the file has it; words for what is not a plain value)."""
    if isinstance(v, _NonFinite):
        return v.text
    if isinstance(v, dict):
        return problem(QT_TRANSLATE_NOOP("Files", "an object"))
    if isinstance(v, list):
        return problem(QT_TRANSLATE_NOOP("Files", "a list"))
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**30:
        return problem(QT_TRANSLATE_NOOP("Files", "an integer of about {0} digits"),
                       int(v.bit_length() * 0.30103))
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"
