"""`fsnb explore QUESTION [FOLDER]`: a question about a folder answered with citations: the
steps shown live with rich on stderr (`console`; `--quiet` leaves them out) and the answer
on stdout, or one JSON object on stdout (`--json`), whatever happens."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fsnb.cli.output import POSITIVE_INT, SECONDS, db_option, error, exit_status, folder_argument
from fsnb.errors import FsnbError, one_line
from fsnb.llm import registry

if TYPE_CHECKING:
    from fsnb.agent.loop import Explorer

JSON_KEYS = ("answer", "citations", "usage", "steps", "llm", "error")
EXIT_STATUS = exit_status(
    "answered (an answer that says nothing was found too: the answer is free text)",
    "the run failed (timed out, the LLM failed or refused the connection)",
    "the run could not start (bad arguments, an empty question, no such folder, no key)",
)


def _ask_on_stdin(question: str) -> str | None:
    """Ask on the terminal when there is one (the prompt on stderr, with the trace);
    otherwise let the loop use its default."""
    if not sys.stdin.isatty():
        return None
    from rich.console import Console
    from rich.prompt import Prompt

    return Prompt.ask(f"[yellow]{question}[/yellow]", console=Console(stderr=True)) or None


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
    view = ConsoleView(quiet=args.quiet)
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
    print(json.dumps({k: data[k] for k in JSON_KEYS}, indent=2, default=str))
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


class _BackendChoices(list[str]):
    """The backend names, as argparse lists them; `in` also takes a model id whose backend
    is one of them (`ollama:llama3.2`)."""

    def __contains__(self, value: object) -> bool:
        name = str(value).partition(registry.SEPARATOR)[0].lower()
        return super().__contains__(name)


def add_explore_command(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `explore`; `command(name, run, help, epilog)` makes a top-level one."""
    explore = command(
        "explore", _explore, "answer a question about a folder, with citations", EXIT_STATUS
    )
    explore.add_argument("task", metavar="QUESTION", help="the question")
    folder_argument(explore, "folder to explore (default: .)")
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
        "--timeout", type=SECONDS, default=300.0, help="seconds for the run (default: 300)"
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
        "-q",
        "--quiet",
        action="store_true",
        help="leave out the steps and the summary (stderr): the answer alone, or the error",
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


__all__ = ["JSON_KEYS", "add_explore_command"]
