"""Figures (PNG, SVG, PDF), data files, and the headless ``render``."""
