"""The diagnostics table's column headers are readable in a narrow dock (1024 px screen).

With stretched sections the five columns shared the width equally and the headers were
cut at both ends ("ntropy H (nats", "ttends most t")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState
from qkv_desktop.views.teaching.diagnostics import DiagnosticsPanel


@pytest.mark.parametrize("width", [300, 340, 420])
def test_every_header_fits_its_section(qtbot, width):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    panel = DiagnosticsPanel(model)
    qtbot.addWidget(panel)
    panel.resize(width, 400)
    panel.show()
    qtbot.waitExposed(panel)
    assert model.wait_until_idle()
    header = panel.table.horizontalHeader()
    metrics = header.fontMetrics()
    rows = panel.table.model()
    for section in range(rows.columnCount()):
        text = rows.headerData(section, Qt.Orientation.Horizontal)
        assert text
        assert header.sectionSize(section) >= metrics.horizontalAdvance(text), text
    model.shutdown()
