"""The DuckDB file behind the index and the scratchpad: schema, migrations, connections.

DuckDB lets one process write a database file at a time. fsnb holds connections only for
the length of one unit of work: each attaches the file to the process' one in-memory
DuckDB and detaches it afterwards (about a millisecond, where opening the file as a
database of its own starts a DuckDB instance, ~15 ms, every time). When another process
holds the file, opening waits and retries (with backoff) instead of failing, and gives up
with a clear `DatabaseLocked` after `lock_timeout_s`. Readers attach read-only. Within one
process, connections to the same file are serialized by a lock, since DuckDB refuses to
attach one file read-only and read-write at once. A connection held open by another tool
in this process (`fsnb.connect()`, jupysql) makes a read go through an in-memory database
of its own with the file attached read-only, and a write fail at once with
`DatabaseInUse`, which names the connections to close (`fsnb.db.holders`).

A file DuckDB cannot read (truncated, overwritten, not a database) raises
`DatabaseDamaged`, whether on opening or in a query; `Store.set_aside` moves it (and its
WAL) out of the way, kept, so that a rebuild starts a new file.
"""

from __future__ import annotations

import itertools
import os
import random
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path

import duckdb

from fsnb.db.holders import held, lent, refusal
from fsnb.errors import FsnbError

SCHEMA_VERSION = 8
#: A write connection's commit that logs more than this checkpoints at once.
CHECKPOINT_AT = "1MB"
#: The shared scratchpad's schema (tables made by hand, outside any folder).
SHARED_SCHEMA = "scratch"

#: Each migration brings the schema from version i to i + 1.
MIGRATIONS: list[str] = [
    """
    CREATE SEQUENCE IF NOT EXISTS corpus_ids START 1;
    CREATE SEQUENCE IF NOT EXISTS document_ids START 1;
    CREATE SEQUENCE IF NOT EXISTS bookmark_ids START 1;
    CREATE SEQUENCE IF NOT EXISTS scan_ids START 1;
    CREATE TABLE IF NOT EXISTS corpora (
        id INTEGER PRIMARY KEY DEFAULT nextval('corpus_ids'),
        root VARCHAR NOT NULL UNIQUE,
        created_at TIMESTAMP DEFAULT current_timestamp,
        indexed_at TIMESTAMP
    );
    CREATE TABLE IF NOT EXISTS files (
        corpus_id INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        extension VARCHAR NOT NULL,
        size BIGINT NOT NULL,
        mtime_ns BIGINT NOT NULL,
        category VARCHAR NOT NULL,
        depth INTEGER NOT NULL,
        parent VARCHAR NOT NULL,
        sensitivity VARCHAR NOT NULL DEFAULT 'none',
        PRIMARY KEY (corpus_id, path)
    );
    CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY DEFAULT nextval('document_ids'),
        corpus_id INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        title VARCHAR,
        format VARCHAR,
        pages INTEGER,
        chars INTEGER,
        text VARCHAR,
        content_hash VARCHAR,
        metadata JSON DEFAULT '{}',
        parser VARCHAR,
        warnings JSON DEFAULT '[]',
        size BIGINT,
        mtime_ns BIGINT,
        error VARCHAR,
        deleted BOOLEAN NOT NULL DEFAULT false,
        indexed_at TIMESTAMP DEFAULT current_timestamp,
        UNIQUE (corpus_id, path)
    );
    CREATE TABLE IF NOT EXISTS chunks (
        doc_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        text VARCHAR NOT NULL,
        start_char INTEGER NOT NULL,
        end_char INTEGER NOT NULL,
        page INTEGER,
        heading VARCHAR,
        n_terms INTEGER NOT NULL,
        PRIMARY KEY (doc_id, position)
    );
    CREATE TABLE IF NOT EXISTS terms (
        doc_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        term VARCHAR NOT NULL,
        tf INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS schemas (
        corpus_id INTEGER NOT NULL,
        field VARCHAR NOT NULL,
        type VARCHAR NOT NULL,
        documents INTEGER NOT NULL,
        examples JSON,
        PRIMARY KEY (corpus_id, field)
    );
    CREATE TABLE IF NOT EXISTS bookmarks (
        id INTEGER PRIMARY KEY DEFAULT nextval('bookmark_ids'),
        corpus_id INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        note VARCHAR,
        created_at TIMESTAMP DEFAULT current_timestamp
    );
    CREATE TABLE IF NOT EXISTS scan_log (
        id INTEGER PRIMARY KEY DEFAULT nextval('scan_ids'),
        corpus_id INTEGER NOT NULL,
        started_at TIMESTAMP NOT NULL,
        duration_s DOUBLE NOT NULL,
        added INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        unchanged INTEGER NOT NULL,
        deleted INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        report JSON
    );
    CREATE INDEX IF NOT EXISTS terms_term ON terms (term);
    CREATE SCHEMA IF NOT EXISTS scratch;
    """,
    # 2: page spans per document; terms clustered by term instead of an ART index (zone
    # maps over the sorted table are faster, the index was most of the file, and it kept
    # DuckDB from reclaiming deleted rows).
    """
    DROP INDEX IF EXISTS terms_term;
    ALTER TABLE documents ADD COLUMN IF NOT EXISTS spans JSON;
    CREATE TABLE IF NOT EXISTS terms_layout (
        max_doc_id BIGINT,
        term_rows BIGINT,
        clustered_at TIMESTAMP DEFAULT current_timestamp
    );
    """,
    # 3: one row per indexing run, updated with each batch commit, so that other processes
    # can tell a folder being indexed (and how far it got) from one that is not indexed.
    """
    CREATE SEQUENCE IF NOT EXISTS run_ids START 1;
    CREATE TABLE IF NOT EXISTS index_runs (
        id INTEGER NOT NULL DEFAULT nextval('run_ids'),
        corpus_id INTEGER NOT NULL,
        state VARCHAR NOT NULL,
        total INTEGER,
        done INTEGER NOT NULL DEFAULT 0,
        pid INTEGER NOT NULL,
        host VARCHAR NOT NULL,
        started_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
        updated_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
        error VARCHAR
    );
    """,
    # 4: the file index's MIME type (guessed by name), filled by the next scan.
    """
    ALTER TABLE files ADD COLUMN IF NOT EXISTS mime VARCHAR;
    """,
    # 5: the navigator's tables. A file's content hash (for duplicates), kept while its
    # row is (a changed file's row is replaced, so a stale hash cannot survive); bookmarks
    # with a label; the scan log's end and file counts.
    """
    ALTER TABLE files ADD COLUMN IF NOT EXISTS sha256 VARCHAR;
    ALTER TABLE bookmarks RENAME COLUMN note TO label;
    ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS finished_at TIMESTAMP;
    ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files INTEGER;
    ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files_written INTEGER;
    ALTER TABLE scan_log ADD COLUMN IF NOT EXISTS files_removed INTEGER;
    """,
    # 6: the file index lighter to write: `file_rows` holds what a scan finds, with no
    # primary key (rows are written by anti-join, one per path by construction; the key's
    # index cost a fifth of indexing a tree from cold); the `files` view adds the name,
    # parent folder and depth, computed from the path when read.
    """
    CREATE TABLE file_rows (
        corpus_id INTEGER NOT NULL,
        path VARCHAR NOT NULL,
        extension VARCHAR NOT NULL,
        size BIGINT NOT NULL,
        mtime_ns BIGINT NOT NULL,
        category VARCHAR NOT NULL,
        sensitivity VARCHAR NOT NULL DEFAULT 'none',
        mime VARCHAR,
        sha256 VARCHAR
    );
    INSERT INTO file_rows
        SELECT corpus_id, path, extension, size, mtime_ns, category, sensitivity, mime, sha256
        FROM files;
    DROP TABLE files;
    CREATE VIEW files AS
        SELECT corpus_id, path, regexp_extract(path, '[^/]*$') AS name, extension, size,
               mtime_ns, category, len(path) - len(replace(path, '/', '')) AS depth,
               coalesce(nullif(regexp_extract(path, '^(.*)/[^/]*$', 1), ''), '.') AS parent,
               sensitivity, mime, sha256
        FROM file_rows;
    """,
    # 7: every exploration run (`fsnb.index.explorations`): question, answer, citations,
    # usage and events as JSON, the folder, backend and model, its thread and parent (times
    # in UTC).
    """
    CREATE TABLE IF NOT EXISTS explorations (
        id VARCHAR PRIMARY KEY,
        thread_id VARCHAR NOT NULL,
        parent_id VARCHAR,
        folder VARCHAR NOT NULL,
        question VARCHAR NOT NULL,
        answer VARCHAR NOT NULL,
        error VARCHAR,
        backend VARCHAR NOT NULL,
        model VARCHAR NOT NULL,
        started_at TIMESTAMP,
        finished_at TIMESTAMP,
        citations JSON,
        usage JSON,
        events JSON,
        saved JSON NOT NULL
    );
    """,
    # 8: each `terms` row (a posting) carries its corpus and its chunk's length, so that
    # BM25 reads only the query terms' rows: no join to `chunks` or `documents`. Rewritten
    # sorted by term (as `cluster_terms` keeps it); rows of deleted documents are dropped.
    """
    CREATE TABLE terms_v8 (
        doc_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        term VARCHAR NOT NULL,
        tf INTEGER NOT NULL,
        corpus_id INTEGER NOT NULL,
        n_terms INTEGER NOT NULL
    );
    INSERT INTO terms_v8
        SELECT t.doc_id, t.position, t.term, t.tf, d.corpus_id, c.n_terms
        FROM terms t JOIN chunks c USING (doc_id, position) JOIN documents d ON d.id = t.doc_id
        WHERE NOT d.deleted ORDER BY t.term, t.doc_id, t.position;
    DROP TABLE terms;
    ALTER TABLE terms_v8 RENAME TO terms;
    DELETE FROM terms_layout;
    INSERT INTO terms_layout (max_doc_id, term_rows)
        SELECT (SELECT coalesce(max(id), 0) FROM documents), (SELECT count(*) FROM terms);
    """,
]


class DatabaseLocked(FsnbError):
    """Another process kept the database file locked for longer than we waited."""


class DatabaseDamaged(FsnbError):
    """The database file cannot be read: truncated, overwritten or not a DuckDB file."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(
            f"the index {path} is damaged ({why}): run `fsnb index FOLDER --rebuild` "
            "or Index().rebuild(FOLDER) to move it aside and rebuild"
        )
        self.path = path
        self.why = why

    def __reduce__(self) -> tuple[type, tuple[Path, str]]:
        return type(self), (self.path, self.why)


class DatabaseInUse(FsnbError):
    """A write was refused: this process holds the file open for reading elsewhere."""

    def __init__(self, path: Path) -> None:
        super().__init__(refusal(path))
        self.path = path

    def __reduce__(self) -> tuple[type, tuple[Path]]:
        return type(self), (self.path,)


def default_db_path() -> Path:
    """`FSNB_DB`, else `~/.fsnb/index.duckdb`."""
    return Path(os.environ.get("FSNB_DB") or Path.home() / ".fsnb" / "index.duckdb").expanduser()


_process_locks: dict[str, threading.RLock] = {}
_process_locks_guard = threading.Lock()


def _process_lock(path: Path) -> threading.RLock:
    with _process_locks_guard:
        return _process_locks.setdefault(str(path), threading.RLock())


_shared: duckdb.DuckDBPyConnection | None = None
_shared_guard = threading.Lock()
_aliases = itertools.count(1)


def _instance() -> duckdb.DuckDBPyConnection:
    """The process' one in-memory DuckDB, to which each unit of work attaches the file:
    attaching costs about a millisecond, where `duckdb.connect(path)` starts a database
    instance of its own each time (~15 ms)."""
    global _shared
    with _shared_guard:
        if _shared is None:
            _shared = duckdb.connect(":memory:")
            # Every attachment is detached (and so checkpointed) after one unit of work: a
            # commit this large checkpoints at once instead (DuckDB then skips the WAL).
            _shared.execute(f"SET checkpoint_threshold = '{CHECKPOINT_AT}'")
        return _shared


def memory_cursor() -> duckdb.DuckDBPyConnection:
    """A connection to the process' in-memory DuckDB with no file attached, for tables
    that live only in this process (copies kept to answer repeated reads quickly)."""
    return _instance().cursor()


def _attach(path: Path, read_only: bool) -> tuple[duckdb.DuckDBPyConnection, str]:
    """A cursor of the shared DuckDB with the file attached under a new name and in use;
    read-only ones see the shared scratch schema first, as `open_read_only`'s do."""
    con = _instance().cursor()
    alias = f"fsnb_{next(_aliases)}"
    quoted = str(path).replace("'", "''")
    try:
        con.execute(f"ATTACH '{quoted}' AS {alias}{' (READ_ONLY)' if read_only else ''}")
    except BaseException:
        con.close()
        raise
    con.execute(f"USE {alias}")
    if read_only:
        _scratch_first(con)
    return con, alias


def _release(con: duckdb.DuckDBPyConnection, alias: str | None) -> None:
    """Close a connection of `Store._open`, detaching its file (which releases the lock
    other processes wait on, and checkpoints a written file)."""
    try:
        if alias is not None:
            con.execute("USE memory")
            try:
                con.execute(f"DETACH {alias}")
            except duckdb.Error:  # a transaction left open by an error
                con.execute("ROLLBACK")
                con.execute(f"DETACH {alias}")
    finally:
        with suppress(duckdb.Error):
            con.close()


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("conflict" in text or "could not set" in text)


def in_process_conflict(exc: Exception) -> bool:
    """Whether DuckDB refused a connection because this process holds the file otherwise:
    open with another configuration, or attached by another database."""
    text = str(exc).lower()
    return "different configuration" in text or "unique file handle conflict" in text


#: DuckDB's file headers; a shorter file is being created, or damaged if it stays so for
#: `CREATING_S` seconds.
HEADER_BYTES = 3 * 4096
CREATING_S = 1.0
#: What DuckDB says when the bytes of a database file (or its WAL) are not what it wrote.
_DAMAGE = (
    "could not read enough bytes",
    "not a valid duckdb database file",
    "corrupt database file",
    "does not match stored checksum",
    "replaying wal",
)


def _damage(exc: BaseException) -> str | None:
    """The first line of a DuckDB error that means the file is damaged, else None."""
    if not isinstance(exc, duckdb.Error):
        return None
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    text = str(exc).lower()
    hit = isinstance(exc, duckdb.SerializationException) or any(m in text for m in _DAMAGE)
    return line if hit else None


class Store:
    """One DuckDB file; `connect()` hands out short-lived connections."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, lock_timeout_s: float = 30.0):
        self.path = Path(path).expanduser() if path else default_db_path()
        self.lock_timeout_s = lock_timeout_s
        self._migrated = False

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def _open(
        self, read_only: bool, *, isolated: bool = False
    ) -> tuple[duckdb.DuckDBPyConnection, str | None]:
        """A connection whose current database is the file, and the name under which the
        process' shared DuckDB attached it (None: a connection of its own)."""
        if not read_only and held(self.path):
            raise DatabaseInUse(self.path)
        began = time.monotonic()
        delay = 0.02
        while True:
            try:
                if isolated:
                    return open_read_only(self.path), None
                return _attach(self.path, read_only)
            except duckdb.Error as exc:
                waited = time.monotonic() - began
                if in_process_conflict(exc):
                    if not read_only:
                        raise DatabaseInUse(self.path) from None
                    return _read_beside(self.path), None
                if why := _damage(exc):
                    if not (self._headerless() and waited < CREATING_S):
                        raise DatabaseDamaged(self.path, why) from None
                elif not _is_lock_error(exc):
                    raise
                elif waited > self.lock_timeout_s:
                    msg = (
                        f"database {self.path} is locked by another process "
                        f"(waited {self.lock_timeout_s:.0f} s): {str(exc).splitlines()[0]}"
                    )
                    raise DatabaseLocked(msg) from None
            time.sleep(delay * (1 + random.random()))
            # Often: a reader holds the file only for moments, and attaches again at once.
            delay = min(delay * 2, 0.05)

    def _headerless(self) -> bool:
        """Whether the file is shorter than DuckDB's headers, as while another process
        creates it (then opening it fails as if it were damaged, for a moment)."""
        try:
            return self.path.stat().st_size < HEADER_BYTES
        except OSError:
            return True

    @contextmanager
    def connect(
        self, *, read_only: bool = False, isolated: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one unit of work, closed afterwards; migrates on first write.

        With `isolated` (read-only), a database instance of its own, for a connection whose
        settings (memory limit, no external access) must not reach any other.
        """
        lock = _process_lock(self.path)
        with lock:
            if read_only and not self.path.exists():
                read_only = False  # nothing to read yet: create the file and its schema
            if not read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            with (
                nullcontext() if read_only else lent(self.path),
                self._connected(read_only, isolated=isolated and read_only) as con,
            ):
                yield con

    @contextmanager
    def _connected(
        self, read_only: bool, *, isolated: bool = False
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """`_open`, migrated on the first write, damage reported, detached afterwards."""
        con, alias = self._open(read_only, isolated=isolated)
        try:
            if not read_only and not self._migrated:
                migrate(con)
                self._migrated = True
            yield con
        except duckdb.Error as exc:
            if why := _damage(exc):
                raise DatabaseDamaged(self.path, why) from None
            raise
        finally:
            _release(con, alias)

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A writable connection inside BEGIN/COMMIT (ROLLBACK on error)."""
        with self.connect() as con:
            con.execute("BEGIN TRANSACTION")
            try:
                yield con
            except BaseException:
                with suppress(duckdb.Error):  # keep the first error, e.g. a damaged file
                    con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    def set_aside(self, label: str = "damaged") -> Path | None:
        """Rename the file (and its WAL) to `<name>.<label>-YYYYmmdd-HHMMSS`; None if absent.

        The next connection starts a new, empty database; the old one stays readable
        by DuckDB under its new name (its WAL moves with it).
        """
        with _process_lock(self.path):
            if not self.path.exists():
                return None
            stamp = time.strftime("%Y%m%d-%H%M%S")
            target = self.path.with_name(f"{self.path.name}.{label}-{stamp}")
            n = 1
            while target.exists():
                n += 1
                target = self.path.with_name(f"{self.path.name}.{label}-{stamp}-{n}")
            wal = self.path.with_name(self.path.name + ".wal")
            self.path.rename(target)
            if wal.exists():
                wal.rename(target.with_name(target.name + ".wal"))
            self._migrated = False
            return target


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


def corpus_id(con: duckdb.DuckDBPyConnection, root: str, *, create: bool = True) -> int | None:
    """The id of the corpus rooted at `root`, an absolute path (created when missing and
    `create`): the one lookup every module uses."""
    if create:
        con.execute("INSERT INTO corpora (root) VALUES (?) ON CONFLICT DO NOTHING", [root])
    row = con.execute("SELECT id FROM corpora WHERE root = ?", [root]).fetchone()
    return int(row[0]) if row else None


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Bring the schema to `SCHEMA_VERSION`; return the version found before."""
    con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = con.execute("SELECT max(version) FROM schema_version").fetchone()
    found = int(row[0]) if row and row[0] is not None else 0
    if found > SCHEMA_VERSION:
        msg = f"database schema version {found} is newer than this fsnb ({SCHEMA_VERSION})"
        raise FsnbError(msg)
    for version in range(found, SCHEMA_VERSION):
        con.execute("BEGIN TRANSACTION")
        con.execute(MIGRATIONS[version])
        con.execute("INSERT INTO schema_version VALUES (?)", [version + 1])
        con.execute("COMMIT")
    return found


def open_read_only(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the index file at `path`, with the shared scratch schema
    first on the search path (when the file has one), so its tables need no prefix."""
    con = duckdb.connect(str(path), read_only=True)
    _scratch_first(con)
    return con


def _scratch_first(con: duckdb.DuckDBPyConnection) -> None:
    with suppress(duckdb.CatalogException):  # an index older than the scratchpad
        con.execute(f"SET search_path = '{SHARED_SCHEMA},main'")


#: The name under which `attach_read_only` attaches the index file.
ATTACHED = "fsnb"


def attach_read_only(path: str | os.PathLike[str]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with the index file at `path` attached read-only as `fsnb`.

    DuckDB lets it read the file beside connections of another configuration in this
    process (a jupysql URL's, say). Only DuckDB 2.0 and later refuse a writer in this
    process while it is open: a caller that keeps it open tracks it (`holders.track`),
    so that `Store` refuses to write meanwhile.
    """
    con = duckdb.connect(":memory:")
    try:
        quoted = str(path).replace("'", "''")
        con.execute(f"ATTACH '{quoted}' AS {ATTACHED} (READ_ONLY)")
    except BaseException:
        con.close()
        raise
    return con


def _read_beside(path: Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection that works like `open_read_only`'s (the file is the current
    database, scratch tables first), opened beside another tool's connection."""
    con = attach_read_only(path)
    con.execute(f"USE {ATTACHED}")
    _scratch_first(con)
    return con
