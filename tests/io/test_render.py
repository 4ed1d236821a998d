"""The headless render pipeline: every pane, a dashboard and matrices.npz, or nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.export import render as render_module
from qkv_desktop.export.data_export import NPZ_KEYS
from qkv_desktop.export.render import check_formats, dashboard_title, render
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import SessionState
from tests.io.image_checks import image_array

REPO_ROOT = Path(__file__).resolve().parents[2]

PANES = ["x", "q", "k", "v", "scores", "scaled", "weights", "output", "dashboard"]


@pytest.fixture
def state():
    return SessionState.from_preset("tutorial-1")


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_render_writes_each_pane_per_format_and_the_npz(qapp, state, tmp_path):
    out = tmp_path / "new" / "figures"
    written = render(state, out, formats=("png", "svg"), scale=1.5)
    expected = [f"{n}.png" for n in PANES] + [f"{n}.svg" for n in PANES] + ["matrices.npz"]
    assert [p.name for p in written] == expected
    assert listing(out) == sorted(expected)
    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert sorted(npz.files) == sorted(NPZ_KEYS)
        for name, value in compute(state).matrices().items():
            np.testing.assert_array_equal(npz[name], value)
    svg = ET.parse(out / "dashboard.svg").getroot()
    texts = "".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "我 爱 人工 智能" in texts
    png = image_array(out / "weights.png")
    assert png.shape[2] == 4 and (png[..., 3] == 255).all()


def test_render_scale_sets_the_png_size(qapp, state, tmp_path):
    small = image_array(render(state, tmp_path / "a", scale=1)[0])
    large = image_array(render(state, tmp_path / "b", scale=2.5)[0])
    assert abs(large.shape[0] - 2.5 * small.shape[0]) <= 3
    assert abs(large.shape[1] - 2.5 * small.shape[1]) <= 3


@pytest.mark.parametrize("formats", ["gif", (), ("png", "jpg"), (5,), ("png", None)])
def test_bad_formats_write_nothing(qapp, state, tmp_path, formats):
    with pytest.raises(ValueError, match="format"):
        render(state, tmp_path / "out", formats=formats)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("scale", [0, -2, float("nan"), float("inf"), 11, True, "2", None])
def test_bad_scale_writes_nothing(qapp, state, tmp_path, scale):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="scale"):
        render(state, tmp_path, scale=scale)
    assert listing(tmp_path) == ["keep.txt"]


def test_an_image_too_large_is_refused_before_writing(qapp, tmp_path):
    n = 400
    big = SessionState.initialised([f"t{i}" for i in range(n)], np.ones((n, 4)), d_k=4)
    with pytest.raises(ValueError, match="too large"):
        render(big, tmp_path / "out", formats=("svg", "png"), scale=10)
    assert not (tmp_path / "out").exists()


def test_other_bad_input_writes_nothing(qapp, state, tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        render(state, tmp_path / "file")
    with pytest.raises(ValueError, match="SessionState"):
        render(None, tmp_path / "out")
    with pytest.raises(ValueError, match="background"):
        render(state, tmp_path / "out", background="grey")
    assert listing(tmp_path) == ["file"]


def test_a_failure_while_writing_leaves_nothing_behind(qapp, state, tmp_path, monkeypatch):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "q.png").write_bytes(b"old picture")
    real = render_module.encode_layout
    calls = []

    def failing(lay, fmt, *args):
        calls.append(fmt)
        if len(calls) == 12:  # the third SVG, after every PNG was staged
            raise OSError("disk full")
        return real(lay, fmt, *args)

    monkeypatch.setattr(render_module, "encode_layout", failing)
    with pytest.raises(OSError, match="disk full"):
        render(state, tmp_path / "old", formats=("png", "svg"))
    with pytest.raises(OSError, match="disk full"):
        calls.clear()
        render(state, tmp_path / "fresh" / "deeper", formats=("png", "svg"))
    assert listing(tmp_path) == ["old"]
    assert listing(tmp_path / "old") == ["q.png"]
    assert (tmp_path / "old" / "q.png").read_bytes() == b"old picture"


def test_formats_are_normalised():
    assert check_formats("PNG") == ("png",)
    assert check_formats(["svg", "png", "svg", " pdf "]) == ("svg", "png", "pdf")


def test_dashboard_title_names_the_sentence(state):
    assert dashboard_title(state) == "Self-attention: 我 爱 人工 智能"
    many = SessionState.initialised([f"t{i}" for i in range(40)], np.ones((40, 4)), d_k=2,
                                    n_heads=2)
    assert dashboard_title(many, 1) == "Self-attention: 40 tokens · head 2 of 2"


def test_render_creates_its_own_offscreen_application(tmp_path):
    """A fresh interpreter with no display and no Qt application still renders."""
    code = ("import sys; from qkv_desktop.state.session_state import SessionState; "
            "from qkv_desktop.export.render import render; "
            "from PySide6.QtGui import QGuiApplication; "
            "paths = render(SessionState.from_preset('tutorial-2'), sys.argv[1], "
            "formats=('png', 'pdf'), scale=1); "
            "print(QGuiApplication.platformName(), len(paths))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["offscreen", "19"]
    assert len(list((tmp_path / "out").iterdir())) == 19
