"""Resources and the prompt: each document of a served folder is `fsnb://<folder>/<path>`
(its parsed text with `[page N]` lines, read by `get_document` from the index, or parsed by
`parse_file` when the index does not hold it yet), each scratchpad table is
`fsnb-table://<folder>/<table>` (its rows, through `query_data`), and the prompt
`explore_folder` gives a host fsnb's strategy with the folder's map.

Reads run as tool calls (`Service.call`): confined to the folder, under the call's limits,
masked. Listing them is a read of the index (documents committed so far) or, for a folder
it does not hold yet, one walk of the folder.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from fsnb.agent.prompts import host_guidance
from fsnb.documents import document_files
from fsnb.errors import FsnbError
from fsnb.index import Index
from fsnb.llm.masked import mask_text
from fsnb.mcp.folders import ROOT, Served
from fsnb.mcp.service import Service, shown
from fsnb.tools.context import ToolContext
from fsnb.tools.overview import folder_map

DOCUMENTS = "fsnb"
TABLES = "fsnb-table"
#: The most characters of a document one resource holds (as `fsnb parse` prints).
RESOURCE_CHARS = 1_000_000
PROMPT = "explore_folder"


class ResourceError(FsnbError):
    """A resource that is not there, or that cannot be read (the message says why)."""


@dataclass(frozen=True)
class Listed:
    """One resource as listed."""

    uri: str
    name: str
    title: str
    description: str


def listing(service: Service) -> list[Listed]:
    """Every resource of every folder: its documents, then its scratchpad tables."""
    found: list[Listed] = []
    for folder in service.folders:
        for path, title, about in _documents(service, folder):
            uri = f"{DOCUMENTS}://{folder.uri_name}/{quote(path)}"
            found.append(Listed(uri, f"{folder.name}/{path}", mask_text(title)[0], about))
        for table, about in _tables(service, folder):
            uri = f"{TABLES}://{folder.uri_name}/{quote(table, safe='')}"
            found.append(Listed(uri, f"{folder.name} table {table}", table, about))
    return found


def _documents(service: Service, folder: Served) -> list[tuple[str, str, str]]:
    """(path, title, description) of the folder's documents, from the index when it holds
    them, else from a walk of the folder."""
    try:
        frame = Index(service.settings.db).documents(folder.root)
    except FsnbError:  # a file locked or damaged: the walk still lists the documents
        frame = None
    if frame is not None and not frame.empty:
        frame = frame[frame["error"].isna()]
        return [
            (r.path, r.title or r.path, f"{r.format}, {r.pages} pages, indexed")
            for r in frame.itertuples()
        ]
    box = folder.sandbox
    return [(box.relative(f), box.relative(f), "not indexed yet") for f in document_files(box)]


def _tables(service: Service, folder: Served) -> list[tuple[str, str]]:
    try:
        frame = ToolContext(folder.sandbox, service.settings.db).scratchpad.tables()
    except FsnbError:
        return []
    return [(r.name, f"scratchpad table: {r.rows} rows; {r.columns}") for r in frame.itertuples()]


def locate(service: Service, uri: str) -> tuple[str, Served, str]:
    """(scheme, folder, path or table) of a resource URI; `ResourceError` if it names none."""
    parts = urlsplit(uri)
    folder = service.folders.get(unquote(parts.netloc))
    name = unquote(parts.path.removeprefix("/"))
    if parts.scheme not in (DOCUMENTS, TABLES) or folder is None or not name:
        known = ", ".join(service.folders.names())
        msg = f"no such resource: {uri[:200]!r} (fsnb://<folder>/<path>; folders: {known})"
        raise ResourceError(msg)
    return parts.scheme, folder, name


async def read(service: Service, uri: str) -> str:
    """The text of a resource, masked; `ResourceError` saying why it cannot be read."""
    scheme, folder, name = locate(service, uri)
    if scheme == TABLES:
        tables = await asyncio.to_thread(_tables, service, folder)
        if name not in {t for t, _ in tables}:
            msg = f"no scratchpad table {name!r} in {folder.name}"
            raise ResourceError(msg)
        sql = 'SELECT * FROM "{}"'.format(name.replace('"', '""'))
        outcome = await service.call("query_data", {"sql": sql}, folder)
    else:
        args = {"path": name, "limit": RESOURCE_CHARS}
        outcome = await service.call("get_document", args, folder)
        if not outcome.ok:  # not in the index (yet): parse it, as parse_file does
            outcome = await service.call("parse_file", args, folder)
    outcome = shown(outcome, None)
    if not outcome.ok:
        raise ResourceError(outcome.text.removeprefix("error: "))
    return outcome.text


def prompt_text(service: Service, folder: Served, question: str | None) -> str:
    """The `explore_folder` prompt: fsnb's strategy, the folder's map and the question."""
    ctx = ToolContext(folder.sandbox, service.settings.db)
    where = f"The folder is {folder.name!r}"
    if len(service.folders) > 1:
        where += f" (pass {ROOT}={folder.name!r} to every tool but status)"
    ask = f"Question: {question}" if question else "Ask the user what to find out."
    text = f"{host_guidance()}\n{where}.\n\n{folder_map(ctx).text()}\n\n{ask}"
    return mask_text(text)[0]


__all__ = ["DOCUMENTS", "PROMPT", "TABLES", "Listed", "ResourceError", "listing", "locate",
           "prompt_text", "read"]  # fmt: skip
