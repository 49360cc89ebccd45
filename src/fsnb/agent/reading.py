"""What one run read (`Reading`): the paths its answer may cite, the order of its first
reads, the text it read, and the phase of each tool call (scan, search, read, or a
backtrack to a file something read earlier refers to)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb.documents import parse
from fsnb.errors import AccessDenied
from fsnb.tools.payloads import ReadsDocuments, Scanned

if TYPE_CHECKING:
    from fsnb.agent.result import ExplorationResult
    from fsnb.agent.usage import Usage
    from fsnb.protocol import ToolOutcome
    from fsnb.security import Sandbox
    from fsnb.tools import Registry


class Reading:
    """The reads of one run, counted into its usage."""

    def __init__(
        self, sandbox: Sandbox, registry: Registry, usage: Usage, after: ExplorationResult | None
    ) -> None:
        self.sandbox, self.registry, self.usage = sandbox, registry, usage
        # what the thread read so far counts for this run's citations
        self.read_paths: set[str] = set(after.read_paths) if after else set()
        self.read_order: list[str] = []  # the same paths, in the order of their first read
        self.parsed_text: list[str] = []

    def record(self, tool: str, args: dict[str, Any], outcome: ToolOutcome[Any]) -> None:
        """Count what the step read, by its payload and its tool's declared traits: a
        preview (a scan-phase read) makes the file citable, a read puts it in the run's
        reading order, a parse counts among the documents parsed."""
        payload = outcome.payload
        if isinstance(payload, Scanned):
            self.usage.documents_scanned += payload.previewed
        if outcome.ok and isinstance(payload, ReadsDocuments):
            # a tool that read whole documents for their tables or rows says which
            for rel in map(str, payload.read):
                if rel not in self.read_paths:
                    self.usage.documents_parsed += 1
                    self.read_order.append(rel)
                self.read_paths.add(rel)
        traits = self.registry.tools.get(tool)
        if traits is None or traits.reads is None or traits.reads not in args:
            return
        try:
            rel = self.sandbox.relative(self.sandbox.resolve(str(args[traits.reads])))
        except AccessDenied:
            return
        if traits.parses and rel not in self.read_paths:
            self.usage.documents_parsed += 1
        previewed = traits.phase == "scan"
        if not previewed and rel not in self.read_order:
            self.read_order.append(rel)
        self.read_paths.add(rel)
        if not previewed:
            self.parsed_text.append(outcome.text.lower())

    def phase(self, tool: str, args: dict[str, Any], reason: str = "") -> str:
        """The tool's declared phase (scan, search, read), or backtrack: a read of a file
        that something read earlier refers to (or that the LLM says it goes back for, with
        a reason starting "Backtrack")."""
        traits = self.registry.tools.get(tool)
        if traits is None:
            return "read"
        if traits.phase != "read" or traits.reads is None:
            return traits.phase
        if reason.lower().startswith("backtrack"):
            return "backtrack"
        path = str(args.get(traits.reads, ""))
        if path and self.parsed_text and self._mentioned(path):
            return "backtrack"
        return "read"

    def _mentioned(self, path: str) -> bool:
        """Whether earlier reads name this file (by file name, stem or title)."""
        names = {Path(path).name.lower(), Path(path).stem.lower()}
        try:
            box = self.sandbox
            title = parse(box.resolve(path), root=box.root).title.lower()
        except Exception:  # an unreadable file has no title to look for
            title = ""
        if len(title.split()) >= 2:
            names.add(title)
        return any(name in text for name in names for text in self.parsed_text)
