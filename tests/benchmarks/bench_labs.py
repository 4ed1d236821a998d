"""A lab's redraw, offscreen: the RoPE lab's pair plots against making them afresh.

``python tests/benchmarks/bench_labs.py [--rounds 3]`` prints one JSON object per
measurement with ``kind``, ``median_ms`` (the GUI thread's CPU per redraw,
``time.thread_time``: the machine's load hardly moves it) and ``wall_ms``:

* ``rope_shift`` and ``rope_base``: the RoPE lab open on a session of d_k = 32 (its
  eight pair plots), one redraw per step of its shift slider, or per change of the
  session's RoPE base (the forward is a 4-token one: the lab is the cost).
* ``baseline_afresh``: bare pyqtgraph, the same eight plots of eight curves each made
  afresh per redraw (``clear`` and ``addPlot``), as the lab did until 2026-12-07.
* ``baseline_set_data``: the same plots made once, each curve given new data
  (``setData``), as the lab does now.

Nothing here asserts a time; the figures are printed for the reader.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
_HOME = tempfile.mkdtemp(prefix="qkv-bench-")
for _var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[_var] = os.path.join(_HOME, _var.lower())
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

REDRAWS = 10
PLOTS = 8


def _cpu_per_redraw(redraw, app) -> tuple[float, float]:
    t, w = time.thread_time(), time.perf_counter()
    for k in range(REDRAWS):
        redraw(k)
        app.processEvents()
    return ((time.thread_time() - t) / REDRAWS * 1e3,
            (time.perf_counter() - w) / REDRAWS * 1e3)


def _bare_grid(afresh: bool):
    """Eight plots of eight curves (two circles, four vectors, two dots) as the lab
    draws them; ``afresh`` makes them again per redraw."""
    import pyqtgraph as pg
    view = pg.GraphicsLayoutWidget(size=(900, 400))
    view.show()
    circle = np.linspace(0, 2 * np.pi, 97)
    made = []

    def redraw(k: int) -> None:
        turn = 0.1 * k
        if afresh or not made:
            view.clear()
            made.clear()
            for p in range(PLOTS):
                plot = view.addPlot(row=p // 4, col=p % 4)
                plot.setAspectLocked(True)
                curves = [plot.plot(pen="b") for _ in range(6)]
                curves += [plot.plot(pen=None, symbol="o", symbolSize=5) for _ in range(2)]
                made.append((plot, curves))
        for p, (plot, curves) in enumerate(made):
            r = 1.0 + p
            plot.setXRange(-r, r, padding=0)
            plot.setYRange(-r, r, padding=0)
            plot.setTitle(f"pair {p}: +{turn:.4f} rad / position", size="8pt")
            for c in curves[:2]:
                c.setData(r * np.cos(circle), r * np.sin(circle))
            for c in curves[2:6]:
                c.setData([0, r * np.cos(turn + p)], [0, r * np.sin(turn + p)])
            for c in curves[6:]:
                c.setData([r * np.cos(turn)], [r * np.sin(turn)])
    return view, redraw


def _rope_lab():
    from qkv_desktop.model import AttentionModel
    from qkv_desktop.state import SessionState
    from qkv_desktop.views.teaching.rope_lab import RopeLab
    state = SessionState.from_preset("tutorial-1").reinitialised(d_k=32, init_scale=1.0)
    model = AttentionModel(state)
    model.set_options(positions="rope")
    model.wait_until_idle()
    lab = RopeLab(model)
    lab.show()
    return model, lab


def run(rounds: int) -> list[dict]:
    app = QApplication.instance() or QApplication([])
    model, lab = _rope_lab()
    app.processEvents()
    bare = {key: _bare_grid(afresh) for key, afresh in (("baseline_afresh", True),
                                                         ("baseline_set_data", False))}
    figures: dict[str, list[tuple[float, float]]] = {}
    step = [0]

    def shift(_k):
        step[0] += 1
        lab.shift.setValue(1 + step[0] % 40)

    def base(_k):
        step[0] += 1
        model.set_options(rope_base=1000.0 + 37.0 * step[0])
        model.wait_until_idle()

    for _ in range(rounds):  # in turns, so a change of load falls on all alike
        for kind, redraw in (("rope_shift", shift), ("rope_base", base),
                             *((key, grid[1]) for key, grid in bare.items())):
            figures.setdefault(kind, []).append(_cpu_per_redraw(redraw, app))
    lab.close()
    model.shutdown()
    return [{"kind": kind, "median_ms": round(float(np.median([c for c, _ in runs])), 2),
             "wall_ms": round(float(np.median([w for _, w in runs])), 2),
             "rounds": len(runs), "redraws_per_round": REDRAWS}
            for kind, runs in figures.items()]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    for row in run(args.rounds):
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
