"""Several pictures of one result made side by side, on the forward's side.

After a large forward its worker made the pictures of the panes on screen one after
the other before handing the result over: at n = 2048, 30–45 ms of CPU on one thread
while the other core idled, as long again as the forward (issue 20). A picture is a few
long NumPy passes (block means, a minimum and maximum, a colour lookup), which release
the GIL, so two pictures run at once on two cores. ``side_by_side`` hands the pictures
to the calling thread and one helper per other core; each takes the next picture when
it finishes one, the largest first, so the last to start are the quick ones.

The helpers are named ``qkv-compute_pictures_…``: they work for the forward's worker
(``qkv-compute``) and only while it waits for them.

Their pool is their own (``core.helper_pool``): with the row ranges' pool, the
pictures would queue behind the row ranges of the read-outs or of the next forward.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence

from qkv_desktop.core.helper_pool import HelperPool, cores

__all__ = ["side_by_side", "HELPER_PREFIX"]

HELPER_PREFIX = "qkv-compute_pictures"

_pool = HelperPool(HELPER_PREFIX)
_cores = cores  # a module name: tests pretend another count for the split of the work


def side_by_side(jobs: Sequence[Callable[[], None]]) -> None:
    """Run each of ``jobs`` once, in their order, the calling thread and the helpers
    taking the next one in turn; return when all have ended. A job must not raise
    (a failing picture is left for its pane to meet and report) and must not call
    ``side_by_side`` itself."""
    jobs = list(jobs)
    helpers = min(len(jobs), _cores()) - 1
    if helpers <= 0:
        for job in jobs:
            job()
        return
    turns, lock = itertools.count(), threading.Lock()

    def take_turns() -> None:
        while True:
            with lock:  # each job is taken exactly once
                k = next(turns)
            if k >= len(jobs):
                return
            jobs[k]()

    futures = [_pool.executor().submit(take_turns) for _ in range(helpers)]
    try:
        take_turns()
    finally:
        for future in futures:
            future.result()
