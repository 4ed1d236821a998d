"""The gradient lab: watch W_Q, W_K and W_V learn a pattern by gradient descent.

Pick a target (attend to the previous token, to the first, to oneself, a pattern painted
on the grid, or a target output) and train. The loss and its gradients are computed
analytically (``core.gradients``) on a thread of its own; every pane of the main window
follows the weights live (``AttentionModel.preview``), the loss curve and the
gradient norms per matrix are plotted as they come, and the result is one undoable
step ("Train 200 steps"). The loss and norms said at step k are those of the weights
after it, which the panes show (``core.training_run``); a learning rate, number of
steps or speed changed during a run applies from its next step.

The second tab trains fresh heads with d_k = 4, 64 and 256, with and without ÷√d_k, and
plots the true gradient norm reaching W_Q and W_K, which is what the tutorial's mean
p(1−p) (only the diagonal of the softmax Jacobian) stands in for. A bar shows how far it
is; Stop (or space) ends it, and only the runs that finished are shown, with a line
saying so.
"""

from __future__ import annotations

import html
import math
import threading
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import (
    QCoreApplication,
    QDeadlineTimer,
    QEvent,
    QEventLoop,
    QSignalBlocker,
    Qt,
    QTextBoundaryFinder,
    QTimer,
)
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.attention import ScoreOverflowError
from qkv_desktop.core.training import (
    DEFAULT_LEARNING_RATE,
    MIN_LEARNING_RATE,
    SoftmaxSaturated,
    WeightsOverflowed,
    default_learning_rate,
    layer_norm,
    learning_rate_for,
    normalise_pattern,
    scaling_comparison,
    target_pattern,
    training_run,
)
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_nonzero
from qkv_desktop.presentation.texts import WORD_JOINER, join_list, join_sentences
from qkv_desktop.state.lab_inputs import head_inputs
from qkv_desktop.state.texts import Text
from qkv_desktop.views.editors.spin_boxes import ClampSayingDoubleSpinBox, ClampSayingSpinBox
from qkv_desktop.views.editors.wheel_focus import FocusComboBox
from qkv_desktop.views.layout import fit_to_screen, scrolling
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.teaching.lab_plot import LabPlot
from qkv_desktop.views.teaching.lab_window import LabWindow, lab_button
from qkv_desktop.views.teaching.lab_worker import LabWorker
from qkv_desktop.views.teaching.log_axis import DecadeLogAxis, StepAxis
from qkv_desktop.views.teaching.matrix_grid import MatrixGrid
from qkv_desktop.views.teaching.table_copy import CopiesTableAsText

__all__ = ["GradientLab", "TARGETS", "COMPARE_D_KS"]

TARGETS = ("previous", "first", "diagonal", "painted", "output")
COMPARE_D_KS = (4, 64, 256)
COMPARE_REPORTS = 50
"""Progress reports a comparison's run sends at most: enough to move the bar smoothly,
never one GUI update a step (2000 steps a run)."""
PAUSE_SLICE_S = 0.02
"""A training run's pause between steps looks at Stop and at the steps box this often."""
COMPARE_LR = 0.1
"""The comparison's learning rate on short rows (the tutorial's d_model = 8: 1 ÷ 8 rounds
down to 0.1); rows of a model's width take a smaller rate (``_compare_rate``)."""
COMPARE_LOSSES = ("output", "pattern")
"""The comparison's losses, the default first: the output's error reaches the scores
through the softmax's Jacobian as in a Transformer (what ÷√d_k protects); the weights'
cross-entropy does not (its gradient on the scores is p − pattern)."""
NORM_PENS = {"W_Q": pg.mkPen((214, 96, 77), width=2), "W_K": pg.mkPen((33, 102, 172), width=2),
             "W_V": pg.mkPen((77, 175, 74), width=2)}
LOSS_PEN = pg.mkPen((40, 40, 40), width=2)
LOSS_LOG_SPAN = 100.0
"""A loss curve whose largest value is more than this many times its smallest is drawn
on a log axis: on a linear one a run climbing through 1e168 to 1e305 lay flat on 0 until
its last steps. A curve that touches 0 (a squared error reaching its target) stays
linear, where 0 has a place."""
UNSCALED, SCALED = (214, 96, 77), (33, 102, 172)
FORMULA_NO_BREAK = "W\u00a0~\u00a0N(0,\u00a01/d_model)"
"""The comparison's initialisation, with no-break spaces: a word-wrapped label broke it
after "N(0," (a review), and read as two formulas."""
COMPARE_PLOT_HEIGHT = 200
"""The comparison's plots are never lower (its tab scrolls instead): at 1024 × 700 the
explanation and the table squeezed them to 40 px, without a y axis (a first user)."""


def _plot(name: str, min_height: int | None = None) -> pg.PlotWidget:
    axes = {"left": DecadeLogAxis("left"), "bottom": StepAxis("bottom")}
    plot = (pg.PlotWidget(background="w", axisItems=axes) if min_height is None
            else LabPlot(min_height, axisItems=axes))
    plot.setObjectName(name)
    item = plot.getPlotItem()
    item.setMenuEnabled(False)
    item.hideButtons()
    # read, not zoomed: without the menu and the "A" button a wheel's zoom had no way
    # back, and in the comparison's scrolling tab the wheel stopped scrolling the tab
    # over a plot (a plot the mouse cannot move passes the wheel on)
    item.setMouseEnabled(x=False, y=False)
    item.showGrid(x=True, y=True, alpha=0.2)
    for axis in ("left", "bottom"):
        item.getAxis(axis).setTextPen(pg.mkPen(30, 30, 30))
        item.getAxis(axis).setPen(pg.mkPen(90, 90, 90))
        item.getAxis(axis).enableAutoSIPrefix(False)
    return plot


def _on_the_tab(area: QScrollArea) -> QScrollArea:
    """``area`` paints no background of its own: the window's grey stood out on the
    tab page's lighter one."""
    area.viewport().setAutoFillBackground(False)
    area.widget().setAutoFillBackground(False)
    return area


def _positive(values) -> np.ndarray:
    """Values for a log axis: 0 (W_V under a pattern loss: exactly no gradient) → gap."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(v > 0, v, np.nan)


def _unbroken(word: str) -> str:
    """``word`` with a word joiner at each place a line could break inside it."""
    finder = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Line, word)
    cuts = []
    while (at := finder.toNextBoundary()) not in (-1, len(word)):
        cuts.append(at)
    return WORD_JOINER.join(word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)],
                                                      strict=True))


def _breaking_at_spaces(text: str) -> str:
    """``text`` for a table header that wraps only at its spaces: a formula is one
    unit. A word-wrapped label breaks after "/" too, and the comparison's header read
    "‖∂L/" over "∂W_Q‖₀" (a first user). Words of letters alone keep their breaks (a
    Chinese header wraps between its characters, as Chinese does)."""
    return html.escape(" ".join(word if word.isalpha() else _unbroken(word)
                                for word in text.split(" ")))


def _even_rows(font: QFont, cells: list[str]) -> str:
    """A style giving every table cell a line as high as the tallest of ``cells`` in
    ``font``: a line is as high as the font its glyphs take, and in Chinese the rows
    of "无" (none, from a Chinese font) stood 4 px higher than those of "÷√d_k" (a
    re-checking user). Each cell's line is at least that high, any of them."""
    tallest = QTextDocument()
    tallest.setDocumentMargin(0)
    tallest.setDefaultFont(font)
    tallest.setHtml("<p style='white-space: pre'>" + " ".join(cells) + "</p>")
    return ("<style>td { -qt-line-height-type: minimum; line-height: "
            f"{math.ceil(tallest.size().height())}px }}</style>")


class GradientLab(RefreshWhenShown, LabWindow):
    """Lab → Gradient lab.

    Its target and weights follow each edit only while it is open
    (``RefreshWhenShown``); a closed lab catches up when shown again.
    """

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.setObjectName("gradientLab")
        self.resize(*fit_to_screen((1250, 860), self.screen()))  # never past the screen
        self.worker = LabWorker(self)
        self.worker.progress.connect(self._on_progress)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.compare_worker = LabWorker(self)
        self.compare_worker.progress.connect(self._on_compare_progress)
        self.compare_worker.finished.connect(self._on_compared)
        self.compare_worker.failed.connect(self._on_compare_failed)
        model.preview.ended.connect(self._on_preview_ended)
        model.changed.connect(self._on_state_changed)
        self._run_state = None
        """The state a finished run left, while the session still is that state: the
        status line and the curves describe it."""
        self._failure: tuple | None = None
        """Why the last run failed (``_failure_text`` says it), while _run_state holds."""
        self._failure_said = ""  # the red line that said it, in the language of then
        self._loss_log = False  # the loss plot's y axis is logarithmic
        self.losses: list[float] = []
        self.norms: dict[str, list[float]] = {k: [] for k in NORM_PENS}
        self.painted: np.ndarray | None = None
        self.output_target: np.ndarray | None = None
        self.runs = []
        self._comparing = False  # from start_comparison to its runs (or failure) arriving
        self._compare_at = None  # (run, d_k, scaled, step) last reported while comparing
        self._compare_steps = 0
        self._compared = False  # the runs shown came from a comparison that ended
        self._compare_session = None  # what of the session the comparison trained on
        self._compare_stale = False  # the session has changed since: the runs are its
        self.train_threads: set[int] = set()
        self._committing_text = ""
        self._latest = None  # the newest step reported and not yet shown
        self._show_timer = QTimer(self, singleShot=True, interval=0,
                                  timeout=self._show_progress)

        self.intro = QLabel(objectName="labIntro")
        self.intro.setWordWrap(True)
        self.tabs = QTabWidget(objectName="gradientTabs")
        self.tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tabs.addTab(self._build_train(), "")
        self.tabs.addTab(self._build_compare(), "")
        self._refusal: tuple[str, Callable[[], bool]] | None = None
        """The refusal on the red line and whether its cause still holds (``_refuse``)."""
        self.tabs.currentChanged.connect(self._drop_refusal)
        top = QHBoxLayout()
        top.addStretch(1)
        top.addWidget(self.export_view_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addWidget(self.tabs, 1)
        self.export_steps_button.hide()  # training is not a step sequence
        model.resultChanged.connect(self.refresh)
        model.resultCleared.connect(self._on_result_cleared)
        model.currentHeadChanged.connect(self.refresh)
        model.replaced.connect(self._on_new_session)
        self.retranslate()

    # ------------------------------------------------------------------ building
    def _build_train(self) -> QWidget:
        self.target = FocusComboBox(objectName="gradTarget")
        self.target.currentIndexChanged.connect(self._on_target)
        self.lr = ClampSayingDoubleSpinBox(objectName="gradLearningRate")
        self.lr.setRange(MIN_LEARNING_RATE, 100.0)
        self.lr.setValue(DEFAULT_LEARNING_RATE)
        # The session's rate (``default_learning_rate``) until the learner sets one, and
        # again in a new session: 0.5 diverged on all-MiniLM-L6-v2's long vectors.
        self._lr_set = False
        self._lr_shown = False  # the learner has seen the box's rate (a change is then said)
        self.lr.valueChanged.connect(self._on_lr_set)
        self.steps = ClampSayingSpinBox(objectName="gradSteps")
        self.steps.setRange(1, 100_000)
        self.steps.setValue(200)
        self.steps.valueChanged.connect(lambda v: self.train_button.setText(
            self.tr("Train %n steps", "", v)))
        self.rate = ClampSayingSpinBox(objectName="gradRate")
        self.rate.setRange(1, 1000)
        self.rate.setValue(50)
        self._run_settings = {"lr": self.lr.value(), "steps": self.steps.value(),
                              "rate": self.rate.value()}
        """The boxes' values as a run reads them at each step (``start_training``)."""
        for key, box in (("lr", self.lr), ("steps", self.steps), ("rate", self.rate)):
            box.said.connect(self.show_note)
            box.valueChanged.connect(partial(self._run_settings.__setitem__, key))
        self.train_button = lab_button("gradTrain")
        self.stop_button = lab_button("gradStop")
        self.train_button.clicked.connect(self.start_training)
        self.stop_button.clicked.connect(self.stop_training)
        self.stop_button.setEnabled(False)
        self._train_labels = [QLabel() for _ in range(4)]
        form = QGridLayout()
        for k, (label, w) in enumerate(zip(self._train_labels, (self.target, self.lr, self.steps,
                                                                self.rate), strict=True)):
            form.addWidget(label, 0, 2 * k)
            form.addWidget(w, 0, 2 * k + 1)
        form.addWidget(self.train_button, 0, 8)
        form.addWidget(self.stop_button, 0, 9)
        form.setColumnStretch(10, 1)
        self.status = QLabel(objectName="gradStatus")
        self.status.setWordWrap(True)
        self.target_grid = MatrixGrid(probabilities=True, cell=30)
        self.target_grid.cellClicked.connect(self._paint)
        self.weights_grid = MatrixGrid(probabilities=True, cell=30)
        self.loss_plot = _plot("gradLoss")
        self.loss_curve = self.loss_plot.getPlotItem().plot(pen=LOSS_PEN)
        self.norm_plot = _plot("gradNorms")
        self.norm_plot.getPlotItem().setLogMode(x=False, y=True)
        self.norm_curves = {k: self.norm_plot.getPlotItem().plot(pen=pen)
                            for k, pen in NORM_PENS.items()}
        # The curves' names in a row of their own under the plot: a legend in the plot's
        # corner covered the curves, which cross the whole plot (1024 × 700, a first user)
        self.norm_legend = QLabel(objectName="gradNormLegend")
        self.norm_legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.norm_legend.setWordWrap(True)
        # the grids scroll up and down: two of 12 tokens made the lab 889 px high, past
        # a 1024 × 700 screen
        column = QWidget(objectName="gradGrids")
        grids = QVBoxLayout(column)
        grids.setContentsMargins(0, 0, 0, 0)
        grids.addWidget(self.target_grid)
        grids.addWidget(self.weights_grid)
        grids.addStretch(1)
        plots = QVBoxLayout()
        plots.addWidget(self.loss_plot, 1)
        plots.addWidget(self.norm_plot, 1)
        plots.addWidget(self.norm_legend)
        body = QHBoxLayout()
        self.grids_scroll = _on_the_tab(scrolling(column, "gradGridsScroll", horizontal=False))
        body.addWidget(self.grids_scroll)
        body.addLayout(plots, 1)
        tab = QWidget()
        v = QVBoxLayout(tab)
        v.addLayout(form)
        v.addWidget(self.status)
        v.addLayout(body, 1)
        return tab

    def _build_compare(self) -> QWidget:
        self.compare_steps = ClampSayingSpinBox(objectName="compareSteps")
        self.compare_steps.setRange(1, 2000)
        self.compare_steps.setValue(100)
        self.compare_lr = ClampSayingDoubleSpinBox(objectName="compareLearningRate")
        self.compare_lr.setRange(MIN_LEARNING_RATE, 100.0)
        self.compare_lr.setValue(COMPARE_LR)
        # the rate for the session's rows (``_compare_rate``) until the learner sets one
        self._compare_lr_set = False
        self.compare_lr.valueChanged.connect(self._on_compare_lr_set)
        for box in (self.compare_steps, self.compare_lr):
            box.said.connect(self.show_note)
        self.compare_loss = FocusComboBox(objectName="compareLoss")
        self.compare_loss.currentIndexChanged.connect(self._on_compare_loss)
        self.compare_button = lab_button("compareRun")
        self.compare_button.clicked.connect(self.start_comparison)
        self.compare_stop = lab_button("compareStop")
        self.compare_stop.clicked.connect(self.stop_comparison)
        self.compare_stop.setEnabled(False)
        self.compare_progress = QProgressBar(objectName="compareProgress")
        self.compare_progress.setMaximumWidth(160)
        self.compare_progress.hide()
        # what the run is doing, how a stop ended it; wrapped, so it never widens the lab
        self.compare_status = QLabel(objectName="compareStatus")
        self.compare_status.setWordWrap(True)
        self._compare_labels = [QLabel(), QLabel(), QLabel()]
        form = QHBoxLayout()
        for label, w in zip(self._compare_labels,
                            (self.compare_loss, self.compare_steps, self.compare_lr),
                            strict=True):
            form.addWidget(label)
            form.addWidget(w)
        form.addStretch(1)
        # a row of its own: beside the form they made the lab wider than a 1024 px screen
        run = QHBoxLayout()
        for w in (self.compare_button, self.compare_stop, self.compare_progress):
            run.addWidget(w)
        run.addWidget(self.compare_status, 1)
        self.compare_info = QLabel(objectName="compareInfo")
        self.compare_info.setWordWrap(True)
        self.compare_info.setTextFormat(Qt.TextFormat.RichText)
        # what the curves are, above them: the explanation said it in a paragraph, and
        # the plots themselves had no legend (a first user)
        self.compare_key = QLabel(objectName="compareKey")
        self.compare_key.setWordWrap(True)
        self.compare_key.setTextFormat(Qt.TextFormat.RichText)
        self.compare_plots = {d: _plot(f"compare_{d}", COMPARE_PLOT_HEIGHT)
                              for d in COMPARE_D_KS}
        for plot in self.compare_plots.values():
            plot.getPlotItem().setLogMode(x=False, y=True)
        row = QHBoxLayout()
        for plot in self.compare_plots.values():
            row.addWidget(plot, 1)
        self.compare_table = QLabel(objectName="compareTable")
        self.compare_table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        CopiesTableAsText(self.compare_table)  # (its headers' joiners stay on screen)
        # its headers wrap: in one line each, the table made the lab wider after a run
        self.compare_table.setWordWrap(True)
        # the controls stay; the explanation, the plots and the table scroll under them
        body = QWidget(objectName="compareBody")
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.compare_info)
        column.addWidget(self.compare_key)
        column.addLayout(row, 1)
        column.addWidget(self.compare_table)
        self.compare_scroll = _on_the_tab(scrolling(body, "compareScroll", horizontal=False))
        tab = QWidget()
        v = QVBoxLayout(tab)
        v.addLayout(form)
        v.addLayout(run)
        v.addWidget(self.compare_scroll, 1)
        return tab

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Gradient lab — QKV Desktop"))
        self._say_status()
        self._title_grids()
        self.intro.setText(self.tr(
            "<b>Watch attention learn.</b> Choose what the weights should look like and "
            "train: gradient descent on W_Q, W_K and W_V with the exact gradients of the "
            "loss (cross-entropy to a target pattern, or squared error to a target output). "
            "The main window's panes follow live; the result is one undoable step. Space "
            "starts and stops."))
        self.tabs.setTabText(0, self.tr("Train"))
        self.tabs.setTabText(1, self.tr("Scaling and the gradient"))
        names = {"previous": self.tr("previous token"), "first": self.tr("first token"),
                 "diagonal": self.tr("the diagonal (itself)"),
                 "painted": self.tr("painted pattern (click the grid)"),
                 "output": self.tr("target output (previous-token pattern × V)")}
        index = max(0, self.target.currentIndex())
        self.target.blockSignals(True)
        self.target.clear()
        # what each target asks of the rows where that is less than obvious (row 0 of the
        # previous-token target read as a mistake: a first-time user)
        tips = {"previous": self.tr("Query i attends to key i − 1 (the last key where there "
                                    "are fewer keys). The first query has no key before "
                                    "it: its target is key 0."),
                "first": self.tr("Every query attends to key 0."),
                "painted": self.tr("Click cells of the grid to paint the target; it starts "
                                   "as the previous-token pattern."),
                "diagonal": self.tr("Query i attends to key i (the last key where there are "
                                    "fewer keys): in self-attention, itself."),
                "output": self.tr("Squared error between the output and the output that "
                                  "the previous-token pattern gives with V as it was when "
                                  "you chose this target.")}
        for key in TARGETS:
            self.target.addItem(names[key], key)
            if key in tips:
                self.target.setItemData(self.target.count() - 1, tips[key],
                                        Qt.ItemDataRole.ToolTipRole)
        self.target.setCurrentIndex(index)
        self.target.blockSignals(False)
        for label, text in zip(self._train_labels, (self.tr("target"), self.tr("learning rate"),
                                                    self.tr("steps"), self.tr("steps/s")),
                               strict=True):
            label.setText(text)
        self.stop_button.setText(self.tr("Stop"))
        step = self.tr("How far each step moves the weights: W ← W − rate · ∂L/∂W")
        for box in (self.lr, self.compare_lr):
            box.subject = self.tr("The learning rate")
        self.compare_lr.set_tip(step + "\n" + self.tr(
            "Until you set one, 0.1, or 1 ÷ d_model rounded down to one digit where that "
            "is smaller: the comparison normalises each row of X, so every ‖x‖² is "
            "d_model (at 0.1 a model's 384 dimensions diverged at d_k = 4)."))
        self.lr.set_tip(step + "\n" + self.tr(
            "Until you set one, the session's: 0.5, or 1 ÷ the largest ‖x‖² of its token "
            "vectors where that is smaller (a model's long vectors diverged at 0.5).")
            + "\n" + self.tr("Changed during a run, it applies from the next step on."))
        # the red line above the tabs is shared, so each steps box's note names its
        # box: on the other tab "The number of steps …" read as that tab's box
        self.steps.subject = self.tr("The number of steps to train")
        self.steps.set_tip(self.tr("Steps of gradient descent that Train runs. Changed "
                                   "during a run, the run ends there."))
        self.compare_steps.subject = self.tr("The number of steps for each d_k")
        self.compare_steps.set_tip(self.tr("Steps of gradient descent for each d_k"))
        self.rate.subject = self.tr("The steps per second")
        self.rate.set_tip(self.tr("Steps trained per second while the panes follow"))
        self.train_button.setText(self.tr("Train %n steps", "", self.steps.value()))
        self._title_loss_plot()
        self.loss_plot.getPlotItem().setLabel("bottom", self.tr("step"))
        if self._failure is not None and self.error.text() == self._failure_said:
            self._say_failure()
        item = self.norm_plot.getPlotItem()
        item.setTitle(self.tr("gradient norm per matrix (log scale)"), color=(30, 30, 30),
                      size="10pt")
        self._name_norm_curves()
        item.setLabel("bottom", self.tr("step"))
        self._compare_labels[0].setText(self.tr("loss on"))
        self._compare_labels[1].setText(self.tr("steps"))
        self._compare_labels[2].setText(self.tr("learning rate"))
        losses = {"output": self.tr("the output (through weights · V, as in a Transformer)"),
                  "pattern": self.tr("the weights (cross-entropy to the pattern)")}
        index = max(0, self.compare_loss.currentIndex())
        with QSignalBlocker(self.compare_loss):
            self.compare_loss.clear()
            for key in COMPARE_LOSSES:
                self.compare_loss.addItem(losses[key], key)
            self.compare_loss.setCurrentIndex(index)
        self.compare_button.setText(self.tr("Train d_k = 4, 64, 256 with and without ÷√d_k"))
        # room around its long label: at the style's own margin it nearly ran into the
        # button's edge (a first user)
        metrics = self.compare_button.fontMetrics()
        self.compare_button.setMinimumWidth(self.compare_button.sizeHint().width()
                                            + round(1.5 * metrics.horizontalAdvance("M")))
        self.compare_stop.setText(self.tr("Stop"))
        self.compare_stop.setToolTip(self.tr("Stop the comparison (space); the runs that "
                                             "finished are shown"))
        self._show_compare_status()
        self._show_compare_info()
        self._show_compare_key()
        for d, plot in self.compare_plots.items():
            plot.getPlotItem().setTitle(f"d_k = {d}", color=(30, 30, 30), size="10pt")
            plot.getPlotItem().setLabel("bottom", self.tr("step"))
            plot.getPlotItem().setLabel("left", self.tr("gradient norm"))
        self.retranslate_export()
        self._show_runs()
        self.redraw_due()
        self.refresh()

    # ------------------------------------------------------------------- targets
    def refresh(self, *_args) -> None:
        """Show the session's target and weights, when the lab is open."""
        if self._due() is not None:
            self._on_result()

    def _on_result(self, *_args) -> None:
        if self.worker.running:  # the target stays; "now" follows every step shown
            result = self.model.result
            if result is not None and self.head_index < len(result.heads):
                kind = "output" if self.target_key() == "output" else "pattern"
                self._show_now(result.head(self.head_index), kind)
            return
        self._show_target_and_weights()

    def _on_target(self, *_args) -> None:
        self.output_target = None
        self._show_target_and_weights()

    def target_key(self) -> str:
        return self.target.currentData() or "previous"

    def _inputs(self):
        return head_inputs(self.model.state, self.model.current_head)

    def target_matrix(self, inputs=None) -> tuple[str, np.ndarray]:
        """(loss kind, target) for the chosen target on the session's shape."""
        inputs = inputs or self._inputs()
        n = inputs.X.shape[0]
        m = n if inputs.options["X_kv"] is None else inputs.options["X_kv"].shape[0]
        key = self.target_key()
        if key == "painted":
            if self.painted is None or self.painted.shape != (n, m):
                self.painted = target_pattern("previous", n, m)
            return "pattern", normalise_pattern(self.painted, inputs.causal)
        if key == "output":
            if self.output_target is None or self.output_target.shape[0] != n:
                if self.model.result is None or self.model.result.state is not self.model.state:
                    self.model.wait_until_idle()  # V of this session, not of the one before
                result = self.model.result.head(self.model.current_head)
                self.output_target = normalise_pattern(target_pattern("previous", n, m),
                                                       inputs.causal) @ result.V
            return "output", self.output_target
        return "pattern", normalise_pattern(target_pattern(key, n, m), inputs.causal)

    def _paint(self, r: int, c: int) -> None:
        if self.target_key() != "painted" or self.worker.running:
            return
        self.painted = self.painted.copy()
        self.painted[r, c] = 0.0 if self.painted[r, c] > 0 else 1.0
        self._show_target_and_weights()

    def _title_grids(self) -> None:
        """The two grids' titles, in the window's language, whatever the grids hold (a
        session that does not compute keeps the last result's numbers, and the titles
        stayed English after a language change; a review)."""
        key = self.target_key()
        self.target_grid.title = (self.tr("target weights (click to paint)")
                                  if key == "painted" else
                                  self.tr("target output") if key == "output"
                                  else self.tr("target weights"))
        self.weights_grid.title = (self.tr("output now") if key == "output"
                                   else self.tr("attention weights now"))
        for grid in (self.target_grid, self.weights_grid):
            grid.updateGeometry()  # (its width may follow its title's)
            grid.update()
        self.grids_scroll.updateGeometry()

    def _on_lr_set(self, _value: float) -> None:
        self._lr_set = True  # the learner's rate: kept until a new session

    def _on_compare_lr_set(self, _value: float) -> None:
        self._compare_lr_set = True  # the learner's rate: kept until a new session

    def _on_new_session(self) -> None:
        self._lr_set = self._compare_lr_set = False
        self.redraw_due()
        self.refresh()

    @staticmethod
    def _compare_rate(X) -> float:
        """The comparison's rate for rows X: ``COMPARE_LR``, or the smaller rate the
        layer-normed rows it trains on learn with (``default_learning_rate``). Their
        ‖x‖² is at most d_model, so the width decides (no pass over X at each edit): at
        0.1, on all-MiniLM-L6-v2's 384 dimensions, both d_k = 4 runs rose from 1.4 to
        1e91 in 40 steps, and the table compared two overflows."""
        if X.shape[1] < 2:  # (the comparison refuses such rows with its own message)
            return COMPARE_LR
        return min(COMPARE_LR, learning_rate_for(float(X.shape[1])))

    def _follow_lr(self) -> None:
        """The learning rate boxes show the session's rates (``default_learning_rate``,
        ``_compare_rate``) unless the learner set one, its run is on or a number is
        being typed there."""
        inputs = self._inputs()
        followed = self.lr.value()
        for box, chosen, running, rate in (
                (self.lr, self._lr_set, self.worker.running,
                 lambda: default_learning_rate(inputs.X, inputs.options["X_kv"])),
                (self.compare_lr, self._compare_lr_set,
                 self._comparing or self.compare_worker.running,
                 lambda: self._compare_rate(inputs.X))):
            if chosen or running or box.lineEdit().text() != box.textFromValue(box.value()):
                continue
            with QSignalBlocker(box):  # (not the learner's: ``_on_*_set`` must not hear it)
                box.setValue(rate())
        self._run_settings["lr"] = self.lr.value()  # what the next run reads at each step
        if self._lr_shown and self.lr.value() != followed and self.isVisible():
            # said: after "× 100 the inputs" the rate fell to 0.00006 with no word why
            self.show_note(self.tr(
                "The learning rate follows this session's token vectors: {0} (0.5, or "
                "1 ÷ their largest ‖x‖² where that is smaller).").format(
                self.lr.textFromValue(self.lr.value())))
        self._lr_shown = self._lr_shown or self.isVisible()

    def _show_target_and_weights(self) -> None:
        self._title_grids()
        self._follow_lr()
        result = self.model.result
        if result is None or result.state is not self.model.state:
            # a result of the session before (the head on show was reset by a load,
            # ahead of the new forward): the new result shows it. The target output is
            # the pattern × this result's V, which had another session's rows.
            return
        head = result.head(self.model.current_head)
        kind, target = self.target_matrix()
        cell = max(12, min(30, 330 // max(target.shape)))
        self.target_grid.cell = self.weights_grid.cell = cell
        self.target_grid.paintable = self.target_key() == "painted"
        self.target_grid.probabilities = kind == "pattern"
        # a target weight of 0 on a key the mask hides reads masked, as in the weights
        # (the same (i, j) cell); one it asks of a hidden key keeps its number
        hidden = (~head.allowed & (target == 0)
                  if kind == "pattern" and head.allowed.shape == target.shape else None)
        self.target_grid.set_data(target[:, :16],
                                  masked=None if hidden is None else hidden[:, :16])
        self._show_now(head, kind)
        self.grids_scroll.updateGeometry()  # (a scroll area does not pass its content's on)

    def _show_now(self, head, kind: str) -> None:
        """The head's weights (or output) as they are now: during a training run, at
        the step the panes show (it stayed at the run's start until the last step)."""
        if kind == "pattern":
            self.weights_grid.probabilities = True
            self.weights_grid.set_data(head.weights, masked=~head.allowed)  # 0, masked
        else:
            self.weights_grid.probabilities = False
            self.weights_grid.set_data(head.output[:, :16])

    # ------------------------------------------------------------------ training
    def space_pressed(self) -> None:
        if self.worker.running:
            self.stop_training()
        elif self._comparing:
            self.stop_comparison()
        elif self.tabs.currentIndex() == 0:
            self.start_training()
        else:
            self.start_comparison()

    def step_count(self) -> int:
        return 0

    def show_step(self) -> None:
        pass

    def start_training(self) -> None:
        """Train ``steps`` steps on a worker thread; the panes follow; Stop ends it."""
        if self.worker.running:
            return
        state = self.model.state
        if state.options.share_qk:
            self._refuse(self.tr("Training needs W_Q and W_K of their own: turn off "
                                 "“share W_Q = W_K” first."),
                         lambda: self.model.state.options.share_qk)
            return
        inputs = self._inputs()
        try:
            kind, target = self.target_matrix(inputs)
        except ValueError as exc:
            self.show_error(self.tr("Cannot train: {0}").format(exc))
            return
        self.show_error("")
        self._run_state, self._failure = None, None  # a new run: its own steps say how it goes
        self.losses.clear()
        for v in self.norms.values():
            v.clear()
        self._name_norm_curves()
        self.train_threads.clear()
        self.head_index = self.model.current_head
        X, weights, options = inputs.X, inputs.weights, dict(inputs.options)
        settings = self._run_settings  # the boxes' values, read by the run at each step

        def job(report, stop):
            """None when the run ends as asked or stopped; else why it failed, as
            ``_failure_text`` reads it (the numbers, said in the language of the time).
            The learning rate, the steps and the steps per second are the boxes' at each
            step: one changed during the run applies from the next step on (the box
            said 100 while the run went on at 0.5, a first user)."""
            done = 0

            def paused() -> bool:
                """The pause before the next step; True when the run is to end: Stop,
                or the steps lowered to those done meanwhile (the run went on one step
                past what the box said, after the rest of the pause)."""
                end = time.monotonic() + 1.0 / settings["rate"]
                while (left := end - time.monotonic()) > 0:
                    if stop.wait(min(left, PAUSE_SLICE_S)) or done >= settings["steps"]:
                        return True
                return False

            try:
                for point in training_run(X, weights, target, kind, lambda: settings["lr"],
                                          **options):
                    done = point.step
                    report((done, point.loss, point.grad_norms(), point.weights,
                            threading.get_ident()))
                    if done >= settings["steps"] or paused():
                        break
            except SoftmaxSaturated as exc:  # diverged with finite weights
                # the step whose weights saturated is the one the run stops at: the
                # curves and the status line show it, with its zero gradients
                stuck = exc.step
                report((stuck.step, stuck.loss, stuck.grad_norms(), stuck.weights,
                        threading.get_ident()))
                return ("saturated", stuck.step, stuck.loss, exc.start_loss)
            except WeightsOverflowed as exc:  # a weight overflowed: the steps diverged
                return ("weights", done + 1, exc.name, exc.index, exc.value)
            except ScoreOverflowError as exc:  # finite weights, overflowing products
                return ("scores", done + 1, exc.what, exc.dtype, exc.largest)
            return None

        self.train_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.worker.start(job)

    def stop_training(self) -> None:
        self.worker.stop()

    def _name_norm_curves(self) -> None:
        """The legend row: each curve's colour and name; a matrix whose gradient is
        exactly 0 has no point on a log axis, so its entry says so instead of leaving an
        unexplained empty line (or, at the last step only, a curve ending a step short
        of the others: a saturated run's)."""
        entries = []
        for name, pen in NORM_PENS.items():
            values = self.norms[name]
            text = f"‖∂L/∂{name}‖"
            if values and not any(values):
                text = self.tr("{0} = 0 (not drawn on a log scale)").format(text)
            elif values and values[-1] == 0:  # a saturated run's last step: its curve ends
                text = self.tr("{0} = 0 at step {1} (not drawn on a log scale)").format(
                    text, len(values))
            entries.append(f"<span style='color:{pen.color().name()}'>━━</span>&nbsp;"
                           f"{html.escape(text)}")
        self.norm_legend.setText(" &nbsp;&nbsp;&nbsp; ".join(entries))

    def _on_progress(self, payload) -> None:
        """A step trained: its loss and norms are kept; the curves, the panes and the
        status show the newest step once the events waiting are handled.

        Showing each step as it arrived (the curves, the new weights installed in the
        model) took longer than the 20 ms between steps at 50 steps per second: a step
        was always waiting, and Qt runs its timers (the model's recompute among them)
        only when no event waits, so the panes stood still until the run ended."""
        k, loss, norms, w, thread = payload
        self.train_threads.add(thread)
        self.losses.append(loss)
        for name, v in norms.items():
            self.norms[name].append(v)
        self._latest = (k, loss, norms, w)
        if not self._show_timer.isActive():
            self._show_timer.start()

    def _show_progress(self) -> None:
        """Show the newest step reported (``_on_progress``), if not shown yet."""
        self._show_timer.stop()
        if self._latest is None:
            return
        (k, loss, norms, w), self._latest = self._latest, None
        x = np.arange(1, len(self.losses) + 1)
        self._show_losses(x)
        for name, curve in self.norm_curves.items():
            curve.setData(x, _positive(self.norms[name]), connect="finite")
        self._name_norm_curves()
        state = self.model.state
        heads = list(state.heads)
        if self.head_index < len(heads):
            heads[self.head_index] = w
            try:
                # a Text, so that Edit → Undo says it again in a new language; its
                # translation is the one of self.tr("Train %n steps", "", n) above
                self.model.preview.show(state.with_(heads=tuple(heads)),
                                        Text("Train %n steps", context="GradientLab", count=k))
            except ValueError as exc:
                self.show_error(self.tr("Training stopped: {0}").format(exc))
                self.worker.stop()
        self._say_status(("step", k, loss, norms))

    def _say_status(self, status: tuple | None = None) -> None:
        """The status line for ``status`` (kept, so that a language change says it again;
        it stayed English after View → Language → 简体中文: a first user), or for the one
        kept when None."""
        if status is not None:
            self._status = status
        status = getattr(self, "_status", None)
        if status is None:
            return
        if status[0] == "step":
            _, k, loss, norms, *rose = status
            f = format_nonzero  # a tiny gradient is not 0 (the plot shows 3e−5)
            text = self.tr("step {0}: loss {1}, ‖∂L/∂W_Q‖ = {2}, "
                           "‖∂L/∂W_K‖ = {3}, ‖∂L/∂W_V‖ = {4}").format(
                k, f(loss), f(norms["W_Q"]), f(norms["W_K"]), f(norms["W_V"]))
            if rose:
                first, last = rose[0]
                text = join_sentences((text, self.tr(
                    "<b>The loss rose</b> from {0} at step 1 to {1} at step {2}: try a "
                    "smaller learning rate.").format(f(first), f(last), k)))
            self.status.setText(text)
        else:
            self.status.setText(self.tr("The session has changed since this run (undone or "
                                        "edited): the curves show how that run went, not "
                                        "the weights now in the panes."))

    def _show_losses(self, x: np.ndarray) -> None:
        """The loss curve, on a log axis once it spans more than ``LOSS_LOG_SPAN`` (and
        touches no 0, which a log axis has no place for), else on a linear one."""
        losses = np.array(self.losses, dtype=np.float64)
        shown = losses[np.isfinite(losses)]
        log = bool(shown.size and shown.min() > 0 and shown.max() > LOSS_LOG_SPAN * shown.min())
        if log != self._loss_log:
            self._loss_log = log
            self.loss_plot.getPlotItem().setLogMode(x=False, y=log)
            self._title_loss_plot()
        self.loss_curve.setData(x, np.where(np.isfinite(losses), losses, np.nan),
                                connect="finite")
        box = self.loss_plot.getPlotItem().getViewBox()
        if log:  # pyqtgraph pads a short plot by a tenth of its span: 30 decades below a
            # loss that never went under 1 (a label of 10⁻³⁰ on a loss); half a decade
            lo, hi = np.log10(shown.min()), np.log10(shown.max())
            pad = min(0.5, 0.05 * (hi - lo))
            box.setYRange(lo - pad, hi + pad, padding=0)
        else:
            box.enableAutoRange(axis=pg.ViewBox.YAxis)

    def _title_loss_plot(self) -> None:
        self.loss_plot.getPlotItem().setTitle(
            self.tr("loss (log scale)") if self._loss_log else self.tr("loss"),
            color=(30, 30, 30), size="10pt")

    def _on_finished(self, failure=None) -> None:
        """The run ended: as asked or stopped (``failure`` None), or diverged (``failure``
        says how, the job's tuple)."""
        self._show_progress()  # the last step's weights are the ones committed
        self.train_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.model.preview.commit()
        self._run_state = self.model.state
        if failure is not None:
            self._fail(failure)
        else:
            self._say_rise()
            if len(self.losses) > self.steps.value():  # lowered below those done
                # said: the run stopped at step 91 with no reason given (a first user)
                self.show_note(self.tr(
                    "The run ended at step {0}: the steps were set to {1}, fewer than it "
                    "had trained.").format(len(self.losses), self.steps.value()))
        self._show_target_and_weights()

    def _say_rise(self) -> None:
        """A run that ended with its loss above where it started says so, with the
        numbers the curve shows: at a high learning rate a cross-entropy run can climb
        for all its steps without overflowing, and the curve was the only sign."""
        status = getattr(self, "_status", None)
        if status is None or status[0] != "step" or len(self.losses) < 2:
            return
        first, last = self.losses[0], self.losses[-1]
        if last > first and format_nonzero(last) != format_nonzero(first):
            self._say_status((*status[:4], (first, last)))

    def _fail(self, failure: tuple) -> None:
        self._failure = failure
        self._say_failure()

    def _say_failure(self) -> None:
        """The red line for ``_failure``, in the interface language (it stayed in the
        language of the run after View → Language: a first user)."""
        self._failure_said = self._failure_text()
        self.show_error(self._failure_said)

    def _failure_text(self) -> str:
        kind, *rest = self._failure
        f = format_nonzero
        if kind == "saturated":
            k, loss, first = rest
            reason = self.tr(
                "step {0} diverged: the softmax saturated, every attention weight is now 0 "
                "or 1, so the gradients on W_Q and W_K are exactly 0 and they can never move "
                "again (loss {1}; it started at {2}). Lower the learning rate and undo "
                "(Ctrl+Z) back to weights from before it saturated.").format(k, f(loss), f(first))
        elif kind == "weights":
            k, name, index, value = rest
            cell = ", ".join(str(i) for i in index)  # an index, W_Q[0, 1], as numpy writes it
            reason = self.tr("step {0} diverged: {1}[{2}] became {3}, not a finite number; "
                             "lower the learning rate").format(k, name, cell, f(value))
        elif kind == "scores" and rest[1] == "scores":
            k, _what, dtype, largest = rest
            reason = self.tr("step {0} diverged: the scores q·k overflowed {1} (its largest "
                             "number is {2}); lower the learning rate").format(
                k, dtype, f"{largest:.3g}")
        elif kind == "scores":
            k, what, dtype, largest = rest
            reason = self.tr("step {0} diverged: {1} = X·W_{1} overflowed {2} (its largest "
                             "number is {3}); lower the learning rate").format(
                k, what, dtype, f"{largest:.3g}")
        else:  # "text": a failure the core did not foresee, as it said it
            reason = rest[0]
        return self.tr("Training failed: {0}").format(reason)

    def _on_state_changed(self) -> None:
        """The session moved away from the state the last run left (Ctrl+Z undid the
        run, or the weights were edited): the status line says the curves are that
        run's, not the weights now shown (a first user read "step 260: loss 354" over
        the weights of before the run, which Ctrl+Z had brought back).

        The comparison's runs, likewise, are marked as the earlier session's once what
        they trained on (X, the mask, the seed) has changed."""
        self._check_compare_session()
        if self._refusal is not None and not self._refusal[1]():
            self._drop_refusal()
        if self._run_state is None or self.model.state is self._run_state:
            return
        self._run_state = None
        if self._failure is not None and self.error.text() == self._failure_said:
            self.show_error("")  # "undo back to weights from before" was done, or moot
        self._failure = None
        self._say_status(("changed",))

    def _refuse(self, text: str, holds: Callable[[], bool]) -> None:
        """``text`` on the red line until ``holds()`` is false or the other tab is
        chosen: a refusal stayed after its cause was gone, above a comparison that then
        ran and finished, and on the other tab, whose button it was not (a first user)."""
        self.show_error(text)
        self._refusal = (text, holds)

    def _drop_refusal(self, *_args) -> None:
        if self._refusal is not None and self.error.text() == self._refusal[0]:
            self.show_error("")
        self._refusal = None

    def _on_failed(self, text: str) -> None:
        self._show_progress()
        self.train_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.model.preview.commit()
        self._run_state = self.model.state
        self._fail(("text", text))

    def _on_compare_failed(self, text: str) -> None:
        """The comparison's own end: a training run failing meanwhile must not give back
        its controls (a loss changed mid-run put the old loss's runs under the new
        loss's explanation)."""
        self._compare_ended()
        self.show_error(self.tr("Training failed: {0}").format(text))

    def _on_preview_ended(self) -> None:
        """An undo, New or Open replaced the weights being trained: stop."""
        self.worker.stop()

    def wait(self, worker: LabWorker, timeout_ms: int = 60_000) -> bool:
        """Process events until ``worker`` is done (scripts and tests); False on timeout."""
        deadline = QDeadlineTimer(timeout_ms)
        while worker.running and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        QCoreApplication.processEvents()
        return not worker.running

    def train_blocking(self, steps: int) -> None:
        """Train ``steps`` steps as fast as allowed and wait (screenshots, tests)."""
        self.steps.setValue(steps)
        self.rate.setValue(self.rate.maximum())
        self.start_training()
        self.wait(self.worker)

    def closeEvent(self, event) -> None:
        self.worker.join()
        self.compare_worker.join()
        QCoreApplication.processEvents()
        self._show_progress()
        self.model.preview.commit()
        super().closeEvent(event)

    # --------------------------------------------------------------- comparison
    def start_comparison(self) -> None:
        if self._comparing or self.compare_worker.running:
            return
        inputs = self._inputs()
        kind, target = self.target_matrix(inputs)
        if kind != "pattern":
            n = inputs.X.shape[0]
            m = n if inputs.options["X_kv"] is None else inputs.options["X_kv"].shape[0]
            target = normalise_pattern(target_pattern("previous", n, m), inputs.causal)
        if inputs.cross:
            self._refuse(self.tr("The comparison trains self-attention heads; switch to "
                                 "self-attention."), lambda: self.model.state.mode == "cross")
            return
        if inputs.X.shape[1] < 2:
            self._refuse(self.tr("The comparison normalises each row of X to mean 0 "
                                 "and variance 1, which needs d_model ≥ 2: add a "
                                 "dimension first."), lambda: self.model.state.d_model < 2)
            return
        self.show_error("")  # a refusal or failure of before is not this run's
        X, causal = layer_norm(inputs.X), inputs.causal
        steps, lr = self.compare_steps.value(), self.compare_lr.value()
        loss = self.compare_loss.currentData() or COMPARE_LOSSES[0]
        seed = self.model.state.seed
        init = 1.0 / np.sqrt(X.shape[1])
        self.runs, self._compared = [], False  # none of the last runs is this run's
        self._compare_session, self._compare_stale = self._compare_key(inputs), False
        self._show_runs()
        self._comparing, self._compare_at, self._compare_steps = True, None, steps
        self.compare_progress.setRange(0, 2 * len(COMPARE_D_KS) * steps)
        self.compare_progress.setValue(0)
        self.compare_progress.show()
        self._show_compare_status()
        self.compare_button.setEnabled(False)
        self.compare_stop.setEnabled(True)
        self.compare_loss.setEnabled(False)  # the runs coming are this loss's
        every = max(1, steps // COMPARE_REPORTS)

        def job(report, stop):
            def progress(run, d_k, scaled, step):
                if step % every == 0 or step == steps:
                    report((run, d_k, scaled, step))

            return scaling_comparison(X, target, kind=loss, d_ks=COMPARE_D_KS, steps=steps,
                                      lr=lr, seed=seed, init_scale=init, causal=causal,
                                      should_stop=stop.is_set, progress=progress)

        self.compare_worker.start(job)

    def _compare_key(self, inputs=None) -> tuple:
        """What of the session a comparison trains on: X, the mask, the seed."""
        inputs = inputs or self._inputs()
        return inputs.X.copy(), inputs.causal, inputs.cross, self.model.state.seed

    def _check_compare_session(self) -> None:
        """The runs shown (or coming) are marked as the earlier session's once what they
        trained on has changed (Presets → Tutorial 1 left the last session's table and
        plots under no notice, a first user)."""
        if self._compare_stale or self._compare_session is None or (
                not self.runs and not self._comparing):
            return
        X, *rest = self._compare_key()
        old_X, *old_rest = self._compare_session
        if rest == old_rest and X.shape == old_X.shape and np.array_equal(X, old_X):
            return
        self._compare_stale = True
        self._show_compare_status()

    def stop_comparison(self) -> None:
        """End the comparison before its next step; the runs that finished are shown."""
        self.compare_worker.stop()
        self.compare_stop.setEnabled(False)

    def _on_compare_progress(self, payload) -> None:
        """A run's step reported (``COMPARE_REPORTS`` a run at most): the bar and the
        line beside it say where the comparison is."""
        if not self._comparing:
            return
        self._compare_at = payload
        run, _d_k, _scaled, step = payload
        self.compare_progress.setValue(run * self._compare_steps + step)
        self._show_compare_status()

    def _compare_ended(self) -> None:
        """The comparison's controls back, however it ended."""
        self._comparing = False
        self.compare_progress.hide()
        self.compare_button.setEnabled(True)
        self.compare_stop.setEnabled(False)
        self.compare_loss.setEnabled(True)
        self._show_compare_status()
        # the rate box was left alone while the runs went on: a session loaded meanwhile
        # kept 0.1 for all-MiniLM's rows, and the next comparison rose to 1e93 (a review)
        self._follow_lr()

    def _show_compare_status(self) -> None:
        """Where a running comparison is; how the last one ended (a stop said, with
        what of it is shown); nothing once its runs are gone."""
        total = 2 * len(COMPARE_D_KS)
        if self._comparing:
            if self._compare_at is None:
                text = self.tr("Training the first of {0} runs…").format(total)
            else:
                run, d_k, scaled, step = self._compare_at
                text = (self.tr("Run {0} of {1}: d_k = {2} with ÷√d_k, step {3} of {4}")
                        if scaled else
                        self.tr("Run {0} of {1}: d_k = {2} without ÷√d_k, step {3} of {4}")
                        ).format(run + 1, total, d_k, step, self._compare_steps)
        elif not self._compared:
            text = ""
        elif self._compare_stale and self.runs:
            text = self.tr("<b>From an earlier session</b>: X, the mask or the seed has "
                           "changed since these runs (undone, edited or another session "
                           "loaded), so the plots and the table below are that session's. "
                           "Run the comparison again for this one.")
        elif len(self.runs) == total:
            text = self.tr("Finished: all {0} runs, {1} steps each.").format(
                total, len(self.runs[0].losses) - 1)  # (with the start's loss)
        elif self.runs:
            text = self.tr("<b>Stopped</b>: {0} of the {1} runs finished, and only they "
                           "are plotted and listed below. Run the comparison again for all "
                           "of them.").format(len(self.runs), total)
        else:
            text = self.tr("<b>Stopped</b> before any run finished: nothing to show. Run "
                           "the comparison again, with fewer steps for a quicker one.")
        self.compare_status.setText(text)

    def _on_compare_loss(self, *_args) -> None:
        """Another loss: the runs of the last one go (their curves would read as this
        loss's, under this loss's explanation)."""
        self.runs, self._compared, self._compare_stale = [], False, False
        self._show_runs()
        self._show_compare_status()
        self._show_compare_info()

    def _show_compare_info(self, *_args) -> None:
        """What the comparison trains and why its curves go as they do, for its loss.
        (It said the gradient of every unscaled head vanishes and the scaled one stays
        of order 1: with the weights' cross-entropy the unscaled heads learned faster.)"""
        common = self.tr(
            "Fresh heads on this session's X, layer-normalised (each row: mean 0, "
            "variance 1, as a Transformer normalises it before attention; with W ~ N(0, "
            "1/d_model), q and k then have components of variance about 1), trained "
            "towards the chosen pattern. The plots show the true gradients; the table "
            "adds the tutorial's mean p(1−p), only the diagonal of the softmax Jacobian "
            "diag(p) − ppᵀ.")
        # the formula on one line: the label broke it as "N(0," | "1/d_model)"
        common = common.replace("W ~ N(0, 1/d_model)", FORMULA_NO_BREAK)
        if self.compare_loss.currentData() == "pattern":
            why = self.tr(
                "Cross-entropy of the weights to the pattern: its gradient on the scores is "
                "(p − pattern)/n, which a saturated softmax does not shrink while the "
                "weights are wrong (the log cancels the Jacobian). So here the unscaled "
                "heads, whose scores are √d_k times larger, and so are their gradients, "
                "can learn faster at the same learning rate, even where mean p(1−p) is "
                "nearly 0; their gradient falls once they are right. The line under the "
                "table says how this run's losses ended. A Transformer's loss does "
                "not reach the weights this way: choose the loss on the output to see what "
                "÷√d_k prevents.")
        else:
            why = self.tr(
                "Squared error of the output to the pattern × the head's starting V, per "
                "output component: the loss reaches the scores through weights · V and the "
                "whole Jacobian diag(p) − ppᵀ, as in a Transformer. Unscaled, the scores "
                "and their gradients are √d_k times larger: the softmax starts near "
                "one-hot (the table's mean max weight) or the first steps push it there, "
                "and where it is one-hot that Jacobian is nearly 0, so the row passes "
                "almost no gradient back to W_Q and W_K, whichever key it should attend to. "
                "So the larger d_k, the more such heads can stall with the loss high; what "
                "still falls is then mostly W_V's share (W_V trains too). Scaled, the scores "
                "keep a variance of about 1 at every d_k, so the softmax does not start "
                "saturated. Look for the stall in the losses at the end: the line under "
                "the table says what this run showed (with few tokens, or few keys per "
                "row, unscaled heads may learn as well).")
        # two paragraphs: what is trained, then what to look for (one block of about
        # 150 words was hard to take in; a first user)
        self.compare_info.setText(f"<p>{html.escape(common, quote=False)}</p>"
                                  f"<p>{html.escape(why, quote=False)}</p>")

    def _show_compare_key(self) -> None:
        """The curves' key: each colour and line style, drawn in its own colour."""
        def line(colour, dashed: bool) -> str:
            r, g, b = colour
            return f"<span style='color: rgb({r}, {g}, {b})'>{'╍╍╍' if dashed else '━━━'}</span>"

        grey = (60, 60, 60)
        parts = (f"{line(UNSCALED, False)} " + html.escape(self.tr("no scaling"), quote=False),
                 f"{line(SCALED, False)} ÷√d_k",
                 f"{line(grey, False)} ‖∂L/∂W_Q‖",
                 f"{line(grey, True)} ‖∂L/∂W_K‖")
        self.compare_key.setText("&nbsp;&nbsp;&nbsp; ".join(parts)
                                 + "&nbsp;&nbsp;&nbsp; "
                                 + html.escape(self.tr("(log scale, from step 0)"), quote=False))

    def _on_compared(self, runs) -> None:
        """The runs that finished: all of them, or fewer after a stop (then said)."""
        self.runs, self._compared = list(runs), True
        self._show_runs()
        self._compare_ended()
        self._check_compare_session()  # edited while it ran: the runs are the old X's
        QTimer.singleShot(0, self, self._scroll_to_runs)

    def _scroll_to_runs(self) -> None:
        """The plots and the table in view, with the curves' key above them where it
        fits too, else from the plots' tops: under the explanation, the table of a run
        was below the fold at 1024 × 700 (a first user), and they fit the tab's view
        together there."""
        if self.runs:
            # laid out first: the table had not taken its height yet
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            scroll = self.compare_scroll
            scroll.ensureWidgetVisible(self.compare_table, 0, 0)
            bottom = self.compare_table.geometry().bottom()
            for top in (self.compare_key, next(iter(self.compare_plots.values()))):
                y = top.mapTo(scroll.widget(), top.rect().topLeft()).y()
                if bottom - y < scroll.viewport().height():
                    break
            scroll.ensureVisible(0, y, 0, 0)

    def _compare_outcome(self) -> str:
        """What this run's losses at the end showed, d_k by d_k: where the unscaled head
        ended higher than the scaled one, lower, or the same as the table writes them.
        The fixed explanation said the unscaled heads stall; in a 4-token causal session
        the unscaled d_k = 64 head ended at 0.0000 and the scaled at 0.0011."""
        ends = {(r.d_k, r.scaled): r.losses[-1] for r in self.runs}
        higher, lower, same = [], [], []
        for d in COMPARE_D_KS:
            if (d, False) not in ends or (d, True) not in ends:
                continue
            plain, scaled = ends[(d, False)], ends[(d, True)]
            if format_nonzero(plain) == format_nonzero(scaled):
                same.append(str(d))
            else:
                (higher if plain > scaled else lower).append(str(d))
        if not (higher or lower or same):
            return ""
        parts = []
        if higher:
            parts.append(self.tr("Without ÷√d_k the loss ended higher than with it at d_k "
                                 "= {0}.").format(join_list(higher)))
        if lower:
            parts.append(self.tr("Without ÷√d_k the loss ended lower than with it at d_k "
                                 "= {0}.").format(join_list(lower)))
        if same:
            parts.append(self.tr("Both ended at the same loss at d_k = {0}.").format(
                join_list(same)))
        if not higher:
            parts.append(self.tr("So no unscaled head ended behind its scaled twin: this "
                                 "run does not show the stall ÷√d_k prevents (with more "
                                 "tokens, or the loss on the output, it may)."))
        return self.tr("<b>In this run</b>: {0}").format(join_sentences(parts))

    def run_comparison_blocking(self, steps: int = 100) -> None:
        self.compare_steps.setValue(steps)
        self.start_comparison()
        self.wait(self.compare_worker)

    def _show_runs(self) -> None:
        for d, plot in self.compare_plots.items():
            item = plot.getPlotItem()
            item.clear()
            for run in self.runs:
                if run.d_k != d:
                    continue
                colour = SCALED if run.scaled else UNSCALED
                x = np.arange(len(run.grad_W_Q))  # from step 0, the start
                item.plot(x, _positive(run.grad_W_Q), pen=pg.mkPen(colour, width=2),
                          connect="finite")
                item.plot(x, _positive(run.grad_W_K), connect="finite",
                          pen=pg.mkPen(colour, width=2, style=Qt.PenStyle.DashLine))
        self._show_compare_table()

    def _show_compare_table(self) -> None:
        """The runs' table: each run's start and end, with the verdict below it."""
        if not self.runs:
            self.compare_table.setText("")
            return
        head = ("d_k", self.tr("scaling"), self.tr("mean max weight at the start"),
                self.tr("mean p(1−p) at the start"),
                # (not "‖∂L/∂W_Q‖₀": in Chinese, at the table's size, its subscript 0 read
                # as a full stop "。", a first-time user)
                self.tr("‖∂L/∂W_Q‖ at the start"), self.tr("‖∂L/∂W_K‖ at the start"),
                self.tr("‖∂L/∂W_Q‖ at the end"), self.tr("loss at the start"),
                self.tr("loss at the end"))
        rows = ["<tr>" + "".join(f"<th>{_breaking_at_spaces(h)}</th>" for h in head)
                + "</tr>"]
        body = [(str(run.d_k), "÷√d_k" if run.scaled else self.tr("none"),
                 *(format_nonzero(v) for v in (run.max_weight, run.mean_p1p,
                                             run.grad_W_Q[0], run.grad_W_K[0],
                                             run.grad_W_Q[-1], run.losses[0],
                                             run.losses[-1])))
                for run in self.runs]  # (each has the start's loss at least)
        for cells in body:
            rows.append("<tr>" + "".join(f"<td align='right'>{c}</td>" for c in cells)
                        + "</tr>")
        outcome = self._compare_outcome()
        even = _even_rows(self.compare_table.font(), [c for cells in body for c in cells])
        self.compare_table.setText(even + "<table cellpadding='3'>" + "".join(rows)
                                   + "</table>" + (f"<p>{outcome}</p>" if outcome else ""))

    def changeEvent(self, event) -> None:
        """A new font (View → Zoom, presentation mode): the comparison table's rows are
        made even again in it (``_even_rows``)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and getattr(self, "runs", None):
            self._show_compare_table()  # (the plots do not depend on the font)
