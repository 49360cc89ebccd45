"""Text as the documents have it: no HTML entities (`&amp;`, `&lt;`) from Docling's markdown
in parsed text and titles, in the index and its search results, or in answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import make_pdf

import fsnb
from fsnb.agent.answer_html import answer_html
from fsnb.cli import main as cli
from fsnb.documents import ParseCache, parse
from fsnb.index import Index

SAMPLE = 'R&D <Beta> "quoted"'
_ENTITY = re.compile(r"&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);")
#: A paragraph of the DOCX that has "&amp;" in its own text.
LITERAL = "In HTML an ampersand is written &amp; there."
BUDGETS = {
    "plan.docx": f"The budget for {SAMPLE} is $5 million & growing.",
    "plan.html": f"The budget for {SAMPLE} is $7 million & growing.",
    "plan.pdf": f"The budget for {SAMPLE} is $9 million & growing.",
}


def _entity(text: str) -> str | None:
    """The first HTML entity in `text` (the DOCX's literal one aside), or None."""
    found = _ENTITY.search(text.replace(LITERAL, ""))
    return found and found.group(0)


def _xml(text: str) -> str:
    """Text as HTML and reportlab's paragraph markup write it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same title and a budget sentence in a DOCX, an HTML page and a PDF; a deck."""
    from docx import Document as Docx
    from pptx import Presentation

    root = tmp_path_factory.mktemp("clean") / "corpus"
    root.mkdir()
    word = Docx()
    word.add_heading(SAMPLE, level=1)
    word.add_paragraph(BUDGETS["plan.docx"])
    word.add_paragraph(LITERAL)
    table = word.add_table(rows=1, cols=2)
    table._cells[0].text, table._cells[1].text = "A&B", "<x>"
    word.save(root / "plan.docx")
    (root / "plan.html").write_text(
        f"<html><body><h1>{_xml(SAMPLE)}</h1><p>{_xml(BUDGETS['plan.html'])}</p></body></html>"
    )
    make_pdf(root / "plan.pdf", [[_xml(BUDGETS["plan.pdf"])]], title=_xml(SAMPLE))
    deck = Presentation()
    for title, body in [(SAMPLE, "First slide"), ("Second & last", "The <end> & after")]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text, slide.placeholders[1].text = title, body
    deck.save(root / "deck.pptx")
    return root


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_parsed_text_and_title_have_the_characters(corpus: Path, name: str):
    doc = parse(corpus / name)
    assert doc.title == SAMPLE
    assert BUDGETS[name] in doc.text
    assert _entity(doc.text) is None
    assert doc.spans[-1].end == len(doc.text)
    assert BUDGETS[name] in doc.page_text(doc.page_at(doc.text.index(BUDGETS[name])))


def test_a_docx_table_and_a_literal_entity_are_kept_as_written(corpus: Path):
    doc = parse(corpus / "plan.docx")
    assert "| A&B" in doc.text and "<x>" in doc.text
    assert LITERAL in doc.text  # the document's own text, not unescaped


def test_page_spans_match_the_text(corpus: Path):
    doc = parse(corpus / "deck.pptx")
    assert doc.pages == 2 and _entity(doc.text) is None
    at = doc.text.index("The <end> & after")
    assert doc.page_at(at) == 2 and "Second & last" in doc.page_text(2)
    assert "The <end> & after" not in doc.page_text(1)


def test_entries_of_the_previous_parser_version_are_not_used(corpus: Path):
    """Caches filled by parser version 3 (with entities) are parsed again, not read."""
    file = corpus / "plan.html"
    cache = ParseCache()
    stale = {**parse(file, cache=False).to_dict(), "title": "R&amp;D &lt;Beta&gt;"}
    cache.put(cache.key(file, file.stat(), "3/native"), {"document": stale})
    assert parse(file, cache=cache).title == SAMPLE


def test_index_search_and_cli_show_the_characters(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "index.duckdb"
    index = Index(db)
    index.add_folder(corpus, progress=False)
    titles = index.sql("SELECT path, title FROM documents ORDER BY path", corpus)
    assert dict(zip(titles["path"], titles["title"], strict=True)) == {
        "deck.pptx": SAMPLE,
        **dict.fromkeys(BUDGETS, SAMPLE),
    }
    chunks = index.sql("SELECT string_agg(text, ' ') AS text FROM chunks", corpus)["text"][0]
    assert _entity(chunks) is None
    hits = index.search("budget Beta", folder=corpus, k=3)
    assert set(hits["path"]) == set(BUDGETS)
    for hit in hits.itertuples():
        shown = f"{hit.title} {hit.heading} {hit.text} {hit.highlights['snippet']}"
        assert "<Beta>" in hit.text and _entity(shown) is None, shown
    assert cli(["search", "budget Beta", "--folder", str(corpus), "--db", str(db)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # wide cells wrap when not a terminal
    assert "R&D <Beta>" in out and _entity(out) is None


def test_an_offline_answer_quotes_the_characters(corpus: Path):
    result = fsnb.explore("What is the budget for R&D <Beta>?", folder=corpus, llm="offline")
    assert result.error is None and result.citations
    quotes = " ".join(c.quote for c in result.citations)
    assert any(sentence in quotes for sentence in BUDGETS.values())
    assert SAMPLE in result.answer and _entity(result.answer) is None
    html = answer_html(result.answer)  # what the panel shows: escaped once, by the renderer
    assert "R&amp;D &lt;Beta&gt;" in html and "&amp;amp;" not in html and "&amp;lt;" not in html
