"""What changes with every commit to a DuckDB file, read from its headers without opening it:
readers remember what they found by it (`fsnb.index.query`, `fsnb.fsindex.filesystem`).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

#: DuckDB's file headers; a shorter file is being created (or is damaged).
HEADER_BYTES = 3 * 4096
#: Where DuckDB's two database headers start; each holds its checkpoint count after an
#: 8-byte checksum, and a checkpoint writes the older one with the count + 1.
_HEADERS = (4096, 8192)


def file_version(path: Path) -> tuple[int, ...] | None:
    """What changes with every commit to the database file at `path` (None without it):
    its inode, checkpoint count (from DuckDB's headers) and WAL size (a commit appends to
    the WAL; a checkpoint removes it and counts one more). Size and modified time alone
    miss writes: DuckDB rewrites blocks in place, within the clock's granularity."""
    try:
        with path.open("rb") as file:
            info = os.fstat(file.fileno())
            head = file.read(HEADER_BYTES)
    except OSError:
        return None
    if len(head) < HEADER_BYTES:
        return None
    checkpoints = max(struct.unpack_from("<Q", head, at + 8)[0] for at in _HEADERS)
    try:
        wal = path.with_name(path.name + ".wal").stat().st_size
    except OSError:
        wal = -1
    return (info.st_dev, info.st_ino, checkpoints, wal, info.st_size)
