"""Path confinement and the sensitive-file policy.

Every path a tool receives goes through `Sandbox.resolve`, which refuses `..` escapes,
absolute paths outside the root, symlinks whose target leaves the root and symlink loops;
`Sandbox.existing` also checks that the path is there, and says what is near when it is
not. A checked file is read through `open_file` (`Sandbox.open`), which checks the file it
opened rather than its name, so nothing swapped in after the check (a symlink, a named
pipe) is read or waited on. The sensitive-file policy has three tiers:

- BLOCK: private keys and cloud credentials, never read;
- SKIP: `.env*`, `credentials*`, `secrets*`, left out of scans, readable with a warning;
- WARN: names containing password/token/secret, scanned and read with a warning.

Messages name paths relative to the root, never the root itself; file names that are not
valid UTF-8 are shown with their odd bytes as `\\xNN` (`shown`), and accepted back that way.
"""

from __future__ import annotations

import contextlib
import difflib
import enum
import errno
import fnmatch
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal

from fsnb.errors import AccessDenied, NotFound

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


class Sensitivity(enum.Enum):
    """How the sensitive-file policy treats a file."""

    NONE = "none"
    WARN = "warn"
    SKIP = "skip"
    BLOCK = "block"


_BLOCK_NAMES = (
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.keystore",
    "*.jks",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id_rsa.*",
    "id_ed25519.*",
)
_BLOCK_PATHS = (".ssh/*", ".aws/credentials", ".gnupg/*")
_SKIP_NAMES = (".env", ".env.*", ".npmrc", ".pypirc", ".netrc", "credentials*", "secrets*")
_WARN_WORDS = ("password", "passwd", "token", "secret")
#: Found in every lower-cased path that one of the patterns above can match: a path
#: without it is NONE without trying them one by one.
_MAYBE = re.compile(
    r"\.(?:pem|key|p12|pfx|keystore|jks|ssh|aws|gnupg|env|npmrc|pypirc|netrc)"
    r"|id_(?:rsa|dsa|ecdsa|ed25519)|credentials|secret|password|passwd|token"
)


@dataclass(frozen=True)
class Verdict:
    """The policy's decision for one path, with a reason a person can read."""

    level: Sensitivity
    reason: str = ""


_NONE = Verdict(Sensitivity.NONE)


def may_flag(parts: Iterable[str]) -> bool:
    """Whether `classify` may flag any path made of `parts` (a folder's relative path and
    its entries' names): False means every such path is NONE, found in one regex pass."""
    # `_MAYBE` matches no '/', which no name holds: no match spans two parts.
    return _MAYBE.search("/".join(parts).lower()) is not None


def classify(rel: str | PurePosixPath) -> Verdict:
    """Apply the sensitive-file policy to a path relative to the sandbox root."""
    if isinstance(rel, str) and not _MAYBE.search(rel.lower()):
        return _NONE
    rel_path = PurePosixPath(rel)
    name = rel_path.name.lower()
    posix = rel_path.as_posix().lower()
    for pattern in _BLOCK_PATHS:
        if fnmatch.fnmatch(posix, pattern) or fnmatch.fnmatch(posix, f"*/{pattern}"):
            return Verdict(Sensitivity.BLOCK, f"{rel} holds credentials (blocked: {pattern})")
    for pattern in _BLOCK_NAMES:
        if fnmatch.fnmatch(name, pattern):
            return Verdict(Sensitivity.BLOCK, f"{rel} is a private key file (blocked: {pattern})")
    for pattern in _SKIP_NAMES:
        if fnmatch.fnmatch(name, pattern):
            return Verdict(Sensitivity.SKIP, f"{rel} may contain secrets ({pattern})")
    for word in _WARN_WORDS:
        if word in name:
            return Verdict(Sensitivity.WARN, f"{rel} may contain sensitive data ('{word}')")
    return Verdict(Sensitivity.NONE)


IGNORE_FILE = ".fsnbignore"

Kind = Literal["file", "folder", "any"]
_KINDS = {"file": "a file", "folder": "a folder", "any": "a file or a folder"}


def _limit(name: str, default: int) -> int:
    try:
        return os.pathconf("/", name)
    except (OSError, ValueError, AttributeError):
        return default


#: The longest path (in bytes, with its final NUL) and file name the system accepts.
PATH_MAX = _limit("PC_PATH_MAX", 4096)
NAME_MAX = _limit("PC_NAME_MAX", 255)
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile(r"\\x([89a-fA-F][0-9a-fA-F])")


def shown(text: str) -> str:
    """`text` safe to print or send: bytes of file names that are not valid UTF-8 (which
    Python keeps as lone surrogates) are written as `\\xNN`."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(_escape_surrogate, text)


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _unescape(text: str) -> str:
    """The inverse of `shown` for file names: `\\xNN` (NN >= 80) back to its byte."""
    return _ESCAPED.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), text)


def file_kind(mode: int) -> str:
    """What a `stat` mode is, in words: 'file', 'folder', 'named pipe', 'socket', ..."""
    for test, name in (
        (stat.S_ISREG, "file"),
        (stat.S_ISDIR, "folder"),
        (stat.S_ISLNK, "symlink"),
        (stat.S_ISFIFO, "named pipe"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return name
    return "special file"


_REASONS = {
    errno.ENOENT: "no such file",
    errno.ELOOP: "a symlink loop",
    errno.ENAMETOOLONG: "path longer than the system allows",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
}


def os_reason(exc: OSError) -> str:
    """A short lower-case reason for an `OSError`, without the path it names."""
    return _REASONS.get(exc.errno or 0) or (exc.strerror or type(exc).__name__).lower()


class Swapped(AccessDenied):
    """A file that changed between its check and its opening: into a symlink, or moved
    (a folder on its path swapped) to somewhere else than the path that was checked."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path} was {reason}")
        self.path = path
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # type: ignore[override]
        return type(self), (self.path, self.reason)


class NotRegular(NotFound):
    """An opened path that is a folder, a named pipe, a socket or a device."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(path, f"is a {kind}, not a regular file")
        self.kind = kind

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # type: ignore[override]
        return type(self), (self.path, self.kind)


#: Never wait on a FIFO's writer, never leak the descriptor into a child process.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def open_file(path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> BinaryIO:
    """Open a regular file for reading and check the file that was opened, not its name.

    With `root`, `path` is one a `Sandbox` checked (absolute, no symlinks, inside `root`):
    the last component must not be a symlink (O_NOFOLLOW) and the opened file must be
    that very path (its real location, from the descriptor), so a file or a folder on
    its path swapped for a symlink after the check is refused with `Swapped`. Without
    `root`, symlinks are followed. Either way a named pipe, socket or device is refused
    with `NotRegular` (never waited on); other failures raise `OSError`.
    """
    file = Path(path).absolute()
    flags = _OPEN_FLAGS | (os.O_NOFOLLOW if root is not None else 0)
    inside = root is not None and file.is_relative_to(root)
    name = shown(file.relative_to(root).as_posix() if inside else file.name)  # type: ignore[arg-type]
    try:
        fd = os.open(file, flags)
    except OSError as exc:
        if root is not None and exc.errno == errno.ELOOP:
            raise Swapped(name, "replaced by a symlink as it was opened") from None
        raise
    handle = os.fdopen(fd, "rb")
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(name, file_kind(mode))
        if root is not None and not _opened_at(fd, file, Path(root)):
            raise Swapped(name, "moved out of the checked path as it was opened")
        os.set_blocking(fd, True)  # reads of a regular file may block, as usual
    except BaseException:
        handle.close()
        raise
    return handle  # type: ignore[return-value]


def _opened_at(fd: int, path: Path, root: Path) -> bool:
    """Whether the open descriptor `fd` is the file at `path`, inside `root`."""
    try:  # Linux: the kernel's record of where the descriptor's file is
        real = Path(f"/proc/self/fd/{fd}").readlink()
    except OSError:  # elsewhere: the same file as the path, with no symlink on the way
        try:
            found, held = path.lstat(), os.fstat(fd)
        except OSError:
            return False
        same = (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)
        return same and path.resolve() == path and path.is_relative_to(root)
    return real == path and real.is_relative_to(root)


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
            unescaped = Path(_unescape(str(candidate)))
            candidate = unescaped if os.path.lexists(unescaped) else candidate
        return candidate, Path(os.path.normpath(candidate))

    def resolve(self, path: str | os.PathLike[str] = ".", *, reading: bool = True) -> Path:
        """Resolve `path` inside the root, or raise `AccessDenied` saying why.

        Relative paths are taken from the root. With `reading`, files the
        sensitive-file policy blocks are refused too. The path need not exist.
        """
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
        found.append(Entry(Path(here), prefix[:-1] or ".", _NONE, note=note))
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
