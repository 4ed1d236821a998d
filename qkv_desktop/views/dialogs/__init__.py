"""Dialogs: open a model checkpoint."""
