"""The document templates of the scale corpus (bench/scale_corpus.py), one per kind of
file the company keeps, in five formats.

Each template is a sampler (`sample_<kind>(rng)`: the values one document states, drawn
from the pools of bench/scale_text.py) and a writer (`write_<kind>(values, path)`: the
file, returning its page count and plain text). A planted document is a writer called on
fixed values; its distractors ("siblings") are the same writer on sampled values, so they
share its structure, wording and vocabulary and differ in the names and figures.

PDFs are rendered once with data/_gen/pdf.py (reportlab), padded to a drawn length with
data/_gen/filler.py's boilerplate and operations prose; office files are written
byte-stably with data/_gen/office.py. Output depends only on the values (`key`, the path in the
folder, seeds a PDF's padding), never on the folder size or where the folder is.
"""

from __future__ import annotations

import datetime as dt
import html
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scale_text import (
    CATEGORIES,
    CITIES,
    CODENAMES,
    COVERAGE,
    DEPOTS,
    DESKS,
    INSURERS,
    LAST,
    MONTHS,
    OWNER,
    REGIONS_LIST,
    STREETS,
    company,
    date,
    money,
    paragraph,
    person,
)

DATA = Path(__file__).resolve().parent.parent / "data"
sys.path.insert(0, str(DATA))

from _gen.filler import FillerContext, filler_sections  # noqa: E402
from _gen.office import save_office  # noqa: E402
from _gen.pdf import Block, PdfDoc, h, p, ul, write_pdf  # noqa: E402

V = dict[str, Any]
FIXED_DATE = dt.datetime(2025, 6, 1, 9, 0, 0)
OWNER_INC = f"{OWNER}, Inc."


# -- PDF ---------------------------------------------------------------------------------


def _padded(
    blocks: list[Block], v: V, *, noun: str, topics: tuple[str, ...], disclosure: bool
) -> list[Block]:
    """`blocks` with `v["sections"]` sections of boilerplate and operations prose before a
    trailing signature block: the first from data/_gen/filler.py, the rest prose, seeded by
    `v["key"]` (the document's path in the folder)."""
    rng = random.Random(v["key"])
    ctx = FillerContext(
        key=v["key"],
        noun=noun,
        topics=topics,
        refs=(f"the {noun} schedules", "the Master Services Agreement"),
        party=OWNER_INC,
        other=v.get("other", "the Counterparty"),
        date=v.get("date", "January 1, 2024"),
        disclosure=disclosure,
    )
    extra: list[Block] = []
    sections = filler_sections(ctx)
    for _ in range(v.get("sections", 2)):
        section = next(sections, None)
        if section is None:
            title = rng.choice(("Operating Notes", "Background", "Site Observations", "Annex"))
            section = [h(title), p(paragraph(rng, (4, 7))), p(paragraph(rng, (3, 6)))]
        extra += section
    at = next(
        (i for i, b in enumerate(blocks) if getattr(b, "text", "").startswith("SIGNATURE")),
        len(blocks),
    )
    return blocks[:at] + extra + blocks[at:]


def _write_pdf(path: Path, title: str, header: list[str], blocks: list[Block]) -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = PdfDoc(path.name, title, header, blocks, 1, 200, footer=f"{OWNER} - Internal")
    return write_pdf(doc, path.parent)


def sample_supply(rng: random.Random) -> V:
    code = rng.choice(CODENAMES)
    term = rng.choice((12, 24, 36, 48, 60))
    return {
        "code": code,
        "other": f"{company(rng)} GmbH",
        "product": rng.choice(
            (
                "insulator housings",
                "pallet collars",
                "door seals",
                "reefer fan blades",
                "strapping coils",
                "sensor brackets",
            )
        ),
        "term": term,
        "renewal": rng.choice((6, 12, 24)),
        "volume": f"{rng.randrange(4_000, 200_000, 500):,}",
        "price": f"${rng.randrange(150, 9_000) / 100:.2f}",
        "fixed": rng.choice((6, 12, 18, 24)),
        "damages": rng.choice((1, 2, 3, 5)),
        "date": date(rng, (2019, 2025)),
        "ref": f"OFS-SUP-{rng.randint(2019, 2025)}-{rng.randint(100, 9999):04d}",
        "hub": rng.choice(DEPOTS),
        "sections": rng.randint(2, 14),
    }


def write_supply(v: V, path: Path) -> tuple[int, str]:
    header = [
        f"{OWNER_INC} and {v['other']}",
        f"Effective date: {v['date']}",
        f"Contract reference: {v['ref']}",
    ]
    blocks: list[Block] = [
        h("1. Parties and Purpose"),
        p(f"""This Supply Agreement is made between {OWNER_INC} ("Orrin") and {v["other"]}
        (the "Supplier"). The Supplier will manufacture {v["product"]} for the refrigerated
        container fleet upgraded under Project {v["code"]}."""),
        h("2. Term"),
        p(f"""The term of this Agreement is {v["term"]} months from the effective date,
        renewable for one further period of {v["renewal"]} months by written notice."""),
        h("3. Volumes and Price"),
        p(f"""Orrin commits to a minimum annual volume of {v["volume"]} units. The unit price
        is {v["price"]} per unit, fixed for the first {v["fixed"]} months and then adjusted by
        the producer price index."""),
        h("4. Delivery"),
        p(f"""Deliveries are made DAP to Orrin's {v["hub"]} consolidation centre in full
        pallets, with an advance shipping notice sent 48 hours before arrival."""),
        h("5. Late Delivery"),
        p(f"""If a shipment is late, the Supplier pays liquidated damages of {v["damages"]}% of
        the shipment value for each week of delay, capped at 10% of that value."""),
        h("SIGNATURES"),
        p(f"For {OWNER_INC}: ______________________   For {v['other']}: ______________________"),
    ]
    blocks = _padded(
        blocks,
        v,
        noun="Agreement",
        disclosure=False,
        topics=(f"supply of {v['product']}", "quality inspections", "forecasts"),
    )
    return _write_pdf(path, f"SUPPLY AGREEMENT - PROJECT {v['code'].upper()}", header, blocks)


def sample_lease(rng: random.Random) -> V:
    rent = rng.randrange(6_000, 90_000, 250)
    start = rng.randint(2012, 2024)
    return {
        "number": rng.randint(2, 240),
        "street": f"{rng.choice(STREETS)} {rng.choice(('Street', 'Road', 'Lane', 'Way'))}",
        "city": rng.choice(CITIES),
        "other": f"{rng.choice(LAST)} & {rng.choice(LAST)} Properties Ltd",
        "rent": f"${rent:,}",
        "start": f"{rng.choice(MONTHS)} 1, {start}",
        "end": f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {start + rng.choice((5, 7, 10, 15))}",
        "deposit": f"${rent * rng.choice((2, 3, 6)):,}",
        "area": f"{rng.randrange(20_000, 400_000, 500):,}",
        "date": date(rng, (2012, 2024)),
        "sections": rng.randint(3, 15),
    }


def write_lease(v: V, path: Path) -> tuple[int, str]:
    place = f"{v['number']} {v['street']}, {v['city']}"
    header = [f"{v['other']} (Landlord) and {OWNER_INC} (Tenant)", f"Premises: {place}"]
    blocks: list[Block] = [
        h("1. Premises"),
        p(f"""The Landlord lets to the Tenant the warehouse at {place}, with a gross internal
        area of {v["area"]} square feet, the yard and 40 trailer parking spaces."""),
        h("2. Term"),
        p(f"""The lease term begins on {v["start"]} and the lease expires on {v["end"]}, unless
        ended earlier under clause 9."""),
        h("3. Rent"),
        p(f"""The monthly rent is {v["rent"]}, payable in advance on the first day of each
        month, and is reviewed every five years to the open market rent."""),
        h("4. Security Deposit"),
        p(f"""The Tenant shall pay a security deposit of {v["deposit"]} on signing, held in a
        separate account and returned within 60 days after the lease ends."""),
        h("SIGNATURES"),
        p(f"Signed for the Landlord, {v['other']}, and for the Tenant, {OWNER_INC}."),
    ]
    blocks = _padded(
        blocks,
        v,
        noun="Lease",
        disclosure=False,
        topics=("the premises", "repairs and insurance", "service charges"),
    )
    return _write_pdf(path, f"LEASE AGREEMENT - {v['street'].upper()} WAREHOUSE", header, blocks)


def sample_audit(rng: random.Random) -> V:
    year = rng.randint(2020, 2025)
    quarter = rng.randint(1, 4)
    return {
        "depot": rng.choice(DEPOTS),
        "quarter": quarter,
        "year": year,
        "count_date": f"{MONTHS[quarter * 3 - 1]} {rng.randint(20, 28)}, {year}",
        "units": f"{rng.randint(40, 5_000):,}",
        "lead": person(rng),
        "skus": f"{rng.randrange(2_000, 30_000, 10):,}",
        "cause": rng.choice(
            (
                "unrecorded returns",
                "mis-picks on the night shift",
                "labels swapped at receiving",
                "a scanner sync fault",
            )
        ),
        "other": "the Audit Committee",
        "date": f"{MONTHS[min(11, quarter * 3)]} 10, {year}",
        "sections": rng.randint(1, 10),
    }


def write_audit(v: V, path: Path) -> tuple[int, str]:
    period = f"Q{v['quarter']} {v['year']}"
    header = [f"Prepared by: {v['lead']}, Internal Audit Lead", f"Date: {v['date']}"]
    blocks: list[Block] = [
        h("Summary"),
        p(f"""The audit was led by {v["lead"]}. The physical count at the {v["depot"]} depot on
        {v["count_date"]} covered {v["skus"]} SKUs and found a discrepancy of {v["units"]}
        units against the warehouse management system."""),
        h("Causes"),
        p(f"""Most of the difference traces to {v["cause"]}. The remainder is spread across
        slow-moving lines with no single cause."""),
        h("Recommendations"),
        ul(
            "Reconcile returns daily, not weekly.",
            "Re-train the night shift on scan-to-pick.",
            "Repeat the count of high-value lines within 30 days.",
        ),
    ]
    blocks = _padded(
        blocks,
        v,
        noun="Memo",
        disclosure=True,
        topics=("inventory records", "stock adjustments", "warehouse controls"),
    )
    title = f"INTERNAL AUDIT MEMO - {period} INVENTORY COUNT, {v['depot'].upper()} DEPOT"
    return _write_pdf(path, title, header, blocks)


def sample_insurance(rng: random.Random) -> V:
    year = rng.randint(2019, 2025)
    return {
        "line": rng.choice(COVERAGE),
        "insurer": rng.choice(INSURERS),
        "limit": f"${rng.choice((1, 2, 5, 10, 15, 20, 50)) * 1_000_000:,}",
        "policy": f"{rng.choice('ABCDEFGHJK')}{rng.choice('LMNPR')}-{rng.randint(10000, 99999)}",
        "year": year,
        "deductible": money(rng, 5_000, 100_000, 5_000),
        "sections": rng.randint(0, 3),
    }


def write_insurance(v: V, path: Path) -> tuple[int, str]:
    header = [
        f"Insured: {OWNER_INC}",
        f"Policy period: January 1, {v['year']} to December 31, {v['year']}",
    ]
    blocks: list[Block] = [
        h("Coverage"),
        p(f"""This certificate confirms that {v["insurer"]} Insurance Company insures
        {OWNER_INC} for {v["line"]} under policy number {v["policy"]}."""),
        p(f"""Limit of liability: {v["limit"]} per occurrence. Deductible: {v["deductible"]}
        per claim."""),
        h("Conditions"),
        p("""This certificate is issued as a matter of information only and confers no rights
        upon the holder. It does not amend, extend or alter the coverage of the policy."""),
    ]
    blocks = _padded(
        blocks,
        v,
        noun="Certificate",
        disclosure=True,
        topics=("insured risks", "claims notification"),
    )
    return _write_pdf(path, f"CERTIFICATE OF INSURANCE - {v['line'].upper()}", header, blocks)


def sample_report(rng: random.Random) -> V:
    return {
        "region": rng.choice(REGIONS_LIST),
        "quarter": rng.randint(1, 4),
        "year": rng.randint(2019, 2025),
        "depots": rng.sample(DEPOTS, rng.randint(3, 9)),
        "seed": rng.random(),
    }


def write_report(v: V, path: Path) -> tuple[int, str]:
    """A long operations report (distractors only): a section per depot."""
    rng = random.Random(v["seed"])
    header = [f"{v['region']} region - Q{v['quarter']} {v['year']}", "Operations Review"]
    blocks: list[Block] = [h("Overview"), p(paragraph(rng, (4, 8)))]
    for depot in v["depots"]:
        blocks += [h(f"{depot} depot")] + [p(paragraph(rng, (4, 8))) for _ in range(3)]
    title = f"QUARTERLY OPERATIONS REPORT - {v['region'].upper()} REGION"
    return _write_pdf(path, title, header, blocks)


# -- DOCX --------------------------------------------------------------------------------


def _docx(path: Path, title: str, parts: list[tuple[str, str]], table: list[tuple[str, ...]]):
    from docx import Document

    doc = Document()
    props = doc.core_properties
    props.author = props.last_modified_by = OWNER
    props.title = title
    props.created = props.modified = FIXED_DATE
    props.revision = 1
    doc.add_heading(title, 0)
    texts = [title]
    for heading, body in parts:
        if heading:
            doc.add_heading(heading, 1)
        doc.add_paragraph(body)
        texts += [heading, body]
    if table:
        grid = doc.add_table(rows=len(table), cols=len(table[0]))
        grid.style = "Table Grid"
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
            texts.append(" | ".join(row))
    path.parent.mkdir(parents=True, exist_ok=True)
    save_office(doc, path)
    return 0, "\n".join(texts)


def sample_minutes(rng: random.Random) -> V:
    year = rng.randint(2020, 2025)
    return {
        "code": rng.choice(CODENAMES),
        "meeting": f"{rng.randint(1, 28)} {rng.choice(MONTHS)} {year}",
        "chair": person(rng),
        "golive": f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {year + rng.randint(0, 1)}",
        "increase": money(rng, 20_000, 900_000, 5_000),
        "reason": rng.choice(
            (
                "the supplier's tooling delay",
                "a customs classification review",
                "late delivery of the racking",
                "a change in scope",
            )
        ),
        "attendees": [person(rng) for _ in range(rng.randint(3, 7))],
        "seed": rng.random(),
    }


def write_minutes(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    title = f"Project {v['code']} Steering Committee - Minutes of {v['meeting']}"
    parts = [
        ("Attendance", f"Chair: {v['chair']}. Present: {', '.join(v['attendees'])}."),
        ("Progress", paragraph(rng, (3, 6))),
        (
            "Decisions",
            f"The committee moved the go-live date of Project {v['code']} to {v['golive']}, "
            f"after {v['reason']}. The committee approved a budget increase of {v['increase']} "
            f"for additional container retrofits. {v['chair']} owns the revised go-live plan.",
        ),
        ("Other business", paragraph(rng, (2, 5))),
    ]
    actions = [("Action", "Owner", "Due")]
    for name in v["attendees"][:4]:
        actions.append(
            (
                rng.choice(
                    (
                        "Update the risk log",
                        "Confirm supplier dates",
                        "Circulate the cost report",
                        "Book the site visit",
                    )
                ),
                name,
                date(rng, (2020, 2025)),
            )
        )
    return _docx(path, title, parts, actions)


def sample_relocation(rng: random.Random) -> V:
    depot, target = rng.sample(DEPOTS, 2)
    return {
        "depot": depot,
        "target": target,
        "cost": f"${rng.randint(3, 60) * 50_000:,}",
        "done": date(rng, (2021, 2026)),
        "author": person(rng),
        "seed": rng.random(),
    }


def write_relocation(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    parts = [
        ("", f"From: {v['author']}, Network Planning. To: Executive Committee."),
        (
            "Proposal",
            f"The {v['depot']} depot will relocate to a new hub in {v['target']}. "
            f"The estimated moving cost is {v['cost']}, including racking and IT. The move is to "
            f"be completed by {v['done']}.",
        ),
        ("Rationale", paragraph(rng, (3, 6))),
        ("Staff", paragraph(rng, (2, 4))),
        ("Risks", paragraph(rng, (2, 5))),
    ]
    return _docx(path, f"Memo: Relocation of the {v['depot']} depot", parts, [])


def sample_policy(rng: random.Random) -> V:
    return {
        "topic": rng.choice(
            (
                "Travel and Expenses",
                "Fleet Safety",
                "Data Retention",
                "Procurement",
                "Remote Work",
                "Visitor Access",
            )
        ),
        "version": f"{rng.randint(1, 6)}.{rng.randint(0, 9)}",
        "seed": rng.random(),
    }


def write_policy(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    parts = [
        (
            f"{n}. {rng.choice(('Scope', 'Rules', 'Approvals', 'Exceptions', 'Review'))}",
            paragraph(rng, (3, 7)),
        )
        for n in range(1, rng.randint(4, 12))
    ]
    return _docx(path, f"{v['topic']} Policy (version {v['version']})", parts, [])


# -- XLSX --------------------------------------------------------------------------------


def _xlsx(path: Path, sheet: str, rows: list[tuple[Any, ...]], money_col: int | None):
    from openpyxl import Workbook

    wb = Workbook()
    wb.properties.creator = OWNER
    wb.properties.created = wb.properties.modified = FIXED_DATE
    ws = wb.active
    ws.title = sheet
    for row in rows:
        ws.append(row)
    if money_col is not None:
        for (cell,) in ws.iter_rows(min_row=2, min_col=money_col + 1, max_col=money_col + 1):
            cell.number_format = "#,##0.00"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_office(wb, path)
    return 0, "\n".join(" | ".join(str(c) for c in row) for row in rows)


LEDGER_HEADER = ("Date", "Project", "Category", "Vendor", "Amount (USD)")


def sample_ledger(rng: random.Random) -> V:
    year = rng.randint(2019, 2025)
    projects = rng.sample(CODENAMES, rng.randint(3, 8))
    rows = [ledger_row(rng, year, rng.choice(projects)) for _ in range(rng.randint(20, 260))]
    return {"year": year, "rows": sorted(rows)}


def ledger_row(rng: random.Random, year: int, project: str) -> tuple[Any, ...]:
    day = dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))
    amount = rng.randrange(8_000, 4_000_000) / 100
    return (day.isoformat(), project, rng.choice(CATEGORIES), company(rng), amount)


def write_ledger(v: V, path: Path) -> tuple[int, str]:
    return _xlsx(path, f"FY{v['year']} expenses", [LEDGER_HEADER, *v["rows"]], 4)


HEADCOUNT_HEADER = ("Site", "Region", "Headcount", "Site manager")


def sample_headcount(rng: random.Random) -> V:
    regions = rng.sample(REGIONS_LIST, rng.randint(2, 5))
    sites = rng.sample(DEPOTS, rng.randint(8, 40))
    rows = [(s, rng.choice(regions), rng.randint(12, 480), person(rng)) for s in sites]
    return {"month": f"{rng.choice(MONTHS)} {rng.randint(2019, 2025)}", "rows": rows}


def write_headcount(v: V, path: Path) -> tuple[int, str]:
    return _xlsx(path, "Headcount", [HEADCOUNT_HEADER, *v["rows"]], None)


# -- HTML --------------------------------------------------------------------------------

_NAV = ("Home", "News", "Services", "Network", "Careers", "Investors", "Contact")


def _page(path: Path, title: str, body: str) -> tuple[int, str]:
    nav = "".join(f'<li><a href="/{n.lower()}">{n}</a></li>' for n in _NAV)
    text = (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n<nav><ul>{nav}</ul></nav>\n"
        f"<article>\n<h1>{html.escape(title)}</h1>\n{body}\n</article>\n"
        f"<footer><p>&copy; {OWNER}. All rights reserved.</p></footer>\n</body>\n</html>\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0, text


def sample_press(rng: random.Random) -> V:
    return {
        "city": rng.choice(DEPOTS),
        "jobs": rng.randint(20, 600),
        "opens": date(rng, (2020, 2026)),
        "speaker": person(rng),
        "role": rng.choice(("chief operating officer", "regional managing director", "CFO")),
        "area": f"{rng.randrange(10_000, 90_000, 500):,}",
        "seed": rng.random(),
    }


def write_press(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    title = f"{OWNER} opens {v['city']} logistics hub"
    body = (
        f"<p><em>{html.escape(v['city'])} - press release</em></p>\n"
        f"<p>{OWNER} today announced that its new {v['city']} logistics hub opens on "
        f"{v['opens']}. The hub will create {v['jobs']} jobs and adds {v['area']} square metres "
        f"of cross-dock space to the network.</p>\n"
        f'<blockquote>"The {v["city"]} hub brings our customers closer to their markets," said '
        f"{v['speaker']}, {v['role']} of {OWNER}.</blockquote>\n"
        f"<h2>About the network</h2>\n<p>{html.escape(paragraph(rng, (3, 6)))}</p>\n"
        f"<p>Media contact: press@orrin.example</p>"
    )
    return _page(path, title, body)


def sample_desk(rng: random.Random) -> V:
    return {
        "desk": rng.choice(DESKS),
        "ext": rng.randint(1000, 9999),
        "open": rng.randint(6, 9),
        "close": rng.randint(16, 20),
        "lead": person(rng),
        "seed": rng.random(),
    }


def write_desk(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    title = f"{v['desk']} service desk"
    body = (
        f"<p>The {v['desk']} service desk is open from {v['open']}:00 to {v['close']}:00 CET "
        f"on weekdays. Call extension {v['ext']} or raise a ticket on the intranet.</p>\n"
        f"<h2>Before you call</h2>\n<ul><li>Have your employee number ready.</li>"
        f"<li>Urgent out-of-hours issues go to the duty manager.</li></ul>\n"
        f"<p>Desk lead: {v['lead']}.</p>\n<p>{html.escape(paragraph(rng, (2, 5)))}</p>"
    )
    return _page(path, title, body)


# -- Markdown ----------------------------------------------------------------------------


def _markdown(path: Path, text: str) -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0, text


def sample_risks(rng: random.Random) -> V:
    return {
        "code": rng.choice(CODENAMES),
        "top": company(rng),
        "owner": person(rng),
        "updated": date(rng, (2020, 2025)),
        "seed": rng.random(),
    }


RISKS = ("Supplier capacity", "Customs delay", "Labour shortage", "IT cut-over", "Budget overrun")


def write_risks(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    rows = "\n".join(
        f"| R{n} | {rng.choice(RISKS)} | {rng.choice(('High', 'Medium', 'Low'))} | {person(rng)} |"
        for n in range(2, rng.randint(4, 10))
    )
    text = (
        f"# Project {v['code']} - Risk Register\n\nLast updated {v['updated']}. "
        f"Owner: {v['owner']}.\n\n## Top risk\n\nThe top risk is the single kiln supplier, "
        f"{v['top']}, which fires every part for the project; a second source is being "
        f"qualified.\n\n## Register\n\n| ID | Risk | Rating | Owner |\n|----|------|--------|"
        f"-------|\n| R1 | Single supplier: {v['top']} | High | {v['owner']} |\n{rows}\n\n"
        f"## Notes\n\n{paragraph(rng, (3, 6))}\n"
    )
    return _markdown(path, text)


def sample_digest(rng: random.Random) -> V:
    mentions = rng.random() < 0.3  # names a planted project or depot in passing
    return {
        "week": rng.randint(1, 52),
        "year": rng.randint(2020, 2025),
        "mentions": mentions,
        "seed": rng.random(),
    }


def write_digest(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    items = [
        f"- Project {c}: {rng.choice(('on track', 'at risk', 'waiting on supplier'))}."
        for c in rng.sample(CODENAMES, rng.randint(3, 8))
    ]
    if v["mentions"]:
        items.insert(rng.randrange(len(items) + 1), rng.choice(MENTIONS))
    sections = "\n\n".join(
        f"## {rng.choice(('Network', 'Safety', 'People', 'Customers', 'Finance'))}\n\n"
        f"{paragraph(rng, (3, 7))}"
        for _ in range(rng.randint(2, 6))
    )
    text = (
        f"# Operations digest - week {v['week']}, {v['year']}\n\n## Projects\n\n"
        + "\n".join(items)
        + f"\n\n{sections}\n"
    )
    return _markdown(path, text)


def sample_notes(rng: random.Random) -> V:
    return {
        "topic": rng.choice(
            (
                "carrier review",
                "site visit",
                "budget call",
                "tender prep",
                "customer QBR",
                "IT sync",
            )
        ),
        "day": date(rng),
        "seed": rng.random(),
    }


def write_notes(v: V, path: Path) -> tuple[int, str]:
    rng = random.Random(v["seed"])
    bullets = "\n".join(f"- {sentence}" for sentence in paragraph(rng, (4, 12)).split(". "))
    text = f"# Notes: {v['topic']} ({v['day']})\n\n{bullets}\n\n{paragraph(rng, (2, 6))}\n"
    return _markdown(path, text)


#: Passing mentions of planted names in digests: noise that names them, no planted fact.
MENTIONS = (
    "- Project Tamarind: steering committee papers circulated.",
    "- The Ravenna depot team completed its annual fire drill.",
    "- Kilbride Street warehouse: yard resurfacing booked for the spring.",
    "- Veldt Ceramics visited the Linz consolidation centre.",
)

Template = tuple[Callable[[random.Random], V], Callable[[V, Path], tuple[int, str]]]
TEMPLATES: dict[str, Template] = {
    "supply": (sample_supply, write_supply),
    "lease": (sample_lease, write_lease),
    "audit": (sample_audit, write_audit),
    "insurance": (sample_insurance, write_insurance),
    "report": (sample_report, write_report),
    "minutes": (sample_minutes, write_minutes),
    "relocation": (sample_relocation, write_relocation),
    "policy": (sample_policy, write_policy),
    "ledger": (sample_ledger, write_ledger),
    "headcount": (sample_headcount, write_headcount),
    "press": (sample_press, write_press),
    "desk": (sample_desk, write_desk),
    "risks": (sample_risks, write_risks),
    "digest": (sample_digest, write_digest),
    "notes": (sample_notes, write_notes),
}
