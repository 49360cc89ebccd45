"""The walk under every tool and the index (`scan`): one directory read per folder, its
entries sorted by type (`Listed`), excluded folders (`EXCLUDED_DIRS`) and names the
root's `.fsnbignore` lists left out."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fsnb.security.files import NAME_MAX, PATH_MAX

if TYPE_CHECKING:
    from fsnb.security.sandbox import Sandbox

#: Folders no walk enters: version control, virtual environments, caches.
EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".ipynb_checkpoints",
        ".cache",
        ".tmp",
        "tmp",
        ".Trash",
    }
)

#: The root's list of globs (relative paths or names) that tools neither list nor read.
IGNORE_FILE = ".fsnbignore"


@dataclass(slots=True)
class Listed:
    """One folder as `scan` read it, its entries sorted by type from the directory read
    alone (no system call per entry); ignored names and excluded folders left out."""

    here: str  # the folder's path on disk
    prefix: str  # its path from the root: '' for the root, else ending in '/'
    fd: int = -1  # open while the caller looks: `entry.stat()` is an `fstatat` on it
    files: list[os.DirEntry[str]] = field(default_factory=list)
    folders: list[os.DirEntry[str]] = field(default_factory=list)  # remove some: not walked
    links: list[os.DirEntry[str]] = field(default_factory=list)
    others: list[os.DirEntry[str]] = field(default_factory=list)  # pipes, sockets, devices
    long: list[os.DirEntry[str]] = field(default_factory=list)  # longer than PATH_MAX
    error: OSError | None = None  # the folder cannot be listed


def scan(box: Sandbox, start: str, prefix: str) -> Iterator[Listed]:
    """Every folder from `start` down (`prefix`: its path from the root, '' or ending in
    '/'), one `os.scandir` each, depth first: the walk under every tool and the index.

    Excluded and ignored folders are pruned, symlinked folders not followed (a folder
    swapped for a symlink during the walk cannot be listed), and the subfolders left in
    `Listed.folders` when the caller is done with a folder are walked next.
    """
    pending = [(start, prefix)]
    while pending:
        here, prefix = pending.pop()
        try:
            fd = os.open(here, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as exc:
            yield Listed(here, prefix, error=exc)
            continue
        try:
            listed = _read(box.matcher, here, prefix, fd)
            yield listed
        finally:
            os.close(fd)
        pending += [(f"{here}/{item.name}", f"{prefix}{item.name}/") for item in listed.folders]


def _read(ignore: re.Pattern[str] | None, here: str, prefix: str, fd: int) -> Listed:
    """One folder's entries, sorted by type; see `scan`."""
    listed = Listed(here, prefix, fd)
    try:
        with os.scandir(fd) as listing:
            items = list(listing)
    except OSError as exc:
        listed.error = exc
        return listed
    near_limit = len(os.fsencode(here)) + NAME_MAX + 1 >= PATH_MAX
    check = ignore is not None or not prefix
    if not (check or near_limit):  # the common case, batched: a folder of plain files
        with contextlib.suppress(OSError):  # else sort them one by one, below
            listed.files = [item for item in items if item.is_file(follow_symlinks=False)]
            if len(listed.files) == len(items):
                return listed
        listed.files = []
    files, folders, links = listed.files.append, listed.folders.append, listed.links.append
    for item in items:
        name = item.name
        if check:
            rel = prefix + name
            if rel == IGNORE_FILE or (ignore and (ignore.match(rel) or ignore.match(name))):
                continue
        if near_limit and len(os.fsencode(f"{here}/{name}")) >= PATH_MAX:
            listed.long.append(item)
            continue
        try:
            if item.is_file(follow_symlinks=False):
                files(item)
            elif item.is_dir(follow_symlinks=False):
                if name not in EXCLUDED_DIRS:
                    folders(item)
            elif item.is_symlink():
                links(item)
            else:
                listed.others.append(item)
        except OSError:  # gone since the folder was read
            continue
    return listed


def links_to_folder(item: os.DirEntry[str]) -> bool:
    try:
        return item.is_dir()
    except OSError:  # a symlink loop, or a target we may not look at
        return False
