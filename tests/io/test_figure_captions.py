"""An exported figure's axis captions ("query", "key") stand clear of the labels they
name: the caption's descenders face the labels, and a CJK label's line (a fallback
font) is taller than the label font's own, so 2 pt and 1 pt gaps read as touching."""

import numpy as np
import pytest
from PySide6.QtGui import QFontMetricsF

from qkv_desktop.export.figures import _CAPTION_PX, _LABEL_PX, FigureSpec, _font, layout_figure

CLEAR_PT = 3.5


@pytest.mark.parametrize("tokens", [("猫", "老鼠", "追"), ("[CLS]", "the", "cat", "[SEP]")])
def test_axis_captions_stand_clear_of_the_labels(qapp, tokens):
    n = len(tokens)
    spec = FigureSpec("weights", "weights", np.random.RandomState(0).rand(n, n), tokens,
                      tokens, row_axis="query", col_axis="key")
    lay = layout_figure(spec)
    labels = QFontMetricsF(_font(_LABEL_PX))
    caption_h = QFontMetricsF(_font(_CAPTION_PX, italic=True)).height()

    def glyphs(item):
        return labels.boundingRect(item.rect, int(item.align), item.text)

    origin, _caption = lay.row_caption  # turned by −90° about origin: cap_h wide
    left = min(glyphs(item).left() for item in lay.row_labels)
    assert left - (origin.x() + caption_h) >= CLEAR_PT
    top = min(glyphs(item).top() for _c, item in lay.col_labels)
    assert top - lay.col_caption.rect.bottom() >= CLEAR_PT
    assert max(glyphs(item).bottom() for _c, item in lay.col_labels) <= lay.grid.top()
