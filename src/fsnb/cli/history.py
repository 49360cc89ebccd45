"""`fsnb history [FOLDER]`: the explorations kept in the index file, oldest first, the newest
at the bottom (as a shell's `history`); `--id ID` prints one run's answer (or, with `--json`,
the object `fsnb explore --json` printed)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fsnb.cli.output import (
    POSITIVE_INT,
    db_option,
    error,
    exit_status,
    folder_argument,
    print_frame,
    say,
)
from fsnb.errors import FsnbError

if TYPE_CHECKING:
    import pandas as pd

#: The columns listed, and with `--json` the fields of each run.
COLUMNS = ["id", "when", "folder", "question", "status", "backend", "model"]
JSON_FIELDS = [
    "id", "thread_id", "parent_id", "started_at", "finished_at", "folder", "question",
    "status", "error", "backend", "model", "llm_calls", "total_tokens", "cost_usd", "answer",
]  # fmt: skip
EXIT_STATUS = exit_status(
    "listed (no runs too), or the run shown answered",
    "the run shown had failed (its error on stderr)",
    "no such run, an id that names several, bad arguments",
)


def runs(db: Any, folder: str | None) -> pd.DataFrame:
    """The recorded runs (of `folder`, when given), with `when` and `status` columns."""
    import pandas as pd

    from fsnb.agent.result import CANCELLED
    from fsnb.index.explorations import frame

    out = frame(db, folder)
    out["when"] = pd.to_datetime(out["finished_at"].fillna(out["started_at"])).dt.strftime(
        "%Y-%m-%d %H:%M"
    )
    out["status"] = [
        "done" if pd.isna(e) else "cancelled" if e == CANCELLED else "error" for e in out["error"]
    ]
    return out


def _history(args: argparse.Namespace) -> int:
    if args.id is not None:
        return _show(args)
    found = runs(args.db, args.folder)
    if found.empty:
        where = f" over {args.folder}" if args.folder else ""
        print("[]" if args.json else f"no saved runs{where} (fsnb explore records them)")
        return 0
    shown = found.tail(args.n)
    if args.json:
        print(json.dumps(_records(shown), indent=2, default=str))
    else:
        print_frame(shown[COLUMNS], as_json=False)
    if len(found) > args.n:
        print(f"[the last {args.n:,} of {len(found):,} runs: raise -n]", file=sys.stderr)
    return 0


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The runs' `JSON_FIELDS`: missing values as null, times in ISO 8601."""
    import pandas as pd

    def value(v: Any) -> Any:
        return None if pd.isna(v) else v.isoformat() if hasattr(v, "isoformat") else v

    rows = frame[JSON_FIELDS].astype(object).itertuples(index=False)
    return [{k: value(v) for k, v in zip(JSON_FIELDS, row, strict=True)} for row in rows]


def _show(args: argparse.Namespace) -> int:
    """One run: its answer with sources on stdout (the JSON of `explore --json` with
    `--json`); 1 when the run had failed."""
    from fsnb.agent.result import ExplorationResult
    from fsnb.cli.explore import JSON_KEYS
    from fsnb.index.explorations import saved_run

    run_id = _one_id(args)
    saved = saved_run(args.db, run_id)
    if saved is None:  # recorded by an fsnb whose record it cannot read
        msg = f"run {run_id} cannot be read from the index"
        raise FsnbError(msg)
    result = ExplorationResult.from_record(saved)
    if args.json:
        data = result.to_dict()
        print(json.dumps({k: data[k] for k in JSON_KEYS}, indent=2, default=str))
    elif result.answer:
        say(result.answer_with_sources())
    if result.error:
        error(f"run {run_id} failed: {result.error}")
    return 1 if result.error else 0


def _one_id(args: argparse.Namespace) -> str:
    """The id of the run `--id` names: the whole id or its beginning (as git takes one)."""
    ids = [i for i in runs(args.db, args.folder)["id"] if str(i).startswith(args.id)]
    if args.id in ids:
        return args.id
    if len(ids) == 1 and args.id:
        return ids[0]
    if ids and args.id:
        msg = f"{len(ids)} runs start with {args.id!r}: give more of the id"
        raise ValueError(msg)
    msg = f"no saved run {args.id!r} (fsnb history lists them)"
    raise ValueError(msg)


def add_history_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `history`; `command(name, run, help, epilog)` makes a top-level one."""
    history = command(
        "history",
        _history,
        "the saved explorations: id, when, folder, question, status, backend and model",
        EXIT_STATUS,
    )
    folder_argument(history, "only the runs over this folder (default: all)", None)
    history.add_argument(
        "--id", default=None, help="print this run's answer (the id, or its beginning)"
    )
    history.add_argument(
        "-n", type=POSITIVE_INT, default=20, help="list the last N runs (default: 20)"
    )
    history.add_argument(
        "--json",
        action="store_true",
        help="print the runs in full as JSON (with --id: the run as fsnb explore --json did)",
    )
    db_option(history)


__all__ = ["add_history_command", "runs"]
