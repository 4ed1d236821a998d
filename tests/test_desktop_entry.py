"""The Linux desktop integration: the bundled entry and MIME type, and installing them."""

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from qkv_desktop.app import desktop_entry
from qkv_desktop.app.desktop_entry import install_desktop_entry, uninstall_desktop_entry
from qkv_desktop.resources import icon_pngs, resource_path

MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

# Resolved now: some tests narrow PATH to control what the installer finds.
VALIDATOR = shutil.which("desktop-file-validate")
needs_validator = pytest.mark.skipif(VALIDATOR is None,
                                     reason="desktop-file-validate (desktop-file-utils) "
                                            "is not installed")


def validate(path: Path) -> None:
    done = subprocess.run([VALIDATOR, str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error:" not in done.stdout + done.stderr


def desktop_keys(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def files_under(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*") if not p.is_dir()}


EXPECTED = {Path("applications/qkv-desktop.desktop"),
            Path("mime/packages/qkv-desktop.xml"),
            Path("icons/hicolor/scalable/apps/qkv-desktop.svg")}
EXPECTED |= {Path(f"icons/hicolor/{n}x{n}/apps/qkv-desktop.png") for n in ICON_SIZES}


@pytest.fixture
def not_on_path(monkeypatch, tmp_path):
    """A PATH without ``qkv-desktop`` and an interpreter with no launcher beside it."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    fake_python = tmp_path / "py env" / "bin" / "python3"
    fake_python.parent.mkdir(parents=True)
    fake_python.write_text("")
    monkeypatch.setattr(sys, "executable", str(fake_python))
    return fake_python


@needs_validator
def test_bundled_desktop_file_validates():
    validate(resource_path("qkv-desktop.desktop"))


def test_bundled_desktop_file_declares_the_session_type_and_icon():
    keys = desktop_keys(resource_path("qkv-desktop.desktop"))
    assert keys["Exec"] == "qkv-desktop %f"
    assert keys["Icon"] == keys["StartupWMClass"] == "qkv-desktop"
    assert keys["MimeType"] == "application/x-qkv-session;"
    assert keys["Terminal"] == "false"
    assert "Name[zh_CN]" in keys and "Comment[zh_CN]" in keys


def test_mime_xml_declares_a_glob_that_beats_plain_json():
    root = ET.parse(resource_path("qkv-desktop-mime.xml")).getroot()
    (mime_type,) = root.findall(f"{MIME_NS}mime-type")
    assert mime_type.get("type") == "application/x-qkv-session"
    (glob,) = mime_type.findall(f"{MIME_NS}glob")
    assert glob.get("pattern") == "*.qkv.json"
    assert int(glob.get("weight")) > 50  # application/json's *.json has the default 50
    langs = {c.get(XML_LANG) for c in mime_type.findall(f"{MIME_NS}comment")}
    assert langs == {None, "zh_CN"}


def test_install_then_uninstall_touches_exactly_its_files(tmp_path):
    home = tmp_path / "share"
    report = install_desktop_entry(home, refresh_caches=False)
    assert files_under(home) == EXPECTED
    assert {p.relative_to(home) for p in report.files} == EXPECTED
    assert str(report).startswith(f"installed 11 files under {home}")
    for size, png in icon_pngs().items():
        installed = home / f"icons/hicolor/{size}x{size}/apps/qkv-desktop.png"
        assert installed.read_bytes() == png.read_bytes()

    report = uninstall_desktop_entry(home, refresh_caches=False)
    assert files_under(home) == set()
    assert {p.relative_to(home) for p in report.files} == EXPECTED
    assert uninstall_desktop_entry(home, refresh_caches=False).files == []


def test_default_location_is_xdg_data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    report = install_desktop_entry(refresh_caches=False)
    assert report.data_home == tmp_path / "xdg"
    assert files_under(tmp_path / "xdg") == EXPECTED


@needs_validator
def test_installed_entry_uses_the_name_when_on_path(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "qkv-desktop"
    launcher.write_text("#!/bin/sh\n")
    launcher.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    install_desktop_entry(tmp_path / "share", refresh_caches=False)
    installed = tmp_path / "share/applications/qkv-desktop.desktop"
    validate(installed)
    keys = desktop_keys(installed)
    assert keys["Exec"] == "qkv-desktop %f"
    assert "Path" not in keys


@needs_validator
def test_installed_entry_uses_the_launcher_beside_python(tmp_path, not_on_path):
    launcher = not_on_path.parent / "qkv-desktop"
    launcher.write_text("#!/bin/sh\n")
    launcher.chmod(0o755)
    install_desktop_entry(tmp_path / "share", refresh_caches=False)
    installed = tmp_path / "share/applications/qkv-desktop.desktop"
    validate(installed)
    keys = desktop_keys(installed)
    # The folder name "py env" has a space: the argument must be quoted.
    assert keys["Exec"] == f'"{launcher}" %f'
    assert keys["TryExec"] == str(launcher)


@needs_validator
def test_installed_entry_falls_back_to_python_m(tmp_path, not_on_path):
    install_desktop_entry(tmp_path / "share", refresh_caches=False)
    installed = tmp_path / "share/applications/qkv-desktop.desktop"
    validate(installed)
    keys = desktop_keys(installed)
    assert keys["Exec"] == f'"{not_on_path}" -m qkv_desktop %f'
    # From a checkout, "-m qkv_desktop" only imports with the checkout as working folder.
    assert keys["Path"] == str(Path(desktop_entry.__file__).resolve().parents[2])


def test_failed_install_leaves_nothing_behind(tmp_path):
    home = tmp_path / "share"
    home.mkdir()
    (home / "icons").write_text("a file where a folder must go")
    with pytest.raises(OSError):
        install_desktop_entry(home, refresh_caches=False)
    assert files_under(home) == {Path("icons")}


def test_refuses_on_windows(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(OSError, match="Linux"):
        install_desktop_entry(tmp_path, refresh_caches=False)
    assert not any(tmp_path.iterdir())


@pytest.mark.skipif(shutil.which("update-mime-database") is None,
                    reason="update-mime-database (shared-mime-info) is not installed")
def test_registered_type_wins_over_json_and_goes_away_again(tmp_path):
    home = tmp_path / "share"
    report = install_desktop_entry(home)
    assert any(c.startswith("update-mime-database") for c in report.commands), report.notes
    assert "80:application/x-qkv-session:*.qkv.json" in (home / "mime/globs2").read_text()

    probe = ("from PySide6.QtCore import QMimeDatabase; db = QMimeDatabase(); "
             "print(db.mimeTypeForFile('lesson.qkv.json', "
             "QMimeDatabase.MatchMode.MatchExtension).name(), "
             "db.mimeTypeForFile('plain.json', QMimeDatabase.MatchMode.MatchExtension).name())")
    env = dict(os.environ, XDG_DATA_HOME=str(home))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=True)
    assert done.stdout.split() == ["application/x-qkv-session", "application/json"]

    uninstall_desktop_entry(home)
    assert "qkv" not in (home / "mime/globs2").read_text()
