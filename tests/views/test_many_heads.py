"""Issue 19, finding 2 in the window: head counts up to the cap keep it usable.

The small multiples show at most ``MAX_THUMBNAILS`` heads, the block holding the
current head; without that bound 256 thumbnails forced the window wider than the
screen (and 65,000 exhausted memory). The heads box reaches up to ``MAX_HEADS``.
"""

from __future__ import annotations

import itertools

from qkv_desktop.state import SessionState
from qkv_desktop.state.session_state import MAX_HEADS
from qkv_desktop.views.panes.heads_overview import MAX_THUMBNAILS, shown_heads


def test_shown_heads_is_the_block_of_the_current_head():
    assert shown_heads(3, 0) == range(0, 3)
    assert shown_heads(100, 0) == range(0, MAX_THUMBNAILS)
    assert shown_heads(100, 80) == range(80, 96)
    assert shown_heads(100, 99) == range(96, 100)
    assert shown_heads(MAX_HEADS, MAX_HEADS - 1).stop == MAX_HEADS


def test_a_session_at_the_head_cap_fits_the_window(make_window, qtbot):
    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=MAX_HEADS, d_k=1)
    window = make_window(state, size=(1600, 1000))
    overview = window.panes.heads_view
    assert len(overview.thumbs) == MAX_THUMBNAILS
    assert window.width() <= 1600 and window.height() <= 1000
    assert "1–16 of 256" in overview.title.text()
    window.controls.head.setCurrentIndex(200)
    assert window.model.current_head == 200
    assert [t.head for t in overview.thumbs] == list(range(192, 208))
    assert [t.current for t in overview.thumbs].index(True) == 200 - 192
    assert "193–208 of 256" in overview.title.text()
    window.grab()
    assert window.width() <= 1600


def test_the_heads_box_reaches_the_cap_and_no_further(make_window):
    window = make_window()
    box = window.controls.heads
    assert box.maximum() == MAX_HEADS
    box.setValue(MAX_HEADS)
    assert window.model.wait_until_idle()
    assert window.model.state.n_heads == MAX_HEADS
    try:
        window.model.set_heads(MAX_HEADS + 1)
    except ValueError as exc:
        assert "257 heads" in str(exc)
    else:
        raise AssertionError("257 heads were accepted")
    assert window.model.state.n_heads == MAX_HEADS


def _head_lines_px(pane) -> list[float]:
    """Where the concatenation pane draws its head lines, in pixels across the cells:
    its overlay painted as the view paints it, each line recorded."""
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    lines = []

    class Recording(QPainter):
        def drawLine(self, *args):  # noqa: N802 (Qt's name)
            lines.append(self.transform().map(args[0]).x())
            super().drawLine(*args)

    overlay, view = pane.plot.overlay, pane.plot
    image = QImage(view.width(), view.height(), QImage.Format.Format_ARGB32)
    painter = Recording(image)
    painter.setTransform(overlay.deviceTransform(view.viewportTransform()))
    option = QStyleOptionGraphicsItem()
    option.exposedRect = overlay.boundingRect()
    overlay.paint(painter, option)
    painter.end()
    return sorted(lines)


def test_the_concatenation_shows_its_heads_colours_at_the_head_cap(make_window):
    """With 256 heads the concatenation was a solid black block: a 2-pixel line at every
    head's first column, a pixel apart, covered every cell (a review). Lines are drawn
    only with room for a head's colours between them; with 2 heads there is room."""
    state = SessionState.from_preset("tutorial-1").reinitialised(n_heads=MAX_HEADS, d_k=4)
    window = make_window(state, size=(1366, 768))
    pane = window.panes.panes["concat"]
    assert pane.isVisible() and pane.plot.data.shape[1] == MAX_HEADS * 4
    lines = _head_lines_px(pane)
    gaps = [b - a for a, b in itertools.pairwise(lines)]
    assert not gaps or min(gaps) >= 3 * 2, f"head lines {min(gaps):.1f} px apart"
    window.model.set_heads(2)
    assert window.model.wait_until_idle()
    assert len(_head_lines_px(window.panes.panes["concat"])) == 1  # heads 1 | 2
