"""The job folders' working files in data/contractor: job cost workbooks, the Pelletier
design-review deck, emails saved as text and the Adeyemi site log."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_bids import NORTHLAKE_BID, PELLETIER_BID
from .contractor_jobs import ADEYEMI, NORTHLAKE, PELLETIER, co_amounts

COST_PELLETIER = f"{PELLETIER}/job_cost_J-2503.xlsx"
COST_NORTHLAKE = f"{NORTHLAKE}/job_cost_J-2507.xlsx"
DECK = f"{PELLETIER}/Pelletier_design_review.pptx"
EMAIL_COUNTERTOPS = f"{PELLETIER}/Correspondence/2025-05-12_RE_countertops.txt"
EMAIL_WINDOWS = f"{PELLETIER}/Correspondence/2025-05-14_window_delivery.txt"
SITE_LOG = f"{ADEYEMI}/site_log.md"

#: (cost code, description, budget, committed, cost to date), whole dollars.
PELLETIER_COSTS = (
    ("01-100", "General conditions", 13100, 13100, 10870),
    ("02-200", "Sitework and excavation", 6050, 6050, 7418),
    ("03-300", "Concrete", 11100, 11100, 11264),
    ("06-100", "Framing labor and lumber", 28000, 28000, 27350),
    ("07-300", "Roofing", 6900, 6900, 6712),
    ("08-500", "Windows and exterior doors", 12500, 12986, 12986),
    ("07-460", "Siding and exterior trim", 8300, 8300, 5940),
    ("16-000", "Electrical (Volt Brothers)", 24860, 24860, 22374),
    ("15-000", "Plumbing (Clearwater)", 18375, 18375, 14700),
    ("15-700", "HVAC mini-split", 5450, 5450, 5450),
    ("07-200", "Insulation", 3800, 3912, 3912),
    ("09-250", "Drywall and taping", 6900, 6900, 6420),
    ("12-300", "Kitchen cabinets", 22000, 21480, 21480),
    ("12-360", "Countertops (Stoneworks)", 6380, 6380, 0),
    ("09-600", "Flooring", 6100, 6100, 2140),
    ("06-200", "Interior doors and trim", 4050, 4050, 1230),
    ("09-900", "Painting", 4600, 4600, 0),
)
NORTHLAKE_COSTS = (
    ("01-100", "General conditions", 10400, 10400, 4160),
    ("02-050", "Demolition", 5700, 5700, 5580),
    ("09-100", "Metal framing", 16800, 16800, 15950),
    ("09-250", "Gypsum board", 12600, 12600, 3100),
    ("09-500", "Acoustical ceilings", 8700, 8700, 0),
    ("16-000", "Electrical (Volt Brothers)", 31940, 31940, 12776),
    ("15-800", "HVAC (Kessler Mechanical)", 9400, 9400, 2820),
)


def _cost_book(path: Path, job: str, client: str, bid: int, cos, costs, billed, paid) -> str:
    changes = round(sum(c for _, c in cos) / 100, 2)
    detail = [("Cost code", "Description", "Budget", "Committed", "Cost to date", "Remaining")]
    detail += [(code, what, b, c, d, c - d) for code, what, b, c, d in costs]
    to_date = sum(d for *_, d in costs)
    detail.append(
        (
            "",
            "Total",
            sum(c[2] for c in costs),
            sum(c[3] for c in costs),
            to_date,
            sum(c[3] - c[4] for c in costs),
        )
    )
    summary = [
        ("Item", "Amount"),
        ("Job", job),
        ("Client", client),
        ("Original contract", bid),
        (f"Approved change orders ({len(cos)})", changes),
        ("Revised contract", round(bid + changes, 2)),
        ("Billed to date", billed),
        ("Received to date", paid),
        ("Cost to date", to_date),
        ("Updated", "2025-09-30"),
    ]
    return r.xlsx(path, {"Summary": summary, "Cost detail": detail}, money_columns=(2,))


def cost_books(out: Path, texts: dict[str, str]) -> None:
    texts[COST_PELLETIER] = _cost_book(
        out / COST_PELLETIER,
        "J-2503 Pelletier Kitchen & Addition",
        "Anne and Marc Pelletier",
        PELLETIER_BID,
        co_amounts("J-2503"),
        PELLETIER_COSTS,
        168500,
        146000,
    )
    texts[COST_NORTHLAKE] = _cost_book(
        out / COST_NORTHLAKE,
        "J-2507 Northlake Dental Suite B",
        "Northlake Dental Group, PLLC",
        NORTHLAKE_BID,
        co_amounts("J-2507"),
        NORTHLAKE_COSTS,
        48200,
        0,
    )


def deck(out: Path, texts: dict[str, str]) -> None:
    deposit = PELLETIER_BID // 10
    slides = [
        (
            "Pelletier Kitchen & Family Room",
            ["Design review - March 12, 2025", "Ridgeline Builders LLC"],
            "Meeting at the Pelletiers' kitchen table, 6 pm.",
        ),
        (
            "What we are building",
            [
                "Open the kitchen to the dining room (flush LVL beam)",
                "New island with seating for four; sink moves to the island",
                "16 x 20 ft family room addition, cathedral ceiling, patio door",
                "Ductless mini-split heat and cooling in the addition",
            ],
            "Marc asked about a gas fireplace: not in the scope; we can price it later.",
        ),
        (
            "Schedule",
            [
                "Mobilize and excavate: April 14, 2025",
                "Foundation: late April",
                "Framing and dry-in: May to mid-June",
                "Rough-ins and inspections: June",
                "Cabinets set: August",
                "Substantial completion: September 26, 2025",
            ],
            "Windows have an 8-week lead time, so they must be ordered the week the contract "
            "is signed.",
        ),
        (
            "Allowances and selections",
            [
                "Cabinets: $22,000 allowance (Kitchen Craft, Sherwood door)",
                "Countertops: $3,000 allowance (laminate); quartz would be an upgrade",
                "Lighting fixtures: $1,800 allowance",
                "Decide by May 15: countertop material, backsplash tile, island pendants",
            ],
            "Anne is leaning to quartz; Stoneworks of Vermont in Barre has remnants.",
        ),
        (
            "Next steps",
            [
                f"Sign the contract and pay the 10% deposit (${deposit:,})",
                "We apply for the building permit the same week",
                "Pick the window color at Lakeshore Window & Door",
            ],
            "",
        ),
    ]
    texts[DECK] = r.pptx(out / DECK, "Pelletier design review", slides)


def emails(out: Path, texts: dict[str, str]) -> None:
    texts[EMAIL_COUNTERTOPS] = r.text(
        out / EMAIL_COUNTERTOPS,
        """\
From: Anne Pelletier <anne.pelletier@fastmail.example>
To: Luis Ferreira <luis@ridgelinebuilds.example>
Date: Mon, 12 May 2025 19:42:10 -0400
Subject: RE: Countertop selection - due May 15

Hi Luis,

Marc and I went to Stoneworks of Vermont on Saturday and we've made up our minds: no
laminate. We'd like the Calacatta Laza quartz (3 cm, eased edge) for the island and the
perimeter, with an undermount sink. Their salesperson, Heidi, said she would send you the
quote directly; she thought it would be around $6,400 installed.

Please put together a change order for the difference so we can sign it this week. We
understand the $3,000 countertop allowance comes off.

Also - can the pendants over the island wait? We saw some we like online and might buy
them ourselves.

Thanks,
Anne

-----Original Message-----
From: Luis Ferreira
Sent: Thursday, May 8, 2025 4:15 PM
Subject: Countertop selection - due May 15

Anne, Marc - a reminder that we need your countertop choice by May 15 so the fabricator can
template when the base cabinets are set. The contract carries a $3,000 allowance, which
covers laminate. If you go with stone, I will write it up as a change order.

Luis Ferreira | Project Manager | Ridgeline Builders LLC | (802) 555-0147
""",
    )
    texts[EMAIL_WINDOWS] = r.text(
        out / EMAIL_WINDOWS,
        """\
From: Brenda Kells <bkells@lakeshorewd.example>
To: Luis Ferreira <luis@ridgelinebuilds.example>
Cc: Maria Okonkwo <office@ridgelinebuilds.example>
Date: Wed, 14 May 2025 10:03:55 -0400
Subject: Order LWD-44817 (Pelletier) - revised ship date

Good morning Luis,

The factory has pushed the six casement units on order LWD-44817 back by two weeks
because of a glass shortage. The new delivery date to the job site (14 Birch Hollow Road)
is June 3, 2025. The patio door is not affected and will still arrive on May 22.

No change to the price. Sorry for the trouble - let me know if the new date causes
problems with your inspections.

Brenda Kells
Lakeshore Window & Door | Order Desk | (802) 555-0122

---
Forwarded by Luis to Kenji Watanabe, 14 May 2025 10:20:
Kenji - keep going on the roof. Wrap the addition and leave the rough openings taped; we
set the windows the day they come in and move the framing inspection accordingly.
""",
    )


def site_log(out: Path, texts: dict[str, str]) -> None:
    texts[SITE_LOG] = r.text(
        out / SITE_LOG,
        """\
# J-2511 Adeyemi basement - site log

Site lead: Grace Lindholm. Crew: Grace, Tom Brennan, Cody Marsh.
Address: 9 Quarry Lane. Owners work from home - use the bulkhead door, not the front door.

## Week of September 8, 2025
- Mon 9/8: Delivered lumber and foam board. Laid out walls with Beatrice.
- Tue 9/9: Cut the egress opening in the office (concrete saw rented for the day).
- Wed 9/10 - Fri 9/12: Framed perimeter walls and the office partition; set the window
  and the steel well.

## Week of September 15, 2025
- Mon 9/15 - Tue 9/16: Soffits around the main beam and the duct run.
- Wed 9/17: Owners' electrician (Hart Electric) finished rough wiring.
- Thu 9/18: Framing inspection with Walt Dubois - OK.

## Week of September 22, 2025
- Foam board on the foundation walls, sound batts in the office partition.
- Fri 9/26: Called the town for the insulation inspection.

## Week of September 29, 2025
- Thu 10/2: Insulation inspection - not approved. Walt wants the foam in the storage room
  covered (we had planned to leave it bare) and the north rim joist finished.
- Fri 10/3: Ordered 8 more sheets of 1/2 in. drywall for the storage room. Reinspection
  requested for October 9.

## Notes
- Owners asked for a price on a wet bar; told them we would need a plumber and it would be
  a separate proposal.
""",
    )
