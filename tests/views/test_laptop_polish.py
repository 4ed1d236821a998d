"""What first-time users met on a laptop in the real window, the second session: the
hint banner cut at 1024×700, the "values hidden" note, pane widths, token names left
out of an axis."""

from __future__ import annotations

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
