"""Build the fonts that exported figures are drawn in (run by hand; needs fontTools).

Why bundle fonts at all: a figure's PNG, SVG and PDF must show the same glyphs in
the same weights on every machine. Left to fontconfig, the faces depend on which
font files a machine happens to have (one machine drew CJK row labels in Noto's
bold face in the PNG and the regular face in the PDF). So figures are drawn in two
families of our own, registered with Qt at start-up, and nothing else:

* ``QKV Figure Latin`` (Book, Bold, Oblique): a subset of DejaVu Sans — digits, Latin,
  Greek, the minus sign, sub- and superscripts (ᵀ, ₖ), arrows and maths operators.
* ``QKV Figure CJK`` (Regular, Bold): a subset of Noto Sans CJK SC — the 6,763
  hanzi of GB 2312, every character of the Chinese translation, CJK punctuation and
  full-width forms.

Both are freely licensed (DejaVu: the Bitstream Vera licence, which asks that a
modified font be renamed — hence the new family names; Noto Sans CJK: the SIL Open
Font License 1.1); the licence texts are copied beside the fonts. A character
outside both subsets (an emoji in a token, a rare hanzi) still renders, through the
system's fallback fonts.

    python resources/make_figure_fonts.py   # writes qkv_desktop/resources/fonts/
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "qkv_desktop" / "resources" / "fonts"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
NOTO = Path("/usr/share/fonts/opentype/noto")
NOTO_SC_INDEX = 2  # "Noto Sans CJK SC" inside Debian's NotoSansCJK-*.ttc

LATIN_RANGES = [
    (0x0020, 0x024F),  # Basic Latin, Latin-1, Latin Extended-A/B
    (0x0370, 0x03FF),  # Greek
    (0x1D00, 0x1DBF),  # phonetic extensions: ᵀ ᵢ ⱼ
    (0x2000, 0x206F),  # general punctuation: – — … ‖
    (0x2070, 0x209F),  # superscripts and subscripts
    (0x2100, 0x214F),  # letterlike symbols
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators: − √ ∞ Σ ≈ ≤
    (0x2300, 0x23FF),  # miscellaneous technical
    (0x25A0, 0x25FF),  # geometric shapes
]
CJK_RANGES = [
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFFEF),  # full-width forms
    (0x2018, 0x201F),  # curly quotes, as Chinese text uses them
    (0x00B7, 0x00B7),
]


def gb2312_hanzi() -> set[int]:
    """The 6,763 hanzi of GB 2312 (rows 16–87), decoded from the codec itself."""
    out = set()
    for hi in range(0xB0, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([hi, lo]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return out


def translation_chars() -> set[int]:
    text = (ROOT / "qkv_desktop" / "resources" / "translations"
            / "qkv_desktop_zh_CN.ts").read_text(encoding="utf-8")
    return {ord(c) for c in text if ord(c) >= 0x2E80}


def ranges(spans) -> set[int]:
    return {c for lo, hi in spans for c in range(lo, hi + 1)}


def rename(font: TTFont, family: str, style: str) -> None:
    """New family names (a modified DejaVu must not keep its name), consistent everywhere."""
    full = family if style in ("Regular", "Book") else f"{family} {style}"
    postscript = re.sub(r"[^A-Za-z0-9-]", "", family.replace(" ", "")) + "-" + style
    names = {1: family, 2: style, 3: f"QKV Desktop: {full}", 4: full, 6: postscript,
             16: family, 17: style}
    table = font["name"]
    for record in list(table.names):
        if record.nameID in names or record.nameID in (21, 22):
            table.removeNames(nameID=record.nameID)
    for name_id, value in names.items():
        table.setName(value, name_id, 3, 1, 0x409)
        table.setName(value, name_id, 1, 0, 0)


def subset_font(font: TTFont, codepoints: set[int], family: str, style: str,
                target: Path) -> None:
    options = subset.Options()
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.layout_features = ["*"]
    options.notdef_outline = True
    options.hinting = False  # figures are drawn unhinted (same widths in PNG, SVG, PDF)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    rename(font, family, style)
    font.save(target)
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    latin = ranges(LATIN_RANGES)
    for source, style in (("DejaVuSans.ttf", "Book"), ("DejaVuSans-Bold.ttf", "Bold"),
                          ("DejaVuSans-Oblique.ttf", "Oblique")):
        subset_font(TTFont(DEJAVU / source), latin, "QKV Figure Latin", style,
                    OUT / f"QKVFigureLatin-{style}.ttf")
    cjk = ranges(CJK_RANGES) | gb2312_hanzi() | translation_chars()
    for source, style in (("NotoSansCJK-Regular.ttc", "Regular"),
                          ("NotoSansCJK-Bold.ttc", "Bold")):
        font = TTCollection(NOTO / source).fonts[NOTO_SC_INDEX]
        subset_font(font, cjk, "QKV Figure CJK", style, OUT / f"QKVFigureCJK-{style}.otf")
    shutil.copyfile("/usr/share/doc/fonts-dejavu-core/copyright", OUT / "LICENSE-DejaVu.txt")
    shutil.copyfile("/usr/share/doc/fonts-noto-cjk/copyright", OUT / "LICENSE-NotoSansCJK.txt")


if __name__ == "__main__":
    main()
