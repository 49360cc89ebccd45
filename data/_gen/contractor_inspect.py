"""Building permits and inspection reports of data/contractor, for the jobs J-2503
(Pelletier), J-2507 (Northlake Dental) and J-2511 (Adeyemi), and a failed 2024 inspection in
the archive."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_bids import PELLETIER_BID
from .contractor_jobs import ADEYEMI, NORTHLAKE, PELLETIER
from .contractor_render import COMPANY, money

#: (path, permit no., issued, parcel, owner, site, work, value in dollars, fee in cents, check)
PERMITS = (
    (
        f"{PELLETIER}/Permits/Building_Permit_BP-2025-0147.pdf",
        "BP-2025-0147",
        "March 24, 2025",
        "07-112-014",
        "Anne and Marc Pelletier",
        "14 Birch Hollow Road",
        "Kitchen remodel with removal of a bearing wall (LVL beam) and a one-story 320 sq ft "
        "family room addition on a frost-wall foundation.",
        PELLETIER_BID,
        131200,
        "4471",
    ),
    (
        f"{ADEYEMI}/Permits/Building_Permit_BP-2025-0212.pdf",
        "BP-2025-0212",
        "September 3, 2025",
        "11-040-009",
        "Beatrice and Samuel Adeyemi",
        "9 Quarry Lane",
        "Finish 780 sq ft of basement (family room, office, storage) with a new egress window "
        "in the office.",
        46600,
        48600,
        "4690",
    ),
)
TOWN = "Town of Ashby Falls - Zoning & Building Department"
TOWN_LINE = "12 Common Street, Ashby Falls, VT 05661 | (802) 555-0190"


def permits(out: Path, texts: dict[str, str]) -> None:
    for path, number, issued, parcel, owner, site, work, value, fee, check in PERMITS:
        blocks = [
            (
                "kv",
                [
                    ("Permit no.", number),
                    ("Date issued", issued),
                    ("Property", f"{site}, Ashby Falls, VT 05661"),
                    ("Parcel ID", parcel),
                    ("Owner", owner),
                    ("Contractor", f"{COMPANY}, 410 Depot Street"),
                    ("Work", work),
                    ("Construction value", f"${value:,}"),
                    ("Permit fee", f"{money(fee)} (paid by check no. {check})"),
                    ("Expires", "One year from issue if work has not started"),
                ],
            ),
            ("h", "Required inspections"),
            (
                "b",
                [
                    "Footing, before concrete is placed (new foundations only).",
                    "Framing, after rough-ins are approved and before insulation.",
                    "Insulation, before drywall.",
                    "Final, before occupancy of new space.",
                    "Electrical and plumbing rough-in and final: Vermont Division of Fire "
                    "Safety, under the trade contractors' own permits.",
                ],
            ),
            ("h", "Conditions"),
            (
                "p",
                "Call the Building Inspector at (802) 555-0190 at least 24 hours before each "
                "inspection. Keep this permit card posted and visible from the street, with "
                "the approved plans on site. Work that is covered before it is inspected "
                "must be opened up at the owner's cost.",
            ),
            ("p", "Issued by Walt Dubois, Building Inspector."),
        ]
        texts[path] = r.pdf(out / path, "Building Permit", [TOWN, TOWN_LINE], blocks)


STATE = "Vermont Division of Fire Safety - Electrical Inspection"
STATE_LINE = "Barre Regional Office | 1311 US Route 302, Barre, VT 05641"
#: (path, authority, permit, job line, owner, kind, date, inspector, result, findings,
#: corrections)
INSPECTIONS = (
    (
        f"{PELLETIER}/Inspections/2025-04-24_footing.pdf",
        TOWN,
        "BP-2025-0147",
        "14 Birch Hollow Road",
        "Anne and Marc Pelletier",
        "Footing",
        "April 24, 2025",
        "Walt Dubois",
        "PASSED",
        "Footings 20 in. wide by 10 in. deep on undisturbed soil, bottom 5 ft below finished "
        "grade; two #4 bars continuous with 24 in. laps. Ledge at the northeast corner was "
        "removed and the footing stepped; bearing is acceptable. Approved to place concrete.",
        (),
    ),
    (
        f"{PELLETIER}/Inspections/2025-06-17_electrical_rough-in.pdf",
        STATE,
        "E-25-03318",
        "14 Birch Hollow Road",
        "Anne and Marc Pelletier",
        "Electrical rough-in",
        "June 17, 2025",
        "Dana Whitcomb, Electrical Inspector",
        "FAILED",
        "Rough wiring of the kitchen and the family room addition by Volt Brothers Electric, "
        "LLC. Service upgrade to 200 A is complete and was approved separately.",
        (
            "Steel nail plates missing where cables pass through studs less than 1-1/4 in. from "
            "the face (kitchen north wall, addition east wall).",
            "Kitchen island receptacle circuit is not GFCI protected.",
            "Box fill exceeded in the two-gang box beside the patio door.",
        ),
    ),
    (
        f"{PELLETIER}/Inspections/2025-06-24_electrical_reinspection.pdf",
        STATE,
        "E-25-03318",
        "14 Birch Hollow Road",
        "Anne and Marc Pelletier",
        "Electrical rough-in (reinspection)",
        "June 24, 2025",
        "Dana Whitcomb, Electrical Inspector",
        "PASSED",
        "All three corrections from the inspection of June 17 were made: nail plates installed, "
        "GFCI breaker on the island circuit, box replaced with a deeper box. Approved to cover.",
        (),
    ),
    (
        f"{NORTHLAKE}/Inspections/2025-08-20_above-ceiling.pdf",
        TOWN,
        "BP-2025-0188 (issued to Harbor Street Partners LLC)",
        "220 Harbor Street, Suite B",
        "Harbor Street Partners LLC (landlord); tenant Northlake Dental Group, PLLC",
        "Framing and above-ceiling (commercial)",
        "August 20, 2025",
        "Walt Dubois",
        "FAILED",
        "Metal stud framing and the 1-hour demising wall between Suites B and C inspected "
        "before the ceiling grid is closed.",
        (
            "Penetrations of the 1-hour demising wall above the ceiling (two conduits, one duct) "
            "are not firestopped; use a listed firestop system and leave labels visible.",
            "Light fixtures in operatories 2 and 3 lack independent support wires.",
        ),
    ),
    (
        f"{ADEYEMI}/Inspections/2025-10-02_insulation.pdf",
        TOWN,
        "BP-2025-0212",
        "9 Quarry Lane",
        "Beatrice and Samuel Adeyemi",
        "Insulation",
        "October 2, 2025",
        "Walt Dubois",
        "FAILED",
        "Foam board on the foundation walls and sound batts in the office partition inspected.",
        (
            "Foam board left exposed in the storage room must be covered by a thermal barrier "
            "(1/2 in. gypsum board) or an approved ignition barrier.",
            "Rim joist insulation incomplete along the north wall; seal and insulate the full "
            "length.",
        ),
    ),
    (
        "Archive/2024/J-2418_Whitfield_deck_footing_inspection.pdf",
        TOWN,
        "BP-2024-0163",
        "52 Ledgeview Drive",
        "Carol and Jim Whitfield",
        "Deck footings",
        "August 6, 2024",
        "Walt Dubois",
        "FAILED",
        "Six pier holes for the new 14 x 18 ft deck inspected before concrete.",
        (
            "Pier holes are 36 in. deep; footings must reach at least 48 in. below grade (frost "
            "depth).",
        ),
    ),
)


def inspections(out: Path, texts: dict[str, str]) -> None:
    for row in INSPECTIONS:
        path, who, permit, site, owner, kind, date, inspector, result, found, fixes = row
        blocks = [
            (
                "kv",
                [
                    ("Permit no.", permit),
                    ("Job address", f"{site}, Ashby Falls, VT"),
                    ("Owner", owner),
                    ("Contractor", COMPANY),
                    ("Inspection", kind),
                    ("Date of inspection", date),
                    ("Inspector", inspector),
                    ("Result", result),
                ],
            ),
            ("h", "Findings"),
            ("p", found),
        ]
        if fixes:
            blocks += [
                ("h", "Corrections required"),
                ("b", list(fixes)),
                (
                    "p",
                    "Do not cover the work. Call for a reinspection when all items are "
                    "corrected; a reinspection fee of $75.00 applies.",
                ),
            ]
        else:
            blocks.append(("p", "No corrections. Work may proceed to the next stage."))
        line = STATE_LINE if who == STATE else TOWN_LINE
        texts[path] = r.pdf(out / path, "Inspection Report", [who, line], blocks)
