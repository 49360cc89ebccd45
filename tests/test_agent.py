from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

import fsnb
from fsnb.agent import Action, CitedSource, Explorer
from fsnb.agent import events as ev
from fsnb.agent.events import Event
from fsnb.llm import Conversation, LLMError, ReplayLLM, Reply

QUOTE = "The Purchase Price is $9,000,000 payable at Closing"


def _stop(**source) -> Action:
    cite = CitedSource(**{"id": 1, "path": "agreement.pdf", "page": 1, "quote": QUOTE} | source)
    return Action.stop("The price is $9,000,000 [1].", "found it", [cite])


def test_full_run_with_verified_citation_and_phases(folder: Path):
    llm = ReplayLLM(
        [
            Action.call("scan_folder", "preview everything"),
            Action.call("parse_file", "the agreement holds the price", path="agreement.pdf"),
            Action.call("parse_file", "the agreement refers to it", path="letters/escrow.pdf"),
            _stop(),
        ]
    )
    result = fsnb.explore("What is the price?", folder=folder, llm=llm)
    assert result.ok and result.error is None
    assert result.backend == "replay"
    (citation,) = result.citations
    assert citation.verified and citation.problem == "" and citation.page == 1
    assert result.answer_with_sources().endswith(f'[1] agreement.pdf, page 1: "{QUOTE}"')
    steps = result.steps()
    assert [(s["kind"], s["tool"], s["phase"]) for s in steps] == [
        ("tool_call", "scan_folder", "scan"),
        ("tool_call", "parse_file", "read"),
        ("tool_call", "parse_file", "backtrack"),
        ("stop", None, "answer"),
    ]
    assert steps[1]["args"] == {"path": "agreement.pdf"} and steps[1]["duration_ms"] >= 0
    kinds = [e.kind for e in result.events]
    assert kinds[0] == "started" and kinds[-1] == "answer"
    first_call = kinds.index("tool_call")
    assert kinds[first_call + 1] == "tool_result"
    u = result.usage
    assert (u.llm_calls, u.tool_calls, u.documents_scanned, u.documents_parsed) == (4, 3, 4, 2)
    assert u.tool_chars == sum(len(e.result) for e in result.events if isinstance(e, ev.ToolResult))
    # the LLM saw the scan result in the conversation before choosing what to parse
    assert "Share Purchase Agreement" in llm.history[1].messages()[-1].text


def test_result_exports(folder: Path):
    llm = ReplayLLM([Action.call("parse_file", "read", path="agreement.pdf"), _stop()])
    result = fsnb.explore("price?", folder=folder, llm=llm)
    data = json.loads(result.to_json())
    assert set(data) >= {"answer", "citations", "usage", "steps", "llm", "error"}
    assert data["citations"][0]["quote"] == QUOTE
    assert list(result.citations_df().columns) == [
        "id",
        "path",
        "page",
        "quote",
        "verified",
        "problem",
        "ocr",
    ]
    trace = result.trace_df()
    assert list(trace["tool"][:1]) == ["parse_file"]
    assert "The price is $9,000,000 [1]." in result._repr_markdown_()
    assert "<table>" in result._repr_html_() and "agreement.pdf" in result._repr_html_()
    rebuilt = [Event.from_dict(e.to_dict()) for e in result.events]
    assert [type(e) for e in rebuilt] == [type(e) for e in result.events]


@pytest.mark.parametrize(
    ("source", "read_first", "problem"),
    [
        ({"quote": "a sentence that is nowhere in the file"}, True, "the quote does not occur"),
        ({}, False, "the file was not read during the run"),
        ({"path": "../outside.pdf"}, True, "access denied"),
        ({"page": 2}, True, "page given as 2; the quote is on page 1"),
    ],
)
def test_citation_problems_are_flagged(folder: Path, source: dict, read_first: bool, problem: str):
    actions = [Action.call("parse_file", "read", path="agreement.pdf")] if read_first else []
    result = fsnb.explore("price?", folder=folder, llm=ReplayLLM([*actions, _stop(**source)]))
    (citation,) = result.citations
    assert problem in citation.problem
    assert citation.verified is (problem.startswith("page given"))
    if not citation.verified:
        assert "[unverified:" in result.answer_with_sources()


def test_marker_without_source_is_flagged(folder: Path):
    stop = Action.stop(
        "Price [1], closing [2].", "done", [CitedSource(id=1, path="agreement.pdf", quote=QUOTE)]
    )
    result = fsnb.explore(
        "q", folder=folder, llm=ReplayLLM([Action.call("read", "r", path="notes.txt"), stop])
    )
    assert [(c.id, c.verified) for c in result.citations] == [(1, False), (2, False)]
    assert result.citations[1].problem == "[2] is used in the answer but has no source"


def test_step_limit_warns_on_the_last_step(folder: Path):
    llm = ReplayLLM([Action.call("glob", "look", pattern="*.pdf")] * 3)
    result = fsnb.explore("q", folder=folder, llm=llm, max_steps=2)
    assert result.error == "step limit (2) reached without an answer"
    assert [c.last_step for c in llm.history] == [False, True]
    assert "This is your last step" in llm.history[1].messages()[-1].text
    assert result.events[-1].kind == "error"


def test_timeout(folder: Path):
    result = fsnb.explore("q", folder=folder, llm=ReplayLLM([_stop()]), timeout_s=0)
    assert result.error == "timed out after 0 s without an answer"


def test_long_results_are_cut_visibly(folder: Path):
    llm = ReplayLLM([Action.call("parse_file", "read", path="agreement.pdf"), _stop()])
    result = fsnb.explore("q", folder=folder, llm=llm, max_result_chars=120)
    tool_result = next(e for e in result.events if isinstance(e, ev.ToolResult))
    assert tool_result.truncated and tool_result.chars > 120
    assert "[result cut at the size budget:" in tool_result.result
    assert llm.history[1].turns[0].result == tool_result.result


def test_bad_tool_calls_become_error_results(folder: Path):
    llm = ReplayLLM(
        [
            Action.call("delete_all", "try it"),
            Action.call("parse_file", "escape", path="../../etc/passwd"),
            Action.call("parse_file", "bad args", path="agreement.pdf", offset="lots"),
            _stop(quote="June 30, 2025", page=2),
        ]
    )
    result = fsnb.explore("q", folder=folder, llm=llm)
    outputs = [t.result for t in llm.history[-1].turns]
    assert outputs[0].startswith("error: unknown tool 'delete_all'")
    assert outputs[1].startswith("access denied:")
    assert outputs[2].startswith("error: invalid arguments for parse_file: offset:")
    assert result.ok
    assert not result.citations[0].verified  # nothing was read successfully


def test_go_deeper_and_escape(folder: Path):
    llm = ReplayLLM(
        [
            Action(kind="go_deeper", directory="letters", reason="escrow lives here"),
            Action(kind="go_deeper", directory="..", reason="try to leave"),
            _stop(),
        ]
    )
    result = fsnb.explore("q", folder=folder, llm=llm)
    turns = llm.history[-1].turns
    assert "letters/escrow.pdf" in turns[0].result
    assert turns[1].result.startswith("access denied:")
    assert [e.directory for e in result.events if isinstance(e, ev.Navigate)] == ["letters", ".."]


def test_ask_human_with_callback_and_default(folder: Path):
    ask = Action(kind="ask_human", question="Which deal?", reason="ambiguous")
    asked: list[str] = []
    result = fsnb.explore(
        "q",
        folder=folder,
        llm=ReplayLLM([ask, _stop()]),
        ask=lambda q: asked.append(q) or "the 2025 one",
    )
    reply = next(e for e in result.events if isinstance(e, ev.HumanReply))
    assert asked == ["Which deal?"] and reply.answer == "the 2025 one" and not reply.defaulted
    llm = ReplayLLM([ask, _stop()])
    result = fsnb.explore("q", folder=folder, llm=llm, default_answer="use the latest")
    reply = next(e for e in result.events if isinstance(e, ev.HumanReply))
    assert reply.defaulted and reply.answer == "use the latest"
    assert "no one was there to answer" in llm.history[-1].turns[0].result


def test_replay_exhaustion_is_an_error(folder: Path):
    result = fsnb.explore("q", folder=folder, llm=ReplayLLM([]))
    assert result.error == "the replay script has no more actions"


def test_events_iterator_returns_the_result(folder: Path):
    stream = fsnb.explore_events("q", folder=folder, llm=ReplayLLM([_stop()]))
    seen = []
    while True:
        try:
            seen.append(next(stream).kind)
        except StopIteration as done:
            result = done.value
            break
    assert seen == ["started", "usage", "answer"]
    assert result.answer == "The price is $9,000,000 [1]."


class _BlockingLLM:
    backend, model = "test", "blocking"

    def __init__(self) -> None:
        self.entered, self.release = threading.Event(), threading.Event()

    def next_action(self, conversation: Conversation, notify) -> Reply:
        self.entered.set()
        self.release.wait(5)
        return Reply(Action.call("glob", "again", pattern="*"))


def test_background_thread_and_cancel(folder: Path):
    llm = _BlockingLLM()
    seen: list[str] = []
    handle = Explorer(folder, llm).start("q", on_event=lambda e: seen.append(e.kind))
    assert llm.entered.wait(5)
    handle.cancel()  # the LLM call in flight is not waited for
    result = handle.result(timeout=2)
    llm.release.set()
    assert result is not None and result.error == "cancelled"
    assert seen == ["started", "error"]


def test_background_run_completes(folder: Path):
    handle = Explorer(folder, ReplayLLM([_stop()])).start("q")
    result = handle.result(timeout=30)
    assert result is not None and result.ok


def test_llm_error_ends_the_run_with_its_message(folder: Path):
    class Broken:
        backend, model = "test", "broken"

        def next_action(self, conversation, notify):
            notify("retrying once")
            raise LLMError("service unavailable (503)")

    result = fsnb.explore("q", folder=folder, llm=Broken())
    assert result.error == "service unavailable (503)"
    errors = [e for e in result.events if isinstance(e, ev.Error)]
    assert [(e.message, e.recoverable) for e in errors] == [
        ("retrying once", True),
        ("service unavailable (503)", False),
    ]
    assert result.usage.retries == 1


def test_action_validation():
    with pytest.raises(ValueError, match="a tool_call action needs a non-empty 'tool'"):
        Action(kind="tool_call", reason="x")
    action = Action.call("grep", "find", pattern="CTO", max_matches=5, ignore_case=True)
    assert action.arguments() == {"pattern": "CTO", "max_matches": "5", "ignore_case": "true"}
