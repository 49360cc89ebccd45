"""extract_rows: rows read from prose by the real gemini and openai clients (against fake
servers on 127.0.0.1) into a scratchpad table, each with its provenance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docx
import pytest
from conftest import make_pdf

import fsnb
from fsnb.db.scratchpad import Scratchpad
from fsnb.documents import parse
from fsnb.extract.rows import extract_rows, split
from fsnb.llm.gemini import GeminiLLM
from fsnb.llm.openai_chat import OpenAILLM
from fsnb.offline import OfflineLLM
from fsnb.protocol import LLMError, StructuredLLM
from fsnb.security import Sandbox
from fsnb.tools.context import ToolContext
from fsnb.tools.extraction import extract_rows as extract_rows_tool

if TYPE_CHECKING:
    from fake_gemini import FakeGemini
    from fake_openai import FakeOpenAI

pytest_plugins = ["fake_gemini", "fake_openai"]

RENT = "On 2025-03-01 we paid Acme Properties 1,200.50 dollars for the March rent."
GYM = "The gym membership at FitClub cost 45 dollars on 2025-03-05."
COLUMNS = "date DATE, payee VARCHAR, amount DOUBLE"


@pytest.fixture(autouse=True)
def _only_the_fake_servers(fake_gemini: FakeGemini, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FSNB_GEMINI_BASE_URL", fake_gemini.url)
    for name in ("GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def write_docx(path: Path, *paragraphs: str) -> Path:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(path)
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "letters"
    write_docx(folder / "rent.docx", "Dear tenant,", RENT, "Regards.")
    write_docx(folder / "gym.docx", GYM)
    return folder


@pytest.fixture
def pad(tmp_path: Path, root: Path) -> Scratchpad:
    scratch = Scratchpad(tmp_path / "index.duckdb", folder=root)
    scratch.create_table("expenses", COLUMNS)
    return scratch


def gemini(fake: FakeGemini) -> GeminiLLM:
    return GeminiLLM("gemini-2.5-flash", api_key="k", base_url=fake.url, backoff_s=0.01)


def openai_llm(fake: FakeOpenAI) -> OpenAILLM:
    return OpenAILLM("qwen3:8b", base_url=fake.url, api_key="k", backoff_s=0.01)


def row(source: str, quote: str, **values: Any) -> dict[str, Any]:
    return {"date": None, "payee": None, "amount": None, **values, "source_file": source,
            "quote": quote}  # fmt: skip


def reply(*rows: dict[str, Any]) -> str:
    return json.dumps({"rows": list(rows)})


def test_rows_land_with_provenance_and_a_made_up_quote_is_flagged(
    fake_gemini: FakeGemini, root: Path, pad: Scratchpad
):
    rent = row("rent.docx", "we paid Acme Properties 1,200.50 dollars", date="2025-03-01",
               payee="Acme Properties", amount=1200.5)  # fmt: skip
    gym = row("gym.docx", "FitClub charged 45 dollars", payee="FitClub", amount=45)
    fake_gemini.enqueue_text(reply(rent, gym), prompt=500, completion=80)

    report = extract_rows(
        pad, Sandbox(root), gemini(fake_gemini), "expenses", ["rent.docx", "gym.docx"]
    )

    frame = pad.df("expenses").sort_values("payee")
    assert list(frame["payee"]) == ["Acme Properties", "FitClub"]
    assert list(frame["verified"]) == [True, False]
    assert frame["page"].iloc[0] == 1 and frame["page"].isna().iloc[1]
    assert str(frame["date"].iloc[0])[:10] == "2025-03-01"
    assert report.added == {"rent.docx": 1, "gym.docx": 1}
    assert report.unverified == [{"source_file": "gym.docx", "quote": gym["quote"]}]
    assert (report.calls, report.tokens.prompt, report.tokens.completion) == (1, 500, 80)
    assert report.columns_added == ["source_file", "page", "quote", "verified"]
    assert "verified=false" in report.summary()
    [sent] = fake_gemini.requests
    schema = sent.body["generationConfig"]["responseJsonSchema"]
    item = schema["properties"]["rows"]["items"]
    assert item["properties"]["source_file"]["enum"] == ["rent.docx", "gym.docx"]
    assert item["properties"]["amount"]["type"] == ["number", "null"]
    assert RENT in sent.texts()[0][1] and GYM in sent.texts()[0][1]


def test_a_reply_that_breaks_the_schema_is_asked_again(
    fake_gemini: FakeGemini, root: Path, pad: Scratchpad
):
    bad = row("rent.docx", "Acme Properties", amount="twelve hundred")
    good = row("rent.docx", "Acme Properties", payee="Acme Properties", amount=1200.5)
    fake_gemini.enqueue_text(reply(bad), prompt=100, completion=10)
    fake_gemini.enqueue_text(reply(good), prompt=150, completion=12)
    said: list[str] = []

    report = extract_rows(
        pad, Sandbox(root), gemini(fake_gemini), "expenses", ["rent.docx"], notify=said.append
    )

    assert report.added == {"rent.docx": 1} and (report.tokens.prompt, report.calls) == (250, 1)
    assert len(fake_gemini.requests) == 2 and "invalid reply" in said[0]
    role, feedback = fake_gemini.requests[1].texts()[-1]
    assert role == "user" and "not a valid JSON reply" in feedback and "amount" in feedback


def test_openai_batches_at_most_batch_documents_per_call(fake_openai: FakeOpenAI, tmp_path: Path):
    root = tmp_path / "notes"
    for n in range(5):
        write_docx(root / f"note{n}.docx", f"Paid Shop{n} {n + 1} dollars on 2025-01-0{n + 1}.")
    pad = Scratchpad(tmp_path / "index.duckdb", folder=root)
    pad.create_table("expenses", COLUMNS)
    for _ in range(3):
        fake_openai.enqueue_text(reply(), prompt=10, completion=2)
    paths = [f"note{n}.docx" for n in range(5)]

    report = extract_rows(pad, Sandbox(root), openai_llm(fake_openai), "expenses", paths, batch=2)

    assert report.calls == 3 and report.added == dict.fromkeys(paths, 0)
    sent = [r.messages()[-1][1] for r in fake_openai.requests]
    assert [s.count("=== Document:") for s in sent] == [2, 2, 1]
    shape = fake_openai.requests[0].body["response_format"]
    assert shape["json_schema"]["name"] == "Reply"
    enum = shape["json_schema"]["schema"]["properties"]["rows"]["items"]["properties"]
    assert enum["source_file"]["enum"] == ["note0.docx", "note1.docx"]


def test_a_long_document_goes_in_parts_at_page_boundaries(fake_openai: FakeOpenAI, tmp_path: Path):
    root = tmp_path / "long"
    pages = [
        [f"Page {n} line {i} of the ledger with some words." for i in range(8)] for n in range(1, 5)
    ]
    make_pdf(root / "ledger.pdf", pages)
    pad = Scratchpad(tmp_path / "index.duckdb", folder=root)
    pad.create_table("expenses", COLUMNS)
    doc = parse(root / "ledger.pdf")
    budget = len(doc.page_text(1)) + len(doc.page_text(2)) + 10
    pieces = split(doc, "ledger.pdf", budget)
    for _ in pieces:
        fake_openai.enqueue_text(reply())

    report = extract_rows(
        pad, Sandbox(root), openai_llm(fake_openai), "expenses", ["ledger.pdf"], budget=budget
    )

    assert len(pieces) >= 2 and "".join(p.text for p in pieces) == doc.text  # nothing cut
    assert all(len(p.text) <= budget for p in pieces)
    assert report.parts == {"ledger.pdf": len(pieces)} and report.calls == len(pieces)
    first = fake_openai.requests[0].messages()[-1][1]
    assert f"part 1 of {len(pieces)}, pages 1-2" in first
    assert "Page 3 line" not in first


def test_the_offline_backend_gets_one_clear_line(root: Path, pad: Scratchpad):
    assert not isinstance(OfflineLLM(), StructuredLLM)
    with pytest.raises(LLMError, match="the offline backend cannot read rows from prose; use "
                       "extract_tables and load_table for tables, or a model backend such as "
                       "gemini"):  # fmt: skip
        extract_rows(pad, Sandbox(root), OfflineLLM(), "expenses", ["rent.docx"])


def test_the_tool_refuses_a_path_outside_the_folder(
    fake_gemini: FakeGemini, tmp_path: Path, root: Path, pad: Scratchpad
):
    write_docx(tmp_path / "secret.docx", "Not yours.")
    ctx = ToolContext(root, tmp_path / "index.duckdb", llm=gemini(fake_gemini))

    outcome = extract_rows_tool.outcome(table="expenses", paths="../secret.docx", ctx=ctx)

    assert not outcome.ok and "outside" in outcome.text
    assert fake_gemini.requests == [] and pad.rows("expenses") == 0


def test_the_tools_tokens_count_in_the_runs_usage(
    fake_gemini: FakeGemini, tmp_path: Path, root: Path, pad: Scratchpad
):
    call = {
        "kind": "tool_call",
        "tool": "extract_rows",
        "args": [{"name": "table", "value": "expenses"}, {"name": "paths", "value": "rent.docx"}],
        "reason": "The rent is in a letter.",
    }
    stop = {"kind": "stop", "answer": "One expense.", "reason": "Done."}
    fake_gemini.enqueue_action(call, prompt=100, completion=20)
    rent = row("rent.docx", RENT, payee="Acme Properties", amount=1200.5)
    fake_gemini.enqueue_text(reply(rent), prompt=1000, completion=50)
    fake_gemini.enqueue_action(stop, prompt=300, completion=30)

    result = fsnb.explore(
        "What did I spend?", folder=root, llm=gemini(fake_gemini), db=tmp_path / "index.duckdb"
    )

    assert result.ok, result.error
    assert (result.usage.llm_calls, result.usage.prompt_tokens) == (3, 1400)
    assert result.usage.completion_tokens == 100
    assert pad.df("expenses")["verified"].tolist() == [True]
