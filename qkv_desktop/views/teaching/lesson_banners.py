"""Banners above the panes that say when the numbers show one of the tutorial's lessons.

* Nearly uniform attention (tutorial example 1): tiny weights make every score tiny,
  so softmax is almost flat; the commentary's "the diagonal is higher" is not true.
* The naive softmax overflowing after "× 100 the inputs", and why subtracting the
  row maximum fixes it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from qkv_desktop.core.lessons import exp_limit
from qkv_desktop.model import AttentionModel

__all__ = ["LessonBanners", "Banner"]

STYLES = {  # background, border
    "info": ("#e8f1fb", "#7aa7d9"),
    "warning": ("#fdecea", "#d98080"),
}


class Banner(QFrame):
    """A coloured strip with one rich-text message whose links trigger actions."""

    def __init__(self, name: str, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        background, border = STYLES[kind]
        self.setStyleSheet(f"QFrame#{name} {{ background: {background}; "
                           f"border: 1px solid {border}; border-radius: 4px; }}")
        self.label = QLabel(objectName=f"{name}Text")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                           | Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setStyleSheet("background: transparent; border: none;")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        self.hide()

    def show_text(self, text: str | None) -> None:
        """Show ``text`` (rich text), or hide the banner for ``None``."""
        if text is None:
            self.hide()
            return
        if text != self.label.text():  # a new text re-lays out the central area
            self.label.setText(text)
        self.show()


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
        self.uniform.label.linkActivated.connect(self._on_link)
        self.overflow.label.linkActivated.connect(self._on_link)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.uniform)
        layout.addWidget(self.overflow)
        model.resultChanged.connect(self.refresh)
        model.currentHeadChanged.connect(self.refresh)
        self.refresh()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)

    def refresh(self, *_args) -> None:
        result = self.model.result
        if result is None:
            return
        head = self.model.current_head
        r, lessons = result.head(head), result.lessons(head)
        self.uniform.show_text(self._uniform_text(result, lessons))
        self.overflow.show_text(self._overflow_text(result, r, lessons))

    def _uniform_text(self, result, lessons) -> str | None:
        if not lessons.nearly_uniform:
            return None
        s, u, spread = result.state, lessons.uniformity, lessons.spread
        text = self.tr(
            "<b>Attention is nearly uniform</b> (every row's entropy > 99% of log n, every "
            "weight within {0:.4f} of 1/n). <b>Why:</b> weights of randn × {2:g} make every "
            "score tiny (a row's scaled scores differ by ≤ {1:.3g}), and softmax of nearly "
            "equal numbers is flat. Tutorial example 1's commentary says the diagonal is "
            "higher: here it is not.").format(float(u.deviation.max()), spread, s.init_scale)
        if s.init_scale < 1:
            text += " <a href='scale'>" + self.tr("Try weight scale 1") + "</a>"
        return text

    def _overflow_text(self, result, r, lessons) -> str | None:
        if result.state.options.stable:
            return None
        limit = exp_limit(r.scaled.dtype)
        (bad, rows), top = lessons.overflow, lessons.top
        if bad == 0:
            return (self.tr("<b>Naive softmax is on</b> (exp without subtracting the row "
                            "maximum). The largest scaled score is {0:.4g}; exp overflows "
                            "above {1:.2f}, so nothing has broken yet.").format(top, limit)
                    + " <a href='x100'>" + self.tr("× 100 the inputs") + "</a>")
        if top <= limit:  # no exp overflowed: whole rows underflowed to 0 instead
            return (self.tr(
                "<b>Naive softmax broke: {0} weights are NaN</b> (in {1} rows). Every exp(s) "
                "of those rows underflowed to 0, and 0/0 = NaN. Subtracting the row maximum "
                "makes the largest exponent exp(0) = 1, so the sum is never 0.")
                .format(bad, rows) + " <a href='stable'>" + self.tr("Use the stable softmax")
                + "</a>")
        return (self.tr(
            "<b>Naive softmax overflowed: {0} of {1} weights are not finite</b> (in {2} "
            "rows). exp(s) is larger than the largest {3} once s > {4:.2f}, and the largest "
            "scaled score here is {5:.4g}: Σ exp = ∞ and ∞/∞ = NaN. <b>The fix:</b> "
            "subtract each row's maximum first. Then every exponent is ≤ 0, exp ≤ 1 cannot "
            "overflow, and the weights are the same, since "
            "e<sup>s−m</sup>/Σe<sup>s−m</sup> = e<sup>s</sup>/Σe<sup>s</sup>.")
            .format(bad, r.weights.size, rows, r.scaled.dtype.name, limit, top)
            + " <a href='stable'>" + self.tr("Use the stable softmax") + "</a>")

    def _on_link(self, link: str) -> None:
        try:
            if link == "scale":
                self.model.set_init_scale(1.0)
            elif link == "stable":
                self.model.set_options(stable=True)
            elif link == "x100":
                self.model.scale_inputs(100)
        except ValueError as exc:
            self.model.message.emit(self.tr("Not applied: {0}").format(exc))
