"""One file, checked: `open_file` reads the file it opened rather than its name (nothing
swapped in after the check is read or waited on), what a `stat` mode is (`file_kind`), why
an `OSError` happened (`os_reason`), and file names that are not valid UTF-8 shown with
their odd bytes as `\\xNN` (`shown`) and read back that way (`unshown`)."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from fsnb.errors import AccessDenied, NotFound


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


def unshown(text: str) -> str:
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
