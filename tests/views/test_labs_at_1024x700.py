"""The scaling and gradient labs as a first user saw them at 1024 × 700 (and 1366 × 768).

* The scaling lab's "Scores" tab, opened first, laid its bars out 859 px high in a
  594 px view: only their tops showed (the y axis read 0.3 … 0.55) and the table was
  below the fold; after a red line had appeared once the same tab fitted. Its tab
  widget asked for the height of the tallest page, a page never shown among them.
* The "Random q, k" and "This session" tabs scrolled by 84 px, and the Jacobian plot's
  rotated axis name read "g(p) − ppᵀ‖ per row" until scrolled.
* The gradient lab's comparison table broke a header inside its formula ("‖∂L/" over
  "∂W_Q‖₀"), and after a run it lay below the fold, "start" of its headers cut.

Read from the geometry, not from pictures: a tab fits when its scroll area has nothing
to scroll; an axis name is whole when its glyphs lie inside the plot's part on screen
and along its axis; a header is whole when its cell breaks it only at spaces and the
label holding the table is as high as the table.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTextDocument, QTextOption, QTextTable
from PySide6.QtWidgets import QApplication

from tests.views.plot_geometry import axis_texts

LANGS = ["en", "zh_CN"]
SCREENS = [(1024, 700), (1366, 768)]


def _settle():
    for _ in range(3):
        QApplication.processEvents()


def _on_screen(widget) -> bool:
    return widget.visibleRegion().boundingRect() == widget.rect()


def _name_rect(plot, side: str) -> QRectF:
    """The glyphs of ``plot``'s ``side`` axis name, in its viewport's coordinates."""
    label = plot.getPlotItem().getAxis(side).label
    margin = label.document().documentMargin()
    box = label.boundingRect().adjusted(margin, margin, -margin, -margin)
    return QRectF(plot.mapFromScene(label.mapRectToScene(box)).boundingRect())


def _axis_problems(plot, where: str) -> list[str]:
    """The axis names of ``plot`` cut by what is on screen, longer than their axis, or
    over the tick labels."""
    problems = []
    shown = QRectF(plot.viewport().visibleRegion().boundingRect()).adjusted(-1, -1, 1, 1)
    item = plot.getPlotItem()
    for side in ("left", "bottom"):
        axis = item.getAxis(side)
        if not axis.label.isVisible():
            continue
        rect = _name_rect(plot, side)
        if not shown.contains(rect):
            problems.append(f"{where}: {side} axis name {axis.labelText!r} at "
                            f"{rect.getRect()} outside the shown {shown.getRect()}")
        along = QRectF(plot.mapFromScene(axis.sceneBoundingRect()).boundingRect())
        if side == "left" and not (along.top() - 1 <= rect.top()
                                   and rect.bottom() <= along.bottom() + 1):
            problems.append(f"{where}: left axis name {axis.labelText!r} "
                            f"({rect.height():.0f} px) longer than its axis "
                            f"({along.height():.0f} px)")
        for text, tick in axis_texts(axis):
            tick = QRectF(plot.mapFromScene(axis.mapRectToScene(tick)).boundingRect())
            if tick.adjusted(1, 1, -1, -1).intersects(rect):
                problems.append(f"{where}: {side} axis name {axis.labelText!r} over the "
                                f"tick label {text!r}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_scores_tab_opened_first_fits_with_its_bars_from_0(scaling_lab_at, screen, lang):
    lab = scaling_lab_at(screen, lang)
    lab.tabs.setCurrentIndex(2)  # the "This session" page never shown before
    _settle()
    bars = lab.score_bars
    assert lab.body.verticalScrollBar().maximum() == 0, (
        lab.body.widget().height(), lab.body.viewport().height())
    for k, plot in enumerate(bars.plots):
        assert _on_screen(plot.viewport()), (k, plot.viewport().visibleRegion().boundingRect())
        low, high = plot.getPlotItem().getViewBox().viewRange()[1]
        assert low <= 0 < max(bars.bars[k]) <= high, (k, low, high)
        assert not _axis_problems(plot, f"bars_{k}")
    assert _on_screen(bars.table)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sweep_tabs_fit_with_their_axis_names_whole(scaling_lab_at, screen, lang):
    lab = scaling_lab_at(screen, lang)
    problems = []
    for tab, plots in ((0, lab.random_plots), (1, lab.session_plots)):
        lab.tabs.setCurrentIndex(tab)
        _settle()
        scroll = lab.body.verticalScrollBar().maximum()
        if scroll:
            problems.append(f"tab {tab} scrolls by {scroll} px")
        for stat, plot in plots.plots.items():
            if not _on_screen(plot.viewport()):
                problems.append(f"tab {tab}/{stat} not wholly on screen")
            problems += _axis_problems(plot, f"tab {tab}/{stat}")
    assert not problems, "\n".join(problems)


def _laid_out_table(label) -> tuple[QTextDocument, QTextTable]:
    """``label``'s text laid out as the word-wrapped label lays it out, at its width,
    and the table in it."""
    doc = QTextDocument()
    option = QTextOption()  # a word-wrapped QLabel's
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)  # (a QLabel's own)
    doc.setHtml(label.text())
    doc.setTextWidth(label.contentsRect().width())
    doc.size()  # laid out
    return doc, next(f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable))


def _header_lines(label) -> list[list[str]]:
    """The lines each header cell of ``label``'s table is laid out in, at its width."""
    _doc, table = _laid_out_table(label)
    cells = []
    for column in range(table.columns()):
        cell = table.cellAt(0, column)
        block = cell.firstCursorPosition().block()
        lines = []
        while block.isValid() and block.position() < cell.lastCursorPosition().position() + 1:
            layout = block.layout()
            text = block.text()
            lines += [text[line.textStart():line.textStart() + line.textLength()]
                      for line in (layout.lineAt(i) for i in range(layout.lineCount()))]
            block = block.next()
        cells.append(lines)
    return cells


def _between_chinese_characters(line: str) -> bool:
    """Whether ``line`` ends where Chinese breaks a line (after a character of it)."""
    return line[-1:].isalpha() and not line[-1:].isascii()


def _compared_at_1024x700(run_labs, speak, lang):
    """The gradient lab at its size on a 1024 × 700 screen, in ``lang``, after a short
    comparison of the runs."""
    from qkv_desktop.views.layout import fit_to_free

    speak(lang)
    lab = run_labs.show("gradients")
    lab.resize(*fit_to_free((1250, 860), (1024, 700)))  # the lab's size on that screen
    lab.tabs.setCurrentIndex(1)
    lab.run_comparison_blocking(3)
    _settle()
    return lab


@pytest.mark.parametrize("lang", LANGS)
def test_the_comparison_table_headers_are_whole(run_labs, speak, lang):
    lab = _compared_at_1024x700(run_labs, speak, lang)
    table = lab.compare_table
    assert table.height() >= table.heightForWidth(table.width())
    problems = []
    for lines in _header_lines(table):
        for line in lines[:-1]:  # ("‖∂L/" over "∂W_Q‖₀")
            if not line.endswith(" ") and not _between_chinese_characters(line):
                problems.append(f"header {''.join(lines)!r} broken inside a word: {lines}")
    assert not problems, "\n".join(problems)
    # the run's plots and table in view together, without scrolling
    for d, plot in lab.compare_plots.items():
        assert _on_screen(plot.viewport()), (d, plot.viewport().visibleRegion().boundingRect())
    assert _on_screen(table), (table.visibleRegion().boundingRect(), table.rect())


def _dark_runs(values: list[int], dark: int = 235) -> list[int]:
    """The lengths of the runs of ``values`` darker than ``dark``, in order."""
    runs, length = [], 0
    for value in [*values, 255]:
        if value < dark:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


@pytest.mark.parametrize("lang", LANGS)
def test_a_turned_norms_bars_read_as_two_strokes(scaling_lab_at, lang):
    """A user's re-check at 1024 × 700: the "‖" of the Jacobian plot's turned name
    ("‖diag(p) − ppᵀ‖ per row") read as one filled bar. The name draws two "|" and no
    "‖", and across its first bars the picture shows two strokes with light between."""
    lab = scaling_lab_at((1024, 700), lang)
    lab.tabs.setCurrentIndex(0)
    _settle()
    plot = lab.random_plots.plots["jacobian_norm"]
    label = plot.getPlotItem().getAxis("left").label
    # the pixels along the name's (turned) line, from where its first bars begin to
    # where "diag" begins
    document = label.document()
    text = document.toPlainText()
    first = min(text.find(bar) for bar in "|‖" if bar in text)
    block = document.findBlock(first)
    line = block.layout().lineForTextPosition(first - block.position())
    origin = block.layout().position()
    xs = [origin.x() + line.cursorToX(at - block.position())[0]
          for at in (first, text.index("diag"))]
    ys = (origin.y() + line.y(), origin.y() + line.y() + line.height())
    ends = [plot.mapFromScene(label.mapToScene(QPointF(x, y))) for x in xs for y in ys]
    picture = plot.grab().toImage()
    left, right = min(p.x() for p in ends), max(p.x() for p in ends)
    bottom, top = max(p.y() for p in ends[:2]), min(p.y() for p in ends[2:])
    across = [min(picture.pixelColor(x, y).value() for x in range(left, right + 1))
              for y in range(bottom, top - 1, -1)]
    assert len(_dark_runs(across)) == 2, across
    drawn = text.replace("\u2060", "")
    assert "‖" not in drawn and drawn.count("||") == 2, drawn


def _body_row_heights(label) -> list[float]:
    """The heights of the rows of ``label``'s table below its header, laid out at its
    width: from each row's top to the next one's (all but the last row)."""
    doc, table = _laid_out_table(label)
    layout = doc.documentLayout()
    tops = [min(layout.blockBoundingRect(table.cellAt(row, column).firstCursorPosition()
                                         .block()).top() for column in range(table.columns()))
            for row in range(table.rows())]
    return [below - above for above, below in zip(tops[1:-1], tops[2:], strict=True)]


@pytest.mark.parametrize("zoom", [1.0, 1.25])
@pytest.mark.parametrize("lang", LANGS)
def test_the_comparison_tables_rows_are_equally_high(run_labs, speak, lang, zoom):
    """In Chinese the rows of "无" (none) stood 4 px higher than those of "÷√d_k": a
    line is as high as the font of its glyphs, and 无 comes from a Chinese font (a
    re-checking user). Every row is as high as the others, at any font (a zoom)."""
    from PySide6.QtGui import QFont

    lab = _compared_at_1024x700(run_labs, speak, lang)
    if zoom != 1.0:  # (after the run: the table follows a new font)
        font = QFont(lab.font())
        font.setPointSizeF(font.pointSizeF() * zoom)
        lab.setFont(font)
        _settle()
    table = lab.compare_table
    assert {run.scaled for run in lab.runs} == {True, False}  # both kinds of row
    heights = _body_row_heights(table)
    assert len(heights) == len(lab.runs) - 1 and len(set(heights)) == 1, heights
    assert table.height() >= table.heightForWidth(table.width())
