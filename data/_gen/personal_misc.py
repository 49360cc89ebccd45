"""data/personal, the rest: medical papers (explanations of benefits, a medication list, an
immunization record), tax notes, and Downloads' manual and unrelated brochure."""

from __future__ import annotations

from .pdf import h, p, ul
from .personal_docs import BROCHURE, MANUAL
from .personal_money import OWNER, money
from .personal_pdf import Doc, grid


def medications() -> str:
    return """# Medications

Updated October 2024. Primary care: Dr. Anita Rao, Riverside Family Medicine, (614) 555-0142.

| Medication | Dose | Schedule | Prescribed by |
|------------|------|----------|---------------|
| Lisinopril | 10 mg | once daily, morning | Dr. Anita Rao |
| Vitamin D3 | 2,000 IU | once daily | over the counter |
| Cetirizine | 5 mg | as needed in spring | over the counter |

## Allergies

- Penicillin: rash (2009)

## Notes

- Blood pressure check every six months with Dr. Rao.
- Refills go to Fairview Pharmacy on Fairview Lane.
"""


def immunizations() -> str:
    return """IMMUNIZATION RECORD - Jamie R. Castellano
Date of birth on file with Riverside Family Medicine

Vaccine                         Date given          Where
Tdap (tetanus booster)          March 3, 2021       Riverside Family Medicine
Hepatitis B, dose 3             June 14, 2019       Riverside Family Medicine
Shingles (recombinant), dose 1  April 22, 2024      Fairview Pharmacy
Shingles (recombinant), dose 2  August 30, 2024     Fairview Pharmacy
Influenza                       October 12, 2024    Fairview Pharmacy

Next tetanus booster due: March 2031
"""


def tax_notes() -> str:
    return """# 2024 taxes - notes

- Accountant: Morales & Pike CPAs (Gloria Morales), appointment on March 12, 2025 at 10:00 a.m.
- Bring: the W-2, every 1099-NEC and 1099-INT form, the property tax bill for 87 Maple Street,
  the estimated payment log and the landlord insurance declarations.
- Home office purchases: receipts are in Receipts/Home Office.
- Ask: are the elevator and boiler contracts deductible as expenses of the rental building?
- The Riverton Food Bank donation receipt came by email; print it before the appointment.
"""


#: (path, claim, provider, service date, [(service, billed, discount, plan paid, you owe)])
EOBS = (
    (
        "Medical/EOB_2024-02-14_Riverside_Family_Medicine.pdf",
        "BH-24-0211873",
        "Riverside Family Medicine",
        "February 2, 2024",
        [("Office visit, established patient", 24_000, 4_000, 15_500, 4_500)],
    ),
    (
        "Medical/EOB_2024-09-03_Lakeview_Imaging.pdf",
        "BH-24-0830552",
        "Lakeview Imaging Center",
        "August 20, 2024",
        [("MRI, right knee, without contrast", 185_000, 35_000, 118_000, 32_000)],
    ),
    (
        "Medical/EOB_2024-11-22_Riverside_Family_Medicine.pdf",
        "BH-24-1119004",
        "Riverside Family Medicine",
        "November 12, 2024",
        [
            ("Annual physical (preventive)", 31_000, 6_000, 25_000, 0),
            ("Lipid panel (lab)", 9_500, 1_500, 2_000, 6_000),
        ],
    ),
)


def eob(path: str, claim: str, provider: str, date: str, lines: list) -> Doc:
    totals = [sum(line[i] for line in lines) for i in range(1, 5)]
    rows = [(s, *(money(v) for v in vals)) for s, *vals in lines]
    return Doc(
        path,
        "Blue Harbor Health Plan - Explanation of Benefits",
        ["THIS IS NOT A BILL", f"Member: {OWNER}, member ID BHX-448120-01", f"Claim {claim}"],
        [
            grid(("Provider", provider), ("Date of service", date), header=False),
            grid(
                ("Service", "Billed", "Plan discount", "Plan paid", "You owe"),
                *rows,
                ("Total", *(money(v) for v in totals)),
            ),
            p(
                f"Your total responsibility for this claim is {money(totals[3])}. Your "
                "provider may bill you for this amount. Keep this statement for your records."
            ),
        ],
        footer="Blue Harbor Health Plan - Member Services 1-800-555-0199",
    )


def manual() -> Doc:
    blocks = [
        h("1. Safety"),
        p(
            "Place the printer on a flat, stable surface with at least 4 inches of clearance on "
            "every side. Use only the power cord supplied. The fuser gets hot: wait 20 minutes "
            "after printing before clearing paper inside the back cover."
        ),
        h("2. Unpacking and setup"),
        ul(
            "Remove the orange shipping tape and the protective sheet from the paper tray.",
            "Open the front cover, take out the drum and toner assembly, shake it gently and "
            "put it back until it locks.",
            "Connect the power cord and press the power button; the Ready light turns green.",
        ),
        h("3. Connecting to a wireless network"),
        p(
            "Press the Wi-Fi button for two seconds, then press the WPS button on your router "
            "within two minutes. The Wi-Fi light stays on when the printer has joined the "
            "network. To use a network password instead, install the Corvin Connect app and "
            "follow the steps it shows."
        ),
        h("4. Loading paper"),
        p(
            "The paper tray holds up to 250 sheets of 20 lb plain paper. Slide the guides to the "
            "paper size, fan the stack and load it face down. Envelopes and labels go through "
            "the manual feed slot one at a time."
        ),
        h("5. Replacing the toner cartridge"),
        p(
            "When the Toner light blinks, about 100 pages remain. Use a genuine CT-220 standard "
            "cartridge (about 1,200 pages) or a CT-220X high-yield cartridge (about 3,000 "
            "pages). Push down the green lock lever to release the old cartridge from the drum "
            "unit; the DR-220 drum unit lasts about 12,000 pages."
        ),
        h("6. Control panel lights"),
        grid(
            ("Light", "State", "Meaning"),
            ("Ready", "Green, steady", "Ready to print"),
            ("Ready", "Green, blinking", "Warming up or receiving data"),
            ("Toner", "Orange, blinking", "Toner low"),
            ("Toner", "Orange, steady", "Replace the toner cartridge"),
            ("Error", "Orange, blinking", "Paper jam or cover open"),
            ("Wi-Fi", "Blue, steady", "Connected to a wireless network"),
        ),
        h("7. Clearing paper jams"),
        p(
            "Open the back cover and pull the jammed sheet out slowly with both hands. If the "
            "paper tore, remove the drum and toner assembly and take out the pieces. Close every "
            "cover: the Error light goes out when the jam is cleared."
        ),
        h("8. Print quality problems"),
        ul(
            "Faded print: the toner is low, or toner save mode is on in the printer settings.",
            "Vertical streaks: clean the corona wire by sliding the green tab on the drum unit "
            "from left to right a few times.",
            "Smudges: use paper between 16 lb and 28 lb and check the paper type setting.",
        ),
        h("9. Specifications"),
        grid(
            ("Item", "Value"),
            ("Print speed", "Up to 30 pages per minute"),
            ("Resolution", "Up to 1200 x 1200 dpi"),
            ("Monthly duty cycle", "Up to 15,000 pages"),
            ("Connections", "USB 2.0, Wi-Fi 802.11 b/g/n"),
            ("Weight", "15.2 lb"),
        ),
        h("10. Warranty"),
        p(
            "Corvin warrants this printer against defects in materials and workmanship for one "
            "year from the date of purchase. Keep your receipt. Consumables such as toner and "
            "the drum unit are not covered."
        ),
    ]
    return Doc(
        MANUAL,
        "Corvin LP-220 Laser Printer - User Guide",
        ["Model LP-220, LP-220W"],
        blocks,
        "Corvin LP-220 User Guide",
    )


def brochure() -> Doc:
    return Doc(
        BROCHURE,
        "Riverfront Arts Festival 2024",
        ["June 7-9, 2024 - Riverton Riverfront Park", "Free admission"],
        [
            p(
                "More than 120 artists from across the region show painting, ceramics, glass, "
                "jewelry and photography along the river walk. Live music plays on two stages from "
                "noon until 10 p.m., and the food truck court is open all weekend."
            ),
            h("Highlights"),
            ul(
                "Friday: opening night lantern parade at 8:30 p.m.",
                "Saturday: children's art tent and the juried awards at 4 p.m.",
                "Sunday: the riverside jazz brunch and the closing concert.",
            ),
            p(
                "Parking in the Front Street garage is $10 a day. Shuttle buses run from the "
                "library."
            ),
        ],
    )
