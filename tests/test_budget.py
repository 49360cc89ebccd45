"""The context budget: receipts for results the model moved on from, compact scans and
prompt, and cached tokens read from both backends and priced at the cached rate."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from fsnb.agent.prompts import system_prompt
from fsnb.agent.usage import Usage, price_for
from fsnb.llm.gemini import GeminiLLM
from fsnb.llm.openai_chat import OpenAILLM
from fsnb.protocol import Action, Conversation, Exchange, Tokens, ToolOutcome, Turn
from fsnb.security import Sandbox
from fsnb.tools import agent_registry
from fsnb.tools.context import ToolContext
from fsnb.tools.payloads import PageRead
from fsnb.tools.scanning import scan_folder

if TYPE_CHECKING:
    from fake_gemini import FakeGemini
    from fake_openai import FakeOpenAI

pytest_plugins = ["fake_gemini", "fake_openai"]

QUESTION = "What retention bonus does the CTO receive?"
STOP = {"kind": "stop", "reason": "done", "answer": "None."}


def read_turn(path: str, pages: int = 3, filler: int = 2_000) -> Turn:
    """A parse_file turn of `pages` pages, one of them saying what the question asks."""
    body = []
    for page in range(1, pages + 1):
        body.append(f"[page {page}]")
        body.append("Routine clause about notices and governing law. " * (filler // 50))
        if page == 2:
            body.append("The CTO receives a retention bonus of $450,000 payable at closing.")
    text = f"{path} (pdf, {pages} pages)\n" + "\n".join(body) + "\n[end of document]"
    shown = PageRead(path, 0, len(text), len(text), tuple(range(1, pages + 1)))
    action = Action.call("parse_file", "Read it.", path=path)
    return Turn(action, text, ToolOutcome(text, payload=shown))


def convo(turns: list[Turn], **options: object) -> Conversation:
    return Conversation(QUESTION, ".", "system", f"Question: {QUESTION}", [], turns, **options)


def test_a_long_run_stays_within_the_budget_and_keeps_the_latest_result_whole():
    turns = [read_turn(f"doc{i}.pdf") for i in range(12)]
    budget = 12_000
    messages = convo(turns, budget_chars=budget, keep_turns=2).messages()

    assert len("system") + sum(len(m.text) for m in messages) <= budget
    assert messages[-1].text == turns[-1].result  # the latest result is never cut
    assert len(messages) == 1 + 2 * len(turns)  # every step is still there


def test_receipts_say_what_was_cut_which_pages_the_lines_that_matter_and_how_to_re_read():
    turns = [read_turn("a.pdf"), read_turn("b.pdf"), read_turn("c.pdf")]
    messages = convo(turns, keep_turns=1).messages()
    first = messages[2].text

    assert first.startswith("[receipt of parse_file(path='a.pdf')")
    assert "result is left out here to save context" in first
    assert "pages 1-3" in first
    assert "Call it again to see it all." in first
    assert "p.2: The CTO receives a retention bonus of $450,000 payable at closing." in first
    assert messages[-1].text == turns[-1].result


def test_nothing_is_dropped_silently_and_short_results_stay_whole():
    short = Turn(Action.call("glob", "Find.", pattern="*.pdf"), "a.pdf\nb.pdf", ToolOutcome("x"))
    turns = [short, *(read_turn(f"d{i}.pdf") for i in range(5))]
    messages = convo(turns, budget_chars=1, keep_turns=1).messages()
    results = [m.text for m in messages[2::2]]

    assert results[0] == short.result
    for turn, text in zip(turns[1:-1], results[1:-1], strict=True):
        assert text.startswith(f"[receipt of parse_file(path='{turn.action.args[0].value}')")
    assert results[-1] == turns[-1].result


def test_earlier_exchanges_come_as_receipts_before_the_new_question():
    earlier = Exchange("Who is the CTO?", "Dana Lee [1].", [read_turn("a.pdf")])
    [opening] = convo([], earlier=[earlier]).messages()

    assert "Earlier question 1: Who is the CTO?" in opening.text
    assert "Answer given: Dana Lee [1]." in opening.text
    assert "[receipt of parse_file(path='a.pdf')" in opening.text
    assert opening.text.endswith(f"Question: {QUESTION}")


def test_the_system_prompt_is_compact_and_the_same_for_every_run():
    tools = agent_registry(use_index=False).schemas()
    prompt = system_prompt(tools)

    assert prompt == system_prompt(agent_registry(use_index=False).schemas())
    assert len(prompt) < 6_000
    assert "- parse_file(path, offset=0, limit=12000): Read a document's full text" in prompt
    assert "search_type=auto|name|content|metadata" in prompt


def test_a_scan_says_shared_lines_once_and_leaves_them_out_of_each_preview(tmp_path: Path):
    letterhead = "Meridian Bank Platinum Rewards Visa statement"
    for month in ("jan", "feb", "mar", "apr"):
        (tmp_path / f"{month}.md").write_text(
            f"# {month} statement\n\n{letterhead}\n\nSpent on dining in {month}: $42.00\n"
        )
    outcome = scan_folder(ctx=ToolContext(Sandbox(tmp_path), None))
    text = outcome.text if isinstance(outcome, ToolOutcome) else outcome

    assert text.count(letterhead) == 1
    assert "shown once here and left out of each" in text
    assert "Spent on dining in mar: $42.00" in text


def test_gemini_cached_tokens_are_read_from_usage_metadata(fake_gemini: FakeGemini):
    fake_gemini.enqueue_action(STOP, prompt=3_000, completion=10, cached=2_048)
    gemini = GeminiLLM("gemini-2.5-flash", api_key="k", base_url=fake_gemini.url)
    reply = gemini.next_action(convo([]), lambda _: None)

    assert (reply.tokens.prompt, reply.tokens.cached) == (3_000, 2_048)


def test_openai_cached_tokens_are_read_from_prompt_tokens_details(fake_openai: FakeOpenAI):
    fake_openai.enqueue_action(STOP, prompt=3_000, completion=10, cached=1_024)
    openai = OpenAILLM("gpt-4o-mini", base_url=fake_openai.url, api_key="k")
    reply = openai.next_action(convo([]), lambda _: None)

    assert (reply.tokens.prompt, reply.tokens.cached) == (3_000, 1_024)


def test_cached_tokens_are_priced_at_the_cached_rate(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("FSNB_PRICES", raising=False)
    price = price_for("gemini-2.5-flash")
    usage = Usage()
    usage.add(Tokens(prompt=1_000_000, cached=600_000), price)

    assert price == (0.30, 2.50, 0.03)
    assert usage.cached_tokens == 600_000
    assert usage.cost_usd == pytest.approx(0.4 * 0.30 + 0.6 * 0.03)
    assert usage.to_dict()["cached_tokens"] == 600_000
    assert price_for("x", {"x": (1.0, 2.0)}) == (1.0, 2.0, 1.0)  # no cached rate: input rate
