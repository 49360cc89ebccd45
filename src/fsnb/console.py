"""Render an exploration's events in the terminal with rich: one panel per step, live."""

from __future__ import annotations

from rich.console import Console, Group
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fsnb.agent import events as ev
from fsnb.agent.result import ExplorationResult

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
    """Prints events as they arrive; `finish` prints the answer and the summary."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=False)

    def __call__(self, event: ev.Event) -> None:
        c = self.console
        if isinstance(event, ev.Started):
            c.print(
                Panel(
                    Text(event.task, style="bold"),
                    title="fsnb explore",
                    subtitle=f"{event.folder} · {event.backend} ({event.model})",
                )
            )
        elif isinstance(event, ev.ToolCall):
            style = PHASE_STYLE.get(event.phase, "white")
            head = Text.assemble(
                (f"{TOOL_ICON.get(event.tool, '🔧')} {event.tool} ", "bold"), (event.target, style)
            )
            c.print(
                Panel(
                    Group(head, Text(event.reason, style="italic")),
                    title=f"step {event.step} · {event.phase}",
                    title_align="left",
                    border_style=style,
                )
            )
        elif isinstance(event, ev.ToolResult):
            cut = " (cut at the size budget)" if event.truncated else ""
            status = "" if event.ok else f" · {event.result.splitlines()[0][:120]}"
            c.print(
                Text(
                    f"   ↳ {event.chars:,} characters in {event.duration_ms:.0f} ms{cut}{status}",
                    style="dim" if event.ok else "red",
                )
            )
        elif isinstance(event, ev.Navigate):
            c.print(
                Panel(
                    f"into {event.directory}\n{event.reason}", title=f"step {event.step} · navigate"
                )
            )
        elif isinstance(event, ev.AskHuman):
            c.print(
                Panel(event.question, title=f"step {event.step} · question", border_style="yellow")
            )
        elif isinstance(event, ev.HumanReply):
            note = " (default, non-interactive)" if event.defaulted else ""
            c.print(Text(f"   ↳ answer{note}: {event.answer}", style="yellow"))
        elif isinstance(event, ev.Error):
            c.print(Text(("   ↻ " if event.recoverable else "✖ ") + event.message, style="red"))

    def finish(self, result: ExplorationResult) -> None:
        c = self.console
        if result.error:
            c.print(Panel(result.error, title="error", border_style="red"))
        else:
            c.print(
                Panel(Markdown(result.answer_with_sources()), title="answer", border_style="green")
            )
        table = Table.grid(padding=(0, 2))
        for label, value in summary_rows(result):
            table.add_row(Text(label, style="bold"), value)
        c.print(Panel(table, title="summary"))


def summary_rows(result: ExplorationResult) -> list[tuple[str, str]]:
    """The usage summary as (label, value) pairs."""
    u = result.usage
    verified = sum(c.verified for c in result.citations)
    return [
        ("backend", result.backend_note),
        ("LLM calls", f"{u.llm_calls} ({u.retries} retries)"),
        ("tokens", f"{u.prompt_tokens:,} in · {u.completion_tokens + u.thinking_tokens:,} out"),
        ("cost", f"${u.cost_usd:.4f}"),
        ("documents", f"{u.documents_scanned} scanned · {u.documents_parsed} parsed"),
        ("tool output", f"{u.tool_chars:,} characters sent to the LLM"),
        ("citations", f"{verified}/{len(result.citations)} verified"),
        ("time", f"{u.wall_s:.1f} s"),
    ]
