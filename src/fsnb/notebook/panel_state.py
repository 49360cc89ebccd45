"""What an `ExplorePanel` syncs and how it answers its front end.

Trace rows go to the front end as JSON dicts: a tool's result cut to `MAX_SYNCED_RESULT`
characters (the LLM saw the whole text), a `tree` or `disk_usage` step with its view as
HTML (`view_html`), a `query_data` step with its SQL and first rows (`query`). The front
end's requests are anywidget commands wrapped by `request`: each replies
`{"ok": true, ...}`, or `{"ok": false, "error": "..."}` when it failed.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from anywidget.experimental import command

from fsnb.agent.trace import TraceRow
from fsnb.errors import one_line

log = logging.getLogger(__name__)

#: Tool results longer than this are cut in the synced trace (the LLM saw the whole text).
MAX_SYNCED_RESULT = 4000

Reply = dict[str, Any]
Panel = TypeVar("Panel")


def jsonable(data: Any) -> Any:
    """`data` as JSON gives it back (what is not JSON as its text)."""
    return json.loads(json.dumps(data, default=str))


def synced_row(row: TraceRow, views: dict[int, str]) -> dict[str, Any]:
    """A trace row as the front end gets it. `views` keeps each step's view, drawn once."""
    from fsnb.notebook.fsviews import step_view_html

    data = row.to_dict()
    result = row.result or ""
    if len(result) > MAX_SYNCED_RESULT:
        rest = len(result) - MAX_SYNCED_RESULT
        data["result"] = result[:MAX_SYNCED_RESULT] + f"\n… ({rest:,} more characters)"
    data = jsonable(data)
    if row.tool is None or row.ok is not True:
        return data
    if row.tool == "query_data" and "sql" in row.data:
        keys = ("sql", "columns", "rows", "row_count", "more_rows")
        data["query"] = jsonable({k: row.data.get(k) for k in keys})
    if row.step not in views:
        views[row.step] = step_view_html(row.tool, row.data)
    if views[row.step]:
        data["view_html"] = views[row.step]
    return data


def request(handler: Callable[[Panel, dict[str, Any]], Reply | None]) -> Any:
    """An anywidget command for a front-end request; a failure is logged and becomes an
    `{"ok": false, "error": ...}` reply, so the front end can show it."""

    @functools.wraps(handler)
    def run(panel: Panel, msg: Any, buffers: list[bytes]) -> tuple[Reply, list[bytes]]:
        try:
            reply = handler(panel, msg if isinstance(msg, dict) else {})
        except Exception as exc:
            log.exception("fsnb panel: the %s request failed", handler.__name__)
            return {"ok": False, "error": one_line(exc) or type(exc).__name__}, []
        return {"ok": True, **(reply or {})}, []

    return command(run)
