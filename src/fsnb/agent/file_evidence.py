"""Citations whose quote is a fact about the file itself, checked against the file.

A navigator answer cites a file by its stat rather than its text: "size: 2,097,152 bytes",
"modified: 2024-05-01 10:00", "sha256: <hex>", or a folder by "files: 3 (pdf)" (the files
under it, of those types; "(pdf, >3KB)": of those sizes too; "(named *invoice*)": whose
name or path matches the pattern), "files directly in it: 1"
(not in its subfolders), "folders: 2" (the folders under it that hold files) or "size:
2,146 bytes" (of the files under it). Facts are joined with "; ".
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from fsnb.fsindex.walk import file_sha256
from fsnb.security import Entry, Sandbox, Sensitivity
from fsnb.text.ranges import size_range
from fsnb.tools.formats import when

_FACT = re.compile(
    r"\s*(size|modified|sha256|files|files directly in it|folders):\s*(\S.*?)\s*", re.IGNORECASE
)


def facts(quote: str) -> list[tuple[str, str]] | None:
    """The (name, value) facts of a quote made only of them; None for any other quote."""
    found = [_FACT.fullmatch(part) for part in quote.split(";")]
    if not all(found):
        return None
    return [(m.group(1).lower(), m.group(2)) for m in found if m]


def check(sandbox: Sandbox, target: Path, found: list[tuple[str, str]]) -> str:
    """'' when every fact holds for `target` (a path inside the sandbox), else what fails."""
    info = target.stat()
    for name, value in found:
        if name in ("files", "files directly in it"):
            actual = _count(sandbox, target, value, direct=name != "files")
            claimed = re.match(r"[\d,]+", value)
            if claimed is None or int(claimed.group().replace(",", "")) != actual:
                return f"files given as {value}; there are {actual}"
        elif name == "folders" or (name == "size" and target.is_dir()):
            listed = _listed(sandbox, target)
            if name == "folders":  # those holding files, below the folder itself
                base = sandbox.relative(target)
                held = {str(p) for e in listed for p in PurePosixPath(e.rel).parents}
                actual = sum(p != "." and (base == "." or p.startswith(f"{base}/")) for p in held)
            else:
                actual = sum(e.path.stat().st_size for e in listed)
            claimed = re.fullmatch(r"([\d,]+)(?:\s*(?:bytes?|B))?", value)
            if claimed is None or int(claimed.group(1).replace(",", "")) != actual:
                return f"{name} given as {value}; the folder has {actual:,}"
        elif target.is_dir():
            return f"{name} is a fact about a file, and this is a folder"
        elif name == "size":
            claimed = re.fullmatch(r"([\d,]+)\s*(?:bytes?|B)", value)
            if claimed is None or int(claimed.group(1).replace(",", "")) != info.st_size:
                return f"size given as {value}; the file has {info.st_size:,} bytes"
        elif name == "modified":
            actual = when(info.st_mtime)
            if not actual.startswith(value):
                return f"modified given as {value}; the file was modified {actual}"
        elif name == "sha256":
            digest = file_sha256(target, sandbox.root)[0]
            if not digest.startswith(value.lower()) or len(value) < 12:
                return f"sha256 given as {value}; the file's is {digest}"
    return ""


def _count(sandbox: Sandbox, folder: Path, value: str, *, direct: bool = False) -> int:
    """Files under `folder` (`direct`: in it, not in its subfolders) that the tools list,
    of the types and within the size ranges in parentheses in `value` ("(pdf, >3KB)")."""
    given = re.search(r"\(([^)]*)\)", value)
    limits = [t.strip() for t in (given.group(1) if given else "").split(",") if t.strip()]
    sizes = [size_range(t) for t in limits if t[0] in "<>"]
    globs = [t.removeprefix("named ").lower() for t in limits if t.startswith("named ")]
    wanted = {
        "." + t.lower().lstrip(".")
        for t in limits
        if t[0] not in "<>" and not t.startswith("named ")
    }
    base = sandbox.relative(folder)
    return sum(
        1
        for e in _listed(sandbox, folder)
        if (not wanted or e.path.suffix.lower() in wanted)
        and all(e.path.stat().st_size in size for size in sizes)
        and all(fnmatch(e.path.name.lower(), g) or fnmatch(e.rel.lower(), g) for g in globs)
        and not (direct and (e.rel.rpartition("/")[0] or ".") != base)
    )


def _listed(sandbox: Sandbox, folder: Path) -> list[Entry]:
    """The files under `folder` that the tools list."""
    return [
        e
        for e in sandbox.entries(sandbox.relative(folder))
        if not (e.note or e.symlink or e.verdict.level is Sensitivity.BLOCK)
    ]


__all__ = ["check", "facts"]
