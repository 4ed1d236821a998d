"""Banners above the panes that say when the numbers show one of the tutorial's lessons.

Each banner is one sentence with its actions and a "Details" link that unfolds the
whole explanation. They share a strip of one line's height that is always there (with
a hint on what to try when no lesson applies), so the panes never jump when a lesson
banner comes or goes; only unfolding the details, which the learner asked for, does.

* Nearly uniform attention (tutorial example 1): the measured facts of the session at
  hand (how flat, why, where the diagonal stands, what 爱's row says against the
  commentary), and only the actions that make sense for it: no "weight scale 1" for
  weights that were not drawn at random.
* The naive softmax overflowing after "× 100 the inputs", and why subtracting the
  row maximum fixes it.
* The table's values that could not be computed (``AttentionModel.compute_error``):
  the panes keep the last result that computed, and this banner says so for as long
  as it is true, where the learner looks, with an Undo; the status bar's message of
  the same is gone at the next message.
"""

from __future__ import annotations

import html
import re

import numpy as np
from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from qkv_desktop.core.lessons import exp_limit
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_value
from qkv_desktop.presentation.texts import join_sentences, say
from qkv_desktop.state.readouts import seeded_weights
from qkv_desktop.views.elided_label import ElidedLabel

__all__ = ["LessonBanners", "Banner"]

STYLES = {  # background, border
    "hint": ("#f4f4f4", "#d0d0d0"),
    "info": ("#e8f1fb", "#7aa7d9"),
    "warning": ("#fdecea", "#d98080"),
}


def _rich_label(name: str, wrap: bool) -> QLabel:
    label = QLabel(objectName=name)
    label.setWordWrap(wrap)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                  | Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setStyleSheet("background: transparent; border: none;")
    return label


class Banner(QFrame):
    """A coloured strip: one sentence (``headline``) with action links, and the whole
    explanation (``label``) unfolded under it by its "Details" link."""

    def __init__(self, name: str, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        background, border = STYLES[kind]
        self.setStyleSheet(f"QFrame#{name} {{ background: {background}; "
                           f"border: 1px solid {border}; border-radius: 4px; }}")
        # One line whatever the width: the sentence ends in "…" (its tool tip and the
        # details say it all), its links (``links``) are never cut.
        self.headline = ElidedLabel(objectName=f"{name}Headline")
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.links = _rich_label(f"{name}Links", wrap=False)
        self.label = _rich_label(f"{name}Text", wrap=True)
        self.label.hide()
        self.links.linkActivated.connect(self._on_headline_link)
        line = QHBoxLayout()
        line.setSpacing(8)
        line.addWidget(self.headline, 1)
        line.addWidget(self.links)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 3, 8, 3)
        layout.setSpacing(2)
        layout.addLayout(line)
        layout.addWidget(self.label, 1)
        self.hide()
        self._links = ""

    def show_text(self, headline: str | None, details: str = "", links: str = "",
                  shorter: tuple[str, ...] = ()) -> None:
        """Show ``headline`` (one sentence of rich text), its action ``links`` and
        ``details`` on demand, or hide the banner for ``None``; ``shorter`` wordings of
        the headline show whole where it does not fit (``ElidedLabel.set_shorter``)."""
        if headline is None:
            self.hide()
            return
        self.headline.set_shorter(shorter)
        if (headline, details, links) != (self.headline.text(), self.label.text(),
                                          self._links):
            self.headline.setText(headline)
            self.label.setText(details)
            self._links = links
            self._update_headline()
        self.show()

    @property
    def expanded(self) -> bool:
        return not self.label.isHidden()

    def set_expanded(self, expanded: bool) -> None:
        self.label.setVisible(expanded)
        self._update_headline()

    def _update_headline(self) -> None:
        link = self.tr("Hide details") if self.expanded else self.tr("Details")
        more = f"<a href='details'>{link}</a>" if self.label.text() else ""
        self.links.setText("&nbsp;&nbsp;".join(x for x in (self._links, more) if x))
        self.headline.set_note("" if self.expanded else self.label.text())

    def _on_headline_link(self, link: str) -> None:
        if link == "details":
            self.set_expanded(not self.expanded)
            self.parentWidget().updateGeometry()
        else:
            self.label.linkActivated.emit(link)  # the actions, wherever they are clicked


class LessonBanners(QWidget):
    """The lesson banners, re-evaluated on every result and head change.

    They read the result's cached lesson read-outs (``ModelResult.lessons``).
    """

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("lessonBanners")
        self.uniform = Banner("uniformBanner", "info")
        self.overflow = Banner("overflowBanner", "warning")
        self.hint = Banner("hintBanner", "hint")  # what to try, while no lesson applies
        self.stale = Banner("staleBanner", "warning")  # the table's values do not compute
        for banner in (self.uniform, self.overflow, self.stale):
            banner.label.linkActivated.connect(self._on_link)
        layout = QHBoxLayout(self)  # side by side: both lessons still take one line
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        for banner in self._banners():
            layout.addWidget(banner, 1, Qt.AlignmentFlag.AlignTop)
        model.lessonsChanged.connect(self.refresh)  # after the panes
        model.currentHeadChanged.connect(self.refresh)
        model.computeErrorChanged.connect(self.refresh)
        self.refresh()

    def _banners(self) -> tuple[Banner, ...]:
        return self.hint, self.uniform, self.overflow, self.stale

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)

    def refresh(self, *_args) -> None:
        stale = not self.stale.isHidden()
        self._refresh()
        if stale != (not self.stale.isHidden()):  # its details may have been unfolded
            self.updateGeometry()

    def _refresh(self) -> None:
        error = self.model.compute_error
        if error:  # the panes are not the table's: that first, alone in the strip
            for banner in (self.hint, self.uniform, self.overflow):
                banner.show_text(None)
            # the reason first (it names the value, where it can): a narrow window
            # cuts the end, the tool tip and the details have it all
            reason = self.model.compute_reason or error
            # where even the reason is cut, its first clause ("X[爱, d2] = 1e+200 is too
            # large"): cut mid-word, "… is too large: the scor…" was all a 1024 px
            # window showed (a first user)
            whole = reason.rstrip(".。")
            # (after the cell's name: a token may be named "a: b")
            cut = re.compile(r": |：").search(whole, whole.find("]") + 1)
            shorter = ((self.tr("Not computed: {0}.").format(whole[:cut.start()]),)
                       if cut else ())
            steps = self.model.steps_to_computed()
            if steps == 0:  # opened so: nothing of this session to go back to
                self.stale.show_text(
                    self.tr("Not computed: {0}. Nothing is shown until the table's values "
                            "compute.").format(reason.rstrip(".")),
                    self.tr("{0}. No values of this session have computed yet, so the "
                            "panes show nothing; change the value the message names in "
                            "the table.").format(html.escape(error.rstrip(".。"))),
                    shorter=shorter)
                return
            undo = (self.tr("Undo") if steps == 1 else
                    self.tr("Undo the last {0} edits").format(steps))
            self.stale.show_text(
                self.tr("Not computed: {0}. The panes show the last result that "
                        "computed.").format(reason.rstrip(".")),
                self.tr("{0}. The panes keep the last result that computed until the "
                        "table's values compute again; {1} goes back to it (Redo "
                        "brings the edits back).")
                .format(html.escape(error.rstrip(".。")), html.escape(undo)),
                "<a href='undo'>" + undo + "</a>", shorter=shorter)
            return
        self.stale.show_text(None)
        result = self.model.result
        if result is None:
            return
        head = self.model.current_head
        r, lessons = result.head(head), result.lessons(head)
        self.uniform.show_text(*self._uniform_texts(result, lessons))
        self.overflow.show_text(*self._overflow_texts(result, r, lessons))
        lesson = self.uniform.isVisibleTo(self) or self.overflow.isVisibleTo(self)
        if self.presenting:  # the panes alone: no table to edit, no Explain panel
            self.hint.show_text(None if lesson else self.tr(
                "Hover any cell: the cells it is computed from light up in the other "
                "panes, and the status bar shows its formula."), shorter=(
                self.tr("Hover a cell: its inputs light up, its formula is below."),
                self.tr("Hover a cell: its inputs and formula")))
            return
        # a narrow window shows a shorter wording whole (the tool tip has the sentence)
        self.hint.show_text(None if lesson else self.tr(
            "Edit a value in the table, hover any cell to see how it is computed, and "
            "click a cell to have it explained."), shorter=(
            self.tr("Edit a value, hover a cell to see how it is computed, click it to "
                    "have it explained."),
            self.tr("Edit a value · hover a cell: its formula · click: explained"),
            self.tr("Edit, hover or click a cell")))  # beside a decoder's dock at 1024

    presenting = False
    """Presentation mode (``ViewScale.presentingChanged``): the panes alone on screen."""

    def set_presenting(self, presenting: bool) -> None:
        self.presenting = presenting
        self.refresh()

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._height())

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._height())

    def _height(self) -> int:
        """One banner line, however many banners show, unless details are unfolded."""
        # a hidden banner's unfolded details take no room (the stale banner is hidden
        # by the Undo in its own line, details open, and left a gap above the panes)
        banners = [b for b in self._banners() if not b.isHidden()] or [self.hint]
        return max(b.sizeHint().height() if b.expanded and not b.isHidden() else
                   b.headline.sizeHint().height() + 8 for b in banners)

    def _uniform_texts(self, result, lessons) -> tuple[str | None, str, str, tuple[str, ...]]:
        details = self._uniform_text(result, lessons)
        if details is None:
            return None, "", "", ()
        deviation = format_value(lessons.uniformity.deviation.max())
        if self._masked(result):  # row 0 of a causal head is 1.0000: not 1/n of all keys
            headline = self.tr("Attention is nearly uniform: every weight is within {0} of "
                               "1/(visible keys).").format(deviation)
            within = self.tr("Nearly uniform: every weight within {0} of 1/(visible keys)"
                             ).format(deviation)
        else:
            headline = self.tr("Attention is nearly uniform: every weight is within {0} of "
                               "1/n.").format(deviation)
            within = self.tr("Nearly uniform: every weight within {0} of 1/n").format(
                deviation)
        # a laptop's narrow strip showed "… every weight is within 0.…", the number cut
        shorter = (within, self.tr("Attention is nearly uniform"))
        link = self._uniform_link(result.state)
        return (headline, details, f"<a href='{link[0]}'>{link[1]}</a>" if link else "",
                shorter)

    def _masked(self, result) -> bool:
        """Whether a mask hides keys from some query of the shown head: then "n" in the
        uniform banner is each query's count of visible keys, not the sequence length."""
        return not bool(result.head(self.model.current_head).allowed.all())

    def _uniform_link(self, s) -> tuple[str, str] | None:
        """The one action that fits a nearly uniform head: undo the cause the user set."""
        if s.options.temperature > 1:
            return "temperature", self.tr("Set T = 1")
        if seeded_weights(s) and s.init_scale < 1:
            return "scale", self.tr("Try weight scale 1")
        return None

    def _stable_link(self) -> str:
        """The banner's action for a broken naive softmax."""
        return "<a href='stable'>" + self.tr("Use the stable softmax") + "</a>"

    def _overflow_texts(self, result, r, lessons
                        ) -> tuple[str | None, str, str, tuple[str, ...]]:
        """The overflow banner's headline, details, link and shorter wordings (at
        1024 × 700 "Naive softmax overflowed: 14 of 16 wei…" was cut mid-word, a
        first-time user: a shorter one shows whole, with its count where it fits)."""
        details = self._overflow_text(result, r, lessons)
        if details is None:
            return None, "", "", ()
        bad = lessons.overflow[0]
        over, _under, summed = lessons.broken_rows or (1, 0, 0)
        stable = self._stable_link()
        broke = self.tr("Naive softmax broke")
        if bad == 0 and summed:  # finite weights, all 0: their rows' sums overflowed
            return (self.tr("Naive softmax broke: every weight of %n rows is 0.", "",
                            summed), details, stable,
                    (self.tr("Naive softmax broke: %n rows of 0s", "", summed), broke))
        if bad == 0:
            return (self.tr("Naive softmax is on: nothing has overflowed yet."),
                    details, "<a href='x100'>" + self.tr("× 100 the inputs") + "</a>",
                    (self.tr("Naive softmax is on"),))
        if not over:  # no exp overflowed: rows underflowed
            return (self.tr("Naive softmax broke: {0} weights are NaN.").format(bad),
                    details, stable,
                    (self.tr("Naive softmax broke: {0} NaN").format(bad), broke))
        return (self.tr("Naive softmax overflowed: {0} of {1} weights are not finite."
                        ).format(bad, r.weights.size), details, stable,
                (self.tr("Naive softmax overflowed: {0} of {1} weights").format(bad, r.weights.size),
                 self.tr("Naive softmax overflowed")))


    def _uniform_text(self, result, lessons) -> str | None:
        """The measured facts of a nearly uniform head, and only actions that fit it."""
        if not lessons.nearly_uniform:
            return None
        s, u, spread = result.state, lessons.uniformity, lessons.spread
        f = format_value
        if self._masked(result) and (u.visible == 1).any():
            # a row that sees one key has entropy 0 = 0 % of log 1: not "> 99 %" (a
            # first-time user, causal mask); ``nearly_uniform`` leaves such rows out
            parts = [self.tr(
                "<b>Attention is nearly uniform</b> (n = the keys a query sees under the "
                "mask: every row that sees two or more keys has entropy > 99% of log n, "
                "every weight is within {0} of 1/n, and a query that sees one key gives "
                "it all its weight): a row's visible scaled scores differ by at most {1}, "
                "and softmax of nearly equal numbers is flat.").format(
                    f(u.deviation.max()), f(spread))]
        elif self._masked(result):
            parts = [self.tr(
                "<b>Attention is nearly uniform</b> (n = the keys a query sees under the "
                "mask: every row's entropy > 99% of log n, every weight within {0} of 1/n): "
                "a row's visible scaled scores differ by at most {1}, and softmax of nearly "
                "equal numbers is flat.").format(f(u.deviation.max()), f(spread))]
        else:
            parts = [self.tr(
                "<b>Attention is nearly uniform</b> (every row's entropy > 99% of log n, "
                "every weight within {0} of 1/n): a row's scaled scores differ by at most "
                "{1}, and softmax of nearly equal numbers is flat.").format(
                    f(u.deviation.max()), f(spread))]
        link = self._uniform_link(s)
        if link is not None and link[0] == "temperature":  # the cause the user set last
            parts.append(self.tr("The temperature T = {0} divides every score.")
                         .format(f"{s.options.temperature:g}"))
        elif link is not None:
            parts.append(self.tr("The scores are this small because the weights are "
                                 "randn × {0}.").format(f"{s.init_scale:g}"))
        if s.mode == "self":
            n = len(u.argmax)
            on_diagonal = int((u.argmax == np.arange(n)).sum())
            parts.append(self.tr("The diagonal is its row's largest weight in {0} of {1} "
                                 "rows; with weights this flat that says little.")
                         .format(on_diagonal, n))
        if "爱" in s.tokens and {"我", "智能"} <= set(s.key_tokens):
            parts.append(self._tutorial_claim(result))
        if link is not None:
            parts.append(f"<a href='{link[0]}'>{link[1]}</a>")
        text = join_sentences(parts)
        return text

    def _tutorial_claim(self, result) -> str:
        """Tutorial example 1 says 爱 attends more to 我 and 智能: the session's numbers."""
        s = result.state
        keys = list(s.key_tokens)
        r, i = result.head(self.model.current_head), list(s.tokens).index("爱")
        row, seen = r.weights[i], r.allowed[i]
        if not (seen[keys.index("我")] and seen[keys.index("智能")]):
            # a mask hides one of them from 爱 (causal: 智能 comes after it): a weight of
            # 0 there is the mask's, not a lesson about the scores
            return self.tr("Tutorial example 1's commentary says 爱 attends more to 我 and "
                           "智能: here the mask hides some of them from 爱, so the claim "
                           "cannot be read off this head.")
        low = keys[int(np.nanargmin(np.where(seen, row, np.inf)))]
        f = format_value
        return self.tr(
            "Tutorial example 1's commentary says 爱 attends more to 我 and 智能: here "
            "爱→我 = {0} and 爱→智能 = {1} (1/n = {2}); 爱's smallest weight is on {3}.").format(
            f(row[keys.index("我")]), f(row[keys.index("智能")]), f(1 / int(seen.sum())),
            html.escape(low))

    def _overflow_text(self, result, r, lessons) -> str | None:
        if result.state.options.stable:
            return None
        limit = exp_limit(r.scaled.dtype)
        (bad, rows), top = lessons.overflow, lessons.top
        over, under, summed = lessons.broken_rows or (1, 0, 0)
        stable = self._stable_link()
        # every exp(s) of a row finite, their sum ∞: each weight is exp(s)/∞ = 0
        if bad == 0 and summed:  # (no exp overflowed: ``top`` is below the limit)
            return (join_sentences([self.tr(
                "<b>Naive softmax broke: every weight of %n rows is 0</b>. In those rows "
                "every exp(s) is finite (the largest scaled score is {0}, below {1}), but "
                "their sum overflows to ∞, so every weight is exp(s) / ∞ = 0 and the row "
                "sums to 0.", "", summed).format(format_value(top), format_value(limit)),
                self.tr(
                "<b>The fix:</b> subtract each row's maximum first. Then every exponent is "
                "≤ 0 and the largest is exp(0) = 1, so the sum lies between 1 and the "
                "number of keys."), stable]))
        if bad == 0:
            return join_sentences((self.tr(
                "<b>Naive softmax is on</b> (exp without subtracting the row maximum). The "
                "largest scaled score is {0}; exp overflows above {1}, so nothing has broken "
                "yet.").format(format_value(top), format_value(limit)),
                "<a href='x100'>" + self.tr("× 100 the inputs") + "</a>"))
        summed_too = [self.tr(
            "In %n more rows every exp(s) is finite, but their sum overflows to ∞, so every "
            "weight there is exp(s) / ∞ = 0.", "", summed)] if summed else []
        if not over:  # no exp overflowed: rows underflowed
            return (join_sentences([self.tr(
                "<b>Naive softmax broke: {0} weights are NaN</b> (in {1} rows). Every exp(s) "
                "of those rows underflowed to 0, and 0/0 = NaN. Subtracting the row maximum "
                "makes the largest exponent exp(0) = 1, so the sum is never 0.")
                .format(bad, rows), *summed_too, stable]))
        also = [self.tr("In {0} more rows every exp(s) underflowed to 0 instead, and "
                        "0/0 = NaN.").format(under)] if under else []
        also += summed_too
        return (join_sentences([self.tr(
            "<b>Naive softmax overflowed: {0} of {1} weights are not finite</b> (in {2} "
            "rows). exp(s) is larger than the largest {3} once s > {4}, and the largest "
            "scaled score here is {5}: Σ exp = ∞ and ∞/∞ = NaN.").format(
                bad, r.weights.size, rows, r.scaled.dtype.name, format_value(limit),
                format_value(top)), *also, self.tr(
            "<b>The fix:</b> subtract each row's maximum first. Then every exponent is ≤ 0 "
            "and the largest is exp(0) = 1, so exp cannot overflow and the sum is never 0; "
            "the weights are the same, since "
            "e<sup>s−m</sup>/Σe<sup>s−m</sup> = e<sup>s</sup>/Σe<sup>s</sup>."), stable]))

    def _on_link(self, link: str) -> None:
        try:
            if link == "scale":
                self.model.set_init_scale(1.0)
            elif link == "temperature":
                self.model.set_options(temperature=1.0)
            elif link == "stable":
                self.model.set_options(stable=True)
            elif link == "x100":
                self.model.scale_inputs(100)
            elif link == "undo":  # back to what the panes show, not just the last edit
                self.model.undo_to_computed()
        except ValueError as exc:
            self.model.refused.emit(self.tr("Not applied: {0}").format(say(exc)))
