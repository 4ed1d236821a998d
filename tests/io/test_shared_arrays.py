"""Issue 20: a state crosses to the writer process with its arrays in shared memory.

Pickling an array holds the GIL while it copies the bytes (the GUI thread's stall);
``SharedArrays`` pickles everything but the arrays and copies those into one shared
memory block, which its owner always unlinks. These tests count bytes and segments:
the handle that crosses the pipe carries no array bytes, the object comes back bit
for bit, and no block is left in ``/dev/shm`` after a release, a failure, or the
owner's ``kill -9``.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.core import Weights
from qkv_desktop.io.shared_arrays import BLOCK_PREFIX, SharedArrays
from qkv_desktop.state import SessionState
from qkv_desktop.state.provenance import Provenance
from qkv_desktop.state.session_state import Options

SHM = Path("/dev/shm")
needs_dev_shm = pytest.mark.skipif(not SHM.is_dir(), reason="POSIX shared memory in /dev/shm")


def _blocks(pid: int | None = None) -> set[str]:
    """The shared memory segments this app's blocks left in /dev/shm (of ``pid``)."""
    prefix = BLOCK_PREFIX + (f"{pid}-" if pid is not None else "")
    return {p.name for p in SHM.glob(prefix + "*")} if SHM.is_dir() else set()


def rich_state(n: int = 40, d_model: int = 24) -> SessionState:
    """Every kind of array a session holds: X, X_kv, several heads with biases, W_O,
    a custom mask (cached as an n × m boolean array), a model's provenance, float32."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((n, d_model))
    X[0, :4] = [5e-324, -0.0, 3e38, 0.1]
    base = SessionState.initialised([f"t{i}" for i in range(n)], X, d_k=6, n_heads=3,
                                    with_output=True)
    h0 = base.heads[0]
    biased = Weights(h0.W_Q, h0.W_K, h0.W_V, np.full(6, 1 / 3), None, np.arange(6.0))
    state = base.with_(
        heads=(biased, *base.heads[1:]), mode="cross",
        kv_tokens=tuple(f"k{i}" for i in range(n // 2)),
        X_kv=rng.standard_normal((n // 2, d_model)),
        options=Options(temperature=0.7, dtype="float32", custom_mask=True,
                        masked=((0, 1), (3, 2))),
        provenance=Provenance("tiny-bert", "the cat sat", 1, 0))
    assert state.mask_spec().custom is not None  # the cached mask is pickled too
    return state


@needs_dev_shm
def test_the_handle_carries_no_array_bytes_and_the_state_comes_back_bit_exact():
    state = rich_state(n=256, d_model=128)
    array_bytes = state.X.nbytes + state.X_kv.nbytes
    with SharedArrays(state) as shared:
        assert shared.name in _blocks(os.getpid())
        wire = pickle.dumps(shared.handle)  # what goes through the writer's pipe
        back = pickle.loads(wire).load()
    assert len(wire) < array_bytes / 20, (len(wire), array_bytes)
    assert state.X.tobytes() not in wire and state.X[5].tobytes() not in wire
    assert back.equals(state)
    assert back.X.tobytes() == state.X.tobytes() and np.signbit(back.X[0, 1])
    assert back.mask_spec().custom.tobytes() == state.mask_spec().custom.tobytes()
    assert not back.X.flags.writeable  # frozen, as a state's arrays are
    assert _blocks(os.getpid()) == set()


@needs_dev_shm
def test_an_array_referenced_twice_is_shared_once():
    a = np.arange(1000.0)
    with SharedArrays({"x": a, "y": a, "z": [a]}) as shared:
        assert len(shared.handle.layout) == 1
        back = shared.handle.load()
    assert back["x"] is back["y"] is back["z"][0]
    np.testing.assert_array_equal(back["x"], a)


def test_objects_without_numbers_need_no_block():
    with SharedArrays({"tokens": ("a", "b"), "o": np.array(["x"], dtype=object)}) as shared:
        assert shared.name is None
        back = shared.handle.load()
    assert back["tokens"] == ("a", "b") and back["o"].tolist() == ["x"]


@needs_dev_shm
def test_release_unlinks_the_block_and_is_idempotent():
    shared = SharedArrays(np.ones((64, 64)))
    name = shared.name
    assert name in _blocks()
    shared.release()
    shared.release()
    assert name not in _blocks() and shared.name is None


@needs_dev_shm
def test_a_failed_copy_leaves_no_block(monkeypatch):
    def fail(*_args, **_kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(np, "copyto", fail)
    before = _blocks(os.getpid())
    with pytest.raises(MemoryError):
        SharedArrays(rich_state())
    assert _blocks(os.getpid()) == before


@needs_dev_shm
@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="posix_fallocate")
def test_a_full_dev_shm_is_an_oserror_before_any_page_is_touched(monkeypatch):
    """A copy into pages tmpfs cannot provide would be a SIGBUS, killing the app."""
    import errno

    def full(_fd, _offset, _size):
        raise OSError(errno.ENOSPC, "No space left on device")

    copies = []
    monkeypatch.setattr(os, "posix_fallocate", full)
    monkeypatch.setattr(np, "copyto", lambda *args, **kwargs: copies.append(args))
    before = _blocks(os.getpid())
    with pytest.raises(OSError):
        SharedArrays(rich_state())
    assert not copies and _blocks(os.getpid()) == before


@needs_dev_shm
def test_the_block_is_reserved_in_full(monkeypatch):
    reserved = []
    real = getattr(os, "posix_fallocate", None)

    def record(fd, offset, size):
        reserved.append((offset, size))
        if real is not None:
            real(fd, offset, size)

    monkeypatch.setattr(os, "posix_fallocate", record, raising=False)
    a, b = np.ones(100), np.zeros((3, 5), dtype=np.float32)
    with SharedArrays((a, b)) as shared:
        (start, size), = reserved
        last_offset, _dtype, _shape = shared.handle.layout[-1]
        assert start == 0 and size >= last_offset + b.nbytes


_KILLED_OWNER = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from qkv_desktop.io.shared_arrays import SharedArrays
shared = SharedArrays(np.ones((256, 256)))
print(shared.name, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # the app killed while a save holds the block
"""


@needs_dev_shm
def test_a_block_of_a_killed_owner_is_unlinked_by_the_resource_tracker():
    root = str(Path(__file__).resolve().parents[2])
    proc = subprocess.run([sys.executable, "-c", _KILLED_OWNER, root],
                          capture_output=True, text=True, timeout=120)
    name = proc.stdout.strip()
    assert name.startswith(BLOCK_PREFIX), proc.stderr
    deadline = time.monotonic() + 60  # the tracker notices its owner is gone
    while name in _blocks() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert name not in _blocks()
