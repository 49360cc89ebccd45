"""Who in this process holds an index file open for reading: the connections fsnb handed
out to other tools (tracked weakly, with where each was made) and jupysql's connections.

The connections fsnb handed out attach the file to an in-memory database, so a write in
this process borrows the file from them (`Handouts.lent`: detached for the write,
attached again after) and indexing goes on beside jupysql. A write is refused while
another connection holds the file (a handout that cannot be detached, checked by `held`;
jupysql's SQLAlchemy connection, refused by DuckDB); the refusal says which to close
(`refusal`), and `close_all` closes them. The process's one `Handouts` is its engine's
(`fsnb.db.engine.Engine.handouts`). jupysql and IPython are looked up in `sys.modules`,
never imported: when they are not loaded, nothing of theirs can hold the file.

Lending and threads: a handed-out connection's queries take no fsnb lock, so a write and
a query on it (from another thread, or a notebook's) never wait for each other. A query
that starts while a write has borrowed the file fails at once with DuckDB's CatalogException
(no `fsnb` catalog); run again after the write, it sees what was written. A write that
begins while a query runs on the connection is refused at once with `DatabaseInUse`:
DuckDB keeps the file open for the running query though it was detached, and will not
attach it for writing meanwhile; the query finishes with its rows, the file is attached
again, and the next write goes through (tests/test_database.py).
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb


@dataclass(frozen=True)
class _Handout:
    connection: weakref.ref[duckdb.DuckDBPyConnection]
    path: Path
    origin: str
    #: Detach the file from the connection, and attach it again (None: cannot lend it).
    detach: Callable[[duckdb.DuckDBPyConnection], None] | None = None
    attach: Callable[[duckdb.DuckDBPyConnection], None] | None = None


@dataclass(frozen=True)
class Holder:
    """One open connection to the file: what it is, how to close it, and a closer."""

    label: str
    fix: str
    close: Callable[[], None]

    def __str__(self) -> str:
        return f"{self.label} with {self.fix}"


def _is_open(connection: duckdb.DuckDBPyConnection) -> bool:
    try:
        connection.cursor().close()  # a probe that leaves the connection's own result alone
    except duckdb.Error:
        return False
    return True


class Handouts:
    """The connections fsnb handed out in this process, held weakly, with where each was
    made; what lends their file to a write, and what holds it up."""

    def __init__(self) -> None:
        self._handouts: list[_Handout] = []
        self._lock = threading.Lock()

    def track(
        self,
        connection: duckdb.DuckDBPyConnection,
        path: Path,
        origin: str,
        *,
        detach: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
        attach: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
    ) -> None:
        """Remember (weakly) that `connection`, made by `origin`, reads the file at `path`;
        with `detach` and `attach`, a write in this process may borrow the file from it."""
        with self._lock:
            self._handouts[:] = [h for h in self._handouts if h.connection() is not None]
            handout = _Handout(weakref.ref(connection), path.resolve(), origin, detach, attach)
            self._handouts.append(handout)

    @contextmanager
    def lent(self, path: Path) -> Iterator[None]:
        """The file at `path` detached from the handouts that can lend it, for one write;
        attached again afterwards (they see the write). Their queries fail meanwhile."""
        path = path.resolve()
        with self._lock:
            lenders = [
                (h, c)
                for h in self._handouts
                if h.path == path and h.detach and (c := h.connection()) is not None
            ]
        detached = []
        try:
            for handout, connection in lenders:
                if _is_open(connection):
                    handout.detach(connection)  # type: ignore[misc]
                    detached.append((handout, connection))
            yield
        finally:
            for handout, connection in detached:
                with suppress(duckdb.Error):  # closed meanwhile: nothing to give back
                    handout.attach(connection)  # type: ignore[misc]

    def held(self, path: Path) -> bool:
        """Whether a connection fsnb handed out still reads `path`. Checked before a write:
        DuckDB itself refuses the writer only from version 2.0 on."""
        path = path.resolve()
        with self._lock:
            live = [
                c
                for h in self._handouts
                if h.path == path and h.detach is None and (c := h.connection()) is not None
            ]
        return any(map(_is_open, live))

    def holders(self, path: Path, *, lenders: bool = False) -> Iterator[Holder]:
        """The connections of this process known to hold `path` open (with `lenders`, also
        those that lend it to writes)."""
        path = path.resolve()
        jupysql = _jupysql()
        with self._lock:
            handouts = [(h, h.connection()) for h in self._handouts if h.path == path]
        wrapped: dict[int, str] = {
            id(getattr(c, "_connection", None)): key for key, c in jupysql.items()
        }
        for handout, connection in handouts:
            if connection is None or (handout.detach and not lenders) or not _is_open(connection):
                continue  # gone, or lends the file to writes: it holds nothing up
            names = _variables(connection)
            who = f"`{names[0]}`" if names else "a connection"
            who += f" from {handout.origin}"
            if (key := wrapped.get(id(connection))) is not None:
                label, fix = f"jupysql's {key!r} ({who})", f"%sql --close {key}"
                yield Holder(label, fix, _jupysql_close(key))
            else:
                fix = f"{names[0]}.close()" if names else "its .close()"
                yield Holder(who, fix, connection.close)
        for key, connection in jupysql.items():
            if _engine_path(connection) == path:
                label = f"jupysql's {key!r} (a SQLAlchemy connection)"
                yield Holder(label, f"%sql --close {key}", _jupysql_close(key))

    def refusal(self, path: Path) -> str:
        """Why a write to `path` was refused, naming the connections to close."""
        found = list(self.holders(path))
        head = f"cannot write the index {path}: this process still has it open for reading"
        if not found:
            return (
                f"{head} (a connection from fsnb.connect(), %explore_connection, "
                "fsnb.sqlalchemy_url() or duckdb.connect(..., read_only=True)): close it, "
                "or run fsnb.close_connections()"
            )
        listed = "; ".join(map(str, found))
        return f"{head}: close {listed}; or fsnb.close_connections() closes them all"

    def close_all(self, also: Path | None = None) -> list[str]:
        """Close every connection fsnb handed out, and jupysql's connections to their files
        and to `also`; return what was closed."""
        with self._lock:
            paths = {h.path for h in self._handouts if h.connection() is not None}
        if also is not None:
            paths.add(also.resolve())
        closed = []
        for path in sorted(paths):
            for holder in self.holders(path, lenders=True):
                with suppress(Exception):  # a third party's close; the file is what matters
                    holder.close()
                closed.append(holder.label)
        return closed


def _jupysql() -> dict[str, Any]:
    """jupysql's open connections by the name `%sql --close` takes, when it is loaded."""
    module = sys.modules.get("sql.connection")
    manager = getattr(module, "ConnectionManager", None)
    return dict(getattr(manager, "connections", None) or {})


def _jupysql_close(key: str) -> Callable[[], None]:
    def close() -> None:
        manager = sys.modules["sql.connection"].ConnectionManager
        if manager.current is manager.connections.get(key):
            manager.current = None
        manager.close_connection_with_descriptor(key)

    return close


def _engine_path(connection: Any) -> Path | None:
    """The database file of a jupysql SQLAlchemy connection (duckdb-engine), else None."""
    try:
        url = connection._connection.engine.url
        if url.drivername.partition("+")[0] != "duckdb" or url.database in (None, "", ":memory:"):
            return None
        return Path(url.database).expanduser().resolve()
    except (AttributeError, OSError, ValueError):
        return None


def _variables(value: object) -> list[str]:
    """The names in the IPython namespace bound to `value` (when IPython runs)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython else None
    namespace = getattr(shell, "user_ns", None) or {}
    return sorted(n for n, v in list(namespace.items()) if v is value and not n.startswith("_"))
