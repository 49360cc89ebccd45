"""The `fsnb` command line: explore a folder, scan it, parse a file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from fsnb import __version__
from fsnb.errors import FsnbError
from fsnb.tools import parse_file, scan_folder


def _ask_on_stdin(question: str) -> str | None:
    """Ask on the terminal when there is one; otherwise let the loop use its default."""
    if not sys.stdin.isatty():
        return None
    from rich.prompt import Prompt

    return Prompt.ask(f"[yellow]{question}[/yellow]") or None


def _explore(args: argparse.Namespace) -> int:
    import json

    from fsnb.agent import Explorer
    from fsnb.llm import get_llm

    llm = get_llm(args.llm, model=args.model)
    explorer = Explorer(
        args.folder,
        llm,
        max_steps=args.max_steps,
        timeout_s=args.timeout,
        ask=_ask_on_stdin,
        default_answer=args.default_answer,
    )
    if args.json:
        result = explorer.run(args.task)
        data = result.to_dict()
        print(json.dumps({k: data[k] for k in _JSON_KEYS}, indent=2, default=str))
    else:
        from fsnb.console import ConsoleView

        view = ConsoleView()
        result = explorer.run(args.task, on_event=view)
        view.finish(result)
    return 1 if result.error else 0


_JSON_KEYS = ("answer", "citations", "usage", "steps", "llm", "error")


def _scan(args: argparse.Namespace) -> int:
    out = scan_folder(root=args.folder, preview_chars=args.preview_chars)
    print(out)
    return 1 if out.startswith(("access denied", "error:")) else 0


def _parse(args: argparse.Namespace) -> int:
    path = Path(args.file)
    out = parse_file(path.name, root=str(path.parent), offset=args.offset, limit=args.limit)
    print(out)
    return 1 if out.startswith(("access denied", "error:")) else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsnb", description=__doc__)
    parser.add_argument("--version", action="version", version=f"fsnb {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    explore = commands.add_parser(
        "explore", help="answer a question about a folder, with citations"
    )
    explore.add_argument("task", help="the question")
    explore.add_argument("--folder", default=".", help="folder to explore (default: .)")
    explore.add_argument(
        "--llm",
        default="auto",
        choices=["auto", "offline", "gemini"],
        help="backend: gemini with a key, offline without (default: auto)",
    )
    explore.add_argument("--model", default=None, help="Gemini model (default: FSNB_MODEL)")
    explore.add_argument("--max-steps", type=int, default=25)
    explore.add_argument("--timeout", type=float, default=300.0, help="seconds (default: 300)")
    explore.add_argument(
        "--default-answer",
        default="No answer was given; use your judgement.",
        help="reply used when the agent asks a question and stdin is not a terminal",
    )
    explore.add_argument("--json", action="store_true", help="print one JSON object")
    explore.set_defaults(run=_explore)

    scan = commands.add_parser("scan", help="preview every document under a folder")
    scan.add_argument("folder")
    scan.add_argument("--preview-chars", type=int, default=500)
    scan.set_defaults(run=_scan)

    parse = commands.add_parser("parse", help="print a document's text with page markers")
    parse.add_argument("file")
    parse.add_argument("--offset", type=int, default=0)
    parse.add_argument("--limit", type=int, default=1_000_000)
    parse.set_defaults(run=_parse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (FsnbError, NotADirectoryError, ValueError) as exc:
        print(f"fsnb: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
