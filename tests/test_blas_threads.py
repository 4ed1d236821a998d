"""The app runs BLAS on one thread (``app.blas_threads``) unless the user set a count."""

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
app, window = create_window()
print(max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"))
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


def test_the_app_runs_blas_on_one_thread():
    assert _blas_threads_in_the_app() == 1


def test_a_thread_count_the_user_set_stands():
    if os.cpu_count() < 2:
        pytest.skip("one core: OpenBLAS runs one thread whatever is asked")
    assert _blas_threads_in_the_app(OPENBLAS_NUM_THREADS="2") == 2
