"""LLM backends, by name (`fsnb.llm.registry`): gemini (google-genai), openai (any Chat
Completions server; ollama is a preset of it), offline (deterministic, extractive, no
LLM), replay (scripted, for tests), and any installed through `fsnb.backends` entry points.
`fsnb.llm.catalog` lists their models and whether each is available now."""

from __future__ import annotations

from typing import Any

from fsnb.llm import registry
from fsnb.llm.replay import ReplayLLM
from fsnb.protocol import LLM, Conversation, LLMError, Message, MissingKey, Reply, Turn


def get_llm(llm: str | LLM = "auto", *, model: str | None = None, **options: Any) -> LLM:
    """A backend by name (see `registry.names()`) or model id (`ollama:llama3.2`, in `llm`
    or `model`), or `llm` itself when it is a backend; `auto` takes gemini when a Gemini
    key is set and offline otherwise."""
    if not isinstance(llm, str):
        return llm
    name, model = registry.split_id(llm, model)
    return registry.create(name or registry.AUTO, model=model, **options)


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
