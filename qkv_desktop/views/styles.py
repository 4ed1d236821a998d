"""Style sheets more than one view shares: one red for every refusal and error message.

The labs, the scaling lab, the decoder panel and the Open model dialog each had their
own copy (in two different reds); a message that says "no" looks the same wherever it
is shown.
"""

from __future__ import annotations

__all__ = ["ERROR_STYLE"]

ERROR_STYLE = "color: #b2182b;"
"""A refusal or error message's text: the diverging map's red, legible on white."""
