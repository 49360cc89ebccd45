"""The folder map: a compact overview of a folder for the agent's opening message.

Totals, the top folders, the file types present, and the largest and newest files, read
from `ToolContext.files`: the index when it holds the folder, else one walk (the same walk
the tools read next). Files the sensitive-file policy blocks or skips are never counted
nor named.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import duckdb
import pandas as pd

from fsnb.db.database import DatabaseDamaged, DatabaseLocked
from fsnb.documents.ocr import IMAGE_SUFFIXES
from fsnb.documents.scans import enabled as ocr_enabled
from fsnb.documents.scans import why_off
from fsnb.fsindex.walk import suffix
from fsnb.security import shown
from fsnb.text.markup import html_root
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size, when

#: Rows each part of the map keeps.
TOP = 5
#: Longest path the text shows; longer ones are cut in the middle.
PATH_CHARS = 60
_ROOT_FILES = "(files in the root)"


@dataclass
class FolderMap:
    """A folder's overview: its totals and the few rows of each part."""

    root: str
    files: int
    folders: int
    size: int
    source: str
    top_folders: pd.DataFrame  # path, files, size
    types: pd.DataFrame  # extension, files, size
    largest: pd.DataFrame  # path, size, modified
    newest: pd.DataFrame  # path, size, modified
    #: One line when the folder holds images that cannot be read: OCR is off or not installed.
    unread: str = field(default="", repr=False)

    def frames(self) -> dict[str, pd.DataFrame]:
        """The parts as DataFrames, totals included."""
        totals = pd.DataFrame(
            [{"files": self.files, "folders": self.folders, "size": self.size}]
        ).assign(source=self.source)
        return {
            "totals": totals,
            "top_folders": self.top_folders,
            "types": self.types,
            "largest": self.largest,
            "newest": self.newest,
        }

    def text(self) -> str:
        """A few bounded lines for the LLM, whatever the folder's size."""
        lines = [
            f"Folder: {_cut(self.root)}/ ({self.files:,} files in {self.folders:,} folders, "
            f"{human_size(self.size)}; {self.source})"
        ]
        if not self.files:
            return lines[0] + "\n  (no files)"
        if len(self.top_folders):
            lines.append(
                "Top folders: "
                + "; ".join(
                    f"{_cut(r.path, 40)} ({r.files:,} files, {human_size(r.size)})"
                    for r in self.top_folders.itertuples()
                )
            )
        lines.append(
            "Types: "
            + ", ".join(f"{r.extension} {r.files:,}" for r in self.types.head(8).itertuples())
            + (f" and {len(self.types) - 8} more types" if len(self.types) > 8 else "")
        )
        for title, frame, what in (
            ("Largest", self.largest, "size"),
            ("Newest", self.newest, "modified"),
        ):
            lines.append(
                f"{title}: "
                + "; ".join(
                    f"{_cut(r.path, 48)} ({human_size(r.size) if what == 'size' else r.modified})"
                    for r in frame.head(3).itertuples()
                )
            )
        if self.unread:
            lines.append(self.unread)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = html.escape(self.text().split("\n", 1)[0])
        parts = [f"<p><b>{head}</b></p>"]
        for title, frame in (
            ("Top folders", self.top_folders),
            ("Types", self.types.head(TOP * 2)),
            ("Largest files", self.largest),
            ("Newest files", self.newest),
        ):
            if len(frame):
                table = frame.to_html(index=False, border=0, escape=True)
                parts.append(f"<details open><summary>{title}</summary>{table}</details>")
        return html_root("".join(parts), "fsnb-folder-map")


def _cut(path: str, limit: int = PATH_CHARS) -> str:
    text = shown(path)
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}…{text[-(limit - 1 - half) :]}"


def _files_of(ctx: ToolContext) -> tuple[pd.DataFrame, str]:
    """The folder's files (path, size, mtime_ns, extension) and where they come from."""
    files = ctx.files
    try:
        rows = files.files()
    except (duckdb.Error, DatabaseDamaged, DatabaseLocked):  # the index cannot be read now
        files = files.walked
        rows = files.files()
    frame = pd.DataFrame(rows, columns=["path", "size", "mtime_ns"])
    frame = frame.astype({"path": str, "size": "int64", "mtime_ns": "int64"})
    extensions = [suffix(p.rpartition("/")[2]) for p in frame["path"]]
    frame = frame.assign(extension=pd.Series(extensions, index=frame.index, dtype=str))
    return frame, files.source


def _files(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    rows = frame.sort_values([by, "path"], ascending=[False, True]).head(TOP)
    return pd.DataFrame(
        {
            "path": rows["path"].map(shown),
            "size": rows["size"],
            "modified": (rows["mtime_ns"] / 1e9).map(when),
        }
    ).reset_index(drop=True)


def folder_map(ctx: ToolContext) -> FolderMap:
    """The folder's map, from the index when it holds the folder, else from one walk."""
    frame, source = _files_of(ctx)
    parents = {p.rpartition("/")[0] for p in frame["path"]} - {""}
    folders = set(parents)
    for parent in parents:  # every ancestor of a folder holding files is a folder too
        while "/" in parent:
            parent = parent.rpartition("/")[0]
            folders.add(parent)
    tops = [p.partition("/")[0] if "/" in p else _ROOT_FILES for p in frame["path"]]
    frame = frame.assign(top=pd.Series(tops, index=frame.index, dtype=str))
    by_top = (
        frame.groupby("top")
        .agg(files=("path", "size"), size=("size", "sum"))
        .reset_index()
        .rename(columns={"top": "path"})
        .sort_values(["size", "path"], ascending=[False, True])
    )
    by_top["path"] = by_top["path"].map(shown)
    types = (
        frame.assign(extension=frame["extension"].replace("", "(none)"))
        .groupby("extension")
        .agg(files=("path", "size"), size=("size", "sum"))
        .reset_index()
        .sort_values(["files", "extension"], ascending=[False, True])
    )
    return FolderMap(
        root=ctx.sandbox.root.name,
        files=len(frame),
        folders=len(folders),
        size=int(frame["size"].sum()),
        source=source,
        top_folders=by_top.head(TOP).reset_index(drop=True),
        types=types.reset_index(drop=True),
        largest=_files(frame, "size"),
        newest=_files(frame, "mtime_ns"),
        unread=_unread_images(frame),
    )


def _unread_images(frame: pd.DataFrame) -> str:
    """The line saying the folder's images go unread when OCR is not installed."""
    images = int(frame["extension"].str.lower().isin(IMAGE_SUFFIXES).sum())
    if not images or ocr_enabled():
        return ""
    return (
        f"Not readable here: {images:,} image file{'s' * (images != 1)} (and any scanned PDF "
        f"pages): {why_off()}"
    )


__all__ = ["FolderMap", "folder_map"]
