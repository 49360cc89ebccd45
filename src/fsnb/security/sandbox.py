"""`Sandbox`, a root folder that tools may not leave: every path a tool receives goes
through `Sandbox.resolve`, which refuses `..` escapes, absolute paths outside the root,
symlinks whose target leaves the root, symlink loops, blocked and ignored files;
`Sandbox.existing` also checks that the path is there, and says what is near when it is
not; `Sandbox.entries` lists a folder with each file's policy verdict."""

from __future__ import annotations

import difflib
import errno
import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal

from fsnb.errors import AccessDenied, NotFound, one_line
from fsnb.security.files import PATH_MAX, file_kind, open_file, os_reason, shown, unshown
from fsnb.security.listing import EXCLUDED_DIRS, IGNORE_FILE, Listed, links_to_folder, scan
from fsnb.security.sensitive import NOT_SENSITIVE, Sensitivity, Verdict, classify

#: The longest path `resolve` looks at (a path relative to a deep folder may pass
#: `PATH_MAX` and still be there, reached through `dir_fd`).
_LONGEST = 4 * PATH_MAX

Kind = Literal["file", "folder", "any"]
_KINDS = {"file": "a file", "folder": "a folder", "any": "a file or a folder"}


def _ignore_patterns(root: Path) -> tuple[str, ...]:
    """Patterns from the root's .fsnbignore (one glob per line, '#' comments)."""
    try:
        lines = (root / IGNORE_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    return tuple(p.strip().rstrip("/") for p in lines if p.strip() and not p.startswith("#"))


@dataclass(frozen=True)
class Entry:
    """One thing under a folder: a file (or a symlink) with its policy verdict, or, with a
    `note`, something tools cannot read (a named pipe, an over-long path, an unlistable
    folder) and why."""

    path: Path
    rel: str
    verdict: Verdict
    symlink: bool = False
    note: str = ""


class Sandbox:
    """A root folder that tools may not leave.

    A `.fsnbignore` file in the root lists glob patterns (relative paths or names) of
    files and folders that tools neither list nor read.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root).expanduser()
        if not path.is_dir():
            msg = f"not a folder: {root}"
            raise NotADirectoryError(msg)
        self.root = path.resolve()
        self.ignore = _ignore_patterns(self.root)
        self.matcher = (
            re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in self.ignore))
            if self.ignore
            else None
        )  # the patterns as one regex, for `scan`

    def ignored(self, rel: str) -> bool:
        """Whether a relative path is the ignore file itself or matches one of its patterns."""
        parts = PurePosixPath(rel).parts
        return any(self._ignored_here("/".join(parts[: i + 1])) for i in range(len(parts)))

    def _ignored_here(self, rel: str) -> bool:
        """`ignored`, for a path whose parent folders are known not to be ignored."""
        if rel == IGNORE_FILE:
            return True
        name = rel.rpartition("/")[2]
        return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in self.ignore)

    def __repr__(self) -> str:
        return f"Sandbox({str(self.root)!r})"

    def relative(self, path: Path) -> str:
        """The POSIX path of `path` relative to the root ('.' for the root itself)."""
        return path.relative_to(self.root).as_posix() or "."

    def shown(self, path: Path) -> str:
        """`relative`, safe to print (see `shown`)."""
        return shown(self.relative(path))

    def _lexical(self, path: str | os.PathLike[str]) -> tuple[Path, Path]:
        """(the path as given, joined to the root; the same, normalized without the disk)."""
        text = str(path)
        raw = Path(path).expanduser() if text.strip() else Path()
        candidate = raw if raw.is_absolute() else self.root / raw
        if "\\x" in text and not os.path.lexists(candidate):
            unescaped = Path(unshown(str(candidate)))
            candidate = unescaped if os.path.lexists(unescaped) else candidate
        return candidate, Path(os.path.normpath(candidate))

    def resolve(self, path: str | os.PathLike[str] = ".", *, reading: bool = True) -> Path:
        """Resolve `path` inside the root, or raise `AccessDenied` saying why.

        Relative paths are taken from the root. With `reading`, files the
        sensitive-file policy blocks are refused too. The path need not exist, but one far
        longer than `PATH_MAX` cannot: it is refused before its parts are looked at (the
        ignore check reads every prefix of a path, which takes long for a hostile one).
        """
        if len(os.fsencode(path)) > _LONGEST:
            why = "is a path longer than the system allows"
            raise NotFound(shown(one_line(os.fspath(path), 60)), why)
        candidate, lexical = self._lexical(path)
        if not lexical.is_relative_to(self.root):
            kind = "an absolute path" if Path(path).expanduser().is_absolute() else "a path"
            msg = f"{shown(str(path))} is {kind} outside the root folder"
            raise AccessDenied(msg)
        name = self.shown(lexical)
        try:
            resolved = candidate.resolve()
        except RuntimeError:  # "Symlink loop from ..." (Python < 3.13)
            msg = f"{name} is a symlink loop"
            raise AccessDenied(msg) from None
        except OSError as exc:  # a link changed while it was followed
            msg = f"{name} cannot be followed ({os_reason(exc)})"
            raise AccessDenied(msg) from None
        if not resolved.is_relative_to(self.root):
            msg = f"{name} is a symlink to a path outside the root folder"
            raise AccessDenied(msg)
        if reading and resolved != self.root:
            rel = self.relative(resolved)
            verdict = classify(rel)
            if verdict.level is Sensitivity.BLOCK:
                raise AccessDenied(shown(verdict.reason))
            if self.ignored(rel):
                why = f"{shown(rel)} is excluded by {IGNORE_FILE}"
                raise AccessDenied(why)
        return resolved

    def existing(
        self, path: str | os.PathLike[str] = ".", kind: Kind = "any", *, reading: bool = True
    ) -> Path:
        """`resolve`, then check that the path is there and is a `kind`.

        Raises `NotFound` saying what is there instead, or, for a missing path, which
        existing names are closest to it (never blocked or ignored ones).
        """
        target = self.resolve(path, reading=reading)
        lexical = self._lexical(path)[1]
        try:
            mode = target.stat().st_mode
        except OSError as exc:
            raise self._missing(lexical, exc) from None
        found = file_kind(mode)
        if found not in ("file", "folder") or kind not in ("any", found):
            raise NotFound(self.shown(lexical), f"is a {found}, not {_KINDS[kind]}")
        return target

    def open(self, path: str | os.PathLike[str]) -> BinaryIO:
        """`existing(path, "file")`, opened for reading by `open_file`: the file read is the
        one checked, whatever is swapped in meanwhile."""
        return open_file(self.existing(path, "file"), self.root)

    def _missing(self, lexical: Path, exc: OSError) -> Exception:
        name = self.shown(lexical)
        if exc.errno == errno.ELOOP:
            return AccessDenied(f"{name} is a symlink loop")
        if exc.errno == errno.ENAMETOOLONG:
            return NotFound(name, "is a path longer than the system allows")
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
            return exc
        if lexical.is_symlink():
            return NotFound(name, "is a broken symlink (its target does not exist)")
        return NotFound(name, "does not exist", tuple(self.suggest(lexical)))

    def suggest(self, lexical: Path, limit: int = 3) -> list[str]:
        """Existing paths whose names are closest to the first missing part of `lexical`,
        from the nearest folder above it that exists; never blocked or ignored ones."""
        folder, wanted = lexical.parent, lexical.name
        try:
            while folder != self.root and not folder.is_dir():
                folder, wanted = folder.parent, folder.name
            inside = folder.resolve().is_relative_to(self.root)
            names = [e.name for e in os.scandir(folder)] if inside else []
        except (OSError, RuntimeError):
            return []
        prefix = "" if folder == self.root else f"{folder.relative_to(self.root).as_posix()}/"
        choices: dict[str, str] = {}
        for name in names:
            rel = prefix + name
            hidden = self.ignored(rel) or classify(rel).level is Sensitivity.BLOCK
            if name in EXCLUDED_DIRS or hidden:
                continue
            choices.setdefault(name.lower(), rel)
        close = difflib.get_close_matches(wanted.lower(), list(choices), n=limit, cutoff=0.6)
        return [shown(choices[c]) for c in close]

    def entries(self, folder: str | os.PathLike[str] = ".") -> list[Entry]:
        """Everything under `folder`, sorted by relative path: each file with its policy
        verdict, and what tools cannot read (named pipes, sockets, devices, paths longer
        than the system allows, folders that cannot be listed) with a note saying so.

        Excluded and ignored folders are pruned and symlinked folders are not followed;
        symlinked files are listed as they are, so callers can report escapes. One
        directory read per folder, and no system call per file but for special files.
        """
        start = self.existing(folder, "folder", reading=False)
        base = self.relative(start)
        if base != "." and self.ignored(base):
            return []
        found: list[Entry] = []
        for listed in scan(self, str(start), "" if base == "." else f"{base}/"):
            _add_entries(listed, found)
        found.sort(key=lambda e: e.rel.split("/"))
        return found

    def walk(self, folder: str | os.PathLike[str] = ".") -> list[tuple[Path, Verdict]]:
        """Every file under `folder` that tools may try to read (regular files and
        symlinks), sorted by relative path, with its policy verdict; see `entries`."""
        return [(e.path, e.verdict) for e in self.entries(folder) if not e.note]


def _add_entries(listed: Listed, found: list[Entry]) -> None:
    """Add one scanned folder's files, symlinked files and notes to `found`."""
    here, prefix = listed.here, listed.prefix
    if listed.error:
        note = f"error: cannot list this folder ({os_reason(listed.error)})"
        found.append(Entry(Path(here), prefix[:-1] or ".", NOT_SENSITIVE, note=note))
        return
    for item in listed.long:
        rel = prefix + item.name
        note = "skipped: path longer than the system allows"
        found.append(Entry(Path(f"{here}/{item.name}"), rel, classify(rel), note=note))
    for item in listed.files:
        rel = prefix + item.name
        found.append(Entry(Path(f"{here}/{item.name}"), rel, classify(rel)))
    for item in listed.links:
        if not links_to_folder(item):
            rel = prefix + item.name
            found.append(Entry(Path(f"{here}/{item.name}"), rel, classify(rel), True))
    for item in listed.others:
        try:
            mode = item.stat(follow_symlinks=False).st_mode
        except OSError:  # gone since the folder was read
            continue
        rel, note = prefix + item.name, f"skipped: not a regular file ({file_kind(mode)})"
        found.append(Entry(Path(f"{here}/{item.name}"), rel, classify(rel), note=note))
