"""Issue 19, findings 7, 8 and 9: output folders are never clobbered or littered.

8. ``render --out figs`` where ``figs/x.png`` is a folder wrote every file and moved
   the user's folder to ``.x.png.<hex>.old``: every target is now checked before the
   first rename, and nothing the writer did not create is moved or deleted.
9. ``--out ''`` wrote into the current folder: an empty folder name is refused.
7. A writer killed during a save left its ``.name.<hex>.tmp`` behind for ever: the
   next save into that folder removes the temporaries whose writer is gone (the
   kernel's ``flock`` tells), never those of a write still in progress.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from qkv_desktop.export.render import render
from qkv_desktop.io.files import atomic_write_bytes
from qkv_desktop.io.session import save_session
from qkv_desktop.io.staged_files import StagedFiles
from qkv_desktop.io.temporaries import remove_stale_temporaries
from qkv_desktop.state import SessionState

REPO_ROOT = Path(__file__).resolve().parents[2]


def tree(folder: Path) -> dict[str, str]:
    """Every entry below ``folder`` (hidden ones too): file contents, or "<dir>"."""
    out = {}
    for p in sorted(folder.rglob("*")):
        out[str(p.relative_to(folder))] = "<dir>" if p.is_dir() else p.read_bytes().hex()
    return out


def test_render_into_a_folder_where_a_target_is_a_folder_changes_nothing(qapp, tmp_path):
    out = tmp_path / "figs"
    (out / "x.png").mkdir(parents=True)
    (out / "x.png" / "mine.txt").write_text("the user's own file")
    (out / "q.png").write_bytes(b"an old figure")
    before = tree(out)
    with pytest.raises(ValueError, match="x.png.* is a folder; nothing was written"):
        render(SessionState.from_preset("tutorial-1"), out)
    assert tree(out) == before


def test_commit_checks_every_target_before_moving_any(tmp_path):
    (tmp_path / "a.txt").write_text("old a")
    staged = StagedFiles()
    staged.add(tmp_path / "a.txt", b"new a")
    staged.add(tmp_path / "b.txt", b"new b")
    (tmp_path / "b.txt").mkdir()  # appears after staging, before the commit
    with pytest.raises(ValueError, match="b.txt.* is a folder"):
        staged.commit()
    staged.discard()
    assert (tmp_path / "a.txt").read_text() == "old a"
    assert (tmp_path / "b.txt").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_a_failed_rename_puts_back_only_what_it_replaced(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("old a")
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "a.txt")
    real_replace = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2 and str(src).endswith(".tmp"):
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with StagedFiles() as staged:
        staged.add(tmp_path / "new.txt", b"new")
        staged.add(tmp_path / "a.txt", b"new a")
        with pytest.raises(OSError, match="No space"):
            staged.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "link.txt"]
    assert (tmp_path / "a.txt").read_text() == "old a" and link.is_symlink()


def test_writing_through_a_symlink_replaces_its_target(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    with StagedFiles() as staged:
        staged.add(tmp_path / "link.txt", b"new")
        staged.commit()
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "real.txt").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


@pytest.mark.parametrize("out", ["", "   "])
def test_an_empty_output_folder_is_refused(tmp_path, out):
    proc = subprocess.run([sys.executable, "-m", "qkv_desktop", "render", "--preset",
                           "tutorial-1", "--out", out], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
    assert proc.returncode == 2
    assert "the output folder is empty" in proc.stderr
    assert list(tmp_path.iterdir()) == []


# -- stale temporaries -------------------------------------------------------------

_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from qkv_desktop.io import files
    real_fsync = files.os.fsync
    def stall(fd):  # the data is written: report, then hang as if the disk were slow
        real_fsync(fd)
        print("writing", flush=True)
        time.sleep(600)
    files.os.fsync = stall
    files.atomic_write_bytes(Path(sys.argv[1]), b"x" * 1_000_000)
""")


def start_writer(target: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(target)], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "writing"
    return proc


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_killed_writers_temporary_is_removed_by_the_next_save(tmp_path):
    target = tmp_path / "session.qkv.json"
    writer = start_writer(target)
    assert len(hidden(tmp_path)) == 1  # its .session.qkv.json.<id>.tmp, still locked
    assert remove_stale_temporaries(tmp_path) == []  # a live writer's file stays
    assert len(hidden(tmp_path)) == 1
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert len(hidden(tmp_path)) == 1  # what a kill -9 leaves
    save_session(SessionState.from_preset("tutorial-1"), target)
    assert hidden(tmp_path) == []
    assert [p.name for p in tmp_path.iterdir()] == ["session.qkv.json"]


def test_the_next_render_into_a_folder_removes_a_killed_sets_files(qapp, tmp_path):
    out = tmp_path / "figs"
    out.mkdir()
    stale = [out / ".x.png.0123456789ab.tmp", out / ".qkv-staging.0123456789ab.lock",
             out / ".y.png.0123456789ab.old"]
    for p in stale:
        p.write_bytes(b"left by a killed render")
    (out / ".keep.me").write_text("not ours")
    (out / ".notes.0123456789ab.txt").write_text("not ours either")
    render(SessionState.from_preset("tutorial-1"), out)
    assert hidden(out) == [".keep.me", ".notes.0123456789ab.txt"]


def test_removing_stale_temporaries_spares_a_write_in_progress_in_this_process(tmp_path):
    with StagedFiles() as staged:
        staged.add(tmp_path / "a.txt", b"a")
        assert len(hidden(tmp_path)) == 2  # the temporary and the set's lock
        assert remove_stale_temporaries(tmp_path) == []
        staged.commit()
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_save_leaves_no_hidden_file(tmp_path):
    for _ in range(3):
        atomic_write_bytes(tmp_path / "f.bin", os.urandom(1000))
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]
