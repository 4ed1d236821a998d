"""Shared test set-up: headless Qt, reproducible Hypothesis runs, an importable package.

The environment variables are set before anything imports Qt, so every test (and
every subprocess a test starts) renders offscreen with PySide6 as pyqtgraph's binding.
The checkout is put on ``sys.path`` so the tests run without installing the package.
"""

import os
import sys
from pathlib import Path

# A 1920×1200 virtual screen, whatever the caller's environment says: the offscreen
# default (800×800) is smaller than the main window, and a real display would put
# windows on the developer's desktop. Tests that need a real X server start their
# own Xvfb and a child process (``QKV_TEST_QPA`` overrides this, for debugging).
os.environ["QT_QPA_PLATFORM"] = os.environ.get("QKV_TEST_QPA") or (
    "offscreen:configfile=" + str(Path(__file__).with_name("offscreen_screen.json")))
os.environ["PYQTGRAPH_QT_LIB"] = "PySide6"

# Settings, autosaves, locks and logs go to a throw-away home, never the user's.
import tempfile  # noqa: E402

# HOME too, so that a path Qt or a library derives from it (not from XDG_*) is
# sandboxed as well; tests/test_sandbox.py checks that the real home stays untouched.
_SANDBOX = Path(tempfile.mkdtemp(prefix="qkv-tests-"))
os.environ.setdefault("QKV_TEST_REAL_HOME", os.path.expanduser("~"))
os.environ["HOME"] = str(_SANDBOX / "home")
(_SANDBOX / "home").mkdir()
for _var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[_var] = str(_SANDBOX / _var.lower())

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from hypothesis import settings  # noqa: E402

# CI: the same examples on every run, no flaky deadlines, no example database.
settings.register_profile("ci", derandomize=True, max_examples=50, deadline=None,
                          database=None, print_blob=True)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE",
                                     "ci" if os.environ.get("CI") else "dev"))
