"""The sensitive-file policy, applied to a path relative to the sandbox root (`classify`):

- BLOCK: private keys and cloud credentials, never read;
- SKIP: `.env*`, `credentials*`, `secrets*`, left out of scans, readable with a warning;
- WARN: names containing password/token/secret, scanned and read with a warning.
"""

from __future__ import annotations

import enum
import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath


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


NOT_SENSITIVE = Verdict(Sensitivity.NONE)


def may_flag(parts: Iterable[str]) -> bool:
    """Whether `classify` may flag any path made of `parts` (a folder's relative path and
    its entries' names): False means every such path is NONE, found in one regex pass."""
    # `_MAYBE` matches no '/', which no name holds: no match spans two parts.
    return _MAYBE.search("/".join(parts).lower()) is not None


def classify(rel: str | PurePosixPath) -> Verdict:
    """Apply the sensitive-file policy to a path relative to the sandbox root."""
    if isinstance(rel, str) and not _MAYBE.search(rel.lower()):
        return NOT_SENSITIVE
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
