"""The evidence behind a citation: a PDF's cited page rendered with the quote highlighted
(pypdfium2, Pillow), a small crop of it for the static record, the passage of any other
document with its context, and notes (never exceptions) for what cannot be shown."""

from __future__ import annotations

import base64
import io
import shutil
from pathlib import Path

import pytest
from conftest import DATA
from PIL import Image, ImageStat

from fsnb.agent import ExplorationResult, Explorer
from fsnb.agent.citations import Citation
from fsnb.llm import get_llm
from fsnb.notebook import evidence
from fsnb.notebook.display import Rendering
from fsnb.notebook.evidence import find_quote, page_image, panel_evidence, record_images

CORPUS = DATA / "test_acquisition"
MIXED = DATA / "mixed"


@pytest.fixture(scope="module")
def run() -> ExplorationResult:
    """An offline run whose citations point into the corpus's PDFs."""
    result = Explorer(CORPUS, get_llm("offline")).run("What is the total purchase price?")
    assert result.ok and all(c.verified and c.path.endswith(".pdf") for c in result.citations)
    return result


@pytest.fixture(autouse=True)
def _fresh_cache():
    evidence._CACHE.clear()


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def _mean(image: Image.Image, box: tuple[int, int, int, int]) -> list[float]:
    return ImageStat.Stat(image.crop(box)).mean


def test_the_cited_page_is_rendered_with_the_quote_highlighted(run: ExplorationResult):
    import pypdfium2 as pdfium

    cite = run.citations[0].to_dict()
    shown = page_image(str(CORPUS), cite)
    assert shown is not None and shown.note == "" and shown.page == cite["page"]
    image = _image(shown.png)
    assert image.size == (shown.width, shown.height)
    pdf = pdfium.PdfDocument(CORPUS / cite["path"])
    width, height = pdf[cite["page"] - 1].get_size()
    pdf.close()
    assert abs(shown.width / shown.height - width / height) < 0.01  # the page's ratio
    x0, y0, x1, y1 = shown.box
    assert 0 <= x0 < x1 <= shown.width and 0 <= y0 < y1 <= shown.height
    assert 8 <= y1 - y0 < shown.height / 4  # a line or a few, not the page
    # the same page without a highlight: the quote's box is white there, yellow here
    plain = page_image(str(CORPUS), {**cite, "quote": "words that are not on this page at all"})
    assert plain is not None and plain.box is None and (plain.width, plain.height) == image.size
    marked, bare = _mean(image, shown.box), _mean(_image(plain.png), shown.box)
    assert marked[2] < bare[2] - 40  # less blue: yellow
    assert abs(marked[0] - bare[0]) < 25  # red stays: paper and ink keep their lightness
    assert "not found on page" in plain.note and "without a highlight" in plain.note
    # outside the box the page is the same
    assert abs(_mean(image, (0, 0, shown.width, 40))[2] - _mean(_image(plain.png), (0, 0, shown.width, 40))[2]) < 1  # fmt: skip
    assert shown.data_url().startswith("data:image/png;base64,")
    assert base64.b64decode(shown.data_url().partition(",")[2]) == shown.png


def test_the_records_crop_is_small_and_around_the_quote(run: ExplorationResult):
    for citation in run.citations:
        crop = page_image(str(CORPUS), citation.to_dict(), crop=True)
        assert crop is not None and crop.box is not None
        assert crop.width <= evidence.CROP_WIDTH and crop.height <= evidence.CROP_HEIGHT
        assert len(crop.png) < evidence.CROP_BYTES
        image = _image(crop.png)
        assert image.size == (crop.width, crop.height)
        x0, y0, x1, y1 = crop.box
        assert 0 <= x0 < x1 <= crop.width and 0 < y0 < y1 < crop.height  # lines above, below
        assert _mean(image, crop.box)[2] < 200  # highlighted


def test_a_quote_is_found_across_line_breaks_and_hyphenation():
    text = "The Purchase Price is adjust-\r\nable, as “provided”\r\nin Exhibit A."
    start, end = find_quote('adjustable, as "provided" in Exhibit A', text)
    assert text[start:end] == "adjust-\r\nable, as “provided”\r\nin Exhibit A"
    assert find_quote("Purchase\nPrice", text) == (4, 18)
    assert find_quote("nowhere to be seen", text) is None
    assert find_quote("—Q—", text) is None  # too short to look for loosely


def test_a_citation_without_a_page_is_looked_for_on_every_page(run: ExplorationResult):
    cite = {**run.citations[0].to_dict(), "page": None}
    shown = page_image(str(CORPUS), cite)
    assert shown is not None and shown.box is not None and shown.page == run.citations[0].page
    odd = page_image(str(CORPUS), {**run.citations[0].to_dict(), "page": 99})
    assert odd is not None and odd.box is not None and "page 99 is not in the file" in odd.note


def test_the_panel_gets_the_page_or_the_passage(run: ExplorationResult):
    reply = panel_evidence(str(CORPUS), run.citations[0].to_dict())
    page = reply["evidence"]
    assert page["image"].startswith("data:image/png;base64,") and page["box"]
    assert (page["width"], page["height"]) == Image.open(
        io.BytesIO(base64.b64decode(page["image"].partition(",")[2]))
    ).size
    assert "<mark>" in reply["passage_html"] and "note" not in reply
    # a DOCX and a Markdown file: the passage, the quote marked, no image
    for path, quote in [
        ("memos/integration_plan.docx", "Each workstream has one accountable lead"),
        ("notes/diligence_notes.md", "The Crawler robot depends on a single supplier"),
    ]:
        reply = panel_evidence(str(MIXED), {"id": 1, "path": path, "page": 1, "quote": quote})
        assert "evidence" not in reply and "note" not in reply
        assert f"<mark>{quote}</mark>" in reply["passage_html"]
        assert reply["before"] and reply["after"]


def test_what_cannot_be_shown_is_a_note(tmp_path: Path, run: ExplorationResult):
    folder = tmp_path / "corpus"
    folder.mkdir()
    shutil.copy(CORPUS / "07_nda.pdf", folder / "nda.pdf")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a PDF at all\n%%EOF\n")
    (tmp_path / "secret.pdf").write_bytes((CORPUS / "07_nda.pdf").read_bytes())
    quote = run.citations[0].quote
    cases = {
        "../secret.pdf": "outside the root folder",
        str(tmp_path / "secret.pdf"): "outside the root folder",
        "missing.pdf": "missing.pdf",
        "broken.pdf": "cannot read broken.pdf",
    }
    for path, why in cases.items():
        reply = panel_evidence(str(folder), {"id": 1, "path": path, "page": 1, "quote": quote})
        assert "evidence" not in reply and why in reply["note"], (path, reply)
        assert "\n" not in reply["note"] and str(folder) not in reply["note"]
        with pytest.raises(Exception, match=r"outside|missing|corrupt|no such"):
            page_image(str(folder), {"path": path, "page": 1, "quote": quote})
    nothing = panel_evidence(str(folder), {"id": 1, "path": "", "page": None, "quote": ""})
    assert nothing == {"note": "the citation names no file"}
    assert page_image(str(MIXED), {"path": "notes/diligence_notes.md", "quote": "x"}) is None


def test_the_record_carries_bounded_images_and_a_setting_turns_them_off(
    run: ExplorationResult, monkeypatch: pytest.MonkeyPatch
):
    images = record_images(str(CORPUS), run.citations)
    assert sorted(images) == [c.id for c in run.citations][: evidence.RECORD_IMAGES]
    html = Rendering(run.task, "corpus", "done", run, images=images).html()
    assert html.count('<img src="data:image/png;base64,') == len(images)
    assert f'alt="{" ".join(run.citations[0].quote.split())}"' in html
    assert Rendering(run.task, "corpus", "done", run).html().count("<img") == 0
    # unverified and non-PDF citations get none; the byte budget holds
    odd = [Citation(9, "07_nda.pdf", 1, "x", False, "no"), Citation(8, "notes.md", 1, "x", True)]
    assert record_images(str(CORPUS), odd) == {}
    monkeypatch.setattr(evidence, "RECORD_BYTES", len(images[run.citations[0].id].png))
    assert list(record_images(str(CORPUS), run.citations)) == [run.citations[0].id]
    monkeypatch.setattr(evidence, "RECORD_IMAGES", 0)
    assert record_images(str(CORPUS), run.citations) == {}
    # the setting, and the environment for scripts
    assert evidence.images_enabled() and not evidence.images_enabled(False)
    for off in ("0", "false", "off"):
        monkeypatch.setenv(evidence.ENV, off)
        assert not evidence.images_enabled(True) and not evidence.images_enabled()


def test_the_panel_record_follows_the_setting(folder: Path, monkeypatch: pytest.MonkeyPatch):
    from fsnb.notebook.widget import ExplorePanel

    def html(**traits) -> str:
        panel = ExplorePanel(**traits)
        panel.attach(Explorer(folder, get_llm("offline")), "What is the purchase price?")
        panel.wait(60)
        return panel.record()[0]["text/html"]

    assert '<img src="data:image/png;base64,' in html()
    assert "<img" not in html(evidence_images=False)
    monkeypatch.setenv(evidence.ENV, "0")
    assert "<img" not in html(evidence_images=True)


def test_escaped_pipes_leave_quotes_shown_outside_tables():
    cite = Citation(1, "plan.docx", 1, "| Engineering | Priya \\| Raman | $1,150,000 |", True)
    result = ExplorationResult("q", "/x", "Budget: $1,150,000 [1]", [cite], run_usage())
    rendering = Rendering("q", "x", "done", result)
    html, text, markdown = rendering.html(), rendering.text(), rendering.markdown()
    assert "\\|" not in html and "<td>| Engineering | Priya | Raman | $1,150,000 |</td>" in html
    assert "\\|" not in text and '"| Engineering | Priya | Raman | $1,150,000 |"' in text
    # in the Markdown table each pipe is escaped once, as the table needs
    row = "| [1] | plan.docx | 1 | \\| Engineering \\| Priya \\| Raman \\| $1,150,000 \\| | yes |"
    assert row in markdown


def run_usage():
    from fsnb.agent.usage import Usage

    return Usage()
