"""The records of data/smallorg that are not money in and out: board minutes and bylaws,
grant letters and a grant report, the staff handbook (current and archived), the staff
roster, the lease and the IT services agreement (signed and a superseded draft), the
equipment inventory, and a Downloads folder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from . import smallorg_docs as docs
from .household_docs import flow_pdf, text_file
from .pdf import PdfDoc, h, p, ul, write_pdf
from .smallorg_docs import ADDRESS, ORG

MINUTES = {
    1: "Board/Minutes/2024-01-18_board_minutes.docx",
    2: "Board/Minutes/2024-02-15_board_minutes.docx",
    3: "Board/Minutes/2024-03-21_board_minutes.docx",
    4: "Board/Minutes/2024-04-18_board_minutes.docx",
}
MINUTES_DRAFT = "Board/Minutes/2024-03-21_board_minutes_DRAFT.docx"
BYLAWS = "Board/bylaws_amended_2019.pdf"
WHITCOMBE = {
    2024: "Grants/Awards/Whitcombe_Foundation_award_2024.pdf",
    2023: "Grants/Awards/Whitcombe_Foundation_award_2023.pdf",
}
LINDQVIST = "Grants/Awards/Lindqvist_Family_Fund_award.pdf"
CITY = "Grants/Awards/City_of_Harborview_minigrant_notice.docx"
INTERIM = "Grants/Reports/Whitcombe_interim_report_2024.docx"
TRACKER = "Grants/grant_tracker.xlsx"
HANDBOOK = "HR/staff_handbook_2024.pdf"
HANDBOOK_2021 = "HR/Archive/staff_handbook_2021.docx"
ROSTER = "HR/staff_roster.xlsx"
HOLIDAYS = "HR/holidays_2024.md"
LEASE = "Operations/Contracts/office_lease_212_Quarry.pdf"
AGREEMENT = "Operations/Contracts/Copperline_services_agreement.docx"
AGREEMENT_DRAFT = "Operations/Contracts/Copperline_agreement_DRAFT_v2.docx"
INVENTORY = "Operations/equipment_inventory.xlsx"
APPEAL = "Downloads/annual_appeal_2023.pptx"
QUOTE = "Downloads/chromebook_quote_Tekvalley.pdf"
WEBINAR = "Downloads/webinar_notes_grant_budgets.txt"

#: (year, grant number, amount, letter date, interim report due, final report due).
WHITCOMBE_GRANTS = {
    2024: ("WF-2024-0317", 52000, "January 8, 2024", "July 15, 2024", "January 31, 2025"),
    2023: ("WF-2023-0288", 45000, "January 10, 2023", "July 14, 2023", "January 31, 2024"),
}
LINDQVIST_AMOUNT = 18500
CITY_AMOUNT = 7500

BOARD = (
    "Margaret Aldous (Chair)",
    "Vikram Desai (Treasurer)",
    "Lorna Beckwith (Secretary)",
    "Samuel Achterberg",
    "Ines Carvalho",
    "Theo Nakashima",
    "Rosalind Mbeki",
)


def _minutes(path: Path, when: str, absent: tuple[str, ...], items: list[str], draft=False):
    """One set of minutes; every month has the same seven numbered items."""
    present = [m for m in BOARD if m.split(" (")[0] not in absent]
    heads = (
        "1. Call to order",
        "2. Minutes of the previous meeting",
        "3. Executive Director's report",
        "4. Treasurer's report",
        "5. Resolutions",
        "6. Other business",
        "7. Adjournment",
    )
    blocks: list[docs.Block] = []
    if draft:
        blocks.append(("p", "DRAFT for review by the Secretary. Not approved."))
    blocks += [
        ("p", f"Regular meeting held {when}, 6:00 p.m., community room, 212 Quarry Street."),
        ("p", "Directors present: " + ", ".join(present) + "."),
        ("p", "Directors absent: " + (", ".join(absent) if absent else "none") + "."),
        (
            "p",
            "Staff attending: Renata Osei (Executive Director), Priya Raman (Finance & "
            "Operations Manager).",
        ),
    ]
    for head, body in zip(heads, items, strict=True):
        blocks += [("h", head), ("p", body)]
    title = f"{ORG} - Board of Directors - Minutes"
    return docs.docx(path, title, blocks, author="Lorna Beckwith")


def board(out: Path, texts: dict[str, str], budget_total: int) -> None:
    texts[MINUTES[1]] = _minutes(
        out / MINUTES[1],
        "January 18, 2024",
        ("Rosalind Mbeki",),
        [
            "The Chair called the meeting to order at 6:04 p.m.; a quorum was present.",
            "The minutes of December 14, 2023 were approved without changes.",
            "Winter term enrollment stands at 214 learners with 57 active volunteer tutors. "
            "The Whitcombe Foundation has renewed its support for 2024; the award letter is "
            "filed under Grants/Awards. Two instructors completed TESOL recertification.",
            "Vikram Desai reported cash on hand of $187,340 at December 31, 2023 and an "
            "unaudited 2023 operating surplus of $11,905.",
            f"RESOLVED, that the FY2024 operating budget (Finance/budget_FY2024.xlsx), with "
            f"total expenses of ${budget_total:,}, is approved. Carried 6-0.",
            "Staff will prepare a comparison of cleaning contractors before the Pinecrest "
            "contract comes up for renewal in July.",
            "Adjourned at 7:41 p.m. Next meeting: February 15, 2024.",
        ],
    )
    texts[MINUTES[2]] = _minutes(
        out / MINUTES[2],
        "February 15, 2024",
        (),
        [
            "Called to order at 6:02 p.m. by the Chair.",
            "The minutes of January 18, 2024 were approved.",
            "The digital literacy cohort at the Eastside branch library started February 5 "
            "with 18 learners. The IT support contract expires on February 29.",
            "January spending came in 4 percent under budget. All vendor invoices were paid "
            "within terms.",
            "RESOLVED, that the organisation keeps Copperline Technology Services as its IT "
            "support provider for a further 24 months from March 1, 2024, on the terms of the "
            "Managed IT Services Agreement (see Operations/Contracts/"
            "Copperline_services_agreement.docx), and that the Executive Director is "
            "authorized to sign it. The higher-priced draft circulated in January (draft v2) "
            "is not accepted. Carried 7-0.",
            "Directors were reminded to return their conflict-of-interest statements by March 1.",
            "Adjourned at 7:28 p.m.",
        ],
    )
    march = [
        "Called to order at 6:07 p.m.",
        "The minutes of February 15, 2024 were approved with one spelling correction.",
        "From April 2 the evening ESL classes (Tuesday and Thursday) move into Suite 4. "
        "After-hours building access and heating for those classes are governed by Exhibit B "
        "of the office lease. The spring appeal raised {appeal} from 64 donors.",
        "First-quarter spending is tracking at 23 percent of the annual budget.",
        "RESOLVED, that the revised Staff Handbook (2024 edition) is adopted, effective "
        "{effective}. {vote}",
        "The board retreat will be held on June 8, 2024.",
        "Adjourned at 8:02 p.m. Next meeting: April 18, 2024.",
    ]
    final = {
        "appeal": "$9,870",
        "effective": "April 1, 2024",
        "vote": "Carried, 5 in favour, 1 opposed (S. Achterberg).",
    }
    draft = {
        "appeal": "$9,780",
        "effective": "March 25, 2024",
        "vote": "Carried unanimously, 6 in favour.",
    }
    texts[MINUTES[3]] = _minutes(
        out / MINUTES[3], "March 21, 2024", ("Theo Nakashima",), [m.format(**final) for m in march]
    )
    texts[MINUTES_DRAFT] = _minutes(
        out / MINUTES_DRAFT,
        "March 21, 2024",
        ("Theo Nakashima",),
        [m.format(**draft) for m in march],
        draft=True,
    )
    texts[MINUTES[4]] = _minutes(
        out / MINUTES[4],
        "April 18, 2024",
        ("Ines Carvalho",),
        [
            "The Chair called the meeting to order at 6:01 p.m.",
            "The minutes of March 21, 2024 were approved as amended: the draft recorded the "
            "handbook vote as unanimous; it is corrected to 5 in favour and 1 opposed.",
            "The Lindqvist Family Fund has invited a full proposal for Family Literacy Nights; "
            "the application is due May 10. Spring term enrollment: 229 learners.",
            "First-quarter expenses totalled $229,615, 24 percent of the annual budget.",
            "RESOLVED, that staff may purchase eight Chromebooks for the digital literacy lab "
            "at a cost not to exceed $3,200, based on the Tekvalley Computers quotation saved "
            "in Downloads (chromebook_quote_Tekvalley.pdf). Carried 6-0.",
            "None.",
            "Adjourned at 7:15 p.m. Next meeting: May 16, 2024.",
        ],
    )
    bylaws = PdfDoc(
        BYLAWS,
        f"Bylaws of {ORG}",
        ["A Maine nonprofit corporation", "As amended by the Board of Directors, October 2019"],
        [
            h("Article I. Name and purpose"),
            p(
                f"The name of the corporation is {ORG}. Its purpose is to help adults in the "
                "Harborview area improve their reading, writing, English language and digital "
                "skills."
            ),
            h("Article II. Board of Directors"),
            p(
                "The Board shall consist of not fewer than five and not more than nine "
                "directors. Directors serve terms of three years and may serve at most two "
                "consecutive terms."
            ),
            p(
                "A majority of the directors then in office constitutes a quorum. The Board "
                "meets at least six times a year; the annual meeting is held in October."
            ),
            h("Article III. Officers"),
            p(
                "The officers are a Chair, a Vice Chair, a Treasurer and a Secretary, elected "
                "at the annual meeting for one-year terms."
            ),
            h("Article IV. Fiscal year"),
            p("The fiscal year of the corporation is the calendar year."),
            h("Article V. Amendments"),
            p("These bylaws may be amended by a two-thirds vote of the directors in office."),
        ],
        footer=f"{ORG} - Bylaws",
    )
    (out / BYLAWS).parent.mkdir(parents=True, exist_ok=True)
    texts[BYLAWS] = write_pdf(bylaws, out)[1]


def grants(out: Path, texts: dict[str, str]) -> None:
    for year, (number, amount, dated, interim, final) in WHITCOMBE_GRANTS.items():
        rel = WHITCOMBE[year]
        paragraphs = [
            dated,
            f"Renata Osei, Executive Director, {ORG}, {ADDRESS}",
            "Dear Ms. Osei:",
            f"On behalf of the trustees, I am pleased to confirm a grant of ${amount:,} to "
            f"{ORG} in support of adult basic education and ESL instruction in {year}.",
            f"The grant period runs from January 1, {year} through December 31, {year}. Funds "
            f"are released in two equal installments, in January and July.",
            f"An interim narrative and financial report is due {interim}; the final report is "
            f"due {final}. Please quote the grant number on all correspondence.",
            "Please countersign and return a copy of this letter within 30 days.",
            "With warm regards, Elaine Marchetti, Senior Program Officer",
        ]
        table = [
            ["Grant number", number],
            ["Amount awarded", f"${amount:,}.00"],
            ["Installments", f"2 x ${amount // 2:,}.00"],
            ["Interim report due", interim],
        ]
        texts[rel] = flow_pdf(out / rel, "The Whitcombe Foundation", paragraphs, table)
    texts[LINDQVIST] = flow_pdf(
        out / LINDQVIST,
        "Lindqvist Family Fund",
        [
            "2 July 2024",
            f"To the Board and staff of {ORG}",
            "The trustees are delighted to support Family Literacy Nights with a one-year "
            "grant for the period 1 September 2024 to 31 August 2025 (reference LFF-24-112).",
            "The award will be paid in a single payment on 15 September 2024. A short report "
            "on families reached is requested by 30 September 2025.",
            "Annika Lindqvist-Shaw, Trustee",
        ],
        [["Total award", f"${LINDQVIST_AMOUNT:,}.00"], ["Payment date", "15 September 2024"]],
    )
    texts[CITY] = docs.docx(
        out / CITY,
        "City of Harborview - Neighborhood Opportunity Mini-Grant - Notice of Award",
        [
            ("p", "Date: 2024-05-06"),
            ("p", f"Recipient: {ORG}"),
            ("p", "Project: Digital Skills Lending Library (laptops and mobile hotspots)"),
            ("p", f"Awarded amount: ${CITY_AMOUNT:,}.00"),
            ("p", "Grant ID: MG-2024-031"),
            (
                "p",
                "Funds must be spent by 2024-12-31. Receipts are due with the close-out "
                "form by 2025-01-15.",
            ),
            ("p", "Department of Community Development, City of Harborview"),
        ],
        author="City of Harborview",
    )
    texts[INTERIM] = docs.docx(
        out / INTERIM,
        "Interim Report to The Whitcombe Foundation",
        [
            ("p", f"Grant WF-2024-0317. Submitted July 12, 2024 by Renata Osei, {ORG}."),
            ("p", "Reporting period: January 1 - June 30, 2024."),
            ("h", "Progress"),
            (
                "p",
                "Enrollment is ahead of last year. Evening classes moved into our own "
                "classrooms in April, which cut room rental costs.",
            ),
            (
                "t",
                [
                    ["Measure", "Jan-Jun 2024", "Annual target"],
                    ["Learners enrolled", "236", "300"],
                    ["Learners completing 40+ instructional hours", "158", "220"],
                    ["Learners advancing one or more levels", "97", "150"],
                    ["Active volunteer tutors", "61", "70"],
                ],
            ),
            ("h", "Finances"),
            (
                "p",
                "Grant funds received: $26,000.00. Grant funds spent to date: $24,318.40, "
                "mostly instructor salaries and graded readers.",
            ),
            ("h", "Challenges"),
            (
                "p",
                "Turnover among evening volunteers; we are piloting a shorter tutor "
                "training course in the autumn.",
            ),
        ],
    )
    texts[TRACKER] = docs.xlsx(
        out / TRACKER,
        {
            "Grants": [
                ("Funder", "Ref", "Amount", "Period", "Next report", "Status"),
                ("Whitcombe Foundation", "WF-2023-0288", 45000, "CY2023", "-", "Closed"),
                ("Whitcombe Foundation", "WF-2024-0317", 52000, "CY2024", "2024-07-15", "Active"),
                ("City of Harborview", "MG-2024-031", 7500, "2024", "2025-01-15", "Active"),
                (
                    "Lindqvist Family Fund",
                    "LFF-24-112",
                    18500,
                    "Sep24-Aug25",
                    "2025-09-30",
                    "Awarded",
                ),
                ("Marlowe Bank Charitable Trust", "-", 10000, "2024", "-", "Declined"),
            ]
        },
        money_columns=(3,),
    )


def _handbook(out: Path, texts: dict[str, str]) -> None:
    doc = PdfDoc(
        HANDBOOK,
        "Staff Handbook",
        [
            ORG,
            "2024 edition, adopted by the Board of Directors on March 21, 2024",
            "Effective April 1, 2024; replaces the January 2021 handbook",
        ],
        [
            h("1. Employment categories"),
            p(
                "Full-time staff are scheduled for 32 or more hours per week; part-time staff "
                "for fewer than 32. New staff complete a 90-day introductory period."
            ),
            h("2. Working hours and remote work"),
            p(
                "Core hours are 10 a.m. to 3 p.m. With their supervisor's approval, staff may "
                "work remotely up to two days per week. Instructors teach on site."
            ),
            h("3. Paid time off"),
            p(
                "Full-time staff earn 18 days of paid vacation per year, accrued monthly. "
                "Part-time staff accrue vacation in proportion to their scheduled hours. Up to "
                "5 unused vacation days may be carried into the next calendar year."
            ),
            p(
                "All staff receive 10 days of paid sick leave per year. Unused sick days carry "
                "over, up to a maximum balance of 30 days."
            ),
            p("The office closes for 11 paid holidays a year (see HR/holidays_2024.md)."),
            p(
                "After six months of employment, staff may take up to 12 weeks of paid "
                "parental leave at full pay."
            ),
            h("4. Travel and expenses"),
            p(
                "Meals on work travel are covered by a flat per diem instead of receipts: $59 "
                "per day within Maine and $74 per day for out-of-state travel. Use of a "
                "personal vehicle is reimbursed at the IRS standard mileage rate (67 cents per "
                "mile in 2024)."
            ),
            p(
                "Claims are made on Form F-3 within 30 days of the expense, with receipts. "
                "Claims over $250 need the approval of the Finance & Operations Manager."
            ),
            h("5. Professional development"),
            p(
                "Each full-time employee has a professional development allowance of $600 per "
                "year for courses, conferences and certification fees."
            ),
            h("6. Learner records"),
            p(
                "Learner files, assessment scores and immigration information are confidential "
                "and stay in the locked cabinet or the restricted folder of the shared drive."
            ),
        ],
        footer=f"{ORG} - Staff Handbook 2024",
    )
    (out / HANDBOOK).parent.mkdir(parents=True, exist_ok=True)
    texts[HANDBOOK] = write_pdf(doc, out)[1]
    texts[HANDBOOK_2021] = docs.docx(
        out / HANDBOOK_2021,
        "Staff Handbook (January 2021)",
        [
            ("h", "Time off"),
            (
                "p",
                "Full-time employees receive 15 days of paid vacation each year. Sick leave "
                "is 8 days per year and does not carry over.",
            ),
            ("p", "Paid parental leave: up to 8 weeks at full pay after one year of service."),
            ("h", "Travel"),
            (
                "p",
                "Meal per diem: $50 per day in state, $65 per day out of state. Mileage is "
                "reimbursed at 56 cents per mile.",
            ),
            ("h", "Training"),
            ("p", "Professional development allowance: $400 per full-time employee per year."),
        ],
    )


ROSTER_ROWS = (
    ("Name", "Title", "FTE", "Start date", "Reports to"),
    ("Renata Osei", "Executive Director", 1.0, dt.date(2016, 3, 1), "Board"),
    ("Tomasz Wierzbicki", "Program Director", 1.0, dt.date(2018, 1, 8), "Renata Osei"),
    ("Priya Raman", "Finance & Operations Manager", 1.0, dt.date(2019, 8, 12), "Renata Osei"),
    ("Caleb Ostrander", "Development Coordinator", 1.0, dt.date(2021, 5, 17), "Renata Osei"),
    ("Mireille Fontaine", "Volunteer Coordinator", 1.0, dt.date(2020, 9, 14), "Tomasz Wierzbicki"),
    ("Jun-ho Park", "ESL Instructor", 1.0, dt.date(2017, 8, 28), "Tomasz Wierzbicki"),
    ("Abena Mensah", "ESL Instructor", 0.8, dt.date(2022, 1, 10), "Tomasz Wierzbicki"),
    ("Luis Arreola", "Digital Literacy Instructor", 1.0, dt.date(2021, 10, 4), "Tomasz Wierzbicki"),
    ("Hannah Kowalczyk", "Family Literacy Lead", 1.0, dt.date(2019, 2, 25), "Tomasz Wierzbicki"),
    ("Dwayne Pettibone", "Office Administrator", 1.0, dt.date(2023, 6, 5), "Priya Raman"),
    ("Sofia Lindgren", "Outreach Associate", 0.5, dt.date(2023, 11, 13), "Caleb Ostrander"),
    (
        "Ezra Blumenthal",
        "Data & Evaluation Associate",
        0.6,
        dt.date(2022, 7, 18),
        "Tomasz Wierzbicki",
    ),
)
INVENTORY_ROWS = (
    ("Asset tag", "Item", "Location", "Purchased", "Cost", "Assigned to"),
    ("HLP-0101", "Dell Latitude 5440 laptop", "Office 1", "2023-09-14", 1129.00, "Renata Osei"),
    ("HLP-0102", "Dell Latitude 5440 laptop", "Office 2", "2023-09-14", 1129.00, "Priya Raman"),
    ("HLP-0103", "Lenovo ThinkPad E14", "Open work area", "2021-06-02", 879.50, "Caleb Ostrander"),
    ("HLP-0104", "Lenovo ThinkPad E14", "Open work area", "2021-06-02", 879.50, "Dwayne Pettibone"),
    ("HLP-0110", "Brother MFC-L8900 printer", "Reception", "2020-02-11", 649.99, "shared"),
    ("HLP-0112", "Epson PowerLite 118 projector", "Classroom A", "2022-08-30", 589.00, "shared"),
    ("HLP-0113", "Epson PowerLite 118 projector", "Classroom B", "2022-08-30", 589.00, "shared"),
    ("HLP-0120", "Chromebook cart, 16 slots", "Classroom B", "2019-10-07", 1340.00, "shared"),
    ("HLP-0131", "Owl Meeting camera", "Classroom A", "2023-01-19", 799.00, "shared"),
    (
        "HLP-0140",
        "Synology DS224+ file server",
        "Server closet",
        "2022-03-03",
        512.75,
        "Copperline",
    ),
    (
        "HLP-0141",
        "Ubiquiti wireless access point",
        "Server closet",
        "2022-03-03",
        179.00,
        "Copperline",
    ),
)


def people_and_places(out: Path, texts: dict[str, str]) -> None:
    _handbook(out, texts)
    texts[ROSTER] = docs.xlsx(out / ROSTER, {"Staff": list(ROSTER_ROWS)})
    texts[HOLIDAYS] = text_file(
        out / HOLIDAYS,
        "# Office holidays 2024\n\nThe office is closed on these 11 days (Staff Handbook, "
        "section 3):\n\n| Holiday | Date |\n|---|---|\n| New Year's Day | Mon 1 Jan |\n"
        "| Martin Luther King Jr. Day | Mon 15 Jan |\n| Presidents' Day | Mon 19 Feb |\n"
        "| Patriots' Day | Mon 15 Apr |\n| Memorial Day | Mon 27 May |\n"
        "| Juneteenth | Wed 19 Jun |\n| Independence Day | Thu 4 Jul |\n"
        "| Labor Day | Mon 2 Sep |\n| Indigenous Peoples' Day | Mon 14 Oct |\n"
        "| Thanksgiving | Thu 28 Nov |\n| Christmas Day | Wed 25 Dec |\n",
    )
    lease = PdfDoc(
        LEASE,
        "Commercial Office Lease",
        ["Ashgrove Commercial Properties LLC, Landlord", f"{ORG}, Tenant", "Dated June 1, 2022"],
        [
            p(
                "The Landlord leases to the Tenant Suite 4 on the second floor of 212 Quarry "
                "Street, Harborview, Maine, about 2,150 rentable square feet, as shown in "
                "Exhibit A.",
                lead="1. Premises.",
            ),
            p(
                "Five (5) years, beginning July 1, 2022 and ending June 30, 2027. The Tenant has "
                "one option to renew for three years on six months' written notice.",
                lead="2. Term.",
            ),
            p(
                "Base rent is $3,480.00 per month, payable in advance on the first business "
                "day of each month. Rent received more than ten days late bears a late charge "
                "of 5 percent.",
                lead="3. Rent.",
            ),
            p(
                "On signing, the Tenant deposits $6,960.00 as security for its obligations.",
                lead="4. Security deposit.",
            ),
            p(
                "The Tenant pays 6.4 percent of any increase in building operating expenses "
                "over the 2022 base year.",
                lead="5. Operating expenses.",
            ),
            p("Offices and adult education classrooms.", lead="6. Use."),
            p(
                "Building services, cleaning responsibilities, parking and after-hours access "
                "are set out in Exhibit B (Facilities Schedule).",
                lead="7. Services.",
            ),
            p(
                "The Tenant carries general liability insurance of at least $1,000,000 per "
                "occurrence, naming the Landlord as additional insured.",
                lead="8. Insurance.",
            ),
            h("SIGNATURES"),
            p(
                "For the Landlord: Douglas Ashgrove, Managing Member. For the Tenant: Renata "
                "Osei, Executive Director."
            ),
            h("Exhibit A - Premises"),
            p(
                "Suite 4 comprises a reception area, two offices, an open work area, a server "
                "closet and two classrooms (A and B)."
            ),
            h("Exhibit B - Facilities Schedule"),
            ul(
                "Building access: tenant key cards open the main entrance Monday through "
                "Saturday, 6:30 a.m. to 10:00 p.m. Sunday access by arrangement with the "
                "building manager.",
                "Heating and cooling run 7:00 a.m. to 7:00 p.m. on weekdays; after-hours HVAC "
                "is billed to the Tenant at $45 per hour.",
                "Cleaning: the Landlord cleans common areas; cleaning inside Suite 4 is the "
                "Tenant's responsibility.",
                "Parking: three reserved parking spaces in the rear lot (spaces 14-16).",
            ),
        ],
        footer="212 Quarry Street - Suite 4 Lease",
    )
    (out / LEASE).parent.mkdir(parents=True, exist_ok=True)
    texts[LEASE] = write_pdf(lease, out)[1]
    texts[AGREEMENT] = docs.docx(
        out / AGREEMENT,
        "Managed IT Services Agreement",
        [
            (
                "p",
                f"This Agreement is made on February 26, 2024 between {ORG}, a Maine "
                "nonprofit corporation (the Client), and Copperline Technology Services, "
                "LLC, 88 Foundry Road, Harborview (the Provider).",
            ),
            ("h", "1. Term"),
            (
                "p",
                "24 months, from March 1, 2024 through February 28, 2026. The Agreement "
                "then continues month to month until either party gives 60 days' written "
                "notice.",
            ),
            ("h", "2. Services"),
            (
                "p",
                "Help-desk support for up to 14 users, security patching, nightly backups of "
                "the shared drive and Microsoft 365 administration.",
            ),
            ("h", "3. Fees"),
            (
                "p",
                "The Client pays a fixed fee of $1,150.00 per month, which includes up to "
                "12 support hours each month. Additional hours are billed at $95.00 per "
                "hour in quarter-hour increments. Invoices are issued on the 5th of each "
                "month and are payable within 30 days.",
            ),
            ("h", "4. Response times"),
            (
                "p",
                "Critical issues: response within 2 business hours. Other requests: by the "
                "next business day.",
            ),
            ("h", "5. Signatures"),
            (
                "t",
                [
                    ["For the Client", "For the Provider"],
                    ["Renata Osei, Executive Director", "Graham Toller, Managing Partner"],
                    ["Signed 02/26/2024", "Signed 02/26/2024"],
                ],
            ),
        ],
    )
    texts[AGREEMENT_DRAFT] = docs.docx(
        out / AGREEMENT_DRAFT,
        "Managed IT Services Agreement - DRAFT v2",
        [
            ("p", "DRAFT v2, January 22, 2024. For discussion only; not for signature."),
            ("h", "1. Term"),
            ("p", "36 months from March 1, 2024."),
            ("h", "3. Fees"),
            (
                "p",
                "The Client pays a fixed fee of $1,240.00 per month, which includes up to "
                "10 support hours each month. Additional hours are billed at $110.00 per "
                "hour.",
            ),
            ("h", "5. Signatures"),
            ("t", [["For the Client", "For the Provider"], ["__________", "__________"]]),
        ],
        author="Graham Toller",
    )
    texts[INVENTORY] = docs.xlsx(
        out / INVENTORY, {"Assets": list(INVENTORY_ROWS)}, money_columns=(5,)
    )


def downloads(out: Path, texts: dict[str, str]) -> None:
    texts[APPEAL] = docs.pptx(
        out / APPEAL,
        "Every Reader Counts - 2023 Annual Appeal",
        [
            ("Every Reader Counts", ["2023 Annual Appeal", ORG], "Opening slide for donors."),
            (
                "Our year in numbers",
                ["198 learners served", "52 volunteer tutors", "9,400 instructional hours"],
                "Numbers are for January to October 2023.",
            ),
            (
                "Where a gift goes",
                ["$35 buys a learner's workbook set", "$150 trains one volunteer tutor"],
                "",
            ),
            (
                "Our goal",
                ["$60,000 by December 31, 2023", "Give at harborlight.example/give"],
                "We closed the 2023 appeal at $57,215.",
            ),
        ],
    )
    texts[QUOTE] = flow_pdf(
        out / QUOTE,
        "Tekvalley Computers - Quotation Q-24-0419",
        [
            f"Prepared for: Priya Raman, {ORG}",
            "Quote date: April 11, 2024. Valid for 30 days.",
            "Education pricing; delivery within 10 business days of order.",
        ],
        [
            ["8 x Acer Chromebook 314 @ $329.00", "$2,632.00"],
            ["8 x Chrome Education Upgrade @ $38.00", "$304.00"],
            ["Quote total", "$2,936.00"],
        ],
    )
    texts[WEBINAR] = text_file(
        out / WEBINAR,
        "Webinar: Grant budgets funders trust (Mar 6, hosted by the Maine Association of "
        "Nonprofits)\n\n- Show indirect costs honestly; many funders now allow 15-20%.\n"
        "- Keep a grant tracker with report due dates.\n"
        "- Budget narrative: explain any line that changes by more than 10%.\n",
    )
