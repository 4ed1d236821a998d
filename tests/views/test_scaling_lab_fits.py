"""The scaling lab at a laptop's screen (issue 18): every plot whole, titles and axis
names not cut, d_k tick labels apart, in English and in Chinese.

Read from the geometry: each plot can be scrolled fully into view and is no narrower
than the plot it draws (pyqtgraph crops a plot item wider than its view: curves and
title alike); the tick labels pyqtgraph places (``AxisItem.generateDrawSpecs``) do
not overlap.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication

SCREENS = [(1024, 700), (1366, 768), (1920, 1080)]


def _tick_labels(axis):
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _flags, text in texts]


def _problems(lab) -> list[str]:
    problems = []
    view = lab.body.viewport()
    page = lab.tabs.currentWidget()
    plots = [p for p in (*lab.random_plots.plots.values(), *lab.session_plots.plots.values(),
                         *lab.score_bars.plots) if page.isAncestorOf(p)]
    assert plots
    for plot in plots:
        name = f"{lab.tabs.tabText(lab.tabs.currentIndex())}/{plot.objectName()}"
        # QScrollArea.ensureWidgetVisible aims at a graphics view's input cursor: centre it
        centre = plot.mapTo(lab.body.widget(), plot.rect().center())
        lab.body.ensureVisible(centre.x(), centre.y(), plot.width() // 2 + 1,
                               plot.height() // 2 + 1)
        QApplication.processEvents()
        shown = plot.viewport()  # covers the graphics view itself
        if shown.visibleRegion().boundingRect() != shown.rect():
            problems.append(f"{name}: not wholly on screen even scrolled "
                            f"({shown.visibleRegion().boundingRect()} of {shown.rect()}, "
                            f"view {view.size()})")
        item = plot.getPlotItem()
        if item.size().width() > plot.viewport().width() + 0.5:
            problems.append(f"{name}: plot {item.size().width():.0f} px wide cropped to "
                            f"{plot.viewport().width()}")
        title = item.titleLabel
        if QFontMetricsF(title.item.font()).horizontalAdvance(title.text) > plot.width():
            problems.append(f"{name}: title {title.text!r} cut")
        left = item.getAxis("left")
        if left.label.isVisible() and left.label.boundingRect().width() > left.size().height():
            problems.append(f"{name}: axis name {left.labelText!r} longer than its axis")
        labels = _tick_labels(item.getAxis("bottom"))
        if len(labels) < min(4, len(item.getAxis("bottom")._tickLevels[0])):
            problems.append(f"{name}: only {[t for _r, t in labels]} on the x axis")
        for k, (a, ta) in enumerate(labels):
            for b, tb in labels[k + 1:]:
                if a.intersects(b):
                    problems.append(f"{name}: tick labels {ta!r} and {tb!r} overlap")
    return problems


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_scaling_lab_fits_and_reads_on_a_laptop_screen(scaling_lab_at, screen, lang):
    lab = scaling_lab_at(screen, lang)
    assert lab.width() <= screen[0] and lab.height() <= screen[1]
    problems = []
    for tab in range(lab.tabs.count()):
        lab.tabs.setCurrentIndex(tab)
        QApplication.processEvents()
        problems += _problems(lab)
    assert not problems, "\n".join(problems)


def test_narrow_plots_stack_and_wide_ones_stand_side_by_side(scaling_lab_at):
    lab = scaling_lab_at((1920, 1080), "en")
    plots = lab.random_plots
    assert plots.columns == 4, (plots.width(), plots.plot_width(), plots.columns_for(plots.width()))
    lab.resize(900, 640)
    QApplication.processEvents()
    assert plots.columns == 2
    assert not _problems(lab)


def _axis_name_rect(plot, side: str) -> QRectF:
    """Where ``plot``'s ``side`` axis writes its name, in its viewport's coordinates: the
    text item's box less its document margin (the glyphs' line box), rotated as drawn."""
    label = plot.getPlotItem().getAxis(side).label
    margin = label.document().documentMargin()
    box = label.boundingRect().adjusted(margin, margin, -margin, -margin)
    return QRectF(plot.mapFromScene(label.mapRectToScene(box)).boundingRect())


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_random_sweep_axis_names_are_on_screen_at_1366x768(scaling_lab_at, lang):
    """At 1366 × 768 the lab's first size showed the lower plots' "d_k (log scale)" under
    the fold: the seed and keys stood on two rows and the page scrolled by 18 px. Every
    axis name of the "Random q, k" tab is now inside the part of its plot on screen,
    without scrolling, at the lab's first size and with the lab as large as the screen."""
    lab = scaling_lab_at((1366, 768), lang)
    assert lab.tabs.currentIndex() == 0
    for size in (lab.size(), QSize(1366, 768)):
        lab.resize(size)
        QApplication.processEvents()
        problems = []
        for stat, plot in lab.random_plots.plots.items():
            shown = QRectF(plot.viewport().visibleRegion().boundingRect())
            for side in ("left", "bottom"):
                rect = _axis_name_rect(plot, side)
                if not shown.adjusted(-1, -1, 1, 1).contains(rect):
                    problems.append(f"{stat} {side} axis name at {rect.getRect()} outside the "
                                    f"shown {shown.getRect()} of the plot")
        assert not problems, (size, problems)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_normal_notation_is_never_split_over_two_lines(scaling_lab_at, lang):
    """At 1024 × 700 the line under the random plots wrapped inside "N(0, 1)", leaving
    "N(0," at a line's end: the notation is laid out on one line, as a reader needs."""
    from PySide6.QtGui import QTextLayout, QTextOption

    lab = scaling_lab_at((1024, 700), lang)
    label = lab.trials_label
    assert label.wordWrap()
    text = label.text()
    start = text.index("N(0,")
    end = text.index(")", start) + 1
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    for width in (label.contentsRect().width(), *range(120, 400, 7)):  # and at any width
        layout = QTextLayout(text, label.font())
        layout.setTextOption(option)
        layout.beginLayout()
        lines = []
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            lines.append((line.textStart(), line.textStart() + line.textLength()))
        layout.endLayout()
        holding = [k for k, (a, b) in enumerate(lines) if a < end and b > start]
        assert len(holding) == 1, (width, [text[a:b] for a, b in lines])


def test_the_scores_table_copies_as_rows_of_cells(scaling_lab_at, qtbot):
    """A drag over the Scores tab's table and Ctrl+C gave one cell a line, with the
    cells' minus signs (a re-checking user): a row is a line, its cells a tab apart, and
    its numbers read as numbers ("-0.5")."""
    from PySide6.QtGui import QTextDocument
    lab = scaling_lab_at((1366, 768), "en")
    lab.tabs.setCurrentIndex(2)
    QApplication.processEvents()
    table = lab.score_bars.table
    document = QTextDocument()
    document.setHtml(table.text())
    table.setFocus()
    table.setSelection(0, document.characterCount() - 1)
    qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QApplication.clipboard().text().split("\n")
    widths = {len(line.split("\t")) for line in lines}
    assert len(lines) >= 3 and len(widths) == 1 and widths != {1}, lines
    numbers = [cell for line in lines[1:] for cell in line.split("\t")[1:]]
    for cell in numbers:
        float(cell.rstrip("%"))
