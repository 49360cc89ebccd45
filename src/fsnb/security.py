"""Path confinement and the sensitive-file policy.

Every path a tool receives goes through `Sandbox.resolve`, which refuses `..` escapes,
absolute paths outside the root and symlinks whose target leaves the root. The
sensitive-file policy has three tiers:

- BLOCK: private keys and cloud credentials, never read;
- SKIP: `.env*`, `credentials*`, `secrets*`, left out of scans, readable with a warning;
- WARN: names containing password/token/secret, scanned and read with a warning.
"""

from __future__ import annotations

import enum
import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fsnb.errors import AccessDenied

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


@dataclass(frozen=True)
class Verdict:
    """The policy's decision for one path, with a reason a person can read."""

    level: Sensitivity
    reason: str = ""


def classify(rel: str | PurePosixPath) -> Verdict:
    """Apply the sensitive-file policy to a path relative to the sandbox root."""
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


def _ignore_patterns(root: Path) -> tuple[str, ...]:
    """Patterns from the root's .fsnbignore (one glob per line, '#' comments)."""
    try:
        lines = (root / IGNORE_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    return tuple(p.strip().rstrip("/") for p in lines if p.strip() and not p.startswith("#"))


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

    def ignored(self, rel: str) -> bool:
        """Whether a relative path is the ignore file itself or matches one of its patterns."""
        if rel == IGNORE_FILE:
            return True
        parts = PurePosixPath(rel).parts
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        return any(
            fnmatch.fnmatch(prefix, pattern) or fnmatch.fnmatch(PurePosixPath(prefix).name, pattern)
            for pattern in self.ignore
            for prefix in prefixes
        )

    def __repr__(self) -> str:
        return f"Sandbox({str(self.root)!r})"

    def relative(self, path: Path) -> str:
        """The POSIX path of `path` relative to the root ('.' for the root itself)."""
        return path.relative_to(self.root).as_posix() or "."

    def resolve(self, path: str | os.PathLike[str] = ".", *, reading: bool = True) -> Path:
        """Resolve `path` inside the root, or raise `AccessDenied` saying why.

        Relative paths are taken from the root. With `reading`, files the
        sensitive-file policy blocks are refused too.
        """
        raw = Path(path).expanduser() if str(path).strip() else Path()
        candidate = raw if raw.is_absolute() else self.root / raw
        lexical = Path(os.path.normpath(candidate))
        if not lexical.is_relative_to(self.root):
            kind = "an absolute path" if raw.is_absolute() else "a path"
            msg = f"{path} is {kind} outside the sandbox root {self.root}"
            raise AccessDenied(msg)
        resolved = candidate.resolve()
        if not resolved.is_relative_to(self.root):
            msg = f"{path} is a symlink to {resolved}, which is outside the sandbox root"
            raise AccessDenied(msg)
        if reading and resolved != self.root:
            rel = self.relative(resolved)
            verdict = classify(rel)
            if verdict.level is Sensitivity.BLOCK:
                raise AccessDenied(verdict.reason)
            if self.ignored(rel):
                why = f"{rel} is excluded by {IGNORE_FILE}"
                raise AccessDenied(why)
        return resolved

    def walk(self, folder: str | os.PathLike[str] = ".") -> list[tuple[Path, Verdict]]:
        """Every file under `folder`, sorted by relative path, with its policy verdict.

        Excluded folders are pruned and symlinked folders are not followed; symlinked
        files are listed as they are, so callers can report escapes.
        """
        start = self.resolve(folder, reading=False)
        files: list[Path] = []
        for dirpath, dirnames, filenames in os.walk(start):
            here = Path(dirpath)
            dirnames[:] = [
                d for d in dirnames if d not in EXCLUDED_DIRS and not (here / d).is_symlink()
            ]
            files.extend(here / name for name in filenames)
        files = [f for f in files if not self.ignored(self.relative(f))]
        files.sort(key=lambda f: f.relative_to(self.root).parts)
        return [(file, classify(self.relative(file))) for file in files]
