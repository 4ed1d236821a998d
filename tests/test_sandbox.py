"""Tests never write into the user's home: settings, autosaves and logs go to a sandbox."""

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths


def test_home_and_app_folders_point_into_the_sandbox(qapp):
    real = Path(os.environ["QKV_TEST_REAL_HOME"]).resolve()
    assert Path.home().resolve() != real
    for location in (QStandardPaths.StandardLocation.AppDataLocation,
                     QStandardPaths.StandardLocation.AppConfigLocation,
                     QStandardPaths.StandardLocation.GenericCacheLocation):
        path = Path(QStandardPaths.writableLocation(location)).resolve()
        assert not path.is_relative_to(real), path
    assert not Path(QSettings().fileName()).resolve().is_relative_to(real)
    assert not QStandardPaths.isTestModeEnabled(), "test mode writes to ~/.qttest"
