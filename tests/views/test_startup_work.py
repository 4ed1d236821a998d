"""Work start-up no longer does (issue 20), counted, never timed."""

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget

from qkv_desktop.views import zoom


@pytest.fixture
def polish_spy(monkeypatch):
    """Every ``setStyleSheet`` a window's construction makes, by widget object name."""
    calls: list[str] = []
    original = QWidget.setStyleSheet

    def spy(widget, sheet):
        calls.append(widget.objectName())
        original(widget, sheet)

    monkeypatch.setattr(QWidget, "setStyleSheet", spy)
    return calls


def test_a_window_at_100_percent_polishes_its_style_sheets_once(make_window, polish_spy):
    base = QApplication.font()
    window = make_window()
    assert window.view_scale.zoom == 1.0 and QApplication.font() == base
    # each widget under a style sheet set it once: the zoom re-polished none of them
    assert polish_spy.count("editorTabs") == 1


def test_a_saved_zoom_still_scales_a_new_window(make_window, app_dirs, polish_spy):
    path = app_dirs / "zoomed.ini"
    saved = QSettings(str(path), QSettings.Format.IniFormat)
    saved.setValue(zoom.SETTINGS_KEY, 1.25)
    saved.sync()
    base = QApplication.font().pointSizeF()
    window = make_window(settings_path=path)
    try:
        assert window.view_scale.zoom == 1.25
        assert QApplication.font().pointSizeF() == pytest.approx(base * 1.25)
        assert window.tabs.font().pointSizeF() == pytest.approx(base * 1.25)  # a style sheet's
        assert polish_spy.count("editorTabs") == 2  # set, then polished again at 125 %
    finally:
        window.view_scale.set_zoom(1.0)
    assert QApplication.font().pointSizeF() == pytest.approx(base)
