"""Start-up imports only what the first painted window needs.

The export engine (figures, fonts, SVG/PDF writers, data formats), the labs (scaling,
RoPE), the model dialog with the checkpoint readers and the libraries behind them
(gguf, safetensors, tokenizers), the QKᵀ | KKᵀ view behind its dock's tab, the crash
log's ``logging.handlers`` and the core's lessons behind the labs (training, gradients)
are imported when first used
(issue 20: start-up); the window is started in a fresh process, as a user starts it,
because this test process has imported everything long ago.
"""

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import os, sys
from qkv_desktop.app.launcher import main
code = main([])
LAZY = ("qkv_desktop.export", "qkv_desktop.core.training",
        "qkv_desktop.core.gradients", "qkv_desktop.io.checkpoint",
        "qkv_desktop.io.gguf_checkpoint", "qkv_desktop.io.model_sources",
        "qkv_desktop.views.dialogs.model_dialog", "qkv_desktop.views.teaching.symmetry_view",
        "logging.handlers", "gguf", "safetensors", "tokenizers", "hypothesis", "torch")
lazy = sorted(m for m in sys.modules if m.startswith(LAZY)
              or m.startswith("qkv_desktop.views.teaching.") and m.endswith("_lab"))
print("imported:", " ".join(lazy) or "-", flush=True)
order = list(sys.modules)  # in the order they were first imported
print("Qt-free first:", order.index("numpy") < order.index("PySide6")
      and order.index("qkv_desktop.core") < order.index("PySide6"), flush=True)
from PySide6.QtWidgets import QApplication
from qkv_desktop.views.main_window import MainWindow
from qkv_desktop.views.panes.heatmap_pane import HeatmapPane
from qkv_desktop.views.panes.heads_overview import HeadsOverview
window, = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
print("symmetry dock:", window.teaching.docks["symmetry"].widget(), flush=True)
built = sorted(p.key for p in window.panes.findChildren(HeatmapPane))
print("built:", " ".join(built), "heads:", len(window.panes.findChildren(HeadsOverview)),
      "shown:", " ".join(sorted(window.panes.shown())), flush=True)
os._exit(code)  # the window is still alive: skip interpreter teardown
"""


def test_the_first_paint_imports_neither_export_nor_labs_nor_model_libraries(tmp_path):
    """Nor builds the panes and the heads overview that are not on screen."""
    env = dict(os.environ, HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen",
               PYQTGRAPH_QT_LIB="PySide6", QKV_EXIT_AFTER_FIRST_PAINT="1")
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / var.lower())
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "first paint" in proc.stdout
    assert "imported: -" in proc.stdout, proc.stdout
    # shiboken's import hook reads the source of every module imported after PySide6
    assert "Qt-free first: True" in proc.stdout, proc.stdout
    built = proc.stdout.split("built:")[1].split("heads:")
    shown = built[1].split("shown:")[1].split()
    assert len(shown) == 8 and built[0].split() == shown, proc.stdout  # only the panes on screen
    assert built[1].split("shown:")[0].split() == ["0"]  # one head: no heads overview
    assert "symmetry dock: None" in proc.stdout, proc.stdout  # behind the explain tab


def test_the_symmetry_dock_builds_its_view_when_first_shown(main_window, qtbot):
    """Its tab clicked (or the Lab menu's entry) shows the two maps, filled."""
    teaching = main_window.teaching
    dock = teaching.docks["symmetry"]
    assert dock.widget() is None or dock.isVisible()
    dock.show()
    dock.raise_()
    qtbot.waitUntil(lambda: dock.widget() is not None and dock.widget().isVisible())
    view = dock.widget()
    assert view is teaching.symmetry
    scores = main_window.model.result.head(0).scores
    qtbot.waitUntil(lambda: view.qk.data.shape == scores.shape)
    assert (view.qk.data == scores).all()
    assert "asymmetry" in view.qk_title.text()


def test_exporting_and_the_lab_still_work_after_a_lazy_import(main_window, tmp_path):
    from qkv_desktop.export.figures import encode_layout, layout_figure
    from qkv_desktop.export.pane_figures import pane_spec
    window = main_window
    spec = pane_spec(window.model.result, "weights", 0)
    assert encode_layout(layout_figure(spec), "svg", 1.0, "white").startswith(b"<?xml")
    for action, lab in ((window.teaching.lab_action, "lab"),
                        (window.teaching.rope_lab_action, "rope_lab")):
        action.trigger()
        assert getattr(window.teaching, lab).isVisible()
        getattr(window.teaching, lab).close()


def test_the_start_up_benchmark_leaves_a_crashed_instances_autosave_alone(tmp_path):
    """The start-up benchmark's run quits at its first paint. It asked whether to restore
    a crashed instance's autosave, its quit closed that question unanswered, which read as
    No and deleted the autosave; and the main loop then ran for ever (a run printed its
    time and never ended). The benchmark now asks nothing and ends."""
    from qkv_desktop.io.session import save_session
    from qkv_desktop.state import SessionState

    env = dict(os.environ, HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen",
               PYQTGRAPH_QT_LIB="PySide6", QKV_EXIT_AFTER_FIRST_PAINT="1")
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[var] = str(tmp_path / var.lower())
    folder = tmp_path / "xdg_data_home" / "QKV Desktop" / "QKV Desktop"
    folder.mkdir(parents=True)
    orphan = folder / "autosave-crashed.qkv.json"
    save_session(SessionState.initialised(["a", "b"], [[1.0, 2.0], [3.0, 4.0]], d_k=2), orphan)
    before = orphan.read_bytes()
    try:
        proc = subprocess.run([sys.executable, "main.py"], cwd=REPO_ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the app did not end after its first paint: {exc.stdout}") from exc
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "first paint" in proc.stdout
    # the app's data folder is the one the orphan is in (else this test proves nothing)
    assert [p.relative_to(tmp_path / "xdg_data_home") for p in
            (tmp_path / "xdg_data_home").glob("*/*") if p.is_dir()] == [folder.relative_to(
                tmp_path / "xdg_data_home")]
    assert orphan.read_bytes() == before  # still there, as it was, for a real start
