"""The `fsnb` command line: scan and parse folders (explore, index and search come later)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from fsnb import __version__
from fsnb.tools import parse_file, scan_folder


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
    except NotADirectoryError as exc:
        print(f"fsnb: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
