"""The pane grid on a 1024 × 700 laptop with ALiBi on: five rows of panes, every one of
them whole (its column axis included) in the grid's room, with its values shown.

With a plot at least 100 px high the five rows needed 644 px in Chinese, 22 more than
the room: the output pane's token names were cut at the bottom until scrolled to
(found by a first-time user)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from qkv_desktop.core import alibi_slopes


def settle(window):
    assert window.model.wait_until_idle()
    for _ in range(5):
        QApplication.processEvents()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("causal", [False, True])  # nine panes, or ten with the mask's
def test_every_pane_is_whole_at_1024x700_with_alibi(make_window, lang, causal):
    window = make_window(size=(1024, 700))
    window.language_actions[lang].trigger()
    try:
        window.model.set_options(alibi=tuple(float(m) for m in alibi_slopes(1)),
                                 causal=causal)
        settle(window)
        grid = window.panes
        shown = grid.shown()
        assert "bias" in shown and len(shown) == 9 + causal
        rows = -(-len(shown) // grid._fit_columns)
        assert rows == 5, grid._fit_columns  # the case found: five rows of panes
        viewport = grid.parentWidget()
        room = viewport.rect()
        for key in shown:
            pane = grid.panes[key]
            rect = QRect(pane.mapTo(viewport, pane.rect().topLeft()), pane.size())
            assert room.contains(rect), (key, rect, room)
            plot = pane.plot
            axis = plot.getPlotItem().getAxis("bottom")
            seen = plot.mapFromScene(axis.sceneBoundingRect()).boundingRect()
            # (the axis item reaches sideways past the plot: only its height counts)
            assert 0 <= seen.top() and seen.bottom() <= plot.rect().bottom(), (key, seen)
            if key != "X":  # X's eight columns hide their values at this width
                assert not plot.values_hidden, key
    finally:
        window.language_actions["en"].trigger()
