"""The people, training, protocol, meeting, manuscript and Downloads files of data/lab.

Word files and workbooks go through ``smallorg_docs.docx`` and ``xlsx``, PDFs through
``lab_docs.form_pdf`` / ``long_pdf``, the slide deck through ``office.write_pptx``; every
writer returns the text it wrote (for the generator's fact check).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from . import smallorg_docs as office
from .household_docs import text_file
from .lab_docs import LAB, MARR_NO, PI, R01, UNIV, form_pdf, long_pdf
from .office import write_pptx
from .pdf import PdfDoc, h, p, ul

FIXED_DATE = dt.datetime(2024, 7, 8, 9, 0, 0)

ROSTER = "People/lab_roster_2024.xlsx"
ROSTER_2023 = "People/Archive/lab_roster_2023.xlsx"
TRAINING = "Safety/training_records_2024.xlsx"
TRAINING_2023 = "Safety/Archive/training_records_2023.csv"
RNA = "Protocols/RNA_extraction_TRIzol.md"
QPCR = "Protocols/qPCR_SYBR_green.md"
CRYO = "Protocols/zebrafish_ventricle_cryoinjury.docx"
LENTI = "Protocols/lentivirus_production_BSL2.docx"
MEETINGS = {
    2: "Meetings/2024-02-07_lab_meeting.md",
    3: "Meetings/2024-03-06_lab_meeting.docx",
    4: "Meetings/2024-04-03_lab_meeting.txt",
    5: "Meetings/2024-05-01_lab_meeting.md",
}
MEETING_DRAFT = "Meetings/2024-05-01_lab_meeting_DRAFT.docx"
RETREAT = "Meetings/2024-06-21_lab_retreat.pptx"
PAPER = "Manuscripts/lnc-hrr1_manuscript_draft_v4.docx"
PAPER_V2 = "Manuscripts/Archive/lnc-hrr1_manuscript_draft_v2.docx"
CAMERA_QUOTE = "Downloads/Lumira_Optics_quote_Q-88217.pdf"
GUIDE = "Downloads/NovaRead200_quick_reference.pdf"
PROGRAM = "Downloads/cardiac_regen_symposium_2024_program.txt"
CORE_RATES = "Downloads/core_facility_rates_FY25.csv"

D = dt.date
ROSTER_HEAD = ("Name", "Position", "Started", "Appointment ends", "Funding", "Email")
#: The current roster; "Appointment ends" is the expected end for graduate students.
ROSTER_ROWS = (
    (f"{PI}, PhD", "Principal Investigator (Associate Professor)", D(2016, 8, 15), "tenured",
     "Department", "ihalvorsen@nsu.example.edu"),
    ("Priya Raman", "Lab Manager", D(2018, 1, 8), D(2025, 6, 30),
     f"{R01} 50% / Department 50%", "praman@nsu.example.edu"),
    ("Daniel Kowalczyk", "Research Technician II (50% FTE)", D(2022, 2, 14), D(2025, 1, 31),
     "Department", "dkowalczyk@nsu.example.edu"),
    ("Tomas Echeverria, PhD", "Postdoctoral Fellow", D(2021, 9, 1), D(2025, 8, 31), R01,
     "techeverria@nsu.example.edu"),
    ("Hannah Bly, PhD", "Postdoctoral Research Associate", D(2023, 3, 1), D(2026, 2, 28),
     f"Marr Foundation {MARR_NO}", "hbly@nsu.example.edu"),
    ("Kwame Asante", "Graduate Student (PhD candidate, year 5)", D(2019, 9, 3), D(2024, 12, 31),
     f"{R01} (research assistantship)", "kasante@nsu.example.edu"),
    ("Lena Fischer", "Graduate Student (year 3)", D(2021, 9, 1), D(2026, 8, 14),
     "Cardiovascular T32 traineeship", "lfischer@nsu.example.edu"),
    ("Marcus Oyelaran", "Graduate Student (year 2)", D(2022, 9, 1), D(2027, 8, 13),
     "Teaching assistantship", "moyelaran@nsu.example.edu"),
    ("Yuki Morimoto", "Graduate Student (year 1)", D(2023, 9, 5), D(2028, 8, 11),
     "University fellowship", "ymorimoto@nsu.example.edu"),
    ("Ava Lindqvist", "Undergraduate Researcher", D(2023, 6, 12), D(2025, 5, 16),
     "Hourly, department funds", "alindqvist@nsu.example.edu"),
)  # fmt: skip
#: Last year's roster (superseded): other end dates, and a postdoc who has since left.
ROSTER_2023_ROWS = (
    (f"{PI}, PhD", "Principal Investigator (Associate Professor)", D(2016, 8, 15), "tenured",
     "Department"),
    ("Priya Raman", "Lab Manager", D(2018, 1, 8), D(2024, 6, 30), "Start-up / Department"),
    ("Daniel Kowalczyk", "Research Technician II (50% FTE)", D(2022, 2, 14), D(2024, 1, 31),
     "Department"),
    ("Rebecca Osei, PhD", "Postdoctoral Fellow", D(2020, 6, 1), D(2023, 12, 29), "Start-up"),
    ("Tomas Echeverria, PhD", "Postdoctoral Fellow", D(2021, 9, 1), D(2024, 8, 30), R01),
    ("Hannah Bly, PhD", "Postdoctoral Research Associate", D(2023, 3, 1), D(2024, 2, 29),
     "Start-up"),
    ("Kwame Asante", "Graduate Student (year 4)", D(2019, 9, 3), D(2024, 8, 16), R01),
    ("Lena Fischer", "Graduate Student (year 2)", D(2021, 9, 1), D(2026, 8, 14),
     "Teaching assistantship"),
    ("Marcus Oyelaran", "Graduate Student (year 1)", D(2022, 9, 1), D(2027, 8, 13),
     "University fellowship"),
)  # fmt: skip

#: Course code -> (title, years until a refresher is due).
COURSES = {
    "EHS-101": ("Lab Safety Fundamentals", 1),
    "BIO-210": ("BSL-2 and Bloodborne Pathogens", 1),
    "EHS-140": ("Hazardous Waste Generator", 1),
    "IACUC-ZF": ("Zebrafish Care and Procedures", 3),
    "EHS-155": ("Cryogen and Liquid Nitrogen Safety", 3),
}
#: (person, course, completed) for the current training records.
TRAINING_ROWS = (
    ("Priya Raman", "EHS-101", D(2024, 1, 16)),
    ("Priya Raman", "BIO-210", D(2024, 1, 18)),
    ("Priya Raman", "EHS-140", D(2024, 1, 23)),
    ("Priya Raman", "EHS-155", D(2022, 3, 9)),
    ("Daniel Kowalczyk", "EHS-101", D(2024, 2, 6)),
    ("Daniel Kowalczyk", "IACUC-ZF", D(2022, 3, 1)),
    ("Tomas Echeverria", "EHS-101", D(2023, 9, 19)),
    ("Tomas Echeverria", "BIO-210", D(2023, 9, 21)),
    ("Tomas Echeverria", "IACUC-ZF", D(2021, 10, 5)),
    ("Tomas Echeverria", "EHS-155", D(2023, 11, 2)),
    ("Hannah Bly", "EHS-101", D(2024, 2, 27)),
    ("Hannah Bly", "BIO-210", D(2024, 3, 5)),
    ("Hannah Bly", "IACUC-ZF", D(2023, 4, 4)),
    ("Kwame Asante", "EHS-101", D(2023, 8, 29)),
    ("Kwame Asante", "IACUC-ZF", D(2022, 9, 13)),
    ("Kwame Asante", "EHS-140", D(2023, 8, 31)),
    ("Lena Fischer", "EHS-101", D(2023, 8, 30)),
    ("Lena Fischer", "BIO-210", D(2023, 10, 17)),
    ("Lena Fischer", "IACUC-ZF", D(2022, 1, 25)),
    ("Marcus Oyelaran", "EHS-101", D(2024, 1, 10)),
    ("Marcus Oyelaran", "BIO-210", D(2024, 4, 24)),
    ("Yuki Morimoto", "EHS-101", D(2023, 9, 7)),
    ("Yuki Morimoto", "IACUC-ZF", D(2023, 10, 12)),
    ("Yuki Morimoto", "EHS-155", D(2024, 5, 14)),
    ("Ava Lindqvist", "EHS-101", D(2023, 6, 14)),
)


def expires(course: str, completed: dt.date) -> dt.date:
    years = COURSES[course][1]
    return completed.replace(year=completed.year + years)


def people_and_training(out: Path, texts: dict[str, str]) -> None:
    texts[ROSTER] = office.xlsx(
        out / ROSTER, {"Roster": [ROSTER_HEAD, *ROSTER_ROWS]}, author="Priya Raman"
    )
    texts[ROSTER_2023] = office.xlsx(
        out / ROSTER_2023, {"Roster 2023": [ROSTER_HEAD[:5], *ROSTER_2023_ROWS]}, author=LAB
    )
    rows: list[tuple] = [("Name", "Course", "Course title", "Completed", "Expires")]
    rows += [(n, c, COURSES[c][0], d, expires(c, d)) for n, c, d in TRAINING_ROWS]
    texts[TRAINING] = office.xlsx(out / TRAINING, {"Training": rows}, author="Priya Raman")
    texts[TRAINING_2023] = text_file(
        out / TRAINING_2023,
        "name,course,completed,notes\n"
        "Priya Raman,EHS-101,2023-01-12,\n"
        "Priya Raman,BIO-210,2023-01-12,\n"
        "Daniel Kowalczyk,EHS-101,2023-02-02,\n"
        "Rebecca Osei,EHS-101,2023-01-19,left December 2023\n"
        "Rebecca Osei,BIO-210,2023-01-19,\n"
        "Tomas Echeverria,EHS-101,2022-09-20,renew by 2023-09-20\n"
        "Kwame Asante,EHS-101,2022-08-30,\n"
        "Lena Fischer,EHS-101,2022-08-31,\n"
        "Marcus Oyelaran,EHS-101,2023-01-11,\n"
        "Marcus Oyelaran,BIO-210,2023-03-02,\n",
    )


def protocols(out: Path, texts: dict[str, str]) -> None:
    texts[RNA] = text_file(
        out / RNA,
        "# RNA extraction from zebrafish ventricles (TRIzol)\n\n"
        "Owner: Tomas. Last checked: March 2024. Work in the fume hood in B412 "
        "(see the safety manual, section 4).\n\n"
        "## Before you start\n\n"
        "- Pre-chill the centrifuge to 4 °C. Use RNase-free tubes and filter tips.\n"
        "- Pool 3 ventricles per sample; keep them on dry ice until TRIzol goes on.\n\n"
        "## Steps\n\n"
        "1. Homogenize the ventricles in 500 uL TRIzol with the pestle; leave 5 minutes at room "
        "temperature.\n"
        "2. Add 100 uL chloroform, shake hard for 15 seconds and leave 3 minutes.\n"
        "3. Spin at 12,000 x g for 15 minutes at 4 °C. Move the clear upper phase to a new "
        "tube; do not touch the interphase.\n"
        "4. Add 1 uL glycogen and 250 uL isopropanol; mix and leave 10 minutes.\n"
        "5. Spin at 12,000 x g for 10 minutes at 4 °C to pellet the RNA.\n"
        "6. Wash the pellet in 500 uL 75% ethanol; spin at 7,500 x g for 5 minutes.\n"
        "7. Air-dry 5 minutes (no longer) and dissolve in 15 uL RNase-free water.\n"
        "8. Clean up on an Alder RNA cleanup column with the on-column DNase step.\n\n"
        "Expect 300-600 ng per 3 ventricles. Record yields in the sample sheet.\n",
    )
    texts[QPCR] = text_file(
        out / QPCR,
        "# qPCR with SYBR Green\n\n"
        "Master mix: Alder SYBR Green qPCR master mix. cDNA: 500 ng RNA per 20 uL reaction "
        "(Alder cDNA synthesis kit), diluted 1:10 before use.\n\n"
        "| Component | Per 10 uL well |\n|---|---|\n"
        "| 2x master mix | 5 uL |\n| Primer mix (5 uM each) | 1 uL |\n"
        "| Diluted cDNA | 2 uL |\n| Water | 2 uL |\n\n"
        "Cycling on the QR-96: 95 °C 2 min, then 40 cycles of 95 °C 10 s / 60 °C 30 s, then a "
        "melt curve.\n\n"
        "Reference genes: rpl13a and ef1a (use the mean of both). Run technical triplicates; "
        "drop a well if it is more than 0.5 cycles from the other two.\n",
    )
    texts[CRYO] = office.docx(
        out / CRYO,
        "Ventricular cryoinjury in adult zebrafish",
        [
            ("p", "Covered by IACUC protocol A2023-0418. Only people listed on it may do this."),
            ("h", "Materials"),
            (
                "p",
                "Tricaine (MS-222) 168 mg/L buffered to pH 7 in system water; a wet sponge "
                "with a slit; fine forceps and spring scissors; the copper cryoprobe; a dewar of "
                "liquid nitrogen; recovery tanks of fresh system water.",
            ),
            ("h", "Procedure"),
            (
                "p",
                "Anesthetize the fish until it stops responding to a tail pinch (about 1 "
                "minute). Place it ventral side up in the sponge. Make a small incision through "
                "the body wall and pericardium to expose the ventricle. Cool the probe in "
                "liquid nitrogen and hold it against the ventricle for 23 seconds, then let it "
                "thaw off in system water.",
            ),
            (
                "p",
                "Return the fish to fresh system water and squirt water over the gills with a "
                "pipette until it swims on its own. Do no more than 12 fish in one session.",
            ),
            ("h", "Aftercare"),
            (
                "p",
                "Check the fish every day for 7 days and record it on the post-procedure "
                "sheet; tell the facility veterinarian about any fish that stops eating.",
            ),
        ],
        author="Tomas Echeverria",
    )
    texts[LENTI] = office.docx(
        out / LENTI,
        "Lentivirus production (BSL-2)",
        [
            ("p", "Registered under IBC-22-117. BSL-2 room B414, biosafety cabinet only."),
            ("h", "Transfection"),
            (
                "p",
                "Seed HEK293T cells at 5 million per 10 cm dish the day before. Transfect with "
                "the transfer plasmid and the Alder lentiviral packaging mix at a 1:1 ratio.",
            ),
            ("h", "Harvest"),
            (
                "p",
                "Collect the supernatant at 48 and 72 hours after transfection, filter it "
                "through 0.45 um filters and concentrate it by ultracentrifugation or with the "
                "concentrator reagent. Store single-use aliquots at -80 °C.",
            ),
            ("h", "Decontamination"),
            (
                "p",
                "Liquid waste gets bleach to a final 10% and stands for 30 minutes before it "
                "goes down the drain. Tips and plastics go in the biohazard bag for autoclaving.",
            ),
        ],
        author="Hannah Bly",
    )


def meetings(out: Path, texts: dict[str, str]) -> None:
    texts[MEETINGS[2]] = text_file(
        out / MEETINGS[2],
        "# Lab meeting - February 7, 2024\n\n"
        "Present: Ingrid, Priya, Tomas, Hannah, Kwame, Lena, Marcus, Yuki, Daniel.\n\n"
        "- New -80: Arctis quote came in at about $15k with racks and installation. Ingrid "
        "approved it; Priya raises the PO on the R01 equipment line.\n"
        "- Marr grant started January 1. Hannah's salary moves onto it from January.\n"
        "- Sequencer: flow cells on backorder at Corvane until March; plan runs around it.\n"
        "- Journal club rota: Marcus, then Yuki, then Lena.\n",
    )
    texts[MEETINGS[3]] = office.docx(
        out / MEETINGS[3],
        "Lab meeting - March 6, 2024",
        [
            ("p", "Notes: Priya Raman. Everyone present except Ava (exams)."),
            ("h", "Freezer"),
            (
                "p",
                "The Arctis freezer arrives in the last week of March. Everyone consolidates "
                "boxes in the old -80 before then; the old unit goes to university surplus.",
            ),
            ("h", "Progress report"),
            ("p", "The R01 progress report is due in May. Tomas drafts Aim 1 by April 12."),
            ("h", "Safety"),
            (
                "p",
                "The EHS walk-through found an unlabelled waste bottle in the hood. Full "
                "chemical names on every container, please.",
            ),
            ("h", "People"),
            ("p", "Lena passed her qualifying exam on February 28. Congratulations!"),
        ],
        author="Priya Raman",
    )
    texts[MEETINGS[4]] = text_file(
        out / MEETINGS[4],
        "LAB MEETING - April 3, 2024\n\n"
        "1. Sequencer service: the Corvane Assure plan renews August 1. We pay $10,650 a year "
        "now; Priya will ask Corvane for the renewal paperwork.\n"
        "2. Travel: Tomas to Boston April 14-17 (talk), Hannah to Chicago in May, Kwame to "
        "Portland in June. Keep receipts; forms go to Priya within 30 days of the trip.\n"
        "3. Fish room: Riverbend brine shrimp cysts back in stock; Daniel orders for April.\n"
        "4. Progress report: Aim 1 and Aim 2 text in; Ingrid submits by the end of April.\n",
    )
    texts[MEETINGS[5]] = text_file(
        out / MEETINGS[5],
        "# Lab meeting - May 1, 2024\n\n"
        "(Approved at the June 5 meeting.)\n\n"
        "## Decisions\n\n"
        "- Kwame's thesis defense is set for November 18, 2024 at 2 p.m. in Bergstrom 101; "
        "all committee members have confirmed.\n"
        "- Lab clean-up day: Friday, June 14. Freezer inventory the same afternoon.\n"
        "- Log every liquid nitrogen fill on the sheet by the tank, starting today.\n\n"
        "## Updates\n\n"
        "- Tomas circulated manuscript draft v4; comments to him by May 20.\n"
        "- Hannah: lnc-hrr7 knockdown repeats the proliferation phenotype.\n",
    )
    texts[MEETING_DRAFT] = office.docx(
        out / MEETING_DRAFT,
        "Lab meeting - May 1, 2024",
        [
            ("p", "DRAFT - Priya to confirm dates before this goes out."),
            ("p", "Kwame's defense: tentatively November 11, 2024, room to be booked."),
            ("p", "Clean-up day Friday June 7."),
            ("p", "LN2 fills to be logged. Manuscript v4 circulated."),
        ],
        author="Priya Raman",
    )
    texts[RETREAT] = write_pptx(
        out / RETREAT,
        "Halvorsen Lab retreat 2024",
        [
            ("Lab retreat, June 21, 2024", [LAB, UNIV], ""),
            (
                "The year in brief",
                [
                    "R01 year 2 funded from July 1",
                    "Marr Innovator Grant in its first year",
                    "New -80 freezer in service since March",
                    "lnc-hrr1 paper close to submission",
                ],
                "",
            ),
            (
                "Goals for 2024-25",
                [
                    "Submit the lnc-hrr1 paper by September",
                    "Kwame defends in November",
                    "lnc-hrr7 reporter fish by spring",
                ],
                "Ingrid asked everyone to keep protocols on the drive current.",
            ),
        ],
        "Ingrid Halvorsen",
        FIXED_DATE,
    )


def _paper(version: str, journal: str, abstract: str) -> list:
    return [
        ("p", f"Draft {version} - target journal: {journal}"),
        (
            "p",
            "Tomas Echeverria, Lena Fischer, Kwame Asante, Hannah Bly, Priya Raman and "
            f"{PI} (corresponding author), {UNIV}",
        ),
        ("h", "Abstract"),
        ("p", abstract),
        ("h", "Introduction"),
        (
            "p",
            "Unlike the adult mammalian heart, the zebrafish heart regenerates after injury, "
            "chiefly through the proliferation of surviving cardiomyocytes. The noncoding RNAs "
            "that switch this program on are poorly understood.",
        ),
        ("h", "Methods (summary)"),
        (
            "p",
            "Cryoinjury, RNA-seq, CRISPR promoter deletion and EdU labelling as in the lab "
            "protocols; all animal work under IACUC protocol A2023-0418.",
        ),
    ]


def manuscripts(out: Path, texts: dict[str, str]) -> None:
    title = (
        "A wound-induced long noncoding RNA, lnc-hrr1, is needed for cardiomyocyte "
        "proliferation in the regenerating zebrafish heart"
    )
    texts[PAPER] = office.docx(
        out / PAPER,
        title,
        _paper(
            "v4, June 24, 2024",
            "Development",
            "Profiling the ventricle at three times after cryoinjury, we identified 41 lncRNAs "
            "that rise more than fourfold. Deleting the promoter of one of them, lnc-hrr1, "
            "reduced cardiomyocyte proliferation near the wound by 42% and left a larger scar "
            "at 30 days. lnc-hrr1 binds the chromatin regulator Hdac1 and is needed for the "
            "injury response of its neighbouring gene.",
        ),
        author="Tomas Echeverria",
    )
    texts[PAPER_V2] = office.docx(
        out / PAPER_V2,
        title,
        _paper(
            "v2, January 30, 2024",
            "Developmental Cell",
            "We identified 37 lncRNAs induced after cryoinjury. Deleting the promoter of "
            "lnc-hrr1 reduced cardiomyocyte proliferation by about a third.",
        ),
        author="Tomas Echeverria",
    )


def downloads(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    count, texts[CAMERA_QUOTE] = form_pdf(
        out / CAMERA_QUOTE,
        "Lumira Optics LLC - Quotation Q-88217",
        [
            ("s", "Lumira Optics LLC, 31 Canal Street, Rochester, NY 14608"),
            (
                "kv",
                [
                    ("Prepared for", f"Hannah Bly, PhD, {LAB}, {UNIV}"),
                    ("Date", "May 29, 2024"),
                    ("Valid for", "90 days"),
                ],
            ),
            (
                "t",
                [
                    ["Item", "Price"],
                    ["Helios 4.2 sCMOS camera, 2048 x 2048, USB 3", "$12,340.00"],
                    ["C-mount adapter, 0.63x", "$385.00"],
                    ["Quote total", "$12,725.00"],
                ],
                [4.5, 1.6],
            ),
            ("p", "Academic pricing. Two-year warranty. Shipping included."),
        ],
    )
    pages[CAMERA_QUOTE] = count
    guide = PdfDoc(
        GUIDE,
        "NovaRead 200 Benchtop Sequencer - Quick Reference",
        ["Corvane Genomics, Inc.", "Document NR2-QR-07, revision D"],
        [
            h("Before a run"),
            ul(
                "Thaw the reagent cartridge in a room-temperature water bath for 60 minutes.",
                "Let the flow cell reach room temperature for 30 minutes in its sealed package.",
                "Check that at least 120 GB of run storage is free.",
            ),
            h("Loading"),
            p(
                "Dilute the final library pool to 1.8 pM with 1% PhiX. Load 1.3 mL into the "
                "cartridge reservoir marked LIB. Insert the flow cell, then the cartridge, and "
                "close the door until it clicks."
            ),
            h("Care"),
            ul(
                "Run a maintenance wash after every run and a full wash every 14 days when "
                "the instrument is idle.",
                "Store flow cells at 2-8 °C and reagent cartridges at -25 to -15 °C.",
                "Keep the instrument on its UPS; power events void service coverage.",
            ),
            h("Setting up the run"),
            p(
                "In the run manager, choose the run type (single or paired end), enter the read "
                "lengths and index cycles, and import the sample sheet. The instrument checks "
                "the sample sheet against the cartridge before it starts; a mismatch in the "
                "number of index cycles stops the run at setup."
            ),
            p(
                "A mid-output paired-end run of 2 x 75 cycles takes about 15 hours and gives "
                "up to 130 million read pairs. Runs can be watched from the run manager on any "
                "computer on the same network."
            ),
            h("Shutting down"),
            p(
                "Shut the instrument down from the software before turning off the power "
                "switch at the back. Leave the used flow cell and cartridge in place until the "
                "post-run wash has finished, then dispose of the cartridge as chemical waste: it "
                "contains formamide."
            ),
            h("Error codes"),
            ul(
                "E-204: fluidics pressure out of range; run a maintenance wash and retry.",
                "E-311: flow cell not detected; reseat the flow cell.",
                "E-520: optics calibration failed; call Corvane support.",
            ),
        ],
        min_pages=2,
        max_pages=3,
        footer="NovaRead 200 Quick Reference",
    )
    texts[GUIDE] = long_pdf(out, guide, pages)
    texts[PROGRAM] = text_file(
        out / PROGRAM,
        "CARDIAC REGENERATION SYMPOSIUM 2024 - Boston, MA - April 14-17\n"
        "Program (final)\n\n"
        "Sunday April 14   18:00  Welcome reception\n"
        "Monday April 15   09:00  Keynote: Scar or repair?\n"
        "                  14:20  T. Echeverria (Northgate State): A wound-induced lncRNA in\n"
        "                         zebrafish heart regeneration\n"
        "Tuesday April 16  09:00  Session: Immune cells in repair\n"
        "                  16:00  Poster session B\n"
        "Wednesday April 17 12:00 Closing remarks\n",
    )
    texts[CORE_RATES] = text_file(
        out / CORE_RATES,
        "core,service,unit,internal_rate\n"
        "Genomics Core,RNA-seq library prep (stranded),per sample,165.00\n"
        "Genomics Core,Sequencing run (mid output),per run,1480.00\n"
        "Genomics Core,Bioanalyzer RNA chip,per chip,62.00\n"
        "Zebrafish Facility,Housing per diem,per tank per day,0.42\n"
        "Zebrafish Facility,Quarantine intake,per shipment,95.00\n"
        "Imaging Core,Confocal (assisted),per hour,48.00\n",
    )
