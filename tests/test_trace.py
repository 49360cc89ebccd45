"""The one trace projection (events -> rows) and the views that draw it."""

from __future__ import annotations

import io

from rich.console import Console

from fsnb.agent import events as ev
from fsnb.agent.result import ExplorationResult
from fsnb.agent.trace import COLUMNS, Trace, trace_rows
from fsnb.agent.usage import Usage
from fsnb.cli.console import ConsoleView
from fsnb.notebook.display import render

EVENTS: list[ev.Event] = [
    ev.Started(task="q", folder="/f", backend="replay", model="m", max_steps=9),
    ev.ToolCall(step=1, at=0.1, tool="scan_folder", args={}, reason="look", phase="scan"),
    ev.ToolResult(
        step=1,
        at=0.3,
        tool="scan_folder",
        args={},
        result="3 files",
        duration_ms=12.5,
        chars=7,
        phase="scan",
    ),
    ev.UsageUpdate(
        step=1, llm_calls=1, prompt_tokens=5, completion_tokens=1, total_tokens=6, cost_usd=0
    ),
    ev.Error(step=2, at=0.4, message="429: retrying in 1 s", recoverable=True),
    ev.Navigate(step=2, at=0.5, directory="letters", reason="the letters"),
    ev.AskHuman(step=3, at=0.6, question="Which deal?", reason="ambiguous"),
    ev.HumanReply(step=3, at=0.9, question="Which deal?", answer="Falcon", defaulted=True),
    ev.ToolCall(
        step=4,
        at=1.0,
        tool="read",
        args={"path": "a.txt"},
        reason="r",
        phase="read",
        target="a.txt",
    ),
    ev.ToolResult(
        step=4,
        at=1.2,
        tool="read",
        args={"path": "a.txt"},
        result="error: a.txt is locked\nmore",
        duration_ms=3.0,
        chars=21,
        phase="read",
        target="a.txt",
        ok=False,
    ),
    ev.Answer(step=5, at=1.5, answer="It is Falcon [1].", reason="found"),
]


def test_one_row_per_step_with_its_outcome():
    rows = trace_rows(EVENTS)
    assert [(r.step, r.kind, r.phase, r.action, r.target) for r in rows] == [
        (1, "tool_call", "scan", "scan_folder", ""),
        (2, "error", "retry", "error", "429: retrying in 1 s"),
        (2, "go_deeper", "navigate", "go_deeper", "letters"),
        (3, "ask_human", "ask", "ask_human", "Which deal?"),
        (4, "tool_call", "read", "read", "a.txt"),
        (5, "stop", "answer", "stop", ""),
    ]
    scan, retry, _, ask, read, stop = rows
    assert (scan.result, scan.ok, scan.duration_ms, scan.result_chars, scan.at) == (
        "3 files",
        True,
        12.5,
        7,
        0.3,
    )
    assert (retry.ok, ask.result, read.ok) == (False, "(no answer; the default) Falcon", False)
    assert (stop.result, stop.result_chars, stop.reason) == ("It is Falcon [1].", 17, "found")
    assert list(rows[0].to_dict()) == list(COLUMNS)


def test_rows_fill_in_as_events_arrive():
    trace = Trace()
    call = trace.add(EVENTS[1])
    assert call is not None and not call.finished and call.result is None
    assert trace.add(EVENTS[2]) is call and call.finished  # the result completes the call's row
    assert trace.add(EVENTS[0]) is None and trace.add(EVENTS[3]) is None  # no row for these
    assert trace.rows == [call]


def _result(error: str | None = None) -> ExplorationResult:
    return ExplorationResult(
        task="q", folder="/f", answer="It is Falcon [1].", citations=[], usage=Usage(),
        events=EVENTS, backend="replay", model="m", error=error,
    )  # fmt: skip


def test_every_view_uses_the_projection():
    result = _result()
    rows = result.trace()
    assert result.steps() == [row.to_dict() for row in rows]
    frame = result.trace_df()
    assert list(frame.columns) == list(COLUMNS) and list(frame["kind"]) == [r.kind for r in rows]
    assert all("result" not in step for step in result.to_dict()["steps"])
    markdown = render(result, folder="f").markdown()
    assert "| 2 | navigate | go_deeper | letters |" in markdown
    assert "| 2 | retry | error | 429: retrying in 1 s |" in markdown
    assert "| 5 | answer | stop |  |" in markdown


def test_status_is_typed():
    assert [_result(e).status for e in (None, "cancelled", "timed out after 5 s")] == [
        "done",
        "cancelled",
        "error",
    ]


def test_console_prints_each_step_and_how_it_went():
    out = io.StringIO()
    view = ConsoleView(Console(file=out, width=100, color_system=None))
    for event in EVENTS:
        view(event)
    text = out.getvalue()
    for expected in (
        "step 1 · scan",
        "↳ 7 characters in 12 ms",  # the result under its call
        "↻ 429: retrying in 1 s",
        "into letters",
        "step 3 · question",
        "↳ answer: (no answer; the default) Falcon",
        "↳ 21 characters in 3 ms · error: a.txt is locked",
    ):
        assert expected in text, expected
    assert text.index("step 1 · scan") < text.index("↳ 7 characters") < text.index("↻ 429")


def test_a_rows_data_is_the_tools_and_stays_out_of_the_columns():
    data = {"entries": [{"path": "a.txt", "type": "file", "size": 3}], "source": "walk"}
    result = ev.ToolResult(step=1, tool="tree", args={}, result="a.txt", duration_ms=1,
                           chars=5, data=data)  # fmt: skip
    (row,) = trace_rows([ev.Event.from_dict(result.to_dict())])
    assert row.data == data
    assert "data" not in row.to_dict() and list(row.to_dict()) == list(COLUMNS)
