"""Helpers and corpus content for ``data/generate.py``."""
