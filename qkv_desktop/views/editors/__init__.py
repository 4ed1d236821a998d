"""Editors: token/vector tables, weight tables, the option controls."""
