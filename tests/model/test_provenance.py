"""A session's source (model, text, layer, head) lives in its ``SessionState``: no Qt.

Edits mark it edited (weights edited, or weights no longer the model's), undo is a
return to the earlier state, and the session file keeps it (its "model" object has
the fields of ``Provenance``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields, replace

import pytest

from qkv_desktop.io.session import SessionError, parse_session, session_to_json
from qkv_desktop.state import edits
from qkv_desktop.state.provenance import PROVENANCE_TYPES, Provenance, provenance_to_json
from qkv_desktop.state.session_state import SessionState

SOURCE = Provenance("tiny-bert", "the cat sat", 1, 0, kind="encoder", source="folder",
                    location="/models/tiny", n_layers=3, n_heads=2)


@pytest.fixture
def loaded() -> SessionState:
    """A preset standing in for a loaded checkpoint head (the checkpoint tests cover
    that ``session_state`` plus ``provenance_for`` make one)."""
    return SessionState.from_preset("tutorial-1").with_(provenance=SOURCE)


def test_setting_the_provenance_is_not_an_edit(loaded):
    assert loaded.provenance is SOURCE and not SOURCE.edited and SOURCE.weights == "model"


@pytest.mark.parametrize("make", [
    lambda s: edits.set_cells(s, "X", [0], [0], [9.0]).state,
    lambda s: edits.set_options(s, causal=True).state,
    lambda s: edits.insert_tokens(s, "X", 0).state,
    lambda s: edits.rename_token(s, "X", 0, "cat").state,
])
def test_changing_the_inputs_or_options_marks_the_source_edited(loaded, make):
    after = make(loaded)
    assert after.provenance == Provenance(**{**provenance_to_json(SOURCE), "edited": True})
    assert loaded.provenance is SOURCE  # the loaded state itself is untouched


def test_editing_a_weight_says_the_weights_were_edited(loaded):
    after = edits.set_weight(loaded, 0, "W_Q", 0, 0, 3.0).state
    assert after.provenance.edited and after.provenance.weights == "edited"
    again = edits.set_cells(after, "X", [0], [0], [1.5]).state  # stays "weights edited"
    assert again.provenance.weights == "edited"


@pytest.mark.parametrize("make", [
    lambda s: edits.set_d_k(s, 2).state,
    lambda s: edits.set_heads(s, 2).state,
    lambda s: edits.set_d_model(s, 6).state,
])
def test_reinitialising_the_weights_says_they_are_no_longer_the_models(loaded, make):
    after = make(loaded)
    assert after.provenance.edited and after.provenance.weights == "replaced"
    edited = edits.set_weight(after, 0, "W_K", 0, 0, 1.0).state  # edits of seeded weights
    assert edited.provenance.weights == "replaced"                # are not the model's


def test_a_change_to_the_same_value_is_no_edit(loaded):
    same = loaded.with_(tokens=loaded.tokens, X=loaded.X.copy())
    assert same.provenance is SOURCE and same.equals(loaded)


def test_a_preset_has_no_provenance():
    assert SessionState.from_preset("tutorial-1").provenance is None


def test_the_session_file_keeps_the_provenance_bit_exactly(loaded):
    edited = edits.set_weight(loaded, 0, "W_V", 1, 2, -0.5).state
    for state in (loaded, edited):
        text = session_to_json(state)
        obj = json.loads(text)
        assert list(obj["model"]) == [f.name for f in fields(Provenance)]  # keys = fields
        back = parse_session(obj, "s.qkv.json").state
        assert back.provenance == state.provenance and back.equals(state)
    plain = SessionState.from_preset("tutorial-1")
    assert "model" not in json.loads(session_to_json(plain))
    assert parse_session(json.loads(session_to_json(plain)), "p").state.provenance is None


def test_an_older_model_object_without_the_new_fields_still_opens(loaded):
    obj = json.loads(session_to_json(loaded))
    obj["model"] = {k: obj["model"][k] for k in ("name", "text", "layer", "head", "kind",
                                                 "source", "location", "n_layers", "n_heads")}
    p = parse_session(obj, "old.qkv.json").state.provenance
    assert (p.name, p.layer, p.head, p.scope, p.edited, p.weights) == (
        "tiny-bert", 1, 0, "head", False, "model")


@pytest.mark.parametrize("model, message", [
    ([], "model is a list, expected a JSON object"),
    ({"name": "m", "text": "t", "layer": 0}, 'model: no "head" field'),
    ({"name": "m", "text": "t", "layer": 0, "head": 0, "colour": "red"},
     'model: unknown field "colour"'),
    ({"name": "m", "text": "t", "layer": -1, "head": 0},
     "model: layer is -1, expected a non-negative integer"),
    ({"name": "m", "text": "t", "layer": 0, "head": 0, "edited": 1},
     "model: edited is 1, expected true or false"),
    ({"name": "m", "text": "t", "layer": 0, "head": 0, "weights": "mine"},
     "model: weights is 'mine', expected one of"),
    ({"name": "m", "text": "t", "layer": 0, "head": None},
     "model.head is null, expected a non-negative integer"),
])
def test_a_bad_model_object_is_refused_with_its_field(loaded, model, message):
    obj = json.loads(session_to_json(loaded))
    obj["model"] = model
    with pytest.raises(SessionError) as info:
        parse_session(obj, "bad.qkv.json")
    assert message in str(info.value)


def test_the_provenance_types_follow_the_dataclass():
    assert tuple(PROVENANCE_TYPES) == tuple(f.name for f in fields(Provenance))


def test_the_provenance_module_runs_without_qt():
    code = ("import sys, qkv_desktop.state.provenance, qkv_desktop.io.model_sources; "
            "assert not [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)



def test_exported_figures_name_the_model_layer_and_head(qapp, loaded):
    """A figure of a model's head on a slide says which model, layer and head it shows,
    as the status bar does: the pane's figure after its title, the dashboard in its
    title (and not again in each of its panes)."""
    from qkv_desktop.export.figure_set import dashboard_layout, dashboard_title
    from qkv_desktop.export.pane_figures import pane_spec
    from qkv_desktop.state.compute import compute

    result = compute(loaded)
    line = "tiny-bert · layer 2 of 3 · head 1 of 2"
    assert pane_spec(result, "weights").title.endswith(" · " + line)
    assert dashboard_title(result.state).endswith(" · " + line)
    dashboard = dashboard_layout(result)
    assert line in dashboard.title.text
    assert all(line not in part.spec.title for _at, part in dashboard.figures)
    # a whole layer's session: the head the figure shows
    whole = replace(SOURCE, scope="layer")
    layer = result.state.reinitialised(n_heads=2, d_k=2).with_(provenance=whole)
    assert dashboard_title(layer, 1).endswith("tiny-bert · layer 2 of 3 · head 2 of 2")
    # edited weights say so
    edited = result.state.with_(provenance=replace(SOURCE, weights="edited"))
    assert dashboard_title(edited).endswith(line + " (weights edited)")
    # a session of no model: as before
    assert "layer" not in pane_spec(compute(SessionState.from_preset("tutorial-1")),
                                     "weights").title


def test_a_decoders_dashboard_title_writes_the_sentence_the_model_read(qapp):
    """A decoder's tokens are labels: " capital" carries its own space, and a byte-level
    piece may be part of a character. Joined with spaces, the title read "The  capital"
    (a first user) and "我……爱………" (a review); it writes the model's text, until the
    session is edited."""
    from qkv_desktop.export.figure_set import dashboard_title
    smol = Provenance("SmolLM2-135M", "我爱人工智能", 15, 3, kind="decoder", source="file",
                      n_layers=30, n_heads=9)
    state = SessionState.from_preset("tutorial-1")
    state = state.with_(tokens=("我…", "…爱", "人工", "智能"), provenance=smol)
    assert dashboard_title(state).startswith("Self-attention: 我爱人工智能 · SmolLM2-135M")
    edited = state.with_(provenance=replace(smol, edited=True))
    assert dashboard_title(edited).startswith("Self-attention: 我… …爱 人工 智能 · ")
