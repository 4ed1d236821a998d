"""What first-time users met on a laptop in the real window, the second session: the
hint banner cut at 1024×700, the "values hidden" note, pane widths, token names left
out of an axis."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from qkv_desktop.state import SessionState
from qkv_desktop.views import i18n
from qkv_desktop.views.teaching.lesson_banners import LessonBanners
from tests.views.sessions import settle


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    i18n.install_translators(qapp, request.param)
    QApplication.processEvents()
    yield request.param
    i18n.install_translators(qapp, "en")
    QApplication.processEvents()


@pytest.mark.parametrize("size", [(942, 644), (1256, 706), (1600, 993)])
def test_the_hint_banner_reads_whole_at_laptop_widths(make_window, language, size):
    """942×644 and 1256×706 are the first-run windows on 1024×700 and 1366×768 screens:
    there the sentence was cut ("…, and click a cell to have it e…"); a shorter wording
    now shows whole, and the tool tip has the whole sentence."""
    window = make_window(SessionState.from_preset("tutorial-2"), size=size)
    settle(window)
    hint = window.findChild(LessonBanners).hint
    assert hint.isVisible()
    label = hint.headline
    assert not label.is_elided(), label.shown_text()
    assert "…" not in label.shown_text()
    if label.is_shortened():
        assert label.text() in label.toolTip()


def _long_state(n: int, d_model: int = 8, d_k: int = 4) -> SessionState:
    rng = np.random.default_rng(3)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, d_model)), d_k=d_k)


@pytest.mark.parametrize("n", [1024, 96])
def test_every_pane_without_values_says_so_by_one_rule(make_window, n):
    """At n = 1024 (d = 8, d_k = 4) only Q, K, V and the output (4096 cells each) said
    "values hidden": X (8192 cells) and the n × n panes, which show no value either,
    said nothing, because the note followed the cells that could have had values. Now
    each pane without values says so, and its tool tip says how to read them."""
    window = make_window(_long_state(n), size=(1256, 706))
    settle(window)
    shown = [window.panes.panes[k] for k in window.panes.shown()]
    for pane in shown:
        assert pane.plot.values_hidden, pane.key
        assert pane.values_note.isVisibleTo(window), pane.key
        assert pane.values_note.text() == "values hidden: hover a cell"
        assert "Hover a cell" in pane.values_note.toolTip()
