"""Retries of chat backends: ours (the SDKs' own are off), with backoff, each said in the trace;
a refused connection (`refused`) is not retried: it fails at once, in one line."""

from __future__ import annotations

import email.utils
import errno
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

from fsnb.errors import one_line
from fsnb.protocol import Notify

#: HTTP statuses worth another try: rate limits and server trouble.
RETRY_CODES = frozenset({429, 500, 502, 503, 504})
_SECONDS = re.compile(r"^\s*(\d+(?:\.\d+)?)s?\s*$")


@dataclass(frozen=True)
class Backoff:
    """Up to `max_retries` retries, waiting `backoff_s * 2**n` seconds (or what the server
    asked), never more than `max_delay_s`."""

    max_retries: int = 4
    backoff_s: float = 1.0
    max_delay_s: float = 30.0

    def wait(
        self, backend: str, attempt: int, what: str, notify: Notify, asked: float | None = None
    ) -> None:
        """Say `<backend>: <what>, retry i/n in s` and sleep before retry `attempt + 1`."""
        delay = min(self.max_delay_s, self.backoff_s * 2**attempt if asked is None else asked)
        notify(f"{backend}: {what}, retry {attempt + 1}/{self.max_retries} in {delay:.1f} s")
        time.sleep(delay)


def refused(exc: BaseException | None) -> bool:
    """Whether `exc`, or an error it came from, is a refused connection: nothing listens
    at the server's address (not started, or the wrong port), so another try after a wait
    would only delay the same answer. A reset, a timeout or a dropped reply is not one."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ConnectionRefusedError) or (
            isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED
        ):
            return True
        if "connection refused" in str(exc).lower():  # httpx/httpcore say it in words
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def unreachable(backend: str, where: str, attempts: int, exc: BaseException) -> str:
    """The one line a connection failure ends with: a refused connection says so at once
    (is the server running?); another says how many attempts were made, and why."""
    if refused(exc):
        return f"{backend}: {where} refused the connection (is the server running there?)"
    cause = one_line(exc.__cause__ or exc, 300) or type(exc).__name__
    return f"{backend}: cannot reach {where} after {attempts} attempts: {cause}"


def seconds(value: object) -> float | None:
    """A delay such as `3`, `1.5` or `3s` in seconds; None when it is not one."""
    found = _SECONDS.match(str(value))
    return float(found.group(1)) if found else None


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds the server asked us to wait: `retry-after-ms`, or `Retry-After` (seconds or
    an HTTP date)."""
    if not headers:
        return None
    if (ms := seconds(headers.get("retry-after-ms", ""))) is not None:
        return ms / 1000
    value = headers.get("retry-after")
    if not value:
        return None
    if (delay := seconds(value)) is not None:
        return delay
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
