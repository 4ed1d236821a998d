"""Render the README's screenshots of the KV-cache, tiles and gradient labs offscreen.

    QT_QPA_PLATFORM=offscreen python resources/make_run_labs_screenshots.py [lab …]

writes ``resources/screenshots/<lab>.png`` for kv-cache-lab, tiles-lab and gradient-lab
(all three without arguments), on the random-medium preset (12 tokens) made causal.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from screenshot_window import SCREENSHOTS as OUT
    from screenshot_window import sandboxed_window, settle

    from qkv_desktop.state import SessionState

    wanted = set(argv) or {"kv-cache-lab", "tiles-lab", "gradient-lab"}
    with sandboxed_window(SessionState.from_preset("random-medium")) as (app, window):
        window.model.set_options(causal=True)
        settle(app, window)
        OUT.mkdir(parents=True, exist_ok=True)
        labs = window.run_labs
        if "kv-cache-lab" in wanted:
            lab = labs.show("kv_cache")
            lab.resize(1250, 860)
            lab.go_to(4)
            lab.memory.select("SmolLM2-135M")
            settle(app, window)
            lab.grab().save(str(OUT / "kv-cache-lab.png"), "PNG")
            lab.close()
        if "tiles-lab" in wanted and "tiles" in labs.actions:
            lab = labs.show("tiles")
            lab.resize(1250, 860)
            lab.tabs.setCurrentIndex(1)
            lab.block_q.setValue(4)
            lab.block_k.setValue(3)
            lab.go_to(6)
            settle(app, window)
            lab.grab().save(str(OUT / "tiles-lab.png"), "PNG")
            lab.close()
        if "gradient-lab" in wanted and "gradients" in labs.actions:
            lab = labs.show("gradients")
            lab.resize(1250, 860)
            lab.train_blocking(120)
            settle(app, window)
            lab.grab().save(str(OUT / "gradient-lab.png"), "PNG")
            lab.tabs.setCurrentIndex(1)
            lab.run_comparison_blocking(steps=60)
            settle(app, window)
            lab.grab().save(str(OUT / "gradient-scaling.png"), "PNG")
            lab.close()
    for name in sorted(wanted):
        print(OUT / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
