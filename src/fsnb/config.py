"""Settings: arguments, then environment (FSNB_*, GOOGLE_API_KEY), then defaults."""

from __future__ import annotations

import os
from pathlib import Path

KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")
DEFAULT_MODEL = "gemini-3-flash-preview"


def api_key(dotenv: str | Path | None = None) -> str | None:
    """The Gemini key from GOOGLE_API_KEY, GEMINI_API_KEY, or a .env file (cwd upwards)."""
    for name in KEY_VARIABLES:
        if value := os.environ.get(name, "").strip():
            return value
    from dotenv import dotenv_values, find_dotenv

    path = str(dotenv) if dotenv else find_dotenv(usecwd=True)
    if path and Path(path).is_file():
        values = dotenv_values(path)
        for name in KEY_VARIABLES:
            if value := (values.get(name) or "").strip():
                return value
    return None


def default_model() -> str:
    return os.environ.get("FSNB_MODEL") or DEFAULT_MODEL
