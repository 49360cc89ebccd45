"""Past exploration runs, one row each in the `explorations` table of the DuckDB file.

A row holds the run's question, answer, citations, usage and events (JSON), its folder,
backend and model, its times, its thread and parent, and `saved`: the whole run as
`ExplorationResult.to_record()` wrote it, from which a run is rebuilt (`saved_run`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb.index.store import Store

if TYPE_CHECKING:
    import pandas as pd

#: The columns `frame` shows, in order.
COLUMNS = [
    "id", "thread_id", "parent_id", "folder", "question", "answer", "error", "backend",
    "model", "started_at", "finished_at", "llm_calls", "total_tokens", "cost_usd",
    "citations", "usage", "events",
]  # fmt: skip
Db = str | os.PathLike[str] | None


def record(db: Db, run: dict[str, Any]) -> None:
    """Add one run (an `ExplorationResult.to_record()` dict) to the table."""
    row = [
        run["id"], run["thread_id"], run.get("parent_id"), run["folder"], run["task"],
        run["answer"], run.get("error"), run["backend"], run["model"],
        run.get("started_at") or None, run.get("finished_at") or None,
        json.dumps(run.get("citations", [])), json.dumps(run.get("usage", {})),
        json.dumps(run.get("events", []), default=str), json.dumps(run, default=str),
    ]  # fmt: skip
    with Store(db).transaction() as con:
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
    rows = _query(db, "SELECT saved FROM explorations WHERE id = ?", [run_id])
    return json.loads(rows[0][0]) if rows else None


def latest_run(db: Db, folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The saved record of the last run recorded over `folder`, if any."""
    where, params = _folder_filter(folder)
    sql = f"SELECT saved FROM explorations {where} ORDER BY finished_at DESC, rowid DESC LIMIT 1"
    rows = _query(db, sql, params)
    return json.loads(rows[0][0]) if rows else None


def _folder_filter(folder: str | os.PathLike[str] | None) -> tuple[str, list[Any]]:
    if folder is None:
        return "", []
    return "WHERE folder = ?", [str(Path(folder).expanduser().resolve())]


def _query(db: Db, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """Rows of a read-only query; none from a file that does not exist or predates the
    table."""
    import duckdb

    store = Store(db)
    if not store.path.exists():
        return []
    with store.connect(read_only=True) as con:
        try:
            return con.execute(sql, params).fetchall()
        except duckdb.CatalogException:  # written by an fsnb before schema version 7
            return []
