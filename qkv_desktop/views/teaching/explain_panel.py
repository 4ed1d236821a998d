"""The explain panel: the pinned cell's whole computation, with the session's numbers.

For a pinned cell (i, j) of QKᵀ, the scaled scores or the weights it shows q_i·k_j as
a sum of products, the division by √d_k and T, the row maximum, exp, the row sum and
the weight, then output row i as the weighted sum of the V rows. The numbers come
from ``core.lessons.cell_breakdown`` so they are the panes' own numbers.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from qkv_desktop.core.lessons import CellBreakdown, cell_breakdown, exp_limit, projection_breakdown
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.cell_text import describe_cell, mask_reason_text, projection_formula
from qkv_desktop.presentation.numbers import (
    DECIMALS,
    SCIENTIFIC_FROM,
    decimals_that_add_up,
    format_value,
    with_minus,
)
from qkv_desktop.presentation.pane_info import pane_caption
from qkv_desktop.presentation.texts import join_sentences, stale_note, token_in_text
from qkv_desktop.state.catalogue import CellRef, cell_in
from qkv_desktop.views.retranslate import Retranslating

__all__ = ["ExplainPanel", "format_number", "MAX_TERMS"]

WEIGHT_STAGES = frozenset({"scores", "mask", "bias", "scaled", "weights"})
"""The n×m matrices whose cell this panel explains as one attention weight's making (q·k,
mask, bias, ÷√d_k, softmax). Another n×m matrix of the catalogue gets its own sentence
(``cell_text``) instead, not a weight's derivation."""
MAX_TERMS = 8
"""Sums of up to this many terms are written out in full; longer ones are shortened."""

SHOWN_TERMS = 3
"""How many leading terms a shortened sum shows before "…"."""

MAX_V_COLUMNS = 6

STYLE = """
<style>
  h3 { margin: 0 0 4px 0; }
  p { margin: 2px 0 6px 0; }
  .step { color: #1d5a96; font-weight: bold; margin-top: 8px; }
  .math { font-family: 'DejaVu Serif', 'Noto Serif', serif; }
  .res { color: #b2182b; font-weight: bold; }
  .note { color: #555555; }
  .warn { color: #b2182b; }
  td { padding: 1px 6px; }
  th { padding: 1px 6px; background: #eef3f8; }
</style>
"""


def format_number(v: float, digits: int = DECIMALS) -> str:
    """A number for rich text by the app's one rule (``presentation.numbers``): four
    decimals below 10⁴, else four significant digits as ``m×10<sup>e</sup>``.

    A value too small for four decimals but not 0 (an exp(s) close to underflow) is
    written the same scientific way rather than as 0.0000: here it is the point.
    Minus signs are typographic (−); infinities are ∞ and −∞, NaN is "NaN".
    ``digits`` above four write a worked sum whose terms add up (``decimals_that_add_up``);
    a value that rounds to 0 is written without a sign, at any ``digits``.
    """
    v = float(v)
    tiny = v != 0 and math.isfinite(v) and abs(v) < 0.5 * 10.0 ** -digits
    plain = f"{v:.{digits}f}" if digits != DECIMALS and math.isfinite(v) else None
    text = f"{v:.{DECIMALS - 1}e}" if tiny else (
        format_value(v) if plain is None or abs(v) >= SCIENTIFIC_FROM
        else f"{0:.{digits}f}" if float(plain) == 0 else plain)
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}×10<sup>{int(exponent)}</sup>"
    return with_minus(text)


def _paren(v: float) -> str:
    text = format_number(v)
    return f"({text})" if v < 0 else text


def _vector(values, limit: int = MAX_V_COLUMNS) -> str:
    vals = [format_number(v) for v in np.asarray(values).tolist()[:limit]]
    if len(values) > limit:
        vals.append("…")
    return "[" + ", ".join(vals) + "]"


class ExplainPanel(Retranslating, QWidget):
    """Rich-text walk-through of the pinned cell, rebuilt on every result."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("explainPanel")
        self.browser = QTextBrowser(objectName="explainText")
        self.browser.setOpenLinks(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.browser)
        model.resultChanged.connect(self.refresh)
        model.resultCleared.connect(self.refresh)
        model.selectionChanged.connect(self.refresh)
        model.computeErrorChanged.connect(self.refresh)
        self._html: str | None = None
        """The rich text on display: an edit re-lays out the panel only if it changed."""
        self.retranslate()

    def retranslate(self) -> None:
        self.browser.setToolTip(self.tr("Click a cell of the weights (or QKᵀ, scaled) pane "
                                        "to see how it is computed; click it again to unpin."))
        self.refresh()

    # ------------------------------------------------------------ content
    def refresh(self, *_args) -> None:
        html = self.html()
        if html != self._html:  # the hint, or the same pinned cell's unchanged numbers
            self._html = html
            self.browser.setHtml(html)

    def html(self) -> str:
        """The panel's current rich text (also what tests read)."""
        # the pin as this result has it (an insert moves it only once its result comes)
        result, ref = self.model.result, self.model.shown_selection
        if result is None or ref is None or not self._in_range(result, ref):
            return STYLE + self._hint()
        stale = (f"<p class='warn'>{html.escape(stale_note())}</p>"
                 if self.model.compute_error else "")
        if ref.matrix in WEIGHT_STAGES:
            return STYLE + stale + self._explain_weight(result, ref)
        if ref.matrix == "output":
            return STYLE + stale + self._explain_output_cell(result, ref)
        if ref.matrix in ("Q", "K", "V"):
            return STYLE + stale + self._explain_projection(result, ref)
        if ref.matrix in ("X", "X_kv"):
            return STYLE + stale + self._explain_input(result, ref)
        return STYLE + stale + self._hint(ref)

    @staticmethod
    def _in_range(result, ref: CellRef) -> bool:
        """False for a selection the result does not have (yet), e.g. a deleted token."""
        return cell_in(result.state, ref)

    def _hint(self, ref: CellRef | None = None) -> str:
        lead = ""
        if ref is not None:
            lead = self.tr("<p>The pinned cell is in {0}; this panel explains the attention "
                           "cells.</p>").format(html.escape(pane_caption(ref.matrix)))
            sentence = describe_cell(self.model.result, ref)  # the matrix's own text
            if sentence:
                lead += f"<p class='math'>{html.escape(sentence)}</p>"
        title = self.tr("How is a weight computed?")
        return (f"<h3>{title}</h3>{lead}"
                + self.tr("<p>Click a cell of the <b>weights</b> pane (or of QKᵀ or the "
                          "scaled scores) to pin it. This panel then shows, with the real "
                          "numbers of this session, every step from q·k to the output.</p>"
                          "<p class='note'>Click the cell again to unpin it.</p>")
                + "<p class='note'>" + self.tr("A cell of X shows where it flows, a cell of Q, "
                                               "K or V its dot product, a cell of the output "
                                               "its weighted sum.") + "</p>")

    def _projection_parts(self, result, ref: CellRef, matrix: str, row: int, col: int):
        """(weight name, bias name, source name, breakdown) of cell (row, col) of ``matrix``."""
        s = result.state
        weight, bias = projection_formula(s, ref.head, matrix)
        weights = s.heads[ref.head]
        source = "X" if matrix == "Q" or s.mode == "self" else "X_kv"
        inputs = getattr(s, source)
        head = result.head(ref.head)
        with_positions = getattr(head, "X_pos" if source == "X" else "X_kv_pos", None)
        if with_positions is not None:  # sinusoidal positions: the projections see X + P
            source, inputs = f"({source} + P)", with_positions
        b = projection_breakdown(inputs, getattr(weights, weight),
                                 getattr(weights, bias) if bias else None, row, col)
        return weight, bias, source, b

    def _explain_projection(self, result, ref: CellRef) -> str:
        """A cell of Q, K or V: the dot product of a token's row with a weight column,
        and where the number goes next."""
        s = result.state
        m, i, c = ref.matrix, ref.row, ref.col
        weight, bias, source, b = self._projection_parts(result, ref, m, i, c)
        tokens = s.tokens if m == "Q" else s.key_tokens
        t = html.escape(token_in_text(tokens[i]))
        terms = [f"{_paren(x)}·{_paren(w)}" for x, w in zip(b.x.tolist(), b.w.tolist(),
                                                            strict=True)]
        if len(terms) > MAX_TERMS:
            terms = terms[:SHOWN_TERMS] + ["…", terms[-1]]
        plus = f" + {bias}[{c}]" if bias else ""
        bias_term = f" + {_paren(b.bias)}" if bias else ""
        head = self.tr(" (head {0})").format(ref.head + 1) if s.n_heads > 1 else ""
        where = {
            "Q": self.tr("It is one coordinate of the query of <b>{0}</b>: it enters every "
                         "score of the row of {0} in QKᵀ, QKᵀ[{0}, k] = q<sub>{0}</sub>·k<sub>k"
                         "</sub>."),
            "K": self.tr("It is one coordinate of the key of <b>{0}</b>: it enters every "
                         "score of the column of {0} in QKᵀ, QKᵀ[q, {0}] = q<sub>q</sub>·k"
                         "<sub>{0}</sub>."),
            "V": self.tr("It is what <b>{0}</b> passes on in column {1}: every output row "
                         "adds it, weighted: out[q, {1}] = Σ<sub>k</sub> w[q → k]·V[k, {1}]."),
        }[m].format(t, c)
        return (f"<h3>{m}[{t}, {c}]{head}</h3>"
                + "<p class='note'>" + self.tr("Row <b>{0}</b> of {1} times column {2} of {3}: "
                                               "a dot product over the {4} input dimensions.")
                .format(t, source, c, weight, b.x.size) + "</p>"
                + f"<p class='math'>{m}[{t}, {c}] = {source}[{t}] · {weight}[:, {c}]{plus} = "
                "Σ<sub>d</sub> " + f"{source}[{t}, d]·{weight}[d, {c}]<br>= "
                + " + ".join(terms) + bias_term
                + f"<br>= <span class='res'>{format_number(b.value)}</span></p>"
                + f"<p>{where}</p>")

    def _explain_input(self, result, ref: CellRef) -> str:
        """A cell of X (or X_kv): which projections it feeds, by how much, and onwards."""
        s = result.state
        m, i, d = ref.matrix, ref.row, ref.col
        tokens = s.tokens if m == "X" else s.kv_tokens
        t = html.escape(token_in_text(tokens[i]))
        value = getattr(s, m)[i, d]
        feeds = ["Q"] if m == "X" and s.mode == "cross" else (
            ["K", "V"] if m == "X_kv" else ["Q", "K", "V"])
        weight_row, adds_to = self.tr("weight row"), self.tr("adds to")
        rows = [f"<tr><th></th><th>{weight_row}</th><th>{adds_to}</th></tr>"]
        for name in feeds:
            weight, _bias = projection_formula(s, ref.head, name)
            W = getattr(s.heads[ref.head], weight)
            adds = _vector(value * W[d])
            rows.append(f"<tr><td><b>{name}</b>[{t}, :]</td><td class='math'>{weight}[d{d}, :] = "
                        f"{_vector(W[d])}</td><td class='math'>{adds}</td></tr>")
        table = "<table cellspacing='0' border='0'>" + "".join(rows) + "</table>"
        head = self.tr(" (head {0})").format(ref.head + 1) if s.n_heads > 1 else ""
        return (f"<h3>{m}[{t}, d{d}] = {format_number(value)}</h3>"
                + "<p class='note'>" + self.tr("Coordinate d{0} of the input vector of <b>{1}</b>."
                                               ).format(d, t) + "</p>"
                + "<p class='step'>" + self.tr("Where it flows{0}").format(head) + "</p>"
                + "<p>" + self.tr("Row d{0} of each weight matrix multiplies it: it adds "
                                  "{1} × that row to the token's projections.")
                .format(d, format_number(value)) + "</p>" + table
                + "<p class='note'>" + self.tr("From there into the scores of {0} (QKᵀ), its "
                                               "weights and the output; click a cell of Q, K "
                                               "or V to see one sum whole.").format(t) + "</p>")

    def _names(self, result, i: int, j: int) -> tuple[str, str]:
        s = result.state
        return html.escape(token_in_text(s.tokens[i])), html.escape(token_in_text(s.key_tokens[j]))

    def _explain_weight(self, result, ref: CellRef) -> str:
        s = result.state
        o = s.options
        r = result.head(ref.head)
        b = cell_breakdown(r, ref.row, ref.col, o.temperature, o.stable)
        a, k = self._names(result, b.i, b.j)
        head = (self.tr(" (head {0})").format(ref.head + 1) if s.n_heads > 1 else "")
        parts = [f"<h3>w[{a} → {k}]{head}</h3>",
                 "<p class='note'>"
                 + self.tr("Query <b>{0}</b> (row {1}) looking at key <b>{2}</b> "
                           "(column {3}).").format(a, b.i, k, b.j) + "</p>"]
        parts += self._step_score(b, a, k, o.positions == "rope")
        parts += self._step_scale(b, a, k, s, r.alibi_slope)
        parts += self._step_softmax(b, a, k, r.weights.dtype, o.stable)
        parts += self._step_output(b, result, a)
        return "".join(parts)

    def _step_score(self, b: CellBreakdown, a: str, k: str, rotated: bool = False) -> list[str]:
        d_k = b.products.size
        terms = [f"{_paren(x)}·{_paren(y)}" for x, y in zip(b.q.tolist(), b.k.tolist(), strict=True)]
        if d_k > MAX_TERMS:
            terms = terms[:SHOWN_TERMS] + ["…", terms[-1]]
        step = self.tr("1 · Score: the dot product q·k")
        rope = []
        if rotated:
            rope = ["<p class='note'>" + self.tr(
                "RoPE: q is the query turned by its position ({0}), k the key turned by its "
                "position ({1}); the positions enter the score only through their distance "
                "{0} − {1} = {2}.")
                .format(b.i, b.j, b.i - b.j) + "</p>"]
        return [f"<p class='step'>{step}</p>", *rope,
                f"<p class='math'>QKᵀ[{a}, {k}] = q<sub>{a}</sub> · k<sub>{k}</sub> = "
                "Σ<sub>c</sub> q<sub>c</sub>k<sub>c</sub><br>= " + " + ".join(terms)
                + f"<br>= <span class='res'>{format_number(b.score)}</span></p>",
                "<p class='note'>" + self.tr("{0} products, one per dimension of d_k = {0}.")
                .format(d_k) + "</p>"]

    def _step_scale(self, b: CellBreakdown, a: str, k: str, state,
                    slope: float | None = None) -> list[str]:
        o = state.options
        d_k = b.products.size
        if o.scale == "sqrt_dk":
            div = f"√d<sub>k</sub> = √{d_k} = {format_number(b.divisor)}"
        elif o.scale == "none":
            div = self.tr("1 (no scaling)")
        else:
            div = self.tr("{0} (custom divisor)").format(format_number(b.divisor))
        step = self.tr("2 · Scale: divide by the divisor and T")
        out = [f"<p class='step'>{step}</p>",
               "<p class='math'>" + self.tr("divisor = {0}, temperature T = {1}")
               .format(div, format_number(b.temperature)) + "</p>"]
        if b.masked:
            out.append(f"<p class='math'>s[{a}, {k}] = <span class='res'>−∞</span></p><p>"
                       + html.escape(mask_reason_text(b.reason, a, k)) + ". "
                       + self.tr("The score is replaced by −∞ before softmax, so the weight "
                                 "is exactly 0.") + "</p>")
            return out
        if state.options.alibi is not None and slope is not None:
            # The slope is m in the ALiBi paper, but m is the row maximum two lines on:
            # the slope gets its own name here. The head's own slope, also on the
            # diagonal (|i − j| = 0), where the word "slope" stood for the number.
            m = format_number(slope)
            formula = self.tr("QKᵀ / (divisor · T)")
            out.append(f"<p class='math'>s[{a}, {k}] = {formula} − "
                       f"m<sub>ALiBi</sub>·|i − j| = "
                       f"{format_number(b.score)} / ({format_number(b.divisor)} · "
                       f"{format_number(b.temperature)}) − {m}·|{b.i} − {b.j}| = "
                       f"<span class='res'>{format_number(b.scaled)}</span></p>"
                       "<p class='note'>" + self.tr("ALiBi: the bias {0} lowers the score the "
                                                    "further the key is from the query.")
                       .format(format_number(b.bias)) + "</p>")
            return out
        formula = self.tr("QKᵀ / (divisor · T)")
        out.append(f"<p class='math'>s[{a}, {k}] = {formula} = "
                   f"{format_number(b.score)} / ({format_number(b.divisor)} · "
                   f"{format_number(b.temperature)}) = "
                   f"<span class='res'>{format_number(b.scaled)}</span></p>")
        return out

    def _digits_note(self, digits: int) -> str:
        """Says why a sum shows more than four decimals (nothing when it does not)."""
        if digits <= DECIMALS:
            return ""
        return (" <span class='note'>" + self.tr(
            "({0} decimals: at 4 the rounded numbers would not add up)").format(digits)
            + "</span>")

    @staticmethod
    def _row_sum_decimals(exps: np.ndarray, masked: np.ndarray, total: float) -> int:
        """Decimals at which the written terms of Σ add up to the written Σ (all of them
        are written only up to ``MAX_TERMS``; an elided sum cannot be checked anyway)."""
        shown = [e for e, hidden in zip(exps.tolist(), masked, strict=True) if not hidden]
        return decimals_that_add_up(shown, total) if len(shown) <= MAX_TERMS else DECIMALS

    def _row_sum_terms(self, exps: np.ndarray, masked: np.ndarray, digits: int = DECIMALS) -> str:
        terms = [format_number(e, digits) for e, hidden in zip(exps.tolist(), masked, strict=True)
                 if not hidden]
        if len(terms) > MAX_TERMS:
            terms = terms[:SHOWN_TERMS] + ["…", terms[-1]]
        return " + ".join(terms)

    def _step_softmax(self, b: CellBreakdown, a: str, k: str, dtype,
                      stable: bool) -> list[str]:
        step = self.tr("3 · Softmax over the row of {0}").format(a)
        out = [f"<p class='step'>{step}</p>"]
        masked = np.isneginf(b.scaled_row)
        if stable:
            out.append("<p class='math'>" + self.tr(
                "row maximum m = max<sub>j</sub> s[{0}, j] = {1}").format(
                a, format_number(b.shift)) + "</p><p class='note'>"
                + self.tr("Subtracting it makes every exponent ≤ 0, so exp never overflows; "
                          "the weights do not change.") + "</p>")
            exponent = b.scaled - b.shift
            d = decimals_that_add_up((b.scaled, -b.shift), exponent)
            e_expr = (f"exp(s − m) = exp({format_number(b.scaled, d)} − "
                      f"{format_number(b.shift, d)}) = exp({format_number(exponent, d)})")
            e_note = self._digits_note(d)
            sum_expr = f"Σ<sub>j</sub> exp(s[{a}, j] − m)"
        else:
            out.append("<p class='warn'>" + self.tr(
                "Naive softmax: the row maximum is not subtracted, so exp sees the scaled "
                "scores as they are; above {0} it overflows to ∞, and far below 0 it "
                "underflows to 0.").format(
                format_number(exp_limit(dtype))) + "</p>")
            e_expr, e_note = f"exp(s) = exp({format_number(b.scaled)})", ""
            sum_expr = f"Σ<sub>j</sub> exp(s[{a}, j])"
        e = float(b.exps[b.j])
        if b.masked:
            out.append("<p class='math'>exp(−∞) = <span class='res'>0</span></p>")
        else:
            out.append(f"<p class='math'>{e_expr} = <span class='res'>{format_number(e)}"
                       f"</span>{e_note}</p>")
        d = self._row_sum_decimals(b.exps, masked, b.row_sum)
        out.append(f"<p class='math'>Σ = {sum_expr} = {self._row_sum_terms(b.exps, masked, d)}"
                   f" = <span class='res'>{format_number(b.row_sum, d)}</span>"
                   f"{self._digits_note(d)}</p>")
        if masked.any():
            out.append("<p class='note'>" + self.tr("{0} masked key(s) add exp(−∞) = 0 to "
                                                   "the sum.").format(int(masked.sum()))
                       + "</p>")
        out.append(f"<p class='math'>w[{a} → {k}] = {format_number(e)} / "
                   f"{format_number(b.row_sum)} = <span class='res'>"
                   f"{format_number(b.weight)}</span></p>")
        if b.masked:
            out.append("<p class='note'>" + self.tr("A masked key gets weight exactly 0.")
                       + "</p>")
        elif not np.isfinite(b.weight):
            if np.isinf(b.exps).any():
                why = self.tr("Overflow: exp(s) of this row reached ∞, so its sum is ∞ "
                              "and ∞ / ∞ is NaN.")
            else:
                why = self.tr("Underflow: every exp(s) of this row is 0 (the scores are far "
                              "below 0), so the weight is 0 / 0 = NaN.")
            out.append("<p class='warn'>" + join_sentences((why, self.tr(
                "Turn the naive softmax off: with the row maximum subtracted the largest "
                "exponent is exp(0) = 1, and the same scores give finite weights."))) + "</p>")
        return out

    def _contribution_table(self, result, i: int, weights_row, V, highlight: int | None,
                            column: int | None = None) -> str:
        keys = result.state.key_tokens
        m, d_k = V.shape
        order = list(range(m))
        if m > MAX_TERMS:  # the keys that contribute most, in their own order
            order = sorted(np.argsort(-np.nan_to_num(weights_row, nan=-1))[:MAX_TERMS].tolist())
        key_j = self.tr("key j")
        if column is None:
            head = (f"<tr><th>{key_j}</th><th>w<sub>j</sub></th>"
                    f"<th>v<sub>j</sub></th><th>w<sub>j</sub>·v<sub>j</sub></th></tr>")
        else:
            head = (f"<tr><th>{key_j}</th><th>w<sub>j</sub></th>"
                    f"<th>v<sub>j</sub>[{column}]</th><th>w<sub>j</sub>·v<sub>j</sub>[{column}]"
                    "</th></tr>")
        rows = [head]
        for j in order:
            style = " style='background:#fff3d6'" if j == highlight else ""
            w = weights_row[j]
            if column is None:
                v, c = _vector(V[j]), _vector(w * V[j])
            else:
                v, c = format_number(V[j, column]), format_number(w * V[j, column])
            rows.append(f"<tr{style}><td>{html.escape(token_in_text(keys[j]))}</td><td>{format_number(w)}"
                        f"</td><td class='math'>{v}</td><td class='math'>{c}</td></tr>")
        if len(order) < m:
            rows.append("<tr><td colspan='4' class='note'>"
                        + self.tr("… and %n keys with smaller weights", "", m - len(order))
                        + "</td></tr>")
        return "<table cellspacing='0' border='0'>" + "".join(rows) + "</table>"

    def _step_output(self, b: CellBreakdown, result, a: str) -> list[str]:
        step = self.tr("4 · Output: the weighted sum of the V rows")
        return [f"<p class='step'>{step}</p>",
                f"<p class='math'>out<sub>{a}</sub> = Σ<sub>j</sub> w[{a} → j] · v<sub>j</sub>"
                "</p>", self._contribution_table(result, b.i, b.weights_row, b.V, b.j),
                f"<p class='math'>out<sub>{a}</sub> = <span class='res'>"
                f"{_vector(b.output_row)}</span></p>",
                "<p class='note'>" + self._weights_note(b.weights_row) + "</p>"]

    def _weights_note(self, weights_row) -> str:
        """What the weights make of the output: a weighted average, unless a naive
        softmax broke the row (its weights NaN, or all 0 where the sum of its exps
        overflowed): then it says so rather than claim they sum to 1."""
        with np.errstate(invalid="ignore"):
            total = float(np.sum(weights_row, dtype=np.float64))
        if math.isfinite(total) and abs(total - 1) < 1e-3:
            return self.tr("The weights of a row are ≥ 0 and sum to 1, so the output is a "
                           "weighted average of the value vectors.")
        return self.tr("This row's weights sum to {0}, not 1: the naive softmax broke on "
                       "it (the banner above the panes says how), so the output is no "
                       "weighted average of the value vectors.").format(format_number(total))

    def _explain_output_cell(self, result, ref: CellRef) -> str:
        r = result.head(ref.head)
        i, c = ref.row, ref.col
        a = html.escape(token_in_text(result.state.tokens[i]))
        total = format_number(r.output[i, c])
        return (f"<h3>out[{a}, {c}]</h3>"
                f"<p class='math'>out[{a}, {c}] = Σ<sub>j</sub> w[{a} → j] · V[j, {c}]</p>"
                + self._contribution_table(result, i, r.weights[i], r.V, None, c)
                + f"<p class='math'>= <span class='res'>{total}</span></p>"
                + "<p class='note'>" + self.tr("Pin a cell of the weights pane to see how "
                                               "each weight is computed.") + "</p>")
