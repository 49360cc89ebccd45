"""Settings: arguments, then environment (FSNB_*, GOOGLE_API_KEY), then defaults.

Keys and base URLs may also come from a .env file; the OpenAI-compatible backend reads the
openai SDK's own variables (OPENAI_API_KEY, OPENAI_BASE_URL) that way."""

from __future__ import annotations

import os
from pathlib import Path

KEY_VARIABLES = ("GOOGLE_API_KEY", "GEMINI_API_KEY")
DEFAULT_MODEL = "gemini-3-flash-preview"


def setting(names: tuple[str, ...], dotenv: str | Path | None = None) -> str | None:
    """The first of `names` set in the environment, else in a .env file (cwd upwards)."""
    for name in names:
        if value := os.environ.get(name, "").strip():
            return value
    from dotenv import dotenv_values, find_dotenv

    path = str(dotenv) if dotenv else find_dotenv(usecwd=True)
    if path and Path(path).is_file():
        values = dotenv_values(path)
        for name in names:
            if value := (values.get(name) or "").strip():
                return value
    return None


def api_key(dotenv: str | Path | None = None) -> str | None:
    """The Gemini key from GOOGLE_API_KEY, GEMINI_API_KEY, or a .env file (cwd upwards)."""
    return setting(KEY_VARIABLES, dotenv)


def model_from_env() -> str | None:
    """The model named by FSNB_MODEL, for any backend."""
    return os.environ.get("FSNB_MODEL", "").strip() or None


def default_model() -> str:
    """The Gemini model: FSNB_MODEL, else DEFAULT_MODEL."""
    return model_from_env() or DEFAULT_MODEL
