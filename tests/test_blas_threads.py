"""The app runs BLAS on half the cores (``app.blas_threads``) unless the user set a count."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

threadpoolctl = pytest.importorskip("threadpoolctl")

CHILD = r"""
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from threadpoolctl import threadpool_info
from qkv_desktop.app.launcher import create_window
import threading
app, window = create_window()
def blas():
    return max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"),
               default=-1)
seen = []  # where the forward runs: a worker thread of the app's own
worker = threading.Thread(target=lambda: seen.append(blas()))
worker.start()
worker.join()
print(blas() if seen == [blas()] else f"main {blas()} but worker {seen}")
"""


def _blas_threads_in_the_app(**env) -> int:
    child_env = {k: v for k, v in os.environ.items()
                 if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                              "BLIS_NUM_THREADS")}
    child_env.update(env)
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=child_env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.strip().splitlines()[-1])


def test_the_app_runs_blas_on_half_the_cores():
    from qkv_desktop.app.blas_threads import blas_threads_for
    threads = _blas_threads_in_the_app()
    if threads == -1:
        pytest.skip("no BLAS that threadpoolctl can limit (e.g. Accelerate)")
    assert threads == blas_threads_for(os.cpu_count() or 1)


def test_half_the_cores_and_at_least_one():
    from qkv_desktop.app.blas_threads import blas_threads_for
    assert [blas_threads_for(c) for c in (1, 2, 3, 4, 16)] == [1, 1, 1, 2, 8]


def test_a_thread_count_the_user_set_stands():
    if os.cpu_count() < 2:
        pytest.skip("one core: OpenBLAS runs one thread whatever is asked")
    assert _blas_threads_in_the_app(OPENBLAS_NUM_THREADS="2") == 2
