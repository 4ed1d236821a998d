"""The grid's columns settle: a window left alone lays its panes out once.

Found by a first-time user at 1366×768 in Chinese: zoom 125 %, then the causal mask
(a ninth pane); the grid flipped between two and three columns for ever, at 92 % of a
core, row labels and values coming and going and the "values hidden" note drawn over
the x-axis ticks, until Ctrl+0.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QElapsedTimer
from PySide6.QtWidgets import QApplication

from qkv_desktop.views import i18n
from qkv_desktop.views.panes.pane_grid import HEADS_KEY

FIRST_RUN_1366 = (1256, 706)
"""The size a first start takes on a 1366×768 screen (``fit_to_screen``)."""


@pytest.fixture
def language(qapp):
    def speak(lang: str) -> None:
        i18n.install_translators(qapp, lang)
        QApplication.processEvents()
    yield speak
    i18n.install_translators(qapp, "en")
    QApplication.processEvents()


def idle(window, ms: int) -> None:
    """Process events for ``ms`` milliseconds, as a window left alone does."""
    assert window.model.wait_until_idle()
    clock = QElapsedTimer()
    clock.start()
    while clock.elapsed() < ms:
        QApplication.processEvents()


def layouts_while_idle(window, ms: int = 1000) -> list[int]:
    """The columns of each layout the grid makes in ``ms`` ms of a window left alone."""
    grid = window.panes
    columns: list[int] = []
    record = lambda: columns.append(grid._fit_columns)  # noqa: E731
    grid.layoutChanged.connect(record)
    try:
        idle(window, ms)
    finally:
        grid.layoutChanged.disconnect(record)
    return columns


def values_shown(window) -> set[str]:
    grid = window.panes
    return {k for k in grid.shown() if k != "heads"
            and grid.panes[k].plot.overlay.value_font is not None}


@pytest.mark.parametrize("lang, zoom", [("zh_CN", 1.25), ("en", 1.25), ("zh_CN", 1.0)])
def test_the_causal_mask_after_a_zoom_lays_the_grid_out_once(main_window, language,
                                                             lang, zoom):
    window = main_window
    language(lang)
    window.resize(*FIRST_RUN_1366)
    try:
        window.view_scale.set_zoom(zoom)
        idle(window, 300)
        window.controls.causal.setChecked(True)
        idle(window, 300)  # the ninth pane's first layout, its chrome measured
        assert layouts_while_idle(window) == []
        settled = (window.panes._fit_columns, values_shown(window))
        for pane in (window.panes.panes[k] for k in window.panes.shown() if k != "heads"):
            # no note squeezed over the axis: every pane has its minimum height
            assert pane.height() >= pane.minimumSizeHint().height(), pane.key
        # the same state again, by another way there: the same layout (no history)
        window.controls.causal.setChecked(False)
        idle(window, 300)
        window.view_scale.set_zoom(1.0)
        idle(window, 300)
        window.view_scale.set_zoom(zoom)
        idle(window, 300)
        window.controls.causal.setChecked(True)
        idle(window, 300)
        assert layouts_while_idle(window) == []
        assert (window.panes._fit_columns, values_shown(window)) == settled
    finally:
        window.controls.causal.setChecked(False)
        window.view_scale.set_zoom(1.0)
        window.resize(1400, 900)
        idle(window, 200)


def settled(window, ms: int = 1000, tries: int = 10) -> None:
    """Idle until the grid makes no layout for ``ms`` ms (a few while the panes measure)."""
    for _ in range(tries):
        if not layouts_while_idle(window, ms):
            return
    raise AssertionError(f"the grid still lays itself out after {tries * ms} ms idle")


def test_three_heads_of_d_k_2_in_chinese_lay_the_grid_out_for_good(make_window):
    """Chinese on a 1366×768 screen, d_k = 2 then h = 3 typed in the editor: the grid
    flipped between two and three columns for ever (each layout measured the panes, and
    the concatenation's column names turned upright in three columns, so each found the
    other better), values coming and going, some panes with neither their values nor
    the note saying they are hidden, at 40 % of a core (a first-time user)."""
    window = make_window(size=FIRST_RUN_1366)
    window.language_actions["zh_CN"].trigger()
    try:
        idle(window, 300)
        window.controls.d_k.setValue(2)
        idle(window, 300)
        window.controls.heads.setValue(3)
        assert (window.model.state.n_heads, window.model.state.d_k) == (3, 2)
        settled(window)
        grid = window.panes
        assert "concat" in grid.shown() and HEADS_KEY in grid.shown()
        columns = grid._fit_columns
        assert layouts_while_idle(window, 3000) == []
        assert grid._fit_columns == columns
        for key in (k for k in grid.shown() if k != HEADS_KEY):
            pane = grid.panes[key]
            shows = pane.plot.overlay.value_font is not None
            # its values, or the note that says they are hidden: one of the two
            assert shows != pane.values_note.isVisibleTo(pane), key
            assert pane.height() >= pane.minimumSizeHint().height(), key
    finally:
        window.language_actions["en"].trigger()
