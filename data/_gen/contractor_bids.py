"""Bids of data/contractor: the 2025 proposals (Pelletier kitchen and addition, Northlake
Dental fit-out, Adeyemi basement), a superseded draft of the Pelletier proposal and the bid
log."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_render import COMPANY, COMPANY_LINE

BID_PELLETIER = "Bids/2025/Bid_J-2503_Pelletier_Kitchen_Addition.pdf"
BID_NORTHLAKE = "Bids/2025/Bid_J-2507_Northlake_Dental_Fitout.docx"
BID_ADEYEMI = "Bids/2025/Bid_J-2511_Adeyemi_Basement.pdf"
BID_DRAFT = "Archive/Bid_J-2503_Pelletier_v1_DRAFT.pdf"
BID_LOG = "Bids/bid_log_2025.xlsx"

#: Estimate lines in whole dollars; overhead and profit brings the total to the next $100
#: above 12% of the lines.
PELLETIER_LINES = (
    ("General conditions: supervision, dumpsters, temporary protection, toilet", 14850),
    ("Building permit (allowance)", 1400),
    ("Sitework and excavation: mini excavator, backfill, rough grading", 6900),
    ("Concrete: frost wall foundation and slab for addition", 12600),
    ("Framing: floor, walls and roof of 16 x 20 ft addition; kitchen wall removal", 31750),
    ("Roofing: architectural shingles, ice and water shield", 7850),
    ("Windows and exterior doors: 6 casement units and one patio door", 14200),
    ("Siding and exterior trim to match existing", 9400),
    ("Electrical (subcontract)", 24900),
    ("Plumbing (subcontract)", 18500),
    ("HVAC: ductless mini-split for addition", 6200),
    ("Insulation", 4350),
    ("Drywall and taping", 7800),
    ("Kitchen cabinets (allowance)", 22000),
    ("Countertops (allowance)", 3000),
    ("Flooring: LVP in addition, porcelain tile in kitchen", 6950),
    ("Interior doors and trim", 4600),
    ("Painting", 5200),
    ("Lighting fixtures (allowance)", 1800),
    ("Final cleaning and punch list", 1650),
)
PELLETIER_DRAFT_LINES = (
    ("General conditions: supervision, dumpsters, temporary protection, toilet", 13900),
    ("Sitework and excavation", 6400),
    ("Concrete: frost wall foundation and slab for addition", 11800),
    ("Framing: floor, walls and roof of 16 x 20 ft addition", 29600),
    ("Roofing", 7850),
    ("Windows and exterior doors", 12900),
    ("Siding and exterior trim", 9400),
    ("Electrical (subcontract, budget number)", 22000),
    ("Plumbing (subcontract, budget number)", 17000),
    ("Insulation", 4350),
    ("Drywall and taping", 7400),
    ("Kitchen cabinets (allowance)", 20000),
    ("Countertops (allowance)", 3000),
    ("Flooring", 6500),
    ("Interior doors, trim and painting", 9100),
)
NORTHLAKE_LINES = (
    ("General conditions and project management", 11800),
    ("Demolition of existing retail build-out", 6450),
    ("Metal stud framing, including 1-hour rated demising wall", 18900),
    ("Gypsum board and finishing", 14200),
    ("Acoustical tile ceilings", 9850),
    ("Doors, frames and hardware", 8300),
    ("Millwork and reception counter (plastic laminate)", 12600),
    ("Flooring: sheet vinyl in operatories, LVT elsewhere", 10950),
    ("Painting", 6100),
    ("Electrical (subcontract)", 32000),
    ("HVAC modifications (subcontract)", 9400),
    ("Fire sprinkler head relocation (subcontract)", 3600),
    ("Final cleaning", 1450),
)
ADEYEMI_LINES = (
    ("General conditions", 3900),
    ("Framing: perimeter walls, office partition, soffits", 6800),
    ("Egress window: cut foundation, window, steel well and ladder", 5400),
    ("Insulation: foam board on foundation walls, batts in partitions", 4300),
    ("Drywall and taping", 6900),
    ("Interior doors and trim", 4100),
    ("Flooring: carpet in family room, LVP in office and hall", 5650),
    ("Painting", 3850),
    ("Final cleaning", 650),
)


def bid_total(lines: tuple[tuple[str, int], ...]) -> int:
    """The proposal price in dollars: lines plus overhead and profit, to the next $100."""
    subtotal = sum(v for _, v in lines)
    return -(-subtotal * 112 // 10000) * 100


PELLETIER_BID = bid_total(PELLETIER_LINES)
NORTHLAKE_BID = bid_total(NORTHLAKE_LINES)
ADEYEMI_BID = bid_total(ADEYEMI_LINES)


def _bid_blocks(number: str, client: str, site: str, date: str, scope: str, lines, total: int):
    rows = [("Item", "Amount")] + [(name, f"${v:,}.00") for name, v in lines]
    rows.append(("Overhead and profit", f"${total - sum(v for _, v in lines):,}.00"))
    rows.append(("Total proposal price", f"${total:,}.00"))
    return [
        (
            "kv",
            [
                ("Proposal no.", number),
                ("Date", date),
                ("Prepared for", client),
                ("Project address", site),
                ("Estimator", "Aisha Rahman"),
            ],
        ),
        ("h", "Scope of work"),
        ("p", scope),
        ("h", "Estimate"),
        ("t", rows),
    ]


def _pelletier(draft: bool) -> list:
    lines = PELLETIER_DRAFT_LINES if draft else PELLETIER_LINES
    date = "February 3, 2025" if draft else "February 18, 2025"
    scope = (
        "Remodel the existing 12 x 14 ft kitchen, remove the wall between kitchen and dining "
        "room (with a flush LVL beam), and build a one-story 16 x 20 ft family room addition "
        "on a frost-wall foundation at the rear of the house, with a cathedral ceiling, six "
        "casement windows and a patio door to the back yard. Finishes to match the existing "
        "house. The owners will buy and install their own appliances."
    )
    blocks = _bid_blocks(
        "B25-02",
        "Anne and Marc Pelletier",
        "14 Birch Hollow Road, Ashby Falls, VT 05661",
        date,
        scope,
        lines,
        bid_total(lines),
    )
    if draft:
        blocks.insert(
            0,
            (
                "p",
                "DRAFT v1 - internal review only, superseded by the proposal "
                "sent February 18, 2025. Do not send.",
            ),
        )
    blocks += [
        ("h", "Allowances"),
        (
            "p",
            "Kitchen cabinets $22,000; countertops $3,000; lighting fixtures $1,800. The owners "
            "choose the products; any difference from an allowance is settled by change order.",
        ),
        ("h", "Payment schedule"),
        (
            "b",
            [
                "10% deposit on signing.",
                "Progress draws on completion of foundation, framing and dry-in, rough-ins "
                "and insulation, and drywall.",
                "Balance on substantial completion, less a punch-list holdback of $2,500.",
            ],
        ),
        ("h", "Exclusions"),
        (
            "p",
            "Testing or abatement of asbestos, lead paint or other hazardous materials; ledge or "
            "boulder removal; landscaping and paving beyond rough grading; appliances; window "
            "treatments. Ledge, if found, is removed at cost plus 15% by change order.",
        ),
        (
            "p",
            "This proposal is valid for 30 days. Work can start in mid-April 2025, with "
            "substantial completion about 22 weeks after the start.",
        ),
    ]
    return blocks


def _northlake() -> list:
    scope = (
        "Tenant fit-out of Suite B (2,350 sq ft) for a four-operatory dental office: demolition "
        "of the former retail build-out, reception and waiting area, four operatories, a "
        "sterilization room, a small lab, a private office, a staff room and an ADA toilet "
        "room. Dental equipment, cabinetry in the operatories and the nitrous and vacuum "
        "piping are furnished and installed by the owner's equipment vendor."
    )
    blocks = _bid_blocks(
        "B25-04",
        "Northlake Dental Group, PLLC (Dr. Priya Nandakumar)",
        "220 Harbor Street, Suite B, Ashby Falls, VT 05661",
        "June 6, 2025",
        scope,
        NORTHLAKE_LINES,
        NORTHLAKE_BID,
    )
    blocks += [
        ("h", "Permit"),
        (
            "p",
            "The building permit for the tenant improvement is obtained by the landlord, Harbor "
            "Street Partners LLC, under its own application; permit fees are not part of this "
            "proposal.",
        ),
        ("h", "Insurance required by the lease"),
        (
            "p",
            "The landlord's lease requires the contractor to carry commercial general liability "
            "of $1,000,000 per occurrence and $2,000,000 aggregate, and umbrella or excess "
            "liability of not less than $2,000,000, naming Northlake Dental Group, PLLC and "
            "Harbor Street Partners LLC as additional insureds. A certificate is due before "
            "mobilization.",
        ),
        ("h", "Schedule and terms"),
        (
            "p",
            "Ten weeks from the permit and the owner's sign-off on the equipment drawings. "
            "Monthly progress billing on the AIA G702 form, net 15 days, 5% retainage.",
        ),
    ]
    return blocks


def _adeyemi() -> list:
    scope = (
        "Finish 780 sq ft of the basement at 9 Quarry Lane: a family room, a home office and a "
        "storage room, with a new egress window in the office. Foundation walls get 2 in. "
        "foam board covered with drywall; partitions get sound batts. Electrical work is done "
        "by the owners' own electrician under a separate contract and is excluded."
    )
    blocks = _bid_blocks(
        "B25-05",
        "Beatrice and Samuel Adeyemi",
        "9 Quarry Lane, Ashby Falls, VT 05661",
        "August 1, 2025",
        scope,
        ADEYEMI_LINES,
        ADEYEMI_BID,
    )
    blocks.append(
        (
            "p",
            "Building permit by Ridgeline, fee billed at cost. Start in early September 2025, "
            "about seven weeks of work. 30% deposit, 40% at drywall, 30% on completion.",
        )
    )
    return blocks


def _bid_log() -> list[tuple]:
    return [
        ("Bid no.", "Submitted", "Client", "Project", "Bid amount", "Status", "Notes"),
        (
            "B25-01",
            "2025-01-21",
            "Paul Moreau",
            "Front porch rebuild, 31 Elm Court",
            27400,
            "Lost",
            "Owner postponed to 2026",
        ),
        (
            "B25-02",
            "2025-02-18",
            "Anne and Marc Pelletier",
            "Kitchen remodel and family room addition",
            PELLETIER_BID,
            "Won",
            "Job J-2503; contract signed March 4",
        ),
        (
            "B25-03",
            "2025-03-27",
            "Ashby Falls Public Library",
            "ADA restroom renovation",
            64300,
            "Lost",
            "Awarded to Brightwater Construction at $59,880",
        ),
        (
            "B25-04",
            "2025-06-06",
            "Northlake Dental Group",
            "Suite B dental office fit-out",
            NORTHLAKE_BID,
            "Won",
            "Job J-2507",
        ),
        (
            "B25-05",
            "2025-08-01",
            "Beatrice and Samuel Adeyemi",
            "Basement finish",
            ADEYEMI_BID,
            "Won",
            "Job J-2511",
        ),
        (
            "B25-06",
            "2025-09-15",
            "Ashby Falls Fire District",
            "Station 1 bunk room renovation",
            96850,
            "Pending",
            "Decision expected at the October board meeting",
        ),
    ]


def write(out: Path, texts: dict[str, str]) -> None:
    """Write the bids and the bid log under ``out``."""
    head = [COMPANY, COMPANY_LINE]
    texts[BID_PELLETIER] = r.pdf(
        out / BID_PELLETIER, "Proposal and Estimate", head, _pelletier(draft=False)
    )
    texts[BID_DRAFT] = r.pdf(
        out / BID_DRAFT, "Proposal and Estimate - DRAFT", head, _pelletier(draft=True)
    )
    texts[BID_NORTHLAKE] = r.docx(
        out / BID_NORTHLAKE,
        "Proposal: Suite B Dental Office Fit-Out",
        _northlake(),
        author="Aisha Rahman",
    )
    texts[BID_ADEYEMI] = r.pdf(out / BID_ADEYEMI, "Proposal and Estimate", head, _adeyemi())
    texts[BID_LOG] = r.xlsx(out / BID_LOG, {"2025 bids": _bid_log()}, money_columns=(5,))
