"""Same-size panes hide their values alike, and say so whenever they do.

The "values hidden" note under a pane takes a line from its plot. Fitted to the plot
as it was, the decision held itself either way where the cells' height decides: values
shown (no note) fitted the taller cells; hidden, the note made the cells too short for
them. Which one a pane showed depended on its history, not its size: SmolLM2's 5×5
weights hidden beside panes of the same size showing theirs at 1366×768, X hidden
beside X_kv. The values are fitted to the plot with the note shown, so the pane's
size alone decides."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane


def settle(*panes) -> None:
    """Until every plot has refitted its values to its last size (a note shown or
    hidden resizes the plot once more)."""
    for _ in range(8):
        QApplication.processEvents()
    for _ in range(50):
        if not any(p.plot._resize_timer.isActive() for p in panes):
            return
        QApplication.processEvents()


@pytest.fixture
def two_panes(qtbot):
    model = AttentionModel(SessionState.from_preset("random-medium"))  # 12 tokens
    hosts, panes = [], []
    for _ in range(2):
        host = QWidget()
        qtbot.addWidget(host)
        pane = HeatmapPane(model, "weights", host)
        QVBoxLayout(host).addWidget(pane)
        host.resize(700, 500)
        host.show()
        qtbot.waitExposed(host)
        hosts.append(host)
        panes.append(pane)
    assert model.wait_until_idle()
    settle()
    yield hosts, panes
    model.shutdown()


def test_a_panes_size_alone_decides_whether_its_values_show(two_panes):
    (tall, narrow), (a, b) = two_panes
    width, seen = 700, set()
    for height in range(330, 150, -3):
        tall.resize(width, 600)  # a: values shown, no note
        narrow.resize(150, height)  # b: values hidden, the note shown
        settle(a, b)
        assert not a.plot.values_hidden and b.plot.values_hidden
        tall.resize(width, height)
        narrow.resize(width, height)
        settle(a, b)
        for pane in (a, b):  # hidden values are always said, shown ones drawn
            assert pane.values_note.isVisible() == pane.plot.values_hidden, height
            if not pane.plot.values_hidden:
                pane.grab()
                assert pane.overlay.labels_drawn > 0, height
        assert a.plot.values_hidden == b.plot.values_hidden, height
        seen.add(a.plot.values_hidden)
    assert seen == {False, True}  # heights where they show and where they hide
