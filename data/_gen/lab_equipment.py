"""The equipment, compliance and safety records of data/lab: the -80 freezer's quote and
invoice, the sequencer's service agreements (current and last year's), the confocal's service
agreement, the equipment inventory, the IACUC approvals (current and expired), the biosafety
registration and the lab safety manual.

PDFs go through ``lab_docs.form_pdf`` (forms, quotes, invoices) and ``lab_docs.long_pdf``
(longer documents); every writer returns the text it wrote (for the generator's fact check).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from . import smallorg_docs as office
from .lab_docs import (
    ADDRESS,
    CONFOCAL,
    DEPT,
    FREEZER_INVOICE,
    FREEZER_QUOTE,
    IACUC,
    IACUC_OLD,
    IBC,
    INVENTORY,
    LAB,
    MANUAL,
    PI,
    SEQ,
    SEQ_OLD,
    UNIV,
    form_file,
    long_pdf,
)
from .pdf import PdfDoc, h, p, ul

# --- equipment --------------------------------------------------------------------------------


def _freezer(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    freezer = ("UF-700 upright ULT freezer, -86 °C, 700 L", 1, 1498000)
    racks = "Stainless steel rack, 4 shelves"
    install = ("Delivery, uncrating and installation", 1, 45000)
    discount = ("Education discount, 10% on freezer", -149800)
    for rel, racks_qty, kind in ((FREEZER_QUOTE, 4, "quote"), (FREEZER_INVOICE, 6, "invoice")):
        lines = [freezer, (racks, racks_qty, 26500), install]
        rows = [["Description", "Qty", "Unit price", "Amount"]]
        rows += [[d, str(n), office.cents(c), office.cents(n * c)] for d, n, c in lines]
        rows.append([discount[0], "", "", f"-{office.cents(-discount[1])}"])
        total = sum(n * c for _, n, c in lines) + discount[1]
        if kind == "quote":
            head = [
                ("Quote no.", "AQ-24-0917"),
                ("Date", "February 12, 2024"),
                ("Valid until", "April 12, 2024"),
                ("Prepared for", f"Priya Raman, Lab Manager, {LAB}, {UNIV}"),
                ("Sales representative", "Jordan Pike"),
            ]
            rows.append(["Quote total", "", "", office.cents(total)])
            notes = [
                "Warranty: 2 years parts and labor; 7 years on the compressors. Lead time 3 to 4 "
                "weeks after order. Prices exclude sales tax; tax-exempt certificate required.",
            ]
            title = "Arctis Cold Systems, Inc. - Quotation"
        else:
            head = [
                ("Invoice", "INV-A-55102"),
                ("Invoice date", "March 21, 2024"),
                ("Customer PO", "P0418822"),
                ("Quote reference", "AQ-24-0917"),
                ("Ship to", f"{LAB}, {ADDRESS}"),
                ("Serial number", "UF7-24-03318"),
                ("Terms", "Net 45"),
            ]
            rows.append(["Balance due", "", "", office.cents(total)])
            notes = [
                "Two additional racks added at the customer's request (email of March 4, 2024). "
                "Installed and commissioned March 26, 2024.",
                "Remit to Arctis Cold Systems, Inc., 5100 Fernbrook Lane, Plymouth, MN 55446.",
            ]
            title = "Arctis Cold Systems, Inc. - Invoice"
        blocks = [("kv", head), ("t", rows, [3.0, 0.8, 1.2, 1.3])] + [("p", n) for n in notes]
        texts[rel] = form_file(out, rel, title, blocks, pages)


def _sequencer(rel: str, term: str, number: str, fee: str, response: str, signed: str) -> PdfDoc:
    return PdfDoc(
        rel,
        "Corvane Assure Service Plan - Agreement",
        [
            "Corvane Genomics, Inc., 4400 Innovation Drive, Durham, NC 27703",
            f"Customer: {LAB}, {DEPT}, {UNIV}",
            f"Agreement {number} | Term: {term}",
        ],
        [
            p(
                "One NovaRead 200 benchtop sequencer, serial NR2-01187, with its onboard "
                "compute module and the supplied uninterruptible power supply.",
                lead="1. Covered instrument.",
            ),
            p(
                "Parts, labor and engineer travel for repairs; one preventive maintenance visit "
                "a year, including optics calibration and a fluidics check; software and "
                "firmware updates; remote support on weekdays from 8 a.m. to 6 p.m. Central "
                "time.",
                lead="2. What the plan covers.",
            ),
            p(response, lead="3. Response."),
            p(
                "Flow cells, reagent cartridges and other consumables; damage from reagents not "
                "approved by Corvane, from power events without the supplied UPS, or from moving "
                "the instrument without Corvane's help. Work outside the plan is quoted "
                "separately.",
                lead="4. Exclusions.",
            ),
            p(
                f"The annual plan fee is {fee}, invoiced at the start of the term and payable "
                "within 30 days. If the instrument is down for more than 10 consecutive business "
                "days for a covered fault, the term is extended by the downtime.",
                lead="5. Fees.",
            ),
            p(
                "The plan renews for another year at Corvane's then-current price unless either "
                "party cancels in writing 30 days before the term ends.",
                lead="6. Renewal.",
            ),
            p(
                "The Customer keeps the room between 18 and 26 °C, provides a dedicated 20 A "
                "circuit and a network connection for remote diagnostics, runs the maintenance "
                "washes in the user guide and keeps the run logs for Corvane's engineers.",
                lead="7. Customer responsibilities.",
            ),
            p(
                "Corvane proposes the date of the preventive maintenance visit at least two "
                "weeks ahead; a visit the Customer postpones more than twice lapses for that "
                "year.",
                lead="8. Scheduling.",
            ),
            p(
                "Remote diagnostics read instrument logs and run metrics only. Sequence data "
                "never leave the instrument or the Customer's storage through the support "
                "connection.",
                lead="9. Data.",
            ),
            p(
                "Corvane's liability under this agreement is limited to the plan fee paid for "
                "the current term. Neither party is liable for lost data, lost samples or "
                "indirect damages.",
                lead="10. Liability.",
            ),
            p(
                "This agreement is governed by the laws of North Carolina, except where the "
                "Customer, as a public university, is bound by the laws of its own state. It is "
                "the whole agreement between the parties about the plan.",
                lead="11. General.",
            ),
            h("SIGNATURES"),
            p(signed),
        ],
        min_pages=2,
        max_pages=3,
        footer=f"Corvane Assure {number}",
    )


def equipment(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    _freezer(out, texts, pages)
    texts[SEQ] = long_pdf(
        out,
        _sequencer(
            SEQ,
            "August 1, 2024 to July 31, 2025",
            "CG-AS-3391-24",
            "$11,400.00",
            "After remote diagnosis, a field service engineer is on site within 2 business days "
            "for any fault that stops sequencing runs, and within 5 business days otherwise.",
            "For the Customer: Priya Raman, Lab Manager, for Ingrid Halvorsen, PI, July 2, "
            "2024. For Corvane Genomics: Elliot Brandvold, Service Contracts.",
        ),
        pages,
    )
    texts[SEQ_OLD] = long_pdf(
        out,
        _sequencer(
            SEQ_OLD,
            "August 1, 2023 to July 31, 2024",
            "CG-AS-3391-23",
            "$10,650.00",
            "After remote diagnosis, a field service engineer is on site within 3 business days "
            "for any fault.",
            "For the Customer: Priya Raman, Lab Manager, for Ingrid Halvorsen, PI, July 11, "
            "2023. For Corvane Genomics: Elliot Brandvold, Service Contracts.",
        ),
        pages,
    )
    texts[CONFOCAL] = office.docx(
        out / CONFOCAL,
        "Instrument Service Agreement",
        [
            (
                "p",
                "Agreement LIS-SA-20417 between Lumera Imaging Systems, Inc., 900 Lakeview "
                f"Parkway, Vernon Hills, IL (Lumera) and {UNIV}, {LAB} (the Customer).",
            ),
            ("h", "Instrument"),
            (
                "p",
                "Lumera CF-900 laser scanning confocal microscope, serial CF9-2019-0442, "
                "Bergstrom Hall room 420, with four laser lines (405, 488, 561 and 640 nm), "
                "two GaAsP detectors and the acquisition workstation.",
            ),
            ("h", "Period"),
            ("p", "January 1, 2024 to December 31, 2024."),
            ("h", "Coverage"),
            (
                "p",
                "Two preventive maintenance visits (spring and fall) with laser power and "
                "alignment checks; parts and labor for repairs; phone and remote support. The "
                "488, 561 and 640 nm lasers are covered for replacement. The 405 nm diode laser "
                "is excluded because it has reached end of support; a replacement will be "
                "quoted if it fails.",
            ),
            ("h", "Fees"),
            (
                "p",
                "The annual fee is $8,250.00, invoiced in four quarterly payments of $2,062.50. "
                "Repairs during the agreement are not charged except for excluded parts.",
            ),
            (
                "t",
                [
                    ["For Lumera", "For the Customer"],
                    ["Dana Okonjo, Service Sales", "Ingrid Halvorsen, PI"],
                    ["12/11/2023", "12/15/2023"],
                ],
            ),
        ],
        author="Lumera Imaging Systems, Inc.",
    )
    rows = [
        ("Asset tag", "Item", "Make and model", "Serial", "Room", "Acquired", "Service"),
        ("NSU-118842", "-80 °C ULT freezer", "Arctis UF-700", "UF7-24-03318", "B412",
         dt.date(2024, 3, 26), "Arctis warranty"),
        ("NSU-097310", "Benchtop sequencer", "Corvane NovaRead 200", "NR2-01187", "B418",
         dt.date(2021, 11, 9), "Corvane Assure plan"),
        ("NSU-101455", "Confocal microscope", "Lumera CF-900", "CF9-2019-0442", "B420",
         dt.date(2019, 5, 20), "Lumera service agreement"),
        ("NSU-089004", "Biosafety cabinet, class II A2", "Vantage A2-4", "VA4-16-2281", "B414",
         dt.date(2016, 10, 3), "Certified yearly (EHS contract)"),
        ("NSU-089017", "Real-time PCR system", "Quanta QR-96", "QR96-1702-118", "B412",
         dt.date(2017, 2, 14), "Time and materials"),
        ("NSU-102876", "Zebrafish housing rack, 5 shelves", "AquaTier ZR-5", "ZR5-19-077",
         "B010 fish room", dt.date(2019, 8, 1), "In-house"),
        ("NSU-089022", "-20 °C freezer", "Kelvin LF-20", "LF20-16-5512", "B412",
         dt.date(2016, 9, 12), "In-house"),
        ("NSU-092118", "Gel documentation system", "Lumina Gel Doc 2", "LGD2-18-0340", "B412",
         dt.date(2018, 4, 30), "Time and materials"),
    ]  # fmt: skip
    texts[INVENTORY] = office.xlsx(out / INVENTORY, {"Equipment": rows}, author=LAB)


# --- compliance and safety --------------------------------------------------------------------


def _iacuc(rel: str, number: str, dates: tuple[str, str, str], title: str, numbers: str):
    letter_date, approved, expires = dates
    return PdfDoc(
        rel,
        "Institutional Animal Care and Use Committee - Protocol Approval",
        [f"{UNIV} - Office of Research Compliance", letter_date],
        [
            p(f"To: {PI}, PhD, {DEPT}"),
            p(f"Protocol number: {number}. Title: {title}."),
            p(
                f"The IACUC reviewed and approved this protocol. Approval period: {approved} to "
                f"{expires}. An annual review must be completed before each anniversary of the "
                "approval date, and the protocol must be resubmitted for full review before it "
                "expires. Work may not continue under an expired protocol."
            ),
            h("Approved species and numbers"),
            p(numbers),
            h("Approved procedures"),
            ul(
                "Ventricular cryoinjury of adult fish under tricaine (MS-222) anesthesia, "
                "168 mg/L, buffered.",
                "Fin clips under anesthesia for genotyping.",
                "Intraperitoneal EdU injection.",
                "Euthanasia by rapid chilling followed by tricaine overdose.",
            ),
            h("Housing and husbandry"),
            p(
                "Fish are housed in the Zebrafish Facility (B010) on recirculating racks at "
                "28.5 °C with a 14-hour light and 10-hour dark cycle, at no more than 5 adult "
                "fish per liter. Facility staff feed twice daily; the laboratory feeds and "
                "checks its post-procedure fish."
            ),
            h("Records"),
            p(
                "Keep procedure records, post-procedure check sheets and fish counts for the "
                "life of the protocol and three years after it closes. Records are open to the "
                "IACUC, the attending veterinarian and inspectors at any time."
            ),
            h("Conditions"),
            ul(
                "Everyone handling animals must be listed on the protocol and have current "
                "zebrafish training. Add personnel by amendment before they start.",
                "Fish must be checked daily for 7 days after cryoinjury and the checks recorded "
                "on the post-procedure sheet.",
                "Report unexpected deaths or adverse events to the attending veterinarian within "
                "24 hours.",
            ),
            h("SIGNATURE"),
            p("Gwen Albrecht, PhD, Chair, Institutional Animal Care and Use Committee"),
        ],
        min_pages=2,
        max_pages=3,
        footer=f"IACUC {number}",
    )


def compliance_and_safety(out: Path, texts: dict[str, str], pages: dict[str, int]) -> None:
    texts[IACUC] = long_pdf(
        out,
        _iacuc(
            IACUC,
            "A2023-0418",
            ("May 16, 2023", "May 16, 2023", "May 15, 2026"),
            "Cardiac injury and regeneration in adult zebrafish",
            "Danio rerio (zebrafish): up to 2,400 adults and 6,000 larvae over three years.",
        ),
        pages,
    )
    texts[IACUC_OLD] = long_pdf(
        out,
        _iacuc(
            IACUC_OLD,
            "A2020-0233",
            ("May 20, 2020", "May 20, 2020", "May 19, 2023"),
            "Heart regeneration in adult zebrafish: cryoinjury and ventricular resection",
            "Danio rerio (zebrafish): up to 2,000 adults over three years.",
        ),
        pages,
    )
    texts[IBC] = form_file(
        out,
        IBC,
        "Institutional Biosafety Committee - Registration Approval",
        [
            ("s", f"{UNIV} - Office of Research Compliance - Biosafety Program"),
            (
                "kv",
                [
                    ("Registration number", "IBC-22-117 (renewal of IBC-19-064)"),
                    ("Principal investigator", f"{PI}, PhD"),
                    (
                        "Agents",
                        "Replication-incompetent third-generation lentiviral vectors (VSV-G "
                        "pseudotyped) made in HEK293T cells; recombinant DNA in E. coli K-12",
                    ),
                    ("Containment", "BSL-2 for lentiviral work (room B414); BSL-1 otherwise"),
                    ("Date approved", "September 27, 2022"),
                    ("Expiration date", "September 30, 2025"),
                ],
            ),
            ("h", "Conditions of approval"),
            (
                "p",
                "Everyone working with the registered agents completes BSL-2 training before "
                "starting and every year after. Spills outside the biosafety cabinet and any "
                "exposure are reported to the Biosafety Officer within 24 hours. Changes to "
                "vectors, transgenes or host cells need an amendment before the work begins.",
            ),
            (
                "p",
                "Questions: Raymond Iwu, PhD, Biosafety Officer. This approval does not replace "
                "IACUC approval for any use of vectors in animals.",
            ),
        ],
        pages,
        footer="IBC-22-117",
    )
    texts[MANUAL] = long_pdf(out, _manual(), pages)


def _manual() -> PdfDoc:
    return PdfDoc(
        MANUAL,
        f"{LAB} Safety Manual",
        [
            f"{DEPT}, {UNIV} - Bergstrom Hall rooms 412-420 and fish room B010",
            "Revision 2024-01 (replaces revision 2021-03). Owner: Priya Raman, Lab Manager",
        ],
        [
            h("1. Emergencies"),
            p(
                "Fire, serious injury or a large spill: leave the area, pull the alarm if "
                "needed and call 911 from any campus phone. Then call Environmental Health and "
                "Safety (EHS) at 555-0142 and tell the lab manager. Minor cuts and burns are "
                "treated with the first-aid kit by the door of B412 and reported the same day."
            ),
            h("2. Training before you start"),
            p(
                "Nobody works in the lab before finishing Lab Safety Fundamentals (EHS-101). "
                "BSL-2 work needs BSL-2 and Bloodborne Pathogens training (BIO-210); anyone "
                "entering the fish room for procedures needs Zebrafish Care and Procedures "
                "(IACUC-ZF); filling dewars needs Cryogen and Liquid Nitrogen Safety (EHS-155). "
                "Hazardous Waste Generator training (EHS-140) is required for everyone who puts "
                "chemicals in a waste container. EHS-101, BIO-210 and EHS-140 are refreshed "
                "every year; IACUC-ZF and EHS-155 every three years. The lab manager keeps the "
                "training records."
            ),
            h("3. Personal protective equipment"),
            p(
                "Lab coat, safety glasses and nitrile gloves at the bench; closed shoes and long "
                "trousers at all times. Face shield and cryogenic gloves for liquid nitrogen. "
                "Lab coats stay in the lab and go to the campus laundry service on Fridays."
            ),
            h("4. Chemicals"),
            p(
                "TRIzol, phenol, chloroform and formaldehyde are opened only in the fume hood "
                "in B412. Every container carries its full chemical name; abbreviations alone "
                "are not acceptable. Safety data sheets are linked from the chemical inventory "
                "on the lab drive."
            ),
            h("5. Waste"),
            p(
                "Chemical waste goes into labelled satellite containers in the hood in B412. "
                "Request an EHS pickup when a container is three-quarters full; a full container "
                "must leave the lab within 3 days. Sharps go into the red sharps boxes. Solid "
                "biohazardous waste is autoclaved in the department autoclave before disposal."
            ),
            h("6. Eyewash and safety shower"),
            p(
                "Each eyewash station is flushed for 3 minutes every week, and whoever does it "
                "initials the tag on the unit. The safety shower in the corridor is tested by "
                "Facilities and the date is on its tag. Keep the path to both clear."
            ),
            h("7. BSL-2 work (room B414)"),
            p(
                "Lentiviral work is done only in the class II biosafety cabinet in B414, which "
                "is certified every year by an outside vendor under the EHS contract. Wipe work "
                "surfaces with freshly made 10% bleach and leave it on for 20 minutes, then wipe "
                "with 70% ethanol. The door stays closed and the biohazard sign shows the agents "
                "in use."
            ),
            h("8. Liquid nitrogen"),
            p(
                "Never fill a dewar alone or after 6 p.m. Wear the face shield and cryogenic "
                "gloves, use the oxygen monitor in B416 and log each fill on the sheet by the "
                "supply tank."
            ),
            h("9. Freezer alarms"),
            p(
                "The -80 °C freezer's alarm calls the lab manager first, then Dr. Echeverria, "
                "then Dr. Halvorsen. Whoever answers checks the freezer within an hour and moves "
                "boxes to the backup freezer in B418 if the temperature is above -60 °C."
            ),
            h("10. Working alone"),
            p(
                "Hazardous work after 6 p.m. or at weekends needs a second person in the "
                "building who knows where you are. Routine work such as imaging may be done "
                "alone."
            ),
            h("11. Incidents"),
            p(
                "Report every injury, exposure or near miss on the EHS incident form within 24 "
                "hours, and tell the lab manager. Exposures to lentiviral material are also "
                "reported to the Biosafety Officer."
            ),
        ],
        max_pages=4,
        footer=f"{LAB} Safety Manual rev. 2024-01",
    )
