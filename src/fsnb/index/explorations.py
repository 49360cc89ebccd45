"""Past exploration runs, one row each in the `explorations` table of the DuckDB file.

A row holds the run's question, answer, citations, usage and events (JSON), its folder,
backend and model, its times, its thread and parent, and `saved`: the whole run as
`ExplorationResult.to_record()` wrote it, from which a run is rebuilt (`saved_run`).

File names that are not valid UTF-8 (Python keeps their bytes as lone surrogates, which
DuckDB cannot store) are written as `\\xNN` in the columns shown (`fsnb.security.shown`),
and in `saved` as `{"fsnb_code_points": [...]}`, read back exactly as they were, so that a
follow-up finds the files its thread read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb.db.database import database
from fsnb.security import shown

if TYPE_CHECKING:
    import pandas as pd

#: The columns `frame` shows, in order.
COLUMNS = [
    "id", "thread_id", "parent_id", "folder", "question", "answer", "error", "backend",
    "model", "base_url", "reveal_secrets", "started_at", "finished_at", "llm_calls",
    "total_tokens", "cost_usd", "citations", "usage", "events",
]  # fmt: skip
Db = str | os.PathLike[str] | None
#: In `saved`: a string DuckDB cannot hold, as its code points.
CODE_POINTS = "fsnb_code_points"


def _strings(value: Any, change: Callable[[str], Any]) -> Any:
    """`value` (JSON-ready) with `change` applied to each string in it, and its dict keys
    as `shown` writes them."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {shown(str(k)): _strings(v, change) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strings(v, change) for v in value]
    return value


def _storable(value: Any) -> Any:
    """`value` with each string DuckDB cannot hold as {CODE_POINTS: [...]}."""
    return _strings(value, lambda s: s if _utf8(s) else {CODE_POINTS: [ord(c) for c in s]})


def _restored(value: Any) -> Any:
    """The inverse of `_storable`."""
    if isinstance(value, dict):
        if set(value) == {CODE_POINTS}:
            return "".join(map(chr, value[CODE_POINTS]))
        return {k: _restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restored(v) for v in value]
    return value


def _shown(value: Any) -> Any:
    """`value` with every string as `shown` writes it (for the columns people read)."""
    return _strings(value, shown)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _saved(text: str) -> dict[str, Any]:
    return _restored(json.loads(text))


def record(db: Db, run: dict[str, Any]) -> None:
    """Add one run (an `ExplorationResult.to_record()` dict) to the table."""
    saved = json.dumps(_storable(json.loads(json.dumps(run, default=str))))
    run = _shown(run)
    row = [
        run["id"], run["thread_id"], run.get("parent_id"), run["folder"], run["task"],
        run["answer"], run.get("error"), run["backend"], run["model"],
        run.get("started_at") or None, run.get("finished_at") or None,
        json.dumps(run.get("citations", [])), json.dumps(run.get("usage", {})),
        json.dumps(run.get("events", []), default=str), saved,
    ]  # fmt: skip
    with database(db).write() as con:
        con.execute(
            "INSERT OR REPLACE INTO explorations (id, thread_id, parent_id, folder, question,"
            " answer, error, backend, model, started_at, finished_at, citations, usage, events,"
            " saved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )


def frame(db: Db = None, folder: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """The recorded runs, oldest first (of `folder` only, when given), with their usage's
    calls, tokens and cost as columns."""
    import pandas as pd

    where, params = _folder_filter(folder)
    rows = _query(
        db,
        "SELECT id, thread_id, parent_id, folder, question, answer, error, backend, model,"
        " saved->>'base_url', coalesce(TRY_CAST(saved->>'reveal_secrets' AS BOOLEAN), false),"
        " started_at, finished_at, usage->>'llm_calls', usage->>'total_tokens',"
        " usage->>'cost_usd', citations, usage, events"
        f" FROM explorations {where} ORDER BY finished_at, rowid",
        params,
    )
    out = pd.DataFrame(rows, columns=COLUMNS)
    for name in ("llm_calls", "total_tokens"):
        out[name] = pd.to_numeric(out[name]).astype("Int64")
    out["cost_usd"] = pd.to_numeric(out["cost_usd"])
    for name in ("citations", "usage", "events"):
        out[name] = [json.loads(v) if v else None for v in out[name]]
    return out


def saved_run(db: Db, run_id: str) -> dict[str, Any] | None:
    """The saved record of run `run_id`, if recorded."""
    rows = _query(db, "SELECT saved FROM explorations WHERE id = ?", [shown(run_id)])
    return _saved(rows[0][0]) if rows else None


def latest_run(db: Db, folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The saved record of the last run recorded over `folder`, if any."""
    where, params = _folder_filter(folder)
    sql = f"SELECT saved FROM explorations {where} ORDER BY finished_at DESC, rowid DESC LIMIT 1"
    rows = _query(db, sql, params)
    return _saved(rows[0][0]) if rows else None


def _folder_filter(folder: str | os.PathLike[str] | None) -> tuple[str, list[Any]]:
    if folder is None:
        return "", []
    return "WHERE folder = ?", [shown(str(Path(folder).expanduser().resolve()))]


def _query(db: Db, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """Rows of a read-only query; none from a file that does not exist or predates the
    table."""
    import duckdb

    store = database(db)
    if not store.path.exists():
        return []
    with store.read() as con:
        try:
            return con.execute(sql, params).fetchall()
        except duckdb.CatalogException:  # written by an fsnb before schema version 7
            return []
