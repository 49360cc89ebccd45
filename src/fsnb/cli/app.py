"""`fsnb` commands: explore, index, search, sql, status, models, scan, parse, fs and scratch."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from fsnb import __version__
from fsnb.cli.explore import add_explore_command
from fsnb.cli.fs import add_fs_command
from fsnb.cli.index import add_index_commands
from fsnb.cli.output import POSITIVE_INT, SECONDS, error, number, print_frame, say
from fsnb.cli.scratch import add_scratch_command
from fsnb.errors import FsnbError

EXIT_STATUS = (
    "exit status: 0 done; 1 the run failed or a tool reported an error; 2 the command could"
    " not run (bad arguments, no index yet, a refused query, a damaged or locked index);"
    " 130 interrupted. Errors go to stderr, one line each."
)


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


def _models(args: argparse.Namespace) -> int:
    from fsnb.llm import catalog

    frame = catalog.frame(args.base_url, args.timeout)
    print_frame(frame if args.json else frame[list(catalog.TEXT_COLUMNS)], args.json)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsnb", description=__doc__, epilog=EXIT_STATUS)
    parser.add_argument("--version", action="version", version=f"fsnb {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Any, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help, epilog=EXIT_STATUS)
        sub.set_defaults(run=run)
        return sub

    add_explore_command(command)
    add_index_commands(command)

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
        type=SECONDS,
        default=2.0,
        help="seconds a server may take to answer (default: 2)",
    )
    models.add_argument("--json", action="store_true", help="print the table as JSON")

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
