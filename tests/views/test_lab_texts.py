"""What the labs write, read as a learner reads it (issue 18): counts in the singular
and the plural, numbers by the app's one rule, arithmetic that adds up as shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from qkv_desktop.state import SessionState
from qkv_desktop.views import i18n


@pytest.fixture
def speak(qapp):
    """``speak(lang)`` installs that language as the app does; English afterwards."""
    def install(lang):
        i18n.install_translators(qapp, lang)
        QCoreApplication.sendPostedEvents()
    yield install
    install("en")


@pytest.fixture
def kv_lab(main_window):
    main_window.model.load_state(SessionState.from_preset("tutorial-1"), "preset")
    assert main_window.model.wait_until_idle()
    lab = main_window.run_labs.show("kv_cache")
    yield lab
    lab.close()
    lab.deleteLater()
    main_window.run_labs.windows.clear()


def test_the_kv_cache_counts_one_row_and_two_rows(kv_lab, speak):
    speak("en")
    kv_lab.go_to(0)
    assert kv_lab.grids["K"].title == "K cache: 1 row (+1)"
    assert kv_lab.grids["V"].title == "V cache: 1 row (+1)"
    kv_lab.go_to(1)
    assert kv_lab.grids["K"].title == "K cache: 2 rows (+1)"
    speak("zh_CN")
    kv_lab.go_to(0)
    assert kv_lab.grids["K"].title == "K 缓存：1 行（+1）"


def test_the_gradient_lab_trains_one_step_or_many(main_window, speak):
    speak("en")
    lab = main_window.run_labs.show("gradients")
    lab.steps.setValue(1)
    assert lab.train_button.text() == "Train 1 step"
    lab.steps.setValue(200)
    assert lab.train_button.text() == "Train 200 steps"
    lab.close()
