"""`fsnb mcp FOLDER [FOLDER ...]`: the folders served to an agent host (Claude Code, VS Code,
Cursor, JupyterLab's jupyter-ai) over the Model Context Protocol: on stdin and stdout, or
with `--http HOST:PORT` over streamable HTTP (127.0.0.1 unless `--allow-remote`, which
needs a bearer token)."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
from collections.abc import Callable

from fsnb.cli.explore import _BackendChoices
from fsnb.cli.output import POSITIVE_INT, SECONDS, db_option, exit_status
from fsnb.llm import registry

#: The variable that holds the bearer token when `--token` is not given.
TOKEN_VARIABLE = "FSNB_MCP_TOKEN"
EXIT_STATUS = exit_status(
    "the client closed the connection (stdio), or the server was stopped (--http)",
    None,
    "the server could not start (no such folder, bad arguments, a missing key, an address"
    " in use, a remote address without --allow-remote and a token)",
)


def _address(text: str) -> tuple[str, int]:
    """HOST:PORT (`[::1]:PORT` for IPv6; `:PORT` is 127.0.0.1), for `--http`."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not sep or not port.isdigit() or int(port) > 65535:
        msg = f"HOST:PORT such as 127.0.0.1:8765, not {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return host, int(port)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: not known to stay on this machine
        return False


def _check(args: argparse.Namespace) -> str | None:
    """The bearer token; `ValueError` (a usage error) for an address the options do not allow."""
    token = args.token or os.environ.get(TOKEN_VARIABLE) or None
    if args.allow_remote and args.http is None:
        msg = "--allow-remote is for --http HOST:PORT"
        raise ValueError(msg)
    if args.allow_remote and not token:
        msg = f"--allow-remote needs a bearer token: --token TOKEN or {TOKEN_VARIABLE}"
        raise ValueError(msg)
    if args.http is not None and not args.allow_remote and not _loopback(args.http[0]):
        msg = f"{args.http[0]} is not a loopback address: add --allow-remote and a token"
        raise ValueError(msg)
    return token


def _mcp(args: argparse.Namespace) -> int:
    token = _check(args)
    from fsnb.mcp.service import Service, Settings

    settings = Settings(
        db=args.db,
        llm=args.llm,
        model=args.model,
        base_url=args.base_url,
        timeout_s=args.timeout,
        max_steps=args.max_steps,
        max_result_chars=args.max_result_chars,
        index=not args.no_index,
    )
    service = Service.open(args.folders, settings)
    if args.http is None:
        from fsnb.mcp.server import serve_stdio

        asyncio.run(serve_stdio(service))
    else:
        from fsnb.mcp.http import serve_http

        asyncio.run(serve_http(service, *args.http, token))
    return 0


def add_mcp_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `mcp`; `command(name, run, help, epilog)` makes a top-level one."""
    mcp = command(
        "mcp",
        _mcp,
        "serve folders to an agent host over the Model Context Protocol: the agent's tools,"
        " explore and verify_citation, each folder's documents as resources; confined to the"
        " folders, secrets masked",
        EXIT_STATUS,
    )
    mcp.add_argument(
        "folders", nargs="+", metavar="FOLDER", help="a folder to serve (nothing outside is read)"
    )
    mcp.add_argument(
        "--http",
        type=_address,
        default=None,
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0: a free"
        " one; the URL goes to stderr)",
    )
    mcp.add_argument(
        "--allow-remote",
        action="store_true",
        help="let --http bind an address other than loopback (needs a token)",
    )
    mcp.add_argument(
        "--token",
        default=None,
        help=f"bearer token every HTTP request must carry (default: {TOKEN_VARIABLE})",
    )
    mcp.add_argument(
        "--llm",
        default="offline",
        choices=_BackendChoices(registry.names()),
        help="backend of the explore tool, or a model id such as ollama:llama3.2 (default:"
        " offline)",
    )
    mcp.add_argument("--model", default=None, help="model, or backend:model (default: FSNB_MODEL)")
    mcp.add_argument(
        "--base-url",
        default=None,
        help="server of an OpenAI-compatible backend (default: OPENAI_BASE_URL)",
    )
    mcp.add_argument(
        "--timeout",
        type=SECONDS,
        default=300.0,
        help="seconds one call may take, explore included (default: 300)",
    )
    mcp.add_argument(
        "--max-steps", type=POSITIVE_INT, default=25, help="most steps of explore (default: 25)"
    )
    mcp.add_argument(
        "--max-result-chars",
        type=POSITIVE_INT,
        default=15_000,
        help="characters of a tool's result, cut beyond with a note (default: 15,000)",
    )
    mcp.add_argument(
        "--no-index",
        action="store_true",
        help="do not index the folders at start-up (the index tool still does, on request)",
    )
    db_option(mcp)


__all__ = ["TOKEN_VARIABLE", "add_mcp_command"]
