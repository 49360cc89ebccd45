"""Token and cost accounting (prices: `fsnb.llm.prices`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fsnb.llm.prices import PRICES, Price, price_for
from fsnb.protocol.usage import Tokens
from fsnb.text.markup import html_root


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

    def add(self, tokens: Tokens, price: tuple[float, ...]) -> None:
        """Count one call; `tokens.cached` of the prompt are billed at the cached rate."""
        cached = min(tokens.cached, tokens.prompt)
        cached_rate = price[2] if len(price) > 2 else price[0]
        self.llm_calls += 1
        self.prompt_tokens += tokens.prompt
        self.completion_tokens += tokens.completion
        self.thinking_tokens += tokens.thinking
        self.cached_tokens += cached
        fresh = (tokens.prompt - cached) * price[0] + cached * cached_rate
        self.cost_usd += (fresh + (tokens.completion + tokens.thinking) * price[1]) / 1e6

    def _repr_html_(self) -> str:
        """What the run consumed, as a two-column table with numbers right-aligned."""
        row = "<tr><td>{}</td><td style='text-align:right'>{}</td></tr>"
        rows = "".join(
            row.format(
                name.replace("_", " "), f"{value:,.4f}" if name == "cost_usd" else f"{value:,}"
            )
            for name, value in self.to_dict().items()
        )
        return html_root(f"<table>{rows}</table>", "fsnb-usage")

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "total_tokens": self.total_tokens,
            "cost_usd": round(self.cost_usd, 6),
        }


__all__ = ["PRICES", "Price", "Usage", "price_for"]  # the prices: re-exported, for notebooks
