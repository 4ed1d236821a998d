"""Exported heatmap figures: one layout painted as PNG, vector SVG and vector PDF."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html import unescape

import numpy as np
import pytest
from PySide6.QtGui import QFontMetricsF

from qkv_desktop.export.figures import (
    FONT_FAMILIES as FAMILIES,
)
from qkv_desktop.export.figures import (
    RASTER_CELLS,
    FigureSpec,
    check_scale,
    dashboard_bytes,
    figure_bytes,
    figure_image,
    layout_dashboard,
    layout_figure,
    save_dashboard,
    save_figure,
)
from qkv_desktop.export.pane_figures import PANE_NAMES, pane_spec, pane_specs
from qkv_desktop.presentation.colormaps import (
    MASKED_RGBA,
    OVERFLOW_RGBA,
    levels_for,
    lut_for,
    map_to_rgba,
    text_color_for,
)
from qkv_desktop.state.compute import compute
from qkv_desktop.state.session_state import Options, SessionState
from tests.io.image_checks import (
    CHROMIUM,
    chromium_screenshot,
    image_array,
    pdf_streams,
)

SVG = "{http://www.w3.org/2000/svg}"
TOKENS = ["我", "爱", "人工", "智能"]


@pytest.fixture
def specs(qapp):
    return {s.name: s for s in pane_specs(compute(SessionState.from_preset("tutorial-1")))}


@pytest.fixture
def causal_specs(qapp):
    state = SessionState.from_preset("tutorial-1").with_(options=Options(causal=True))
    return {s.name: s for s in pane_specs(compute(state))}


def svg_root(spec: FigureSpec) -> ET.Element:
    return ET.fromstring(figure_bytes(spec, "svg"))


def svg_rects(root: ET.Element) -> list[tuple[float, float, float, float, str]]:
    """(x, y, w, h, fill) of every <rect>; QSvgGenerator puts the fill on the parent <g>."""
    out = []
    for g in root.iter(SVG + "g"):
        for r in g.findall(SVG + "rect"):
            out.append((float(r.get("x")), float(r.get("y")), float(r.get("width")),
                        float(r.get("height")), (r.get("fill") or g.get("fill", "")).lower()))
    return out


def svg_texts(root: ET.Element) -> list[tuple[str, str]]:
    """(text, fill colour) of every <text>."""
    return [(t.text or "", (t.get("fill") or "").lower()) for t in root.iter(SVG + "text")]


def hex_color(rgba) -> str:
    r, g, b = (int(v) for v in rgba[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def cell_rect(lay, r: int, c: int) -> tuple[float, float, float, float]:
    g, s, gap = lay.grid, lay.cell, lay.gap
    return g.x() + c * s + gap / 2, g.y() + r * s + gap / 2, s - gap, s - gap


def assert_masked_cells_grey(lay, pixels: np.ndarray, scale: float) -> None:
    """Masked cells are a neutral grey (hatched), never a colour of the map."""
    assert lay.masked.any()
    for r, c in zip(*np.nonzero(lay.masked), strict=True):
        x, y, w, h = cell_rect(lay, r, c)
        block = pixels[int((y + 2) * scale):int((y + h - 2) * scale),
                       int((x + 2) * scale):int((x + w - 2) * scale), :3].astype(int)
        spread = block.max(axis=2) - block.min(axis=2)
        assert spread.max() <= 12, (r, c, "masked cell is not grey")


def assert_cell_colours(lay, pixels: np.ndarray, scale: float, atol: int = 3) -> None:
    """Every unmasked cell has its colour near its top-left corner (away from its number)."""
    for r, c in zip(*np.nonzero(~lay.masked), strict=True):
        x, y, _, _ = cell_rect(lay, r, c)
        px = pixels[int((y + 4) * scale), int((x + 4) * scale), :3].astype(int)
        assert np.abs(px - lay.rgba[r, c, :3]).max() <= atol, (r, c, px, lay.rgba[r, c])


# -- SVG: real vector content ----------------------------------------------------

def test_svg_draws_every_cell_as_a_rect_in_its_colour(specs):
    spec = specs["scaled"]
    lay = layout_figure(spec)
    rects = svg_rects(svg_root(spec))
    expected = map_to_rgba(spec.data, lut_for("scaled"), levels_for("scaled", spec.data))
    for r in range(4):
        for c in range(4):
            x, y, w, h = cell_rect(lay, r, c)
            hits = [f for (rx, ry, rw, rh, f) in rects
                    if math.isclose(rx, x, abs_tol=0.01) and math.isclose(ry, y, abs_tol=0.01)
                    and math.isclose(rw, w, abs_tol=0.01) and math.isclose(rh, h, abs_tol=0.01)]
            assert hex_color(expected[r, c]) in hits, (r, c, hits)


def test_svg_text_is_selectable_tokens_and_values_cjk_included(specs):
    root = svg_root(specs["weights"])
    texts = [t for t, _ in svg_texts(root)]
    assert root.find(f".//{SVG}image") is None, "the cells must not be a bitmap"
    for token in TOKENS:
        assert texts.count(token) == 2, f"{token} should label a row and a column"
    weights = specs["weights"].data
    assert f"{weights[0, 0]:.4f}" in texts
    assert "weights = softmax (4×4)" in texts


def test_svg_title_and_axis_labels_match_pane(specs):
    texts = [t for t, _ in svg_texts(svg_root(specs["q"]))]
    assert "Q = X·W_Q (queries) (4×4)" in texts
    assert {"0", "1", "2", "3"} <= set(texts)  # dimension indices label the columns
    assert {"query", "dimension"} <= set(texts)


def test_cell_numbers_contrast_with_the_cell(specs):
    spec = specs["x"]  # 0.9 is dark red (white text), 0.1 is pale (black text)
    lay = layout_figure(spec)
    np.testing.assert_array_equal(lay.white, text_color_for(lay.rgba))
    assert lay.white[1, 1] and not lay.white[0, 1]
    fills = {t: f for t, f in svg_texts(svg_root(spec))}
    assert fills["0.9000"] == "#ffffff"
    assert fills["0.5000"] != "#ffffff" or lay.white[0, 4]


def test_figures_print_the_tutorials_four_decimals(specs, qapp):
    """Tutorial-1's weights and tutorial-2's scores as the tutorial prints them (issue 17):
    three significant digits merged 0.2509 and 0.2512 into 0.251."""
    texts = [t for t, _ in svg_texts(svg_root(specs["weights"]))]
    assert " ".join(texts).count("0.2480 0.2509 0.2499 0.2512") == 1
    demo2 = {s.name: s for s in pane_specs(compute(SessionState.from_preset("tutorial-2")))}
    texts = [t for t, _ in svg_texts(svg_root(demo2["scores"]))]
    assert "−0.2180" in texts and "−0.5040" in texts and "0.3787" in texts
    texts = {t for t, _ in svg_texts(svg_root(specs["x"]))}
    assert "0.8000" in texts and "0.8" not in texts  # inputs too: one rule for every cell


def test_large_values_switch_to_four_significant_digits_and_the_cells_grow(qapp):
    data = np.array([[-418044.3298, 12.5], [9999.99994, 0.00004]])
    lay = layout_figure(FigureSpec("scores", "big", data, ["a", "b"], ["a", "b"]))
    assert lay.values == [["−4.180e+05", "12.5000"], ["9999.9999", "0.0000"]]
    fm = QFontMetricsF(lay.value_font)
    widest = max(fm.horizontalAdvance(t) for row in lay.values for t in row)
    assert widest + 4 <= lay.cell - lay.gap, "the cell is sized to fit its widest value"


def test_masked_cells_are_grey_hatched_and_without_number(causal_specs):
    spec = causal_specs["scaled"]
    assert spec.masked is not None and spec.masked.sum() == 6
    lay = layout_figure(spec)
    root = svg_root(spec)
    texts = [t for t, _ in svg_texts(root)]
    assert "−∞" not in texts and "masked" in texts
    rects = svg_rects(root)
    x, y, w, h = cell_rect(lay, 0, 3)
    masked_fill = [f for (rx, ry, rw, rh, f) in rects
                   if math.isclose(rx, x, abs_tol=0.01) and math.isclose(ry, y, abs_tol=0.01)]
    assert masked_fill == [hex_color(MASKED_RGBA)]  # the panes' grey
    lines = [p for p in root.iter(SVG + "polyline")]
    inside = 0
    for p in lines:
        pts = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        inside += all(x - 0.01 <= px <= x + w + 0.01 and y - 0.01 <= py <= y + h + 0.01
                      for px, py in pts)
    assert inside >= 5, "the masked cell should be hatched"
    # the weights' masked cells too: grey and hatched, not 0.0000 on the palest colour
    weights = causal_specs["weights"]
    assert weights.masked is not None and weights.masked.sum() == 6
    assert "masked" in [t for t, _ in svg_texts(svg_root(weights))]
    assert causal_specs["q"].masked is None  # nothing masked there: no legend


def test_masked_shifted_scores_are_masked_in_the_figure_as_in_the_pane(qapp):
    """S − max(S) of a causal session is −∞ where the mask is: the pane paints those
    cells grey and its hover says "masked"; its figure must say the same, not call
    them overflowed ("non-finite", magenta)."""
    state = SessionState.from_preset("tutorial-1").with_(options=Options(causal=True))
    spec = pane_spec(compute(state), "S_shift")
    assert spec.masked is not None and spec.masked.sum() == 6
    lay = layout_figure(spec)
    assert not lay.nonfinite.any()
    texts = [t for t, _ in svg_texts(svg_root(spec))]
    assert "masked" in texts and "non-finite" not in texts


def test_nonfinite_cells_are_highlighted(qapp):
    data = np.array([[1.0, np.nan, -2.0], [np.inf, 0.5, -np.inf]])
    spec = FigureSpec("scores", "broken", data, ["a", "b"], ["x", "y", "z"])
    lay = layout_figure(spec)
    np.testing.assert_array_equal(lay.nonfinite, ~np.isfinite(data))
    root = svg_root(spec)
    texts = [t for t, _ in svg_texts(root)]
    assert {"NaN", "∞", "−∞", "non-finite"} <= set(texts)
    magenta = [f for (*_xywh, f) in svg_rects(root) if f == hex_color(OVERFLOW_RGBA)]
    assert len(magenta) == 4  # three cells and the legend swatch, the panes' magenta


# -- PNG ---------------------------------------------------------------------------

def test_png_size_follows_scale(specs, tmp_path):
    spec = specs["scores"]
    lay = layout_figure(spec)
    for scale in (1.0, 2.0, 3.5):
        image = figure_image(spec, scale)
        assert (image.width(), image.height()) == (math.ceil(lay.width * scale),
                                                  math.ceil(lay.height * scale))
    path = save_figure(spec, tmp_path / "s.png", scale=3)
    saved = image_array(path)
    assert saved.shape[:2] == (math.ceil(lay.height * 3), math.ceil(lay.width * 3))


def test_transparent_background_has_clear_margins(specs):
    spec = specs["weights"]
    clear = image_array(figure_image(spec, 2.0, background="transparent"))
    white = image_array(figure_image(spec, 2.0))
    margin = 2 * 10  # the figure margin is 12 pt
    for border in (clear[:margin], clear[-margin:], clear[:, :margin], clear[:, -margin:]):
        assert (border[..., 3] == 0).all()
    assert (white[:margin, ..., :3] == 255).all() and (white[..., 3] == 255).all()
    lay = layout_figure(spec)
    cx, cy = int((lay.grid.x() + lay.cell / 2) * 2), int((lay.grid.y() + lay.cell / 2) * 2)
    assert clear[cy, cx, 3] == 255, "cells stay opaque"


def test_png_shows_the_cell_colours(specs):
    spec = specs["x"]
    lay = layout_figure(spec)
    expected = map_to_rgba(spec.data, lut_for("X"), levels_for("X", spec.data))
    np.testing.assert_array_equal(lay.rgba, expected)
    assert_cell_colours(lay, image_array(figure_image(spec, 2.0)), 2.0, atol=1)


# -- SVG as a browser draws it ------------------------------------------------------

@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                             "(apt-get install chromium)")
def test_svg_in_chromium_shows_the_cells_and_the_mask(causal_specs, tmp_path):
    """What a reader sees in a browser: every cell's colour at its place, masked cells grey."""
    spec = causal_specs["scaled"]  # CJK labels, numbers, hatching, legend, colour bar
    lay = layout_figure(spec)
    svg = tmp_path / "scaled.svg"
    save_figure(spec, svg)
    shot = chromium_screenshot(svg, int(lay.width), int(lay.height), 2.0, tmp_path)
    assert_cell_colours(lay, shot, 2.0)
    assert_masked_cells_grey(lay, shot, 2.0)
    # The check notices one cell (of 16) drawn in another colour.
    changed = spec.data.copy()
    changed[3, 0] = -changed[3, 3]
    other = FigureSpec(spec.name, spec.title, changed, spec.row_labels, spec.col_labels,
                       masked=spec.masked, colormap="scaled", row_axis=spec.row_axis,
                       col_axis=spec.col_axis)
    with pytest.raises(AssertionError):
        assert_cell_colours(layout_figure(other), shot, 2.0)


def test_svg_names_fallback_faces_for_viewers_without_ours(specs):
    """A viewer lacking the bundled fonts falls back to faces of the same design."""
    families = {t.get("font-family") for t in svg_root(specs["scaled"]).iter(SVG + "g")
                if t.find(SVG + "text") is not None}
    assert families, "text groups carry their font"
    for family in families:
        names = [n.strip() for n in family.split(",")]
        assert names[:2] == list(FAMILIES)
        assert "DejaVu Sans" in names and "Noto Sans CJK SC" in names
        assert names[-1] == "sans-serif"


# -- PDF -------------------------------------------------------------------------

def test_pdf_is_vector_with_real_text(specs, tmp_path):
    spec = specs["weights"]
    lay = layout_figure(spec)
    path = save_figure(spec, tmp_path / "w.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert b"/Subtype /Image" not in data and b"/Subtype/Image" not in data
    content = b"\n".join(pdf_streams(data))
    assert b"BT" in content and (b"Tj" in content or b"TJ" in content), "text operators"
    assert content.count(b" re") >= 16, "cells as rectangles"
    box = [float(v) for v in
           data.split(b"/MediaBox")[1].split(b"[")[1].split(b"]")[0].split()]
    assert box[2] - box[0] == pytest.approx(lay.width, abs=0.5)
    assert box[3] - box[1] == pytest.approx(lay.height, abs=0.5)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) "
                                                             "is not installed")
def test_pdf_shows_the_cell_colours(causal_specs, tmp_path):
    spec = causal_specs["scaled"]
    lay = layout_figure(spec)
    path = save_figure(spec, tmp_path / "s.pdf")
    subprocess.run(["pdftoppm", "-r", "144", "-png", "-singlefile", str(path),
                    str(tmp_path / "page")], check=True, timeout=60)
    page = image_array(tmp_path / "page.png")
    assert_cell_colours(lay, page, 2.0)
    assert_masked_cells_grey(lay, page, 2.0)
    assert_cell_colours(lay, image_array(figure_image(spec, 2.0)), 2.0)


def pdf_words(path) -> list[tuple[str, float, float]]:
    """(text, x centre, y centre) in points of every word ``pdftotext -bbox`` finds."""
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True,
                          text=True, check=True, timeout=60).stdout
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                       r'yMax="([\d.]+)">([^<]*)</word>', html)
    return [(unescape(t), (float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2)
            for x0, y0, x1, y1, t in words]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_pdf_text_stands_where_the_layout_puts_it(specs, tmp_path):
    """Token labels and cell values are real text, each at its place in the layout."""
    spec = specs["scores"]
    lay = layout_figure(spec)
    words = pdf_words(save_figure(spec, tmp_path / "s.pdf"))

    def find(text, x, y, tol):
        near = [(wx, wy) for t, wx, wy in words if t == text
                and abs(wx - x) <= tol and abs(wy - y) <= tol]
        assert near, f"{text!r} not found near ({x:.1f}, {y:.1f}): {words}"

    for item in lay.row_labels:  # right-aligned: the word ends at the rect's right edge
        rect = item.rect
        find(item.text, rect.right() - len(item.text) * 5.5, rect.center().y(), 8)
    for _, item in lay.col_labels:
        find(item.text, item.rect.center().x(), item.rect.center().y(), 4)
    for r in range(4):
        for c in range(4):
            x, y, w, h = cell_rect(lay, r, c)
            find(lay.values[r][c], x + w / 2, y + h / 2, 3)


def test_figures_use_the_bundled_faces_with_pinned_weights(specs, tmp_path):
    """The PDF embeds only our figure fonts; PNG text resolves to the same faces."""
    from PySide6.QtGui import QTextLayout

    from qkv_desktop.export.figure_fonts import figure_font
    for bold in (False, True):
        text = QTextLayout("我爱人工智能 0.2480 −0.0035 QKᵀ", figure_font(11, bold=bold))
        text.beginLayout()
        text.createLine()
        text.endLayout()
        faces = {(run.rawFont().familyName(), run.rawFont().weight()) for run in text.glyphRuns()}
        weight = 700 if bold else 400
        assert faces == {("QKV Figure Latin", weight), ("QKV Figure CJK", weight)}, faces
    if shutil.which("pdffonts"):
        path = save_figure(specs["scaled"], tmp_path / "s.pdf")
        out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                             check=True, timeout=60).stdout.splitlines()[2:]
        names = {line.split()[0].split("+")[-1] for line in out}
        assert names and all(n.startswith("QKVFigure") for n in names), names
        assert "QKVFigureCJK-Regular" in names and "QKVFigureLatin-Bold" in names


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_pdf_text_can_be_extracted(specs, tmp_path):
    path = save_figure(specs["scores"], tmp_path / "s.pdf")
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout
    # The bundled CJK subset maps 人 only to U+4EBA (the full Noto font also maps the
    # Kangxi radical ⼈ to that glyph, and Qt's PDF writer then copied out the radical).
    assert "\u2f08" not in text  # ⼈
    for token in TOKENS:
        assert token in text
    assert f"{specs['scores'].data[3, 3]:.4f}" in text


# -- large matrices -------------------------------------------------------------------

def test_large_matrix_stays_small_and_legible(qapp, tmp_path):
    n = 512
    rng = np.random.default_rng(1)
    spec = FigureSpec("scores", "big", rng.normal(size=(n, n)), [f"t{i}" for i in range(n)],
                      [f"t{i}" for i in range(n)])
    assert n * n > RASTER_CELLS
    lay = layout_figure(spec)
    assert lay.raster and lay.values is None
    assert lay.row_step in (10, 20, 50) and lay.col_step in (10, 20, 50)
    ys = sorted(t.rect.center().y() for t in lay.row_labels)
    assert min(np.diff(ys)) >= 11, "row labels must not overlap"
    svg = figure_bytes(spec, "svg")
    assert len(svg) < 2_000_000 and b"<image" in svg and b"optimizeSpeed" in svg
    image = image_array(figure_image(spec, 1.0))
    assert image.shape[1] < 800


def test_medium_matrix_thins_labels_to_round_steps(qapp):
    n = 100
    spec = FigureSpec("weights", "w", np.full((n, n), 0.01), [f"token{i}" for i in range(n)],
                      [f"token{i}" for i in range(n)])
    lay = layout_figure(spec)
    assert not lay.raster and lay.values is None
    assert lay.row_step in (2, 5, 10)
    assert [t.text for t in lay.row_labels][:2] == ["token0", f"token{lay.row_step}"]
    assert len(svg_rects(svg_root(spec))) >= n * n


# -- dashboard, panes, bad input -----------------------------------------------------

def test_dashboard_places_all_panes_without_overlap(specs, tmp_path):
    ordered = [specs[name] for name in PANE_NAMES]
    lay = layout_dashboard(ordered, "Self-attention: 我 爱 人工 智能", columns=4)
    boxes = [(o.x(), o.y(), o.x() + f.width, o.y() + f.height) for o, f in lay.figures]
    assert len(boxes) == 8 and len({round(b[1]) for b in boxes}) == 2
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[2] <= lay.width and a[3] <= lay.height
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    texts = [t for t, _ in svg_texts(ET.fromstring(dashboard_bytes(ordered, "svg",
                                                                   title=lay.title.text)))]
    # Qt writes one <text> per font run: the Latin and the CJK parts of the title.
    assert "Self-attention: 我 爱 人工 智能" in "".join(texts)
    assert all(s.title in "".join(texts) for s in ordered)
    path = save_dashboard(ordered, tmp_path / "d.png", scale=1, title=lay.title.text)
    assert image_array(path).shape[:2] == (lay.height, lay.width)


def test_pane_specs_follow_options_heads_and_cross_mode(qapp):
    base = SessionState.from_preset("tutorial-1")
    specs = pane_specs(compute(base.with_(options=Options(scale=3.0, temperature=0.5))))
    assert [s.name for s in specs] == list(PANE_NAMES)
    scaled = specs[PANE_NAMES.index("scaled")]
    assert scaled.title.startswith("QKᵀ / 3") and "0.5" in scaled.title
    two = SessionState.initialised(base.tokens, base.X, d_k=4, n_heads=2)
    second = pane_specs(compute(two), h=1)
    np.testing.assert_array_equal(second[1].data, compute(two).head(1).Q)
    assert "2" in second[1].title
    cross = base.with_(mode="cross", kv_tokens=("猫", "追", "老鼠"), X_kv=np.eye(3, 8))
    k = {s.name: s for s in pane_specs(compute(cross))}
    assert list(k["k"].row_labels) == ["猫", "追", "老鼠"]
    assert list(k["weights"].col_labels) == ["猫", "追", "老鼠"]
    assert list(k["weights"].row_labels) == TOKENS


def test_bad_input_is_refused_and_nothing_written(specs, tmp_path):
    with pytest.raises(ValueError, match="row labels"):
        FigureSpec("q", "t", np.zeros((2, 2)), ["a"], ["x", "y"])
    with pytest.raises(ValueError, match="2-D"):
        FigureSpec("q", "t", np.zeros(3), [], [])
    with pytest.raises(ValueError, match="gif"):
        save_figure(specs["q"], tmp_path / "q.gif")
    for scale in (0, -1, float("nan"), float("inf"), 11, True, "2"):
        with pytest.raises(ValueError, match="scale"):
            save_figure(specs["q"], tmp_path / "q.png", scale=scale)
    with pytest.raises(ValueError, match="background"):
        save_figure(specs["q"], tmp_path / "q.png", background="black")
    assert list(tmp_path.iterdir()) == []
    assert check_scale(np.float32(1.5)) == 1.5


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_dashboard_keeps_a_flat_x_legible(qapp, tmp_path):
    """A MiniLM-sized X (7 tokens × d_model 384) is no flat strip in the dashboard.

    Square cells made it 384×7 pt: one row label and the caption "token" cut to "kt".
    Its rows now fit every label, and pdftotext finds all of them and "token" whole.
    """
    from qkv_desktop.export.figure_set import dashboard_layout
    from qkv_desktop.export.figures import encode_layout
    tokens = ["[CLS]", "the", "cat", "sat", "on", "mat", "[SEP]"]
    rng = np.random.default_rng(3)
    state = SessionState.initialised(tokens, rng.normal(size=(7, 384)), d_k=64)
    lay = dashboard_layout(compute(state))
    x = next(f for _, f in lay.figures if f.spec.name == "x")
    assert x.spec.data.shape == (7, 384)
    assert [t.text for t in x.row_labels] == tokens
    label_h = QFontMetricsF(_label_font()).capHeight() * 1.6  # labels closer than this touch
    assert x.grid.height() >= 7 * label_h
    ys = [t.rect.center().y() for t in x.row_labels]
    assert min(np.diff(ys)) >= label_h
    caption_w = QFontMetricsF(_caption_font()).horizontalAdvance(x.spec.row_axis)
    assert x.row_caption[1].rect.width() >= caption_w  # the rotated caption's room
    path = tmp_path / "d.pdf"
    path.write_bytes(encode_layout(lay, "pdf"))
    words = [w[0] for w in pdf_words(path)]
    assert x.spec.row_axis in words and "kt" not in words
    for token in tokens:
        assert token in words


def _label_font():
    from qkv_desktop.export.figures import _LABEL_PX, _font
    return _font(_LABEL_PX)


def _caption_font():
    from qkv_desktop.export.figures import _CAPTION_PX, _font
    return _font(_CAPTION_PX, italic=True)
