"""Command line and start-up: ``qkv-desktop`` (window) and ``qkv-desktop render``."""

from qkv_desktop.app.launcher import main

__all__ = ["main"]
