"""Render an exploration's events in the terminal with rich: one panel per step, live,
on stderr (the trace); the answer alone goes to stdout, so that it can be piped or saved."""

from __future__ import annotations

import sys

from rich.console import Console, Group
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fsnb.agent import events as ev
from fsnb.agent.result import ExplorationResult
from fsnb.agent.trace import Trace, TraceRow
from fsnb.cli.output import error, say

PHASE_STYLE = {"scan": "cyan", "read": "green", "backtrack": "magenta", "navigate": "blue"}
TOOL_ICON = {
    "scan_folder": "🔎",
    "preview_file": "👀",
    "parse_file": "📖",
    "read": "📄",
    "grep": "🔤",
    "glob": "🗂",
    "semantic_search": "🧭",
    "get_document": "📖",
}


class ConsoleView:
    """Prints each step as it starts and how it went (the trace, on `console`: stderr by
    default); `finish` prints the answer on stdout, then the usage summary in the trace.

    On a terminal the answer is a rich panel; piped or redirected it is the plain Markdown
    of `answer_with_sources`. `quiet` leaves the trace out: the answer alone, and a failed
    run's error as one line on stderr (`fsnb: ...`).
    """

    def __init__(
        self, console: Console | None = None, *, answer: Console | None = None, quiet: bool = False
    ) -> None:
        self.console = console or Console(stderr=True)
        self.answer = answer
        self.quiet = quiet
        self.trace = Trace()

    def __call__(self, event: ev.Event) -> None:
        if self.quiet:
            return
        if isinstance(event, ev.Started):
            self.console.print(
                Panel(
                    Text(event.task, style="bold"),
                    title="fsnb explore",
                    subtitle=f"{event.folder} · {event.backend} ({event.model})",
                )
            )
            return
        before = len(self.trace.rows)
        row = self.trace.add(event)
        if row is None:
            return
        if len(self.trace.rows) > before and (head := _head(row)) is not None:
            self.console.print(head)
        if row.finished and (outcome := _outcome(row)) is not None:
            self.console.print(outcome)

    def finish(self, result: ExplorationResult) -> None:
        if result.error and self.quiet:
            error(result.error)
        elif result.error:
            self.console.print(Panel(Text(result.error), title="error", border_style="red"))
        else:
            self._answer(result)
        if self.quiet:
            return
        table = Table.grid(padding=(0, 2))
        for label, value in summary_rows(result):
            table.add_row(Text(label, style="bold"), value)
        self.console.print(Panel(table, title="summary"))

    def _answer(self, result: ExplorationResult) -> None:
        """The answer with its sources: a panel on a terminal, plain Markdown otherwise."""
        answer = self.answer
        if answer is None and not sys.stdout.isatty():
            say(result.answer_with_sources())
            sys.stdout.flush()  # before the summary on stderr, where both are one terminal
            return
        body = Markdown(result.answer_with_sources())
        (answer or Console()).print(Panel(body, title="answer", border_style="green"))


def _head(row: TraceRow) -> Panel | None:
    """The panel that opens a step."""
    title = f"step {row.step} · {row.phase}"
    if row.kind == "tool_call":
        style = PHASE_STYLE.get(row.phase, "white")
        icon = TOOL_ICON.get(row.tool or "", "🔧")
        head = Text.assemble((f"{icon} {row.tool} ", "bold"), (row.target, style))
        body = Group(head, Text(row.reason, style="italic"))
        return Panel(body, title=title, title_align="left", border_style=style)
    if row.kind == "go_deeper":
        return Panel(f"into {row.target}\n{row.reason}", title=title)
    if row.kind == "ask_human":
        return Panel(row.target, title=f"step {row.step} · question", border_style="yellow")
    return None


def _outcome(row: TraceRow) -> Text | None:
    """The line that says how a step went."""
    if row.kind == "tool_call":
        cut = " (cut at the size budget)" if row.truncated else ""
        first_line = (row.result or "").partition("\n")[0][:120]
        status = "" if row.ok else f" · {first_line}"
        took = f"{row.result_chars or 0:,} characters in {row.duration_ms or 0:.0f} ms"
        return Text(f"   ↳ {took}{cut}{status}", style="dim" if row.ok else "red")
    if row.kind == "ask_human":
        return Text(f"   ↳ answer: {row.result}", style="yellow")
    if row.kind == "error":
        return Text(("   ↻ " if row.phase == "retry" else "✖ ") + row.target, style="red")
    return None


def summary_rows(result: ExplorationResult) -> list[tuple[str, str]]:
    """The usage summary as (label, value) pairs."""
    u = result.usage
    verified = sum(c.verified for c in result.citations)
    return [
        ("backend", result.backend_note),
        ("LLM calls", f"{u.llm_calls} ({u.retries} retries)"),
        (
            "tokens",
            f"{u.prompt_tokens:,} in · {u.completion_tokens + u.thinking_tokens:,} out"
            + (f" · {u.cached_tokens:,} cached" if u.cached_tokens else ""),
        ),
        ("cost", f"${u.cost_usd:.4f}"),
        ("documents", f"{u.documents_scanned} scanned · {u.documents_parsed} parsed"),
        ("tool output", f"{u.tool_chars:,} characters sent to the LLM"),
        ("citations", f"{verified}/{len(result.citations)} verified"),
        ("time", f"{u.wall_s:.1f} s"),
    ]
