"""A pane, a heads thumbnail, a pane grid let go are freed at once by reference counting.

A bound method of a widget kept in the attributes of its Qt child (``plot.image_wanted
= self._on_image_wanted``), or a lambda over ``self`` connected to a child's signal, is
a reference cycle: the widget, and everything it holds (its pictures, the result's
arrays), is then freed only by Python's cyclic collector, and never once the app's
``gc.freeze`` (``app.startup_heap``) has taken it. So: none, checked with the collector
off. A widget is dropped the way its parent drops it (``deleteLater``), or, without a
parent, by letting go of it.
"""

import gc
import weakref

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QWidget

from qkv_desktop.model import AttentionModel
from qkv_desktop.presentation.colormaps import lut_for
from qkv_desktop.state import SessionState
from qkv_desktop.views.dialogs.decoder_panel import DecoderPanel
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
from qkv_desktop.views.panes.pane_grid import HEADS_KEY, PaneGrid


@pytest.fixture
def model(qapp):
    model = AttentionModel(SessionState.from_preset("tutorial-1"))
    assert model.wait_until_idle()
    yield model
    model.shutdown()


@pytest.fixture
def host(qtbot):
    """A shown parent for the widgets under test."""
    widget = QWidget()
    widget.resize(600, 500)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _delete_later(widget) -> None:
    """What a parent does to a child it drops, done now: ``deleteLater``, delivered."""
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _held_by(obj) -> list[str]:
    return [type(r).__qualname__ for r in gc.get_referrers(obj)]


def _shown(qtbot, widget, model) -> None:
    widget.resize(400, 300)
    widget.show()
    qtbot.waitExposed(widget)
    assert model.wait_until_idle()
    qtbot.wait(20)  # the resize's timers: a refit of the values, a picture wanted


def test_a_pane_deleted_by_its_parent_is_freed_at_once(qtbot, model, host, no_cyclic_gc):
    pane = HeatmapPane(model, "weights", host)
    _shown(qtbot, pane, model)
    assert pane.plot.data.shape == (4, 4)  # it drew the weights
    refs = [weakref.ref(o) for o in (pane, pane.plot, pane.plot.overlay, pane.image)]
    _delete_later(pane)
    assert not shiboken6.isValid(pane)
    del pane
    alive = [r() for r in refs if r() is not None]
    assert not alive, [(type(o).__qualname__, _held_by(o)) for o in alive]


def test_a_pane_without_a_parent_let_go_is_freed_at_once(qtbot, model, no_cyclic_gc):
    """(Its plot's ``valuesHiddenChanged`` held a lambda over the pane.)"""
    pane = HeatmapPane(model, "scores")
    _shown(qtbot, pane, model)
    pane.hide()
    ref = weakref.ref(pane)
    del pane
    assert ref() is None, _held_by(ref())


def test_a_plot_deleted_by_its_parent_is_freed_at_once(qtbot, host, no_cyclic_gc):
    """(Its overlay kept the plot's ``_on_misfit``.)"""
    import numpy as np
    plot = HeatmapPlot(lut_for("weights"), host)
    plot.show_matrix(np.eye(3) / 3, (0.0, 1.0))
    plot.resize(300, 200)
    plot.show()
    qtbot.waitExposed(plot)
    refs = [weakref.ref(o) for o in (plot, plot.overlay, plot.image)]
    _delete_later(plot)
    del plot
    alive = [r() for r in refs if r() is not None]
    assert not alive, [(type(o).__qualname__, _held_by(o)) for o in alive]


def test_the_thumbnails_of_the_heads_dropped_are_freed_at_once(qtbot, model, host,
                                                              no_cyclic_gc):
    """Fewer heads: the heads overview deletes the thumbnails of the heads gone."""
    grid = PaneGrid(model, parent=host)
    _shown(qtbot, grid, model)
    model.set_heads(4)
    assert model.wait_until_idle()
    overview = grid.heads_view
    assert HEADS_KEY in grid.shown() and len(overview.thumbs) == 4
    dropped = [weakref.ref(o) for t in overview.thumbs[2:] for o in (t, t.plot, t.plot.image)]
    model.set_heads(2)
    assert model.wait_until_idle()
    assert len(overview.thumbs) == 2
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    alive = [r() for r in dropped if r() is not None]
    assert not alive, [(type(o).__qualname__, _held_by(o)) for o in alive]


def test_a_pane_grid_deleted_is_freed_at_once_with_its_panes(qtbot, model, host,
                                                             no_cyclic_gc):
    """(Its map of panes kept the grid's ``_build_pane``.)"""
    grid = PaneGrid(model, parent=host)
    _shown(qtbot, grid, model)
    refs = [weakref.ref(grid)] + [weakref.ref(p) for p in grid.panes.built()]
    assert len(refs) > 5
    _delete_later(grid)
    del grid
    alive = [r() for r in refs if r() is not None]
    assert not alive, [(type(o).__qualname__, _held_by(o)) for o in alive]


class _Owner(QObject):
    """Like ``ModelActions``: holds the decoder panel, which calls two of its methods."""

    def switch_head(self, layer: int, head: int) -> None:
        self.switched = (layer, head)

    def load_layer(self, layer: int, head: int) -> None:
        self.loaded = (layer, head)


def test_the_owner_of_a_decoder_panel_let_go_is_freed_at_once(model, host, no_cyclic_gc):
    owner = _Owner()
    owner.panel = DecoderPanel(model, owner.switch_head, owner.load_layer, host)
    ref = weakref.ref(owner)
    del owner
    assert ref() is None, _held_by(ref())


def test_a_closed_window_is_collected_with_its_model(make_window):
    """A lambda over a view connected to a signal of the model (``currentHeadChanged``:
    the window, the controls, each matrix table) was held by the model's connection,
    out of the collector's sight, as long as the model lived, and the model lives as
    long as the window: neither was ever freed, not even by the cyclic collector.

    (The window is still in reference cycles of its own — helpers that keep
    ``self.window`` — so it is the collector that frees it here; the app has one window
    for its whole run.)"""
    window = make_window()
    model = window.model
    model.set_current_head(0)
    window.close()
    _delete_later(window)
    refs = [weakref.ref(window), weakref.ref(model)]
    del window, model
    gc.collect()
    alive = [r() for r in refs if r() is not None]
    assert not alive, [(type(o).__qualname__, _held_by(o)) for o in alive]


@pytest.fixture
def unfreeze_after():
    assert gc.get_freeze_count() == 0
    yield
    gc.unfreeze()  # (what the test froze goes back to the collector)


def test_thumbnails_made_at_start_up_and_dropped_later_do_not_live_on(make_window, qtbot,
                                                                      unfreeze_after):
    """A session that starts with four heads (restored, say): a second after start-up
    the app collects and freezes the heap (``startup_heap``). Frozen objects in a
    reference cycle, dropped later, are never freed: the two thumbnails (plots,
    pictures) of heads 3 and 4 lived on for the rest of the session when the heads
    went down to two. Counted, not measured (RSS)."""
    from qkv_desktop.app.startup_heap import freeze_after_start_up
    from qkv_desktop.core.presets import get_preset
    p = get_preset("random-medium")
    window = make_window(SessionState.initialised(p.tokens, p.X, d_k=p.d_k, seed=p.seed,
                                                  init_scale=p.scale, n_heads=4))
    model, overview = window.model, window.panes.heads_view
    assert len(overview.thumbs) == 4 and overview.isVisible()
    thumbnails = weakref.WeakSet(overview.thumbs)
    plots = weakref.WeakSet(t.plot for t in overview.thumbs)
    freeze_after_start_up(window)
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=10_000)
    assert len(thumbnails) == len(plots) == 4  # (frozen alive)
    model.set_heads(2)
    assert model.wait_until_idle()
    assert len(overview.thumbs) == 2
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    assert len(thumbnails) == len(plots) == 2


def test_a_right_click_menu_is_let_go_once_closed(main_window, qtbot):
    """Each right-click on a pane made a ``QMenu`` child of the pane, with its two
    actions, that stayed for the rest of the session."""
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QMenu

    def close_the_menu():
        popup = QApplication.activePopupWidget()
        if popup is None:  # not open yet
            QTimer.singleShot(10, close_the_menu)
        else:
            popup.close()

    pane = main_window.panes.panes["weights"]
    before = len(pane.findChildren(QMenu))
    for _ in range(3):
        QTimer.singleShot(10, close_the_menu)
        pane.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(5, 5),
                                                 pane.mapToGlobal(QPoint(5, 5))))
    qtbot.waitUntil(lambda: len(pane.findChildren(QMenu)) == before)  # deleted later
