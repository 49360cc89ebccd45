"""The folder's regular files as columns, at `find` speed.

One `os.scandir` per folder (`fsnb.security.scan`, the walk every tool shares) and one
`fstatat` per file, appended straight to the column lists (no per-file objects, no
`pathlib`), `.fsnbignore` patterns compiled once, the sensitive-file policy tried per file
only in folders where one regex pass over the folder's names finds a hit
(`fsnb.security.may_flag`), and the name-derived columns (category, MIME type, whether the
file is a document) computed once per extension. The rules are
`Sandbox.entries`' (excluded and ignored folders pruned, symlinked folders not followed,
paths longer than the system allows left out) and the sensitive-file policy's
(`fsnb.security.classify`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import mimetypes
import os
import stat
from dataclasses import dataclass, field

from fsnb.documents import supported
from fsnb.security import (
    Listed,
    NotRegular,
    Sandbox,
    Sensitivity,
    classify,
    links_to_folder,
    may_flag,
    open_file,
    scan,
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


def list_files(box: Sandbox, base: str = ".") -> Listing:
    """Every regular file under the root (or the folder `base` in it, as `Sandbox.relative`
    gives it) that the index may hold, as columns.

    Files the policy blocks or skips, symlinks and files that vanish are counted as
    skipped; special files, unlistable folders and over-long paths are left out.
    """
    out = Listing()
    odd: list[tuple[str, str, os.stat_result, str]] = []  # names that are not valid UTF-8
    start = box.root if base == "." else box.root / base
    for listed in scan(box, str(start), "" if base == "." else f"{base}/"):
        if listed.links:
            out.skipped += sum(not links_to_folder(item) for item in listed.links)
        names = [item.name for item in listed.files]
        if names and (may_flag([listed.prefix, *names]) or not _plain(out, listed, names)):
            _folder(out, listed, odd)
    _add_odd(out, odd)
    return out


def held(listed: Listed) -> tuple[list[str], list[os.stat_result]]:
    """The names and `lstat`s of a scanned folder's files that the index would hold (see
    `list_files`), for callers that want only sizes and dates."""
    items = listed.files
    if may_flag([listed.prefix, *[item.name for item in items]]):
        items = [i for i in items if classify(listed.prefix + i.name).level not in _SKIPPED]
    try:
        infos = [item.stat(follow_symlinks=False) for item in items]
    except OSError:  # one is gone since the folder was read
        found = []
        for item in items:
            with contextlib.suppress(OSError):
                found.append((item, item.stat(follow_symlinks=False)))
        items, infos = [i for i, _ in found], [info for _, info in found]
    if all(map(stat.S_ISREG, {info.st_mode for info in infos})):
        return [item.name for item in items], infos
    regular = [(i.name, s) for i, s in zip(items, infos, strict=True) if stat.S_ISREG(s.st_mode)]
    return [name for name, _ in regular], [info for _, info in regular]


def _plain(out: Listing, listed: Listed, names: list[str]) -> bool:
    """Add a whole folder's files to the columns at once, if none of its paths needs a
    second look: none the policy may flag, no special files, no names beyond ASCII."""
    try:
        infos = [item.stat(follow_symlinks=False) for item in listed.files]
    except OSError:  # one is gone: `_folder` counts it
        return False
    prefix = listed.prefix
    modes = {info.st_mode for info in infos}
    if not (prefix + "".join(names)).isascii() or not all(map(stat.S_ISREG, modes)):
        return False
    raws = [n[dot:] if 0 < (dot := n.rfind(".")) < len(n) - 1 else "" for n in names]
    kinds = [_SUFFIXES.get(raw) or _suffix(raw) for raw in raws]
    cols = out.columns
    cols["path"] += [prefix + name for name in names]
    cols["extension"] += [ext for ext, _ in kinds]
    cols["size"] += [info.st_size for info in infos]
    cols["mtime_ns"] += [info.st_mtime_ns for info in infos]
    cols["sensitivity"] += ["none"] * len(names)
    if not any(document for _, document in set(kinds)):
        return True
    for name, info, (_, document) in zip(names, infos, kinds, strict=True):
        if document:
            size, mtime = info.st_size, info.st_mtime_ns
            out.documents[prefix + name] = (f"{listed.here}/{name}", size, mtime, "none")
    return True


def _folder(out: Listing, listed: Listed, odd: list[tuple[str, str, os.stat_result, str]]) -> None:
    """Add the regular files of one scanned folder to the columns one by one, trying the
    policy on each where the folder's names may hold a flagged one."""
    here, prefix = listed.here, listed.prefix
    suspect = may_flag([prefix, *[item.name for item in listed.files]])
    cols = out.columns
    paths, exts, sizes = cols["path"].append, cols["extension"].append, cols["size"].append
    mtimes, levels = cols["mtime_ns"].append, cols["sensitivity"].append
    for item in listed.files:
        name = item.name
        rel = prefix + name
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


def file_sha256(
    path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None
) -> tuple[str, int, int]:
    """(sha256, size, mtime_ns) of a regular file, streamed from the file `open_file`
    checked (with `root`: the very path a sandbox checked); never blocks on a FIFO
    swapped in meanwhile."""
    try:
        handle = open_file(path, root)
    except NotRegular:
        raise OSError(errno.EINVAL, "not a regular file", os.fspath(path)) from None
    with handle:
        info = os.fstat(handle.fileno())
        digest = hashlib.file_digest(handle, "sha256")
    return digest.hexdigest(), info.st_size, info.st_mtime_ns
