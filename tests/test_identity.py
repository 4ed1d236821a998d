"""The application's identity: names, desktop id, icon, About text."""

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from qkv_desktop import __version__
from qkv_desktop.resources import icon_pngs, resource_path
from qkv_desktop.views.identity import about_text, application_icon, apply_identity


@pytest.fixture
def restored_app(qapp):
    """``qapp``, with the identity other tests see put back afterwards."""
    saved = (qapp.applicationName(), qapp.organizationName(), qapp.organizationDomain(),
             qapp.applicationVersion(), qapp.desktopFileName(), qapp.windowIcon())
    yield qapp
    qapp.setApplicationName(saved[0])
    qapp.setOrganizationName(saved[1])
    qapp.setOrganizationDomain(saved[2])
    qapp.setApplicationVersion(saved[3])
    qapp.setDesktopFileName(saved[4])
    qapp.setWindowIcon(saved[5])


def test_apply_identity_sets_names_version_and_desktop_id(restored_app):
    apply_identity(restored_app)
    assert restored_app.applicationName() == "QKV Desktop"
    assert restored_app.applicationVersion() == __version__
    assert restored_app.desktopFileName() == "qkv-desktop"
    assert restored_app.organizationName() and restored_app.organizationDomain()
    assert not restored_app.windowIcon().isNull()


def test_icon_at_16_px_is_the_bundled_png(qapp):
    pixmap = application_icon().pixmap(QSize(16, 16))
    assert (pixmap.width(), pixmap.height()) == (16, 16)
    expected = QImage(str(icon_pngs()[16])).convertToFormat(QImage.Format.Format_ARGB32)
    assert pixmap.toImage().convertToFormat(QImage.Format.Format_ARGB32) == expected


def test_icon_scales_to_sizes_without_a_png(qapp):
    pixmap = application_icon().pixmap(QSize(100, 100))
    assert (pixmap.width(), pixmap.height()) == (100, 100)
    # The top-left heatmap cell (the brightest weight) is pale yellow at any size.
    colour = pixmap.toImage().pixelColor(15, 15)
    assert colour.red() > 230 and colour.green() > 230 and colour.blue() < 230


def test_about_text_names_version_licence_and_libraries(qapp):
    text = about_text()
    assert __version__ in text
    assert "MIT" in text
    assert "PySide6" in text and "NumPy" in text
    assert "example.org" not in text and "<a " not in text  # no placeholder link


def test_missing_resource_is_named():
    with pytest.raises(FileNotFoundError, match="no-such-icon.png"):
        resource_path("icons", "no-such-icon.png")
