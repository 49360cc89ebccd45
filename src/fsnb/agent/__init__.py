"""The exploration agent: the loop, its events, citations and result.

The names below load on first use (PEP 562), so that a view importing only the events
or the trace projection (the magics, at `%load_ext fsnb`) does not load the loop, the
tools and the index. The architecture test counts these as imports.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Action": "fsnb.protocol.action",
    "CitedSource": "fsnb.protocol.action",
    "ToolArg": "fsnb.protocol.action",
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
