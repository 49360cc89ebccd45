"""The exploration agent: the loop, its events, citations and result."""

from fsnb.agent.citations import Citation
from fsnb.agent.loop import ExplorationThread, Explorer
from fsnb.agent.result import ExplorationResult
from fsnb.agent.usage import Usage
from fsnb.protocol import Action, CitedSource, ToolArg

__all__ = [
    "Action",
    "Citation",
    "CitedSource",
    "ExplorationResult",
    "ExplorationThread",
    "Explorer",
    "ToolArg",
    "Usage",
]
