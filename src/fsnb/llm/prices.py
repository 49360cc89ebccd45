"""What each model costs, USD per million tokens; `FSNB_PRICES` overrides the table."""

from __future__ import annotations

import json
import os

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


__all__ = ["PRICES", "Price", "price_for"]
