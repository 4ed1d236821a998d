"""The decoder panel: what a LLaMA-style model adds to the panes of one head.

Shown beside the panes while the session comes from a decoder (SmolLM2 or another
``.gguf`` file). It says, with the loaded model's numbers:

* the model's own next-token prediction after the text (top 5 with probabilities),
  the first thing a sceptic checks ("The capital of France is" → " Paris");
* the layer and query head shown (counted from 1, as everywhere in the window), with
  spin boxes that switch instantly (every layer's input is cached by the checkpoint)
  as one undoable step each, and a switch that loads every query head of the layer
  at once, so that the heads overview shows them grouped by their key/value head;
* grouped-query attention: which query heads share each key/value head, and what
  that saves against ordinary multi-head attention in parameters and KV cache;
* RoPE: its base and which dimensions rotate together; the quantisation of the weights;
* the attention sink: the weight each query row puts on the first token.

A session reopened from its file has no checkpoint: the panel then shows what the session
holds (the model, layer and head of its provenance, the model's counts of layers and
heads, RoPE as the session computes it, the attention sink), hides the sections only the
model can fill (the prediction, the groups, the sizes, the quantisation), and says once,
above the sections, that opening the model again brings them.

Everything here reads the checkpoint, the session or the computed result; nothing
computes attention.
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_percent, format_rope_base, rounding_of
from qkv_desktop.presentation.sizes import format_bytes
from qkv_desktop.presentation.texts import join_list, join_sentences, say, token_in_text
from qkv_desktop.views.editors.spin_boxes import ClampSayingSpinBox, say_briefly
from qkv_desktop.views.elided_label import ElidedLabel
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.styles import ERROR_STYLE

__all__ = ["DecoderPanel"]


def _row_span(rows: np.ndarray) -> str:
    """Row numbers as a learner reads them: "1 … 7" when they follow each other, else
    the first eight listed (and "…")."""
    if len(rows) > 2 and rows[-1] - rows[0] == len(rows) - 1:
        return f"{rows[0]} … {rows[-1]}"
    listed = join_list(str(i) for i in rows[:8])
    return listed + (" …" if len(rows) > 8 else "")


class DecoderPanel(Retranslating, QDockWidget):
    """A dock for a decoder session.

    ``switch(layer, head)`` loads one head, ``load_layer(layer, head)`` every head of a
    layer (0-based indices; the spin boxes show them counted from 1). Both are methods
    of the panel's owner, held weakly: the owner holds the panel, and a strong reference
    back would be a reference cycle (they raise ``ValueError``, which the panel shows:
    a signal could not return it).
    """

    def __init__(self, model: AttentionModel, switch: Callable[[int, int], None],
                 load_layer: Callable[[int, int], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("decoderDock")
        self.model = model
        self._switch = weakref.WeakMethod(switch)
        self._load_layer = weakref.WeakMethod(load_layer)
        self._source = None
        box = QWidget()
        layout = QVBoxLayout(box)
        # one line, as a heading: wrapped, it took two lines of a laptop's dock (1024×700);
        # where the whole title does not fit, a shorter one (the text is in the caption
        # below, the layer and head in the boxes), and the whole in its tool tip
        self.title_label = ElidedLabel(objectName="decoderTitle")
        self.layer_spin = ClampSayingSpinBox(objectName="decoderLayer")
        self.head_spin = ClampSayingSpinBox(objectName="decoderHead")
        for spin in (self.layer_spin, self.head_spin):
            spin.valueChanged.connect(self._on_spin)
        self.all_heads_box = QCheckBox(objectName="decoderAllHeads")
        self.all_heads_box.toggled.connect(self._on_spin)
        self._pick_labels = (QLabel(wordWrap=True), QLabel(wordWrap=True))
        pick = QHBoxLayout()
        pick.addWidget(self._pick_labels[0])
        pick.addWidget(self.layer_spin)
        pick.addWidget(self._pick_labels[1])
        pick.addWidget(self.head_spin)
        pick.addStretch(1)
        self.error_label = QLabel(objectName="decoderError", wordWrap=True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.hide()
        for spin in (self.layer_spin, self.head_spin):
            # a typed number out of range, said in red under the two boxes
            spin.said.connect(partial(say_briefly, self.error_label))
        # a reopened session's one note, for the whole panel: above the sections (it sat
        # under "Grouped-query attention", as if about that alone; a first-time user)
        self.reopened_label = QLabel(objectName="decoderReopened", wordWrap=True)
        self.next_caption = QLabel(objectName="nextCaption", wordWrap=True)
        self.next_table = QTableWidget(5, 3, objectName="nextTokens")
        self.next_table.verticalHeader().hide()
        self.next_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # the columns share the dock's width: the probability column was cut at the edge
        header = self.next_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.next_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.next_table.setMaximumHeight(self.fontMetrics().lineSpacing() * 9)
        self.gqa_label = QLabel(objectName="gqaGroups", wordWrap=True)
        self.gqa_label.setTextFormat(Qt.TextFormat.RichText)
        self.budget_label = QLabel(objectName="gqaBudget", wordWrap=True)
        self.rope_label = QLabel(objectName="ropeNote", wordWrap=True)
        self.quant_label = QLabel(objectName="quantNote", wordWrap=True)
        self.sink_label = QLabel(objectName="attentionSink", wordWrap=True)
        # one line each, elided only where the dock is narrower than the caption: word-
        # wrapped, "Grouped-query attention" broke onto two lines with room to spare
        # (a wrapped label in a form layout asks for less than its line; a review)
        self._section_labels = [ElidedLabel() for _ in range(4)]
        for caption in self._section_labels:  # its text's width (a form layout gave 0)
            caption.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        # captions above their texts: side by side they made the panel wider than a
        # laptop's dock, and the texts lost their last characters at its right edge. A
        # box layout, not a form layout wrapping all rows: that kept the rows' heights
        # for the width the dock had before, and after a resize to a laptop's window
        # the texts showed half their lines, cut (QFormLayout's height for width)
        form = QVBoxLayout()
        self._section_texts = (self.gqa_label, self.budget_label, self.rope_label,
                               self.sink_label)
        for caption, widget in zip(self._section_labels, self._section_texts, strict=True):
            font = caption.font()
            font.setBold(True)
            caption.setFont(font)
            form.addWidget(caption)
            form.addWidget(widget)
        for w in (self.title_label,):
            layout.addWidget(w)
        layout.addLayout(pick)
        layout.addWidget(self.all_heads_box)  # its own line: beside the spins it was cut
        layout.addWidget(self.error_label)
        layout.addWidget(self.reopened_label)
        layout.addWidget(self.next_caption)
        layout.addWidget(self.next_table)
        layout.addLayout(form)
        layout.addWidget(self.quant_label)
        layout.addStretch(1)
        # A laptop's dock is shorter than the panel's texts: they scroll instead of being
        # squeezed (at 1366×768 "MHA vs GQA" and RoPE lost their last lines, cut).
        scroll = QScrollArea(objectName="decoderScroll", widgetResizable=True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(box)
        self.setWidget(scroll)
        model.resultChanged.connect(self._update_sink)
        model.currentHeadChanged.connect(self._on_current_head)
        self.retranslate()

    # ---------------------------------------------------------------- texts
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Decoder"))
        self._pick_labels[0].setText(self.tr("Layer"))
        self._pick_labels[1].setText(self.tr("Query head"))
        for label, text in zip(self._section_labels,
                               (self.tr("Grouped-query attention"), self.tr("MHA vs GQA"),
                                self.tr("RoPE"), self.tr("Attention sink")), strict=True):
            label.setText(text)
        self.next_table.setHorizontalHeaderLabels([self.tr("Next token"), self.tr("Id"),
                                                   self.tr("Probability")])
        self.layer_spin.set_tip(self.tr("Show this layer's head (counted from 1); every "
                                        "layer was computed when the text was loaded"))
        self.head_spin.set_tip(self.tr("Show this query head (counted from 1); W_K and W_V "
                                       "are those of the key/value head it shares"))
        self.layer_spin.subject = self.tr("The layer")
        self.head_spin.subject = self.tr("The query head")
        self.all_heads_box.setText(self.tr("All heads of the layer"))
        self.all_heads_box.setToolTip(self.tr(
            "Load every query head of the layer with W_O, so the heads overview shows them "
            "side by side, grouped by the key/value head they share"))
        self._fill()

    # ---------------------------------------------------------------- state
    @property
    def source(self):
        return self._source

    def show_source(self, source) -> None:
        """Follow the session's source: shown for a decoder, hidden otherwise."""
        decoder = source is not None and source.kind == "decoder"
        self._source = source if decoder else None
        self.setVisible(decoder)
        if decoder:
            self._fill()

    def _fill(self) -> None:
        src = self._source
        if src is None:
            return
        ckpt = src.checkpoint
        head = self._head()
        self.title_label.setText(self.tr("{0} · layer {1} · query head {2} · “{3}”")
                                 .format(src.name, src.layer + 1, head + 1, src.text))
        self.title_label.set_shorter((
            self.tr("{0} · layer {1} · query head {2}").format(src.name, src.layer + 1,
                                                                head + 1),
            self.tr("{0} · layer {1} · head {2}").format(src.name, src.layer + 1, head + 1),
            src.name))
        live = ckpt is not None
        for spin, count, value in ((self.layer_spin, src.n_layers, src.layer),
                                   (self.head_spin, src.n_heads, head)):
            with QSignalBlocker(spin):  # shown counted from 1
                spin.setRange(1, max(count, value + 1))
                spin.setValue(value + 1)
                spin.setEnabled(live)
        with QSignalBlocker(self.all_heads_box):
            self.all_heads_box.setChecked(src.scope == "layer")
            self.all_heads_box.setEnabled(live)
        self._fill_next(src, live)
        self._fill_rope()
        if not live:
            self.reopened_label.setText(self._reopened_note(src))
            for label in (self.gqa_label, self.budget_label, self.quant_label):
                label.setText("")
            self._update_sink(self.model.result)
            return
        self.reopened_label.setText("")
        self._fill_gqa(ckpt, head)
        b = ckpt.attention_budget(1)
        ctx = ckpt.context_length
        saved = 1 - b["params_gqa"] / b["params_mha"]
        self.budget_label.setText(self.tr(
            "W_Q, W_K, W_V, W_O of all layers: {0:,} parameters with GQA, {1:,} if every "
            "query head had its own keys and values (MHA), {2:.0%} fewer.\nKV cache (float16): "
            "{3} per token with GQA against {4} with MHA; {5} against {6} for the full "
            "context of {7:,} tokens.")
            .format(b["params_gqa"], b["params_mha"], saved, format_bytes(b["kv_bytes_gqa"]),
                    format_bytes(b["kv_bytes_mha"]), format_bytes(b["kv_bytes_gqa"] * ctx),
                    format_bytes(b["kv_bytes_mha"] * ctx), ctx))
        self.quant_label.setText(join_sentences([self.tr(
            "The weights are the file's stored values, dequantised to float32 by the gguf "
            "package; the forward runs in float64.")] + [
                self._stored_as(f"{kind} × {count}", block, bits)
                for kind, (count, block, bits) in ckpt.tensor_storage.items()]))
        self._update_sink(self.model.result)

    def _stored_as(self, tensors: str, block: int, bits: float) -> str:
        """How the ``tensors`` ("Q8_0 × 1") store a weight: in blocks of ``block`` weights,
        ``bits`` each with the blocks' scales. The note said "4.5–5 bits per weight" of
        all of them, and SmolLM2's largest tensor, the token embedding, is Q8_0 (8.5);
        the F32 ones (the norms' gains) are not quantised (an audit)."""
        if block == 1:
            return self.tr("{0}: {1}-bit floats, not quantised.").format(tensors, f"{bits:g}")
        return self.tr("{0}: quantised in blocks of {1} weights, {2} bits a weight with "
                       "the blocks' scales.").format(tensors, block, f"{bits:g}")

    def _reopened_note(self, src) -> str:
        """What a session without its model holds, and what opening the model adds."""
        said = []
        if src.n_layers and src.n_heads:  # (0: not in the file)
            said.append(self.tr("{0} has {1} layers of {2} query heads.")
                        .format(src.name, src.n_layers, src.n_heads))
        said.append(self.tr(
            "Reopened from a session file without the model: open it again (File → Open "
            "model…) to switch layers and heads and to compute its next-token prediction, "
            "grouped-query attention and weight sizes."))
        return join_sentences(said)

    def _fill_rope(self) -> None:
        """RoPE as the session computes its panes RoPE(Q), RoPE(K): its base and pairs
        (the checkpoint's until the learner changes them; a reopened session's too). A
        base edited away from the opened checkpoint's says the checkpoint's beside it:
        "base 500" alone read as the model's own."""
        state = self.model.state
        o = state.options
        if o.positions != "rope" or state.d_k % 2:
            self.rope_label.setText("")
            return
        ckpt = None if self._source is None else self._source.checkpoint
        own = None if ckpt is None else ckpt.rope_base  # (none: a reopened session)
        if own is None or own == o.rope_base:
            turned = self.tr("Q and K are turned by position before QKᵀ (panes RoPE(Q), "
                             "RoPE(K)); base {0}.").format(format_rope_base(o.rope_base))
        else:
            turned = self.tr("Q and K are turned by position before QKᵀ (panes RoPE(Q), "
                             "RoPE(K)); base {0} (the checkpoint's: {1}).").format(
                format_rope_base(o.rope_base), format_rope_base(own))
        if o.rope_pairing == "half":
            paired = self.tr(
                "Dimension i rotates together with dimension i + {0} (Hugging Face's "
                "layout; the GGUF file stores them as neighbours 2i, 2i + 1 and they are "
                "reordered on reading, which leaves the attention unchanged).")
        else:
            paired = self.tr(
                "Dimension 2i rotates together with dimension 2i + 1 (this session's "
                "setting: the model pairs i with i + {0}, so the attention is no longer "
                "the model's).")
        self.rope_label.setText(join_sentences([turned, paired.format(state.d_k // 2)]))

    def _fill_next(self, src, live: bool) -> None:
        top = src.next_tokens
        if top:
            caption = self.tr("The model's prediction for the token after “{0}” (from the "
                              "model's own numbers: edits in the panes do not change "
                              "it):").format(src.text)
        elif live:
            caption = self.tr("No prediction: open the model again to compute it.")
        else:  # the reopened note says it
            caption = ""
        self.next_caption.setText(caption)
        self.next_table.setRowCount(len(top))
        for row, t in enumerate(top):
            items = (QTableWidgetItem(token_in_text(t.text)), QTableWidgetItem(str(t.id)),
                     QTableWidgetItem(format_percent(t.probability, 2)))
            items[0].setToolTip(self.tr("piece {0}").format(t.piece))
            for col, item in enumerate(items):
                self.next_table.setItem(row, col, item)
        self.next_table.setVisible(bool(top))

    def _show_filled(self) -> None:
        """Show the texts that have something to say, each section's heading with its
        text: a heading over nothing ("MHA vs GQA" of a reopened session) is hidden."""
        for label in (self.reopened_label, self.next_caption, self.quant_label):
            label.setVisible(bool(label.text()))
        for caption, label in zip(self._section_labels, self._section_texts, strict=True):
            filled = bool(label.text())
            caption.setVisible(filled)
            label.setVisible(filled)

    def _head(self) -> int:
        """The query head shown: the source's, or the chosen one of a whole layer."""
        src = self._source
        if src is not None and src.scope == "layer":
            return self.model.current_head
        return 0 if src is None else src.head

    def _on_current_head(self, _head: int) -> None:
        if self._source is not None and self._source.scope == "layer":
            self._fill()

    def _fill_gqa(self, ckpt, head: int) -> None:
        """The groups, counted from 1 like every head in the window."""
        group = ckpt.group_size
        rows = []
        for kv in range(ckpt.n_kv_heads):
            heads = []
            for q in range(kv * group, (kv + 1) * group):
                heads.append(f"<b>[{q + 1}]</b>" if q == head else str(q + 1))
            rows.append(self.tr("K/V head {0} ← query heads {1}").format(kv + 1,
                                                                         " ".join(heads)))
        intro = self.tr("{0} query heads share {1} key/value heads, {2} each: query head {3} "
                        "uses W_K and W_V of key/value head {4}.").format(
            ckpt.n_heads, ckpt.n_kv_heads, group, head + 1, ckpt.kv_group(head) + 1)
        self.gqa_label.setText(html.escape(intro) + "<br>" + "<br>".join(rows))

    def _update_sink(self, result=None) -> None:
        self._write_sink(self.model.result if result is None else result)
        self._show_filled()

    def _write_sink(self, result) -> None:
        if self._source is None or result is None or result.state.n < 2:
            self.sink_label.setText("")
            return
        if result.state.mode == "cross":
            # the first key is then the other sequence's, and the lesson a decoder's
            self.sink_label.setText(self.tr(
                "The attention sink is a lesson of a decoder's self-attention: this "
                "session is cross-attention. Switch back to self-attention to see it."))
            self.sink_label.setToolTip("")
            return
        # the decoder lesson only
        from qkv_desktop.core.llama import (
            even_first_token_mass,
            first_token_mass,
            is_attention_sink,
        )
        head = result.head(self.model.current_head)
        mass = first_token_mass(head.weights)
        evens = even_first_token_mass(*head.weights.shape, head.mask_spec)
        # the rows that choose: under the causal mask row 0 sees only the first token (its
        # 100 % says nothing), and a window can hide it from later rows (their 0 % says
        # nothing either, and with them in the means no row could ever make a sink)
        choosing = (evens > 0.0) & (evens < 1.0)
        if not choosing.any():
            self.sink_label.setText(self.tr(
                "No row both sees the first token and could look elsewhere: the mask "
                "decides this head's weight on it."))
            self.sink_label.setToolTip("")
            return
        rows, row_evens = mass[choosing], evens[choosing]
        even, mean = float(np.mean(row_evens)), float(np.mean(rows))
        first = token_in_text(result.state.tokens[0])
        # a sum of a row's weights: 1 up to rounding where all of it is on that token
        exact = rounding_of(mass.dtype)

        def percent(x, toward=None) -> str:
            """Whole percents, two significant digits for a small share (0 decimals read
            a row's 0.51 % "1%"); "least" rounded down and "most" up, so that they hold
            of the numbers shown ("least 1%" was said of 0.51 %)."""
            return format_percent(x, 0, exact_within=exact, significant=2, toward=toward)

        least, most = percent(rows.min(), "down"), percent(rows.max(), "up")
        # rows numbered as the tables and the Explain panel number them, from 0
        span = np.flatnonzero(choosing)
        if choosing.all():
            said = self.tr(
                "Rows 0 … {0} put on average {1} of their weight on the first token “{2}” "
                "(least {3}, most {4}).").format(len(mass) - 1, percent(mean), first, least,
                                                 most)
        elif choosing[1:].all():  # all but row 0, which sees the first token alone
            said = self.tr(
                "Rows 1 … {0} put on average {1} of their weight on the first token “{2}” "
                "(least {3}, most {4}); row 0 can only see it.").format(
                len(mass) - 1, percent(mean), first, least, most)
        else:  # a window: only some rows see the first token among others
            said = self.tr(
                "The %n rows that see the first token “{0}” among other keys (rows {1}) "
                "put on average {2} of their weight on it (least {3}, most {4}).", "",
                len(rows)).format(first, _row_span(span), percent(mean), least, most)
        if is_attention_sink(mean, even):
            verdict = self.tr(
                "Spread evenly over the keys each row sees, the weights would put {0} "
                "there: this head puts {1:.1f} times that on it, an attention sink "
                "(decoders park attention they do not need on the first token, in all "
                "but their first few layers).").format(percent(even), mean / even)
        else:
            verdict = self.tr(
                "Spread evenly over the keys each row sees, the weights would put {0} "
                "there: no attention sink in this head (decoders park attention they do "
                "not need on the first token in all but their first few layers, though "
                "not in every head).").format(percent(even))
        self.sink_label.setText(join_sentences([said, verdict]))
        self.sink_label.setToolTip("\n".join(
            self.tr("row {0} ({1}): {2:.4f}").format(i, t, m)
            for i, (t, m) in enumerate(zip(result.state.tokens, mass, strict=True))))

    def _on_spin(self, _value=None) -> None:
        src = self._source
        if src is None or src.checkpoint is None:
            return
        layer, head = self.layer_spin.value() - 1, self.head_spin.value() - 1
        whole = self.all_heads_box.isChecked()
        try:
            if whole and src.scope == "layer" and layer == src.layer:
                self.model.set_current_head(head)  # the layer is loaded: just look
                return
            if not whole and src.scope == "head" and (layer, head) == (src.layer, src.head):
                return
            (self._load_layer if whole else self._switch)()(layer, head)
        except ValueError as exc:
            self.error_label.setText(say(exc))
            self.error_label.show()
            self._fill()
        else:
            self.error_label.hide()
