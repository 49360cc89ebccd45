"""`ServedContext`: what one MCP call works in, a `ToolContext` of its folder whose deadline
and cancel flag are the call's, with the server (`service`) and the call's progress report."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from fsnb.mcp.calls import Call, Report, no_report
from fsnb.mcp.folders import Served
from fsnb.tools.context import ToolContext

if TYPE_CHECKING:
    from fsnb.mcp.service import Service


class ServedContext(ToolContext):
    """A `ToolContext` for one call in one served folder: the index file and the backend
    lent to tools are the server's, secrets stay masked (there is no way to reveal them over
    MCP), and `check()` stops a tool once the call is cancelled or out of time."""

    def __init__(
        self, folder: Served, service: Service, call: Call, report: Report = no_report
    ) -> None:
        super().__init__(folder.sandbox, service.settings.db, llm=service.backend)
        self.folder, self.service, self.call, self.report = folder, service, call, report
        self.deadline, self.cancelled = call.deadline, call.cancelled

    def time_left(self) -> float:
        """Seconds until the call's time is up."""
        return max(0.0, self.call.deadline - time.monotonic())


__all__ = ["ServedContext"]
