"""LLM backends, by name (`fsnb.llm.registry`): gemini (google-genai), openai (any Chat
Completions server; ollama is a preset of it), offline (deterministic, extractive, no
LLM), replay (scripted, for tests), and any installed through `fsnb.backends` entry points."""

from __future__ import annotations

from typing import Any

from fsnb.llm import registry
from fsnb.llm.replay import ReplayLLM
from fsnb.protocol import LLM, Conversation, LLMError, Message, MissingKey, Reply, Turn


def get_llm(llm: str | LLM = "auto", *, model: str | None = None, **options: Any) -> LLM:
    """A backend by name (see `registry.names()`), or `llm` itself when it is a backend;
    `auto` takes gemini when a Gemini key is set and offline otherwise."""
    if not isinstance(llm, str):
        return llm
    return registry.create(llm, model=model, **options)


__all__ = [
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
