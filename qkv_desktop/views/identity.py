"""Who the application says it is: name, version, icon and the About text.

Set once, before the first window is shown, so that every place the desktop
reads it agrees: QSettings paths, the window and taskbar icon, the Wayland
app id / X11 WM class (matched against ``qkv-desktop.desktop``) and About box.
"""

from __future__ import annotations

import sys

import numpy as np
import PySide6
from PySide6.QtCore import QCoreApplication, QSize, qVersion
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from qkv_desktop import __version__
from qkv_desktop.resources import APP_ID, icon_pngs, icon_svg

__all__ = ["APPLICATION_NAME", "ORGANIZATION_NAME", "ORGANIZATION_DOMAIN",
           "apply_identity", "application_icon", "about_text"]

APPLICATION_NAME = "QKV Desktop"
ORGANIZATION_NAME = "QKV Desktop"
ORGANIZATION_DOMAIN = "example.org"
LICENSE_NAME = "MIT"
APP_USER_MODEL_ID = "org.example.qkv-desktop"
"""Windows taskbar identity; without it the taskbar shows Python's icon, not ours."""


def application_icon() -> QIcon:
    """The app icon: the SVG for any size, plus the exact-size PNG renderings.

    The SVG is added first so Qt picks its scalable SVG icon engine; the PNGs
    then serve the sizes they were rendered for, which keeps 16 px crisp.
    """
    icon = QIcon(str(icon_svg()))
    for size, png in icon_pngs().items():
        icon.addFile(str(png), QSize(size, size))
    return icon


def apply_identity(app: QApplication) -> None:
    """Give ``app`` the application's names, version, desktop id and icon.

    Call it before the first window is shown: Windows reads the taskbar id
    (``APP_USER_MODEL_ID``) once, when the process opens its first window.
    """
    app.setApplicationName(APPLICATION_NAME)
    app.setOrganizationName(ORGANIZATION_NAME)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(application_icon())
    if sys.platform == "win32":
        import ctypes

        ctypes.windll.shell32.SetCurrentProcessExplicitAppUserModelID(APP_USER_MODEL_ID)


def about_text() -> str:
    """Rich text for the About box: version, purpose, licence, libraries.

    No web address: the project has none of its own yet, and a placeholder link
    would send a learner nowhere.
    """
    translate = QCoreApplication.translate  # lupdate reads translate("About", "…")
    paragraphs = [
        "<h3>" + translate("About", "QKV Desktop {0}").format(__version__) + "</h3>",
        "<p>" + translate("About", "See, touch and understand self-attention: Q, K, V, "
                          "scores and weights as live, editable heatmaps.") + "</p>",
        "<p>" + translate("About", "Released under the {licence} licence.").format(
            licence=LICENSE_NAME) + "</p>",
        "<p><small>" + translate("About", "Built with PySide6 {pyside} (Qt {qt}) and NumPy "
                                 "{numpy}.").format(pyside=PySide6.__version__, qt=qVersion(),
                                                    numpy=np.__version__)
        + "</small></p>",
    ]
    return "\n".join(paragraphs)
