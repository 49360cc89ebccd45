"""The agent's tools: plain typed functions over a sandboxed root, and their registry.

Every tool is importable as `fsnb.tools.<name>` and takes the root as `root=`.
"""

from fsnb.tools.files import glob, grep, parse_file, preview_file, read, scan_folder
from fsnb.tools.registry import Registry, Tool
from fsnb.tools.scratch import (
    SCRATCH_TOOLS,
    create_table,
    drop_table,
    insert_data,
    list_tables,
    query_data,
)

FILE_TOOLS = [scan_folder, preview_file, parse_file, read, grep, glob]


def file_registry() -> Registry:
    """A registry of the file tools."""
    return Registry(FILE_TOOLS)


def agent_registry(*, use_index: bool = False) -> Registry:
    """The agent's tools: files and scratchpad, plus the indexed tools with `use_index`."""
    tools = list(FILE_TOOLS)
    if use_index:
        from fsnb.tools.indexed import INDEX_TOOLS

        tools += INDEX_TOOLS
    return Registry(tools + SCRATCH_TOOLS)


__all__ = [
    "FILE_TOOLS",
    "SCRATCH_TOOLS",
    "Registry",
    "Tool",
    "agent_registry",
    "create_table",
    "drop_table",
    "file_registry",
    "glob",
    "grep",
    "insert_data",
    "list_tables",
    "parse_file",
    "preview_file",
    "query_data",
    "read",
    "scan_folder",
]
