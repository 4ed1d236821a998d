"""The data export and the figure set list exactly the matrices the catalogue declares.

The catalogue's ``head_export``, ``optional_export``, ``present``, ``per_head`` and
``figure_group`` decide what the data export holds (in every format alike) and which extra
figures a session has; no other module names them, so a new optional matrix is one
catalogue entry (issue 16).
"""

import io
import json

import numpy as np
import pytest

from qkv_desktop.export.data_export import data_files, json_bytes, npz_bytes
from qkv_desktop.export.head_figures import extra_pane_specs, head_file_name
from qkv_desktop.state import SessionState, compute
from qkv_desktop.state.catalogue import FIGURE_GROUPS, HEAD_EXPORT, MATRICES

SESSIONS = {
    "plain": {},
    "rope, causal, ALiBi, two heads, W_O": dict(n_heads=2, with_output=True, causal=True,
                                                positions="rope", alibi=(0.5, 0.25)),
    "sinusoidal, window, custom mask": dict(positions="sinusoidal", window=2,
                                            custom_mask=True, masked=((1, 0),)),
    "cross, three heads": dict(n_heads=3, cross=True),
}


def _state(n_heads=1, with_output=False, cross=False, **options):
    base = SessionState.from_preset("tutorial-1")
    state = SessionState.initialised(base.tokens, base.X, d_k=4, init_scale=1.0,
                                     n_heads=n_heads, with_output=with_output)
    if cross:
        state = state.with_(mode="cross", kv_tokens=tuple("abcde"),
                            X_kv=np.random.RandomState(1).rand(5, base.X.shape[1]))
    if options:
        from dataclasses import replace
        state = state.with_(options=replace(state.options, **options))
    return state


def _present(state, spec):
    return spec.present is None or spec.present(state)


def _declared_matrices(state):
    """The exported matrices' names as the catalogue's fields alone imply them: the
    head's, the optional ones present, then for h > 1 every head's per-head ones."""
    names = [*HEAD_EXPORT,
             *(s.name for s in MATRICES if s.optional_export and _present(state, s))]
    per_head = [n for n in names if next(s for s in MATRICES if s.name == n).per_head]
    return names + [head_file_name(n, h) for h in range(state.n_heads) if state.n_heads > 1
                    for n in per_head]


@pytest.mark.parametrize("name", SESSIONS)
def test_npz_keys_are_the_catalogues(name):
    state = _state(**SESSIONS[name])
    keys = np.load(io.BytesIO(npz_bytes(compute(state))), allow_pickle=False).files
    assert keys == ["tokens", *_declared_matrices(state)]


@pytest.mark.parametrize("name", SESSIONS)
def test_every_data_format_holds_the_same_matrices(name, tmp_path):
    """CSV, NPY, NPZ and JSON list one set: CSV once lacked RoPE's Q_rope and K_rope,
    which the NPZ had, and a multi-head export held head 1 alone."""
    state = _state(**SESSIONS[name])
    result = compute(state)
    declared = _declared_matrices(state)
    files = [p.name for p, _ in data_files(result, tmp_path, ("csv", "npy", "npz", "json"))]
    assert files == [f"{n}.csv" for n in declared] + [f"{n}.npy" for n in declared] + [
        "matrices.npz", "matrices.json"]
    assert list(json.loads(json_bytes(result))["matrices"]) == declared


def _declared_figures(state):
    """The extra figures' file names as the catalogue's fields alone imply them."""
    n = state.n_heads
    declared = []
    for group in FIGURE_GROUPS:
        specs = [s for s in MATRICES if s.pane and s.figure_group == group
                 and not s.hidden_by_default]  # a pane hidden by default has no figure
        if group == "head":  # every head's per-head panes, head by head, for h > 1
            declared += [head_file_name(s.name.lower(), h) for h in range(n) if n > 1
                         for s in specs if s.per_head]
            continue
        for s in specs:
            if _present(state, s):
                # per head: the shown head's under the plain name, as the data has it
                declared += ([s.name.lower()] if not s.per_head or n == 1 else
                             [s.name.lower()] + [head_file_name(s.name.lower(), h)
                                                 for h in range(n)])
    return declared


@pytest.mark.parametrize("name", SESSIONS)
def test_extra_figures_are_the_catalogues_optional_panes_by_group(qapp, name):
    state = _state(**SESSIONS[name])
    assert [s.name for s in extra_pane_specs(compute(state))] == _declared_figures(state)


def test_the_sessions_above_show_every_optional_pane_and_export():
    figures = {f for kw in SESSIONS.values() for f in _declared_figures(_state(**kw))}
    for s in MATRICES:
        if s.pane and s.present is not None:
            assert s.name.lower() in figures or head_file_name(s.name.lower(), 0) in figures
    rope = _state(**SESSIONS["rope, causal, ALiBi, two heads, W_O"])
    assert [s.name for s in MATRICES if s.optional_export and _present(rope, s)] == [
        "Q_rope", "K_rope", "mask", "bias", "concat", "W_O", "projected"]
    # every matrix a session may have beyond one head's is exported when it has it (a
    # cross session's K and V rows come from X_kv, which the export lacked)
    assert {s.name for s in MATRICES if s.present is not None} == {
        s.name for s in MATRICES if s.optional_export}


def test_every_optional_matrix_has_a_figure_group():
    for s in MATRICES:
        assert s.figure_group in FIGURE_GROUPS
        assert (s.figure_group == "head") == (s.present is None or not s.pane), s.name


@pytest.mark.parametrize("name", SESSIONS)
@pytest.mark.parametrize("shown", [0, 1])
def test_every_exported_pane_matrix_has_its_figure_for_the_shown_head(qapp, name, shown):
    """Export all wrote Q_rope.csv, K_rope.csv and bias.csv for the shown head but no
    q_rope.png, k_rope.png or bias.png (only the _h1, _h2 ones): each matrix of a pane
    in the data has its figure, of the same name and the same numbers."""
    from qkv_desktop.export.figure_set import figure_specs
    from qkv_desktop.presentation.pane_info import PANE_BY_KEY

    state = _state(**SESSIONS[name])
    shown = min(shown, state.n_heads - 1)
    result = compute(state)
    figures = {s.name: s for s in figure_specs(result, shown)}
    data = dict(np.load(io.BytesIO(npz_bytes(result, shown)), allow_pickle=False))
    for key in data:
        base = key.rsplit("_h", 1)[0] if key.rsplit("_h", 1)[-1].isdigit() else key
        if base not in PANE_BY_KEY:  # W_Q, W_O, tokens: data without a pane
            continue
        figure = figures[key.lower()]
        assert figure.data.shape == data[key].shape, key
        drawn, numbers = np.asarray(figure.data, float), np.asarray(data[key], float)
        shown_as_number = np.isfinite(drawn)  # (a masked weight is drawn as masked)
        np.testing.assert_array_equal(drawn[shown_as_number], numbers[shown_as_number],
                                      err_msg=key)
