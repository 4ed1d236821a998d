"""The extra figures of multi-head and cross-attention sessions (for ``render``)."""

import numpy as np

from qkv_desktop.export.figures import layout_figure
from qkv_desktop.export.head_figures import extra_pane_specs
from qkv_desktop.state import SessionState, compute


def _state(**kw):
    base = SessionState.from_preset("tutorial-1")
    return SessionState.initialised(base.tokens, base.X, d_k=4, init_scale=1.0, **kw)


def test_one_head_self_attention_has_no_extra_figures(qapp):
    assert extra_pane_specs(compute(SessionState.from_preset("tutorial-1"))) == []


def test_two_heads_with_W_O_in_cross_mode(qapp):
    X_kv = np.random.RandomState(1).rand(5, 8)
    state = _state(n_heads=2, with_output=True).with_(
        mode="cross", kv_tokens=tuple("abcde"), X_kv=X_kv)
    result = compute(state)
    specs = {s.name: s for s in extra_pane_specs(result)}
    per_head = ("q", "k", "v", "scores", "scaled", "weights", "output")
    assert list(specs) == (["x_kv"] + [f"{p}_h{h}" for h in (1, 2) for p in per_head]
                           + ["concat", "projected"])
    w2 = specs["weights_h2"]
    assert np.array_equal(w2.data, result.head(1).weights) and w2.data.shape == (4, 5)
    assert w2.cmap == "weights" and w2.title.startswith("head 2: ")
    assert list(w2.col_labels) == list("abcde")
    assert np.array_equal(specs["k_h1"].data, result.head(0).K)
    assert np.array_equal(specs["concat"].data, result.multi.concat)
    np.testing.assert_allclose(specs["projected"].data, result.multi.concat @ state.W_O,
                               rtol=1e-12)
    assert np.array_equal(specs["x_kv"].data, X_kv)
    lay = layout_figure(specs["concat"])
    assert lay.width > 0 and lay.height > 0


def test_render_writes_every_head_and_the_concatenation(tmp_path):
    from qkv_desktop.export.render import render
    from qkv_desktop.state.session_state import SessionState

    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=2, with_output=True)
    names = {p.name for p in render(state, tmp_path, formats=("svg",))}
    assert {"weights_h1.svg", "weights_h2.svg", "concat.svg", "projected.svg",
            "weights.svg", "dashboard.svg", "matrices.npz"} <= names
