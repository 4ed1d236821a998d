"""The scaling lab: why attention divides the scores by √d_k, as plots the learner drives.

Three views, one per way the tutorial argues the point:

* random q, k of unit variance (``core.lessons.scaling_sweep``): without ÷√d_k the
  max weight climbs to 1, the entropy, the tutorial's mean p(1−p) (the diagonal of the
  softmax Jacobian) and the whole Jacobian's norm fall to 0 as d_k grows;
* the session's own scores (``session_sweep``), live as the user edits;
* a typed score vector, with the softmax bars of the tutorial's last table
  (no scaling, d_k = 4, d_k = 64).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.lessons import DEMO_SCORES, row_stats, scaling_sweep, session_sweep
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_value, with_minus
from qkv_desktop.presentation.texts import join_list, say
from qkv_desktop.state.parsing import ParseError, parse_number
from qkv_desktop.views.editors.spin_boxes import ClampSayingSpinBox, red_line, say_briefly
from qkv_desktop.views.layout import fit_to_screen, scrolling
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.teaching.lab_plot import LabPlot, WrappingNameAxis
from qkv_desktop.views.teaching.table_copy import CopiesTableAsText

__all__ = ["ScalingLab", "SweepPlots", "ScoreBars", "SWEEP_D_KS", "parse_scores",
           "MAX_SCORES", "MAX_SESSION_CELLS"]

SWEEP_D_KS = tuple(sorted({int(round(2 ** (k / 2))) for k in range(19)}))
"""d_k from 1 to 512, about evenly spaced on a log axis."""

DEFAULT_SIZE = (1560, 900)
"""The first size, capped by the screen: room for the four sweep plots side by side."""

MAX_SCORES = 32
"""The longest score vector the bar charts take."""

MAX_SESSION_CELLS = 200_000
"""Larger score matrices are swept on evenly spaced rows only, to stay interactive."""

SAMPLE_BUDGET = 8192
"""Random sweep: trials × keys; fewer trials for many keys keeps memory small."""

STANDARD_NORMAL = "N(0,\u00a01)"
"""The standard normal's notation, its space a no-break one: a unit no line splits."""

D_K_TICKS = [[(float(np.log10(d)), str(d)) for d in (1, 8, 64, 512)],
             [(float(np.log10(d)), str(d)) for d in (2, 4, 16, 32, 128, 256)]]
"""Plain d_k labels at their log-axis positions (pyqtgraph would write 10^k): a major
level that always fits, and the powers of two between them, which pyqtgraph labels only
where the axis has room for them (its ``textFillLimits``), so labels never run together
("64128256") on a narrow plot."""

COINCIDE = 0.005
"""Mean largest weights (between 0 and 1) closer than this at every d draw as one curve."""
PLOT_MIN_HEIGHT = 180
"""Pixels a sweep or bar plot keeps at least: its title, the tick labels and the
rotated axis name (wrapped onto two lines where the axis is shorter than it,
``WrappingNameAxis``) beside a readable curve. Below it the lab scrolls. At 240 the
sweep tabs scrolled by 84 px at 1024 × 700 and the lower plots' axis names were cut
by the fold ("g(p) − ppᵀ‖ per row"); the plots grow into any room beyond it."""

PLOT_COLUMNS = (4, 2, 1)
"""The sweep plots lie side by side where each gets the width its title needs, else
two by two, else one under the other."""

UNSCALED_PEN = pg.mkPen((214, 96, 77), width=2)
SCALED_PEN = pg.mkPen((33, 102, 172), width=2)
REFERENCE_PEN = pg.mkPen((120, 120, 120), width=1, style=Qt.PenStyle.DashLine)
BAR_BRUSHES = ((214, 96, 77), (65, 182, 196), (34, 94, 168))


def parse_scores(text: str) -> np.ndarray:
    """Comma-separated numbers → array, with ``parse_number``'s strict rules.

    ``ParseError`` names the position and text of the first bad value.
    """
    translate = QCoreApplication.translate  # lupdate reads translate("ScoreBars", "…")
    parts = text.split(",")
    if len(parts) < 2:
        raise ParseError(translate("ScoreBars", "type at least two scores separated by "
                                                "commas, e.g. 2, 1.5, 0.5"))
    if len(parts) > MAX_SCORES:
        raise ParseError(translate("ScoreBars", "at most {0} scores, got {1}")
                         .format(MAX_SCORES, len(parts)))
    values = []
    for k, part in enumerate(parts, 1):
        try:
            values.append(parse_number(part)[0])
        except ParseError as exc:
            # the reason in the window's language, as the tables say it (it came out
            # half English: "第 2 个分数：'abc' is not a number …")
            raise ParseError(translate("ScoreBars", "score {0}: {1}").format(k, say(exc))) \
                from None
    return np.array(values)


def _typed(score: float) -> str:
    """A typed score as the learner typed it (``1.5``, not ``1.5000``), with the
    typographic minus of every number in the app."""
    return with_minus(f"{score:g}")


def _uniform_reference(n: float) -> dict[str, float]:
    return {"max_weight": 1 / n, "entropy": float(np.log(n)),
            "mean_gradient": (1 / n) * (1 - 1 / n),
            "jacobian_norm": float(np.sqrt((1 / n) * (1 - 1 / n)))}


class _Page(QWidget):
    """A tab page that asks for height only while on show: ``QStackedLayout`` asks every
    page, so a hidden one (laid out for another width, its resize event pending until
    shown) would make the scrolling lab taller than the page in front.

    Every page answers a height for the width, even one without a wrapped text: without
    one (the scores page until its red line showed) ``QTabWidget`` falls back on its
    size hint, the tallest page's, shown or not, and the scores opened first were laid
    out 859 px high in a 594 px view, their bars' tops alone on screen (a first user).
    """

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        if not self.isVisible():
            return -1
        height = super().heightForWidth(width)
        return height if height >= 0 else self.sizeHint().height()


class SweepPlots(QWidget):
    """Max weight, entropy, mean p(1−p) and the softmax Jacobian's norm against d_k
    (log axis), without and with ÷√d_k."""

    STATS = ("max_weight", "entropy", "mean_gradient", "jacobian_norm")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.legend = QLabel(objectName="sweepLegend")
        self.legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.legend.setWordWrap(True)
        self.grid = QGridLayout()
        self.columns = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.legend)
        layout.addLayout(self.grid, 1)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        self.references: dict[str, pg.InfiniteLine] = {}
        self.markers: dict[str, pg.InfiniteLine] = {}
        for stat in self.STATS:
            plot = LabPlot(PLOT_MIN_HEIGHT, axisItems={"left": WrappingNameAxis("left")})
            plot.setObjectName(f"sweep_{stat}")
            item = plot.getPlotItem()
            item.setMenuEnabled(False)
            item.setMouseEnabled(x=False, y=False)
            item.hideButtons()
            item.showGrid(x=True, y=True, alpha=0.2)
            item.setLogMode(x=True, y=False)
            for axis in ("left", "bottom"):
                item.getAxis(axis).setTextPen(pg.mkPen(30, 30, 30))
                item.getAxis(axis).setPen(pg.mkPen(90, 90, 90))
                item.getAxis(axis).enableAutoSIPrefix(False)
            item.getAxis("bottom").setTicks(D_K_TICKS)
            reference = pg.InfiniteLine(angle=0, pen=REFERENCE_PEN)
            item.addItem(reference)
            self.references[stat] = reference
            marker = pg.InfiniteLine(angle=90, pen=pg.mkPen((90, 90, 90), width=1),
                                     label="", labelOpts={"position": 0.06,
                                                          "color": (60, 60, 60)})
            marker.hide()
            item.addItem(marker)
            self.markers[stat] = marker
            self.curves[(stat, "unscaled")] = item.plot(
                pen=UNSCALED_PEN, symbol="o", symbolSize=5, symbolBrush=UNSCALED_PEN.color(),
                symbolPen=None)
            self.curves[(stat, "scaled")] = item.plot(
                pen=SCALED_PEN, symbol="s", symbolSize=5, symbolBrush=SCALED_PEN.color(),
                symbolPen=None)
            self.plots[stat] = plot
        self.retranslate()

    # ------------------------------------------------------------- layout
    def plot_width(self) -> int:
        """The width the widest plot needs: its own minimum (the title's width, the axes),
        which pyqtgraph crops, title and curves alike, when the view is narrower. An axis
        name counts on one line: wrapped because two rows of plots are short, it made
        the plots too wide for four columns again (``WrappingNameAxis.extra_width``)."""
        return max(int(np.ceil(p.getPlotItem().effectiveSizeHint(Qt.SizeHint.MinimumSize)
                               .width() - p.getPlotItem().getAxis("left").extra_width))
                   for p in self.plots.values())

    def columns_for(self, width: int) -> int:
        """How many plots side by side fit ``width`` pixels (``PLOT_COLUMNS``)."""
        need = self.plot_width() + self.grid.horizontalSpacing()
        return next((c for c in PLOT_COLUMNS if c * need <= width + self.grid.horizontalSpacing()),
                    PLOT_COLUMNS[-1])

    def arrange(self, width: int | None = None) -> None:
        """Lay the plots out in as many columns as ``width`` (this widget's) allows."""
        columns = self.columns_for(self.width() if width is None else width)
        self.setMinimumWidth(self.plot_width())  # one column: narrower scrolls, never crops
        if columns == self.columns:
            return
        for k, plot in enumerate(self.plots.values()):
            self.grid.addWidget(plot, k // columns, k % columns)  # adding again moves it
        for c in range(max(PLOT_COLUMNS)):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)
        self.columns = columns

    def resizeEvent(self, event) -> None:
        self.arrange(event.size().width())
        super().resizeEvent(event)

    def retranslate(self) -> None:
        names = {"max_weight": self.tr("max weight"), "entropy": self.tr("entropy (nats)"),
                 "mean_gradient": self.tr("mean p(1−p)"),
                 "jacobian_norm": self.tr("‖diag(p) − ppᵀ‖ per row")}
        titles = {"max_weight": self.tr("Largest weight: → 1 is one-hot"),
                  "entropy": self.tr("Row entropy: → 0 is one-hot"),
                  "mean_gradient": self.tr("∂p_i/∂s_i = p_i(1−p_i): → 0 when saturated"),
                  "jacobian_norm": self.tr("Whole softmax Jacobian: → 0 when saturated")}
        tips = {"max_weight": self.tr("The largest softmax weight, averaged over rows: 1/n "
                                      "for uniform attention, 1 for one-hot."),
                "entropy": self.tr("Entropy of each row of weights in nats, averaged: "
                                   "log n for uniform, 0 for one-hot."),
                "mean_gradient": self.tr("Mean of p(1−p), the tutorial's 平均梯度. It is "
                                         "∂p_i/∂s_i, only the diagonal of the softmax "
                                         "Jacobian diag(p) − ppᵀ, whose off-diagonal terms "
                                         "are −p_i·p_j."),
                "jacobian_norm": self.tr("Frobenius norm of the whole Jacobian diag(p) − ppᵀ "
                                         "of each row, averaged: how much the weights "
                                         "respond to the scores at all. Near 0 no gradient "
                                         "reaches the scores, so W_Q and W_K get almost "
                                         "no gradient, while the path through V keeps "
                                         "its own.")}
        for stat, plot in self.plots.items():
            item = plot.getPlotItem()
            item.setTitle(titles[stat], color=(30, 30, 30), size="10pt")
            item.setLabel("left", names[stat])
            item.setLabel("bottom", self.tr("d_k (log scale)"))
            plot.setToolTip(tips[stat])
        self.columns = 0  # the titles' widths changed with the language
        self.arrange()
        self.legend.setText(
            f"<span style='color:{UNSCALED_PEN.color().name()}'>━━●━━</span> "
            + self.tr("without ÷√d_k") + " &nbsp;&nbsp;&nbsp; "
            f"<span style='color:{SCALED_PEN.color().name()}'>━━■━━</span> "
            + self.tr("with ÷√d_k") + " &nbsp;&nbsp;&nbsp; "
            f"<span style='color:{REFERENCE_PEN.color().name()}'>- - - -</span> "
            + self.tr("uniform attention (1/n, log n, (1/n)(1−1/n), √((1/n)(1−1/n)))"))
        self.legend.setToolTip(self.tr("Red: softmax of the unscaled scores. Blue: of the "
                                       "scores divided by √d_k. Dashed: the value for "
                                       "uniform weights over n keys."))

    def set_sweep(self, sweep, reference: dict[str, float], marker: tuple[int, str] | None
                  = None) -> None:
        """Plot ``sweep`` (a ``ScalingSweep``); ``marker`` = (d_k, label) draws a line."""
        x = sweep.d_k.astype(float)
        for stat in self.STATS:
            un, sc = sweep.unscaled[stat], sweep.scaled[stat]
            self.curves[(stat, "unscaled")].setData(x, un)
            self.curves[(stat, "scaled")].setData(x, sc)
            self.references[stat].setPos(reference[stat])
            values = np.concatenate([un, sc, [reference[stat]]])
            finite = values[np.isfinite(values)]
            top = float(finite.max()) if finite.size else 1.0
            item = self.plots[stat].getPlotItem()
            item.setYRange(0, (1.05 if stat == "max_weight" else top * 1.15) or 1.0,
                           padding=0)
            # room beside 1 and 512 for their labels, which pyqtgraph drops when they
            # would reach past the axis
            item.setXRange(-0.12, np.log10(x.max()) + 0.25, padding=0)
            m = self.markers[stat]
            if marker is None:
                m.hide()
            else:
                m.setPos(np.log10(marker[0]))
                m.show()
                m.label.setFormat(marker[1])


class ScoreBars(_Page):
    """A typed score vector's softmax: no scaling, ÷√d_a, ÷√d_b, as bars and a table."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.edit = QLineEdit(objectName="scoresEdit")
        self.edit.setText(", ".join(f"{v:g}" for v in DEMO_SCORES))
        # Two red lines: the scores box's refusal stays until the box is fixed, and a
        # d_k box's clamp note comes and goes on its own line (on one line, "0 became 1"
        # replaced "'abc' is not a number" while the box still held the bad text).
        self.error = red_line("scoresError")
        self.note = red_line("scoresNote", keep_room=False)  # below it only plots
        self.d_a = ClampSayingSpinBox(objectName="scoresDkA")
        self.d_b = ClampSayingSpinBox(objectName="scoresDkB")
        for spin, value in ((self.d_a, 4), (self.d_b, 64)):
            spin.setRange(1, 4096)
            spin.setValue(value)
            spin.valueChanged.connect(self._replot)
            spin.said.connect(partial(say_briefly, self.note))
        self._labels = [QLabel() for _ in range(3)]
        form = QGridLayout()
        form.addWidget(self._labels[0], 0, 0)
        form.addWidget(self.edit, 0, 1, 1, 5)
        form.addWidget(self._labels[1], 1, 0)
        form.addWidget(self.d_a, 1, 1)
        form.addWidget(self._labels[2], 1, 2)
        form.addWidget(self.d_b, 1, 3)
        form.setColumnStretch(5, 1)
        self.plots = [LabPlot(PLOT_MIN_HEIGHT) for _ in range(3)]
        plots = QHBoxLayout()
        for k, plot in enumerate(self.plots):
            plot.setObjectName(f"bars_{k}")
            item = plot.getPlotItem()
            item.setMenuEnabled(False)
            item.setMouseEnabled(x=False, y=False)
            item.hideButtons()
            item.showGrid(y=True, alpha=0.2)
            for axis in ("left", "bottom"):
                item.getAxis(axis).setTextPen(pg.mkPen(30, 30, 30))
                item.getAxis(axis).enableAutoSIPrefix(False)
            plots.addWidget(plot, 1)
        self.table = QLabel(objectName="scoresTable")
        self.table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.table)  # (copied: rows of cells, tab apart)
        self.table.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.error)
        layout.addLayout(plots, 1)
        layout.addWidget(self.table)
        self.scores = np.array(DEMO_SCORES)
        self.bars: list[np.ndarray] = []
        # The scores apply on Enter or when the box is left, as every number box does:
        # applied as typed, "1e40" on the way to "1e400" was drawn, and the refusal of
        # "1e400" then called that half-typed value "the last valid scores".
        self._entered = self.edit.text()
        self.edit.editingFinished.connect(self._on_entered)
        self.retranslate()

    def retranslate(self) -> None:
        for label, text in zip(self._labels, (self.tr("scores"), self.tr("d_k (middle)"),
                                              self.tr("d_k (right)")), strict=True):
            label.setText(text)
        self.edit.setToolTip(self.tr("Raw scores q·k of one query against its keys, "
                                     "separated by commas (e.g. 2, 1.5, 0.5, -0.5, -1). "
                                     "Enter or leaving the box plots them."))
        self.d_a.set_tip(self.tr("The middle chart divides the scores by √ of this d_k."))
        self.d_b.set_tip(self.tr("The right chart divides the scores by √ of this d_k."))
        self.d_a.subject = self.tr("The middle chart's d_k")
        self.d_b.subject = self.tr("The right chart's d_k")
        for plot in self.plots:
            plot.setToolTip(self.tr("Softmax weights of the scores: the larger the divisor, "
                                    "the flatter the distribution."))
            plot.getPlotItem().setLabel("left", self.tr("weight"))
            plot.getPlotItem().setLabel("bottom", self.tr("score"))
        # the refusal, the charts' titles and the table in the new language, the scores
        # drawn again when the box's entered text was refused (their titles and table
        # stayed English after View → Language → 中文)
        self._take(self._entered)
        self._replot()

    def variants(self) -> list[tuple[str, float]]:
        """(title, divisor) of the three charts."""
        a, b = self.d_a.value(), self.d_b.value()
        return [(self.tr("no scaling (÷ 1)"), 1.0),
                (self.tr("d_k = {0} (÷ √{0} = {1})").format(a, format_value(np.sqrt(a))),
                 np.sqrt(a)),
                (self.tr("d_k = {0} (÷ √{0} = {1})").format(b, format_value(np.sqrt(b))),
                 np.sqrt(b))]

    def _on_entered(self) -> None:
        """Enter pressed in the box, or the box left: its text is plotted or refused."""
        self._entered = self.edit.text()
        if self._take(self._entered):
            self._replot()

    def _take(self, text: str) -> bool:
        """Parse ``text`` into the scores drawn, or say why not, naming the scores the
        charts still show: whether it was taken."""
        try:
            self.scores = parse_scores(text)
        except ParseError as exc:
            self.error.setText(self.tr("Not plotted: {0}. The charts still show the scores "
                                       "{1}.").format(
                exc, join_list(_typed(v) for v in self.scores)))
            self.error.show()
            return False
        self.error.hide()
        return True

    def _replot(self, *_args) -> None:
        scores = self.scores
        n = scores.size
        variants = self.variants()
        stats = [row_stats(scores, div) for _title, div in variants]
        self.bars = [s.weights for s in stats]
        top = max(float(w.max()) for w in self.bars)
        ticks = [[(k, _typed(v)) for k, v in enumerate(scores)]]
        for k, (plot, (title, _div), w) in enumerate(zip(self.plots, variants, self.bars, strict=True)):
            item = plot.getPlotItem()
            item.clear()
            item.setTitle(title, color=(30, 30, 30), size="10pt")
            item.addItem(pg.BarGraphItem(x=np.arange(n), height=w, width=0.65,
                                         brush=pg.mkBrush(*BAR_BRUSHES[k]),
                                         pen=pg.mkPen(60, 60, 60)))
            if n <= 12:
                for x, v in enumerate(w):
                    label = pg.TextItem(format_value(v), color=(20, 20, 20), anchor=(0.5, 1.0))
                    label.setPos(x, v)
                    item.addItem(label)
            item.getAxis("bottom").setTicks(ticks)
            item.setYRange(0, top * 1.15, padding=0)
            item.setXRange(-0.6, n - 0.4, padding=0)
        self.table.setText(self._table_html(scores, variants, stats))

    def _table_html(self, scores, variants, stats) -> str:
        head = "".join(f"<th>{_typed(v)}</th>" for v in scores)
        names = (self.tr("scores"), self.tr("max"), self.tr("entropy"))
        rows = [f"<tr><th align='left'>{names[0]}</th>{head}"
                f"<th>{names[1]}</th><th>{names[2]}</th></tr>"]
        for (title, _div), s in zip(variants, stats, strict=True):
            cells = "".join(f"<td>{format_value(v)}</td>" for v in s.weights)
            rows.append(f"<tr><td align='left'>{title}</td>{cells}<td><b>"
                        f"{format_value(s.max_weight)}</b></td><td>{format_value(s.entropy)}"
                        "</td></tr>")
        return ("<table cellspacing='0' cellpadding='3' style='font-family: monospace;'>"
                + "".join(rows) + "</table>")


class ScalingLab(RefreshWhenShown, Retranslating, QWidget):
    """A window of the three scaling experiments; the session view follows the model."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.model = model
        self.setObjectName("scalingLab")
        self.resize(*fit_to_screen(DEFAULT_SIZE, self.screen()))
        self.intro = QLabel(objectName="labIntro")
        self.intro.setWordWrap(True)
        self.tabs = QTabWidget(objectName="labTabs")

        self.seed = ClampSayingSpinBox(objectName="labSeed")
        self.seed.setRange(0, 2**31 - 1)
        self.n_keys = ClampSayingSpinBox(objectName="labKeys")
        self.n_keys.setRange(2, 256)
        self.n_keys.setValue(8)
        # a typed number out of range, said in red under the two boxes: below them only
        # plots, and no room kept (at 1366 × 768 the line kept pushed the plots' axis
        # names under the fold)
        self.random_error = red_line("labRandomError", keep_room=False)
        for spin in (self.seed, self.n_keys):
            spin.said.connect(partial(say_briefly, self.random_error))
        self.trials_label = QLabel(objectName="labTrials")
        self.trials_label.setWordWrap(True)
        self.seed.valueChanged.connect(self.refresh_random)
        self.n_keys.valueChanged.connect(self.refresh_random)
        self._random_labels = [QLabel(), QLabel()]
        # Seed and keys on one row, not two: at 1366 × 768 the second row pushed the
        # lower plots' axis names under the fold of the scrolling lab.
        top = QHBoxLayout()
        for label, spin in zip(self._random_labels, (self.seed, self.n_keys), strict=True):
            label.setBuddy(spin)
            top.addWidget(label)
            top.addWidget(spin)
            top.addSpacing(8)
        top.addWidget(self.trials_label, 1)
        self.random_plots = SweepPlots()
        random_tab = _Page()
        v = QVBoxLayout(random_tab)
        v.addLayout(top)
        v.addWidget(self.random_error)
        v.addWidget(self.random_plots, 1)

        self.session_info = QLabel(objectName="labSessionInfo")
        self.session_info.setWordWrap(True)
        self.session_plots = SweepPlots()
        session_tab = _Page()
        v = QVBoxLayout(session_tab)
        v.addWidget(self.session_info)
        v.addWidget(self.session_plots, 1)

        self.score_bars = ScoreBars()
        self.tabs.addTab(random_tab, "")
        self.tabs.addTab(session_tab, "")
        self.tabs.addTab(self.score_bars, "")
        # A window of its own needs its own way out: a Close button, Esc and Ctrl+W.
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.close)
        self.close_action = QAction(self, objectName="closeLab")
        ctrl_w = QKeySequence(Qt.KeyboardModifier.ControlModifier | Qt.Key.Key_W)
        self.close_action.setShortcuts(list(dict.fromkeys(  # Ctrl+W, and Ctrl+F4 where usual
            [ctrl_w, *QKeySequence.keyBindings(QKeySequence.StandardKey.Close)])))
        self.close_action.triggered.connect(self.close)
        self.addAction(self.close_action)
        # On a low screen the text and the plots scroll together; the Close button stays.
        body = QWidget(objectName="labBody")
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.intro)
        column.addWidget(self.tabs, 1)
        self.body = scrolling(body, "labScroll")
        layout = QVBoxLayout(self)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.buttons)

        self.random_sweep = None
        self.session_sweep = None
        self.tabs.currentChanged.connect(self._size_to_current_tab)
        self._size_to_current_tab(0)
        self.tabs.currentChanged.connect(self.refresh)
        model.resultChanged.connect(self.refresh)
        model.resultCleared.connect(self._on_result_cleared)
        model.currentHeadChanged.connect(self.refresh)
        self.retranslate()
        self.refresh_random()

    def _size_to_current_tab(self, current: int) -> None:
        """The tabs take the height of the page on show, not of the tallest one (the lab
        would scroll past empty space under the score bars)."""
        for k in range(self.tabs.count()):
            policy = QSizePolicy.Policy.Preferred if k == current else QSizePolicy.Policy.Ignored
            self.tabs.widget(k).setSizePolicy(policy, policy)
            self.tabs.widget(k).updateGeometry()

    def keyPressEvent(self, event) -> None:
        """Esc closes the lab as it closes a dialog, from whichever control has focus
        (a key the focused control does not use comes here)."""
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.close()
            return
        super().keyPressEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Scaling lab — QKV Desktop"))
        self.intro.setText(self.tr(
            "<b>Why divide by √d_k?</b> Scaled dot-product attention divides QKᵀ by √d_k "
            "before the softmax. If the components of q and k are independent with "
            "mean 0 and variance 1, q·k is a sum of d_k products, so its variance is d_k. "
            "Unscaled, the scores grow with d_k and softmax turns one-hot: the largest "
            "weight → 1, the entropy → 0, and the softmax Jacobian diag(p) − ppᵀ → 0 (the "
            "tutorial's p(1−p) is its diagonal). Then almost no gradient reaches the scores, "
            "so W_Q and W_K barely learn, while the path through V keeps its gradient. "
            "Dividing by √d_k brings the variance back to 1 at every d_k: the convention "
            "that gives unit score variance at initialisation, not a proven optimum. "
            "GPT-3 175B has d_k = 12288 / 96 = 128, where unscaled scores would have "
            "variance 128 (GPT-4's configuration is unpublished)."))
        for k, text in enumerate((self.tr("Random q, k"), self.tr("This session"),
                                  self.tr("Scores"))):
            self.tabs.setTabText(k, text)
        self.tabs.setTabToolTip(0, self.tr("Seeded random unit-variance queries and keys of "
                                           "each dimension d_k."))
        self.tabs.setTabToolTip(1, self.tr("The current head's own QKᵀ divided by √d for "
                                           "each d: what would scaling do to these scores?"))
        self.tabs.setTabToolTip(2, self.tr("Type scores and compare their softmax with and "
                                           "without scaling (the tutorial's table)."))
        self._random_labels[0].setText(self.tr("seed"))
        self._random_labels[1].setText(self.tr("keys per query"))
        self.seed.set_tip(self.tr("Seed of the random queries and keys."))
        self.n_keys.set_tip(self.tr("How many keys each random query scores (n)."))
        self.seed.subject = self.tr("The seed")
        self.n_keys.subject = self.tr("The number of keys")
        self.random_plots.retranslate()
        self.session_plots.retranslate()
        self.score_bars.retranslate()
        self._show_trials()
        self.redraw_due()
        self.refresh()

    # -------------------------------------------------------------- random
    def _trials(self) -> int:
        return max(8, min(256, SAMPLE_BUDGET // self.n_keys.value()))

    def _show_trials(self) -> None:
        """How the random points are made. The notation N(0, 1) is one unit: its spaces
        do not break (``STANDARD_NORMAL``), which left "N(0," at a line's end at
        1024 × 700."""
        self.trials_label.setText(self.tr(
            "Each point averages {0} random queries, each scoring {1} random keys "
            "(components ~ {2}).").format(self._trials(), self.n_keys.value(), STANDARD_NORMAL))

    def refresh_random(self, *_args) -> None:
        n = self.n_keys.value()
        self.random_sweep = scaling_sweep(SWEEP_D_KS, n_keys=n, trials=self._trials(),
                                          seed=self.seed.value())
        self.random_plots.set_sweep(self.random_sweep, _uniform_reference(n))
        self._show_trials()

    # ------------------------------------------------------------- session
    def _on_screen(self) -> bool:
        """The session sweep is drawn while its tab is the one on show."""
        return self.isVisible() and self.tabs.currentIndex() == 1

    def refresh(self, *_args) -> None:
        """Sweep the current head's QKᵀ (sampled rows if it is very large), when shown."""
        due = self._due()
        if due is None:
            return
        result, head = due
        scores = result.head(head).scores
        n, m = scores.shape
        rows = n
        if n * m > MAX_SESSION_CELLS:
            rows = max(1, MAX_SESSION_CELLS // m)
            scores = scores[np.linspace(0, n - 1, rows).astype(int)]
        if not np.isfinite(scores).all():
            self.session_info.setText(self.tr("The scores of this session are not all finite; "
                                              "there is nothing to sweep."))
            return
        self.session_sweep = session_sweep(scores, SWEEP_D_KS)
        d_k = result.state.d_k
        self.session_plots.set_sweep(self.session_sweep, _uniform_reference(m),
                                     (d_k, self.tr("this d_k = {0}").format(d_k)))
        sampled = (self.tr(" Sampled {0} of {1} query rows.").format(rows, n)
                   if rows < n else "")
        # the scores as the scores pane names them (with RoPE, the turned ones: "QKᵀ"
        # was not what the sweep divides, a user's re-check)
        name = "RoPE(Q)·RoPE(K)ᵀ" if result.state.options.positions == "rope" else "QKᵀ"
        masked = (self.tr(" With the mask, each row here still spreads over all its keys: "
                          "at this d_k the curves need not match the weights pane.")
                  if result.state.mask_spec().restricts else "")
        # tutorial-1's scores are so close together that the red curve hid under the
        # blue one, and the caption named a curve nowhere to be seen (a user's re-check)
        sweep = self.session_sweep
        if np.max(np.abs(sweep.scaled["max_weight"] - sweep.unscaled["max_weight"])) \
                < COINCIDE:
            masked += self.tr(" Here the two curves lie on one another: these scores are so "
                              "close together that the softmax is nearly uniform with or "
                              "without the division.")
        self.session_info.setText(self.tr(
            "{3} of head {0} ({1}×{2}), before the mask and the temperature. The red curve "
            "is the softmax of these scores as they are; the blue one divides them by √d "
            "for each d on the axis. The line marks this session's d_k. The scores are "
            "this session's at every d: a head with a larger d_k would also have larger "
            "scores (their variance grows with d_k, as the Random q, k tab shows), so "
            "this shows what the division alone does to these scores.").format(
            head + 1, n, m, name) + masked + sampled)
