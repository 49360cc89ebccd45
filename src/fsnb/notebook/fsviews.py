"""Notebook views of a folder: a collapsible tree and a disk-usage bar chart.

Both are built from the navigator tools' `ToolOutcome.data` and render as plain HTML and
CSS (`<details>` per folder, bars as styled `<div>`s: no script, nothing fetched), with
`to_frame()` for the rows. `tree(folder)` and `disk_usage(folder)` run the tools.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fsnb.tools.files import human_size

if TYPE_CHECKING:
    import pandas as pd

    from fsnb.tools.context import ToolContext

_BOX = "font-family:var(--jp-code-font-family,monospace);font-size:12px;line-height:1.5"
_BAR = "background:var(--jp-brand-color1,#1976d2);height:12px;border-radius:2px"


def _size(value: Any) -> str:
    return human_size(int(value)) if isinstance(value, (int, float)) else ""


def _source(data: dict[str, Any]) -> str:
    source = data.get("source")
    return f" · from {'the index' if source == 'index' else 'a walk'}" if source else ""


@dataclass
class TreeView:
    """A folder's tree: `entries` are the `tree` tool's drawn {"path", "type", "size",
    "files", "folders"} rows, paths relative to the folder ("a/b.txt"), folders' sizes
    their totals; `data` is the tool's data (folders, files, size, cut, source)."""

    path: str
    entries: list[dict[str, Any]]
    data: dict[str, Any] = field(default_factory=dict)
    cut: bool = False

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> TreeView:
        """The view of a `tree` call's data: its drawn entries, made relative to its path."""
        path = str(data.get("path", "."))
        skip = len(path) + 1 if path not in ("", ".") else 0
        entries = [{**e, "path": e["path"][skip:]} for e in data.get("entries", [])]
        return cls(path, entries, data, cut=bool(data.get("cut")))

    def __repr__(self) -> str:
        data = self.data
        return (
            f"<TreeView {self.path}/: {len(self.entries)} entries shown; {data.get('folders', 0)}"
            f" folders, {data.get('files', 0)} files, {_size(data.get('size', 0))}>"
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: path, type, size, depth."""
        import pandas as pd

        rows = [{**e, "depth": e["path"].count("/") + 1} for e in self.entries]
        return pd.DataFrame(rows, columns=["path", "type", "size", "depth"])

    def _children(self) -> dict[str, list[dict[str, Any]]]:
        by_parent: dict[str, list[dict[str, Any]]] = {}
        for entry in self.entries:
            parent = entry["path"].rpartition("/")[0]
            by_parent.setdefault(parent, []).append(entry)
        for rows in by_parent.values():  # folders first, then by name
            rows.sort(key=lambda e: (e["type"] != "folder", e["path"].lower()))
        return by_parent

    def _repr_html_(self) -> str:
        children = self._children()

        def items(parent: str) -> str:
            parts = []
            for entry in children.get(parent, []):
                name = html.escape(entry["path"].rpartition("/")[2])
                size = f" <span style='opacity:.6'>{_size(entry.get('size'))}</span>"
                if entry["type"] == "folder":
                    inner = items(entry["path"])
                    parts.append(
                        f"<li><details{' open' if parent == '' else ''}>"
                        f"<summary>{name}/{size}</summary>"
                        f"{inner or '<ul><li><i>…</i></li></ul>'}</details></li>"
                    )
                else:
                    parts.append(f"<li style='list-style:none;margin-left:1em'>{name}{size}</li>")
            style = "list-style:none;margin:0;padding-left:1.2em"
            return f"<ul style='{style}'>{''.join(parts)}</ul>" if parts else ""

        data = self.data
        summary = (
            f"{data.get('folders', 0)} folders, {data.get('files', 0)} files, "
            f"{_size(data.get('size', 0))} total{_source(data)}"
        )
        cut = f"<div><i>cut at {len(self.entries)} entries</i></div>" if self.cut else ""
        return (
            f"<div class='fsnb-tree' style='{_BOX}'>"
            f"<div><b>{html.escape(self.path)}/</b></div>{items('')}{cut}"
            f"<div style='opacity:.7'>{html.escape(summary)}</div></div>"
        )


@dataclass
class DiskUsageView:
    """Where the space goes: the `disk_usage` tool's data drawn as a sorted bar chart."""

    data: dict[str, Any]

    @property
    def entries(self) -> list[dict[str, Any]]:
        """The entries, largest first."""
        rows = self.data.get("entries", [])
        return sorted(rows, key=lambda e: (-int(e.get("size", 0)), str(e.get("path", ""))))

    def __repr__(self) -> str:
        data = self.data
        return (
            f"<DiskUsageView {data.get('path', '.')}: {_size(data.get('size', 0))},"
            f" {len(self.entries)} entries>"
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: path, type, size, files, share."""
        import pandas as pd

        return pd.DataFrame(self.entries, columns=["path", "type", "size", "files", "share"])

    def _repr_html_(self) -> str:
        data, entries = self.data, self.entries
        top = max((int(e.get("size", 0)) for e in entries), default=0) or 1
        rows = []
        for entry in entries:
            size = int(entry.get("size", 0))
            share = float(entry.get("share", 0.0))
            name = html.escape(str(entry.get("path", ""))) + (
                "/" if entry.get("type") == "folder" else ""
            )
            width = f"{100 * size / top:.1f}%"
            rows.append(
                "<tr>"
                f"<td style='text-align:left;white-space:nowrap;padding-right:1em'>{name}</td>"
                f"<td style='width:50%;min-width:120px'><div style='{_BAR};width:{width}'>"
                "</div></td>"
                f"<td style='text-align:right;white-space:nowrap'>{_size(size)}</td>"
                f"<td style='text-align:right;opacity:.7'>{100 * share:.1f}%</td>"
                "</tr>"
            )
        title = (
            f"{html.escape(str(data.get('path', '.')))}: {_size(data.get('size', 0))} in "
            f"{data.get('files', 0)} files, {data.get('folders', 0)} folders{_source(data)}"
        )
        body = "".join(rows) or "<tr><td><i>nothing here</i></td></tr>"
        return (
            f"<div class='fsnb-du' style='{_BOX}'><div><b>{title}</b></div>"
            f"<table style='border-collapse:collapse;width:100%'>{body}</table></div>"
        )


def _context(folder: str | os.PathLike[str], db: str | os.PathLike[str] | None) -> ToolContext:
    from fsnb.tools.context import ToolContext

    return ToolContext(folder, db)


def _ok(outcome: Any) -> dict[str, Any]:
    if not outcome.ok:
        from fsnb.errors import one_line

        raise ValueError(one_line(outcome.text))
    return outcome.data


def tree_view(ctx: ToolContext, path: str = ".", max_depth: int = 3) -> TreeView:
    """The `tree` tool's view of `path`, `max_depth` levels deep."""
    from fsnb.tools import tree

    return TreeView.from_data(_ok(tree.outcome(path, ctx=ctx, max_depth=max_depth)))


def tree(
    folder: str | os.PathLike[str] = ".",
    path: str = ".",
    *,
    max_depth: int = 3,
    db: str | os.PathLike[str] | None = None,
) -> TreeView:
    """A collapsible tree of `path` under `folder`, `max_depth` levels deep."""
    return tree_view(_context(folder, db), path, max_depth)


def disk_usage(
    folder: str | os.PathLike[str] = ".",
    path: str = ".",
    *,
    depth: int = 1,
    top_n: int = 20,
    db: str | os.PathLike[str] | None = None,
) -> DiskUsageView:
    """A bar chart of the biggest folders and files `depth` levels under `path`."""
    from fsnb.tools import agent_registry

    registry = agent_registry()
    arguments = {"path": path, "depth": depth, "top_n": top_n}
    outcome = registry.call("disk_usage", arguments, ctx=_context(folder, db))
    return DiskUsageView(_ok(outcome))


#: Steps of a run whose result the panel draws as a view.
VIEW_TOOLS = frozenset({"tree", "disk_usage"})
#: Largest view the panel keeps for a step (characters of HTML).
STEP_VIEW_CHARS = 60_000


def step_view_html(name: str, data: dict[str, Any]) -> str:
    """The view of a run's `tree` or `disk_usage` step, drawn from the data it returned;
    "" for other tools, a step without data or a view too large to keep."""
    if name not in VIEW_TOOLS or "entries" not in data:
        return ""
    view = TreeView.from_data(data) if name == "tree" else DiskUsageView(data)
    page = view._repr_html_()
    return page if len(page) <= STEP_VIEW_CHARS else ""


__all__ = [
    "VIEW_TOOLS",
    "DiskUsageView",
    "TreeView",
    "disk_usage",
    "step_view_html",
    "tree",
    "tree_view",
]
