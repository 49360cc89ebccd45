"""Offline answers put the answer first, and say plainly when the documents do not hold it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import fsnb
from fsnb.agent.result import ExplorationResult
from fsnb.offline.asked import absent, asks_for_list, worded_otherwise
from fsnb.offline.question import analyze
from fsnb.offline.ranking import tokens
from fsnb.offline.tuning import Tuning

DATA = Path(__file__).resolve().parents[1] / "data"

LEASE = """# Harbor Street office lease

The landlord is Quayside Properties Ltd. The lease of the Harbor Street office runs until
June 30, 2029. The annual rent is EUR 184,000, payable quarterly in advance.

The tenant may sublet up to a third of the floor space with the landlord's consent.
Parking: twelve spaces in the basement garage are included.
"""
FLEET = """# Vehicle fleet

The company runs eleven delivery vans. Each van is serviced every 20,000 kilometres.
The fleet manager is Ingrid Solberg, who reports to the operations director.

- Van 1: Ford Transit, bought 2021
- Van 2: Ford Transit, bought 2022
- Van 3: Renault Master, bought 2023
"""


def _make(root: Path, **files: str) -> Path:
    """A folder holding `files` (name without ".md" -> markdown text)."""
    root.mkdir()
    for name, text in files.items():
        (root / f"{name}.md").write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return _make(tmp_path / "facilities", lease=LEASE, fleet=FLEET)


def _explore(question: str, folder: Path) -> ExplorationResult:
    result = fsnb.explore(question, folder=folder, llm="offline", db=folder.parent / "i.duckdb")
    assert result.ok, result.error
    assert all(c.verified for c in result.citations), [c.problem for c in result.citations]
    return result


def _first_line(result: ExplorationResult) -> str:
    return result.answer.splitlines()[0]


def test_the_first_line_answers_a_single_fact(folder: Path):
    result = _explore("What is the annual rent of the Harbor Street office?", folder)
    first = _first_line(result)
    assert "EUR 184,000" in first and first.rstrip(".").endswith("]")
    assert len(result.answer) < 800


def test_a_question_in_two_parts_gets_both_in_the_first_line(folder: Path):
    result = _explore("Who is the fleet manager, and how often is each van serviced?", folder)
    first = _first_line(result)
    assert "Ingrid Solberg" in first and "20,000 kilometres" in first


def test_a_list_question_keeps_its_items():
    assert asks_for_list("Which vans does the company run?")
    assert asks_for_list("List the conditions to closing")
    assert not asks_for_list("What is the annual rent?")
    assert not asks_for_list("Which firm audits the accounts?")
    assert not asks_for_list("What happens to the pension plan after the sale?")
    assert not asks_for_list("What was the price?")


def test_a_word_the_folder_never_uses_means_not_found(folder: Path):
    result = _explore("What warranty covers the delivery vans?", folder)
    assert result.answer.startswith("I could not find this: the documents I read do not state it")
    assert '"warranty"' in result.answer
    assert "Closest related passages (they do not answer it):" in result.answer


def test_a_common_word_worded_otherwise_still_finds_the_answer(folder: Path):
    # "people" is nowhere in the folder, but it is a common word: the answer is found
    result = _explore("Which people manage the fleet?", folder)
    assert "Ingrid Solberg" in result.answer
    assert "do not state" not in result.answer


def test_a_common_word_no_document_says_does_not_make_the_answer_unsure(tmp_path: Path):
    """ "car" is in no document (the policy says "vehicle"): the answer does not lose
    certainty for lacking it, and states the insured vehicle."""
    policy = (
        "# Tidewater Auto Insurance - Auto Policy\n\nPolicy number TA-88120-4. Named "
        "insured: Jordan T. Whitaker.\n\nInsured vehicle: 2019 Subaru Outback.\n\n"
        "Collision deductible | $1,000\n\nSix-month premium | $1,122.60\n"
    )
    home = "# Home policy\n\nThe home policy covers the contents of the flat. Deductible | $500\n"
    root = _make(tmp_path / "insurance", auto_policy=policy, home_policy=home)
    result = _explore("What is the collision deductible on the car insurance?", root)
    assert "$1,000" in _first_line(result) and "could not find" not in result.answer
    question = analyze("What car is insured on my auto policy?", tuning=Tuning())
    df = {"insur": 2, "auto": 1, "polici": 2}
    assert worded_otherwise(question, df, Tuning().rare_word) == {"car"}


def test_a_word_no_document_holds_and_the_word_it_may_narrow():
    """ "life" is in no document and comes before "insurance", which is: it may narrow it
    to a kind the folder lacks (a table's figure needs rows that say it,
    `fsnb.offline.tables`). "highest" picks among premiums; "actuary" is rare."""
    question = analyze(
        "What is the policy number of my life insurance, its highest premium and its actuary?",
        tuning=Tuning(),
    )
    df = dict.fromkeys(tokens("policy number insurance premium"), 2)
    found = {a.word: (a.rare, a.head) for a in absent(question, df, Tuning().rare_word)}
    assert found == {"life": (False, "insurance"), "highest": (False, ""), "actuary": (True, "")}


def test_a_word_asking_for_a_figure_over_everything_is_not_what_it_is_about():
    """ "overall" says what kind of figure is asked for, as "total" does: it weighs as
    little as a vague verb, so "Overall materiality was $520,000" shares little with
    "How much is GlobalTech paying for InnovateTech overall?"."""
    question = analyze("How much is GlobalTech paying for InnovateTech overall?", tuning=Tuning())
    assert question.weight(tokens("overall")[0]) == Tuning().vague_weight < 1.0
    assert question.weight(tokens("GlobalTech")[0]) == 1.0


def test_a_phrase_the_documents_never_say_means_not_found(folder: Path):
    # "garage" (the lease) and "manager" (the fleet) are both there, never together
    result = _explore("Who is the garage manager?", folder)
    assert result.answer.startswith("I could not find this")
    assert '"garage manager"' in result.answer
    said = _explore("Who is the fleet manager?", folder)
    assert "Ingrid Solberg" in _first_line(said)


STAFF = """# Key people

- Dana Ito - Chief Financial Officer - joined 2019 - retention bonus of $400,000.
- Omar Reyes - Chief Technology Officer - joined 2017 - retention bonus of $900,000.
- Lena Park - VP Sales - joined 2020 - retention bonus of $300,000.

Omar Reyes, Chief Technology Officer.

Retention bonuses are paid in two installments: April 1, 2026 and April 1, 2027.
The company employs 120 people, most of them engineers.
"""


@pytest.fixture
def staff(tmp_path: Path) -> Path:
    return _make(tmp_path / "people", staff=STAFF, lease=LEASE)


def test_a_later_part_that_points_back_is_answered_about_the_same_one(staff: Path):
    """ "that person" is the CTO: the row that names both beats the short line that only
    names the CTO followed by another person's bonus."""
    result = _explore("Who is the CTO, and what retention bonus will that person receive?", staff)
    first = _first_line(result)
    assert "Omar Reyes" in first and "$900,000" in first
    assert "$400,000" not in first and "$300,000" not in first


def test_the_first_line_puts_a_value_beside_what_was_asked():
    from fsnb.offline import Tuning
    from fsnb.offline.passages import nearness
    from fsnb.offline.question import analyze

    question = analyze("What is the purchase price of the shares?", tuning=Tuning())
    focus = {"purchas": 1.0, "share": 1.0}
    stated = "The Purchase Price of the Shares is $9,000,000, payable at Closing."
    aside = "The bonus pool of $400,000 is paid on top of the Purchase Price for the Shares."
    assert nearness(stated, focus, question.wants, question) > nearness(
        aside, focus, question.wants, question
    )
    numbered = "6.2 The shares are delivered at Closing under Section 2.2."
    count = analyze("How many shares are delivered?", tuning=Tuning())
    assert nearness(numbered, {"share": 1.0}, count.wants, count) == 0  # not quantities


def test_a_question_word_matches_the_forms_a_stemmer_leaves_apart():
    from fsnb.offline import Tuning
    from fsnb.offline.question import analyze

    question = analyze("How many people does the company employ, and who pays?", tuning=Tuning())
    assert {"employ", "pay"} <= question.unit_terms("It has 120 employees; the buyer paid.")
    statement = analyze("What does the statement say?", tuning=Tuning())
    assert not statement.unit_terms("The state of the art.")  # "state" is not "statement"


def test_passages_that_add_nothing_asked_stay_out_of_the_answer(staff: Path):
    result = _explore("How many people does the company employ?", staff)
    assert "120 people" in _first_line(result)
    assert "- " not in result.answer and "Quayside" not in result.answer


def test_a_unit_of_several_sentences_is_written_as_one_line():
    from fsnb.offline.statements import one_line

    assert one_line("2. Battery supply. One supplier, Voltaic Cells. Ends May 1, 2026.") == (
        "Battery supply; One supplier, Voltaic Cells; Ends May 1, 2026"
    )


IP = """# Intellectual property schedule

## Introduction

This schedule lists what the company owns.

## Issued patents

US Patent 7,111,222 - Sensor fusion. Filed 2015, issued 2018.

US Patent 7,333,444 - Battery cooling. Filed 2016, issued 2019.

## Pending applications

US Application 16/555,666 - Route planning. Filed 2023.

## Trademarks

ROVERLY, Reg. No. 4,000,001.
"""


def test_a_list_question_shows_first_the_entries_of_the_sections_that_name_it(tmp_path: Path):
    """Quoted passages seldom hold a whole list, so the fitted answer model does not state
    one as sure (fsnb/offline/data/weights.json); the entries still come first."""
    root = _make(tmp_path / "ip", schedule=IP, lease=LEASE)
    result = _explore("Which patents and patent applications does it hold?", root)
    said, shown = result.answer.split("The closest passages (I am not sure they answer it):")
    assert said.startswith("I could not find this for certain") and "listing 1" in said
    entries = shown.strip().split("\n- ")[:3]
    for number, entry in zip(("7,111,222", "7,333,444", "16/555,666"), entries, strict=True):
        assert number in entry
    assert "ROVERLY" not in "".join(entries) and "lists what" not in "".join(entries)


def test_how_many_wants_the_number_of_the_things_counted(staff: Path):
    result = _explore("How many people does the company employ, and who is the CTO?", staff)
    first = _first_line(result)
    assert "120 people" in first and "Omar Reyes" in first


BENEFITS = """# Benefit plans

## Pension plan

The pension plan has 240 members and assets of about $31 million, invested through two
index funds chosen by the trustees in 2019. The plan continues after the sale and merges
into the buyer's plan on January 1, 2026. After the merger, members receive a match of up
to 5% of pay, with credit for prior service. Vesting schedules stay as they are.
"""


def test_what_happens_gets_the_rest_of_the_account(tmp_path: Path):
    root = _make(tmp_path / "hr", benefits=BENEFITS, lease=LEASE)
    result = _explore("What happens to the pension plan after the sale?", root)
    assert "January 1, 2026" in _first_line(result)
    assert "5% of pay" in result.answer


def _bill(month: str, kwh: int) -> str:
    return (
        f"# Northgate Power - electricity bill\n\nAccount 4471-20. Billing month: {month}.\n\n"
        f"Electricity used this month: {kwh} kWh. Amount due: ${kwh * 0.16:.2f}.\n"
    )


def test_a_month_the_question_names_picks_the_document_dated_in_it(tmp_path: Path):
    root = _make(
        tmp_path / "bills",
        **{
            month: _bill(month, kwh)
            for month, kwh in (("2024-01", 812), ("2024-02", 774), ("2024-03", 690))
        },
    )
    result = _explore("How much electricity did I use in March 2024?", root)
    first = _first_line(result)
    assert "690 kWh" in first and "812" not in first and "774" not in first
    assert "period" in result.trace_df().iloc[-1]["reason"]  # why this first line


def test_a_document_dated_in_another_month_does_not_fill_in_the_month_asked(tmp_path: Path):
    """vetclinic's budget (no month), a Q2 update and a registration issued in August 2021
    that expires on August 31, 2024: nothing says the revenue of August 2024, and the
    registration's "August ... 2024" must not make the budget's line look like it does."""
    root = tmp_path / "office"
    root.mkdir()
    for name in (
        "Finance/budget_2024.xlsx",
        "Meetings/2024-Q2_practice_update.pptx",
        "Licenses/DEA/DEA_registration_Redcloud.pdf",
    ):
        shutil.copy(DATA / "vetclinic" / name, root)
    result = _explore("What was our total revenue in August 2024?", root)
    assert result.answer.startswith("I could not find this")
    # the closest passages open with the would-be first line: the budget's, alone
    would_be = result.answer.split("(I am not sure they answer it):")[1].split("\n- ")[1]
    assert "Total revenue" in would_be and "August" not in would_be


def test_a_document_the_question_names_gives_the_value_its_label_shares(tmp_path: Path):
    """Both policies print a deductible; the question names the home policy, which only
    its title says (the row is under "Coverages"): its row leads, not the auto policy's.
    (A lease and a fleet list make the folder more than the two.)"""
    root = _make(
        tmp_path / "Insurance",
        lease=LEASE,
        fleet=FLEET,
        home_policy=(
            "# Bellweather Mutual - Renters Home Policy Declarations\n\n## Policy\n\n"
            "Policy number RH-4471902.\n\n## Coverages\n\n"
            "| Item | Amount |\n|---|---|\n| Annual premium | $246.00 |\n| Deductible | $750 |\n"
        ),
        auto_policy=(
            "# Tri-County Auto Insurance - Policy Summary\n\nPolicy number TA-88120-4. "
            "Insured vehicle: 2019 Subaru Outback.\n\n## Coverage\n\n"
            "Collision deductible · $1,000\n\nComprehensive deductible · $250\n"
        ),
    )
    first = _first_line(_explore("What is the deductible on my home insurance policy?", root))
    assert first.startswith("Item: Deductible; Amount: $750"), first


def test_a_document_without_the_name_asked_about_does_not_finish_the_first_line(
    tmp_path: Path,
):
    """Dr. Okafor holds no DEA registration: the roster names her, each certificate names
    someone else. Her row and another's expiration date are not her registration's."""
    root = tmp_path / "clinic"
    root.mkdir()
    (root / "staff_roster.csv").write_text(
        "name,role,credential,start date,status\n"
        "Dr. Amaka Okafor,Relief veterinarian,DVM,2023-11-01,Per diem\n"
        "Dr. Lars Fenwick,Owner,DVM,2015-03-01,Full time\n"
        "Jo Marsh,Technician,CVT,2019-06-10,Full time\n",
        encoding="utf-8",
    )
    for n, name in enumerate(["Lars Fenwick", "Jo Marsh", "Oskar Berg", "Sara Holm"]):
        (root / f"dea_{n}.md").write_text(
            f"# DEA registration certificate\n\nRegistrant: Dr. {name}\n\n"
            f"Registration number: BX{n}180221\n\nExpiration date: March {n + 1}, 2027\n",
            encoding="utf-8",
        )
    result = _explore("When does Dr. Okafor's DEA registration expire?", root)
    assert "2027" not in _first_line(result)
    assert "could not find" in result.answer
