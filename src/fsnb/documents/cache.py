"""A persistent parse cache: one JSON file per (absolute path, size, mtime_ns, parser).

File names that are not valid UTF-8 (lone surrogates in Python) are kept as their bytes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
#: Surrogates from undecodable file names are written back as the bytes they stand for.
_BYTES = "surrogateescape"


def default_cache_dir() -> Path:
    """`FSNB_CACHE_DIR`, else `$XDG_CACHE_HOME/fsnb/parse`, else `~/.cache/fsnb/parse`."""
    if env := os.environ.get("FSNB_CACHE_DIR"):
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fsnb" / "parse"


class ParseCache:
    """Parsed documents (or parse failures) keyed by file identity.

    A changed file has a new size or mtime and so a new key: it is parsed again.
    An unreadable entry is treated as a miss and overwritten by the next `put`.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, salt: str = "") -> None:
        self.directory = Path(directory) if directory else default_cache_dir()
        self.salt = salt

    def key(self, path: Path, stat: os.stat_result, variant: str = "") -> str:
        ident = f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0{self.salt}\0{variant}"
        return hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()

    def _file(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached entry, or None on a miss or an unreadable entry."""
        file = self._file(key)
        try:
            entry = json.loads(file.read_text(encoding="utf-8", errors=_BYTES))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("ignoring corrupt parse-cache entry %s: %s", file, exc)
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            log.warning("ignoring corrupt parse-cache entry %s: wrong shape", file)
            return None
        return entry

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Store an entry atomically; a cache that cannot be written is only logged."""
        file = self._file(key)
        tmp = None
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8", errors=_BYTES) as out:
                json.dump({**entry, "key": key}, out, ensure_ascii=False)
            Path(tmp).replace(file)
        except (OSError, ValueError) as exc:  # ValueError: text no encoding can write
            log.warning("parse cache not written (%s): %s", file, exc)
            if tmp:
                Path(tmp).unlink(missing_ok=True)

    def clear(self) -> int:
        """Delete every entry; return how many there were."""
        count = 0
        for file in self.directory.glob("*/*.json"):
            file.unlink(missing_ok=True)
            count += 1
        return count
