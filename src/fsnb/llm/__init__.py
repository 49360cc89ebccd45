"""LLM backends: gemini (google-genai), offline (deterministic, extractive), replay (tests)."""

from __future__ import annotations

from typing import Any

from fsnb.config import api_key
from fsnb.llm.replay import ReplayLLM
from fsnb.protocol import LLM, Conversation, LLMError, Message, MissingKey, Reply, Turn

BACKENDS = ("auto", "gemini", "offline", "replay")


def get_llm(llm: str | LLM = "auto", *, model: str | None = None, **options: Any) -> LLM:
    """A backend by name; `auto` takes gemini when a key is set and offline otherwise."""
    if not isinstance(llm, str):
        return llm
    name = llm.lower()
    if name == "auto":
        name = "gemini" if api_key() else "offline"
    if name == "gemini":
        from fsnb.llm.gemini import GeminiLLM

        return GeminiLLM(model=model, **options)
    if name == "offline":
        from fsnb.llm.offline import OfflineLLM

        return OfflineLLM(**options)
    if name == "replay":
        return ReplayLLM(options.get("actions", ()))
    msg = f"unknown LLM backend {llm!r}; choose one of: {', '.join(BACKENDS)}"
    raise ValueError(msg)


__all__ = [
    "BACKENDS",
    "LLM",
    "Conversation",
    "LLMError",
    "Message",
    "MissingKey",
    "ReplayLLM",
    "Reply",
    "Turn",
    "get_llm",
]
