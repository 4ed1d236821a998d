"""Register QKV Desktop with a Linux (freedesktop) desktop, per user.

``install_desktop_entry`` copies the desktop entry, the icons and the MIME type
of session files (``*.qkv.json``) into ``$XDG_DATA_HOME`` (``~/.local/share``),
so the app appears in the application menu with its icon and a double-click on
a session opens it. ``uninstall_desktop_entry`` removes exactly those files.
Both refresh the desktop's caches with ``update-mime-database``,
``update-desktop-database`` and ``gtk-update-icon-cache`` when these exist; a
missing tool is reported, never an error, because the desktop rescans anyway.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from qkv_desktop.resources import APP_ID, icon_pngs, icon_svg, resource_path

__all__ = ["DesktopEntryReport", "install_desktop_entry", "uninstall_desktop_entry",
           "launch_command"]

_EXEC_RESERVED = set(' \t\n"\'\\><~|&;$*?#()`')
_TOOL_TIMEOUT_S = 60


@dataclass
class DesktopEntryReport:
    """What an install or uninstall did, for the command line to print."""

    action: str
    """"installed" or "removed"."""
    data_home: Path
    files: list[Path] = field(default_factory=list)
    """Files written (install) or removed (uninstall)."""
    commands: list[str] = field(default_factory=list)
    """Cache-refresh commands that ran successfully."""
    notes: list[str] = field(default_factory=list)
    """Tools that were missing or failed; harmless, but worth telling."""

    def __str__(self) -> str:
        lines = [f"{self.action} {len(self.files)} files under {self.data_home}:"]
        lines += [f"  {path}" for path in self.files]
        lines += [f"  ran: {command}" for command in self.commands]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _data_home(data_home: str | os.PathLike | None) -> Path:
    if data_home is not None:
        return Path(data_home).expanduser().resolve()
    env = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative value is invalid and must be ignored.
    if env and os.path.isabs(env):
        return Path(env)
    return Path.home() / ".local" / "share"


def _targets(home: Path) -> dict[Path, Path]:
    """Installed path → bundled source, for every file the entry consists of."""
    targets = {
        home / "applications" / f"{APP_ID}.desktop": resource_path(f"{APP_ID}.desktop"),
        home / "mime" / "packages" / f"{APP_ID}.xml": resource_path(f"{APP_ID}-mime.xml"),
        home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg": icon_svg(),
    }
    for size, png in icon_pngs().items():
        targets[home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = png
    return targets


def launch_command() -> list[str]:
    """The command that starts this installation of QKV Desktop.

    The plain name ``qkv-desktop`` when it is on ``PATH``; otherwise the launcher
    pip put beside this interpreter; otherwise ``python -m qkv_desktop`` with
    this interpreter (a source checkout, see ``_working_directory``). A frozen
    (PyInstaller) app is its own launcher.
    """
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    if shutil.which(APP_ID):
        return [APP_ID]
    launcher = Path(sys.executable).parent / APP_ID
    if launcher.is_file() and os.access(launcher, os.X_OK):
        return [str(launcher)]
    return [str(Path(sys.executable).absolute()), "-m", "qkv_desktop"]


def _working_directory(command: list[str]) -> Path | None:
    """The checkout to start in when ``-m qkv_desktop`` is importable only from there."""
    if "-m" not in command:
        return None
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def _exec_quote(arg: str) -> str:
    """One Exec argument quoted per the Desktop Entry spec ("%" doubled)."""
    arg = arg.replace("%", "%%")
    if not any(ch in _EXEC_RESERVED for ch in arg):
        return arg
    escaped = "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg)
    return f'"{escaped}"'


def _escape_value(value: str) -> str:
    """A desktop-file string value: backslashes are themselves escaped."""
    return value.replace("\\", "\\\\")


def _desktop_file_text(template: str) -> str:
    """The bundled entry with Exec/TryExec pointing at ``launch_command()``."""
    command = launch_command()
    exec_line = " ".join(_exec_quote(arg) for arg in command) + " %f"
    workdir = _working_directory(command)
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + _escape_value(exec_line)
            if workdir is not None:
                line += "\nPath=" + _escape_value(str(workdir))
        elif line.startswith("TryExec="):
            line = "TryExec=" + _escape_value(command[0])
        lines.append(line)
    return "\n".join(lines) + "\n"


def _check_platform() -> None:
    if sys.platform in ("win32", "darwin"):
        raise OSError("desktop entries are for Linux desktops; on Windows and macOS "
                      "see the README's notes on pinning the launcher instead")


def _refresh_caches(home: Path, report: DesktopEntryReport) -> None:
    """Run the freedesktop cache tools that exist; record what ran or failed."""
    commands = [
        ["update-mime-database", str(home / "mime")],
        ["update-desktop-database", "-q", str(home / "applications")],
        ["gtk-update-icon-cache", "-q", "-t", "-f", str(home / "icons" / "hicolor")],
    ]
    for command in commands:
        text = " ".join(command)
        if shutil.which(command[0]) is None:
            report.notes.append(f"{command[0]} not found; the desktop picks the change "
                                "up at its next rescan")
            continue
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=_TOOL_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            report.notes.append(f"{text} failed: {exc}")
            continue
        if done.returncode == 0:
            report.commands.append(text)
        else:
            detail = (done.stderr or done.stdout).strip().splitlines()
            report.notes.append(f"{text} exited {done.returncode}"
                                + (f": {detail[-1]}" if detail else ""))


def install_desktop_entry(data_home: str | os.PathLike | None = None, *,
                          refresh_caches: bool = True) -> DesktopEntryReport:
    """Install the desktop entry, icons and session MIME type for this user.

    Parameters
    ----------
    data_home
        Where to install; default ``$XDG_DATA_HOME`` or ``~/.local/share``.
    refresh_caches
        Run the desktop's cache tools afterwards (tests turn this off to see
        only the files this function owns).

    Raises
    ------
    OSError
        On Windows/macOS, or if a file cannot be written; files already written
        by this call are removed again, so nothing is half-installed.
    """
    _check_platform()
    home = _data_home(data_home)
    report = DesktopEntryReport("installed", home)
    try:
        for target, source in _targets(home).items():
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.suffix == ".desktop":
                target.write_text(_desktop_file_text(source.read_text(encoding="utf-8")),
                                  encoding="utf-8")
            else:
                shutil.copyfile(source, target)
            report.files.append(target)
    except OSError:
        for written in report.files:
            written.unlink(missing_ok=True)
        raise
    if refresh_caches:
        _refresh_caches(home, report)
    return report


def uninstall_desktop_entry(data_home: str | os.PathLike | None = None, *,
                            refresh_caches: bool = True) -> DesktopEntryReport:
    """Remove what ``install_desktop_entry`` installed (missing files are fine).

    Folders are left in place: they are shared with every other application.
    """
    _check_platform()
    home = _data_home(data_home)
    report = DesktopEntryReport("removed", home)
    for target in _targets(home):
        if target.is_file() or target.is_symlink():
            target.unlink()
            report.files.append(target)
    if refresh_caches:
        _refresh_caches(home, report)
    return report
