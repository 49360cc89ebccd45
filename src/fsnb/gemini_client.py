"""The one way fsnb builds a google-genai client, for the gemini backend and the embedder.

`FSNB_GEMINI_BASE_URL` points every client elsewhere (a proxy, or the fake server in tests).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from google import genai

BASE_URL_VARIABLE = "FSNB_GEMINI_BASE_URL"
#: responseJsonSchema is documented for v1beta; google-genai 3.x would otherwise use v1.
API_VERSION = "v1beta"


def gemini_base_url(base_url: str | None = None) -> str | None:
    """`base_url`, else `FSNB_GEMINI_BASE_URL`, else None (Google's own endpoint)."""
    return base_url or os.environ.get(BASE_URL_VARIABLE) or None


def gemini_client(
    api_key: str, *, base_url: str | None = None, timeout_s: float = 60.0, attempts: int = 1
) -> genai.Client:
    """A Gemini API client (never Vertex AI); `attempts` > 1 lets the SDK retry by itself."""
    from google import genai  # heavy: imported when a client is built, not with fsnb.index
    from google.genai import types

    http = types.HttpOptions(
        base_url=gemini_base_url(base_url),
        api_version=API_VERSION,
        timeout=int(timeout_s * 1000),
        retry_options=types.HttpRetryOptions(attempts=attempts),
    )
    return genai.Client(api_key=api_key, vertexai=False, http_options=http)
