"""QKV Desktop: see, touch and understand self-attention."""

__version__ = "0.1.0"
