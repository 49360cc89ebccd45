"""The agent's tools: plain typed functions over a folder's context, and their registry.

Every tool is importable as `fsnb.tools.<name>`; called by hand with the folder as `root=`
(and the index database as `db=`) it returns the text the LLM would read:
`fsnb.tools.grep("purchase price", root="data/deal")`.
"""

from fsnb.protocol.outcome import ToolOutcome
from fsnb.tools.bookmarks import bookmark
from fsnb.tools.cleanup import find_duplicates
from fsnb.tools.compare import compare_files
from fsnb.tools.context import ToolContext
from fsnb.tools.describe import file_info
from fsnb.tools.extraction import EXTRACTION_TOOLS, extract_rows, extract_tables, load_table
from fsnb.tools.finder import find_files
from fsnb.tools.indexed import INDEX_TOOLS, get_document, list_indexed_documents, semantic_search
from fsnb.tools.matching import glob, grep
from fsnb.tools.navigator import browse_directory, tree
from fsnb.tools.reading import parse_file, preview_file, read
from fsnb.tools.registry import Registry, Tool, tool
from fsnb.tools.scanning import scan_folder
from fsnb.tools.scratch import (
    SCRATCH_TOOLS,
    create_table,
    drop_table,
    insert_data,
    list_tables,
    query_data,
)
from fsnb.tools.space import disk_usage, recent_files

FILE_TOOLS = [scan_folder, preview_file, parse_file, read, grep, glob]
NAVIGATOR_TOOLS = [
    browse_directory,
    tree,
    file_info,
    find_files,
    disk_usage,
    recent_files,
    find_duplicates,
    bookmark,
    compare_files,
]
#: Every built-in tool by name, with its declared traits (`Tool.phase`, `.reads`,
#: `.parses`) and payload type (`Tool.payload`).
TOOLS: dict[str, Tool] = {
    t.name: t for t in FILE_TOOLS + NAVIGATOR_TOOLS + INDEX_TOOLS + SCRATCH_TOOLS + EXTRACTION_TOOLS
}


def file_registry() -> Registry:
    """A registry of the file tools."""
    return Registry(FILE_TOOLS)


def agent_registry(*, use_index: bool = False) -> Registry:
    """The agent's tools: files and scratchpad, plus the indexed tools with `use_index`."""
    return Registry(
        FILE_TOOLS
        + NAVIGATOR_TOOLS
        + (INDEX_TOOLS if use_index else [])
        + SCRATCH_TOOLS
        + EXTRACTION_TOOLS
    )


__all__ = [
    "EXTRACTION_TOOLS",
    "FILE_TOOLS",
    "INDEX_TOOLS",
    "NAVIGATOR_TOOLS",
    "SCRATCH_TOOLS",
    "TOOLS",
    "Registry",
    "Tool",
    "ToolContext",
    "ToolOutcome",
    "agent_registry",
    "bookmark",
    "browse_directory",
    "compare_files",
    "create_table",
    "disk_usage",
    "drop_table",
    "extract_rows",
    "extract_tables",
    "file_info",
    "file_registry",
    "find_duplicates",
    "find_files",
    "get_document",
    "glob",
    "grep",
    "insert_data",
    "list_indexed_documents",
    "list_tables",
    "load_table",
    "parse_file",
    "preview_file",
    "query_data",
    "read",
    "recent_files",
    "scan_folder",
    "semantic_search",
    "tool",
    "tree",
]
