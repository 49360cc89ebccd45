"""Token and cost accounting. Prices are USD per million tokens and can be overridden."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Any

#: (input, output, cached input) USD per million tokens; thinking tokens are billed as
#: output, prompt tokens served from the provider's prompt cache at the cached rate. A model
#: not listed (a local model behind the openai or ollama backend) costs nothing.
#: Cached rates: Gemini bills implicit-cache hits at a tenth of the input rate for 2.5 and
#: newer (ai.google.dev/gemini-api/docs/pricing, "context caching price"; not confirmed for
#: the 3.x previews, and one third-party page quotes $0.075 for 2.5 Flash); OpenAI's
#: "cached input" column (openai.com/api/pricing). Override with FSNB_PRICES when unsure.
PRICES: dict[str, tuple[float, float, float]] = {
    "gemini-3-flash-preview": (0.50, 3.00, 0.05),
    "gemini-3-pro-preview": (2.00, 12.00, 0.20),
    "gemini-2.5-flash": (0.30, 2.50, 0.03),
    "gemini-2.5-flash-lite": (0.10, 0.40, 0.01),
    "gemini-2.5-pro": (1.25, 10.00, 0.125),
    "gemini-2.0-flash": (0.10, 0.40, 0.025),
    "gpt-5": (1.25, 10.00, 0.125),
    "gpt-5-mini": (0.25, 2.00, 0.025),
    "gpt-5-nano": (0.05, 0.40, 0.005),
    "gpt-4.1": (2.00, 8.00, 0.50),
    "gpt-4.1-mini": (0.40, 1.60, 0.10),
    "gpt-4.1-nano": (0.10, 0.40, 0.025),
    "gpt-4o": (2.50, 10.00, 1.25),
    "gpt-4o-mini": (0.15, 0.60, 0.075),
}
Price = tuple[float, float, float]


def price_for(model: str, overrides: dict[str, tuple[float, ...]] | None = None) -> Price:
    """The model's price: `overrides`, then `FSNB_PRICES` (JSON), then the table; 0 if unknown.

    A name not in the table takes the price of its longest listed prefix
    (`gpt-4o-mini-2024-07-18` is `gpt-4o-mini`). A price given as (input, output) bills
    cached tokens at the input rate."""
    table: dict[str, tuple[float, ...]] = dict(PRICES)
    if env := os.environ.get("FSNB_PRICES"):
        table.update({k: tuple(v) for k, v in json.loads(env).items()})
    table.update(overrides or {})
    base = model if model in table else None
    base = base or max((name for name in table if model.startswith(name)), key=len, default=None)
    price = table[base] if base else (0.0, 0.0)
    return (price[0], price[1], price[2] if len(price) > 2 else price[0])


@dataclass
class Usage:
    """What a run consumed. `retries` counts repeated LLM calls: HTTP retries and replies
    that were re-asked because they were not a valid Action."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    thinking_tokens: int = 0
    #: Of `prompt_tokens`, those served from the provider's prompt cache (billed cheaper).
    cached_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    documents_scanned: int = 0
    documents_parsed: int = 0
    tool_calls: int = 0
    tool_chars: int = 0
    wall_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens + self.thinking_tokens

    def add_call(
        self,
        prompt: int,
        completion: int,
        thinking: int,
        price: tuple[float, ...],
        cached: int = 0,
    ) -> None:
        """Count one call; `cached` of the `prompt` tokens are billed at the cached rate."""
        cached = min(cached, prompt)
        cached_rate = price[2] if len(price) > 2 else price[0]
        self.llm_calls += 1
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.thinking_tokens += thinking
        self.cached_tokens += cached
        fresh = (prompt - cached) * price[0] + cached * cached_rate
        self.cost_usd += (fresh + (completion + thinking) * price[1]) / 1e6

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "total_tokens": self.total_tokens,
            "cost_usd": round(self.cost_usd, 6),
        }
