"""Tokens: what one LLM call, or several summed, cost. The one shape token counts travel in,
from a backend's reply to a run's usage."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tokens:
    """Token counts. `cached` is the part of `prompt` served from the provider's prompt
    cache (billed cheaper); `thinking` is billed as output but not part of `completion`."""

    prompt: int = 0
    completion: int = 0
    thinking: int = 0
    cached: int = 0

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(
            self.prompt + other.prompt,
            self.completion + other.completion,
            self.thinking + other.thinking,
            self.cached + other.cached,
        )

    @property
    def total(self) -> int:
        """Every token counted once (`cached` is already in `prompt`)."""
        return self.prompt + self.completion + self.thinking


#: No tokens: the default of every reply (a backend that makes no call costs nothing).
NO_TOKENS = Tokens()

__all__ = ["NO_TOKENS", "Tokens"]
