"""`fsnb` commands: explore, index, search, sql, status, history, models, scan, parse, fs,
scratch and mcp, with the conventions of rg, fd and llm: the folder is the last argument,
stdout holds the result alone (the trace and notes go to stderr), exit status 1 says a
search found nothing, and every usage error is one `fsnb: ` line on stderr with exit
status 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, NoReturn

from fsnb import __version__
from fsnb.cli.explore import add_explore_command
from fsnb.cli.fs import add_fs_command
from fsnb.cli.history import add_history_command
from fsnb.cli.index import add_index_commands
from fsnb.cli.mcp import add_mcp_command
from fsnb.cli.output import (
    POSITIVE_INT,
    SECONDS,
    error,
    exit_status,
    number,
    print_frame,
    resolve_folder,
    say,
)
from fsnb.cli.scratch import add_scratch_command
from fsnb.errors import FsnbError, one_line

EXIT_STATUS = exit_status(
    "done",
    "nothing found (search; fs find, recent, dupes), the run failed, or some files could not"
    " be read (index, scan, parse)",
    "the command could not run (bad arguments, no such folder or file, no index yet, a"
    " refused query, a damaged or locked index)",
)


class Parser(argparse.ArgumentParser):
    """argparse's parser with fsnb's usage errors (`fsnb: ...`, one line, exit status 2),
    and a command's options and arguments taken in any order (`fsnb search QUERY --filter F
    FOLDER`: argparse alone would refuse FOLDER after an option)."""

    _mixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._mixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._mixing = True  # parse_known_intermixed_args calls this again
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """The arguments, FOLDER taken from the deprecated `--folder` where that names it."""
        parsed = super().parse_args(args, namespace)
        try:
            resolve_folder(parsed)
        except ValueError as exc:  # FOLDER and --folder, naming two
            self.error(str(exc))
        return parsed

    def error(self, message: str) -> NoReturn:
        error(f"{message} (see {self.prog} --help)")
        self.exit(2)


def _tool_failed(text: str, usage: bool) -> int:
    """A tool's error as one `fsnb: ` line: status 2 for a usage error (no such folder or
    file), 1 for one the tool met (a document it could not read)."""
    error(one_line(text).removeprefix("error: "))
    return 2 if usage else 1


def _scan(args: argparse.Namespace) -> int:
    from fsnb.tools import scan_folder

    out = scan_folder.outcome(root=args.folder, preview_chars=args.preview_chars)
    if not out.ok:
        return _tool_failed(out.text, not Path(args.folder).is_dir())
    say(out.text)
    return 1 if out.data.get("failed") else 0


def _parse(args: argparse.Namespace) -> int:
    from fsnb.tools import parse_file

    path = Path(args.file)
    out = parse_file.outcome(path.name, root=str(path.parent), offset=args.offset, limit=args.limit)
    if not out.ok:
        return _tool_failed(out.text, not path.is_file())
    say(out.text)
    return 0


def _use_index(value: str) -> bool | str:
    return {"auto": "auto", "yes": True, "no": False}[value]


_COUNT = number(int, 0, "a whole number of 0 or more")


def _models(args: argparse.Namespace) -> int:
    from fsnb.llm import catalog

    frame = catalog.frame(args.base_url, args.timeout)
    print_frame(frame if args.json else frame[list(catalog.TEXT_COLUMNS)], args.json)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="fsnb", description=__doc__, epilog=EXIT_STATUS)
    parser.add_argument("--version", action="version", version=f"fsnb {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Any, help: str, epilog: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help, epilog=epilog)
        sub.set_defaults(run=run)
        return sub

    add_explore_command(command)
    add_index_commands(command)
    add_history_command(command)

    models = command(
        "models",
        _models,
        "the backends, their models, what each needs and whether it is ready",
        exit_status("done", None),
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
        exit_status(
            "every document previewed",
            "some could not be read (listed with the reason)",
            "the command could not run (not a folder, bad arguments)",
        ),
    )
    scan.add_argument("folder", metavar="FOLDER", help="the folder to scan")
    scan.add_argument(
        "--preview-chars",
        type=_COUNT,
        default=500,
        help="characters previewed per document (default: 500)",
    )

    parse = command(
        "parse",
        _parse,
        "print a document's text with page markers",
        exit_status(
            "printed",
            "the document could not be read",
            "the command could not run (no such file, bad arguments)",
        ),
    )
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
    add_fs_command(command)
    add_scratch_command(command)
    add_mcp_command(command)
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
