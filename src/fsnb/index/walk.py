"""The folder's regular files as columns, at `find` speed.

One `os.scandir` per folder and one `lstat` per file, appended straight to the column
lists (no per-file objects, no `pathlib`), `.fsnbignore` patterns compiled once, the
sensitive-file policy tried per file only in folders where one regex pass over the folder's
names finds a hit (`fsnb.security.may_flag`), and the name-derived columns (category, MIME
type, whether the file is a document) computed once per extension. The rules are
`Sandbox.entries`' (excluded and ignored folders pruned, symlinked folders not followed,
paths longer than the system allows left out) and the sensitive-file policy's
(`fsnb.security.classify`).
"""

from __future__ import annotations

import fnmatch
import mimetypes
import os
import re
import stat
from dataclasses import dataclass, field

from fsnb.documents import supported
from fsnb.security import (
    EXCLUDED_DIRS,
    IGNORE_FILE,
    NAME_MAX,
    PATH_MAX,
    Sandbox,
    Sensitivity,
    classify,
    may_flag,
)

CATEGORIES = {
    "document": {".pdf", ".docx", ".pptx", ".xlsx", ".html", ".htm", ".md", ".markdown", ".csv"},
    "image": {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".tif", ".tiff", ".bmp"},
    "archive": {".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar"},
    "code": {".py", ".js", ".ts", ".java", ".go", ".rs", ".c", ".h", ".cpp", ".rb", ".php", ".sh"},
    "data": {".json", ".jsonl", ".yaml", ".yml", ".toml", ".xml", ".parquet", ".sqlite", ".db"},
}
#: The columns of `Listing.columns`; the `files` table derives the others from them (name,
#: parent and depth from the path, category and MIME type from the extension: `kind`).
COLUMNS = ["path", "extension", "size", "mtime_ns", "sensitivity"]
KIND_COLUMNS = ["extension", "category", "mime"]
_SKIPPED = (Sensitivity.BLOCK, Sensitivity.SKIP)


def suffix(name: str) -> str:
    """The lower-case extension of a file name, as `PurePosixPath(name).suffix.lower()`."""
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def kind(extension: str) -> tuple[str, str | None, bool]:
    """(category, MIME type guessed by name, is a document fsnb parses) of an extension."""
    if extension not in _KINDS:
        doc = supported(f"x{extension}")
        found = next((name for name, exts in CATEGORIES.items() if extension in exts), None)
        mime = mimetypes.guess_type(f"x{extension}", strict=False)[0] if extension else None
        _KINDS[extension] = (found or ("text" if doc else "other"), mime, doc)
    return _KINDS[extension]


_KINDS: dict[str, tuple[str, str | None, bool]] = {}


def _suffix(raw: str) -> tuple[str, bool]:
    """(extension, is a document) of a file name's suffix as written, kept for the next."""
    ext = raw.lower()
    _SUFFIXES[raw] = (ext, kind(ext)[2])
    return _SUFFIXES[raw]


_SUFFIXES: dict[str, tuple[str, bool]] = {}


def stored_name(rel: str) -> str:
    """`rel` as text DuckDB can store: undecodable bytes escaped ('bad\\xff.md')."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(rel).decode("utf-8", "backslashreplace")
    return rel


@dataclass
class Listing:
    """What `list_files` found: one list per column, the documents' paths on disk, and the
    counts and caveats for the report."""

    columns: dict[str, list[object]] = field(default_factory=lambda: {c: [] for c in COLUMNS})
    documents: dict[str, tuple[str, int, int, str]] = field(default_factory=dict)
    skipped: int = 0
    warnings: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.columns["path"])


def _ignore_matcher(box: Sandbox) -> re.Pattern[str] | None:
    if not box.ignore:
        return None
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in box.ignore))


def _ignored(ignore: re.Pattern[str] | None, rel: str, name: str) -> bool:
    """`Sandbox._ignored_here`, with the patterns compiled."""
    return rel == IGNORE_FILE or bool(ignore and (ignore.match(rel) or ignore.match(name)))


def list_files(box: Sandbox) -> Listing:
    """Every regular file under the root that the index may hold, as columns.

    Files the policy blocks or skips, symlinks and files that vanish are counted as
    skipped; special files, unlistable folders and over-long paths are left out.
    """
    out = Listing()
    ignore = _ignore_matcher(box)
    odd: list[tuple[str, str, os.stat_result, str]] = []  # names that are not valid UTF-8
    pending = [(str(box.root), "")]
    while pending:
        here, prefix = pending.pop()
        try:
            fd = os.open(here, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:  # each entry's stat is relative to the folder's descriptor (`fstatat`)
            _folder(out, here, prefix, fd, ignore, pending, odd)
        finally:
            os.close(fd)
    _add_odd(out, odd)
    return out


def _folder(
    out: Listing,
    here: str,
    prefix: str,
    fd: int,
    ignore: re.Pattern[str] | None,
    pending: list[tuple[str, str]],
    odd: list[tuple[str, str, os.stat_result, str]],
) -> None:
    """Add the files of the folder `here` (open as `fd`) to the columns, one pass and no
    per-file objects; queue its subfolders."""
    try:
        with os.scandir(fd) as listing:
            items = list(listing)
    except OSError:
        return
    near_limit = len(os.fsencode(here)) + NAME_MAX + 1 >= PATH_MAX
    check = ignore is not None or not prefix
    suspect = may_flag([prefix, *[item.name for item in items]])
    cols = out.columns
    paths, exts, sizes = cols["path"].append, cols["extension"].append, cols["size"].append
    mtimes, levels = cols["mtime_ns"].append, cols["sensitivity"].append
    for item in items:
        name = item.name
        rel = prefix + name
        if check and _ignored(ignore, rel, name):
            continue
        if near_limit and len(os.fsencode(f"{here}/{name}")) >= PATH_MAX:
            continue
        try:
            if not item.is_file(follow_symlinks=False):
                if item.is_dir(follow_symlinks=False):
                    if name not in EXCLUDED_DIRS:
                        pending.append((f"{here}/{name}", rel + "/"))
                elif item.is_symlink() and not _links_to_folder(item):
                    out.skipped += 1  # a symlinked file (a FIFO, socket, device: left out)
                continue
        except OSError:
            continue
        if suspect:
            level = classify(rel).level
            if level in _SKIPPED:
                out.skipped += 1
                continue
            value = level.value
        else:
            value = "none"
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            out.skipped += 1
            continue
        if not stat.S_ISREG(info.st_mode):
            out.skipped += 1
            continue
        if not rel.isascii() and stored_name(rel) != rel:
            odd.append((rel, f"{here}/{name}", info, value))
            continue
        dot = name.rfind(".")
        raw = name[dot:] if 0 < dot < len(name) - 1 else ""
        ext, document = _SUFFIXES.get(raw) or _suffix(raw)
        paths(rel)
        exts(ext)
        sizes(size := info.st_size)
        mtimes(mtime := info.st_mtime_ns)
        levels(value)
        if document:
            out.documents[rel] = (f"{here}/{name}", size, mtime, value)


def _add_odd(out: Listing, odd: list[tuple[str, str, os.stat_result, str]]) -> None:
    """Add files whose names are not valid UTF-8, escaped, in path order; one whose escaped
    name is another file's name is skipped."""
    taken = set(out.columns["path"]) if odd else set()
    for rel, path, info, level in sorted(odd, key=lambda row: row[0].split("/")):
        stored = stored_name(rel)
        if stored in taken:
            out.skipped += 1
            continue
        taken.add(stored)
        out.warnings[stored] = "file name is not valid UTF-8: stored with the bytes escaped"
        ext = suffix(path.rpartition("/")[2])
        for column, value in zip(
            COLUMNS, (stored, ext, info.st_size, info.st_mtime_ns, level), strict=True
        ):
            out.columns[column].append(value)
        if kind(ext)[2]:
            out.documents[stored] = (path, info.st_size, info.st_mtime_ns, level)


def _links_to_folder(item: os.DirEntry[str]) -> bool:
    try:
        return item.is_dir()
    except OSError:  # a symlink loop, or a target we may not look at
        return False
