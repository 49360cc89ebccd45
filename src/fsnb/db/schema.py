"""The schema of the DuckDB file: one migration file per version (`migrations/`), applied
in order by `migrate`, and the lookups every module shares (`corpus_id`).

`migrations/NNN_what.sql` brings the schema from version NNN - 1 to NNN; the files are
numbered 1..`SCHEMA_VERSION` without a gap (tests/test_database.py holds them to it). A new
schema is a new file and `SCHEMA_VERSION` + 1; a shipped file never changes, since files
written by an older fsnb migrate forward through it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

import duckdb

from fsnb.errors import FsnbError

SCHEMA_VERSION = 9
#: The shared scratchpad's schema (tables made by hand, outside any folder).
SHARED_SCHEMA = "scratch"
_FILE = re.compile(r"(\d{3})_([a-z0-9_]+)\.sql")
#: The package the migration files are in (`fsnb.db`).
_PACKAGE = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Migration:
    """One migration file: the version it brings the schema to, its name and its SQL."""

    version: int
    name: str
    sql: str


@functools.cache
def migrations() -> tuple[Migration, ...]:
    """Every migration file of the package, in version order (read with importlib.resources,
    so they load from a wheel or a zip as from the source tree)."""
    folder = resources.files(_PACKAGE) / "migrations"
    found = [
        Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (match := _FILE.fullmatch(entry.name))
    ]
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, SCHEMA_VERSION + 1)):
        msg = f"fsnb's migration files are not numbered 1..{SCHEMA_VERSION}: reinstall fsnb"
        raise FsnbError(msg)
    return tuple(found)


def migrate(con: duckdb.DuckDBPyConnection, *, to: int = SCHEMA_VERSION) -> int:
    """Bring the schema to version `to` (`SCHEMA_VERSION`: the current one), one migration
    a transaction; return the version found before. A lower `to` makes the file an older
    fsnb wrote, for tests of migrating forward."""
    con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = con.execute("SELECT max(version) FROM schema_version").fetchone()
    found = int(row[0]) if row and row[0] is not None else 0
    if found > SCHEMA_VERSION:
        msg = f"database schema version {found} is newer than this fsnb ({SCHEMA_VERSION})"
        raise FsnbError(msg)
    for migration in migrations()[found:to]:
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(migration.sql)
            con.execute("INSERT INTO schema_version VALUES (?)", [migration.version])
        except duckdb.Error as exc:  # the file stays at the last version that applied
            con.execute("ROLLBACK")
            name = f"{migration.version:03d}_{migration.name}.sql"
            msg = f"could not bring the database to schema version {migration.version}"
            msg += f" ({name}): {exc}"
            raise FsnbError(msg) from exc
        con.execute("COMMIT")
    return found


def corpus_id(con: duckdb.DuckDBPyConnection, root: str, *, create: bool = True) -> int | None:
    """The id of the corpus rooted at `root`, an absolute path (created when missing and
    `create`): the one lookup every module uses."""
    if create:
        con.execute("INSERT INTO corpora (root) VALUES (?) ON CONFLICT DO NOTHING", [root])
    row = con.execute("SELECT id FROM corpora WHERE root = ?", [root]).fetchone()
    return int(row[0]) if row else None
