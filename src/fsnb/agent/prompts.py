"""The system prompt (the three-phase strategy) and the opening message."""

from __future__ import annotations

import json
import re
from typing import Any

from fsnb.tools.context import ToolContext
from fsnb.tools.overview import folder_map

# The strategy in parts: the agent's prompt joins them all (`_STRATEGY`); a host that calls
# fsnb's tools itself (`host_guidance`, the MCP server's prompt) gets those that are not about
# the loop's JSON Actions, receipts or ask_human.
_ROLE = "You are fsnb: you answer questions about a folder of documents like a careful analyst.\n"
_ACTIONS = (
    "Each reply is ONE JSON Action: call a tool, go_deeper into a subfolder, ask_human, or stop.\n"
)
_PHASES = """\
Work in three phases:
1. SCAN: scan_folder previews every document; pick the likely ones.
2. READ: parse_file only those (long ones come in pages: continue at the offset given);
   grep finds exact figures or names across files.
3. BACKTRACK: when the text points elsewhere ("Document: Risk Memo", "see Exhibit B",
   "Schedule 3", a file name) and the answer may depend on it, read that too (reason starts
   "Backtrack:"). Exhibits and schedules are often inside another document.

"""
_STOP = """\
Answer only from what you read. Stop with kind "stop": "answer" in concise markdown with [n]
after each statement from a document; "citations": for each n the path, the page (from the
[page N] marks) and a quote of 5-25 words copied EXACTLY (no ellipses). If the documents do
not say, say so.

Tool arguments are [{"name", "value"}] pairs, every value as text; paths are relative to the
folder. """
_FILES = """\
Tool errors come back as text: adapt. Questions about the files themselves (largest,
newest, how many, duplicates, where space goes) use the navigator tools (find_files with
search_type "metadata" and sort_by, tree, file_info, disk_usage, recent_files,
find_duplicates); cite the path with its size, date or count as the quote."""
_ASK = """ ask_human only when
the documents cannot settle an ambiguity."""
_COMPUTE = """ semantic_search, when listed, finds passages across
the indexed folder. Totals, counts, averages and comparisons are computed, never guessed: load
rows into the scratchpad (load_table for tables, with a glob for many files; create_table +
extract_rows for prose) and query_data with SQL; answer with the figure, the SQL and citations
to the rows (source_file, page, the row's text as quote).
"""
_RECEIPTS = """\
Earlier tool results may be shortened to receipts to save context: each says what was left
out and the call that shows it again.
"""
_STRATEGY = _ROLE + _ACTIONS + _PHASES + _STOP + _FILES + _ASK + _COMPUTE + _RECEIPTS
_HOST_ANSWER = """\
Answer only from what you read, in concise markdown with [n] after each statement from a
document, and for each n the path, the page (from the [page N] marks) and a quote of 5-25
words copied EXACTLY (no ellipses): verify_citation checks one against the document. If the
documents do not say, say so. Paths are relative to the folder.

"""


def system_prompt(tools: list[dict[str, Any]]) -> str:
    """The strategy and one compact line per tool: its signature and first sentence.

    Depends only on the tools, never on the run, so every call of every run with the same
    tools starts with the same prefix (Gemini's implicit caching and OpenAI's prompt
    caching bill a repeated prefix at the cached rate)."""
    listing = "\n".join(f"- {signature(t)}: {_first_sentence(t['description'])}" for t in tools)
    return f"{_STRATEGY}\nTools (name(parameters), ? = optional):\n{listing}\n"


def host_guidance() -> str:
    """The strategy for a host that calls fsnb's tools itself (an MCP client's model): the
    agent's, less what is about its JSON Actions, receipts and ask_human."""
    role = "You answer questions about a folder of documents like a careful analyst, with fsnb's"
    return f"{role} tools.\n{_PHASES}{_HOST_ANSWER}{_FILES}{_COMPUTE}"


def signature(tool: dict[str, Any]) -> str:
    """`name(a, b=default, c=x|y, d?)`: required names, defaults, enum choices."""
    schema = tool.get("parameters") or {}
    required = set(schema.get("required") or [])
    params = []
    for name, spec in (schema.get("properties") or {}).items():
        if choices := spec.get("enum"):
            params.append(f"{name}={'|'.join(map(str, choices))}")
        elif name in required:
            params.append(name)
        elif spec.get("default") is None:
            params.append(f"{name}?")
        else:
            params.append(f"{name}={json.dumps(spec['default'])}")
    return f"{tool['name']}({', '.join(params)})"


def _first_sentence(text: str) -> str:
    first = re.split(r"(?<=[a-z0-9)])\.\s+(?=[A-Z])", " ".join(text.split()))[0]
    return first if first.endswith(".") else f"{first}."


def opening_message(task: str, ctx: ToolContext, start: str = "") -> str:
    """The task and the folder's map (totals, top folders, types, largest and newest), then
    what the run starts from when it is not a scan (`fsnb.agent.start`)."""
    begin = f"{start}\n\n" if start else ""
    return f"Question: {task}\n\n{folder_map(ctx).text()}\n\n{begin}Reply with your first Action."
