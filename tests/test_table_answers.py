"""The offline backend computes totals, counts and extremes over the documents' tables in
SQL, and cites the rows that went in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import Workbook

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.db.scratchpad import Scratchpad
from fsnb.offline.tables import aggregate_question

DATA = Path(__file__).resolve().parents[1] / "data"
HEADER = "Date,Item,Department,Cost (EUR)\n"
ORDERS = {
    "orders-q1.csv": [
        ("2024-01-09", "Laptop stand", "Office", "€45.00"),
        ("2024-01-20", "Printer paper", "Office", "€12.50"),
        ("2024-02-03", "Team lunch", "Catering", "€310.40"),
        ("2024-02-17", "Monitor", "Hardware", "€229.99"),
        ("2024-03-08", "Coffee beans", "Catering", "€38.20"),
        ("2024-03-21", "Docking station", "Hardware", "€189.00"),
    ],
    "orders-q2.csv": [
        ("2024-04-02", "Keyboard", "Hardware", "€79.90"),
        ("2024-04-18", "Offsite dinner", "Catering", "€642.10"),
        ("2024-05-06", "Whiteboard", "Office", "€95.00"),
        ("2024-05-29", "Headset", "Hardware", "€119.00"),
        ("2024-06-12", "Catered breakfast", "Catering", "€154.75"),
        ("2024-06-30", "Staples", "Office", "€4.30"),
    ],
}


@pytest.fixture
def orders(tmp_path: Path) -> Path:
    root = tmp_path / "purchasing"
    root.mkdir()
    for name, rows in ORDERS.items():
        lines = [",".join(f'"{c}"' if "," in c else c for c in row) for row in rows]
        (root / name).write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    (root / "policy.md").write_text(
        "# Purchasing policy\n\nEvery order above €500 needs the approval of a director. "
        "Catering orders are booked by the office manager.\n",
        encoding="utf-8",
    )
    return root


def _explore(question: str, folder: Path, db: Path) -> ExplorationResult:
    result = fsnb.explore(question, folder=folder, llm="offline", db=db)
    assert result.ok, result.error
    return result


def _tools(result: ExplorationResult) -> list[str]:
    return [s["tool"] for s in result.steps() if s.get("tool")]


def _verified(result: ExplorationResult) -> None:
    assert result.citations
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]


@pytest.mark.parametrize(
    ("question", "func", "months", "years", "words"),
    [
        ("How much did I spend on dining in March?", "sum", (3,), (), ("dining",)),
        (
            "What is the total of catering orders in 2024?",
            "sum",
            (),
            (2024,),
            ("catering", "orders"),
        ),
        (
            "How many transactions are on the December statement?",
            "count",
            (12,),
            (),
            ("transactions", "statement"),
        ),
        ("What was the average cost from January to March?", "avg", (1, 2, 3), (), ()),
        ("What was my largest single purchase of the year?", "max", (), (), ("purchase",)),
        ("Which supplier charged the most per year?", "max", (), (), ("supplier",)),
        ("What is the most important risk?", None, (), (), ()),
        ("Who signed the escrow agreement?", None, (), (), ()),
        ("How much is the founder paid for consulting?", "sum", (), (), ("founder", "consulting")),
        ("What did the catering orders come to in May?", "sum", (5,), (), ("catering", "orders")),
        ("When did the auditor come to the office?", None, (), (), ()),
    ],
)
def test_what_an_aggregate_question_asks(question, func, months, years, words):
    asked = aggregate_question(question)
    if func is None:
        assert asked is None
        return
    assert asked is not None
    assert (asked.func, asked.months, asked.years, asked.words) == (func, months, years, words)


@pytest.mark.parametrize(
    ("question", "counted"),
    [
        ("How many vacation days do staff get?", ("vacation", "days")),
        ("How many of my receipts are dated March 2024?", ("receipts",)),
        ("What is the number of the invoices from Pinecrest?", ("invoices",)),
    ],
)
def test_what_a_count_counts(question, counted):
    """The words after "how many" (or "number of"), past "of my" and up to the next
    stopword: they must name the table's rows for the count to be over them."""
    asked = aggregate_question(question)
    assert asked is not None and asked.counted == counted


def test_a_total_over_one_category_is_computed_in_sql_and_cites_its_rows(orders, tmp_path):
    result = _explore("How much did we spend on catering in 2024?", orders, tmp_path / "i.duckdb")
    assert _tools(result)[:3] == ["scan_folder", "extract_tables", "load_table"]
    assert _tools(result)[3:] == ["query_data"] * 3
    assert result.answer.startswith("**€1,145.45** is the total of cost_eur over 4 rows")
    assert "department is Catering" in result.answer
    assert re.search(r"```sql\nSELECT SUM\(\"cost_eur\"\) AS total", result.answer)
    _verified(result)
    assert {c.path for c in result.citations} == set(ORDERS)  # rows of both documents
    assert all("Catering" in c.quote for c in result.citations)
    # the figure is what the scratchpad says
    frame = Scratchpad(tmp_path / "i.duckdb", folder=orders).query(
        "SELECT SUM(cost_eur) AS s FROM extracted WHERE department = 'Catering'"
    )
    assert round(float(frame.s[0]), 2) == 1145.45


def test_no_figure_over_rows_a_word_of_the_question_names_but_no_document_holds(orders, tmp_path):
    """ "furniture" is in no document: the Office rows are not what the question asks
    about, so their total (EUR 156.80) is not stated as its answer."""
    db = tmp_path / "i.duckdb"
    office = _explore("What did the office orders cost in total?", orders, db)
    assert "**€156.80** is the total" in office.answer
    furniture = _explore("What did office furniture cost in total?", orders, db)
    assert "156.80" not in furniture.answer
    assert (
        furniture.answer.startswith("I could not find this") and '"furniture"' in furniture.answer
    )


def test_a_count_filtered_by_month_and_an_extreme(orders, tmp_path):
    db = tmp_path / "i.duckdb"
    counted = _explore("How many orders were placed in May?", orders, db)
    assert counted.answer.startswith("**2** rows of")
    _verified(counted)
    largest = _explore("What was the largest single order?", orders, db)
    assert "**€642.10**" in largest.answer and "Offsite dinner" in largest.answer
    _verified(largest)
    # asking again reloads the same documents' rows instead of adding them twice
    rows = Scratchpad(db, folder=orders).rows("extracted")
    assert rows == sum(len(r) for r in ORDERS.values())


def test_a_form_of_two_lines_filed_three_times_is_one_table_of_six_rows(tmp_path):
    """Each claim has too few rows to total on its own; the three claims share a header,
    so their six rows are loaded together and totalled."""
    root = tmp_path / "claims"
    root.mkdir()
    for who, first, second in (("Ames", 12.5, 30), ("Baker", 8.25, 41.75), ("Cruz", 19.99, 5.01)):
        (root / f"claim_{who}.csv").write_text(
            f"Date,Item,Amount (USD)\n2024-03-04,Markers,{first}\n2024-03-06,Books,{second}\n",
            encoding="utf-8",
        )
    (root / "notes.md").write_text(
        "# Expense claims: what they add up to\n\n| Claimant | Status |\n|---|---|\n"
        "| Ames | paid |\n| Baker | paid |\n| Cruz | open |\n"
    )
    result = _explore("What do the expense claims add up to in total?", root, tmp_path / "i.db")
    assert result.answer.startswith("**117.50** is the total of amount_usd over 6 rows")
    listed = [s.get("target") for s in result.steps() if s.get("tool") == "extract_tables"]
    assert listed == ["claim_Ames.csv"]  # not notes.md: extract_tables reads no markdown
    _verified(result)


SAVINGS = (
    "Measure,Annual savings (EUR)\nClose the Leeds depot,410000\n"
    "Merge the payroll teams,260000\nRenegotiate freight,185000\n"
    "Sublet the third floor,120000\nTotal savings,975000\n"
)


def test_a_table_of_another_shape_left_by_an_earlier_question_does_not_stop_a_total(
    orders, tmp_path
):
    """An earlier question (or the user) made a scratchpad table "extracted" of other
    columns: the orders load again under a name of their document's own, and are totalled."""
    db = tmp_path / "i.duckdb"
    Scratchpad(db, folder=orders).create_table("extracted", {"patient": "VARCHAR", "fee": "DOUBLE"})
    result = _explore("How much did we spend on catering in 2024?", orders, db)
    loads = [s for s in result.steps() if s.get("tool") == "load_table"]
    assert [s["ok"] for s in loads] == [False, True]
    assert "**€1,145.45** is the total" in result.answer
    assert Scratchpad(db, folder=orders).rows("extracted") == 0  # the other table is untouched
    _verified(result)


def test_an_extreme_is_one_item_not_the_total_row(tmp_path):
    root = tmp_path / "plan"
    root.mkdir()
    (root / "savings.csv").write_text(SAVINGS, encoding="utf-8")
    result = _explore("Which single measure saves the most per year?", root, tmp_path / "i.db")
    first = result.answer.splitlines()[0]
    assert "410,000" in first and "Close the Leeds depot" in first
    assert "975" not in first
    _verified(result)


def test_a_total_or_an_average_leaves_out_the_total_row(tmp_path):
    """The "Total savings" row sums the four measures: adding or averaging it with them
    would count each twice."""
    root = tmp_path / "plan"
    root.mkdir()
    (root / "savings.csv").write_text(SAVINGS, encoding="utf-8")
    db = tmp_path / "i.db"
    total = _explore("What do the measures save per year in total?", root, db)
    assert total.answer.startswith("**975,000** is the total of annual_savings_eur over 4 rows")
    average = _explore("What is the average annual saving of a measure?", root, db)
    assert average.answer.startswith("**243,750** is the average")
    assert "Total savings" not in total.answer.split("Computed with")[0]


def test_a_table_that_does_not_fit_passes_to_the_next_tabular_document(orders, tmp_path):
    """The best-ranked document's table has no number to take the largest of (a register
    of words): the next tabular document is listed instead of giving up on tables."""
    (orders / "largest_single_order_register.csv").write_text(
        "Order,Owner,Status\n"
        + "".join(f"order {n},office,largest single order open\n" for n in range(6)),
        encoding="utf-8",
    )
    result = _explore("What was the largest single order?", orders, tmp_path / "i.duckdb")
    tools = _tools(result)
    assert tools[:3] == ["scan_folder", "extract_tables", "extract_tables"]
    listed = [s["target"] for s in result.steps() if s.get("tool") == "extract_tables"]
    assert listed[0] == "largest_single_order_register.csv" and listed[1].startswith("orders-q")
    assert "**€642.10**" in result.answer and "Offsite dinner" in result.answer
    _verified(result)


REVENUE = {  # month: (surgery, total)
    "2024-01": ("22875.00", "127501.50"),
    "2024-02": ("20410.00", "121508.75"),
    "2024-03": ("25660.00", "141886.25"),
    "2024-04": ("24130.00", "139915.75"),
    "2024-05": ("27345.00", "150376.00"),
    "2024-06": ("23980.00", "144480.50"),
}


@pytest.fixture
def clinic(tmp_path: Path) -> Path:
    """A monthly revenue table with months written "2024-01", and a budget that ranks
    better for "surgery revenue" but names surgery in one row's text only."""
    root = tmp_path / "clinic"
    root.mkdir()
    rows = "".join(f"{m},{s},{t}\n" for m, (s, t) in REVENUE.items())
    (root / "revenue_2024.csv").write_text("month,surgery,total\n" + rows, encoding="utf-8")
    budget = Workbook()
    sheet = budget.active
    sheet.title = "Revenue"
    sheet.append(["Revenue line", "2024 budget"])
    for line in (
        ("Professional services (exams, surgery, dental)", 980000),
        ("Pharmacy", 310000),
        ("Boarding", 42000),
        ("Diagnostics", 197000),
        ("Grooming", 38000),
        ("Retail", 24000),
        ("Total revenue", 1591000),
    ):
        sheet.append(list(line))
    budget.save(root / "budget_2024.xlsx")
    return root


def test_months_written_year_first_in_a_text_column_are_the_months_asked(clinic, tmp_path):
    asked = "What was total revenue for the first quarter of 2024?"
    result = _explore(asked, clinic, tmp_path / "q.duckdb")
    assert result.answer.startswith("**390,896.50** is the total of total over 3 rows")
    assert "2024-04" not in result.answer.split("```")[0]


def test_a_table_with_too_few_rows_for_the_figure_passes_to_the_next(clinic, tmp_path):
    """The budget's one 'surgery' row is too few to total: the revenue table, whose
    surgery column the question names, gives the figure."""
    result = _explore("What was our total surgery revenue in 2024?", clinic, tmp_path / "s")
    listed = [s["target"] for s in result.steps() if s.get("tool") == "extract_tables"]
    assert listed == ["budget_2024.xlsx", "revenue_2024.csv"]
    assert result.answer.startswith("**144,400** is the total of surgery over 6 rows")


def test_a_question_the_tables_do_not_answer_reads_passages(orders, tmp_path):
    unknown = _explore("How much did we spend on travel?", orders, tmp_path / "i.db")
    assert "query_data" not in _tools(unknown)
    assert "is the total of" not in unknown.answer
    assert "travel" not in " ".join(c.quote.lower() for c in unknown.citations)
    prose = _explore("Which orders need the approval of a director?", orders, tmp_path / "i.db")
    assert "extract_tables" not in _tools(prose)
    assert "Every order above €500 needs the approval of a director" in prose.answer


def test_a_count_does_not_answer_a_question_whose_other_part_it_cannot(orders, tmp_path):
    db = tmp_path / "i.duckdb"
    both = "How many catering orders were placed, and who books them?"
    mixed = _explore(both, orders, db)
    assert "load_table" not in _tools(mixed)  # the rows cannot say who books them
    assert not mixed.answer.startswith("**")
    assert "booked by the office manager" in mixed.answer
    # the rows that went in do answer a part that asks which ones
    listed = _explore("Which orders were for catering, and how much did they cost in total?",
                      orders, db)  # fmt: skip
    assert listed.answer.startswith("**€1,145.45** is the total of cost_eur over 4 rows")


def test_the_statements_subscriptions_of_2025(tmp_path):
    """The issue's own question over the twelve statement PDFs."""
    folder = DATA / "statements"
    truth = (DATA / "_truth" / "statements.csv").read_text().splitlines()
    expected = sum(
        float(line.split(",")[4])
        for line in truth[1:]
        if line.split(",")[3] == "Subscriptions" and line.startswith("2025")
    )
    result = _explore("How much did I spend on subscriptions in 2025?", folder, tmp_path / "s.db")
    assert result.answer.startswith(f"**${expected:,.2f}** is the total of amount")
    assert "category is Subscriptions" in result.answer
    _verified(result)
    assert len({c.path for c in result.citations}) == 12  # a row of every statement


LEASES = [  # property, tenant, start date, annual base rent
    ("Orchard Street", "Bramble Foods", "2021-04-01", "$310,000"),
    ("Mill Lane", "Kestrel Print", "2022-01-15", "$245,500"),
    ("Harbour Road", "Tidewater Labs", "2020-09-01", "$1,120,000"),
    ("Station Road", "Ashgrove Dental", "2023-03-01", "$198,000"),
    ("Elm Street", "Northgate Books", "2021-07-01", "$402,250"),
    ("Quarry Lane", "Pellow Joinery", "2019-11-01", "$156,000"),
    ("Castle Street", "Linden Optics", "2022-06-01", "$875,000"),
    ("Riverside Park", "Corran Logistics", "2020-02-01", "$2,480,000"),
    ("Abbey Road", "Fenwick Studio", "2023-09-01", "$133,750"),
    ("Market Square", "Halden Bank", "2021-01-01", "$3,799,500"),
]


@pytest.fixture
def leases(tmp_path: Path) -> Path:
    """A schedule of ten leases, one row each, and a note about the portfolio."""
    root = tmp_path / "estate"
    root.mkdir()
    lines = ["Property,Tenant,Start date,Annual base rent"]
    lines += [",".join(f'"{c}"' if "," in c else c for c in row) for row in LEASES]
    (root / "lease_schedule.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "portfolio.md").write_text(
        "# Portfolio note\n\nThe estate team reviews every lease's rent each January.\n",
        encoding="utf-8",
    )
    return root


def test_a_total_over_the_named_rows_only(leases, tmp_path):
    """Three leases named: the figure is over exactly their three rows, not all ten."""
    question = "What is the total annual base rent of the Orchard Street, Mill Lane and Harbour Road leases?"
    result = _explore(question, leases, tmp_path / "i.db")
    assert result.answer.startswith(
        "**$1,675,500.00** is the total of annual_base_rent over 3 rows"
    )
    named = ("Orchard Street", "Mill Lane", "Harbour Road")
    assert sorted(n for c in result.citations for n in named if n in c.quote) == sorted(named)
    assert len(result.citations) == 3
    _verified(result)


def test_a_name_no_row_holds_gets_no_confident_figure(leases, tmp_path):
    """One of the three leases named is not in the table: the answer says which it could
    not find and gives the figure over the others only as partial."""
    question = "What is the total annual base rent of the Orchard Street, Mill Lane and Kings Wharf leases?"
    result = _explore(question, leases, tmp_path / "i.db")
    first = result.answer.splitlines()[0]
    assert first.startswith("I could not find Kings Wharf in the rows of")
    assert "Orchard Street and Mill Lane" in first
    assert "**" not in result.answer.split("Computed with")[0]  # no figure stated as the answer
    assert "a partial figure" in result.answer and "555,500.00" in result.answer
    alone = _explore(
        "What is the total annual base rent of the Kings Wharf lease?", leases, tmp_path / "i.db"
    )
    assert "is the total of" not in alone.answer and "**" not in alone.answer


def test_a_period_no_row_covers_gets_no_confident_figure(leases, tmp_path):
    """No lease starts in 2018: no figure, and the answer says what it looked for."""
    result = _explore(
        "What is the total annual base rent of the leases that started in 2018?",
        leases,
        tmp_path / "i.db",
    )
    assert result.answer.startswith("I could not find any row of")
    assert "2018" in result.answer.splitlines()[0]
    assert "is the total of" not in result.answer and "**" not in result.answer
    # a year the rows do cover, with one that they do not: a partial figure only
    both = _explore(
        "What is the total annual base rent of the leases that started in 2018 and 2019?",
        leases,
        tmp_path / "i.db",
    )
    assert both.answer.startswith("I could not find 2018 in the rows of")
    assert "**" not in both.answer.split("Computed with")[0]


def test_a_table_without_the_named_rows_passes_to_the_next(leases, tmp_path):
    """The best-ranked table (the rent collected each month, from streets and lanes by the
    orchard, the mill and the harbour) holds none of the leases the question names: the next
    tabular document's table, which does, gives the figure."""
    places = "Orchard Mill and Harbour streets and lanes"
    rows = "".join(f"2024-{m:02d}-01,{places},{500_000 + 1_000 * m}\n" for m in range(1, 13))
    (leases / "total_annual_base_rent_of_the_leases.csv").write_text(
        "Month,Properties,Annual base rent collected\n" + rows, encoding="utf-8"
    )
    question = "What is the total annual base rent of the Orchard Street, Mill Lane and Harbour Road leases?"
    result = _explore(question, leases, tmp_path / "i.db")
    listed = [s["target"] for s in result.steps() if s.get("tool") == "extract_tables"]
    assert listed == ["total_annual_base_rent_of_the_leases.csv", "lease_schedule.csv"]
    assert _tools(result).count("load_table") == 2
    assert result.answer.startswith(
        "**$1,675,500.00** is the total of annual_base_rent over 3 rows"
    )
    _verified(result)


def test_an_extreme_is_not_taken_over_a_table_whose_files_lack_the_words(tmp_path: Path):
    """ "The highest electricity bill": "electricity" is only in the lease, so the largest
    number of one bill's table (812 kWh) is not the answer."""
    import shutil

    from conftest import DATA

    root = tmp_path / "home"
    (root / "Bills").mkdir(parents=True)
    shutil.copy(DATA / "household" / "Bills" / "Electric" / "2024-01.pdf", root / "Bills")
    (root / "lease.md").write_text("# Lease\n\nThe Tenant pays for electricity and water.\n")
    result = _explore("What was the highest electricity bill in 2024?", root, tmp_path / "d.db")
    assert "812" not in result.answer


BUDGET = [  # line item, amount, notes
    ("Salaries and wages", "684000", "12 staff, 10.4 FTE"),
    ("Professional development", "7200", "$600 per full-time employee"),
    ("Rent", "48000", "212 Quarry Street"),
    ("Equipment and technology", "9300", "Includes Chromebook refresh"),
    ("Insurance", "5200", "General liability"),
    ("Travel", "3100", "Staff mileage"),
    ("Total expenses", "756800", "Approved by the board in January 2024"),
]


@pytest.fixture
def office(tmp_path: Path) -> Path:
    """A budget whose notes mention staff and Chromebooks, a staff handbook and board minutes."""
    root = tmp_path / "office"
    root.mkdir()
    lines = ["Line item,Amount,Notes", *(",".join(f'"{c}"' for c in row) for row in BUDGET)]
    (root / "budget_2024.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "staff_handbook.md").write_text(
        "# Staff handbook\n\n## Leave\n\nFull-time staff earn 18 days of paid vacation per "
        "year, accrued monthly. Part-time staff accrue vacation in proportion to their hours.\n",
        encoding="utf-8",
    )
    (root / "board_minutes_april.md").write_text(
        "# Board minutes, April 2024\n\nThe board set a spending cap of $3,200 for eight "
        "Chromebooks, based on the vendor quote of $2,936 from Tekvalley.\n",
        encoding="utf-8",
    )
    return root


def test_a_count_the_table_rows_do_not_name_reads_the_prose(office, tmp_path):
    """ "How many vacation days": a note of the budget says "full-time" and "staff", but its
    rows are not vacation days; the handbook answers. A count of the budget's line items is
    still computed over it."""
    db = tmp_path / "i.db"
    vacation = _explore("How many vacation days a year do full-time staff get?", office, db)
    assert "rows of" not in vacation.answer and "computed in SQL" not in vacation.answer
    assert "18 days of paid vacation" in vacation.answer
    absent = _explore("How many days of bereavement leave does the handbook allow?", office, db)
    assert "rows of" not in absent.answer and "**" not in absent.answer
    items = _explore("How many line items are in the budget?", office, db)
    assert items.answer.startswith(f"**{len(BUDGET) - 1}** rows of")  # "Total expenses" is none
    _verified(items)


def test_a_table_one_cell_of_which_matches_does_not_answer_what_prose_does(office, tmp_path):
    """Two notes of the budget hold words of the question ("Chromebook", "board"); the board
    minutes hold the most of them: no total over the budget, the minutes are quoted. A
    total the budget does answer is still computed."""
    db = tmp_path / "i.db"
    question = (
        "What spending cap did the board set in April 2024 for the Chromebooks, and what was "
        "the total of the vendor quote it was based on?"
    )
    cap = _explore(question, office, db)
    assert "computed in SQL" not in cap.answer and "is the total of" not in cap.answer
    assert "$3,200" in cap.answer
    staff = _explore("What is the total amount budgeted for staff?", office, db)
    assert staff.answer.startswith("**687,100** is the total of amount over 2 rows")
    _verified(staff)


BILL = (
    "Field,Value\nPrevious balance,${previous}\nPayment received,-${previous}\nkWh used,{kwh}\n"
    "Energy charge,${energy}\nBasic service charge,$12.50\nAmount due,${due}\n"
)


def test_no_extreme_over_a_forms_fields_printed_as_a_table(tmp_path):
    """A bill prints its fields as rows: kWh used 812 beside amounts in dollars. They are
    different figures, not one quantity, so the largest of them (812) is no answer."""
    root = tmp_path / "bills"
    root.mkdir()
    months = {"01": (104.52, 812, 106.14), "02": (118.64, 745, 97.39), "03": (109.89, 690, 89.70)}
    for month, (previous, kwh, energy) in months.items():
        due = f"{energy + 12.5:.2f}"
        (root / f"power-2024-{month}.csv").write_text(
            BILL.format(previous=previous, kwh=kwh, energy=energy, due=due), encoding="utf-8"
        )
    result = _explore("Which month had my biggest power bill?", root, tmp_path / "i.duckdb")
    assert "812" not in result.answer.split("\n")[0]
    assert "is the total of" not in result.answer and "largest" not in result.answer


def test_a_total_of_invoices_beats_a_contact_row_that_states_no_amount(tmp_path):
    """A vendor list names the lab by every word the question uses, but states no amount,
    so it cannot say what the invoices add up to: their table does."""
    root = tmp_path / "clinic"
    (root / "Billing").mkdir(parents=True)
    for number, amounts in (("5101", (412.5, 96.0)), ("5102", (230.25, 88.0)), ("5103", (57.0,))):
        rows = "".join(f"Bluestem,Panel {i},${a:.2f}\n" for i, a in enumerate(amounts, 1))
        (root / "Billing" / f"BDL-{number}.csv").write_text(
            f"Lab,Test,Charge\n{rows}", encoding="utf-8"
        )
    (root / "vendor_contacts.csv").write_text(
        "Vendor,Service,Contact,Phone\n"
        "Bluestem Diagnostics Laboratory,Reference lab invoices and testing,Marco Lindahl,"
        "802-555-0188\nNorthfield Medical Supply,Consumables,Ada Brook,802-555-0110\n",
        encoding="utf-8",
    )
    result = _explore(
        "What do all the Bluestem lab invoices add up to?", root, tmp_path / "i.duckdb"
    )
    assert result.answer.startswith("**$883.75** is the total"), result.answer[:300]
    _verified(result)


def _claim_form(
    path: Path, claimant: str, items: list[tuple[str, str, float]], advance: float | None = None
) -> None:
    """A claim form (DOCX) listing its items; with `advance`, it also prints its total, the
    travel advance and the net amount payable, as forms do under their items."""
    from docx import Document as Docx

    doc = Docx()
    doc.add_heading("Expense Reimbursement Request", level=1)
    doc.add_paragraph("Form F-3. Attach itemized receipts.")
    doc.add_paragraph(f"Claimant: {claimant}, staff member")
    table = doc.add_table(rows=1, cols=3)
    header = ("Date", "What was purchased", "Amount")
    for cell, name in zip(table.rows[0].cells, header, strict=True):
        cell.text = name
    for date, what, amount in items:
        for cell, value in zip(table.add_row().cells, (date, what, f"${amount:.2f}"), strict=True):
            cell.text = value
    if advance is not None:
        total = sum(a for _, _, a in items)
        doc.add_paragraph(f"Reimbursement total: ${total:.2f}")
        doc.add_paragraph(f"Less travel advance: ${advance:.2f}")
        doc.add_paragraph(f"Net payable to claimant: ${total - advance:.2f}")
    doc.save(path)


def test_forms_that_say_what_they_are_outside_their_table_are_totalled(tmp_path):
    """The claim forms' tables name neither staff nor claims; their own text does ("Claimant:
    ..., staff member"). A handbook sentence on staff expenses beside an amount does not
    outweigh them: the forms' rows are totalled."""
    root = tmp_path / "office"
    (root / "Reimbursements").mkdir(parents=True)
    claims = {
        "Park": [("02/09/2024", "Mileage, 84 mi", 56.28), ("02/12/2024", "Parking", 12.0)],
        "Mensah": [("03/04/2024", "Markers", 43.19), ("03/06/2024", "Readers", 61.5)],
        "Cruz": [("03/19/2024", "Printer ink", 38.4), ("03/20/2024", "Workshop fee", 191.0)],
    }
    for name, items in claims.items():
        _claim_form(root / "Reimbursements" / f"2024_{name}.docx", name, items)
    (root / "handbook.md").write_text(
        "# Staff handbook\n\nStaff expenses: mileage is reimbursed at $0.67 per mile, and "
        "meals on work travel at $59 per day.\n",
        encoding="utf-8",
    )
    asked = "How much have staff claimed in total across all the expense reimbursement forms?"
    result = _explore(asked, root, tmp_path / "i.duckdb")
    assert result.answer.startswith("**$402.37** is the total of amount over 6 rows"), (
        result.answer[:300]
    )
    _verified(result)


def test_what_staff_claimed_is_each_claims_total_before_its_advance(tmp_path):
    """'claimed by staff' names who claimed, not a label nor the documents (a staff
    handbook with a total in it is not one of the claims): each form's own amount is read,
    and what was claimed is the claim's total, not what was paid out after an advance."""
    root = tmp_path / "office" / "Reimbursements"
    root.mkdir(parents=True)
    for name, items, advance in (
        ("Park", [("02/09/2024", "Mileage", 56.28), ("02/12/2024", "Parking", 12.0)], 0.0),
        ("Mensah", [("03/04/2024", "Markers", 43.19)], 0.0),
        ("Cruz", [("03/19/2024", "Workshop fee", 191.0)], 100.0),
    ):
        _claim_form(root / f"2024_{name}.docx", name, items, advance)
    (root.parent / "staff_handbook.md").write_text(
        "# Staff handbook\n\nClaims over $250 need approval.\n\nTotal mileage allowance: $500.00\n"
    )
    asked = "What was the average reimbursement claimed by staff?"
    result = _explore(asked, root.parent, tmp_path / "a.duckdb")
    expected = "**$100.82** is the average of 'Reimbursement total' over the 3 documents"
    assert result.answer.startswith(expected), result.answer[:300]
    _verified(result)


def test_a_total_over_budgets_with_subtotals_adds_up_each_documents_own_total(tmp_path):
    """Two award budgets print subtotals among their lines ("Personnel (subtotal)", "Direct
    costs") and end with their total: a total over them that names no line is each one's
    own total added up, not every line (which counts the subtotals again)."""
    root = tmp_path / "grants"
    root.mkdir()
    for year, salaries in ((1, 100_000), (2, 104_000)):
        book = Workbook()
        sheet = book.active
        sheet.append(["Budget line", "Amount"])
        direct = salaries + 30_000 + 20_000
        for line, amount in (
            ("Salaries", salaries),
            ("Fringe benefits", 30_000),
            ("Personnel (subtotal)", salaries + 30_000),
            ("Supplies", 20_000),
            ("Direct costs", direct),
            ("Indirect costs", direct // 2),
            ("Total award", direct + direct // 2),
        ):
            sheet.append([line, amount])
        book.save(root / f"award_budget_year_{year}.xlsx")
    asked = "Adding up both budget years, how much was awarded in total?"
    result = _explore(asked, root, tmp_path / "b.duckdb")
    expected = "**456,000** is the total of amount over 2 rows of sheet where the row is its"
    assert result.answer.startswith(expected), result.answer[:300]
    assert "Total award" in result.answer and "Direct costs" not in result.answer


def test_a_year_only_the_files_paths_name_leaves_out_other_years_files():
    """The rows carry no date; their files' folders do ("2023/", "2024/"): a total for
    2024 adds up the rows of the file filed under 2024 only (and of files naming no year)."""
    import duckdb

    from fsnb.offline.table_sql import Plan
    from fsnb.tools.payloads import LoadedMany

    read = ("Travel/2023/TR-23-0388.pdf", "Travel/2024/TR-24-0092.pdf", "Travel/notes.pdf")
    loaded = LoadedMany((), (), read, "claims", 3, {"source_file": "VARCHAR", "amount": "DOUBLE"})
    ask = aggregate_question("How much did we reimburse for travel in 2024 in total?")
    plan = Plan.of(ask, loaded)
    assert plan is not None and plan.file_years == (2024,)
    db = duckdb.connect()
    db.execute("CREATE TABLE claims (source_file VARCHAR, amount DOUBLE)")
    db.executemany(
        "INSERT INTO claims VALUES (?, ?)", list(zip(read, (100.0, 20.0, 3.0), strict=True))
    )
    assert db.execute(plan.aggregate_sql()).fetchone()[0] == 23.0
