from PySide6.QtWidgets import QApplication


def test_presentation_mode_gives_the_lab_windows_their_sizes_back(main_window, run_labs):
    """A learner with the KV-cache stepper open pressed F5 and F5 again: the larger font
    widened the lab from 981 to 1274 px, past a 1024 px screen, and it stayed so, its
    Export buttons and its red line cut at the screen's edge (a first-time user)."""
    window = main_window
    window.view_scale.set_zoom(1.0)
    lab = run_labs.show("kv_cache")
    lab.resize(981, 640)
    QApplication.processEvents()
    before = lab.size()
    window.view_scale.enter_presentation()
    QApplication.processEvents()
    grown = lab.size()
    window.view_scale.leave_presentation()
    for _ in range(5):
        QApplication.processEvents()
    assert grown != before  # (the font did widen it)
    assert lab.size() == before
