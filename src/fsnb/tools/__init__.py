"""The agent's tools: plain typed functions over a sandboxed root, and their registry.

Every tool is importable as `fsnb.tools.<name>` and takes the root as `root=`.
"""

from fsnb.tools.files import glob, grep, parse_file, preview_file, read, scan_folder
from fsnb.tools.registry import Registry, Tool

FILE_TOOLS = [scan_folder, preview_file, parse_file, read, grep, glob]


def file_registry() -> Registry:
    """A registry of the file tools."""
    return Registry(FILE_TOOLS)


__all__ = [
    "FILE_TOOLS",
    "Registry",
    "Tool",
    "file_registry",
    "glob",
    "grep",
    "parse_file",
    "preview_file",
    "read",
    "scan_folder",
]
