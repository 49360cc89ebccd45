"""The run's limits hold whatever its parts do: the deadline while an LLM call or a tool is
in flight, cancel, the question's size, and `fsnb explore --json` always printing one object.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import finishes
from test_gemini import MODEL, STOP, _only_the_fake_server, llm  # noqa: F401 (autouse guard)

import fsnb
from fsnb.agent import Action, Explorer
from fsnb.agent import events as ev
from fsnb.agent.deadline import Interrupted, call_before
from fsnb.agent.limits import EmptyQuestion, cut_question
from fsnb.agent.spec import Backend
from fsnb.cli import main
from fsnb.llm import ReplayLLM
from fsnb.tools import Registry

if TYPE_CHECKING:
    from fake_gemini import FakeGemini

pytest_plugins = ["fake_gemini"]  # the `fake_gemini` fixture

GLOB = {
    "kind": "tool_call",
    "tool": "glob",
    "args": [{"name": "pattern", "value": "*.txt"}],
    "reason": "Look at the notes.",
}
#: A reply or a tool this slow must never be waited for: each test checks that it was still
#: held back (the fake server's `replied`) or still asleep (`Napping.woke`) when the run ended.
SLOW_S = 30.0


# -- the deadline helper ----------------------------------------------------------------------


def test_call_before_returns_raises_and_gives_up():
    never = threading.Event()
    far = time.monotonic() + 60
    assert call_before(lambda: 42, far, never) == 42
    with pytest.raises(ZeroDivisionError):
        call_before(lambda: 1 / 0, far, never)
    with pytest.raises(Interrupted) as late:
        call_before(lambda: never.wait(SLOW_S), time.monotonic() + 0.1, never)
    assert late.value.reason == "timeout"
    cancelled = threading.Event()
    threading.Timer(0.1, cancelled.set).start()
    returned = threading.Event()

    def blocked() -> None:
        never.wait(SLOW_S)
        returned.set()

    with pytest.raises(Interrupted) as stopped:
        call_before(blocked, far, cancelled)
    assert stopped.value.reason == "cancelled"
    assert not returned.is_set()  # given up on while the call was still blocked


# -- the deadline around LLM calls and tools ---------------------------------------------------


def test_a_slow_llm_reply_ends_the_run_at_the_timeout(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_action(GLOB, prompt=100, completion=20)
    fake_gemini.enqueue_action(STOP, delay_s=SLOW_S)
    explorer = Explorer(folder, llm(fake_gemini), timeout_s=1.5)
    result = explorer.run("What is the price?")

    assert fake_gemini.replied == 1  # the slow reply was still held back: not waited for
    assert result.error == "timed out after 1.5 s (while waiting for the LLM)"
    assert (result.usage.llm_calls, result.usage.prompt_tokens) == (1, 100)
    assert result.usage.tool_calls == 1 and result.usage.wall_s >= 1.5  # to the deadline
    assert isinstance(result.events[-1], ev.Error) and not result.events[-1].recoverable
    assert len(fake_gemini.requests) == 2


def test_cancel_does_not_wait_for_a_slow_llm_reply(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_action(STOP, delay_s=SLOW_S)
    handle = Explorer(folder, llm(fake_gemini)).start("What is the price?")
    deadline = time.monotonic() + 10
    while not fake_gemini.requests and time.monotonic() < deadline:
        time.sleep(0.02)
    handle.cancel()
    result = handle.result(timeout=5)
    assert result is not None and result.error == "cancelled"
    assert fake_gemini.replied == 0  # the slow reply was still held back: not waited for


@dataclass(frozen=True)
class Napping:
    """A registry whose one tool, `nap`, sleeps until the test ends (at most SLOW_S), and
    the event set when a nap has ended."""

    registry: Registry
    woke: threading.Event


@pytest.fixture
def napping() -> Iterator[Napping]:
    wake, woke = threading.Event(), threading.Event()  # this test's: no earlier nap sets them

    def nap(seconds: int = 30, *, root: str) -> str:
        """Sleeps, like a tool stuck on a huge file.

        Args:
            seconds: How long to sleep.
        """
        wake.wait(seconds)
        woke.set()
        return "rested"

    yield Napping(Registry([nap]), woke)
    wake.set()  # let the abandoned worker finish


def test_a_slow_tool_ends_the_run_at_the_timeout(folder: Path, napping: Napping):
    llm_ = ReplayLLM([Action.call("nap", "rest a while"), Action.stop("rested", "done")])
    explorer = Explorer(folder, llm_, timeout_s=1, registry=napping.registry)
    result = explorer.run("q")

    assert not napping.woke.is_set()  # the tool was still asleep: not waited for
    assert result.error == "timed out after 1 s (while running tool nap)"
    assert result.usage.llm_calls == 1
    _, unfinished = [e for e in result.events if isinstance(e, (ev.ToolCall, ev.ToolResult))]
    assert unfinished.tool == "nap" and not unfinished.ok
    assert unfinished.result == f"error: {result.error}"
    assert [s["kind"] for s in result.steps()] == ["tool_call", "error"]


def test_cancel_does_not_wait_for_a_slow_tool(folder: Path, napping: Napping):
    llm_ = ReplayLLM([Action.call("nap", "rest a while")])
    seen: list[ev.Event] = []
    handle = Explorer(folder, llm_, registry=napping.registry).start("q", on_event=seen.append)
    deadline = time.monotonic() + 10
    while not any(isinstance(e, ev.ToolCall) for e in seen) and time.monotonic() < deadline:
        time.sleep(0.02)
    handle.cancel()
    result = handle.result(timeout=5)
    assert result is not None and result.error == "cancelled"
    assert not napping.woke.is_set()  # the tool was still asleep: not waited for


def test_a_tool_that_raises_is_a_line_for_the_model(folder: Path):
    def boom(value: str, *, root: str) -> str:
        """Fails on everything.

        Args:
            value: Anything.
        """
        raise OverflowError("int too large to convert to float")

    replay = ReplayLLM([Action.call("boom", "try it", value="1e400"), Action.stop("ok", "done")])
    result = fsnb.explore("q", folder=folder, llm=replay, registry=Registry([boom]))
    assert result.ok, result.error
    expected = "error: boom failed: OverflowError: int too large to convert to float"
    assert replay.history[1].turns[0].result == expected


def test_a_step_that_raises_ends_the_run_with_one_line(folder: Path):
    def ask(question: str) -> str:
        raise RuntimeError("the terminal went away\nwhile asking")

    replay = ReplayLLM([Action(kind="ask_human", question="Which deal?", reason="two deals")])
    result = fsnb.explore("q", folder=folder, llm=replay, ask=ask)
    assert result.error == "step 1 failed: RuntimeError: the terminal went away while asking"


# -- the question -------------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["", "   \n\t "])
def test_an_empty_question_is_refused_before_the_run(folder: Path, question: str):
    replay = ReplayLLM([Action.stop("x", "y")])
    with pytest.raises(EmptyQuestion, match=r"^the question is empty"):
        fsnb.explore(question, folder=folder, llm=replay)
    explorer = Explorer(folder, replay)
    with pytest.raises(EmptyQuestion):
        explorer.events(question)  # at once, not at the first event
    with pytest.raises(EmptyQuestion):
        explorer.start(question)
    assert replay.history == []


def test_a_long_question_is_cut_in_the_middle_with_a_note(folder: Path):
    question = "Which file says it? " + "context " * 12_500 + "What is the price?"
    replay = ReplayLLM([Action.stop("x", "y")])
    result = fsnb.explore(question, folder=folder, llm=replay)

    sent = replay.history[0]
    assert len(sent.task) < 4_200 and sent.task.startswith("Which file says it? context")
    assert sent.task.endswith("What is the price?")
    note = f"[question cut: {len(question) - 4_000:,} of its {len(question):,} characters"
    assert note in sent.task and note in sent.opening
    started = result.events[0]
    assert isinstance(started, ev.Started) and note in started.task
    assert result.ok

    whole = ReplayLLM([Action.stop("x", "y")])
    fsnb.explore(question, folder=folder, llm=whole, max_question_chars=None)
    assert whole.history[0].task == question


def test_cut_question_keeps_both_ends():
    assert cut_question("short", 10) == "short"
    cut = cut_question("a" * 50 + "b" * 50, 40)
    head, note, tail = cut.split("\n")
    assert (head, tail) == ("a" * 30, "b" * 10)
    assert note == (
        "[question cut: 60 of its 100 characters are left out here; "
        "the limit is 40 (max_question_chars)]"
    )


# -- fsnb explore --json --------------------------------------------------------------------------


def _json_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    code = main(["explore", *argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err  # exactly one JSON object on stdout


KEYS = {"answer", "citations", "usage", "steps", "llm", "error"}


def test_json_of_a_run_that_times_out_has_the_usage_so_far(
    fake_gemini: FakeGemini, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys
):
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    monkeypatch.setenv("FSNB_MODEL", MODEL)
    fake_gemini.enqueue_action(GLOB, prompt=300, completion=30)
    fake_gemini.enqueue_action(STOP, delay_s=SLOW_S)
    code, data, _ = _json_run(
        capsys, "q?", "--folder", str(folder), "--llm", "gemini", "--timeout", "1"
    )
    assert fake_gemini.replied == 1  # the slow reply was still held back: not waited for
    assert code == 1 and set(data) == KEYS
    assert data["error"] == "timed out after 1 s (while waiting for the LLM)"
    assert data["usage"]["llm_calls"] == 1 and data["usage"]["prompt_tokens"] == 300
    assert data["llm"]["model"] == MODEL


def test_json_when_the_run_cannot_start(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys
):
    code, data, _ = _json_run(capsys, "q?", "--folder", str(tmp_path / "nope"), "--llm", "offline")
    assert code == 2 and set(data) == KEYS and data["error"] and "\n" not in data["error"]
    assert data["usage"]["llm_calls"] == 0 and data["answer"] == ""

    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    code, data, _ = _json_run(capsys, "q?", "--folder", str(folder), "--llm", "gemini")
    assert code == 2 and "GOOGLE_API_KEY" in data["error"]

    code, data, _ = _json_run(capsys, "", "--folder", str(folder), "--llm", "offline")
    assert code == 2 and data["error"].startswith("the question is empty")


def test_json_when_the_backend_raises(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    class Broken:
        backend, model = "broken", "b-1"

        def next_action(self, conversation, notify):
            raise KeyError("surprise")

    monkeypatch.setattr(Backend, "make", lambda self: Broken())  # the CLI's backend
    code, data, _ = _json_run(capsys, "q?", "--folder", str(folder))
    assert code == 1 and data["error"] == "the broken backend failed: KeyError: 'surprise'"
    assert data["llm"]["backend"] == "broken"

    def explode(self: Backend) -> None:
        raise RuntimeError("construction failed\nbadly")

    monkeypatch.setattr(Backend, "make", explode)
    code, data, _ = _json_run(capsys, "q?", "--folder", str(folder))
    assert code == 2 and data["error"] == "RuntimeError: construction failed badly"


def test_empty_question_without_json_is_one_line(folder: Path, capsys):
    assert main(["explore", "", "--folder", str(folder), "--llm", "offline"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "fsnb: the question is empty: ask something about the folder\n"


def test_an_unanswered_question_waits_no_longer_than_the_run(folder: Path):
    """A question no one answers waits only for the run's time left, then the run goes on
    with the default reply and ends at its own limit (it once waited 600 s, then said 300)."""
    never = threading.Event()
    asked = ReplayLLM([Action(kind="ask_human", question="Which deal?", reason="two deals")])
    explorer = Explorer(folder, asked, timeout_s=1, ask=lambda question: never.wait(600) or None)
    result = finishes(explorer.run, "What is the price?", seconds=60)
    (reply,) = [e for e in result.events if isinstance(e, ev.HumanReply)]
    assert reply.defaulted and reply.answer == explorer.default_answer
    assert result.error == "timed out after 1 s without an answer"
    assert explorer.time_left(600) == 0.0
