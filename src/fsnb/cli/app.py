"""`fsnb` commands: explore, index, search, sql, status, models, scan, parse, fs and scratch."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsnb import __version__
from fsnb.cli.fs import add_fs_command
from fsnb.cli.output import POSITIVE_INT, error, number, print_frame, say
from fsnb.cli.scratch import add_scratch_command
from fsnb.errors import FsnbError, one_line
from fsnb.llm import registry

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer
    from fsnb.index import Index
    from fsnb.index.pipeline import IndexReport
    from fsnb.index.watch import Reindex, Watch

_JSON_KEYS = ("answer", "citations", "usage", "steps", "llm", "error")
EXIT_STATUS = (
    "exit status: 0 done; 1 the run failed or a tool reported an error; 2 the command could"
    " not run (bad arguments, no index yet, a refused query, a damaged or locked index);"
    " 130 interrupted. Errors go to stderr, one line each."
)


def _ask_on_stdin(question: str) -> str | None:
    """Ask on the terminal when there is one; otherwise let the loop use its default."""
    if not sys.stdin.isatty():
        return None
    from rich.prompt import Prompt

    return Prompt.ask(f"[yellow]{question}[/yellow]") or None


def _no_index(path: Path) -> str:
    return f"no index at {path} yet: run fsnb index FOLDER first"


def _explorer(args: argparse.Namespace) -> Explorer:
    """The run's explorer (`RunSpec`); `args.after` is the run it follows up (`--continue`:
    the last one over the folder), `args.backend` its backend."""
    from fsnb.agent.limits import check_question
    from fsnb.agent.spec import RunSpec, recording

    check_question(args.task)  # before a key or a folder is needed
    spec = RunSpec.from_args(args).resolved()
    args.after, args.backend = spec.after, spec.backend()
    return spec.explorer(ask=_ask_on_stdin, observers=recording(spec.db), backend=args.backend)


def _explore(args: argparse.Namespace) -> int:
    if args.json:
        return _explore_json(args)
    from fsnb.cli.console import ConsoleView

    explorer = _explorer(args)
    view = ConsoleView()
    result = explorer.run(args.task, on_event=view, after=args.after)
    view.finish(result)
    return 1 if result.error else 0


def _explore_json(args: argparse.Namespace) -> int:
    """Print exactly one JSON object, whatever happens: the result, or what is known so far
    with "error" set (exit 2 when the run could not start, 1 when it failed)."""
    from fsnb.agent import events as ev

    seen: list[ev.Event] = []
    try:
        explorer = _explorer(args)
        result = explorer.run(args.task, on_event=seen.append, after=args.after)
    except (Exception, KeyboardInterrupt) as exc:
        failed = _failed_run(args, seen, exc)
        print(json.dumps(failed, indent=2, default=str))
        error(failed["error"])
        return 130 if isinstance(exc, KeyboardInterrupt) else 1 if seen else 2
    data = result.to_dict()
    print(json.dumps({k: data[k] for k in _JSON_KEYS}, indent=2, default=str))
    if result.error:
        error(result.error)
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
    chosen = getattr(args, "backend", None)  # the backend, once its id was read
    expected = isinstance(exc, (FsnbError, OSError, ValueError))
    why = one_line(exc) if expected else describe(exc)
    return {
        "answer": "",
        "citations": [],
        "usage": usage,
        "steps": [],
        "llm": {
            "backend": started.backend if started else chosen.name if chosen else args.llm,
            "model": started.model if started else chosen.model if chosen else args.model,
            "note": None,
        },
        "error": why or type(exc).__name__,
    }


def _index(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    report = index.add_folder(
        args.folder, progress=sys.stderr.isatty(), rebuild=args.rebuild, max_mb=args.max_mb
    )
    watcher = _watcher(index, args) if args.watch else None  # watching before it is said
    try:
        _said(report, args)
        while watcher is not None and watcher.running:  # until Ctrl-C
            time.sleep(0.2)
    finally:
        if watcher is not None:
            watcher.stop()
    return 1 if report.failed else 0  # the others are indexed all the same


def _said(report: IndexReport, args: argparse.Namespace) -> None:
    if args.json:
        extra = {"failed": report.failed, "warnings": report.warnings}
        print(json.dumps({**report.counts(), **extra, "set_aside": report.set_aside}, indent=2))
        return
    say(_index_summary(report))
    for path, why in report.failed.items():
        say(f"  failed {path}: {one_line(why)}", err=True)
    for path, why in report.warnings.items():
        say(f"  warning {path}: {one_line(why)}", err=True)
    if report.failed:
        count = len(report.failed)
        say(f"{count:,} file{'s' * (count != 1)} could not be read", err=True)
    if report.set_aside:
        say(f"  the damaged index was moved to {report.set_aside}")
    sys.stdout.flush()


def _watcher(index: Index, args: argparse.Namespace) -> Watch:
    """`fsnb index --watch`: one line per re-index (a failed one on stderr)."""

    def said(record: Reindex) -> None:
        if record.report is None:
            error(f"{record.at:%H:%M:%S} re-index failed: {record.error}")
        elif args.json:
            print(json.dumps({"at": record.at.isoformat(), **record.report.counts()}), flush=True)
        else:
            say(f"{record.at:%H:%M:%S} {_index_summary(record.report)}")
            sys.stdout.flush()

    def notice(text: str) -> None:
        say(f"{datetime.now():%H:%M:%S} {text}", err=True)

    return index.watch(
        args.folder, max_mb=args.max_mb, on_reindex=said, catch_up=False, on_notice=notice
    )


def _index_summary(report: IndexReport) -> str:
    """'indexed FOLDER: 48 files · 3 added, 44 unchanged, 1 failed · 2.9 s'."""
    counts = report.counts()
    kinds = ("added", "updated", "unchanged", "deleted", "failed", "skipped")
    changes = ", ".join(f"{counts[k]:,} {k}" for k in kinds if counts[k]) or "nothing to do"
    files = f"{counts['files']:,} file{'' if counts['files'] == 1 else 's'}"
    return f"indexed {report.root}: {files} · {changes} · {counts['duration_s']:.1f} s"


def _search(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():
        error(_no_index(index.path))
        return 2
    note = index.indexing(args.folder)
    hits = index.search(args.query, folder=args.folder, filter=args.filter or None, k=args.k)
    if note:
        print(f"fsnb: {note}; searched what is committed", file=sys.stderr)
    if not args.json and "highlights" in hits:  # the table shows the snippet, not the dict
        hits["snippet"] = [
            h.get("snippet", "") if isinstance(h, dict) else h for h in hits.pop("highlights")
        ]
    columns = [c for c in ("path", "page", "score", "ranker", "heading", "snippet") if c in hits]
    print_frame(hits if args.json else hits[columns], args.json)
    return 0


def _sql(args: argparse.Namespace) -> int:
    from fsnb.db.guard import result_note
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():
        error(_no_index(index.path))
        return 2
    frame = index.sql(args.query, args.folder, limit=args.limit + 1, timeout_s=args.timeout)
    print_frame(frame.head(args.limit), args.json)
    if note := result_note(frame):  # cut at the cell or byte cap before --limit
        print(f"[{note}]", file=sys.stderr)
    elif len(frame) > args.limit:
        print(f"[only the first {args.limit:,} rows: aggregate, filter or raise --limit]",
              file=sys.stderr)  # fmt: skip
    return 0


def _status(args: argparse.Namespace) -> int:
    from fsnb.index import Index

    index = Index(args.db)
    if not index.path.is_file():  # said, not created
        print("[]" if args.json else f"index: {index.path} (none yet: fsnb index FOLDER makes it)")
        return 0
    status = index.status()
    if not args.json:
        print(f"index: {index.path}")
    print_frame(status, args.json)
    return 0


def _scan(args: argparse.Namespace) -> int:
    from fsnb.tools import scan_folder

    out = scan_folder.outcome(root=args.folder, preview_chars=args.preview_chars)
    say(out.text, err=not out.ok)
    return 0 if out.ok and not out.data.get("failed") else 1


def _parse(args: argparse.Namespace) -> int:
    from fsnb.tools import parse_file

    path = Path(args.file)
    out = parse_file.outcome(path.name, root=str(path.parent), offset=args.offset, limit=args.limit)
    say(out.text, err=not out.ok)
    return 0 if out.ok else 1


def _use_index(value: str) -> bool | str:
    return {"auto": "auto", "yes": True, "no": False}[value]


_COUNT = number(int, 0, "a whole number of 0 or more")
_SECONDS = number(float, 1e-3, "a number of seconds above 0")
_MEGABYTES = number(float, 0, "a number of megabytes, 0 or more")


def _models(args: argparse.Namespace) -> int:
    from fsnb.llm import catalog

    frame = catalog.frame(args.base_url, args.timeout)
    print_frame(frame if args.json else frame[list(catalog.TEXT_COLUMNS)], args.json)
    return 0


class _BackendChoices(list[str]):
    """The backend names, as argparse lists them; `in` also takes a model id whose backend
    is one of them (`ollama:llama3.2`)."""

    def __contains__(self, value: object) -> bool:
        name = str(value).partition(registry.SEPARATOR)[0].lower()
        return super().__contains__(name)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsnb", description=__doc__, epilog=EXIT_STATUS)
    parser.add_argument("--version", action="version", version=f"fsnb {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Any, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help, epilog=EXIT_STATUS)
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
        choices=_BackendChoices(registry.names()),
        help="backend, or a model id such as ollama:llama3.2 (see fsnb models; default: auto,"
        " gemini when a Gemini key is set, offline otherwise)",
    )
    explore.add_argument(
        "--model", default=None, help="model, or backend:model (default: FSNB_MODEL)"
    )
    explore.add_argument(
        "--base-url",
        default=None,
        help="server of an OpenAI-compatible backend (default: OPENAI_BASE_URL)",
    )
    explore.add_argument(
        "--max-steps", type=POSITIVE_INT, default=25, help="most agent steps (default: 25)"
    )
    explore.add_argument(
        "--timeout", type=_SECONDS, default=300.0, help="seconds for the run (default: 300)"
    )
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
    explore.add_argument(
        "--json", action="store_true", help="print one JSON object: the answer, or the error"
    )
    explore.add_argument(
        "-c",
        "--continue",
        dest="follow_up",
        action="store_true",
        help="a follow-up: continue the last exploration of the folder (kept in the index"
        " file), with its backend, model and server (--llm and --base-url may only repeat"
        " them; --model may name another model)",
    )
    db_option(explore)

    index = command(
        "index",
        _index,
        "index a folder into DuckDB (incremental); a file that cannot be read gets one line on"
        " stderr and the others are indexed, with exit status 1",
    )
    index.add_argument("folder", help="the folder to index")
    index.add_argument(
        "--rebuild",
        action="store_true",
        help="index the folder from scratch; a damaged index file is moved aside, not deleted",
    )
    index.add_argument(
        "--max-mb",
        type=_MEGABYTES,
        default=None,
        help="index larger files by metadata only (default: FSNB_MAX_INDEX_MB or 50)",
    )
    index.add_argument(
        "--json", action="store_true", help="print the counts, failures and warnings as JSON"
    )
    index.add_argument(
        "--watch",
        action="store_true",
        help="then keep the index current until Ctrl-C, one line per re-index",
    )
    db_option(index)

    search = command("search", _search, "search an indexed folder (BM25, filters)")
    search.add_argument("query", help="words to search for (BM25)")
    search.add_argument("--folder", default=".", help="indexed folder (default: .)")
    search.add_argument(
        "--filter", default="", help='e.g. "document_type=agreement and max_amount>=1e6"'
    )
    search.add_argument("-k", type=POSITIVE_INT, default=10, help="number of hits (default: 10)")
    search.add_argument(
        "--json", action="store_true", help="print every column of the hits in full, as JSON"
    )
    db_option(search)

    sql = command("sql", _sql, "run a read-only SQL query over the index and scratchpad")
    sql.add_argument("query", help="one SELECT (DuckDB dialect)")
    sql.add_argument(
        "--folder", default=None, help="see only this folder's index and scratchpad tables"
    )
    sql.add_argument(
        "--limit", type=POSITIVE_INT, default=1000, help="rows printed (default: 1000)"
    )
    sql.add_argument("--timeout", type=_SECONDS, default=60.0, help="seconds (default: 60)")
    sql.add_argument(
        "--json", action="store_true", help="print the rows in full as JSON (no cut columns)"
    )
    db_option(sql)

    models = command(
        "models", _models, "the backends, their models, what each needs and whether it is ready"
    )
    models.add_argument(
        "--base-url",
        default=None,
        help="server to ask for its models (default: OPENAI_BASE_URL, Ollama's local one)",
    )
    models.add_argument(
        "--timeout",
        type=_SECONDS,
        default=2.0,
        help="seconds a server may take to answer (default: 2)",
    )
    models.add_argument("--json", action="store_true", help="print the table as JSON")

    status = command("status", _status, "what the index holds, per folder")
    status.add_argument("--json", action="store_true", help="print the table as JSON")
    db_option(status)

    scan = command(
        "scan",
        _scan,
        "preview every document under a folder (exit status 1 when some could not be read)",
    )
    scan.add_argument("folder", help="the folder to scan")
    scan.add_argument(
        "--preview-chars",
        type=_COUNT,
        default=500,
        help="characters previewed per document (default: 500)",
    )

    parse = command("parse", _parse, "print a document's text with page markers")
    parse.add_argument("file", help="the document to parse")
    parse.add_argument(
        "--offset", type=_COUNT, default=0, help="first character printed (default: 0)"
    )
    parse.add_argument(
        "--limit",
        type=POSITIVE_INT,
        default=1_000_000,
        help="most characters printed (default: 1,000,000)",
    )
    add_fs_command(command, EXIT_STATUS)
    add_scratch_command(command, EXIT_STATUS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if hasattr(args, "use_index"):
        args.use_index = _use_index(args.use_index)
    try:
        code = args.run(args)
        sys.stdout.flush()  # here, so that a closed pipe is seen here and not at exit
        return code
    except BrokenPipeError:  # `fsnb sql ... | head`: the reader has what it wanted
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except OSError as exc:  # a folder or an index file that cannot be opened
        from fsnb.security import os_reason

        error(f"{exc.filename}: {os_reason(exc)}" if exc.filename else exc)
        return 2
    except (FsnbError, ValueError) as exc:
        error(exc)
        return 2
    except Exception as exc:  # DuckDB errors from `fsnb sql`, and the like
        if type(exc).__module__.startswith(("duckdb", "_duckdb")):
            error(str(exc).splitlines()[0])
            return 2
        raise


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that Python's flush at exit finds no closed pipe."""
    with suppress(OSError, ValueError):  # not a real file (captured in tests): nothing to do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
