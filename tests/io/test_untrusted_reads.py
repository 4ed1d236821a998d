"""Issue 19, findings 10–14: every untrusted file ends in one clear error, never a
traceback, a hang or gigabytes of memory.

10. A ``.npz`` whose member is encrypted or uses an unsupported compression raised
    ``RuntimeError`` / ``NotImplementedError``.
11. ``config.json`` claiming 10⁶ layers built 16 names per claimed layer (6 GB).
12. ``config.json`` nested 100,000 deep (RecursionError), a FIFO (hang), a link to
    ``/dev/zero`` (MemoryError), sparse 1 GiB ``config.json`` / ``vocab.txt``.
13. ``"strip_accents": "yes"`` in ``tokenizer_config.json`` (TypeError).
14. A float32 session with X = 1e300 loaded, and the window then showed the previous
    session's matrices under the new title.
Every generated file here is refused with ``CheckpointError``/``ImportFileError``/
``SessionError``, which the window and ``render`` show as one message.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.io.imports import ImportFileError, import_weights
from qkv_desktop.io.session import SessionError, load_session, session_to_json
from qkv_desktop.state import SessionState

pytest.importorskip("safetensors")
pytest.importorskip("tokenizers")

from qkv_desktop.io.checkpoint import CheckpointError, load_checkpoint  # noqa: E402
from tests.io.tiny_bert import CONFIG, write_checkpoint  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


# -- 10: the zip layer of .npz ---------------------------------------------------------

def _npz_with_member_flags(tmp_path, *, flag_bits: int = 0, method: int | None = None):
    """A weights .npz whose W_Q member claims encryption or another compression."""
    path = tmp_path / "weights.npz"
    with zipfile.ZipFile(path, "w") as z:
        for key in ("W_Q", "W_K", "W_V"):
            z.writestr(f"{key}.npy", npy_bytes(np.ones((8, 4))))
    data = bytearray(path.read_bytes())
    for sig, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = data.find(sig)  # the first member's local and central headers
        if flag_bits:
            old = struct.unpack_from("<H", data, at + flag_at)[0]
            struct.pack_into("<H", data, at + flag_at, old | flag_bits)
        if method is not None:
            struct.pack_into("<H", data, at + method_at, method)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("kind, phrase", [
    ("encrypted", "W_Q.npy is encrypted"),
    ("method 99", "unsupported compression method 99"),
    ("lzma-like 14", "unsupported compression method 14"),
])
def test_npz_zip_failures_are_the_imports_own_error(tmp_path, kind, phrase):
    if kind == "encrypted":
        path = _npz_with_member_flags(tmp_path, flag_bits=0x1)
    else:
        path = _npz_with_member_flags(tmp_path, method=int(kind.split()[-1]))
    with pytest.raises(ImportFileError, match=phrase):
        import_weights(path, 8, 4)


def test_a_corrupt_deflate_stream_is_the_imports_own_error(tmp_path):
    path = tmp_path / "weights.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for key in ("W_Q", "W_K", "W_V"):
            z.writestr(f"{key}.npy", npy_bytes(np.arange(32.0).reshape(8, 4)))
    data = bytearray(path.read_bytes())
    start = data.find(b"PK\x03\x04") + 30 + len("W_Q.npy")
    for k in range(start + 20, start + 60):
        data[k] ^= 0x5A
    path.write_bytes(bytes(data))
    with pytest.raises(ImportFileError, match="weights.npz"):
        import_weights(path, 8, 4)


# -- 11: claims against tensors ---------------------------------------------------------

@pytest.mark.parametrize("layers", [10**6, 10**7])
def test_a_layer_claim_beyond_the_tensors_is_refused_before_building_names(tmp_path, layers,
                                                                           monkeypatch):
    from qkv_desktop.io import checkpoint

    def no_names(_layer):
        raise AssertionError("per-layer names were built before the claim was checked")

    write_checkpoint(tmp_path / "m", config={**CONFIG, "num_hidden_layers": layers})
    monkeypatch.setattr(checkpoint, "_layer_keys", no_names)
    with pytest.raises(CheckpointError, match=f"claims {layers:,} layers"):
        load_checkpoint(tmp_path / "m")


# -- 12: side files read through one bounded helper -----------------------------------

def test_config_nested_100000_deep_is_refused(tmp_path):
    write_checkpoint(tmp_path / "m")
    (tmp_path / "m" / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CheckpointError, match="config.json"):
        load_checkpoint(tmp_path / "m")


def test_a_fifo_as_config_is_refused_without_blocking(tmp_path):
    write_checkpoint(tmp_path / "m")
    config = tmp_path / "m" / "config.json"
    config.unlink()
    os.mkfifo(config)
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(_refusal(tmp_path / "m")),
                              daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():  # unblock the reader so the test process can end
        with open(config, "w") as f:
            f.write("{}")
        worker.join(5)
        pytest.fail("reading a FIFO config.json blocked")
    assert "config.json: is not a regular file" in outcome[0]


def _refusal(folder) -> str:
    try:
        load_checkpoint(folder)
    except CheckpointError as exc:
        return str(exc)
    return "accepted"


@pytest.mark.parametrize("name", ["config.json", "vocab.txt", "tokenizer_config.json"])
def test_a_link_to_dev_zero_is_refused(tmp_path, name):
    write_checkpoint(tmp_path / "m", tokenizer="vocab")
    target = tmp_path / "m" / name
    target.unlink(missing_ok=True)
    target.symlink_to("/dev/zero")
    with pytest.raises(CheckpointError, match=f"{name}: is not a regular file"):
        load_checkpoint(tmp_path / "m")


@pytest.mark.parametrize("name, tokenizer", [("config.json", "json"), ("vocab.txt", "vocab"),
                                             ("tokenizer.json", "json")])
def test_huge_sparse_side_files_are_refused_before_reading(tmp_path, name, tokenizer):
    write_checkpoint(tmp_path / "m", tokenizer=tokenizer)
    with open(tmp_path / "m" / name, "r+b") as f:
        f.truncate(1024**3)  # 1 GiB, no blocks on disk
    with pytest.raises(CheckpointError, match=f"{name}: is 1024.0 MB; files over"):
        load_checkpoint(tmp_path / "m")


# -- 13: field types --------------------------------------------------------------------

@pytest.mark.parametrize("field, value, phrase", [
    ("strip_accents", "yes", "strip_accents must be true, false or null"),
    ("do_lower_case", "no", "do_lower_case must be true or false"),
    ("tokenize_chinese_chars", 1, "tokenize_chinese_chars must be true or false"),
    ("unk_token", 7, "unk_token must be a string"),
    ("cls_token", {"content": 5}, "cls_token.content must be a string"),
])
def test_tokenizer_config_fields_of_the_wrong_type_are_refused(tmp_path, field, value,
                                                               phrase):
    write_checkpoint(tmp_path / "m", tokenizer="vocab", tokenizer_config={field: value})
    with pytest.raises(CheckpointError, match=phrase):
        load_checkpoint(tmp_path / "m")


@pytest.mark.parametrize("field, value, phrase", [
    ("is_decoder", "false", "is_decoder must be true or false"),
    ("hidden_act", ["gelu"], "hidden_act must be a string"),
    ("model_type", 3, "model_type must be a string"),
])
def test_config_fields_of_the_wrong_type_are_refused(tmp_path, field, value, phrase):
    write_checkpoint(tmp_path / "m", config={**CONFIG, field: value})
    with pytest.raises(CheckpointError, match=phrase):
        load_checkpoint(tmp_path / "m")


def test_valid_tokenizer_config_still_loads(tmp_path):
    write_checkpoint(tmp_path / "m", tokenizer="vocab",
                     tokenizer_config={"strip_accents": None, "do_lower_case": True,
                                       "cls_token": {"content": "[CLS]"}})
    assert load_checkpoint(tmp_path / "m").n_layers == CONFIG["num_hidden_layers"]


# -- 14: float32 overflow on load -------------------------------------------------------

def _float32_overflow_session(tmp_path) -> Path:
    state = SessionState.from_preset("tutorial-1")
    text = json.loads(session_to_json(state))
    text["X"][0][0] = 1e300
    text["options"]["dtype"] = "float32"
    path = tmp_path / "f32.qkv.json"
    path.write_text(json.dumps(text))
    return path


def test_a_float32_session_beyond_float32_is_refused_on_load(tmp_path):
    with pytest.raises(SessionError, match="X has values beyond ±3.4e38, too large for "
                                           "float32"):
        load_session(_float32_overflow_session(tmp_path))


def test_its_screenshot_fails_instead_of_showing_blank_panes(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "qkv_desktop",
                           str(_float32_overflow_session(tmp_path)), "--screenshot",
                           str(tmp_path / "shot.png")], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "too large for float32" in proc.stderr
    assert not (tmp_path / "shot.png").exists()
