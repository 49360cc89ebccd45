"""The offline backend answers "across all X" questions about one labelled value in
several documents of the same kind: it collects the value of each into a scratchpad table
with its provenance, computes the figure in SQL, and quotes every value."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_pdf

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.db.scratchpad import Scratchpad
from fsnb.documents.model import Document, PageSpan
from fsnb.offline.sameness import read_value, sameness_question

INCOME = "What was my total 1099-NEC income for 2024, across all clients?"
TABLE = "nonemployee_compensation_by_document"


def _markdown_form(payer: str, amount: str, year: int = 2024) -> str:
    return (
        f"# Form 1099-NEC Nonemployee Compensation\n\nTax year {year}\n\n"
        f"PAYER'S name: {payer}\nRECIPIENT'S name: Jordan Lee\n\n"
        "| Box | Description | Amount |\n|---|---|---|\n"
        f"| 1 | Nonemployee compensation | {amount} |\n"
        "| 4 | Federal income tax withheld | $0.00 |\n"
    )


def _text_form(payer: str, amount: str) -> str:
    return (
        "FORM 1099-NEC (Nonemployee Compensation), tax year 2024\n"
        f"Payer: {payer}\nRecipient: Jordan Lee\n"
        f"Box 1 Nonemployee compensation: {amount}\n"
        "Box 4 Federal income tax withheld: $150.00\n"
    )


@pytest.fixture
def forms(tmp_path: Path) -> Path:
    """Three 2024 forms of one kind (markdown, text, PDF), a 2023 one and a note."""
    root = tmp_path / "taxes"
    root.mkdir()
    (root / "1099-NEC_acme.md").write_text(_markdown_form("Acme Design LLC", "$8,400.00"))
    (root / "1099-NEC_globex.txt").write_text(_text_form("Globex Corporation", "$12,250.50"))
    make_pdf(
        root / "1099-NEC_initech.pdf",
        [["Tax year 2024", "PAYER'S name: Initech Inc", "RECIPIENT'S name: Jordan Lee",
          "1 Nonemployee compensation $3,100.00", "4 Federal income tax withheld $0.00"]],
        title="Form 1099-NEC Nonemployee Compensation",
    )  # fmt: skip
    (root / "1099-NEC_acme_2023.md").write_text(
        _markdown_form("Acme Design LLC", "$5,000.00", 2023)
    )
    (root / "notes.md").write_text(
        "# Freelance notes\n\nI invoice my clients monthly; my rate is $95 per hour.\n"
    )
    return root


def _explore(question: str, folder: Path, db: Path) -> ExplorationResult:
    result = fsnb.explore(question, folder=folder, llm="offline", db=db)
    assert result.ok, result.error
    return result


def _tools(result: ExplorationResult) -> list[str]:
    return [s["tool"] for s in result.steps() if s.get("tool")]


@pytest.mark.parametrize(
    ("question", "func", "words", "years"),
    [
        (INCOME, "sum", ("nec", "incom"), (2024,)),
        (
            "What were the total interest charges across all my 2025 statements?",
            "sum",
            ("interest",),  # "charges" is left out: a verb of paying, not the label
            (2025,),
        ),
        (
            "How much did I pay in total across all twelve monthly statements?",
            "sum",
            ("pay",),
            (),
        ),
        (
            "What was the average new balance over each of my statements?",
            "avg",
            ("new", "balanc"),
            (),
        ),
        ("How much interest did I pay in total over my statements?", "sum", ("interest",), ()),
        ("What were my fees summed over all quarters?", "sum", ("fee",), ()),
        # who earned or claimed is not the label: "my bank accounts", "staff"
        (
            "How much interest did my bank accounts earn in 2024 altogether?",
            "sum",
            ("interest",),
            (2024,),
        ),
        ("What was the average reimbursement claimed by staff?", "avg", ("reimburs", "claim"), ()),
        # "this year" dates nothing a document prints
        ("How much rent have I paid in total so far this year?", "sum", ("rent",), ()),
    ],
)
def test_the_shape_of_a_question_over_documents_of_one_kind(question, func, words, years):
    same = sameness_question(question)
    assert same is not None
    assert (same.func, same.words, same.years) == (func, words, years)


@pytest.mark.parametrize(
    "question",
    [
        "What was the nonemployee compensation Globex Corporation paid me?",  # no "across"
        "How many statements are there across all my folders?",  # a count, no label
        "What were the charges across all my statements?",  # no aggregate
    ],
)
def test_other_questions_are_not_of_that_shape(question):
    assert sameness_question(question) is None


def _document(path: str, text: str, title: str) -> Document:
    return Document(path, text, title, "md", 1, [PageSpan(1, 0, len(text))], "test")


def test_the_value_is_read_next_to_its_label_not_the_title_or_another_box():
    income = sameness_question(INCOME)
    assert income is not None
    text = (
        "# Form 1099-NEC Nonemployee Compensation\n\nPAYER: Acme Design LLC\n"
        "Nonemployee compensation paid: $8,400.00\nFederal income tax withheld: $0.00\n"
    )
    form = read_value(
        "f.md", _document("f.md", text, "Form 1099-NEC Nonemployee Compensation"), income
    )
    assert form is not None
    assert (form.label, form.amount) == ("Nonemployee compensation paid", 8400.0)
    assert form.quote == "Nonemployee compensation paid: $8,400.00"
    # a value on the next line, and a credit printed in parentheses
    paid = sameness_question("How much did I pay in total across all my statements?")
    assert paid is not None
    text = "# Statement\n\nPrevious balance\n$3,034.86\nPayments\n($2,784.86)\n"
    got = read_value("s.md", _document("s.md", text, "Statement"), paid)
    assert got is not None and (got.amount, got.quote) == (-2784.86, "Payments ($2,784.86)")


def test_the_same_value_of_each_form_is_added_up_in_sql_and_quoted(forms, tmp_path):
    db = tmp_path / "i.duckdb"
    result = _explore(INCOME, forms, db)
    assert result.answer.startswith("**$23,750.50** is the total of 'Nonemployee compensation'")
    tools = _tools(result)
    assert {"create_table", "insert_data", "query_data"} <= set(tools)
    for amount in ("$8,400.00", "$12,250.50", "$3,100.00"):
        assert amount in result.answer
    assert "$5,000.00" not in result.answer  # the 2023 form is another year
    assert len(result.citations) == 3
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]
    cited = {c.path for c in result.citations}
    assert cited == {"1099-NEC_acme.md", "1099-NEC_globex.txt", "1099-NEC_initech.pdf"}
    assert all("Nonemployee compensation" in c.quote for c in result.citations)
    # the scratchpad holds one row per form, with its provenance
    frame = Scratchpad(db, folder=forms).query(
        f"SELECT source_file, page, value, quote FROM {TABLE} ORDER BY source_file"
    )
    assert list(frame.source_file) == sorted(cited)
    assert [float(v) for v in frame.value] == [8400.0, 12250.5, 3100.0]
    assert list(frame.page) == [1, 1, 1]
    assert all(str(v) in q.replace(",", "") for v, q in zip(frame.value, frame.quote, strict=True))
    # asking again starts the table over instead of adding the rows twice
    again = _explore(INCOME, forms, db)
    assert again.answer.startswith("**$23,750.50**")
    assert Scratchpad(db, folder=forms).rows(TABLE) == 3


def test_a_form_without_a_value_is_named_not_left_out(forms, tmp_path):
    (forms / "1099-NEC_globex.txt").write_text(
        _text_form("Globex Corporation", "").replace("compensation: \n", "compensation:\n")
    )
    result = _explore(INCOME, forms, tmp_path / "i.duckdb")
    first = result.answer.splitlines()[0]
    assert first.startswith("I could not find a value of ")  # not a figure first
    assert "1099-NEC_globex.txt" in first and "is not known" in first
    assert "partial figure) it is $11,500.00" in first  # over 2 of the 3 forms
    assert "**" not in first
    assert "$150.00" not in result.answer  # not another box's value
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]


def test_monthly_statements_total_and_average(tmp_path):
    root = tmp_path / "statements"
    root.mkdir()
    months = {
        "jan": ("$12.40", "$1,250.00"),
        "feb": ("$9.85", "$980.10"),
        "mar": ("$15.02", "$1,402.75"),
    }
    for month, (interest, balance) in months.items():
        (root / f"statement-{month}-2025.txt").write_text(
            f"Harbor Credit Union Visa\nStatement for {month.title()} 2025\n\n"
            f"Purchases: $820.00\nFees charged: $25.00\nInterest charged: {interest}\n"
            f"New balance: {balance}\n",
            encoding="utf-8",
        )
    (root / "budget.md").write_text("# Budget\n\nKeep interest below $20.00 a month.\n")
    db = tmp_path / "i.duckdb"
    total = _explore(
        "What were the total interest charges across all my 2025 statements?", root, db
    )
    assert total.answer.startswith("**$37.27** is the total of 'Interest charged'")
    assert all(i in total.answer for i, _ in months.values())
    assert {c.path for c in total.citations} == {f"statement-{m}-2025.txt" for m in months}
    assert all(c.verified for c in total.citations)
    average = _explore("What was the average new balance across each of my statements?", root, db)
    assert average.answer.startswith("**$1,210.95** is the average of 'New balance'")


def test_a_question_about_one_document_is_read_as_usual(forms, tmp_path):
    db = tmp_path / "i.duckdb"
    one = _explore("How much nonemployee compensation did Globex Corporation pay me?", forms, db)
    assert "create_table" not in _tools(one)
    assert "$12,250.50" in one.answer
    # with one form of the kind left, "across all" has nothing to add up
    for name in ("1099-NEC_acme.md", "1099-NEC_initech.pdf", "1099-NEC_acme_2023.md"):
        (forms / name).unlink()
    alone = _explore(INCOME, forms, tmp_path / "j.duckdb")
    assert "create_table" not in _tools(alone)


def test_a_value_printed_large_on_the_line_after_its_label_is_read():
    income = sameness_question("What was my total interest income for 2024 across all banks?")
    assert income is not None
    text = "## Harbor Savings Bank\n\n# Form 1099-INT\n\n1 Interest income\n\n## $1,146.90\n"
    got = read_value("h.pdf", _document("h.pdf", text, "Harbor Savings Bank"), income)
    assert got is not None and (got.label, got.amount) == ("Interest income", 1146.9)


def test_what_you_pay_on_a_bill_named_only_by_its_subject_is_the_amount_due():
    water = sameness_question("How much did I pay for water across all my 2024 water bills?")
    assert water is not None and water.fallback == ("due",)
    text = (
        "Water & Sewer\n\nWater charge | $42.20\nSewer charge | $22.00\nTotal amount due | $64.20\n"
    )
    got = read_value("Water/q1.pdf", _document("Water/q1.pdf", text, "Water & Sewer"), water)
    assert got is not None and (got.label, got.amount) == ("Total amount due", 64.2)


def test_documents_that_never_name_the_payer_asked_about_are_not_of_the_kind(forms, tmp_path):
    asked = "What was my total 1099-NEC income for 2024, across all Redstone Bank clients?"
    same = sameness_question(asked)
    assert same is not None and len(same.names) == 2  # the form's code and the payer
    result = _explore(asked, forms, tmp_path / "r.duckdb")
    assert "query_data" not in [s["tool"] for s in result.steps()]
    assert "23,750.50" not in result.answer


def test_a_total_without_across_all_wording_is_only_a_candidate():
    same = sameness_question("What is the total purchase price of the deal?")
    assert same is not None and not same.over
    assert sameness_question(INCOME).over


def _bill(month: int, due: str) -> str:
    return (
        f"# Lakeside Power\n\nBilling month: 2024-{month:02d}\n\n"
        f"Energy charge | $80.00\n\nAmount due | {due}\n"
    )


@pytest.fixture
def bills(tmp_path: Path) -> Path:
    """Three monthly electric bills, a lease that mentions electricity, and three parts of
    one agreement that each print a purchase price under a different label."""
    root = tmp_path / "home"
    (root / "Bills" / "Electric").mkdir(parents=True)
    for month, due in ((1, "$118.64"), (2, "$109.27"), (3, "$95.10")):
        (root / "Bills" / "Electric" / f"2024-{month:02d}.md").write_text(_bill(month, due))
    (root / "lease.md").write_text(
        "# Lease\n\nThe monthly rent is $2,150.00. The Tenant pays for electricity.\n"
    )
    for name, line in (
        ("agreement", "The Purchase Price is $125,000,000."),
        ("schedules", "Adjustments may increase the Purchase Price by $650,000."),
        ("exhibits", "Earn-out payments on top of the Purchase Price: up to $10,000,000."),
    ):
        (root / f"{name}.md").write_text(f"# Acquisition Agreement {name}\n\n{line}\n")
    return root


def test_a_total_over_bills_named_by_their_folder_needs_no_across_all(bills, tmp_path):
    total = _explore("How much did I pay for electricity in 2024 in total?", bills, tmp_path / "t")
    assert "query_data" in _tools(total)
    assert total.answer.startswith("**$323.01** is the total of 'Amount due'")
    highest = _explore("What was the highest electricity bill in 2024?", bills, tmp_path / "h")
    assert "**$118.64** is the largest of 'Amount due', in Bills/Electric/2024-01.md" in (
        highest.answer
    )


def test_documents_of_a_family_with_different_labels_are_not_a_kind(bills, tmp_path):
    asked = "What is the total purchase price of the acquisition?"
    result = _explore(asked, bills, tmp_path / "p.duckdb")
    assert "create_table" not in _tools(result)
    assert "$125,000,000" in result.answer


def test_a_total_over_months_takes_the_documents_dated_in_them(bills, tmp_path):
    asked = "How much did I pay for electricity in total in February and March 2024?"
    result = _explore(asked, bills, tmp_path / "m.duckdb")
    assert result.answer.startswith("**$204.37** is the total of 'Amount due'")
    assert "dated February, March 2024" in result.answer
    assert "2024-01.md" not in result.answer


def test_no_document_of_the_kind_in_the_months_asked_is_not_found(bills, tmp_path):
    asked = "How much did I pay for electricity in total in the third quarter of 2024?"
    result = _explore(asked, bills, tmp_path / "q.duckdb")
    assert result.answer.startswith("I could not find this: none of the 3 documents")
    assert "dated 2024-01, 2024-02, 2024-03" in result.answer
    assert "$" not in result.answer.split("\n")[0]


def test_a_year_in_the_file_name_dates_the_document(tmp_path):
    root = tmp_path / "grants"
    root.mkdir()
    for year, amount in ((2023, "$45,000.00"), (2024, "$52,000.00")):
        (root / f"Whitcombe_award_{year}.md").write_text(
            f"# Whitcombe Foundation award\n\nAmount awarded | {amount}\n\n"
            f"Funds may be spent until June 30, {year + 1}.\n"
        )
    (root / "Lindqvist_award_2024.md").write_text(
        "# Lindqvist Fund award\n\nAmount awarded | $18,500.00\n"
    )
    asked = "What was the total amount awarded across all award letters in 2024?"
    result = _explore(asked, root, tmp_path / "y.duckdb")
    assert result.answer.startswith("**$70,500.00** is the total of 'Amount awarded'")
    assert "2023" not in result.answer.split("```")[0]


def test_what_bills_or_invoices_add_up_to_is_a_total_of_their_own_amounts(bills, tmp_path):
    summed = _explore("What did my 2024 electric bills add up to?", bills, tmp_path / "a.duckdb")
    assert summed.answer.startswith("**$323.01** is the total of 'Amount due'")
    invoices = tmp_path / "office" / "Invoices" / "Copperline"
    invoices.mkdir(parents=True)
    for number, payable in ((1, "$1,150.00"), (2, "$1,411.25")):
        (invoices / f"CTS-{number}.md").write_text(
            f"# Copperline Technology Services\n\nInvoice CTS-{number}\n\n"
            f"Managed IT support | $1,150.00\n\nAmount payable | {payable}\n"
        )
    result = _explore(
        "What do the Copperline invoices add up to?", invoices.parents[1], tmp_path / "c"
    )
    assert result.answer.startswith("**$2,561.25** is the total of 'Amount payable'")


def test_what_a_company_billed_altogether_is_the_total_due(bills, tmp_path):
    asked = "What did Lakeside Power bill me for in 2024 altogether?"
    billed = _explore(asked, bills, tmp_path / "b.duckdb")
    assert billed.answer.startswith("**$323.01** is the total of 'Amount due'")
    come = _explore("What do my 2024 electric bills come to?", bills, tmp_path / "c.duckdb")
    assert come.answer.startswith("**$323.01** is the total of 'Amount due'")
    asked = "What did my electric bills cost me in total in 2024?"  # no label says "cost"
    cost = _explore(asked, bills, tmp_path / "d.duckdb")
    assert cost.answer.startswith("**$323.01** is the total of 'Amount due'")


def test_what_a_company_billed_for_is_named_by_a_line_without_an_amount(bills, tmp_path):
    """'billed us for pickups': the line naming the service prints no amount, so what was
    billed is each bill's amount due; 'this year' restricts nothing."""
    for month in (1, 2, 3):
        bill = bills / "Bills" / "Electric" / f"2024-{month:02d}.md"
        bill.write_text(
            bill.read_text().replace(
                "# Lakeside Power\n", "# Lakeside Power\n\nMeter reading and supply\n"
            )
        )
    asked = "How much has Lakeside Power billed us in total for meter reading and supply this year?"
    billed = _explore(asked, bills, tmp_path / "b.duckdb")
    assert billed.answer.startswith("**$323.01** is the total of 'Amount due'"), billed.answer[:300]


def test_what_was_spent_across_receipts_is_each_receipts_bottom_line(bills, tmp_path):
    """Receipts of several shops, in two formats: the bills beside them print 'Amount due',
    yet 'all my receipts' names the documents, and what was spent is each one's last total,
    not its subtotal."""
    receipts = bills / "Receipts"
    receipts.mkdir()
    for day, shop, subtotal, total in (
        ("2024-02-14", "florist", "$52.00", "$55.00"),
        ("2024-03-02", "hardware", "$84.43", "$87.43"),
        ("2024-03-18", "pharmacy", "$20.16", "$23.16"),
    ):
        body = f"Subtotal: {subtotal}\nTax: $3.00\nTotal: {total}\nPaid by card ending 4417\n"
        name = f"{day}_{shop}"
        if shop == "hardware":
            (receipts / f"{name}.txt").write_text(f"{shop.upper()} STORE\nDate: {day}\n{body}")
        else:
            (receipts / f"{name}.md").write_text(
                f"# {shop.title()} receipt\n\nDate: {day}\n\n{body}"
            )
    every = _explore("What was the total of all my receipts?", bills, tmp_path / "r.duckdb")
    assert every.answer.startswith("**$165.59** is the total of 'Total' over the 3 documents")
    march = "How much did I spend across all my receipts from March 2024?"
    spent = _explore(march, bills, tmp_path / "s.duckdb")
    assert spent.answer.startswith("**$110.59** is the total of 'Total'")
    assert "Amount due" not in spent.answer and "florist" not in spent.answer


def test_an_invoices_own_amount_is_its_bottom_line_not_a_line_items_total(tmp_path):
    root = tmp_path / "clinic" / "Suppliers" / "Bluestem"
    root.mkdir(parents=True)
    for month, tests, total in ((1, "$147.60", "$2,612.75"), (2, "$180.40", "$2,266.15")):
        (root / f"BD-24-{month:02d}.md").write_text(
            f"# Bluestem Diagnostics\n\nInvoice date: 2024-{month:02d}-28\n\n"
            f"Chemistry panel (41 @ $29.75) | $1,219.75\n\nTotal T4 (9 @ $16.40) | {tests}\n\n"
            f"Invoice total | {total}\n"
        )
    asked = "How much did Bluestem charge us for January and February 2024 together?"
    result = _explore(asked, root.parents[1], tmp_path / "b.duckdb")
    assert result.answer.startswith("**$4,878.90** is the total of 'Invoice total'")


def test_a_quantity_in_a_unit_of_measure_is_added_up_not_counted(tmp_path):
    """A count in a unit ("how many kWh ... in total") adds up each bill's bare number
    under the label it names; "how many invoices ... in total" still counts, and a
    quantity is never a bill's own amount."""
    root = tmp_path / "home"
    (root / "Bills" / "Electric").mkdir(parents=True)
    for month, used, due in ((1, 812, "$118.64"), (2, 745, "$109.27"), (3, 690, "$95.10")):
        (root / "Bills" / "Electric" / f"2024-{month:02d}.md").write_text(
            f"# Lakeside Power\n\nBilling month: 2024-{month:02d}\n\nkWh used | {used}\n\n"
            f"Amount due | {due}\n"
        )
    asked = "How many kWh of electricity did I use in total across all my 2024 electric bills?"
    same = sameness_question(asked)
    assert same is not None and (same.func, same.quantity) == ("sum", True)
    assert sameness_question("How many invoices did Bluestem send us in total?") is None
    result = _explore(asked, root, tmp_path / "k.duckdb")
    assert result.answer.startswith("**2,247** is the total of 'kWh used' over the 3 documents")
    for used in ("812", "745", "690"):
        assert f"kWh used | {used}" in result.answer
    assert "$118.64" not in result.answer
    # a document whose names say all the question does: its amount due is no quantity
    named = "Electric kWh use"
    bill = _document("kwh.md", f"# {named}\n\nAmount due | $95.10\n", named)
    assert read_value("kwh.md", bill, same) is None


def _interest_form(bank: str, amount: str) -> str:
    """A 1099-INT as Docling writes a scanned-looking form: each box's value on its own
    line, the form's name a heading that holds "INT" (which begins "interest")."""
    return (
        f"## {bank}\n\n# Form 1099-INT\n\nTax year 2024\n\n1 Interest income\n\n## {amount}\n\n"
        "2 Early withdrawal penalty\n\n## $0.00\n"
    )


def test_a_heading_that_names_the_words_gives_way_to_a_label_with_a_value():
    same = sameness_question("What was my total interest income across all my forms?")
    assert same is not None
    text = _interest_form("Harbor Savings", "$1,146.90")
    got = read_value("f.md", _document("f.md", text, "Harbor Savings"), same)
    assert got is not None and (got.label, got.amount) == ("Interest income", 1146.90)


@pytest.mark.parametrize(
    ("question", "months"),
    [
        ("What did we pay Bramwell altogether for January through June 2024?", (1, 2, 3, 4, 5, 6)),
        ("How much did we pay Bramwell in total from April to June 2024?", (4, 5, 6)),
        ("What did the Jan-Mar 2024 invoices from Bramwell add up to?", (1, 2, 3)),
        ("What did we pay Bramwell altogether in January and March 2024?", (1, 3)),  # no range
        ("Adding up January to March, how much did we pay Bramwell?", (1, 2, 3)),
    ],
)
def test_a_span_of_months_names_every_month_in_it(question, months):
    same = sameness_question(question)
    assert same is not None and same.months == months


def test_a_sentence_that_names_paying_is_not_an_invoices_own_amount(tmp_path):
    """'Pay by card through your account' shares a word with 'payable' but prints no
    amount: each invoice's own amount is its 'Total' row."""
    root = tmp_path / "lab" / "Orders" / "Alder"
    root.mkdir(parents=True)
    for number, total in (("104883", "$1,487.00"), ("105217", "$1,329.00")):
        (root / f"ALD-{number}.md").write_text(
            f"# ALDER BIOSCIENCES - INVOICE\n\nInvoice date: 2024-0{number[-1]}-11\n\n"
            f"Product | Qty | Price\n\nqPCR master mix | 3 | $867.00\n\nTotal | {total}\n\n"
            "Payment within 30 days. Pay by card through your Alder account or by check.\n"
        )
    asked = "What do the Alder invoices for 2024 come to in total?"
    result = _explore(asked, root.parents[1], tmp_path / "a.duckdb")
    assert result.answer.startswith("**$2,816.00** is the total of 'Total'"), result.answer[:300]


def test_so_far_this_year_is_the_latest_year_the_documents_are_dated_in(bills, tmp_path):
    """'so far this year' names no label, and no year a document prints: the documents of
    the kind dated in the latest year are added up, last December's bill left out."""
    december = bills / "Bills" / "Electric" / "2023-12.md"
    december.write_text(_bill(12, "$140.00").replace("2024-12", "2023-12"))
    asked = "How much has Lakeside Power billed me in total so far this year?"
    result = _explore(asked, bills, tmp_path / "y.duckdb")
    assert result.answer.startswith("**$323.01** is the total of 'Amount due' over the 3"), (
        result.answer[:300]
    )
    assert "2023-12" not in result.answer
