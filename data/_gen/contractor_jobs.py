"""Change orders of data/contractor, on the jobs J-2503 (Pelletier) and J-2507 (Northlake
Dental), and a draft change order that was never issued."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_bids import NORTHLAKE_BID, PELLETIER_BID
from .contractor_render import COMPANY, COMPANY_LINE, money

PELLETIER = "Jobs/J-2503_Pelletier"
NORTHLAKE = "Jobs/J-2507_Northlake_Dental"
ADEYEMI = "Jobs/J-2511_Adeyemi"
SITES = {
    "J-2503": (
        "J-2503 Pelletier Kitchen & Addition",
        "14 Birch Hollow Road, Ashby Falls, VT",
        "Anne and Marc Pelletier",
        PELLETIER_BID * 100,
    ),
    "J-2507": (
        "J-2507 Northlake Dental Suite B Fit-Out",
        "220 Harbor Street, Suite B, Ashby Falls, VT",
        "Northlake Dental Group, PLLC",
        NORTHLAKE_BID * 100,
    ),
}

#: (path, job, number, date, description, reason, cost lines (text, cents), marked up,
#: schedule change, owner's signature). The amount is the lines plus 15% when marked up.
CHANGE_ORDERS = (
    (
        f"{PELLETIER}/Change_Orders/CO-01_ledge_removal.pdf",
        "J-2503",
        "CO-01",
        "April 28, 2025",
        "Break out and remove ledge found at the northeast corner of the addition footing "
        "excavation; over-excavate and fill with additional footing concrete.",
        "Ledge is excluded from the contract (proposal B25-02, Exclusions). Found during "
        "excavation on April 17, 2025.",
        (
            ("Hydraulic breaker attachment, 1 day (Summit Equipment Rentals)", 21000),
            ("Excavator operator, 6 h @ $78.00", 46800),
            ("Haul ledge spoils, 2 loads @ $285.00", 57000),
            ("Additional footing concrete, 1.5 cy @ $182.00", 27300),
        ),
        True,
        "2 working days",
        "Marc Pelletier, April 29, 2025",
    ),
    (
        f"{PELLETIER}/Change_Orders/CO-02_quartz_countertops.pdf",
        "J-2503",
        "CO-02",
        "May 19, 2025",
        "Furnish and install Calacatta Laza quartz countertops, 3 cm, eased edge, island and "
        "perimeter (58 sq ft) with undermount sink cut-out, in place of the laminate "
        "countertops carried in the countertop allowance.",
        "Owner selection (email from Anne Pelletier, May 12, 2025).",
        (
            ("Stoneworks of Vermont quote SQ-1187, fabricated and installed", 638000),
            ("Less countertop allowance in contract", -300000),
        ),
        True,
        "None",
        "Anne Pelletier, May 20, 2025",
    ),
    (
        f"{PELLETIER}/Change_Orders/CO-03_pendant_lights_credit.docx",
        "J-2503",
        "CO-03",
        "June 9, 2025",
        "Owners will buy the three kitchen island pendant lights themselves. The pendants are "
        "deleted from the lighting fixture allowance; Volt Brothers still installs them.",
        "Owner request.",
        (("Credit: three island pendants deleted from lighting allowance", -75000),),
        False,
        "None",
        "Anne Pelletier, June 10, 2025",
    ),
    (
        f"{PELLETIER}/Change_Orders/CO-04_radiant_floor_heat.pdf",
        "J-2503",
        "CO-04",
        "June 30, 2025",
        "Add electric radiant floor heat under the LVP in the family room addition "
        "(about 300 sq ft), with a programmable floor-sensing thermostat.",
        "Owner request after the design meeting of June 24, 2025 (electric mats chosen over "
        "the hydronic option).",
        (
            ("Volt Brothers Electric: 240 V circuit, thermostat and connection", 114000),
            ("Radiant heat mats, 300 sq ft, with floor sensor", 196000),
            ("Self-leveling underlayment, 14 bags", 41000),
            ("Labor: lay mats and pour self-leveler, 16 h @ $72.00", 115200),
        ),
        True,
        "3 working days",
        "Marc Pelletier, July 1, 2025",
    ),
    (
        f"{NORTHLAKE}/Change_Orders/CO-01_data_and_sterilizer_circuit.pdf",
        "J-2507",
        "CO-01",
        "August 11, 2025",
        "Add a dedicated 20 A circuit for the Statim sterilizer and two Cat6 data drops "
        "(operatory 4 and the lab).",
        "Owner's equipment vendor revised the sterilization room layout (drawing E-2 rev. 3).",
        (
            ("Volt Brothers Electric: dedicated 20 A circuit", 64000),
            ("Harbor Data Cabling: two Cat6 drops, terminated and tested", 38000),
        ),
        True,
        "None",
        "Dr. Priya Nandakumar, August 12, 2025",
    ),
    (
        f"{NORTHLAKE}/Change_Orders/CO-02_reception_counter.docx",
        "J-2507",
        "CO-02",
        "August 25, 2025",
        "Replace the plastic laminate reception counter top with a solid-surface (Corian, "
        "Glacier White) top with an integral transaction ledge.",
        "Owner upgrade.",
        (
            ("Solid-surface top, fabricated and installed", 296000),
            ("Less plastic laminate top in contract", -115000),
        ),
        True,
        "None",
        "Dr. Priya Nandakumar, August 26, 2025",
    ),
)
CO_DRAFT = "Archive/CO-04_Pelletier_hydronic_option_DRAFT.docx"
DRAFT_LINES = (
    ("Clearwater Plumbing & Heating: PEX tubing, manifold, mixing valve, zone", 685000),
    ("Gypsum underlayment pour, 1.5 in., 300 sq ft", 190000),
    ("Labor: layout and protection, 12 h @ $72.00", 86400),
)


def co_amount(lines: tuple[tuple[str, int], ...], marked_up: bool) -> int:
    """A change order's amount in cents: its lines, plus 15% overhead and profit."""
    net = sum(c for _, c in lines)
    return net + (net * 15 + 50) // 100 if marked_up else net


def co_amounts(job: str) -> list[tuple[str, int]]:
    """(path, amount in cents) of each issued change order of a job, in order."""
    return [(c[0], co_amount(c[6], c[7])) for c in CHANGE_ORDERS if c[1] == job]


def _co_blocks(row, before: int, draft: bool = False) -> list:
    _, job, number, date, what, why, lines, marked_up, days, owner = row
    name, site, client, _ = SITES[job]
    amount = co_amount(lines, marked_up)
    rows = [("Item", "Amount")] + [(t, money(c)) for t, c in lines]
    if marked_up:
        net = sum(c for _, c in lines)
        rows.append(("Overhead and profit, 15%", money(amount - net)))
    label = f"{money(amount)} (credit to owner)" if amount < 0 else money(amount)
    rows.append(("Total change order amount", label))
    blocks = (
        [("p", "DRAFT - NOT ISSUED. Owners chose the electric mat option (see CO-04).")]
        if draft
        else []
    )
    return [
        *blocks,
        (
            "kv",
            [
                ("Change order no.", number),
                ("Date", date),
                ("Project", name),
                ("Site", site),
                ("Owner", client),
            ],
        ),
        ("h", "Description of change"),
        ("p", what),
        ("h", "Reason"),
        ("p", why),
        ("h", "Cost"),
        ("t", rows),
        (
            "kv",
            [
                ("Contract sum before this change order", money(before)),
                ("This change order", money(amount)),
                ("New contract sum", money(before + amount)),
                ("Change in contract time", days),
            ],
        ),
        ("h", "Approval"),
        (
            "p",
            "Work described here proceeds only after both parties sign. Payment of this "
            "change order is due with the next progress draw.",
        ),
        (
            "kv",
            [("Contractor", "Luis Ferreira, Project Manager"), ("Owner", "" if draft else owner)],
        ),
    ]


def change_orders(out: Path, texts: dict[str, str]) -> None:
    sums = {job: site[3] for job, site in SITES.items()}
    for row in CHANGE_ORDERS:
        path, job = row[0], row[1]
        blocks = _co_blocks(row, sums[job])
        sums[job] += co_amount(row[6], row[7])
        title = f"Change Order {row[2]}"
        if path.endswith(".pdf"):
            texts[path] = r.pdf(out / path, title, [COMPANY, COMPANY_LINE], blocks)
        else:
            texts[path] = r.docx(out / path, title, blocks, author="Luis Ferreira")
    draft = (
        CO_DRAFT,
        "J-2503",
        "CO-04",
        "June 23, 2025",
        "Add hydronic radiant floor heat in the family room addition, fed from the "
        "existing boiler through a new zone.",
        "Owner request (option A of two).",
        DRAFT_LINES,
        True,
        "6 working days",
        "",
    )
    texts[CO_DRAFT] = r.docx(
        out / CO_DRAFT,
        "Change Order CO-04 (option A)",
        _co_blocks(draft, sums["J-2503"], draft=True),
        "Luis Ferreira",
    )
