"""What a learner would see as broken, read from the widgets' geometry: a text cut
off by its own box or by its parents, and two texts on top of each other.

Widgets inside a scroll area may be scrolled out of sight (that is not clipping);
only what is on screen counts, through each widget's visible region. What pyqtgraph
paints into the panes (axis names, colour-bar levels, values) is judged by
``plot_geometry.plot_problems`` and reported here too.
"""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QLabel, QTabBar, QWidget

from qkv_desktop.views.elided_label import ElidedLabel
from tests.views.plot_geometry import in_scroll_area, plot_problems

__all__ = ["layout_problems"]

TEXT_WIDGETS = (QLabel, QAbstractButton, QTabBar)


def _on_screen(w: QWidget, window: QWidget) -> QRect:
    """The part of ``w`` drawn, in window coordinates (empty when none is)."""
    region = w.visibleRegion().boundingRect()
    if region.isEmpty():
        return QRect()
    return QRect(w.mapTo(window, region.topLeft()), region.size())


def _needs(w: QWidget):
    """(width, height) the widget's text needs, or None when it cannot be judged."""
    if isinstance(w, ElidedLabel):  # ends in "…" when narrow, and says it all on hover
        return None if not w.is_elided() or w.text() in w.toolTip() else (w.sizeHint().width(), None)
    if isinstance(w, QLabel):
        if not w.text() or w.pixmap() is not None and not w.pixmap().isNull():
            return None
        if w.wordWrap():
            return None, w.heightForWidth(w.width())
        return w.sizeHint().width(), None
    if isinstance(w, QAbstractButton):
        if not w.text():
            return None
        return w.sizeHint().width(), None
    return None


def layout_problems(window: QWidget) -> list[str]:
    """Every clipped text and every pair of overlapping texts among ``window``'s widgets,
    and in what its plots draw."""
    problems: list[str] = []
    shown: list[tuple[QWidget, QRect]] = []
    for w in window.findChildren(QWidget):
        if not isinstance(w, TEXT_WIDGETS) or not w.isVisible() or w.window() is not window:
            continue
        if isinstance(w, QTabBar):
            for k in range(w.count()):
                need = w.tabSizeHint(k).width()
                if w.tabRect(k).width() + 1 < need and not w.usesScrollButtons():
                    problems.append(f"tab {w.tabText(k)!r} cut ({w.tabRect(k).width()} < {need})")
            continue
        rect = _on_screen(w, window)
        if rect.isEmpty():
            continue
        name = f"{type(w).__name__} {w.objectName() or ''} {getattr(w, 'text', lambda: '')()!r}"
        need = _needs(w)
        if need is not None:
            width, height = need
            if width is not None and width > w.width() + 1:
                problems.append(f"{name}: text needs {width} px, has {w.width()}")
            if height is not None and height > w.height() + 1:
                problems.append(f"{name}: text needs {height} px high, has {w.height()}")
            full = QRect(w.mapTo(window, w.rect().topLeft()), w.size())
            scrolled = in_scroll_area(w)  # partly scrolled out of sight, up or down, is fine
            if (rect != full if not scrolled else
                    rect.height() == full.height() and rect.width() != full.width()):
                problems.append(f"{name}: covered or cut by its parents ({rect} of {full})")
        shown.append((w, rect))
    for i, (a, ra) in enumerate(shown):
        for b, rb in shown[i + 1:]:
            if a.isAncestorOf(b) or b.isAncestorOf(a):
                continue
            if ra.intersects(rb):
                problems.append(f"{type(a).__name__} {a.objectName()!r} overlaps "
                                f"{type(b).__name__} {b.objectName()!r}")
    return problems + plot_problems(window)
