"""The gemini backend, through the real google-genai client and a fake server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hang_up import closed_port, hanging_up

import fsnb
from fsnb.agent import events as ev
from fsnb.agent.usage import price_for
from fsnb.config import api_key
from fsnb.llm import get_llm
from fsnb.llm.gemini import GeminiLLM
from fsnb.protocol.conversation import Conversation, LLMError, MissingKey

if TYPE_CHECKING:
    from fake_gemini import FakeGemini

pytest_plugins = ["fake_gemini"]  # the `fake_gemini` fixture

MODEL = "gemini-2.5-flash"
SCAN = {
    "kind": "tool_call",
    "tool": "scan_folder",
    "args": [{"name": "folder", "value": "."}],
    "reason": "Preview every document first.",
}
PARSE = {
    "kind": "tool_call",
    "tool": "parse_file",
    "args": [{"name": "path", "value": "agreement.pdf"}],
    "reason": "The agreement should state the price.",
}
QUOTE = "The Purchase Price is $9,000,000 payable at Closing."
STOP = {
    "kind": "stop",
    "answer": "The purchase price is $9,000,000 [1].",
    "citations": [{"id": 1, "path": "agreement.pdf", "page": 1, "quote": QUOTE}],
    "reason": "The agreement states it.",
}


@pytest.fixture(autouse=True)
def _only_the_fake_server(fake_gemini: FakeGemini, monkeypatch: pytest.MonkeyPatch):
    """Point every client at the fake server (conftest's guard refuses any other host)."""
    monkeypatch.setenv("FSNB_GEMINI_BASE_URL", fake_gemini.url)
    for name in ("GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


def llm(fake: FakeGemini, **options: Any) -> GeminiLLM:
    return GeminiLLM(MODEL, api_key="test-key", base_url=fake.url, backoff_s=0.01, **options)


def conversation() -> Conversation:
    return Conversation("q", ".", "You are fsnb.", "Question: q", tools=[])


def test_exploration_runs_through_the_real_client(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_action(SCAN)
    fake_gemini.enqueue_action(PARSE)
    fake_gemini.enqueue_action(STOP)
    result = fsnb.explore("What is the purchase price?", folder=folder, llm=llm(fake_gemini))

    assert result.ok, result.error
    assert result.answer == "The purchase price is $9,000,000 [1]."
    [citation] = result.citations
    assert (citation.path, citation.page, citation.verified) == ("agreement.pdf", 1, True)
    assert [s["tool"] for s in result.steps() if s["kind"] == "tool_call"] == [
        "scan_folder",
        "parse_file",
    ]
    assert result.steps()[-1]["kind"] == "stop"
    assert (result.backend, result.model) == ("gemini", MODEL)

    first, second, third = fake_gemini.requests
    assert first.path == f"/v1beta/models/{MODEL}:generateContent"
    assert first.headers["x-goog-api-key"] == "test-key"
    assert [role for role, _ in first.texts()] == ["user"]
    assert first.texts()[0][1].startswith("Question: What is the purchase price?")
    # The conversation is carried: the action (model) and the tool result (user) come back.
    roles, texts = zip(*second.texts(), strict=True)
    assert roles == ("user", "model", "user")
    assert '"scan_folder"' in texts[1]
    assert "=== agreement.pdf — pdf, 2 pages" in texts[2]
    assert "Purchase Price is $9,000,000" in third.texts()[4][1]


def test_request_carries_the_action_schema_and_the_strategy(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_action(STOP)
    fsnb.explore("What is the price?", folder=folder, llm=llm(fake_gemini))
    body = fake_gemini.requests[0].body
    system = "".join(p["text"] for p in body["systemInstruction"]["parts"])
    assert "Work in three phases" in system and "BACKTRACK" in system and "scan_folder" in system

    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["temperature"] == 0.0
    assert "responseSchema" not in config
    schema = config["responseJsonSchema"]
    props = schema["properties"]
    assert schema["type"] == "object" and set(schema["required"]) == {"kind", "reason"}
    assert props["kind"]["enum"] == ["tool_call", "go_deeper", "ask_human", "stop"]
    assert props["args"]["type"] == "array"
    tool_arg = schema["$defs"][props["args"]["items"]["$ref"].rsplit("/", 1)[-1]]
    assert tool_arg["properties"].keys() == {"name", "value"}
    assert tool_arg["required"] == ["name", "value"]
    cited = schema["$defs"][props["citations"]["items"]["$ref"].rsplit("/", 1)[-1]]
    assert cited["properties"].keys() == {"id", "path", "page", "quote"}
    assert {"type": "null"} in props["answer"]["anyOf"]

    def walk(node: Any) -> None:  # no dict-typed field, no `default` keyword
        if isinstance(node, dict):
            assert "additionalProperties" not in node and "default" not in node
            node.get("type") != "object" or node.get("properties") or pytest.fail(str(node))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)


def test_usage_from_usage_metadata_including_thinking(fake_gemini: FakeGemini, folder: Path):
    glob = {**SCAN, "tool": "glob", "args": [{"name": "pattern", "value": "*.txt"}]}
    fake_gemini.enqueue_action(glob, prompt=1000, completion=50, thoughts=200)
    fake_gemini.enqueue_action(STOP, prompt=3000, completion=80)  # no thoughtsTokenCount
    result = fsnb.explore("What is the price?", folder=folder, llm=llm(fake_gemini))

    u = result.usage
    assert (u.llm_calls, u.prompt_tokens, u.completion_tokens, u.thinking_tokens) == (
        2,
        4000,
        130,
        200,
    )
    assert u.total_tokens == 4330
    inp, out, _cached = price_for(MODEL)
    assert u.cost_usd == pytest.approx((4000 * inp + 330 * out) / 1e6)
    assert u.cost_usd > 0
    last = [e for e in result.events if isinstance(e, ev.UsageUpdate)][-1]
    assert last.total_tokens == 4330


def test_429_is_retried_and_shown(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_error(429, "Resource has been exhausted.", "RESOURCE_EXHAUSTED")
    fake_gemini.enqueue_action(STOP)
    result = fsnb.explore("What is the price?", folder=folder, llm=llm(fake_gemini))

    assert result.ok, result.error
    assert result.usage.retries == 1
    [note] = [e for e in result.events if isinstance(e, ev.Error)]
    assert note.recoverable
    assert note.message == "gemini: 429 RESOURCE_EXHAUSTED, retry 1/4 in 0.0 s"
    assert len(fake_gemini.requests) == 2
    assert fake_gemini.requests[0].body == fake_gemini.requests[1].body


def test_server_delay_is_honoured_but_capped(fake_gemini: FakeGemini):
    fake_gemini.enqueue_error(429, "slow down", "RESOURCE_EXHAUSTED", retry_delay="3s")
    fake_gemini.enqueue_error(503, "busy", "UNAVAILABLE", headers={"Retry-After": "120"})
    fake_gemini.enqueue_action(STOP)
    notes: list[str] = []
    reply = llm(fake_gemini, max_delay_s=0.2).next_action(conversation(), notes.append)
    assert reply.action.kind == "stop"
    assert notes == [
        "gemini: 429 RESOURCE_EXHAUSTED, retry 1/4 in 0.2 s",
        "gemini: 503 UNAVAILABLE, retry 2/4 in 0.2 s",
    ]


def test_500_until_retries_run_out_is_a_clear_error(fake_gemini: FakeGemini, folder: Path):
    for _ in range(3):
        fake_gemini.enqueue_error(500, "An internal error has occurred.", "INTERNAL")
    result = fsnb.explore("What is the price?", folder=folder, llm=llm(fake_gemini, max_retries=2))
    assert not result.ok
    assert result.error == (
        "gemini: HTTP 500 INTERNAL after 3 attempts: An internal error has occurred."
    )
    assert len(fake_gemini.requests) == 3
    assert result.usage.retries == 2
    assert [e.recoverable for e in result.events if isinstance(e, ev.Error)] == [True, True, False]


def test_other_4xx_fail_at_once_and_a_bad_key_says_so(fake_gemini: FakeGemini):
    fake_gemini.enqueue_error(
        400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"
    )
    fake_gemini.enqueue_error(403, "Permission denied.", "PERMISSION_DENIED")
    fake_gemini.enqueue_error(404, "models/nope is not found.", "NOT_FOUND")
    notes: list[str] = []
    with pytest.raises(LLMError) as bad_key:
        llm(fake_gemini).next_action(conversation(), notes.append)
    assert str(bad_key.value) == (
        "gemini: HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key. "
        "(check GOOGLE_API_KEY / GEMINI_API_KEY)"
    )
    with pytest.raises(LLMError, match=r"^gemini: HTTP 403 PERMISSION_DENIED: .*GOOGLE_API_KEY"):
        llm(fake_gemini).next_action(conversation(), notes.append)
    with pytest.raises(LLMError, match=r"^gemini: HTTP 404 NOT_FOUND: models/nope is not found\.$"):
        llm(fake_gemini).next_action(conversation(), notes.append)
    assert notes == []
    assert len(fake_gemini.requests) == 3


def test_a_body_that_is_not_json_is_an_error_not_a_crash(fake_gemini: FakeGemini):
    fake_gemini.enqueue("<html>proxy error</html>")
    with pytest.raises(LLMError, match=r"^gemini: unreadable response from the API: "):
        llm(fake_gemini).next_action(conversation(), print)


def test_a_refused_connection_fails_at_once():
    url = f"http://127.0.0.1:{closed_port()}"  # nobody listens there
    notes: list[str] = []
    gemini = GeminiLLM(api_key="k", base_url=url, backoff_s=30, max_retries=4)
    with pytest.raises(LLMError) as info:
        gemini.next_action(conversation(), notes.append)
    assert str(info.value) == f"gemini: {url} refused the connection (is the server running there?)"
    assert notes == []  # no retry, no wait


def test_other_connection_errors_are_retried_then_reported():
    notes: list[str] = []
    with hanging_up() as server:
        url = f"{server}"
        gemini = GeminiLLM(api_key="k", base_url=url, backoff_s=0.01, max_retries=1)
        with pytest.raises(LLMError, match=rf"^gemini: cannot reach {url} after 2 attempts: "):
            gemini.next_action(conversation(), notes.append)
    assert notes == ["gemini: connection error (RemoteProtocolError), retry 1/1 in 0.0 s"]


def test_malformed_json_is_fed_back_and_recovered(fake_gemini: FakeGemini):
    fake_gemini.enqueue_text("not json {", prompt=100, completion=5, thoughts=7)
    fake_gemini.enqueue_action(STOP, prompt=150, completion=40)
    notes: list[str] = []
    reply = llm(fake_gemini).next_action(conversation(), notes.append)

    assert reply.action.answer == STOP["answer"]
    assert (reply.tokens.prompt, reply.tokens.completion, reply.tokens.thinking) == (250, 45, 7)
    [note] = notes
    assert note.startswith("gemini: invalid reply (Invalid JSON:") and note.endswith("1/2")
    roles, texts = zip(*fake_gemini.requests[1].texts(), strict=True)
    assert roles == ("user", "model", "user")
    assert texts[1] == "not json {"
    assert texts[2].startswith("Your reply was not a valid Action: Invalid JSON:")
    assert texts[2].endswith("Reply with one JSON Action.")


def test_invalid_action_is_fed_back_and_recovered(fake_gemini: FakeGemini, folder: Path):
    fake_gemini.enqueue_action({"kind": "tool_call", "reason": "no tool named"})
    fake_gemini.enqueue_action(STOP)
    result = fsnb.explore("What is the price?", folder=folder, llm=llm(fake_gemini))

    assert result.ok, result.error
    [note] = [e for e in result.events if isinstance(e, ev.Error)]
    assert "a tool_call action needs a non-empty 'tool'" in note.message
    feedback = fake_gemini.requests[1].texts()[-1][1]
    assert feedback == (
        "Your reply was not a valid Action: Value error, a tool_call action needs a non-empty "
        "'tool'. Reply with one JSON Action."
    )


def test_blocked_cut_off_and_empty_replies_are_re_asked(fake_gemini: FakeGemini):
    fake_gemini.enqueue({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {}})
    fake_gemini.enqueue_text('{"kind": "stop", "rea', finish="MAX_TOKENS", completion=9)
    fake_gemini.enqueue_action(STOP, completion=30)
    notes: list[str] = []
    reply = llm(fake_gemini).next_action(conversation(), notes.append)
    assert reply.action.kind == "stop"
    assert reply.tokens.completion == 39
    assert notes == [
        "gemini: invalid reply (empty reply (no candidates, blocked: SAFETY)), asking again 1/2",
        "gemini: invalid reply (the reply stopped early (finish_reason MAX_TOKENS)), "
        "asking again 2/2",
    ]
    # Nothing came back the first time, so only the feedback is added; then the cut-off reply.
    assert [role for role, _ in fake_gemini.requests[2].texts()] == [
        "user",
        "user",
        "model",
        "user",
    ]


def test_invalid_replies_until_the_limit_end_the_run(fake_gemini: FakeGemini, folder: Path):
    for _ in range(2):
        fake_gemini.enqueue_text('{"kind": "fly", "reason": "x"}')
    result = fsnb.explore("q?", folder=folder, llm=llm(fake_gemini, max_invalid=1))
    assert result.error is not None and "\n" not in result.error
    assert result.error.startswith("gemini: no valid Action after 2 replies; last: kind: Input")
    assert len(fake_gemini.requests) == 2
    # the failed replies were still billed
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (200, 40)


def test_missing_key_names_the_variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MissingKey) as missing:
        GeminiLLM()
    message = str(missing.value)
    assert "GOOGLE_API_KEY" in message and "GEMINI_API_KEY" in message
    assert "--llm offline" in message and "\n" not in message
    with pytest.raises(MissingKey):
        get_llm("gemini")
    assert get_llm("auto").backend == "offline"


def test_dotenv_key_and_environment(
    fake_gemini: FakeGemini, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("GEMINI_API_KEY=from-dotenv\n")
    assert api_key() == "from-dotenv"
    monkeypatch.setenv("FSNB_MODEL", "gemini-2.5-flash-lite")
    gemini = get_llm("auto")  # the key makes auto pick gemini; the URL comes from the env
    assert isinstance(gemini, GeminiLLM)
    assert (gemini.backend, gemini.model, gemini.base_url) == (
        "gemini",
        "gemini-2.5-flash-lite",
        fake_gemini.url,
    )
    fake_gemini.enqueue_action(STOP)
    assert gemini.next_action(conversation(), print).action.kind == "stop"
    [sent] = fake_gemini.requests
    assert sent.headers["x-goog-api-key"] == "from-dotenv"
    assert sent.path == "/v1beta/models/gemini-2.5-flash-lite:generateContent"


def test_empty_queue_answers_500_rather_than_hanging(fake_gemini: FakeGemini):
    with pytest.raises(LLMError, match="no scripted reply left for POST /v1beta/models/"):
        llm(fake_gemini, max_retries=0).next_action(conversation(), print)
    assert len(fake_gemini.requests) == 1
