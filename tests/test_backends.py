"""The backend registry (built-ins and a real `fsnb.backends` entry point) and the shared
structured-Action layer every chat backend uses."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from fsnb.cli import build_parser, main
from fsnb.llm import ReplayLLM, get_llm, registry
from fsnb.llm.chat import ChatPolicy
from fsnb.llm.openai_chat import OpenAILLM
from fsnb.protocol import Action, LLMError, Message, Tokens
from fsnb.protocol.structured import (
    ACTION_SCHEMA,
    Completion,
    InvalidReply,
    ask_for_action,
    read_action,
)

STOP = {"kind": "stop", "reason": "done", "answer": "42"}
THIRD_PARTY = '''
from fsnb.protocol import Action, Reply, Tokens


class EchoLLM:
    """Answers at once with the question it was asked."""

    backend = "echo"

    def __init__(self, model="echo-1", *, loud=False):
        self.model, self.loud = model, loud

    def next_action(self, conversation, notify):
        answer = conversation.task.upper() if self.loud else conversation.task
        return Reply(Action.stop(f"You asked: {answer}", "echo"), Tokens(prompt=7))


class Impostor(EchoLLM):
    backend = "impostor"
'''


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A distribution on sys.path whose entry points add `echo` (and try to take `gemini`)."""
    site = tmp_path / "site"
    (site / "fsnb_echo-1.0.dist-info").mkdir(parents=True)
    (site / "fsnb_echo-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fsnb-echo\nVersion: 1.0\n"
    )
    (site / "fsnb_echo-1.0.dist-info" / "entry_points.txt").write_text(
        "[fsnb.backends]\necho = fsnb_echo:EchoLLM\ngemini = fsnb_echo:Impostor\n"
    )
    (site / "fsnb_echo.py").write_text(textwrap.dedent(THIRD_PARTY))
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    yield
    sys.modules.pop("fsnb_echo", None)
    registry.refresh()


def test_builtin_names_come_from_one_mapping():
    assert registry.names()[:6] == ["auto", "gemini", "openai", "ollama", "offline", "replay"]
    explore = build_parser()._subparsers._group_actions[0].choices["explore"]
    [llm_option] = [a for a in explore._actions if "--llm" in a.option_strings]
    assert list(llm_option.choices) == registry.names()
    assert "ollama:llama3.2" in llm_option.choices and "nope:llama3.2" not in llm_option.choices
    with pytest.raises(ValueError, match=r"unknown LLM backend 'claude'; choose one of: auto, "):
        get_llm("claude")


def test_options_a_factory_does_not_take_are_left_out():
    offline = get_llm("offline", model="gemini-2.5-pro", base_url="http://127.0.0.1:9")
    assert offline.backend == "offline"
    replay = get_llm("REPLAY", actions=[STOP], model="scripted", base_url=None)
    assert isinstance(replay, ReplayLLM) and replay.model == "scripted"
    with pytest.raises(TypeError):  # a backend-specific option is not dropped silently
        get_llm("replay", colour="blue")


def test_auto_is_offline_without_a_gemini_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    assert get_llm("auto", model="ignored").backend == "offline"
    assert registry.key_variables("gemini") == ("GOOGLE_API_KEY", "GEMINI_API_KEY")
    assert registry.key_variables("openai") == ("OPENAI_API_KEY",)
    assert registry.key_variables("ollama") == ()


def test_a_chat_backend_declares_its_options():
    assert {"model", "base_url", "temperature", "max_invalid"} <= set(
        OpenAILLM.Options.model_fields
    )
    with pytest.raises(ValueError, match="colour") as refused:
        get_llm("openai", base_url="http://127.0.0.1:9", colour="blue", api_key="sk-never-shown")
    assert "sk-never-shown" not in str(refused.value)
    llm = get_llm("openai", base_url="http://127.0.0.1:9", max_invalid=0, timeout_s=5)
    assert isinstance(llm, ChatPolicy) and (llm.max_invalid, llm.base_url) == (
        0,
        "http://127.0.0.1:9",
    )


@pytest.mark.usefixtures("installed")
def test_an_entry_point_backend_is_found_everywhere(tmp_path: Path, capsys):
    assert registry.names()[-1] == "echo"
    echo = get_llm("echo", model="echo-2", loud=True)
    assert (echo.backend, echo.model, echo.loud) == ("echo", "echo-2", True)
    assert get_llm("ECHO").model == "echo-1"
    # A built-in name cannot be taken by a third party.
    assert registry.factory("gemini").__module__ == "fsnb.llm.gemini"

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("hello\n")
    assert (
        main(["explore", "what is here?", "--folder", str(folder), "--llm", "echo", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] == "You asked: what is here?"
    assert data["llm"]["backend"] == "echo" and data["usage"]["prompt_tokens"] == 7

    ip = InteractiveShell.instance()
    ip.run_line_magic("reload_ext", "fsnb")
    try:
        ip.run_cell_magic("explore", f"{folder} --llm echo --wait -o r", "q?")
        assert ip.user_ns["r"].answer.startswith("You asked: q?")
        ip.run_cell_magic("explore", f"{folder} --llm echo:echo-3 -f json -o r", "q?")
        assert (ip.user_ns["r"].backend, ip.user_ns["r"].model) == ("echo", "echo-3")
        with pytest.raises(UsageError, match=r"choose one of: auto, .*, replay, echo"):
            ip.run_cell_magic("explore", f"{folder} --llm nope", "q?")
    finally:
        for name in ("r", "_explore"):
            ip.user_ns.pop(name, None)


def test_reading_a_reply():
    assert read_action(json.dumps(STOP)).answer == "42"
    assert read_action(f"```json\n{json.dumps(STOP)}\n```").kind == "stop"
    with pytest.raises(InvalidReply, match=r"^empty reply$"):
        read_action("  \n")
    with pytest.raises(InvalidReply, match=r"^Invalid JSON: "):
        read_action("I think the answer is 42.")
    with pytest.raises(InvalidReply) as invalid:
        read_action('{"kind": "fly", "reason": "x", "args": [{"name": 1}]}')
    problem = str(invalid.value)
    assert problem.startswith("kind: Input should be 'tool_call', 'go_deeper', 'ask_human' or")
    assert "args.0.name: Input should be a valid string" in problem and "\n" not in problem


def test_the_schema_has_no_defaults():
    def walk(node: object) -> None:
        if isinstance(node, dict):
            assert "default" not in node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(ACTION_SCHEMA)
    assert ACTION_SCHEMA["title"] == "Action"


def test_ask_for_action_re_asks_and_bills_every_call():
    sent: list[list[Message]] = []
    replies = [
        Completion("", Tokens(prompt=10), problem="empty reply (blocked)"),
        Completion("nope", Tokens(prompt=20, completion=2, thinking=5)),
        Completion(json.dumps(STOP), Tokens(prompt=30, completion=9)),
    ]

    def ask(messages: list[Message]) -> Completion:
        sent.append(list(messages))
        return replies.pop(0)

    notes: list[str] = []
    reply = ask_for_action(ask, [Message("user", "q")], notes.append, backend="b")
    assert reply.action == Action.model_validate(STOP)
    assert (reply.tokens.prompt, reply.tokens.completion, reply.tokens.thinking) == (60, 11, 5)
    assert notes[0] == "b: invalid reply (empty reply (blocked)), asking again 1/2"
    assert notes[1].startswith("b: invalid reply (Invalid JSON: ")
    # An empty reply adds only the feedback; a non-empty one is kept as the assistant's.
    assert [m.role for m in sent[2]] == ["user", "user", "assistant", "user"]
    assert sent[2][2].text == "nope"


def test_a_transport_failure_after_an_invalid_reply_keeps_its_tokens():
    replies = [Completion("nope", Tokens(prompt=20, completion=2))]

    def ask(messages: list[Message]) -> Completion:
        if replies:
            return replies.pop(0)
        msg = "b: HTTP 500 after 5 attempts: down"
        raise LLMError(msg)

    with pytest.raises(LLMError) as failed:
        ask_for_action(ask, [Message("user", "q")], print, backend="b")
    assert str(failed.value) == "b: HTTP 500 after 5 attempts: down"
    assert (failed.value.tokens.prompt, failed.value.tokens.completion) == (20, 2)
