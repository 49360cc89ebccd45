"""What every index reader shares: the corpus a folder maps to, a read session, the
filter condition, the query's terms, and hit rows with highlights and snippets.

BM25 (`fsnb.index.bm25`), vectors (`fsnb.index.vectors`), the hybrid `search` and the
file-name bridge build on this module; the write path does not import it.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from fsnb.db.database import Database
from fsnb.db.schema import SCHEMA_VERSION, corpus_id
from fsnb.db.version import file_version
from fsnb.errors import FsnbError
from fsnb.index import runs
from fsnb.index.filters import compile_filter
from fsnb.text.redact import mask_secrets
from fsnb.text.words import STOPWORDS, stem, tokenize

#: Where to search: a `Database`, or a connection already open on one (opening costs ~50 ms).
Source = Database | duckdb.DuckDBPyConnection
Folder = str | os.PathLike[str]
COLUMNS = [
    "path", "title", "page", "position", "heading", "score",
    "text", "start_char", "end_char", "highlights", "ranker", "ocr",
]  # fmt: skip
FILE_COLUMNS = ["path", "name", "extension", "size", "category", "matches"]
#: Hits holding less than this share of the query's idf do not answer it (see `bridge`).
MIN_COVERAGE = 0.5
SNIPPET_CHARS = 300
#: A word or number as users write them ("1,200,000" in one piece).
WORD = re.compile(r"\d{1,3}(?:[,\u2009]\d{3})+(?:\.\d+)?|[A-Za-z0-9]+(?:\.[0-9]+)?")


class NotIndexed(FsnbError):
    """The folder has no corpus in the index."""

    def __init__(self, folder: Folder, why: str = "") -> None:
        self.folder = str(folder)
        super().__init__(
            f"{self.folder} is not indexed{f' ({why})' if why else ''}: "
            f"run `fsnb index {self.folder}` or Index().add_folder({self.folder!r})"
        )


class IndexingInProgress(NotIndexed):
    """The folder is being indexed and none of its documents is committed yet."""

    def __init__(self, folder: Folder, progress: str) -> None:
        self.folder = str(folder)
        self.progress = progress
        msg = f"{self.folder} is not searchable yet ({progress}): try again in a moment"
        FsnbError.__init__(self, msg)


def corpus_of(con: duckdb.DuckDBPyConnection, folder: Folder) -> int:
    """The id of the corpus rooted at `folder`, or `NotIndexed`."""
    cid = corpus_id(con, str(Path(folder).expanduser().resolve()), create=False)
    if cid is None:
        raise NotIndexed(folder)
    return cid


@contextmanager
def session(source: Source, folder: Folder) -> Iterator[tuple[duckdb.DuckDBPyConnection, int]]:
    """(connection, corpus id): a short read-only connection, or the one passed in.

    On a read-only connection, the corpus (checked committed) is remembered by the file's
    `file_version`, which `version_of` gives the readers of the session (`corpus_stats`).
    """
    if isinstance(source, duckdb.DuckDBPyConnection):
        with _versioned(source, _read_only_file(source), folder, check=False) as cid:
            yield source, cid
        return
    if not source.path.exists():
        raise NotIndexed(folder)
    with source.read() as con:
        outdated = _outdated(con, source.path)
        if not outdated:
            with _versioned(con, source.path, folder, check=True) as cid:
                yield con, cid
    if outdated:  # written by an older fsnb: the first write connection migrates it
        with source.write():
            pass
        with (
            source.read() as con,
            _versioned(con, source.path, folder, check=True) as cid,
        ):
            yield con, cid


#: Database file -> its version when last seen at `SCHEMA_VERSION`.
_current: dict[str, tuple[int, ...] | None] = {}


def _outdated(con: duckdb.DuckDBPyConnection, path: Path) -> bool:
    """Whether the file's schema predates this fsnb's (readers need `SCHEMA_VERSION`)."""
    version = file_version(path)
    if version is not None and _current.get(str(path)) == version:
        return False
    try:
        (found,) = con.execute("SELECT max(version) FROM schema_version").fetchone()
    except duckdb.CatalogException:  # a file without the table: not ours to migrate
        return False
    if found is not None and found < SCHEMA_VERSION:
        return True
    _current[str(path)] = version
    return False


#: (database file, folder, checked) -> (the file's version, the folder's committed corpus id).
_corpora: dict[tuple[str, str, bool], tuple[tuple[int, ...], int]] = {}
#: id of a connection in a session -> (database file, its version), while the session lasts.
_versions: dict[int, tuple[str, tuple[int, ...]]] = {}


@contextmanager
def _versioned(
    con: duckdb.DuckDBPyConnection, path: Path | None, folder: Folder, *, check: bool
) -> Iterator[int]:
    """The corpus id of `folder` (with `check`, one whose indexing committed documents),
    from memory while the read-only file is unchanged: no process writes it while it is
    attached here."""
    version = file_version(path) if path is not None else None
    key = (str(path), str(folder), check)
    known = _corpora.get(key)
    if version is not None and known is not None and known[0] == version:
        cid = known[1]
    else:
        cid = corpus_of(con, folder)
        if check:
            _check_committed(con, cid, folder)
        if version is None:
            yield cid
            return
        if len(_corpora) > 256:
            _corpora.clear()
        _corpora[key] = (version, cid)
    outer = _versions.get(id(con))  # a session inside another on the same connection
    _versions[id(con)] = (str(path), version)
    try:
        yield cid
    finally:
        if outer is None:
            _versions.pop(id(con), None)
        else:
            _versions[id(con)] = outer


def known_corpus(store: Database, folder: Folder) -> tuple[tuple[int, ...], int] | None:
    """(the file's version, `folder`'s corpus id) when a read session at this very version
    found the corpus committed and the schema current: a reader may then skip the session."""
    path = str(store.path)
    version = file_version(store.path)
    if version is None or _current.get(path) != version:
        return None
    known = _corpora.get((path, str(folder), True))
    return (version, known[1]) if known is not None and known[0] == version else None


def version_of(con: duckdb.DuckDBPyConnection) -> tuple[str, tuple[int, ...]] | None:
    """(database file, version) of a connection inside `session`, when read-only."""
    return _versions.get(id(con))


def _read_only_file(con: duckdb.DuckDBPyConnection) -> Path | None:
    """The file of a connection's current database when it is attached read-only."""
    try:
        row = con.execute(
            "SELECT path, readonly FROM duckdb_databases() WHERE database_name = current_database()"
        ).fetchone()
    except duckdb.Error:
        return None
    return Path(row[0]) if row and row[0] and row[1] else None


def indexing(con: duckdb.DuckDBPyConnection, cid: int) -> str | None:
    """How the latest indexing run of corpus `cid` stands ('indexing in progress: 120 of
    500 documents committed', 'indexing interrupted: ...'), or None once it finished."""
    run = runs.latest(con, cid)
    return run.describe() if run and run.status != "finished" else None


def _check_committed(con: duckdb.DuckDBPyConnection, cid: int, folder: Folder) -> None:
    """`NotIndexed` saying why when a corpus whose indexing has not finished has no documents."""
    run = runs.latest(con, cid)
    if run is None:  # a corpus row made for a scratchpad, never indexed
        (indexed_at,) = con.execute("SELECT indexed_at FROM corpora WHERE id = ?", [cid]).fetchone()
        if indexed_at is None:
            raise NotIndexed(folder)
        return
    if run.status == "finished":
        return
    if con.execute("SELECT 1 FROM documents WHERE corpus_id = ? LIMIT 1", [cid]).fetchone():
        return
    if run.active:
        raise IndexingInProgress(folder, run.describe())
    raise NotIndexed(folder, run.describe())


def schema_of(con: duckdb.DuckDBPyConnection, cid: int) -> dict[str, str]:
    """{field: type} of the corpus' metadata, as the filter language wants it."""
    return dict(
        con.execute("SELECT field, type FROM schemas WHERE corpus_id = ?", [cid]).fetchall()
    )


def filter_sql(con: duckdb.DuckDBPyConnection, cid: int, expr: str | None) -> tuple[str, list[Any]]:
    """A condition over documents `d` for a filter expression (None without one)."""
    if not expr or not expr.strip():
        return "", []
    return compile_filter(expr, schema_of(con, cid))


def query_terms(query: str) -> tuple[Counter[str], dict[str, str]]:
    """Query term counts (stems, as indexed) and the word the user wrote for each stem."""
    words: dict[str, str] = {}
    for match in WORD.finditer(query):
        for term in tokenize(match.group()):
            words.setdefault(term, match.group())
    return Counter(tokenize(query)), words


def fetch_chunks(
    con: duckdb.DuckDBPyConnection, scored: list[tuple[int, int, float]]
) -> list[dict[str, Any]]:
    """The rows of scored (doc_id, position, score) chunks, in that order, without highlights.

    One statement: `doc_id = ANY` prunes by the chunks' zone maps and the (doc_id, position)
    keys are checked before the text column is read (a UNION of one lookup per document
    cost ~10 ms in planning and scans).
    """
    if not scored:
        return []
    found = con.execute(
        "SELECT c.doc_id, c.position, d.path, d.title, c.page, c.heading, c.text, c.start_char,"
        " c.end_char, c.ocr_confidence FROM chunks c JOIN documents d ON d.id = c.doc_id"
        " WHERE c.doc_id = ANY(?) AND list_contains(?, (c.doc_id::BIGINT << 32) | c.position)",
        [sorted({doc for doc, _, _ in scored}), [(doc << 32) | pos for doc, pos, _ in scored]],
    ).fetchall()
    names = ["doc_id", "position", "path", "title", "page", "heading", "text", "start_char"]
    names += ["end_char", "ocr"]
    rows = {(r[0], r[1]): dict(zip(names, r, strict=True)) for r in found}
    return [
        {**rows[(doc, pos)], "score": float(score)}
        for doc, pos, score in scored
        if (doc, pos) in rows
    ]


def hit_frame(rows: list[dict[str, Any]], ranker: str, words: dict[str, str]) -> pd.DataFrame:
    """Hit rows as a frame of `COLUMNS`, with highlights for the query `words`."""
    for row in rows:
        masked = row.pop("masked", None)  # the engine keeps it
        row["highlights"] = highlights(row["text"], words, row["heading"] or "", masked=masked)
        row.setdefault("ranker", ranker)
    return pd.DataFrame(rows, columns=COLUMNS)


def coverage(idf: dict[str, float], text: str) -> float:
    """The share of the query's idf that `text` holds."""
    total = sum(idf.values())
    present = set(tokenize(text))
    return sum(v for t, v in idf.items() if t in present) / total if total else 0.0


def highlights(
    text: str, words: dict[str, str], heading: str = "", *, masked: str | None = None
) -> dict[str, Any]:
    """{terms: the query words found, snippet}; `words` maps query stems to query words.

    The snippet comes from the text with its secret values withheld (`masked`, when it was
    masked already): highlighting and joining lines would hide a `key = value` or a table
    column from the masker later on.
    """
    text = mask_secrets(text)[0] if masked is None else masked
    spans = [
        (m.start(), m.end(), term)
        for m in _candidates(tuple(words)).finditer(text)
        if (term := _term(m.group())) in words
    ]
    present = {t for _, _, t in spans} | (set(tokenize(heading)) & words.keys())
    return {"terms": [w for t, w in words.items() if t in present], "snippet": snippet(text, spans)}


@functools.lru_cache(maxsize=256)
def _candidates(terms: tuple[str, ...]) -> re.Pattern[str]:
    """`WORD` matches that may stem to one of `terms`: numbers, or the same 3 first letters."""
    heads = "|".join(sorted({re.escape(t[:3]) for t in terms if not t[:1].isdigit()}))
    parts = [rf"(?<![A-Za-z0-9])(?i:{heads})[A-Za-z0-9]*(?:\.[0-9]+)?"] if heads else []
    if any(t[:1].isdigit() for t in terms):
        parts.append(r"(?<![A-Za-z0-9])" + WORD.pattern.split("|")[0] + r"|\b\d+(?:\.\d+)?")
    return re.compile("|".join(parts) or r"(?!)")


def _term(word: str) -> str:
    """`tokenize(word)[0]` (or '') for one `WORD` match, without its regular expressions."""
    word = word.lower().replace(",", "").replace("\u2009", "")
    return "" if word in STOPWORDS else stem(word)


def snippet(text: str, spans: list[tuple[int, int, str]], width: int = SNIPPET_CHARS) -> str:
    """About `width` characters of `text` around the densest run of `spans`, each in `**`."""
    best, best_key = (0, 0), (-1, -1)
    for i, (start, _, _) in enumerate(spans):
        inside = [s for s in spans[i:] if s[1] - start <= width]
        key = (len({s[2] for s in inside}), len(inside))
        if key > best_key:
            best, best_key = (start, inside[-1][1]), key
    pad = max(0, (width - (best[1] - best[0])) // 2)
    lo = max(0, min(best[0] - pad, len(text) - width))
    hi = min(len(text), lo + width)
    if lo > 0 and (space := text.rfind(" ", max(0, lo - 20), lo)) > 0:
        lo = space + 1
    if hi < len(text) and (space := text.find(" ", hi, hi + 20)) > 0:
        hi = space
    parts, pos = [], lo
    for start, end, _ in spans:
        if start >= lo and end <= hi:
            parts += [text[pos:start], f"**{text[start:end]}**"]
            pos = end
    parts.append(text[pos:hi])
    body = " ".join("".join(parts).split())
    return ("…" if lo > 0 else "") + body + ("…" if hi < len(text) else "")
