"""Sample documents of every format the light readers read, beyond those under data/:
what Word, PowerPoint, Excel and the web write often (headings, lists, tables, merged
cells, notes, several sheets, entities, emphasis). Built with python-docx, python-pptx and
openpyxl (the libraries data/_gen uses)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

WORDS = (
    "escrow closing indemnity warranty diligence covenant earn-out retention consent "
    "lease renewal supplier revenue margin payroll integration"
).split()


def _sentence(n: int, length: int = 14) -> str:
    words = [WORDS[(n * 7 + i * 3) % len(WORDS)] for i in range(length)]
    return " ".join(words).capitalize() + f" ({n})."


def docx_rich(path: Path) -> Path:
    from docx import Document
    from docx.enum.text import WD_BREAK

    doc = Document()
    doc.add_heading("Asset Purchase Memo", 0)
    doc.add_paragraph(
        "This memo & its schedule cover the <escrow> terms of the deal_2025 file; see section 3."
    )
    doc.add_heading("Parties", 1)
    para = doc.add_paragraph("The buyer is ")
    para.add_run("Northwind Analytics").bold = True
    para.add_run(" and the seller is ")
    para.add_run("Bluefin Robotics").italic = True
    para.add_run(", both Delaware companies.")
    doc.add_heading("Key terms", 2)
    for text in ("Price of $62 million", "Escrow of 10%", "Closing on July 31"):
        doc.add_paragraph(text, style="List Bullet")
    doc.add_paragraph("Nested detail one", style="List Bullet 2")
    doc.add_paragraph("Back at the top level", style="List Bullet")
    doc.add_paragraph("After the list, a plain paragraph.")
    for text in ("First step", "Second step", "Third step"):
        doc.add_paragraph(text, style="List Number")
    doc.add_heading("Schedule", 3)
    table = doc.add_table(rows=4, cols=3)
    rows = [
        ("Item", "Amount", "Due"),
        ("Deposit", "1,000", "June 1"),
        ("Balance", "61,000,000", "July 31"),
        ("Total", "", ""),
    ]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    merged = table.cell(3, 1).merge(table.cell(3, 2))
    merged.text = "62,001,000"
    doc.add_paragraph("")
    run = doc.add_paragraph("Text before a page break.").add_run()
    run.add_break(WD_BREAK.PAGE)
    doc.add_paragraph("Text after the page break.")
    doc.add_heading("Signatures", 1)
    doc.add_paragraph("Signed by A. Buyer\nand B. Seller on separate lines.")
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    return path


def docx_long(path: Path) -> Path:
    from docx import Document

    doc = Document()
    doc.add_heading("Long Report", 0)
    for n in range(40):
        if n % 10 == 0:
            doc.add_heading(f"Part {n // 10 + 1}", 1)
        doc.add_paragraph(_sentence(n, 30))
    table = doc.add_table(rows=120, cols=3)
    for r in range(120):
        for c in range(3):
            table.cell(r, c).text = f"r{r}c{c}" if r else f"Column {c}"
    doc.add_paragraph("The end.")
    doc.save(path)
    return path


def pptx_rich(path: Path) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[0])
    slide.shapes.title.text = "Quarterly Review"
    slide.placeholders[1].text = "Prepared for the board & investors"
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = "Highlights"
    body = slide.placeholders[1].text_frame
    body.text = "Revenue up 12%"
    for text, level in (("Europe led growth", 1), ("Asia flat", 1), ("Margin at 61%", 0)):
        para = body.add_paragraph()
        para.text, para.level = text, level
    slide.notes_slide.notes_text_frame.text = "Mention the one-off gain."
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Numbers"
    shape = slide.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(2))
    for r, row in enumerate(
        [("Region", "Q1", "Q2"), ("Europe", "4.1", "4.6"), ("Asia", "2.0", "2.0")]
    ):
        for c, value in enumerate(row):
            shape.table.cell(r, c).text = value
    box = slide.shapes.add_textbox(Inches(1), Inches(5), Inches(6), Inches(1))
    box.text_frame.text = "Figures in millions of dollars."
    prs.slides.add_slide(prs.slide_layouts[6])  # an empty slide
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = "Next steps"
    slide.placeholders[1].text = "Close the deal_room by Friday"
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)
    return path


def xlsx_rich(path: Path) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    sheet = wb.active
    sheet.title = "Budget"
    sheet.append(["Line", "Amount", "Share", "Date"])
    sheet.append(["Salaries", 120000, 0.55, dt.date(2025, 1, 31)])
    sheet.append(["Rent", 45000.5, 0.2, dt.date(2025, 2, 28)])
    sheet.append(["Travel", None, 0.05, None])
    sheet.append([])
    sheet.append([])
    sheet.append(["Notes", "Reviewed by finance"])
    sheet["F2"] = "Side table"
    sheet["F3"] = "left alone"
    sheet.merge_cells("A10:C10")
    sheet["A10"] = "Merged heading over three columns"
    sheet["A11"], sheet["B11"], sheet["C11"] = "a", "b", "c"
    wb.create_sheet("Empty")
    other = wb.create_sheet("Staff")
    for row in [("Name", "Team", "Start"), ("Ana", "Sales", 2019), ("Bo", "R&D", 2021)]:
        other.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def xlsx_long(path: Path) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    sheet = wb.active
    sheet.title = "Ledger"
    sheet.append(["Id", "Account", "Amount", "Memo"])
    for n in range(1, 2000):
        sheet.append([n, f"ACC-{n % 37:03d}", round(n * 13.37, 2), _sentence(n, 4)])
    wb.save(path)
    return path


HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Head title only</title>
<style>p { color: red; }</style><script>var x = "<p>not text</p>";</script></head>
<body>
<nav><a href="/">Home</a></nav>
<h1>Annual &amp; Interim Report</h1>
<p>Intro with <b>bold</b>, <i>italic</i>, <a href="https://example.com/x_y">a link</a>
and <code>code_here</code>.<br>After a break.</p>
<div>Loose text in a div.</div>
<h2>Lists</h2>
<ul><li>One</li><li>Two<ul><li>Two point one</li></ul></li><li>Three</li></ul>
<ol start="3"><li>Third</li><li>Fourth</li></ol>
<h3>Table</h3>
<table><tr><th>Name</th><th>Value</th></tr>
<tr><td>Alpha</td><td>1.5</td></tr><tr><td colspan="2">Spanning cell</td></tr></table>
<pre>preformatted
  block</pre>
<p>Caf&eacute; na&iuml;ve &lt;tag&gt; snake_case_word.</p>
<img src="x.png" alt="A chart">
<footer>Copyright 2025</footer>
</body></html>
"""

MARKDOWN = """Setext Title
============

Intro with *emphasis*, __strong__, `code_span`, a [link](https://example.com/a_b)
and snake_case words & <angle> brackets.

Sub heading
-----------

* star item
* another item
    * nested item
+ plus item

3. third
4. fourth

> A quote
> over two lines.

```python
def f(x_y):
    return x_y
```

| A | B |
|---|--:|
| **bold** cell | 2 |
| plain | 10 |

---

<div>raw html block</div>

![an image](pic.png)

Last line with trailing spaces\x20\x20
and a hard break.
"""

CSV_SEMICOLON = 'name;amount;note\nAna;1,5;"said ""hi"""\nBo;2;\n\n"Cy";3;multi\n'
CSV_TAB = "\ufeffcol a\tcol b\n1\t2\n3\t4\n"
CSV_RAGGED = "a,b,c\n1,2\n3,4,5,6\n"
CSV_ONE_COLUMN = "header\nvalue one\nvalue two\n"


def build(root: Path) -> list[Path]:
    """Every sample under `root`; their paths."""
    root.mkdir(parents=True, exist_ok=True)
    files = [
        docx_rich(root / "rich.docx"),
        docx_long(root / "long.docx"),
        pptx_rich(root / "rich.pptx"),
        xlsx_rich(root / "rich.xlsx"),
        xlsx_long(root / "long.xlsx"),
    ]
    texts = {
        "page.html": HTML,
        "notes.md": MARKDOWN,
        "long.md": "\n\n".join(f"## Section {n}\n\n{_sentence(n, 40)}" for n in range(60)),
        "semicolon.csv": CSV_SEMICOLON,
        "tab.csv": CSV_TAB,
        "ragged.csv": CSV_RAGGED,
        "one.csv": CSV_ONE_COLUMN,
        "plain.txt": "Plain text\n\nwith *stars* and snake_case.\n",
    }
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
        files.append(root / name)
    return files


def _hyperlink(paragraph, text: str, url: str) -> None:
    """A w:hyperlink run in a python-docx paragraph."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    rid = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = text
    run.append(t)
    link.append(run)
    paragraph._p.append(link)


def docx_more(path: Path) -> Path:
    from docx import Document

    doc = Document()
    doc.add_paragraph("A memo without a title style, opening with body text.")
    para = doc.add_paragraph("See the ")
    _hyperlink(para, "data room", "https://example.com/room_1")
    para.add_run(" for the files; ")
    para.add_run("underlined").underline = True
    para.add_run(" and ")
    para.add_run("struck").font.strike = True
    para.add_run(" words.")
    doc.add_heading("Numbers", 1)
    for text in ("One", "Two"):
        doc.add_paragraph(text, style="List Number")
    doc.add_paragraph("Two point one", style="List Number 2")
    doc.add_paragraph("Three", style="List Number")
    table = doc.add_table(rows=3, cols=2)
    for r, row in enumerate([("Name", "Role"), ("Ana", "CFO"), ("Bo", "CEO")]):
        for c, value in enumerate(row):
            cell = table.cell(r, c)
            cell.text = ""
            run = cell.paragraphs[0].add_run(value)
            run.bold = r == 0
    table.cell(2, 1).add_paragraph("and founder")
    one = doc.add_table(rows=1, cols=1)
    one.cell(0, 0).text = "A one-cell table reads as text."
    doc.add_heading("Deep heading", 4)
    doc.add_paragraph("Quote", style="Intense Quote")
    doc.add_paragraph("Tab\tseparated\ttext.")
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    return path


def pptx_more(path: Path) -> Path:
    from pptx import Presentation
    from pptx.util import Inches, Pt

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = "Agenda"
    body = slide.placeholders[1].text_frame
    body.text = "Welcome"
    for text, level in (("Results", 0), ("By region", 1), ("By product", 2), ("Outlook", 0)):
        para = body.add_paragraph()
        para.text, para.level = text, level
    group = slide.shapes.add_group_shape()
    left = group.shapes.add_textbox(Inches(5), Inches(6), Inches(2), Inches(1))
    left.text_frame.text = "Right box"
    right = group.shapes.add_textbox(Inches(1), Inches(6), Inches(2), Inches(1))
    right.text_frame.text = "Left box"
    slide = prs.slides.add_slide(prs.slide_layouts[3])  # two content
    slide.shapes.title.text = "Compare"
    slide.placeholders[1].text = "Before: manual"
    slide.placeholders[2].text = "After: automated"
    hidden = prs.slides.add_slide(prs.slide_layouts[1])
    hidden.shapes.title.text = "Hidden slide"
    hidden._element.set("show", "0")
    hidden.notes_slide.notes_text_frame.text = "Notes of a hidden slide."
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(2))
    frame = box.text_frame
    frame.text = "Line one"
    frame.paragraphs[0].runs[0].font.size = Pt(20)
    para = frame.add_paragraph()
    para.text = "Indented second line"
    para.level = 1
    path.parent.mkdir(parents=True, exist_ok=True)
    prs.save(path)
    return path


def xlsx_more(path: Path) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    sheet = wb.active
    sheet.title = "Model"
    sheet["B2"] = "Quarter"
    sheet["C2"] = "Revenue"
    sheet["D2"] = "Growth"
    for n, (q, rev) in enumerate([("Q1", 100), ("Q2", 112.5), ("Q3", 130)], start=3):
        sheet[f"B{n}"], sheet[f"C{n}"] = q, rev
        sheet[f"D{n}"] = f"=C{n}/C{n - 1}-1" if n > 3 else None
    sheet["B7"] = True
    sheet["C7"] = dt.datetime(2025, 3, 1, 14, 30)
    sheet["C7"].number_format = "yyyy-mm-dd hh:mm"
    sheet["D7"] = 0.25
    sheet["D7"].number_format = "0%"
    sheet["B9"] = "Text with | pipe and\nnewline"
    hidden = wb.create_sheet("Hidden")
    hidden["A1"] = "secret"
    hidden.sheet_state = "hidden"
    wide = wb.create_sheet("Wide")
    wide.merge_cells("A1:A2")
    wide["A1"] = "Tall"
    wide["B1"], wide["B2"], wide["C1"], wide["C2"] = "x", "y", 1, 2
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


HTML_MORE = """<html><head><title>T</title></head><body>
<header><div class="logo">ACME Corp</div><nav><ul><li><a href="/a">About</a></li></ul></nav></header>
<main>
<h2>Report: <em>Q2</em> results</h2>
<p>Revenue rose <strong>12 %</strong>&nbsp;to $4.1&nbsp;million &mdash; a record.
Second line of the same paragraph.</p>
<div><span>Span text</span> and a <a href="https://example.com/x">link</a>.</div>
<section><h3>Table with row headers</h3>
<table><thead><tr><th>Item</th><th>Q1</th><th>Q2</th></tr></thead>
<tbody><tr><th>Sales</th><td>10</td><td>12</td></tr><tr><th>Costs</th><td>7</td><td>8</td></tr></tbody></table>
</section>
<dl><dt>Term</dt><dd>Definition of the term.</dd></dl>
<ol><li>First <b>bold</b> item</li><li>Second item<ol><li>Nested</li></ol></li></ol>
<p>A<br><br>paragraph split by two breaks.</p>
<blockquote><p>Quoted text.</p></blockquote>
<figure><img src="a.png" alt="ignored alt"><figcaption>Figure 1: a chart</figcaption></figure>
</main>
<footer><p>Footer text</p></footer>
</body></html>
"""

MARKDOWN_MORE = """# Title with `code` and *style*

1. First
   1. Nested first
   2. Nested second
2. Second with a [link](docs/guide.md "Guide") and <span>inline html</span>

- [ ] task open
- [x] task done

Paragraph with escaped \\*stars\\* and a line\x20\x20
break, then an autolink <https://example.com> and &copy; entity.

| Left | Center | Pipe \\| cell |
|:-----|:------:|-------------:|
| a_b  | `c|d`  | 3.5 |

    indented code block

### Third level

Final paragraph.
"""


def build_more(root: Path) -> list[Path]:
    """More samples: links, numbering, rich cells, groups, hidden parts, formulas."""
    root.mkdir(parents=True, exist_ok=True)
    files = [
        docx_more(root / "more.docx"),
        pptx_more(root / "more.pptx"),
        xlsx_more(root / "more.xlsx"),
    ]
    for name, text in (("more.html", HTML_MORE), ("more.md", MARKDOWN_MORE)):
        (root / name).write_text(text, encoding="utf-8")
        files.append(root / name)
    return files
