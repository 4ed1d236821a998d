"""The RoPE lab: what rotary position embeddings do to one query and one key, live.

Four views of the session's current head, each drawn from ``core.rope_lessons``:

* **rotations**: the chosen query and key as 2-D vectors, one small plot per pair of
  dimensions, before (faint) and after RoPE turns them by their positions;
* **shift**: a slider adds k to every position; the score of the pair and every score
  of the head stay equal (the largest difference is shown), because RoPE scores depend
  only on the distance m − n;
* **base**: the session's RoPE base (``options.rope_base``, as the box under Positions:
  the slider edits it, one undoable step, so the lab's numbers are the main window's)
  and a plot of how the score of two fixed vectors falls with their distance, for this
  base and the usual ones;
* **order**: "Shuffle tokens" permutes X; without positions the outputs are the same
  rows shuffled alike (attention sees a set), with RoPE they are not.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from qkv_desktop.core.rope_lessons import (
    distance_decay,
    pair_rotations,
    permutation_check,
    shift_check,
)
from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.numbers import format_nonzero, format_rope_base, format_value
from qkv_desktop.presentation.texts import join_list, join_sentences, say, token_in_text
from qkv_desktop.views.editors.position_controls import ROPE_BASE_RANGE
from qkv_desktop.views.editors.wheel_focus import FocusComboBox, FocusSlider
from qkv_desktop.views.layout import fit_to_screen, scrolling
from qkv_desktop.views.lazy_refresh import RefreshWhenShown
from qkv_desktop.views.once_per_frame import OncePerFrame
from qkv_desktop.views.retranslate import Retranslating
from qkv_desktop.views.teaching.lab_plot import LabPlot, LabPlotGrid

__all__ = ["RopeLab", "base_from_slider", "slider_from_base", "MAX_PAIR_PLOTS",
           "DECAY_BASES"]

BASE_MIN, BASE_MAX = ROPE_BASE_RANGE
BASE_STEPS = 900
"""The base slider's steps: a hundred a decade from 10⁰ to 10⁹, the box's range."""
MAX_SHIFT = 1000
ROTATIONS_MIN_HEIGHT = 170
"""Pixels the pair-by-pair rotation plots keep at least (their titles and a circle)."""
PAIR_MIN_PX = 90
"""Pixels each pair's circle keeps at least, across and down: at 1024×700 eight pairs
shared 170 pixels, each a square of 40 with vectors of a few pixels, and only the dots
showed, not the turning (a review). More rows than fit make the lab scroll."""

DECAY_MIN_HEIGHT = 260
"""Pixels the decay plot keeps at least: its rotated axis name and its legend beside
the curves. Lower than the lab has room for, the lab scrolls."""
MAX_PAIR_PLOTS = 8
"""Pairs drawn as small plots (the fastest-turning first); the rest are listed only."""
_CIRCLE_X = np.cos(np.linspace(0, 2 * np.pi, 97))
_CIRCLE_Y = np.sin(np.linspace(0, 2 * np.pi, 97))
"""The unit circle each pair's plot draws its vectors' radius around, made once."""
DECAY_BASES = (1e4, 1e5, 1e6)
DECAY_DISTANCE = 512
DECAY_DIM = 128
"""The decay plot's vectors have 128 dimensions (a LLaMA head): with the few pairs of a
teaching session the curve would only ripple, with 64 frequencies it shows the decay."""
Q_PEN, K_PEN = pg.mkPen((214, 96, 77), width=2), pg.mkPen((33, 102, 172), width=2)
FAINT_Q = pg.mkPen((214, 96, 77, 90), width=1, style=Qt.PenStyle.DashLine)
FAINT_K = pg.mkPen((33, 102, 172, 90), width=1, style=Qt.PenStyle.DashLine)
CIRCLE_Q, CIRCLE_K = pg.mkPen((214, 96, 77, 60), width=1), pg.mkPen((33, 102, 172, 60), width=1)
DECAY_PENS = (pg.mkPen((150, 150, 150), width=1), pg.mkPen((120, 160, 120), width=1),
              pg.mkPen((160, 120, 160), width=1))


def base_from_slider(pos: int) -> float:
    """Logarithmic slider: position 0…900 → base 10⁰…10⁹ (three significant digits)."""
    b = BASE_MIN * (BASE_MAX / BASE_MIN) ** (pos / BASE_STEPS)
    return float(f"{b:.3g}")


def slider_from_base(base: float) -> int:
    """The slider's position nearest ``base`` (at an end for a base beyond the range)."""
    base = min(max(base, BASE_MIN), BASE_MAX)
    return round(BASE_STEPS * math.log(base / BASE_MIN) / math.log(BASE_MAX / BASE_MIN))


class RopeLab(RefreshWhenShown, Retranslating, QWidget):
    """A window of the four RoPE lessons over the model's current head."""

    def __init__(self, model: AttentionModel, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ropeLab")
        self.model = model
        self.resize(*fit_to_screen((980, 760), self.screen()))  # never past the screen
        # Esc and Ctrl+W close it, like the other labs and the scaling lab.
        for keys in (QKeySequence(Qt.Key.Key_Escape), QKeySequence(QKeySequence.StandardKey.Close)):
            QShortcut(keys, self, activated=self.close,
                      context=Qt.ShortcutContext.WindowShortcut)
        self.query = FocusComboBox(objectName="ropeQuery")
        self.key = FocusComboBox(objectName="ropeKey")
        self.shift = FocusSlider(Qt.Orientation.Horizontal, objectName="ropeShift")
        self.shift.setRange(0, MAX_SHIFT)
        self.base = FocusSlider(Qt.Orientation.Horizontal, objectName="ropeBase")
        self.base.setRange(0, BASE_STEPS)
        self.shift_label, self.base_label = QLabel(), QLabel()
        for w in (self.shift_label, self.base_label):
            w.setMinimumWidth(70)
        self._labels = [QLabel() for _ in range(4)]
        controls = QGridLayout()
        for r, (label, w, extra) in enumerate(((self._labels[0], self.query, None),
                                               (self._labels[1], self.key, None),
                                               (self._labels[2], self.shift, self.shift_label),
                                               (self._labels[3], self.base, self.base_label))):
            controls.addWidget(label, r, 0)
            controls.addWidget(w, r, 1)
            if extra is not None:
                controls.addWidget(extra, r, 2)

        self.rotation_group = QGroupBox()
        self.rotations = LabPlotGrid(ROTATIONS_MIN_HEIGHT)
        self._pairs: list[tuple[pg.PlotItem, list[pg.PlotDataItem]]] = []
        """The pair plots on show and their curves (``_build_pairs``)."""
        self._decay_for: tuple | None = None  # (d, base, pairing) the decay plot shows
        self.rotation_info = QLabel(objectName="ropeRotationInfo", wordWrap=True)
        self.shift_info = QLabel(objectName="ropeShiftInfo", wordWrap=True)
        rot = QVBoxLayout(self.rotation_group)
        rot.addWidget(self.rotations, 1)
        rot.addWidget(self.rotation_info)
        rot.addWidget(self.shift_info)

        self.decay_group = QGroupBox()
        self.decay = LabPlot(DECAY_MIN_HEIGHT)
        # read, not zoomed: the wheel zoomed it to −3000 … 3000 with no way back (no
        # "A" button shown), where the learner meant to scroll the lab (a first user)
        self.decay.setMouseEnabled(x=False, y=False)
        self.decay.hideButtons()
        # Two columns on an opaque ground: four names stacked over the curves ran into
        # each other on a low screen, and the curves showed through them.
        self.decay.addLegend(offset=(-10, 10), colCount=2, brush=pg.mkBrush(255, 255, 255, 235),
                             pen=pg.mkPen(200, 200, 200), labelTextColor=(40, 40, 40))
        self.decay_info = QLabel(wordWrap=True)
        dec = QVBoxLayout(self.decay_group)
        dec.addWidget(self.decay, 1)
        dec.addWidget(self.decay_info)

        self.order_group = QGroupBox()
        self.shuffle = QPushButton(objectName="ropeShuffle")
        self.order_info = QLabel(objectName="ropeOrderInfo", wordWrap=True)
        order = QHBoxLayout(self.order_group)
        order.addWidget(self.shuffle)
        order.addWidget(self.order_info, 1)

        lower = QHBoxLayout()
        lower.addWidget(self.decay_group, 1)
        body = QWidget(objectName="ropeBody")
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(controls)
        column.addWidget(self.rotation_group, 3)
        column.addLayout(lower, 2)
        column.addWidget(self.order_group)
        self.body = scrolling(body, "ropeScroll")  # a low screen scrolls, never squeezes
        layout = QVBoxLayout(self)
        layout.addWidget(self.body)

        self._perm: np.ndarray | None = None
        self._rng = np.random.default_rng(0)
        self.shift.valueChanged.connect(self._on_input)
        self.base.valueChanged.connect(self._on_base)
        # A drag of the slider is one undo step, and sets the base about once a frame
        # (the tables' scrub does the same): with tracking on, every move recomputed
        # the session (every head, at a model's size) while the learner dragged.
        self._base_drag: int | None = None  # the drag's gesture (model.new_gesture)
        self._base_moves = OncePerFrame(self, self._set_base)
        self.base.sliderPressed.connect(self._begin_base_drag)
        self.base.sliderReleased.connect(self.end_base_drag)
        self.query.currentIndexChanged.connect(self._on_input)
        self.key.currentIndexChanged.connect(self._on_input)
        self.shuffle.clicked.connect(self.shuffle_tokens)
        model.resultChanged.connect(self._on_result)
        model.resultCleared.connect(self._on_result_cleared)
        model.currentHeadChanged.connect(self._on_result)
        model.changed.connect(self._follow_base)  # an edit under Positions, an undo, a file
        self._follow_base()
        self.retranslate()
        self._on_result()

    # -------------------------------------------------------------- texts
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("RoPE lab — QKV Desktop"))
        for label, text in zip(self._labels, (self.tr("query"), self.tr("key"),
                                              self.tr("shift every position by"),
                                              self.tr("RoPE base (the session's)")),
                                 strict=True):
            label.setText(text)
        self.shift.setToolTip(self.tr("Add k to the position of every token: the rotations "
                                      "change, the scores do not."))
        self.base.setToolTip(self.tr(
            "This session's RoPE base, the one under Positions (mask tab): moving the slider "
            "changes it there too, and Ctrl+Z undoes it. Pair i turns by position · "
            "base^(−2i/d_k). From 1 to 10⁹, logarithmic."))
        self.rotation_group.setTitle(self.tr("One query and one key, pair by pair of "
                                             "dimensions (faint: before RoPE)"))
        self.decay_group.setTitle(self.tr("Score of two fixed vectors against their distance"))
        self.decay.setLabel("bottom", self.tr("distance m − n"))
        self.decay.setLabel("left", self.tr("score q·k (q = k = 1/√d)"))
        self.order_group.setTitle(self.tr("Order: without positions attention sees a set"))
        self.shuffle.setText(self.tr("Shuffle tokens"))
        self.shuffle.setToolTip(self.tr("Permute the tokens of X at random and compare the "
                                        "outputs with the original ones, permuted alike."))
        self._decay_for = None  # its legend's names, in the new language
        self._on_input()

    # ------------------------------------------------------------- inputs
    def _on_input(self, *_args) -> None:
        """A control of the lab changed: draw again, though the result is the same."""
        self.redraw_due()
        self.refresh()

    def _on_base(self, pos: int) -> None:
        """The slider moved: it sets the session's base (during a drag about once a
        frame, ``OncePerFrame``); the new result redraws the lab."""
        if self._base_drag is not None:
            self._base_moves.offer(pos)
        else:  # a key, the wheel, a click beside the handle: one step each
            self._set_base(pos)

    def _begin_base_drag(self) -> None:
        self.end_base_drag()  # one whose release never came
        self._base_drag = self.model.new_gesture()
        self._base_moves.begin(self.screen())

    def end_base_drag(self) -> None:
        """The drag ends: the base it was released on applies, and the drag is one step."""
        if self._base_drag is None:
            return
        self._base_moves.end()
        self._base_drag = None

    def hideEvent(self, event) -> None:
        self.end_base_drag()  # closed while dragging (Esc): no release will come
        super().hideEvent(event)

    def _set_base(self, pos: int) -> None:
        """Set the session's base: a drag's values merge into one undo step (however long
        it pauses), a single move merges with the box under Positions' edits within
        ``MERGE_WINDOW_S``."""
        key = "rope_base" if self._base_drag is None else ("rope_base", self._base_drag)
        try:
            self.model.set_options(merge_key=key, rope_base=base_from_slider(pos))
        except ValueError as exc:  # refused (said where the learner looks): back to it
            self.model.refused.emit(self.tr("Not applied: {0}").format(say(exc)))
            self._follow_base()

    def _follow_base(self) -> None:
        """The slider and its label show the session's base, whoever changed it."""
        base = self.model.state.options.rope_base
        with QSignalBlocker(self.base):
            self.base.setValue(slider_from_base(base))
        self.base_label.setText(format_rope_base(base))

    def _on_result(self, *_args) -> None:
        result = self.model.result
        if result is None:
            return
        s = result.state
        for combo, names in ((self.query, s.tokens), (self.key, s.key_tokens)):
            names = list(names)
            if [combo.itemText(i) for i in range(combo.count())] != names:
                current = combo.currentIndex()
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(names)
                combo.setCurrentIndex(min(max(current, 0), len(names) - 1))
                combo.blockSignals(False)
        self._perm = None
        self.refresh()

    def shuffle_tokens(self) -> None:
        """A new random order of the tokens, and the equivariance check under it."""
        n = self.model.state.n
        perm = self._rng.permutation(n)
        while n > 1 and (perm == np.arange(n)).all():
            perm = self._rng.permutation(n)
        self._perm = perm
        self._show_order()
        # The result takes a line or two more than the prompt: the lab scrolls it into
        # view whole, once laid out (its last line was cut at the window's bottom).
        self.order_group.layout().activate()
        self.body.widget().layout().activate()
        QCoreApplication.sendEvent(self.body, QEvent(QEvent.Type.LayoutRequest))
        self.body.ensureWidgetVisible(self.order_group, 0, 0)

    # ------------------------------------------------------------- drawing
    def refresh(self, *_args) -> None:
        if self._due() is None:
            return  # hidden (drawn when shown, ``RefreshWhenShown``) or already drawn
        result = self.model.result
        s = result.state
        r = result.head(self.model.current_head)
        base, pairing = s.options.rope_base, s.options.rope_pairing  # the result's own
        k = self.shift.value()
        self.shift_label.setText(str(k))
        d = r.Q.shape[1]
        # the decay plot's vectors are its own (d = 128), whatever this session's d_k
        self._draw_decay(DECAY_DIM, base, pairing)
        self._show_order()
        if d % 2:
            self._clear_pairs()
            # said where the pairs would be drawn, not under an empty white box
            self.rotations.addLabel(self.tr("RoPE turns pairs of dimensions: make d_k even "
                                            "to see it (d_k = {0}).").format(d),
                                    color=(150, 30, 30), size="11pt")
            self.rotation_info.setText("")
            self.shift_info.setText("")
            return
        i = max(self.query.currentIndex(), 0)
        j = max(self.key.currentIndex(), 0)
        if i >= r.Q.shape[0] or j >= r.K.shape[0]:
            return
        pr = pair_rotations(r.Q[i], r.K[j], i + k, j + k, base, pairing)
        self._draw_pairs(pr)
        plain = pair_rotations(r.Q[i], r.K[j], i, j, base, pairing)
        f = format_value
        text = self.tr(
            "q = {0} at position {1}, k = {2} at position {3}: R({1})q · R({3})k = {4}. "
            "Each pair i turns by θ_i = base^(−2i/d) per position: θ = {5}.").format(
            token_in_text(s.tokens[i]), i + k, token_in_text(s.key_tokens[j]), j + k, f(pr.score),
            # a slow pair turns by 1e−6 rad, not by 0.0000 (d_k = 64, base 10⁴)
            join_list(format_nonzero(t) for t in pr.theta))
        if len(pr.theta) > MAX_PAIR_PLOTS:  # said: the plots seemed to be every pair
            text = join_sentences([text, self.tr(
                "The plots show pairs 0 … {0}, the fastest-turning, of the {1} pairs.").format(
                MAX_PAIR_PLOTS - 1, len(pr.theta))])
        if s.options.positions != "rope":
            text = join_sentences([text, self.tr(
                "This session's positions are not RoPE (Positions, mask tab): the main "
                "window's scores are QKᵀ, without these turns.")])
        self.rotation_info.setText(text)
        _s0, _s1, diff = shift_check(r.Q, r.K, k, base, pairing)
        self.shift_info.setText(self.tr(
            "Shifted by {0}: the score is {1}, without the shift {2}. Over all {3}×{4} scores "
            "of this head, max |shifted − unshifted| = {5}: the positions enter the scores "
            "only through the distance m − n.").format(k, f(pr.score), f(plain.score), r.Q.shape[0],
                                      r.K.shape[0], f(diff)))

    def _clear_pairs(self) -> None:
        self.rotations.clear()
        self.rotations.setMinimumHeight(ROTATIONS_MIN_HEIGHT)  # ``_build_pairs`` may raise it
        self._pairs = []

    def _build_pairs(self, count: int) -> None:
        """``count`` pair plots, each with its curves (two circles, four vectors, two
        ends), made once and given new data on each redraw: made afresh, the eight
        plots took 450 ms of every redraw, so a base slider's drag or an edit with the
        lab open showed about two frames a second."""
        self._clear_pairs()
        cols = min(count, 4)
        for p in range(count):
            plot = self.rotations.addPlot(row=p // cols, col=p % cols)
            plot.vb.setMinimumSize(PAIR_MIN_PX, PAIR_MIN_PX)
            plot.setAspectLocked(True)
            plot.hideAxis("left")
            plot.hideAxis("bottom")
            plot.setMouseEnabled(False, False)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setTitle(" ", size="8pt")  # its line, for the least height below
            # (no range limit: its check redid every curve at each range change)
            curves = [plot.plot(pen=pen, dynamicRangeLimit=None)
                      for pen in (CIRCLE_Q, CIRCLE_K, FAINT_Q, FAINT_K, Q_PEN, K_PEN)]
            curves += [plot.plot(pen=None, symbol="o", symbolSize=5, symbolBrush=pen.color(),
                                 dynamicRangeLimit=None) for pen in (Q_PEN, K_PEN)]
            self._pairs.append((plot, curves))
        # the rows at their least size (circles, titles, spacing) fit the widget, or
        # the lab scrolls: a row of circles was cut at its bottom otherwise
        least = self.rotations.ci.effectiveSizeHint(Qt.SizeHint.MinimumSize).height()
        self.rotations.setMinimumHeight(max(ROTATIONS_MIN_HEIGHT, math.ceil(least)))

    def _draw_pairs(self, pr) -> None:
        count = min(len(pr.theta), MAX_PAIR_PLOTS)
        if len(self._pairs) != count:
            self._build_pairs(count)
        for p, (plot, curves) in enumerate(self._pairs):
            # each pair at its own scale: RoPE keeps a pair's length, so its vectors
            # fill the circle whatever the other pairs' lengths (at one scale for all,
            # a short pair was a dot), and the circles are the paths they turn along
            radii = (float(np.hypot(*pr.q[p])), float(np.hypot(*pr.k[p])))
            top = max(*radii, 1e-12) * 1.15
            plot.vb.setRange(xRange=(-top, top), yRange=(-top, top), padding=0)
            plot.setTitle(self.tr("pair {0}: +{1} rad / position").format(
                p, format_nonzero(pr.theta[p])), size="8pt")
            for curve, radius in zip(curves[:2], radii, strict=True):
                curve.setData(radius * _CIRCLE_X, radius * _CIRCLE_Y)
            for curve, vec in zip(curves[2:6], (pr.q[p], pr.k[p], pr.q_rot[p], pr.k_rot[p]),
                                  strict=True):
                curve.setData([0, vec[0]], [0, vec[1]])
            for curve, vec in zip(curves[6:], (pr.q_rot[p], pr.k_rot[p]), strict=True):
                curve.setData([vec[0]], [vec[1]])

    def _draw_decay(self, d: int, base: float, pairing: str) -> None:
        """The decay curves of the fixed bases and of ``base``; drawn again only when
        the base or the pairing changed (or the language: ``retranslate``), not for a
        shift, a token chosen or an edit."""
        if self._decay_for == (d, base, pairing):
            return
        self._decay_for = (d, base, pairing)
        self.decay.clear()
        legend = self.decay.getPlotItem().legend
        if legend is not None:
            legend.clear()
        dist = np.arange(DECAY_DISTANCE + 1)
        curves = distance_decay(d, (*DECAY_BASES, base), DECAY_DISTANCE, pairing)
        for row, b, pen in zip(curves[:-1], DECAY_BASES, DECAY_PENS, strict=True):
            if b == base:  # under the red curve it was hidden, and named twice (a review)
                continue
            self.decay.plot(dist, row, pen=pen, name=self.tr("base {0}").format(format_rope_base(b)))
        self.decay.plot(dist, curves[-1], pen=pg.mkPen((214, 96, 77), width=2),
                        name=self.tr("this base {0}").format(format_rope_base(base)))
        self.decay_info.setText(self.tr(
            "At distance 0 the score is 1; it falls, with ripples, as the tokens move apart, "
            "and more slowly for a larger base (d = {0}).").format(d))

    def _show_order(self) -> None:
        result = self.model.result
        if result is None:
            return
        s = result.state
        if self._perm is None:
            self.order_info.setText(self.tr("Click “Shuffle tokens” to permute the tokens of "
                                            "X."))
            return
        w = s.heads[s.head_index(self.model.current_head)]
        X = s.X
        plain = permutation_check(X, w, self._perm)
        order = join_list(token_in_text(s.tokens[p]) for p in self._perm)
        text = self.tr("New order: {0}. Without positions: max |out(shuffled X) − shuffled "
                       "out| = {1}, the same outputs, shuffled alike.").format(
            order, format_value(plain))
        if s.d_k % 2 == 0:
            rotated = permutation_check(X, w, self._perm, positions="rope",
                                        rope_base=s.options.rope_base,
                                        rope_pairing=s.options.rope_pairing)
            text = join_sentences([text, self.tr(
                "With RoPE: {0}, the order changes the outputs.").format(format_value(rotated))])
        self.order_info.setText(text)
