"""Notebook views of a folder: a collapsible tree and a disk-usage bar chart.

Both are built from the navigator tools' payloads (`Tree`, `DiskUsage`) and render as plain HTML and
CSS (`<details>` per folder, bars as styled `<div>`s: no script, nothing fetched), with
`to_frame()` for the rows. `tree(folder)` and `disk_usage(folder)` run the tools.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fsnb.protocol.outcome import ToolOutcome, as_data, from_data
from fsnb.text.markup import NO_MATH
from fsnb.tools import TOOLS
from fsnb.tools.formats import human_size
from fsnb.tools.payloads import DiskUsage, Tree, TreeEntry, UsageEntry

if TYPE_CHECKING:
    import pandas as pd

    from fsnb.tools.context import ToolContext

_BOX = "font-family:var(--jp-code-font-family,monospace);font-size:12px;line-height:1.5"
_BAR = "background:var(--jp-brand-color1,#1976d2);height:12px;border-radius:2px"


def _size(value: Any) -> str:
    return human_size(int(value)) if isinstance(value, (int, float)) else ""


def _source(source: str) -> str:
    return f" · from {'the index' if source == 'index' else 'a walk'}" if source else ""


class TreeView:
    """A folder's tree, drawn from a `tree` call's payload: `entries` are its drawn lines
    (`TreeEntry`) with paths relative to the folder ("a/b.txt"), folders' sizes their
    totals."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        skip = len(tree.path) + 1 if tree.path not in ("", ".") else 0
        self.entries = [replace(e, path=e.path[skip:]) for e in tree.entries]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TreeView:
        """The view of a `tree` call's data (its payload's plain view)."""
        return cls(from_data(Tree, data))

    @property
    def path(self) -> str:
        return self.tree.path

    @property
    def data(self) -> dict[str, Any]:
        """The `tree` call's payload as plain data."""
        return as_data(self.tree)

    @property
    def cut(self) -> bool:
        return bool(self.tree.cut)

    def __repr__(self) -> str:
        t = self.tree
        return (
            f"<TreeView {t.path}/: {len(self.entries)} entries shown; {t.folders}"
            f" folders, {t.files} files, {_size(t.size)}>"
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: path, type, size, depth."""
        import pandas as pd

        rows = [
            {"path": e.path, "type": e.type, "size": e.size, "depth": e.path.count("/") + 1}
            for e in self.entries
        ]
        return pd.DataFrame(rows, columns=["path", "type", "size", "depth"])

    def _children(self) -> dict[str, list[TreeEntry]]:
        by_parent: dict[str, list[TreeEntry]] = {}
        for entry in self.entries:
            parent = entry.path.rpartition("/")[0]
            by_parent.setdefault(parent, []).append(entry)
        for rows in by_parent.values():  # folders first, then by name
            rows.sort(key=lambda e: (e.type != "folder", e.path.lower()))
        return by_parent

    def _repr_html_(self) -> str:
        children = self._children()

        def items(parent: str) -> str:
            parts = []
            for entry in children.get(parent, []):
                name = html.escape(entry.path.rpartition("/")[2])
                size = f" <span style='opacity:.6'>{_size(entry.size)}</span>"
                if entry.type == "folder":
                    inner = items(entry.path)
                    parts.append(
                        f"<li><details{' open' if parent == '' else ''}>"
                        f"<summary>{name}/{size}</summary>"
                        f"{inner or '<ul><li><i>…</i></li></ul>'}</details></li>"
                    )
                else:
                    parts.append(f"<li style='list-style:none;margin-left:1em'>{name}{size}</li>")
            style = "list-style:none;margin:0;padding-left:1.2em"
            return f"<ul style='{style}'>{''.join(parts)}</ul>" if parts else ""

        t = self.tree
        summary = f"{t.folders} folders, {t.files} files, {_size(t.size)} total{_source(t.source)}"
        cut = f"<div><i>cut at {len(self.entries)} entries</i></div>" if self.cut else ""
        return (
            f"<div class='fsnb-tree {NO_MATH}' style='{_BOX}'>"
            f"<div><b>{html.escape(self.path)}/</b></div>{items('')}{cut}"
            f"<div style='opacity:.7'>{html.escape(summary)}</div></div>"
        )


class DiskUsageView:
    """Where the space goes: a `disk_usage` call's payload (or its plain data) drawn as a
    sorted bar chart."""

    def __init__(self, usage: DiskUsage | Mapping[str, Any]) -> None:
        self.usage = usage if isinstance(usage, DiskUsage) else from_data(DiskUsage, usage)

    @property
    def data(self) -> dict[str, Any]:
        """The `disk_usage` call's payload as plain data."""
        return as_data(self.usage)

    @property
    def entries(self) -> list[UsageEntry]:
        """The entries, largest first."""
        return sorted(self.usage.entries, key=lambda e: (-e.size, e.path))

    def __repr__(self) -> str:
        u = self.usage
        return f"<DiskUsageView {u.path}: {_size(u.size)}, {len(self.entries)} entries>"

    def to_frame(self) -> pd.DataFrame:
        """One row per entry: path, type, size, files, share."""
        import pandas as pd

        columns = ["path", "type", "size", "files", "share"]
        return pd.DataFrame([as_data(e) for e in self.entries], columns=columns)

    def _repr_html_(self) -> str:
        usage, entries = self.usage, self.entries
        top = max((e.size for e in entries), default=0) or 1
        rows = []
        for entry in entries:
            name = html.escape(entry.path) + ("/" if entry.type == "folder" else "")
            width = f"{100 * entry.size / top:.1f}%"
            rows.append(
                "<tr>"
                f"<td style='text-align:left;white-space:nowrap;padding-right:1em'>{name}</td>"
                f"<td style='width:50%;min-width:120px'><div style='{_BAR};width:{width}'>"
                "</div></td>"
                f"<td style='text-align:right;white-space:nowrap'>{_size(entry.size)}</td>"
                f"<td style='text-align:right;opacity:.7'>{100 * entry.share:.1f}%</td>"
                "</tr>"
            )
        title = (
            f"{html.escape(usage.path)}: {_size(usage.size)} in "
            f"{usage.files} files, {usage.folders} folders{_source(usage.source)}"
        )
        body = "".join(rows) or "<tr><td><i>nothing here</i></td></tr>"
        return (
            f"<div class='fsnb-du {NO_MATH}' style='{_BOX}'><div><b>{title}</b></div>"
            f"<table style='border-collapse:collapse;width:100%'>{body}</table></div>"
        )


def _context(folder: str | os.PathLike[str], db: str | os.PathLike[str] | None) -> ToolContext:
    from fsnb.tools.context import ToolContext

    return ToolContext(folder, db)


def _ok(outcome: ToolOutcome[Any], kind: type[Any]) -> Any:
    """The payload of a call that worked, of the type `kind`; `ValueError` otherwise."""
    if not outcome.ok or not isinstance(outcome.payload, kind):
        from fsnb.errors import one_line

        raise ValueError(one_line(outcome.text))
    return outcome.payload


def tree_view(ctx: ToolContext, path: str = ".", max_depth: int = 3) -> TreeView:
    """The `tree` tool's view of `path`, `max_depth` levels deep."""
    from fsnb.tools import tree

    return TreeView(_ok(tree.outcome(path, ctx=ctx, max_depth=max_depth), Tree))


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
    return DiskUsageView(_ok(outcome, DiskUsage))


#: The view of each payload type that has one.
_VIEWS: dict[type[Any], Any] = {Tree: TreeView, DiskUsage: DiskUsageView}
#: Steps of a run whose result the panel draws as a view: the tools whose payload has one.
VIEW_TOOLS = frozenset(name for name, t in TOOLS.items() if t.payload in _VIEWS)
#: Largest view the panel keeps for a step (characters of HTML).
STEP_VIEW_CHARS = 60_000


def step_view_html(name: str, data: Mapping[str, Any]) -> str:
    """The view of a run's `tree` or `disk_usage` step, drawn from its payload rebuilt from
    the data it returned (events keep the plain view); "" for other tools, a step without
    data or a view too large to keep."""
    if name not in VIEW_TOOLS or "entries" not in data:
        return ""
    kind = TOOLS[name].payload
    try:
        payload = from_data(kind, data)
    except (TypeError, ValueError):  # not the data of this tool's payload
        return ""
    page = _VIEWS[kind](payload)._repr_html_()
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
