"""An elided label's tool tip with a rich-text note reads as rich text.

The banners' headline is an ``ElidedLabel`` whose note is their details, rich text.
Cut short, the tip was the whole headline, a line break and the note: Qt took the tip
for plain text from its first line, and showed "<b>Naive softmax broke…</b>" and
"<a href='stable'>" as written (a first user, at 942 px in English).
"""

from __future__ import annotations

from PySide6 import QtGui

from qkv_desktop.views.elided_label import ElidedLabel


def test_a_cut_headline_and_a_rich_note_make_one_rich_tip(qtbot):
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.setText("Naive softmax broke: every weight of 4 rows is 0 & more")
    label.set_note("<b>Naive softmax broke</b>: exp(s) / ∞ = 0. "
                   "<a href='stable'>Use the stable softmax</a>")
    label.resize(60, 20)
    label.show()
    qtbot.waitExposed(label)
    assert label.is_shortened()
    tip = label.toolTip()
    assert QtGui.Qt.mightBeRichText(tip)
    assert tip.startswith("Naive softmax broke: every weight of 4 rows is 0 &amp; more<br>")
    assert "<b>Naive softmax broke</b>" in tip
    label.resize(2000, 20)  # whole: the tip is the note alone
    assert label.toolTip().startswith("<b>Naive softmax broke</b>")
