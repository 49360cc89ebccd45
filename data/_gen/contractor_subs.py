"""The signed subcontracts of data/contractor: Volt Brothers Electric on the Pelletier and
Northlake Dental jobs, Clearwater Plumbing & Heating on the Pelletier job."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_render import COMPANY, COMPANY_LINE, money

SUB_VOLT = "Jobs/J-2503_Pelletier/Subcontracts/Volt_Brothers_Electric_subcontract.pdf"
SUB_CLEARWATER = "Jobs/J-2503_Pelletier/Subcontracts/Clearwater_Plumbing_subcontract.docx"
SUB_VOLT_NL = "Jobs/J-2507_Northlake_Dental/Subcontracts/Volt_Brothers_Electric_J-2507.pdf"
#: (subcontract no., path, subcontractor, address, signer, project, contract sum in cents,
#: retainage in words, signing date, scope items)
SUBCONTRACTS = (
    (
        "SC-2503-E",
        SUB_VOLT,
        "Volt Brothers Electric, LLC",
        "77 Mill Road, Waterbury, VT 05676",
        "Ray Kowalski, Master Electrician, Vermont license EM-04417",
        "J-2503 Pelletier Kitchen & Addition, 14 Birch Hollow Road, Ashby Falls, VT",
        2486000,
        "ten percent (10%)",
        "April 2, 2025",
        (
            "Upgrade the service from 100 A to 200 A, with a new meter base and main panel.",
            "Kitchen: six 20 A small-appliance and counter circuits with GFCI protection, "
            "dedicated range, dishwasher, disposal and microwave circuits.",
            "Addition: receptacles, switching, eight recessed LED fixtures, two exterior "
            "lights, smoke and CO alarms interconnected with the existing house.",
            "Wiring for the ductless mini-split outdoor unit and indoor heads.",
            "Install owner-selected fixtures supplied under the lighting allowance.",
        ),
    ),
    (
        "SC-2503-P",
        SUB_CLEARWATER,
        "Clearwater Plumbing & Heating, Inc.",
        "18 Stowe Street, Ashby Falls, VT 05661",
        "Sandra Boucher, President, Vermont plumber license PL-2291",
        "J-2503 Pelletier Kitchen & Addition, 14 Birch Hollow Road, Ashby Falls, VT",
        1837500,
        "five percent (5%)",
        "April 9, 2025",
        (
            "Relocate the kitchen sink 6 feet to the new island; new supply and drain lines.",
            "Dishwasher, refrigerator ice-maker and pot-filler connections.",
            "Extend hydronic baseboard loop into the addition (two zones, new circulator).",
            "Set fixtures and faucets supplied by the owner; pressure test and inspections.",
        ),
    ),
    (
        "SC-2507-E",
        SUB_VOLT_NL,
        "Volt Brothers Electric, LLC",
        "77 Mill Road, Waterbury, VT 05676",
        "Ray Kowalski, Master Electrician, Vermont license EM-04417",
        "J-2507 Northlake Dental Suite B Fit-Out, 220 Harbor Street, Ashby Falls, VT",
        3194000,
        "ten percent (10%)",
        "July 21, 2025",
        (
            "New 225 A tenant panel fed from the landlord's switchgear.",
            "Four operatories: dedicated chair, delivery-unit and light circuits per the "
            "dental equipment vendor's drawings.",
            "Compressor and vacuum pump circuits in the mechanical room.",
            "LED troffers and emergency lighting per the lighting plan; exit signs.",
            "Data and low-voltage rough-in (boxes and conduit only).",
        ),
    ),
)


def _subcontract_blocks(row) -> list:
    number, _, sub, address, signer, project, price, retainage, date, scope = row
    return [
        (
            "kv",
            [
                ("Subcontract no.", number),
                ("Date", date),
                ("Contractor", f"{COMPANY}, 410 Depot Street, Ashby Falls, VT 05661"),
                ("Subcontractor", f"{sub}, {address}"),
                ("Project", project),
            ],
        ),
        ("h", "1. Scope of work"),
        (
            "p",
            "The Subcontractor shall furnish all labor, materials, tools and supervision "
            "for the following work, complete and ready for final inspection:",
        ),
        ("b", list(scope)),
        ("h", "2. Subcontract sum"),
        (
            "p",
            f"The Contractor shall pay the Subcontractor the fixed sum of {money(price)} "
            "for the complete work, subject to additions and deductions by written change "
            "order signed by both parties.",
        ),
        ("h", "3. Progress payments and retainage"),
        (
            "p",
            "The Subcontractor shall invoice monthly for work in place by the 25th. The "
            f"Contractor shall pay within 10 days of receiving payment from the owner, "
            f"withholding retainage of {retainage} of each payment until final inspection "
            "and delivery of lien waivers.",
        ),
        ("h", "4. Schedule"),
        (
            "p",
            "The Subcontractor shall follow the Contractor's schedule, attend the weekly "
            "site meeting when asked, and give 48 hours' notice before rough-in inspections.",
        ),
        ("h", "5. Permits and inspections"),
        (
            "p",
            "The Subcontractor obtains and pays for its own trade permit. Work that fails an "
            "inspection shall be corrected at the Subcontractor's cost within five working "
            "days, and the Subcontractor pays any reinspection fee.",
        ),
        ("h", "6. Insurance"),
        (
            "p",
            "Commercial general liability of at least $1,000,000 per occurrence, automobile "
            "liability, and workers' compensation at statutory limits, with the Contractor "
            "named as additional insured. A certificate is due before work starts.",
        ),
        ("h", "7. Warranty, cleanup and safety"),
        (
            "p",
            "The Subcontractor warrants its work for one year from substantial completion, "
            "removes its own debris daily, and follows the Contractor's site safety program.",
        ),
        ("h", "8. Termination"),
        (
            "p",
            "If the Subcontractor fails to perform and does not cure within three working "
            "days of written notice, the Contractor may finish the work by others and deduct "
            "the cost from the Subcontract Sum.",
        ),
        ("h", "Signatures"),
        (
            "kv",
            [
                ("For the Contractor", f"Dan Halvorsen, President, {COMPANY} - {date}"),
                ("For the Subcontractor", f"{signer} - {date}"),
            ],
        ),
    ]


def write(out: Path, texts: dict[str, str]) -> None:
    """Write the subcontracts under ``out``."""
    head = [COMPANY, COMPANY_LINE]
    for row in SUBCONTRACTS:
        path = row[1]
        title = "Subcontract Agreement"
        if path.endswith(".pdf"):
            texts[path] = r.pdf(out / path, title, head, _subcontract_blocks(row))
        else:
            texts[path] = r.docx(out / path, title, _subcontract_blocks(row))
