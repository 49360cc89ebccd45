"""The `fsnb` command line: explore, index, search, sql, status, scan and parse."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb import __version__
from fsnb.errors import FsnbError, one_line
from fsnb.llm import registry

if TYPE_CHECKING:
    import pandas as pd

_JSON_KEYS = ("answer", "citations", "usage", "steps", "llm", "error")


def _ask_on_stdin(question: str) -> str | None:
    """Ask on the terminal when there is one; otherwise let the loop use its default."""
    if not sys.stdin.isatty():
        return None
    from rich.prompt import Prompt

    return Prompt.ask(f"[yellow]{question}[/yellow]") or None


def _print_frame(frame: pd.DataFrame, as_json: bool) -> None:
    if as_json:
        print(frame.to_json(orient="records", date_format="iso", indent=2))
    else:
        import pandas as pd

        with pd.option_context(
            "display.max_rows", 200, "display.max_colwidth", 80, "display.width", 200
        ):
            print(frame.to_string(index=False) if len(frame) else "(no rows)")


def _explorer(args: argparse.Namespace) -> Any:
    from fsnb.agent import Explorer
    from fsnb.agent.limits import check_question
    from fsnb.llm import get_llm

    check_question(args.task)  # before a key or a folder is needed
    return Explorer(
        args.folder,
        get_llm(args.llm, model=args.model, base_url=args.base_url),
        max_steps=args.max_steps,
        timeout_s=args.timeout,
        ask=_ask_on_stdin,
        default_answer=args.default_answer,
        db=args.db,
        use_index=args.use_index,
        reveal_secrets=args.reveal_secrets,
    )


def _explore(args: argparse.Namespace) -> int:
    if args.json:
        return _explore_json(args)
    from fsnb.console import ConsoleView

    explorer = _explorer(args)
    view = ConsoleView()
    result = explorer.run(args.task, on_event=view)
    view.finish(result)
    return 1 if result.error else 0


def _explore_json(args: argparse.Namespace) -> int:
    """Print exactly one JSON object, whatever happens: the result, or what is known so far
    with "error" set (exit 2 when the run could not start, 1 when it failed)."""
    from fsnb.agent import events as ev

    seen: list[ev.Event] = []
    try:
        result = _explorer(args).run(args.task, on_event=seen.append)
    except (Exception, KeyboardInterrupt) as exc:
        print(json.dumps(_failed_run(args, seen, exc), indent=2, default=str))
        return 130 if isinstance(exc, KeyboardInterrupt) else 1 if seen else 2
    data = result.to_dict()
    print(json.dumps({k: data[k] for k in _JSON_KEYS}, indent=2, default=str))
    return 1 if result.error else 0


def _failed_run(args: argparse.Namespace, seen: list[Any], exc: BaseException) -> dict[str, Any]:
    """The JSON of a run that raised: usage from its last usage event, the error on one line."""
    from fsnb.agent import events as ev
    from fsnb.agent.usage import Usage
    from fsnb.tools.registry import describe

    usage = Usage().to_dict()
    updates = [e for e in seen if isinstance(e, ev.UsageUpdate)]
    if updates:
        usage.update({k: v for k, v in updates[-1].to_dict().items() if k in usage})
    started = next((e for e in seen if isinstance(e, ev.Started)), None)
    expected = isinstance(exc, (FsnbError, OSError, ValueError))
    error = one_line(exc) if expected else describe(exc)
    return {
        "answer": "",
        "citations": [],
        "usage": usage,
        "steps": [],
        "llm": {
            "backend": started.backend if started else args.llm,
            "model": started.model if started else args.model,
            "note": None,
        },
        "error": error or type(exc).__name__,
    }


def _index(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    report = Index(args.db).add_folder(
        args.folder, progress=sys.stderr.isatty(), rebuild=args.rebuild, max_mb=args.max_mb
    )
    if args.json:
        extra = {"failed": report.failed, "warnings": report.warnings}
        print(json.dumps({**report.counts(), **extra, "set_aside": report.set_aside}, indent=2))
    else:
        print(repr(report))
        for path, why in report.failed.items():
            print(f"  failed {path}: {why}")
        for path, why in report.warnings.items():
            print(f"  warning {path}: {why}")
        if report.set_aside:
            print(f"  the damaged index was moved to {report.set_aside}")
    return 0


def _search(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    note = index.indexing(args.folder)
    hits = index.search(args.query, folder=args.folder, filter=args.filter or None, k=args.k)
    if note:
        print(f"fsnb: {note}; searched what is committed", file=sys.stderr)
    columns = [c for c in ("path", "page", "score", "ranker", "heading", "highlights") if c in hits]
    _print_frame(hits if args.json else hits[columns], args.json)
    return 0


def _sql(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():
        print(f"fsnb: no index at {index.path} yet: run fsnb index FOLDER first", file=sys.stderr)
        return 2
    frame = index.sql(args.query, args.folder, limit=args.limit + 1, timeout_s=args.timeout)
    _print_frame(frame.head(args.limit), args.json)
    if len(frame) > args.limit:
        print(f"[only the first {args.limit:,} rows: aggregate, filter or raise --limit]",
              file=sys.stderr)  # fmt: skip
    return 0


def _status(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    status = index.status()
    if not args.json:
        print(f"index: {index.path}")
    _print_frame(status, args.json)
    return 0


def _scan(args: argparse.Namespace) -> int:
    from fsnb.tools import scan_folder

    out = scan_folder.outcome(root=args.folder, preview_chars=args.preview_chars)
    print(out.text)
    return 0 if out.ok else 1


def _parse(args: argparse.Namespace) -> int:
    from fsnb.tools import parse_file

    path = Path(args.file)
    out = parse_file.outcome(path.name, root=str(path.parent), offset=args.offset, limit=args.limit)
    print(out.text)
    return 0 if out.ok else 1


def _use_index(value: str) -> bool | str:
    return {"auto": "auto", "yes": True, "no": False}[value]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsnb", description=__doc__)
    parser.add_argument("--version", action="version", version=f"fsnb {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, run: Any, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.set_defaults(run=run)
        return sub

    def db_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--db", default=None, help="index file (default: FSNB_DB or ~/.fsnb/index.duckdb)"
        )

    explore = command("explore", _explore, "answer a question about a folder, with citations")
    explore.add_argument("task", help="the question")
    explore.add_argument("--folder", default=".", help="folder to explore (default: .)")
    explore.add_argument(
        "--llm",
        default="auto",
        choices=registry.names(),
        help="backend (default: auto, gemini when a Gemini key is set, offline otherwise)",
    )
    explore.add_argument("--model", default=None, help="model (default: FSNB_MODEL)")
    explore.add_argument(
        "--base-url",
        default=None,
        help="server of an OpenAI-compatible backend (default: OPENAI_BASE_URL)",
    )
    explore.add_argument("--max-steps", type=int, default=25)
    explore.add_argument("--timeout", type=float, default=300.0, help="seconds (default: 300)")
    explore.add_argument(
        "--use-index",
        dest="use_index",
        nargs="?",
        const="yes",
        default="auto",
        choices=["auto", "yes", "no"],
        type=str,
        help="use the folder's index (default: auto, when it is current)",
    )
    explore.add_argument(
        "--default-answer",
        default="No answer was given; use your judgement.",
        help="reply used when the agent asks and stdin is not a terminal",
    )
    explore.add_argument(
        "--reveal-secrets",
        action="store_true",
        help="send secret values found in files to the LLM (default: masked)",
    )
    explore.add_argument("--json", action="store_true", help="print one JSON object")
    db_option(explore)

    index = command("index", _index, "index a folder into DuckDB (incremental)")
    index.add_argument("folder")
    index.add_argument(
        "--rebuild",
        action="store_true",
        help="index the folder from scratch; a damaged index file is moved aside, not deleted",
    )
    index.add_argument(
        "--max-mb",
        type=float,
        default=None,
        help="index larger files by metadata only (default: FSNB_MAX_INDEX_MB or 50)",
    )
    index.add_argument("--json", action="store_true")
    db_option(index)

    search = command("search", _search, "search an indexed folder (BM25, filters)")
    search.add_argument("query")
    search.add_argument("--folder", default=".", help="indexed folder (default: .)")
    search.add_argument(
        "--filter", default="", help='e.g. "document_type=agreement and max_amount>=1e6"'
    )
    search.add_argument("-k", type=int, default=10, help="number of hits")
    search.add_argument("--json", action="store_true")
    db_option(search)

    sql = command("sql", _sql, "run a read-only SQL query over the index and scratchpad")
    sql.add_argument("query", help="one SELECT (DuckDB dialect)")
    sql.add_argument(
        "--folder", default=None, help="see only this folder's index and scratchpad tables"
    )
    sql.add_argument("--limit", type=int, default=1000, help="rows printed (default: 1000)")
    sql.add_argument("--timeout", type=float, default=60.0, help="seconds (default: 60)")
    sql.add_argument("--json", action="store_true")
    db_option(sql)

    status = command("status", _status, "what the index holds, per folder")
    status.add_argument("--json", action="store_true")
    db_option(status)

    scan = command("scan", _scan, "preview every document under a folder")
    scan.add_argument("folder")
    scan.add_argument("--preview-chars", type=int, default=500)

    parse = command("parse", _parse, "print a document's text with page markers")
    parse.add_argument("file")
    parse.add_argument("--offset", type=int, default=0)
    parse.add_argument("--limit", type=int, default=1_000_000)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if hasattr(args, "use_index"):
        args.use_index = _use_index(args.use_index)
    try:
        return args.run(args)
    except (FsnbError, NotADirectoryError, ValueError) as exc:
        print(f"fsnb: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # DuckDB errors from `fsnb sql`, and the like
        if type(exc).__module__.startswith(("duckdb", "_duckdb")):
            print(f"fsnb: {str(exc).splitlines()[0]}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    raise SystemExit(main())
