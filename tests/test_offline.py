"""The offline backend end to end: real explorations through the loop on small corpora."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from conftest import DATA, make_pdf

import fsnb
from fsnb.agent import Explorer
from fsnb.agent.result import ExplorationResult
from fsnb.documents import FolderDocuments
from fsnb.llm import get_llm
from fsnb.offline import OfflineLLM, Tuning
from fsnb.offline.progress import read_so_far
from fsnb.protocol import Action, Conversation, LLMError, ToolOutcome, Turn
from fsnb.security import Sandbox
from fsnb.tools.payloads import Hit, Hits, PageRead


def _explore(question: str, folder: Path, **options) -> ExplorationResult:
    return fsnb.explore(question, folder=folder, llm="offline", **options)


def _parses(result: ExplorationResult) -> list[dict]:
    return [s for s in result.steps() if s["tool"] == "parse_file"]


def _cited(result: ExplorationResult, path: str) -> list:
    return [c for c in result.citations if c.path == path and c.verified]


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One parse cache for the module's tests: each corpus is parsed once, not per test."""
    return tmp_path_factory.mktemp("offline-parse-cache")


@pytest.fixture(autouse=True)
def _shared_cache(module_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FSNB_CACHE_DIR", str(module_cache))


@pytest.fixture(scope="module")
def deal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An agreement that refers to an escrow letter for the retained amount, a board memo
    that mentions the deal, and unrelated notes."""
    root = tmp_path_factory.mktemp("corpus") / "deal"
    make_pdf(
        root / "agreement.pdf",
        [
            [
                "The Purchase Price for the Shares is $9,000,000, payable at Closing.",
                "Part of the Purchase Price is retained on the terms of Document: Escrow Letter.",
            ],
            [
                "The Closing Date is June 30, 2025.",
                "Any adjustment to the Purchase Price is agreed in writing by both parties.",
            ],
        ],
        title="Share Purchase Agreement",
    )
    make_pdf(
        root / "letters" / "escrow.pdf",
        [["The escrow agent keeps $900,000 of the price for 12 months after Closing."]],
        title="Escrow Letter",
    )
    make_pdf(
        root / "board_memo.pdf",
        [["The board approved the acquisition of Acme on May 2, 2025.", "Dana Ito is CFO."]],
        title="Board Memo",
    )
    (root / "notes.md").write_text(
        "# Office notes\n\nThe cafeteria opens at noon.\n\n"
        "| Room | Capacity |\n|---|---|\n| Atlas | 12 |\n| Boreal | 30 |\n",
        encoding="utf-8",
    )
    return root


def test_answers_with_the_fact_and_a_verified_citation(deal: Path):
    result = _explore("What is the purchase price for the shares?", deal)
    assert result.ok
    assert "$9,000,000" in result.answer
    assert _cited(result, "agreement.pdf")
    assert all(c.verified for c in result.citations)
    steps = result.steps()
    assert steps[0]["tool"] == "scan_folder" and steps[0]["phase"] == "scan"
    assert _parses(result)[0]["args"]["path"] == "agreement.pdf"
    assert steps[-1]["kind"] == "stop"


def test_every_statement_carries_a_citation(deal: Path):
    result = _explore("How much of the purchase price is retained, and for how long?", deal)
    lines = [line for line in result.answer.splitlines() if line.strip()][:-1]  # less the note
    assert lines and all(re.search(r"\[\d+\]\.?$", line.rstrip()) for line in lines)
    for citation in result.citations:
        assert f"[{citation.id}]" in result.answer
        assert len(citation.quote) <= 300 and citation.verified and not citation.problem


def test_follows_a_cross_reference_to_a_document_that_does_not_rank(deal: Path):
    result = _explore("How much of the purchase price is retained, and for how long?", deal)
    parses = _parses(result)
    assert [p["args"]["path"] for p in parses][:2] == ["agreement.pdf", "letters/escrow.pdf"]
    follow = parses[1]
    assert follow["phase"] == "backtrack"
    assert follow["reason"].startswith("Backtrack: agreement.pdf refers to 'Escrow Letter'")
    assert "$900,000" in result.answer and "12 months" in result.answer
    assert _cited(result, "letters/escrow.pdf")


def test_does_not_follow_references_that_do_not_matter(deal: Path):
    result = _explore("When is the Closing Date?", deal)
    assert "June 30, 2025" in result.answer
    assert "letters/escrow.pdf" not in [p["args"]["path"] for p in _parses(result)]


def test_cites_a_table_row_with_its_header(deal: Path):
    result = _explore("What is the capacity of the Boreal room?", deal)
    assert "Boreal" in result.answer and "30" in result.answer
    assert "Capacity: 30" in result.answer
    assert _cited(result, "notes.md")


def test_is_deterministic(deal: Path):
    question = "How much of the purchase price is retained, and for how long?"
    first, second = _explore(question, deal), _explore(question, deal)
    assert first.answer == second.answer
    assert [c.to_dict() for c in first.citations] == [c.to_dict() for c in second.citations]

    def plan(result: ExplorationResult) -> list:
        return [(s["tool"], s["args"], s["reason"], s["phase"]) for s in result.steps()]

    assert plan(first) == plan(second)


def test_says_it_is_the_offline_extractive_backend(deal: Path):
    result = _explore("Who is the CFO?", deal)
    assert result.backend == "offline" and result.model == "extractive"
    assert "offline extractive" in result.backend_note
    assert "offline extractive backend" in result.answer
    assert result.usage.total_tokens == 0 and result.usage.cost_usd == 0
    assert "Dana Ito" in result.answer


def test_an_unanswerable_question_gets_an_honest_not_found(deal: Path):
    result = _explore("What penalty applies to late satellite launches?", deal)
    assert result.ok
    assert "could not find" in result.answer
    assert result.citations == []


def test_reads_on_where_the_answer_lies_in_a_long_document(tmp_path: Path):
    root = tmp_path / "long"
    root.mkdir()
    filler = "\n\n".join(
        f"Clause {n}. The parties keep records of their meetings." for n in range(400)
    )
    (root / "manual.md").write_text(
        f"# Operations Manual\n\n{filler}\n\nThe backup generator is tested every 14 days.\n",
        encoding="utf-8",
    )
    (root / "other.md").write_text("# Other\n\nNothing about generators.\n", encoding="utf-8")
    result = _explore("How often is the backup generator tested?", root)
    offsets = [int(p["args"].get("offset", 0)) for p in _parses(result)]
    assert max(offsets) > 0
    assert "every 14 days" in result.answer
    assert _cited(result, "manual.md")


MANUAL = """# Warehouse safety manual

## Forklift certification

Every forklift operator needs a current forklift certification before driving any truck.
Forklift certification is renewed every three years; renew it before it lapses.

## Forklift certification records

Operators without current forklift certification may not renew their dock permit.

## Renewing a forklift certification

To renew a forklift certification, book the refresher course.

## Forklift certification audits

Auditors sample forklift certification records and ask operators when they renew.
"""


def test_reads_the_workbook_whose_one_row_matches_best_though_it_ranks_low(tmp_path: Path):
    root = tmp_path / "warehouse"
    root.mkdir()
    (root / "safety_manual.md").write_text(MANUAL, encoding="utf-8")
    people = ["Oskar Berg", "Ines Duarte", "Piet de Vries", "Lena Moreau", "Tariq Haddad",
              "Yara Costa", "Jonas Weber", "Aiko Tanaka", "Femi Adebayo", "Sara Holm"]  # fmt: skip
    rows = [
        f"{name},{course},{2022 + n % 3}-0{1 + n % 9}-1{n % 9},{2024 + n % 3}-0{1 + n % 9}-1{n % 9}"
        for n, name in enumerate(people)
        for course in ("First aid", "Fire warden", "Manual handling")
    ]
    rows.insert(17, "Marta Lindqvist,Forklift certification,2023-04-02,2026-04-02")
    log = "name,course,completed,expires\n" + "\n".join(rows) + "\n"
    (root / "training_log.csv").write_text(log, encoding="utf-8")
    for name, text in {
        "canteen": "The canteen opens at seven. Lunch is served from noon to two.",
        "parking": "Staff park in lot B. Visitors use lot A by the gate.",
        "holidays": "The warehouse closes on public holidays. Book leave two weeks ahead.",
        "deliveries": "Deliveries arrive between six and ten. Each pallet is scanned.",
    }.items():
        (root / f"{name}.md").write_text(f"# {name}\n\n{text}\n", encoding="utf-8")
    result = _explore("When does Marta have to renew her forklift certification?", root)
    # the manual repeats the question's words in every section; the log ranks at half of it
    reads = [p["args"]["path"] for p in _parses(result)]
    assert reads[:2] == ["safety_manual.md", "training_log.csv"]
    (why,) = [p["reason"] for p in _parses(result) if p["args"]["path"] == "training_log.csv"]
    assert "holds the passage that matches it best" in why
    assert "2026-04-02" in result.answer
    assert any("Marta Lindqvist" in c.quote for c in _cited(result, "training_log.csv"))


def test_stops_with_what_it_has_on_the_last_step(deal: Path):
    question = "What is the purchase price for the shares?"
    two = _explore(question, deal, max_steps=2)
    assert two.ok and [s["kind"] for s in two.steps()] == ["tool_call", "stop"]
    assert "could not find" in two.answer and not two.citations
    three = _explore(question, deal, max_steps=3)
    assert [s["tool"] for s in three.steps()] == ["scan_folder", "parse_file", None]
    assert three.ok and "$9,000,000" in three.answer and _cited(three, "agreement.pdf")


def test_skips_blocked_and_unreadable_files(folder: Path):
    result = _explore("Who is the CFO?", folder)
    assert "Dana Ito" in result.answer
    read = {p["args"]["path"] for p in _parses(result)}
    assert not read & {".env", "id_rsa", "blob.bin", "empty.txt"}


def test_get_llm_builds_the_offline_backend_with_its_tuning():
    llm = get_llm("offline", max_documents=2)
    assert isinstance(llm, OfflineLLM) and llm.tuning == Tuning(max_documents=2)
    assert (llm.backend, llm.model) == ("offline", "extractive")
    tuned = get_llm("offline", tuning=Tuning(margin=0.5), max_ranked=1)
    assert (tuned.tuning.margin, tuned.tuning.max_ranked) == (0.5, 1)
    with pytest.raises(TypeError, match="max_rankd"):
        OfflineLLM(max_rankd=1)


def test_an_empty_folder_is_answered_honestly(tmp_path: Path):
    result = Explorer(tmp_path, OfflineLLM()).run("What is the purchase price?")
    assert result.ok and "could not find" in result.answer and not result.citations


# -- its tuning, the documents handed in, typed outcomes ----------------------------------------


def test_tuning_is_frozen_and_read_from_key_value_texts():
    tuning = Tuning.parse(["margin=0.5", "max_ranked=2", "follow_pair=0.4,0.2"])
    assert tuning == Tuning(margin=0.5, max_ranked=2, follow_pair=(0.4, 0.2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        tuning.margin = 0.1  # type: ignore[misc]
    for bad in ("margin", "nope=1", "max_ranked=1.5"):
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            Tuning.parse([bad])


def test_the_tuning_reaches_the_policy_the_references_and_the_answer(deal: Path):
    question = "How much of the purchase price is retained, and for how long?"

    def run(**fields: float) -> ExplorationResult:
        return fsnb.explore(question, folder=deal, llm=OfflineLLM(tuning=Tuning(**fields)))

    def read(result: ExplorationResult) -> list[str]:
        return [p["args"]["path"] for p in _parses(result)]

    def bullets(result: ExplorationResult) -> list[str]:
        return [line for line in result.answer.splitlines() if line.startswith("- ")]

    tuned = run()
    assert "letters/escrow.pdf" in read(tuned) and _cited(tuned, "letters/escrow.pdf")
    assert bullets(run(lead_parts=1))  # what the one-unit first line leaves out follows it
    assert "letters/escrow.pdf" not in read(run(max_documents=1))  # the policy backtracks no more
    assert "letters/escrow.pdf" not in read(run(document_match=1.01))  # no title matches
    assert not bullets(run(support_statements=0))  # the first line alone


def _conversation(root: Path, turns: list[Turn], *, indexed: bool = False) -> Conversation:
    return Conversation(
        task="What is the purchase price for the shares?",
        root=str(root),
        system="",
        opening="",
        tools=[{"name": "semantic_search"}] if indexed else [],
        turns=turns,
        documents=FolderDocuments(Sandbox(root)),
    )


def _quiet(message: str) -> None:
    """A `notify` for calls made outside a run."""


def _scan() -> Turn:
    return Turn(
        Action.call("scan_folder", "Scan.", folder="."), "Scanned.", ToolOutcome("Scanned.")
    )


def test_refuses_a_conversation_without_documents(tmp_path: Path):
    convo = _conversation(tmp_path, [])
    convo.documents = None
    with pytest.raises(LLMError, match=r"has none \(Conversation\.documents\)"):
        OfflineLLM().next_action(convo, _quiet)


def test_the_search_lead_is_read_from_the_outcome_data_not_its_text(deal: Path):
    text = "[1] agreement.pdf, page 1 (score 9.0)"  # the prose names another document
    hits = (Hit("board_memo.pdf", page=1, score=2.0),)
    search = Turn(
        Action.call("semantic_search", "Search.", query="price"),
        text,
        ToolOutcome(text, payload=Hits(hits)),
    )
    step = OfflineLLM().next_action(_conversation(deal, [_scan(), search], indexed=True), _quiet)
    assert (step.action.tool, step.action.arguments()["path"]) == ("get_document", "board_memo.pdf")


def test_reads_are_known_by_their_range_their_cut_and_whether_they_worked(deal: Path):
    documents = FolderDocuments(Sandbox(deal))
    docs = {path: documents.document(path) for path in documents.paths()}

    def read(path: str, outcome: ToolOutcome, cut: int = 0, **args: int) -> Turn:
        return Turn(
            Action.call("parse_file", "Read.", path=path, **args), outcome.text, outcome, cut
        )

    shown = PageRead("agreement.pdf", offset=40, end=150, total=400)
    turns = [
        _scan(),
        read("./agreement.pdf", ToolOutcome("page", payload=shown), cut=50),
        read("board_memo.pdf", ToolOutcome.failure("the file went away")),
        read("notes.md", ToolOutcome("notes"), offset=5, limit=20),  # no data: the arguments
    ]
    progress = read_so_far(turns, docs)
    assert progress.ranges == {"agreement.pdf": [(40, 100)], "notes.md": [(5, 25)]}
    assert progress.failed == {"board_memo.pdf"} and progress.reads == 3


# -- the sample data --------------------------------------------------------------------------


def _single_questions() -> list[dict]:
    spec = DATA / "test_acquisition" / "questions.json"
    if not spec.exists():
        return []
    questions = json.loads(spec.read_text(encoding="utf-8"))["questions"]
    # paraphrases (`paraphrase_of`) are measured by bench/quality.py, not asserted here
    return [q for q in questions if q["level"] == "single" and "paraphrase_of" not in q]


@pytest.mark.parametrize("item", _single_questions(), ids=lambda q: q["id"])
def test_sample_single_questions_cite_their_source(item: dict):
    result = _explore(item["question"], DATA / "test_acquisition")
    cited = {c.path for c in result.citations if c.verified}
    for source in item["sources"]:
        assert source in cited, result.answer_with_sources()


def test_offline_exploration_uses_the_index_when_it_is_current(tmp_path: Path):
    from conftest import DATA

    from fsnb.index import Index

    db = tmp_path / "index.duckdb"
    Index(db).add_folder(DATA / "large_acquisition", progress=False)
    result = fsnb.explore(
        "Who is the CTO and what is their retention bonus?",
        folder=DATA / "large_acquisition",
        llm="offline",
        db=db,
    )
    tools = [s["tool"] for s in result.steps() if s["kind"] == "tool_call"]
    assert tools[:2] == ["scan_folder", "semantic_search"]
    assert "get_document" in tools and "parse_file" not in tools
    assert [s["phase"] for s in result.steps()][:2] == ["scan", "search"]
    assert "$1,200,000" in result.answer
    cited = {c.path for c in result.citations if c.verified}
    assert "07_employee_schedule.pdf" in cited or "19_retention_agreements.pdf" in cited
    assert all(c.verified for c in result.citations)

    plain = fsnb.explore(
        "Who is the CTO?", folder=DATA / "large_acquisition", llm="offline", db=db, use_index=False
    )
    assert "semantic_search" not in [s["tool"] for s in plain.steps()]


def test_a_document_is_named_by_its_folder_and_title(tmp_path: Path):
    """ "My receipt from Alder Street Hardware": the word "receipt" is in no document's
    text, only in the folder's name; the store's name is the receipt's title."""
    receipts = tmp_path / "home" / "Receipts"
    receipts.mkdir(parents=True)
    (receipts / "2024-03-02.txt").write_text(
        "ALDER STREET HARDWARE\nDate: 03/02/2024\nSubtotal: $84.43\nTax: $3.00\nTotal: $87.43\n"
    )
    (receipts / "2024-04-11.txt").write_text(
        "GREENWAY GARDEN CENTER\nDate: 04/11/2024\nSubtotal: $61.99\nTax: $3.00\nTotal: $64.99\n"
    )
    result = _explore(
        "What was the total on my receipt from Alder Street Hardware?", tmp_path / "home"
    )
    assert "$87.43" in result.answer.splitlines()[0]
    assert "$64.99" not in result.answer


@pytest.fixture
def handbooks(tmp_path: Path) -> Path:
    """The current handbook, an archived one and a draft, each with its own per diem."""
    root = tmp_path / "drive"
    (root / "HR" / "Archive").mkdir(parents=True)
    rates = {
        "HR/handbook_2024.md": "$74 per day",
        "HR/Archive/handbook_2021.md": "$65 per day",
        "HR/handbook_2025_DRAFT.md": "$80 per day",
    }
    for name, rate in rates.items():
        (root / name).write_text(
            f"# Staff handbook\n\nTravel. The meal per diem for out-of-state travel is {rate}.\n"
        )
    return root


def test_a_current_document_outranks_its_archived_and_draft_copies(handbooks: Path):
    result = _explore("What is the meal per diem for out-of-state travel?", handbooks)
    first = result.answer.split("\n")[0]
    assert "$74 per day" in first and "$65" not in first and "$80" not in first


def test_a_question_about_the_archived_copy_reads_it_first(handbooks: Path):
    result = _explore("What was the meal per diem in the archived handbook?", handbooks)
    assert "$65 per day" in result.answer.split("\n")[0]
