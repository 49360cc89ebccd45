"""The exploration agent: actions, events, the loop and its result.

Names are imported lazily: `fsnb.llm` builds on `fsnb.agent.actions`, and the loop
builds on `fsnb.llm`, so importing this package must not import the loop eagerly.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Action": "fsnb.agent.actions",
    "CitedSource": "fsnb.agent.actions",
    "ToolArg": "fsnb.agent.actions",
    "Citation": "fsnb.agent.citations",
    "Explorer": "fsnb.agent.loop",
    "ExplorationThread": "fsnb.agent.loop",
    "ExplorationResult": "fsnb.agent.result",
    "Usage": "fsnb.agent.usage",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    msg = f"module 'fsnb.agent' has no attribute {name!r}"
    raise AttributeError(msg)
