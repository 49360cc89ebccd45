"""The openai backend (and its ollama preset), through the real openai client and a fake
Chat Completions server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hang_up import closed_port, hanging_up
from IPython.core.interactiveshell import InteractiveShell

import fsnb
from fsnb.agent import events as ev
from fsnb.agent.usage import price_for
from fsnb.llm import get_llm
from fsnb.llm.openai_chat import NO_KEY, OLLAMA_URL, OpenAILLM
from fsnb.protocol import Conversation, LLMError, MissingKey
from fsnb.protocol.structured import ACTION_SCHEMA

if TYPE_CHECKING:
    from fake_openai import FakeOpenAI

pytest_plugins = ["fake_openai"]  # the `fake_openai` fixture

DATA = Path(__file__).resolve().parent.parent / "data"
MODEL = "qwen3:8b"  # a local model: no price, so no cost
GLOB = {
    "kind": "tool_call",
    "tool": "glob",
    "args": [{"name": "pattern", "value": "*.pdf"}],
    "reason": "See which documents there are.",
}
PARSE = {
    "kind": "tool_call",
    "tool": "parse_file",
    "args": [{"name": "path", "value": "01_acquisition_agreement.pdf"}],
    "reason": "The agreement defines the price.",
}
QUOTE = "means $45,000,000, payable and adjustable as provided in Exhibit A"
STOP = {
    "kind": "stop",
    "answer": "The total purchase price is $45,000,000 [1].",
    "citations": [{"id": 1, "path": "01_acquisition_agreement.pdf", "page": 1, "quote": QUOTE}],
    "reason": "The agreement states it.",
}


@pytest.fixture(autouse=True)
def _no_openai_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """No key, server or model from the environment or a .env file."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FSNB_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def llm(fake: FakeOpenAI, model: str = MODEL, **options: Any) -> OpenAILLM:
    return OpenAILLM(model, base_url=fake.url, backoff_s=0.01, **options)


def conversation() -> Conversation:
    return Conversation("q", ".", "You are fsnb.", "Question: q", tools=[])


def test_exploration_runs_through_the_real_client(fake_openai: FakeOpenAI):
    fake_openai.enqueue_action(GLOB, prompt=1000, completion=40)
    fake_openai.enqueue_action(PARSE, prompt=1500, completion=45)
    fake_openai.enqueue_action(STOP, prompt=3000, completion=90)
    result = fsnb.explore(
        "What is the total purchase price?",
        folder=DATA / "test_acquisition",
        llm=llm(fake_openai),
    )

    assert result.ok, result.error
    assert result.answer == STOP["answer"]
    [citation] = result.citations
    assert (citation.path, citation.page, citation.verified) == (
        "01_acquisition_agreement.pdf",
        1,
        True,
    )
    assert [s["tool"] for s in result.steps() if s["kind"] == "tool_call"] == ["glob", "parse_file"]
    assert (result.backend, result.model) == ("openai", MODEL)
    u = result.usage
    assert (u.llm_calls, u.prompt_tokens, u.completion_tokens, u.thinking_tokens) == (
        3,
        5500,
        175,
        0,
    )
    assert u.cost_usd == 0  # a model the price table does not list

    first, second, third = fake_openai.requests
    assert (first.method, first.path) == ("POST", "/v1/chat/completions")
    assert first.headers["authorization"] == f"Bearer {NO_KEY}"  # a local server needs no key
    assert first.body["model"] == MODEL
    assert [role for role, _ in first.messages()] == ["system", "user"]
    assert first.messages()[1][1].startswith("Question: What is the total purchase price?")
    # The conversation is carried: the action (assistant) and the tool's result (user).
    roles, texts = zip(*second.messages(), strict=True)
    assert roles == ("system", "user", "assistant", "user")
    assert json.loads(texts[2])["tool"] == "glob"
    assert "01_acquisition_agreement.pdf" in texts[3]
    assert "$45,000,000" in third.messages()[-1][1]


def test_request_carries_the_action_schema_and_the_strategy(fake_openai: FakeOpenAI):
    fake_openai.enqueue_action(STOP)
    fsnb.explore("What is the price?", folder=DATA / "test_acquisition", llm=llm(fake_openai))
    body = fake_openai.requests[0].body

    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Action", "schema": ACTION_SCHEMA, "strict": False},
    }
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["kind"]["enum"] == ["tool_call", "go_deeper", "ask_human", "stop"]
    assert set(schema["required"]) == {"kind", "reason"}
    assert body["temperature"] == 0.0
    role, system = body["messages"][0]["role"], body["messages"][0]["content"]
    assert role == "system"
    assert "Work in three phases" in system and "scan_folder" in system


def test_usage_counts_reasoning_tokens_as_thinking_and_a_listed_model_costs(
    fake_openai: FakeOpenAI,
):
    fake_openai.enqueue_action(STOP, prompt=2000, completion=300, reasoning=200)
    model = "gpt-4.1-mini"
    result = fsnb.explore("q?", folder=DATA / "test_acquisition", llm=llm(fake_openai, model=model))

    u = result.usage
    assert (u.prompt_tokens, u.completion_tokens, u.thinking_tokens) == (2000, 100, 200)
    inp, out, _cached = price_for(model)
    assert inp > 0 and u.cost_usd == pytest.approx((2000 * inp + 300 * out) / 1e6)


def test_429_and_503_are_retried_as_the_server_asks_and_shown(fake_openai: FakeOpenAI):
    fake_openai.enqueue_error(429, "Rate limit reached.", {"Retry-After": "120"})
    fake_openai.enqueue_error(503, "Overloaded.", {"retry-after-ms": "20"})
    fake_openai.enqueue_action(STOP)
    result = fsnb.explore(
        "q?", folder=DATA / "test_acquisition", llm=llm(fake_openai, max_delay_s=0.2)
    )

    assert result.ok, result.error
    assert result.usage.retries == 2
    notes = [e for e in result.events if isinstance(e, ev.Error)]
    assert [(e.message, e.recoverable) for e in notes] == [
        ("openai: 429 Too Many Requests, retry 1/4 in 0.2 s", True),  # capped at max_delay_s
        ("openai: 503 Service Unavailable, retry 2/4 in 0.0 s", True),
    ]
    first, second, third = fake_openai.requests
    assert first.body == second.body == third.body


def test_500_until_retries_run_out_is_one_clear_line(fake_openai: FakeOpenAI):
    for _ in range(3):
        fake_openai.enqueue_error(500, "The server had an error\nwhile processing your request.")
    result = fsnb.explore(
        "q?", folder=DATA / "test_acquisition", llm=llm(fake_openai, max_retries=2)
    )

    assert result.error == (
        "openai: HTTP 500 after 3 attempts: The server had an error while processing your request."
    )
    assert len(fake_openai.requests) == 3
    assert [e.recoverable for e in result.events if isinstance(e, ev.Error)] == [True, True, False]


def test_other_4xx_fail_at_once_and_a_bad_key_says_so(fake_openai: FakeOpenAI):
    fake_openai.enqueue_error(401, "Incorrect API key provided: sk-bad.")
    fake_openai.enqueue_error(404, "model 'nope' not found, try pulling it first")
    notes: list[str] = []
    with pytest.raises(LLMError) as bad_key:
        llm(fake_openai, api_key="sk-bad").next_action(conversation(), notes.append)
    assert str(bad_key.value) == (
        "openai: HTTP 401: Incorrect API key provided: sk-bad. (check OPENAI_API_KEY)"
    )
    with pytest.raises(LLMError, match=r"^openai: HTTP 404: model 'nope' not found, try pulling"):
        llm(fake_openai, model="nope").next_action(conversation(), notes.append)
    assert notes == []
    assert fake_openai.requests[0].headers["authorization"] == "Bearer sk-bad"


def test_a_body_that_is_not_json_is_an_error_not_a_crash(fake_openai: FakeOpenAI):
    fake_openai.enqueue("<html>proxy error</html>")
    with pytest.raises(LLMError, match=r"^openai: unreadable response from the server: "):
        llm(fake_openai).next_action(conversation(), print)


def test_a_refused_connection_fails_at_once():
    url = f"http://127.0.0.1:{closed_port()}/v1"  # nobody listens there
    notes: list[str] = []
    openai = OpenAILLM(MODEL, base_url=url, backoff_s=30, max_retries=4)
    with pytest.raises(LLMError) as info:
        openai.next_action(conversation(), notes.append)
    assert str(info.value) == f"openai: {url} refused the connection (is the server running there?)"
    assert notes == []  # no retry, no wait


def test_other_connection_errors_are_retried_then_reported():
    notes: list[str] = []
    with hanging_up() as server:
        url = f"{server}/v1"
        openai = OpenAILLM(MODEL, base_url=url, backoff_s=0.01, max_retries=1)
        with pytest.raises(LLMError, match=rf"^openai: cannot reach {url} after 2 attempts: "):
            openai.next_action(conversation(), notes.append)
    assert notes == ["openai: connection error (RemoteProtocolError), retry 1/1 in 0.0 s"]


def test_an_invalid_reply_is_fed_back_and_recovered(fake_openai: FakeOpenAI):
    fake_openai.enqueue_text("The price is $45,000,000.", prompt=100, completion=8)
    fake_openai.enqueue_action({"kind": "tool_call", "reason": "no tool named"}, completion=12)
    fake_openai.enqueue_text(f"```json\n{json.dumps(STOP)}\n```", prompt=300, completion=50)
    notes: list[str] = []
    reply = llm(fake_openai).next_action(conversation(), notes.append)

    assert reply.action.answer == STOP["answer"]  # a fenced JSON reply is read too
    assert (reply.tokens.prompt, reply.tokens.completion) == (500, 70)
    assert notes[0].startswith("openai: invalid reply (Invalid JSON: ")
    assert notes[0].endswith("asking again 1/2")
    assert notes[1] == (
        "openai: invalid reply (Value error, a tool_call action needs a non-empty 'tool'), "
        "asking again 2/2"
    )
    roles, texts = zip(*fake_openai.requests[2].messages(), strict=True)
    assert roles == ("system", "user", "assistant", "user", "assistant", "user")
    assert texts[2] == "The price is $45,000,000."
    assert texts[5] == (
        "Your reply was not a valid Action: Value error, a tool_call action needs a non-empty "
        "'tool'. Reply with one JSON Action."
    )


def test_invalid_replies_until_the_limit_end_the_run_and_are_billed(fake_openai: FakeOpenAI):
    for _ in range(2):
        fake_openai.enqueue_text(None, finish="length")
    result = fsnb.explore(
        "q?", folder=DATA / "test_acquisition", llm=llm(fake_openai, max_invalid=1)
    )
    assert result.error == (
        "openai: no valid Action after 2 replies; last: the reply stopped early "
        "(finish_reason length)"
    )
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (200, 40)


def test_a_server_without_json_schema_gets_json_mode_with_the_schema_in_the_prompt(
    fake_openai: FakeOpenAI,
):
    fake_openai.enqueue_error(
        400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported."
    )
    fake_openai.enqueue_action(GLOB)
    fake_openai.enqueue_action(STOP)
    result = fsnb.explore("q?", folder=DATA / "test_acquisition", llm=llm(fake_openai))

    assert result.ok, result.error
    [note] = [e for e in result.events if isinstance(e, ev.Error)]
    assert note.recoverable and note.message == (
        "openai: the server rejected the JSON schema (HTTP 400), "
        "asking in JSON mode with the schema in the prompt"
    )
    rejected, fallback, later = (r.body for r in fake_openai.requests)
    assert rejected["response_format"]["type"] == "json_schema"
    assert fallback["response_format"] == later["response_format"] == {"type": "json_object"}
    system = fallback["messages"][0]["content"]
    assert system.startswith(rejected["messages"][0]["content"])
    assert json.dumps(ACTION_SCHEMA, separators=(",", ":")) in system


def test_a_rejected_temperature_is_dropped_and_other_400s_are_errors(fake_openai: FakeOpenAI):
    fake_openai.enqueue_error(400, "Unsupported value: 'temperature' does not support 0.0.")
    fake_openai.enqueue_action(STOP)
    fake_openai.enqueue_error(400, "messages: too long")
    notes: list[str] = []
    openai = llm(fake_openai)
    assert openai.next_action(conversation(), notes.append).action.kind == "stop"
    assert notes == ["openai: the model rejected temperature (HTTP 400), asking without"]
    assert "temperature" not in fake_openai.requests[1].body
    with pytest.raises(LLMError, match=r"^openai: HTTP 400: messages: too long$"):
        openai.next_action(conversation(), notes.append)


def test_key_and_server_come_from_the_sdk_variables_or_dotenv(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    with pytest.raises(MissingKey) as missing:
        get_llm("openai")
    message = str(missing.value)
    assert "OPENAI_API_KEY" in message and "--base-url" in message and "\n" not in message

    (tmp_path / ".env").write_text(
        f"OPENAI_API_KEY=from-dotenv\nOPENAI_BASE_URL={fake_openai.url}\n"
    )
    monkeypatch.setenv("FSNB_MODEL", "my-model")
    openai = get_llm("openai")
    assert (openai.backend, openai.model, openai.base_url) == (
        "openai",
        "my-model",
        fake_openai.url,
    )
    fake_openai.enqueue_action(STOP)
    assert openai.next_action(conversation(), print).action.kind == "stop"
    [sent] = fake_openai.requests
    assert sent.headers["authorization"] == "Bearer from-dotenv"
    assert sent.body["model"] == "my-model"


def test_ollama_is_a_preset_that_sends_no_key(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")  # never sent to a local server
    ollama = get_llm("ollama", model="llama3.2")
    assert isinstance(ollama, OpenAILLM)
    assert (ollama.backend, ollama.model, ollama.base_url) == ("ollama", "llama3.2", OLLAMA_URL)
    assert ollama.chat.client.api_key == NO_KEY
    with pytest.raises(LLMError, match="--llm ollama needs a model: --model NAME"):
        get_llm("ollama")
    monkeypatch.setenv("FSNB_MODEL", "qwen3")
    assert get_llm("ollama").model == "qwen3"


def test_cli_explore_with_openai_base_url(fake_openai: FakeOpenAI):
    parse = {**PARSE, "args": [{"name": "path", "value": "01_master_agreement.pdf"}]}
    quote = "'Purchase Price' means One Hundred Twenty-Five Million Dollars ($125,000,000)"
    stop = {
        "kind": "stop",
        "answer": "The total purchase price is $125,000,000 [1].",
        "citations": [{"id": 1, "path": "01_master_agreement.pdf", "page": 1, "quote": quote}],
        "reason": "The master agreement defines it.",
    }
    fake_openai.enqueue_action(parse, prompt=1200, completion=30)
    fake_openai.enqueue_action(stop, prompt=4000, completion=60)
    env = {**os.environ, "OPENAI_BASE_URL": fake_openai.url}
    question = "What is the total purchase price?"
    folder = str(DATA / "large_acquisition")
    command = [sys.executable, "-m", "fsnb.cli", "explore", question, "--folder", folder]
    done = subprocess.run(
        [*command, "--llm", "openai", "--model", "M", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["error"] is None
    assert "$125,000,000 [1]" in data["answer"]
    [citation] = data["citations"]
    assert citation["path"] == "01_master_agreement.pdf" and citation["verified"]
    assert data["llm"]["backend"] == "openai" and data["llm"]["model"] == "M"
    usage = data["usage"]
    assert (usage["llm_calls"], usage["prompt_tokens"], usage["completion_tokens"]) == (
        2,
        5200,
        90,
    )
    assert [r.body["model"] for r in fake_openai.requests] == ["M", "M"]


def test_magics_explore_with_ollama_at_a_base_url(fake_openai: FakeOpenAI):
    fake_openai.enqueue_action(PARSE)
    fake_openai.enqueue_action(STOP)
    ip = InteractiveShell.instance()
    ip.run_line_magic("reload_ext", "fsnb")
    folder = DATA / "test_acquisition"
    line = f"{folder} --llm ollama --base-url {fake_openai.url} --model llama3.2 --wait -o r"
    try:
        assert ip.run_cell_magic("explore", line, "What is the total purchase price?") is None
        result = ip.user_ns["r"]
    finally:
        for name in ("r", "_explore"):
            ip.user_ns.pop(name, None)

    assert result.status == "done"
    assert result.ok, result.error
    assert (result.backend, result.model) == ("ollama", "llama3.2")
    assert result.citations[0].verified and "$45,000,000" in result.answer
    assert [r.body["model"] for r in fake_openai.requests] == ["llama3.2", "llama3.2"]
    assert fake_openai.requests[0].headers["authorization"] == f"Bearer {NO_KEY}"
