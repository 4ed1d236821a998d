"""``qkv-desktop render`` on a session file draws the head the session had on show."""

from __future__ import annotations

import numpy as np

from qkv_desktop.app.render_cli import main as render_main
from qkv_desktop.io.session import save_session
from qkv_desktop.state import SessionState


def _three_heads() -> SessionState:
    return SessionState.initialised(("a", "b", "c"), np.arange(15.0).reshape(3, 5) / 7,
                                    d_k=2, seed=5, n_heads=3)


def test_a_session_renders_the_head_it_had_on_show(qapp, tmp_path):
    """Its dashboard and main panes showed head 1 whichever head the file had saved
    (``layout.head``), while the window reopens the file on that head."""
    path = tmp_path / "three.qkv.json"
    save_session(_three_heads(), path, extra={"layout": {"head": 2}})
    assert render_main([str(path), "--out", str(tmp_path / "out"), "--format", "svg"]) == 0
    weights = (tmp_path / "out" / "weights.svg").read_text(encoding="utf-8")
    assert "head 3: weights" in weights and "head 1: weights" not in weights
    save_session(_three_heads(), path)  # no layout: the first head, as before
    assert render_main([str(path), "--out", str(tmp_path / "first"), "--format", "svg"]) == 0
    assert "head 1: weights" in (tmp_path / "first" / "weights.svg").read_text(encoding="utf-8")
