"""The application icon in all its forms, as ``resources/make_icons.py`` renders them."""

from pathlib import Path

import pytest
from PySide6.QtGui import QImage, QImageReader
from PySide6.QtSvg import QSvgRenderer

from qkv_desktop.resources import icon_pngs, icon_svg

ROOT = Path(__file__).resolve().parents[1]


def test_svg_source_parses_as_a_square():
    renderer = QSvgRenderer(str(icon_svg()))
    assert renderer.isValid()
    assert renderer.viewBox().width() == renderer.viewBox().height() > 0


def test_every_png_size_is_bundled_at_its_size(qapp):
    pngs = icon_pngs()
    assert tuple(pngs) == (16, 24, 32, 48, 64, 128, 256, 512)
    for size, png in pngs.items():
        image = QImage(str(png))
        assert (image.width(), image.height()) == (size, size), png
        assert image.hasAlphaChannel(), png


@pytest.mark.parametrize("path, sizes", [
    ("qkv_desktop/resources/icons/qkv-desktop.ico", [16, 24, 32, 48, 64, 128, 256]),
    ("resources/packaging/qkv-desktop.icns",
     [16, 32, 64, 128, 256, 512, 1024, 32, 64, 256, 512]),
])
def test_platform_icon_files_hold_every_size(qapp, path, sizes):
    reader = QImageReader(str(ROOT / path))
    found = []
    for index in range(reader.imageCount()):
        assert reader.jumpToImage(index)
        image = reader.read()
        assert image.width() == image.height(), (path, index)
        found.append(image.width())
    assert found == sizes
