"""Fixtures for widget tests: a main window on a throw-away settings file and data folder."""

import pytest
from PySide6.QtCore import QCoreApplication, QRect, QSettings
from PySide6.QtWidgets import QApplication

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views import i18n
from qkv_desktop.views.main_window import MainWindow


@pytest.fixture
def app_dirs(tmp_path, monkeypatch):
    """Autosave, locks and logs go to ``tmp_path``, never to the user's folders."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture
def make_window(qtbot, app_dirs):
    """``make_window(state=None, settings_path=None, size=(1400, 900))`` → a shown window."""

    def make(state: SessionState | None = None, settings_path=None, size=(1400, 900),
             show: bool = True) -> MainWindow:
        path = str(settings_path or app_dirs / "settings.ini")
        settings = QSettings(path, QSettings.Format.IniFormat)
        model = AttentionModel(state or SessionState.from_preset("tutorial-1"))
        window = MainWindow(model, settings)
        window.files.maybe_save = lambda: True  # no "unsaved changes" dialog on close
        qtbot.addWidget(window)
        if size is not None:
            window.resize(*size)
        if show:
            window.show()
            qtbot.waitExposed(window)
        assert model.wait_until_idle()
        return window

    return make



@pytest.fixture(scope="module")
def _module_window(qapp, tmp_path_factory):
    """One window per test module: building one takes seconds (dozens of plots)."""
    folder = tmp_path_factory.mktemp("window")
    patch = pytest.MonkeyPatch()
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        patch.setenv(name, str(folder / name.lower()))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(AttentionModel(SessionState.from_preset("tutorial-1")), settings)
    window.files.maybe_save = lambda: True
    window.resize(1400, 900)
    window.show()
    yield window
    window.close()
    window.model.shutdown()
    window.deleteLater()
    qapp.processEvents()
    patch.undo()


@pytest.fixture
def main_window(_module_window, qtbot):
    """The module's window, back on tutorial-1 with an empty history and no hover."""
    window = _module_window
    model = window.model
    model.reset(SessionState.from_preset("tutorial-1"))
    model.set_current_head(0)
    window.editor.clearSelection()
    window.editor.setCurrentIndex(window.editor.table.index(-1, -1))
    window.statusBar().clearMessage()
    qtbot.waitExposed(window)
    _cursor_off(window)
    assert model.wait_until_idle()
    return window


def _cursor_off(window) -> None:
    """The cursor away from the window, where no earlier test left it: a pane under the
    cursor hovers the cell there when a result comes (``HeatmapPane``), and its links
    then repaint other panes (test_cross leaves it over K: X's row outlined)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QCursor
    from PySide6.QtTest import QTest
    corner = window.screen().geometry().bottomRight() - QPoint(1, 1)
    QCursor.setPos(corner)
    QTest.mouseMove(window, window.mapFromGlobal(corner))  # Qt's Leave for the panes
    window.model.set_hover(None)


@pytest.fixture
def run_labs(main_window):
    """The lab windows of the shared main window, on a 12-token causal session; every
    test starts with new labs."""
    main_window.model.load_state(SessionState.from_preset("random-medium"), "preset")
    main_window.model.set_options(causal=True)
    assert main_window.model.wait_until_idle()
    yield main_window.run_labs
    for lab in main_window.run_labs.windows.values():
        lab.close()
        lab.deleteLater()
    main_window.run_labs.windows.clear()


@pytest.fixture
def speak(qapp):
    """``speak(lang)`` installs that language as the app does; English afterwards."""
    def install(lang):
        i18n.install_translators(qapp, lang)
        QCoreApplication.sendPostedEvents()
    yield install
    install("en")


@pytest.fixture
def scaling_lab_at(qtbot, qapp, monkeypatch):
    """``scaling_lab_at(screen, lang)``: a scaling lab opened, at its first size, on a
    screen of that available size, in that language (English again afterwards)."""

    def make(screen, lang):
        w, h = screen
        monkeypatch.setattr(type(QApplication.primaryScreen()), "availableGeometry",
                            lambda self: QRect(0, 0, w, h))
        i18n.install_translators(qapp, lang)
        QCoreApplication.sendPostedEvents()
        from qkv_desktop.views.teaching.scaling_lab import ScalingLab
        lab = ScalingLab(AttentionModel(SessionState.from_preset("tutorial-1")))
        qtbot.addWidget(lab)
        lab.show()
        qtbot.waitExposed(lab)
        QApplication.processEvents()
        return lab

    yield make
    i18n.install_translators(qapp, "en")
    QCoreApplication.sendPostedEvents()
