"""What an MCP server holds and the one way its calls run.

`Service` holds the served folders, the options (`Settings`), the backend `explore` uses,
the indexer and the call log. `Service.call` runs a tool as the agent runs one: in a
`ServedContext` of its folder (confined to it), in a worker under the call's time limit,
stopped when cancelled, any failure an outcome with `ok=False` and one line; then masked
(`shown`): every secret value withheld from the text and the typed data, the text cut at
`max_result_chars` as the agent cuts it. Nothing here reveals a secret: there is no option
that would.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fsnb.agent.deadline import Interrupted
from fsnb.agent.limits import cut_result
from fsnb.agent.spec import RunSpec
from fsnb.errors import ToolError, one_line
from fsnb.llm.masked import mask_outcome
from fsnb.mcp.calls import Call, Calls, Report, in_worker, no_report
from fsnb.mcp.context import ServedContext
from fsnb.mcp.folders import Folders, Served
from fsnb.mcp.host_tools import HOST_TOOLS
from fsnb.mcp.index_tools import INDEX_TOOLS, SERVER_WIDE
from fsnb.mcp.indexing import Indexer
from fsnb.protocol import LLM, ToolOutcome
from fsnb.tools import Registry, agent_registry
from fsnb.tools.registry import failed


@dataclass(frozen=True)
class Settings:
    """A server's options: the index file, `explore`'s backend and steps, and each call's
    time limit and result size (the agent's defaults)."""

    db: str | None = None
    llm: str = "offline"
    model: str | None = None
    base_url: str | None = None
    timeout_s: float = 300.0
    max_steps: int = 25
    max_result_chars: int = 15_000
    #: Index the folders when the server starts.
    index: bool = True


def note(withheld: int) -> str:
    """The line after a result whose secret values were withheld."""
    values = "value" if withheld == 1 else "values"
    return f"[{withheld} secret {values} withheld: fsnb's MCP server never reveals them]"


def shown(outcome: ToolOutcome, limit: int | None) -> ToolOutcome:
    """The outcome as a client may see it: masked, text and data, and cut at `limit`."""
    seen, withheld = mask_outcome(outcome)
    text = cut_result(seen.text, limit)[0] if limit else seen.text
    if withheld:
        text += "\n" + note(withheld)
    return replace(seen, text=text)


class Service:
    """The served folders with their tools, index and calls (see the module docstring)."""

    def __init__(self, folders: Folders, settings: Settings, backend: LLM) -> None:
        self.folders, self.settings, self.backend = folders, settings, backend
        #: The agent's tools (the indexed ones included), then the server's own.
        self.registry: Registry = agent_registry(use_index=True)
        for extra in HOST_TOOLS + INDEX_TOOLS:
            self.registry.add(extra)
        self.indexer = Indexer(settings.db)
        self.calls = Calls()

    @classmethod
    def open(cls, paths: Sequence[str | os.PathLike[str]], settings: Settings) -> Service:
        """The service of `paths` (`NotADirectoryError`, `FileNotFoundError`: not a folder)
        with its backend made now, so that a missing key is said when the server starts."""
        spec = RunSpec(llm=settings.llm, model=settings.model, base_url=settings.base_url)
        return cls(Folders(paths), settings, spec.backend().make())

    def start_indexing(self) -> None:
        """Queue every folder for indexing (in the background)."""
        for folder in self.folders:
            self.indexer.start(folder)

    def tools(self) -> list[dict[str, Any]]:
        """Each tool as MCP lists it: name, description and input schema (`root` added for
        the folder when several are served)."""
        return [
            {
                "name": s["name"],
                "description": s["description"],
                "inputSchema": s["parameters"]
                if s["name"] in SERVER_WIDE
                else self.folders.schema(s["parameters"]),
            }
            for s in self.registry.schemas()
        ]

    async def call_tool(self, name: str, arguments: Any, report: Report = no_report) -> ToolOutcome:
        """Run the tool `name` as a client called it: the folder picked from the arguments,
        the outcome masked and cut (`shown`); never raises but when cancelled."""
        if name not in self.registry:
            known = ", ".join(self.registry.names())
            return failed(f"error: unknown tool {one_line(name, 60)!r}; available tools: {known}")
        if not isinstance(arguments, dict):
            return failed(f"error: arguments for {name} must be an object")
        if name in SERVER_WIDE:  # about the server: in the first folder, named as none
            folder, rest, label = next(iter(self.folders)), arguments, "server"
        else:
            try:
                folder, rest = self.folders.pick(arguments)
            except ToolError as exc:
                return failed(f"error: {exc}")
            label = folder.name
        outcome = await self.call(name, rest, folder, report, label=label)
        return shown(outcome, self.settings.max_result_chars)

    async def call(
        self,
        name: str,
        arguments: dict[str, Any],
        folder: Served,
        report: Report = no_report,
        *,
        label: str | None = None,
    ) -> ToolOutcome:
        """Run the tool `name` in `folder`, unmasked (`shown` masks it): a timed-out call is
        a failure, a cancelled one raises `asyncio.CancelledError`; the call log names it
        with `label` (default: the folder's name)."""
        call = self.calls.begin(name, label or folder.name, self.settings.timeout_s)
        ctx = ServedContext(folder, self, call, report)
        tool = self.registry[name]
        try:
            outcome = await in_worker(lambda: tool.run(arguments, ctx), call)
        except Interrupted as stop:
            return self._interrupted(call, stop)
        except asyncio.CancelledError:
            self.calls.end(call, "cancelled")
            raise
        except Exception as exc:  # a worker that could not start: one line, as any failure
            self.calls.end(call, "failed")
            return failed(f"error: {name} failed: {one_line(exc, 300)}")
        self.calls.end(call, "done" if outcome.ok else "failed")
        return outcome

    def _interrupted(self, call: Call, stop: Interrupted) -> ToolOutcome:
        if stop.reason == "cancelled":  # the server is closing
            self.calls.end(call, "cancelled")
            return failed(f"error: {call.tool} was cancelled")
        self.calls.end(call, "timed out")
        limit = f"{self.settings.timeout_s:g}"
        return failed(f"error: {call.tool} timed out after {limit} s (fsnb mcp --timeout)")

    def close(self) -> None:
        """Cancel the calls in flight, so that their workers end."""
        self.calls.cancel_all()


__all__ = ["Service", "Settings", "note", "shown"]
