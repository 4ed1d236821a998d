"""Style sheets more than one view shares: one red for every refusal and error message.

The labs, the scaling lab, the decoder panel and the Open model dialog each had their
own copy (in two different reds); a message that says "no" looks the same wherever it
is shown.
"""

from __future__ import annotations

__all__ = ["ERROR_COLOR", "ERROR_STYLE"]

ERROR_COLOR = "#b2182b"
"""The diverging map's red, legible on white: refusals and errors."""
ERROR_STYLE = f"color: {ERROR_COLOR};"
"""A refusal or error message's text: the diverging map's red, legible on white."""
