"""The records of data/vetclinic other than supplier invoices and finance: equipment service
contracts and the maintenance log, the premises registration and DEA registrations, the staff
roster, schedule and handbooks, the clinic's policies and fee schedules, de-identified client
estimates and visit summaries, staff meeting notes and a slide deck, and a Downloads folder.

Word files, workbooks and PDFs go through the shared writers (``smallorg_docs.docx`` and
``xlsx``, ``household_docs.flow_pdf`` for one-page documents, ``pdf.write_pdf`` for longer
ones, ``office.write_pptx``); each returns the text it wrote for the generator's fact check.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from . import smallorg_docs as office
from .household_docs import flow_pdf, text_file
from .office import write_pptx
from .pdf import PdfDoc, h, p, ul, write_pdf
from .smallorg_docs import cents

CLINIC = "Cedarbrook Veterinary Clinic"
ADDRESS = "415 Mill Street, Ashford, VT 05660"
FIXED_DATE = dt.datetime(2024, 7, 1, 8, 0, 0)

XRAY = "Equipment/Service_Contracts/Radiant_xray_service_2024-25.pdf"
XRAY_2023 = "Equipment/Archive/Radiant_xray_service_2023-24.pdf"
AUTOCLAVE = "Equipment/Service_Contracts/SteriPro_autoclave_agreement_2024.docx"
LOG = "Equipment/maintenance_log.xlsx"
PREMISES = "Licenses/premises_registration_2023-2025.pdf"
#: Vet -> (DEA file, registrant as printed, registration number, issued, expires).
DEA = {
    "Marsh": (
        "Licenses/DEA/DEA_registration_Marsh.pdf",
        "Elena Marsh, DVM",
        "FM4417265",
        "April 12, 2023",
        "April 30, 2026",
    ),
    "Fenwick": (
        "Licenses/DEA/DEA_registration_Fenwick.pdf",
        "Tobias Fenwick, DVM",
        "BF2290418",
        "September 8, 2022",
        "September 30, 2025",
    ),
    "Redcloud": (
        "Licenses/DEA/DEA_registration_Redcloud.pdf",
        "Aiyana Redcloud, DVM",
        "FR6031582",
        "August 19, 2021",
        "August 31, 2024",
    ),
}
RENEWALS = "Licenses/license_renewals.md"
ROSTER = "Staff/staff_roster.xlsx"
SCHEDULE = "Staff/schedule_week_of_2024-06-10.csv"
HANDBOOK = "Staff/employee_handbook_2024.docx"
HANDBOOK_2021 = "Staff/Archive/employee_handbook_2021.docx"
CD_PROCEDURE = "Policies/controlled_drug_log_procedure.pdf"
FEES = "Policies/fee_schedule_2024.xlsx"
FEES_2023 = "Policies/Archive/fee_schedule_2023.xlsx"
AFTER_HOURS = "Policies/after_hours_emergencies.md"
ESTIMATE = "Clients/estimate_dental_K-2291.docx"
VISIT_FELINE = "Clients/visit_summary_2024-05-14_F-1876.pdf"
VISIT_CANINE = "Clients/visit_summary_2024-06-20_K-3012.txt"
MEETINGS = {
    3: "Meetings/2024-03-12_staff_meeting.md",
    4: "Meetings/2024-04-09_staff_meeting.docx",
    5: "Meetings/2024-05-14_staff_meeting.txt",
}
MEETING_DRAFT = "Meetings/2024-05-14_staff_meeting_DRAFT.docx"
DECK = "Meetings/2024-Q2_practice_update.pptx"
MANUAL = "Downloads/SteriMax11_operator_manual.pdf"
QUOTE = "Downloads/Northbrook_quote_dental_sensor.pdf"
WEBINAR = "Downloads/webinar_notes_low_stress_handling.txt"

#: (service, 2024 fee, 2023 fee), whole dollars.
FEE_ROWS = (
    ("Wellness exam, dog or cat", 68, 64),
    ("Recheck exam (within 14 days)", 45, 42),
    ("Urgent exam, same day", 110, 98),
    ("Rabies vaccine", 28, 26),
    ("DHPP vaccine", 34, 32),
    ("FVRCP vaccine", 32, 30),
    ("Canine spay, under 50 lb", 385, 360),
    ("Canine spay, 50 lb and over", 465, 435),
    ("Canine neuter", 320, 300),
    ("Feline spay", 240, 225),
    ("Feline neuter", 165, 155),
    ("Dental cleaning with anesthesia, grade 1-2", 495, 460),
    ("Microchip, implanted and registered", 55, 52),
    ("Health certificate, domestic travel", 75, 70),
    ("Euthanasia with communal cremation", 210, 195),
    ("Nail trim", 22, 20),
)
ROSTER_ROWS = (
    ("Name", "Role", "Credential", "Start date", "Status"),
    ("Dr. Elena Marsh", "Medical Director and owner", "DVM", dt.date(2011, 6, 1), "Full-time"),
    ("Dr. Tobias Fenwick", "Associate Veterinarian", "DVM", dt.date(2017, 9, 5), "Full-time"),
    ("Dr. Aiyana Redcloud", "Associate Veterinarian", "DVM", dt.date(2021, 8, 16), "Full-time"),
    ("Dr. Nadia Quist", "Relief Veterinarian", "DVM", dt.date(2023, 11, 1), "Per diem"),
    ("Colleen Brandt", "Practice Manager", "-", dt.date(2014, 2, 3), "Full-time"),
    ("Mei Tanaka", "Lead Veterinary Technician", "CVT", dt.date(2018, 3, 5), "Full-time"),
    ("Ryan Petrakis", "Veterinary Technician", "CVT", dt.date(2020, 7, 13), "Full-time"),
    ("Jess Alvarado", "Veterinary Technician", "CVT", dt.date(2022, 10, 3), "Full-time"),
    ("Owen Gallagher", "Veterinary Assistant", "-", dt.date(2023, 4, 17), "Full-time"),
    ("Tasha Freeman", "Veterinary Assistant", "-", dt.date(2024, 1, 8), "Part-time"),
    ("Lucia Ferreira", "Client Service Representative", "-", dt.date(2019, 5, 20), "Full-time"),
    ("Devin Hale", "Client Service Representative", "-", dt.date(2023, 8, 28), "Part-time"),
    ("Sam Whitley", "Kennel Attendant", "-", dt.date(2022, 6, 6), "Part-time"),
    ("Gretchen Holm", "Bookkeeper", "-", dt.date(2016, 1, 11), "Part-time"),
)
LOG_ROWS = (
    ("Date", "Equipment", "Work done", "Done by", "Cost"),
    (
        dt.date(2024, 1, 9),
        "Autoclave (SteriMax 11)",
        "Door gasket replaced (yearly gasket under agreement)",
        "SteriPro Equipment Services",
        0,
    ),
    (
        dt.date(2024, 2, 20),
        "Anesthesia machine",
        "Isoflurane vaporizer serviced and certified",
        "Carter Anesthesia Services",
        285,
    ),
    (
        dt.date(2024, 3, 14),
        "X-ray (Kestrel DR-40)",
        "Annual calibration and radiation output check",
        "Radiant Imaging Services",
        0,
    ),
    (
        dt.date(2024, 4, 16),
        "Autoclave (SteriMax 11)",
        "Spring preventive maintenance visit",
        "SteriPro Equipment Services",
        0,
    ),
    (
        dt.date(2024, 5, 7),
        "Dental unit compressor",
        "Oil changed, air filter cleaned",
        "In-house (R. Petrakis)",
        0,
    ),
    (
        dt.date(2024, 5, 29),
        "Autoclave (SteriMax 11)",
        "Heating element replaced after failed cycles (part not covered)",
        "SteriPro Equipment Services",
        412.5,
    ),
    (
        dt.date(2024, 6, 18),
        "Oxygen concentrator",
        "Intake filters replaced",
        "In-house (M. Tanaka)",
        38,
    ),
)


def _pdf(out: Path, doc: PdfDoc) -> str:
    (out / doc.filename).parent.mkdir(parents=True, exist_ok=True)
    return write_pdf(doc, out)[1]


def _xray(rel: str, term: str, fee: int, response: str, signed: str) -> PdfDoc:
    return PdfDoc(
        rel,
        "Service Agreement - Digital Radiography",
        [
            "Radiant Imaging Services, Inc., 2200 Commerce Way, Nashua, NH 03062",
            f"Customer: {CLINIC}, {ADDRESS}",
            f"Term: {term}",
        ],
        [
            p(
                "Kestrel DR-40 digital X-ray system installed in the treatment area: "
                "generator, table, flat-panel detector and acquisition workstation.",
                lead="1. Equipment covered.",
            ),
            p(
                "One preventive maintenance visit a year, done together with the annual "
                "calibration and radiation output check; remote software support on weekdays; "
                "parts and labor for covered repairs. The X-ray tube and detector damage from "
                "drops or fluids are excluded.",
                lead="2. Services.",
            ),
            p(response, lead="3. Response."),
            p(
                f"The annual service fee is {cents(fee * 100)}, billed in four quarterly "
                f"installments of {cents(fee * 25)} in advance. Service calls outside business "
                "hours (weekdays 8 a.m. to 6 p.m.) are billed separately.",
                lead="4. Fees.",
            ),
            p(
                "The agreement renews for another year unless either party gives 60 days' "
                "written notice before the end of the term.",
                lead="5. Renewal.",
            ),
            h("SIGNATURES"),
            p(signed),
        ],
        footer="Radiant Imaging Services - Service Agreement",
    )


def equipment(out: Path, texts: dict[str, str]) -> None:
    texts[XRAY] = _pdf(
        out,
        _xray(
            XRAY,
            "July 1, 2024 to June 30, 2025 (agreement RIS-SA-1190-24)",
            3840,
            "For a fault that stops the system from taking images, a field engineer is on "
            "site within 8 business hours of the service call; other faults within 2 business "
            "days.",
            "For the Customer: Elena Marsh, DVM, Medical Director, June 17, 2024. For Radiant "
            "Imaging Services: Victor Amsel, Service Account Manager.",
        ),
    )
    texts[XRAY_2023] = _pdf(
        out,
        _xray(
            XRAY_2023,
            "July 1, 2023 to June 30, 2024 (agreement RIS-SA-1190-23)",
            3600,
            "A field engineer is on site within 2 business days of any service call.",
            "For the Customer: Elena Marsh, DVM, Medical Director, June 12, 2023. For Radiant "
            "Imaging Services: Victor Amsel, Service Account Manager.",
        ),
    )
    texts[AUTOCLAVE] = office.docx(
        out / AUTOCLAVE,
        "Preventive Maintenance Agreement",
        [
            (
                "p",
                "Agreement SP-5527-A between SteriPro Equipment Services LLC, 14 Depot Road, "
                f"Montpelier, VT (SteriPro) and {CLINIC} (the Customer).",
            ),
            ("h", "Equipment"),
            ("p", "One SteriMax 11 tabletop steam sterilizer in the surgery prep room."),
            ("h", "Coverage period"),
            ("p", "January 1, 2024 through December 31, 2024."),
            ("h", "Included services"),
            (
                "p",
                "Two preventive maintenance visits per year (April and October): chamber and "
                "valve cleaning, safety valve test, and a check of temperature and pressure "
                "calibration. One door gasket replacement per year. Labor for repairs during "
                "business hours.",
            ),
            ("h", "Not included"),
            (
                "p",
                "Replacement parts other than the yearly door gasket are billed at list price. "
                "Weekly biological indicator (spore) testing remains the Customer's job.",
            ),
            ("h", "Fees"),
            ("p", "Annual fee: $1,260.00, invoiced in January and payable within 30 days."),
            (
                "t",
                [
                    ["For SteriPro", "For the Customer"],
                    ["Janelle Ortiz, Service Coordinator", "Colleen Brandt, Practice Manager"],
                    ["12/18/2023", "12/20/2023"],
                ],
            ),
        ],
        author="SteriPro Equipment Services LLC",
    )
    texts[LOG] = office.xlsx(out / LOG, {"Log": list(LOG_ROWS)}, money_columns=(5,), author=CLINIC)


def licenses(out: Path, texts: dict[str, str]) -> None:
    texts[PREMISES] = flow_pdf(
        out / PREMISES,
        "State of Vermont - Office of Professional Regulation",
        [
            "Veterinary Premises Registration",
            f"Registered premises: {CLINIC}, {ADDRESS}",
            "Premises type: small animal clinic, full service (surgery, radiology, pharmacy)",
            "Veterinarian in charge: Elena Marsh, DVM",
            "This registration must be displayed where clients can see it. It is not "
            "transferable to another owner or address.",
        ],
        [
            ["Registration number", "VP-0419"],
            ["Issued", "July 1, 2023"],
            ["Expires", "June 30, 2025"],
            ["Biennial fee paid", "$150.00"],
        ],
    )
    for rel, registrant, number, issued, expires in DEA.values():
        texts[rel] = flow_pdf(
            out / rel,
            "Controlled Substance Registration Certificate",
            [
                "United States Department of Justice, Drug Enforcement Administration",
                f"Registrant: {registrant}",
                f"Registered address: {CLINIC}, {ADDRESS}",
                "Business activity: Practitioner (veterinarian)",
                "This certificate is not transferable on change of ownership, control, "
                "location or business activity.",
            ],
            [
                ["DEA registration number", number],
                ["Schedules", "2, 2N, 3, 3N, 4, 5"],
                ["Date issued", issued],
                ["Expiration date", expires],
                ["Fee paid", "$888.00"],
            ],
        )
    texts[RENEWALS] = text_file(
        out / RENEWALS,
        "# State licence renewals\n\n"
        "Vermont veterinary and veterinary technician licences (OPR online renewal). The "
        "premises registration is filed beside this note; DEA certificates are in the DEA "
        "folder.\n\n"
        "| Name | Licence | Number | Renew by |\n|---|---|---|---|\n"
        "| Elena Marsh | Veterinarian | 038.0011872 | 2026-01-31 |\n"
        "| Tobias Fenwick | Veterinarian | 038.0014420 | 2026-01-31 |\n"
        "| Aiyana Redcloud | Veterinarian | 038.0016907 | 2026-01-31 |\n"
        "| Nadia Quist | Veterinarian (relief) | 038.0015131 | 2026-01-31 |\n"
        "| Mei Tanaka | Veterinary technician | 120.0003316 | 2025-03-31 |\n"
        "| Ryan Petrakis | Veterinary technician | 120.0004058 | 2025-03-31 |\n"
        "| Jess Alvarado | Veterinary technician | 120.0004790 | 2025-03-31 |\n\n"
        "Continuing education: 30 hours per two-year cycle for vets, 20 for technicians.\n",
    )


def _handbooks(out: Path, texts: dict[str, str]) -> None:
    texts[HANDBOOK] = office.docx(
        out / HANDBOOK,
        f"{CLINIC} - Employee Handbook (2024)",
        [
            ("p", "Effective January 1, 2024. Replaces the 2021 handbook."),
            ("h", "Hours and scheduling"),
            (
                "p",
                "The clinic is open Monday to Friday, 7:30 a.m. to 6:30 p.m. Schedules are "
                "posted two weeks ahead; shift swaps need the Practice Manager's approval.",
            ),
            ("h", "Paid time off"),
            (
                "p",
                "Full-time staff earn paid time off (PTO) by completed years of service, as "
                "below. Part-time staff earn PTO in proportion to their scheduled hours. Up to "
                "5 unused PTO days carry over into the next year.",
            ),
            (
                "t",
                [
                    ["Years of service", "PTO per year"],
                    ["Less than 2 years", "10 days"],
                    ["2 up to 5 years", "15 days"],
                    ["5 or more years", "20 days"],
                ],
            ),
            (
                "p",
                "Full-time staff also receive 7 days of paid sick leave per year; part-time "
                "staff earn one hour of sick leave for every 30 hours worked. The clinic "
                "closes on 7 paid holidays.",
            ),
            ("p", "Bereavement: up to 3 paid days for the death of a close family member."),
            ("h", "Continuing education"),
            (
                "p",
                "Veterinarians receive a continuing education allowance of $2,000 per year and "
                "3 paid CE days. Credentialed technicians receive $750 per year and 2 paid CE "
                "days. Requests go to the Practice Manager.",
            ),
            ("h", "Staff pet care"),
            (
                "p",
                "Staff receive 30 percent off services and 10 percent off products for up to "
                "three pets of their own household.",
            ),
            ("h", "Uniforms"),
            ("p", "A scrubs allowance of $150 per year is paid with the first January payroll."),
        ],
        author=CLINIC,
    )
    texts[HANDBOOK_2021] = office.docx(
        out / HANDBOOK_2021,
        f"{CLINIC} - Employee Handbook (2021)",
        [
            ("h", "Time off"),
            (
                "p",
                "Full-time staff receive 10 days of paid time off in their first two years, "
                "12 days from year three and 15 days after five years. Sick leave is 5 days per "
                "year.",
            ),
            ("h", "Continuing education"),
            ("p", "Veterinarians: $1,500 per year. Credentialed technicians: $500 per year."),
            ("h", "Staff pet care"),
            ("p", "Staff discount: 20 percent off services for up to two pets."),
        ],
        author=CLINIC,
    )


def staff_and_policies(out: Path, texts: dict[str, str]) -> None:
    texts[ROSTER] = office.xlsx(out / ROSTER, {"Staff": list(ROSTER_ROWS)}, author=CLINIC)
    texts[SCHEDULE] = text_file(
        out / SCHEDULE,
        "date,day,hours,vets,technicians,assistants,front_desk\n"
        "2024-06-10,Mon,7:30-18:30,Marsh; Fenwick,Tanaka; Petrakis,Gallagher,Ferreira; Hale\n"
        "2024-06-11,Tue,7:30-18:30,Fenwick; Redcloud,Tanaka; Alvarado,Gallagher; Freeman,"
        "Ferreira\n"
        "2024-06-12,Wed,7:30-18:30,Marsh; Redcloud,Petrakis; Alvarado,Gallagher,Ferreira; Hale\n"
        "2024-06-13,Thu,7:30-18:30,Marsh; Quist,Tanaka; Petrakis,Freeman,Ferreira\n"
        "2024-06-14,Fri,7:30-18:30,Fenwick; Redcloud,Alvarado; Petrakis,Gallagher,Hale\n"
        "2024-06-15,Sat,8:00-12:00,Redcloud,Alvarado,-,Hale\n",
    )
    _handbooks(out, texts)
    procedure = PdfDoc(
        CD_PROCEDURE,
        "Controlled Drug Log - Standard Operating Procedure",
        [CLINIC, "SOP-07, revised February 2024. Owner: Dr. Elena Marsh, Medical Director"],
        [
            h("1. Storage"),
            p(
                "Schedule II-V drugs are kept in the double-locked safe in the pharmacy. Only "
                "veterinarians and credentialed technicians on shift hold the keys; the key log "
                "is signed at every handover."
            ),
            h("2. Recording each use"),
            p(
                "Every withdrawal is entered in the bound controlled drug log before the end of "
                "the shift: date, patient ID, drug and strength, amount used, amount wasted, "
                "running balance, and the initials of the veterinarian and a witness."
            ),
            h("3. Weekly count"),
            p(
                "A veterinarian and a credentialed technician count every controlled drug each "
                "Monday morning and both sign the count sheet. Open bottles are measured by "
                "volume."
            ),
            h("4. Discrepancies"),
            p(
                "Any discrepancy, however small, is reported to the Medical Director within 24 "
                "hours and recorded on the discrepancy form. Theft or significant loss is "
                "reported to the DEA on Form 106 within one business day of discovery."
            ),
            h("5. Expired and unwanted drugs"),
            ul(
                "Expired stock is quarantined in the safe, labelled, and returned through the "
                "reverse distributor.",
                "Wasted doses are witnessed and recorded; they are never returned to stock.",
            ),
            h("6. Records"),
            p(
                "Logs, count sheets, invoices for controlled drugs and DEA Form 222 copies are "
                "kept for three years, one more than the federal minimum of two."
            ),
        ],
        footer=f"{CLINIC} - SOP-07",
    )
    texts[CD_PROCEDURE] = _pdf(out, procedure)
    texts[FEES] = office.xlsx(
        out / FEES,
        {"Fees 2024": [("Service", "Fee (USD)"), *((s, fee) for s, fee, _ in FEE_ROWS)]},
        money_columns=(2,),
        author=CLINIC,
    )
    texts[FEES_2023] = office.xlsx(
        out / FEES_2023,
        {"Fees 2023": [("Service", "Fee (USD)"), *((s, fee) for s, _, fee in FEE_ROWS)]},
        money_columns=(2,),
        author=CLINIC,
    )
    texts[AFTER_HOURS] = text_file(
        out / AFTER_HOURS,
        "# After-hours emergencies\n\n"
        "We do not see emergencies after closing. The voicemail message and the website send "
        "clients to:\n\n"
        "**Green Mountain Animal Emergency**, 88 Berlin Street, Montpelier - open 24 hours, "
        "802-555-0199.\n\n"
        "- The emergency hospital faxes or emails its records the next morning; the front desk "
        "attaches them to the patient file.\n"
        "- A vet calls every patient seen there on the next business day.\n",
    )


def _meetings(out: Path, texts: dict[str, str], revenue_q1: int) -> None:
    texts[MEETINGS[3]] = text_file(
        out / MEETINGS[3],
        "# Staff meeting - March 12, 2024\n\n"
        "Present: Dr. Marsh, Dr. Fenwick, Dr. Redcloud, Colleen, Mei, Ryan, Jess, Owen, Lucia, "
        "Devin.\n\n"
        "## Items\n\n"
        "- Flea and tick season: reminder postcards go out April 1.\n"
        "- Bluestem's courier pickup moves to 4:30 p.m. on weekdays.\n"
        "- Controlled drugs: two signatures on every Monday count, no exceptions (see the SOP "
        "in Policies).\n"
        "- Low-stress handling: Mei will share her webinar notes (saved in Downloads).\n\n"
        "## Action items\n\n"
        "- Colleen: get quotes for a digital dental X-ray sensor.\n"
        "- Ryan: service the dental unit compressor before May.\n",
    )
    texts[MEETINGS[4]] = office.docx(
        out / MEETINGS[4],
        "Staff meeting - April 9, 2024",
        [
            ("p", "Notes: Colleen Brandt. All three vets and eight staff present."),
            ("h", "Dental radiography"),
            (
                "p",
                "We reviewed the quote from Northbrook Veterinary Imaging (saved in Downloads). "
                "Dr. Marsh approved buying the sensor and software, with a spending limit of "
                "$7,500 including installation and training. Target go-live: early May.",
            ),
            ("h", "Equipment"),
            (
                "p",
                "The Radiant X-ray contract comes up for renewal on July 1; Colleen noted it "
                "costs us about $3,600 a year and will ask Radiant for the renewal paperwork. "
                "The autoclave spore test failed on April 3 and passed on the retest on April "
                "5; SteriPro's spring visit is booked for April 16.",
            ),
            ("h", "Staffing"),
            ("p", "Tasha moves to three days a week from May. Devin covers Friday afternoons."),
        ],
        author="Colleen Brandt",
    )
    texts[MEETINGS[5]] = text_file(
        out / MEETINGS[5],
        "STAFF MEETING NOTES - May 14, 2024\n"
        "(approved at the June 11 meeting)\n\n"
        "1. Saturday hours. Starting June 8, the clinic opens on Saturdays from 8 a.m. to 12 "
        "p.m., with one vet, one technician and one CSR. Colleen keeps the Saturday rota.\n"
        "2. Licences. Dr. Redcloud's DEA registration is up for renewal this summer; Colleen "
        "will send the reminder and check the fee is in the budget. The premises registration "
        "is not due until next year.\n"
        "3. Lab. Bluestem has confirmed its prices are unchanged for the rest of 2024.\n"
        "4. Dental sensor installed May 6; first full-mouth radiographs done May 8.\n"
        "5. Staff barbecue on June 22 at Dr. Marsh's.\n",
    )
    texts[MEETING_DRAFT] = office.docx(
        out / MEETING_DRAFT,
        "Staff meeting - May 14, 2024",
        [
            ("p", "DRAFT - not yet approved. Colleen, please check the Saturday details."),
            (
                "p",
                "Saturday hours: starting June 1, open Saturdays 9 a.m. to 1 p.m. with one "
                "vet, one technician and one CSR.",
            ),
            ("p", "Licences: Dr. Redcloud's DEA registration needs renewing this summer."),
            ("p", "Lab: Bluestem prices unchanged. Dental sensor is in and working."),
        ],
        author="Colleen Brandt",
    )
    texts[DECK] = write_pptx(
        out / DECK,
        "Practice update - Q2 2024",
        [
            ("Practice update, Q2 2024", [CLINIC, "All-staff meeting, May 14, 2024"], ""),
            (
                "First quarter in numbers",
                [f"Revenue: {cents(revenue_q1)}", "1,942 patient visits", "212 new clients"],
                "Revenue from Finance/revenue_2024.csv, January to March.",
            ),
            (
                "What's new",
                [
                    "Digital dental radiography since May 6",
                    "Saturday morning hours from June",
                    "Low-stress handling certification for all technicians by December",
                ],
                "",
            ),
            (
                "Reminders",
                [
                    "Controlled drug count every Monday, two signatures",
                    "Send CE requests to Colleen by June 30",
                ],
                "",
            ),
        ],
        CLINIC,
        FIXED_DATE,
    )


def _clients(out: Path, texts: dict[str, str]) -> None:
    lines = (
        ("Pre-anesthetic bloodwork", 11800, 11800),
        ("Anesthesia and monitoring", 18500, 24500),
        ("Scaling and polishing", 16500, 16500),
        ("Full-mouth dental radiographs", 9600, 9600),
        ("Extractions, if needed", 0, 23600),
        ("Pain medication to go home", 2800, 4800),
        ("IV fluids", 2000, 4000),
    )
    low, high = sum(r[1] for r in lines), sum(r[2] for r in lines)
    rows = [["Item", "Low", "High"]]
    rows += [[name, cents(a), cents(b)] for name, a, b in lines]
    rows.append(["Estimate total", cents(low), cents(high)])
    texts[ESTIMATE] = office.docx(
        out / ESTIMATE,
        "Treatment Estimate - Dental Procedure",
        [
            ("p", 'Patient K-2291 ("Biscuit"), canine, Beagle, 9 years, neutered male.'),
            ("p", "Prepared June 4, 2024 by Dr. Tobias Fenwick. Valid for 60 days."),
            ("t", rows),
            (
                "p",
                f"A deposit of {cents(low // 2)} (half the low estimate) is due when the "
                "procedure is booked. Extractions are only done if the radiographs show they "
                "are needed; we will call you before going above the low estimate.",
            ),
        ],
        author=CLINIC,
    )
    texts[VISIT_FELINE] = flow_pdf(
        out / VISIT_FELINE,
        "Visit Summary",
        [
            "Patient F-1876: feline, domestic shorthair, 13 years, spayed female.",
            "Date of visit: May 14, 2024. Veterinarian: Dr. Aiyana Redcloud.",
            "Reason for visit: weight loss over three months despite a good appetite.",
            "Findings: body condition 3/9, heart rate 228 bpm, small nodule palpable on the "
            "left thyroid.",
            "Plan: total T4 sent to Bluestem Diagnostics. If elevated, start methimazole 2.5 mg "
            "by mouth twice daily. Recheck exam and T4 in 3 weeks.",
        ],
        [["Wellness exam", "$68.00"], ["Total T4 (reference lab)", "$42.00"], ["Total", "$110.00"]],
    )
    texts[VISIT_CANINE] = text_file(
        out / VISIT_CANINE,
        "VISIT SUMMARY - patient K-3012\n"
        "Canine, Labrador retriever, 4 years, neutered male, 34 kg\n"
        "Visit: June 20, 2024 - Dr. Elena Marsh\n\n"
        "Reason: lame on the right hind leg since a hike on June 16.\n"
        "Exam: positive drawer sign, mild swelling of the right stifle.\n"
        "Radiographs: joint effusion, no fracture. Suspect partial cranial cruciate ligament "
        "tear.\n"
        "Plan: carprofen 75 mg twice daily for 14 days with food; strict leash rest; referral "
        "for a surgical consult at Green Mountain Veterinary Specialists.\n",
    )


def _downloads(out: Path, texts: dict[str, str]) -> None:
    manual = PdfDoc(
        MANUAL,
        "SteriMax 11 Tabletop Steam Sterilizer - Operator's Manual",
        ["Section 4: Cycles and routine care", "Manual rev. C"],
        [
            h("4.1 Cycle selection"),
            ul(
                "Unwrapped instruments: 132 °C for 3 minutes, then 30 minutes drying.",
                "Pouched instruments: 132 °C for 5 minutes, then 30 minutes drying.",
                "Packs and wrapped trays: 121 °C for 30 minutes, then 30 minutes drying.",
                "Liquids: 121 °C for 30 minutes with slow exhaust; no drying phase.",
            ),
            h("4.2 Water"),
            p(
                "Use distilled water only. Drain and refill the reservoir once a week, and "
                "whenever the water looks cloudy."
            ),
            h("4.3 Routine care"),
            ul(
                "Daily: wipe the door gasket and chamber rim with a damp cloth.",
                "Weekly: clean the chamber and trays with the approved cleaner; run a "
                "biological indicator test.",
                "Yearly: replace the door gasket and have a technician check the safety valve.",
            ),
        ],
        footer="SteriMax 11 Operator's Manual",
    )
    texts[MANUAL] = _pdf(out, manual)
    texts[QUOTE] = flow_pdf(
        out / QUOTE,
        "Northbrook Veterinary Imaging - Quotation NVI-Q-2407",
        [
            f"Prepared for: Colleen Brandt, {CLINIC}",
            "Quote date: March 28, 2024. Valid for 60 days.",
            "Includes a one-year warranty on the sensor and free software updates for a year.",
        ],
        [
            ["Dental DR sensor, size 2, with USB cable", "$5,450.00"],
            ["Imaging software license, one workstation", "$895.00"],
            ["On-site installation and staff training", "$640.00"],
            ["Quote total", "$6,985.00"],
        ],
    )
    texts[WEBINAR] = text_file(
        out / WEBINAR,
        "Webinar notes: Low-stress handling for cats and small dogs (VetEd Live, Feb 27)\n\n"
        "- Towel wraps beat scruffing; keep a stack of warm towels in each exam room.\n"
        "- Offer treats before, during and after; note favourites in the patient record.\n"
        "- Pheromone diffusers in the cat ward, changed every 30 days.\n"
        "- Pre-visit gabapentin for cats who struggled last time (vet's call).\n",
    )


def clients_meetings_downloads(out: Path, texts: dict[str, str], revenue_q1: int) -> None:
    _clients(out, texts)
    _meetings(out, texts, revenue_q1)
    _downloads(out, texts)
