"""The Admin side of data/contractor: insurance certificates (2025 and, archived, 2024) and
the equipment rental agreement."""

from __future__ import annotations

from pathlib import Path

from . import contractor_render as r
from .contractor_render import COMPANY

COI = "Admin/Insurance/COI_2025-2026_Ridgeline_Builders.pdf"
COI_2024 = "Archive/2024/COI_2024-2025_Ridgeline_Builders.pdf"
RENTAL = "Admin/Equipment/Summit_Rental_Agreement_RA-88412.pdf"

#: (path, effective, expires, (GL, auto, umbrella policy numbers), umbrella limit, (workers'
#: compensation policy, effective, expires), certificate holder, description, date issued)
CERTIFICATES = (
    (
        COI,
        "03/01/2025",
        "03/01/2026",
        ("CGL-7731-0458", "CA-7731-0459", "UMB-7731-0460"),
        "$3,000,000",
        ("WC-2207-1185", "07/01/2025", "07/01/2026"),
        "Northlake Dental Group, PLLC, 220 Harbor Street, Suite B, Ashby Falls, VT 05661",
        "Re: job J-2507, tenant fit-out of 220 Harbor Street, Suite B. Northlake Dental Group, "
        "PLLC and Harbor Street Partners LLC are additional insureds on the general liability "
        "and umbrella policies for ongoing and completed operations.",
        "07/18/2025",
    ),
    (
        COI_2024,
        "03/01/2024",
        "03/01/2025",
        ("CGL-7731-0312", "CA-7731-0313", "UMB-7731-0314"),
        "$2,000,000",
        ("WC-2207-0964", "07/01/2024", "07/01/2025"),
        "Town of Ashby Falls, 12 Common Street, Ashby Falls, VT 05661",
        "Evidence of coverage for work in the town right-of-way (driveway and sidewalk repairs).",
        "04/02/2024",
    ),
)


def certificates(out: Path, texts: dict[str, str]) -> None:
    for path, eff, exp, (gl, auto, umb), umb_limit, wc, holder, desc, issued in CERTIFICATES:
        rows = [
            ("Type of insurance", "Insurer", "Policy number", "Effective", "Expires", "Limits"),
            (
                "Commercial general liability (occurrence)",
                "A",
                gl,
                eff,
                exp,
                "Each occurrence $1,000,000; damage to rented premises $100,000; medical expense "
                "$5,000; general aggregate $2,000,000; products-completed operations $2,000,000",
            ),
            (
                "Automobile liability (any auto)",
                "A",
                auto,
                eff,
                exp,
                "Combined single limit $1,000,000",
            ),
            (
                "Umbrella liability (occurrence)",
                "A",
                umb,
                eff,
                exp,
                f"Each occurrence {umb_limit}; aggregate {umb_limit}",
            ),
            (
                "Workers' compensation and employers' liability",
                "B",
                *wc,
                "Statutory; E.L. each accident $500,000; E.L. disease $500,000",
            ),
        ]
        blocks = [
            (
                "kv",
                [
                    ("Date issued", issued),
                    (
                        "Producer",
                        "Hartwell & Pike Insurance Agency, 55 Main Street, "
                        "Montpelier, VT 05602, (802) 555-0175",
                    ),
                    ("Insured", f"{COMPANY}, 410 Depot Street, Ashby Falls, VT 05661"),
                    ("Insurer A", "Catamount Mutual Insurance Company (NAIC 24318)"),
                    ("Insurer B", "Lamoille Casualty Company (NAIC 31207)"),
                ],
            ),
            ("h", "Coverages"),
            ("t", rows),
            ("h", "Description of operations"),
            ("p", desc),
            ("h", "Certificate holder"),
            ("p", holder),
            (
                "p",
                "This certificate is issued as a matter of information only and confers no "
                "rights upon the certificate holder. It does not amend, extend or alter the "
                "coverage afforded by the policies above. Should any of the policies be "
                "cancelled before the expiration date, notice will be delivered in "
                "accordance with the policy provisions.",
            ),
            ("p", "Authorized representative: Elaine Pike"),
        ]
        texts[path] = r.pdf(out / path, "Certificate of Liability Insurance", [], blocks)


def rental(out: Path, texts: dict[str, str]) -> None:
    rates = [
        ("Equipment", "Unit / serial", "Day", "Week", "4 weeks"),
        (
            "Kubota KX040-4 mini excavator, 24 in. bucket",
            "EX-217 / 40118",
            "$385.00",
            "$1,150.00",
            "$2,980.00",
        ),
        ("Hydraulic breaker attachment (for KX040)", "AT-052", "$210.00", "$630.00", "$1,640.00"),
        ("Wacker Neuson reversible plate compactor", "PC-330", "$85.00", "$255.00", "$640.00"),
    ]
    blocks = [
        (
            "kv",
            [
                ("Agreement no.", "RA-88412"),
                ("Customer", f"{COMPANY}, account 20417"),
                ("Ordered by", "Luis Ferreira, (802) 555-0147"),
                (
                    "Job site / delivery address",
                    "14 Birch Hollow Road, Ashby Falls, VT (job J-2503 Pelletier)",
                ),
                ("Date out", "April 14, 2025, 7:30 a.m."),
                ("Expected return", "April 25, 2025"),
                ("Billing cycle", "Weekly, invoiced every Friday"),
            ],
        ),
        ("h", "Equipment and rates"),
        ("t", rates),
        (
            "p",
            "The breaker attachment is delivered on request and billed by the day. A day is "
            "24 hours; a week is 7 consecutive days; a 4-week period is 28 days. Rates do "
            "not include fuel, delivery or the damage waiver.",
        ),
        ("h", "Charges"),
        (
            "b",
            [
                "Delivery and pickup: $175.00 each way.",
                "Damage waiver: 12% of rental charges (covers accidental damage, not theft, "
                "misuse or tire damage).",
                "Fuel: machines go out full; refueling at $6.25 per gallon.",
                "Cleaning: $95.00 if returned with caked mud or debris.",
                "Deposit: $500.00 on the card on file, released on return.",
            ],
        ),
        ("h", "Terms and conditions"),
        (
            "p",
            "1. Use. Only the customer's trained employees may operate the equipment, and "
            "only at the job site named above. The customer calls Dig Safe before any "
            "excavation and is responsible for damage to buried utilities.",
        ),
        (
            "p",
            "2. Care. The customer checks fluids daily, greases the machine as marked, and "
            "stops use and calls Summit at once if a warning light comes on. Repairs are "
            "made only by Summit.",
        ),
        (
            "p",
            "3. Return. Rental charges run until the equipment is back at the yard or the "
            "customer has called for pickup and received a call-off number.",
        ),
        (
            "p",
            "4. Liability. The customer carries general liability insurance and names "
            "Summit Equipment Rentals as additional insured, and is responsible for loss of "
            "the equipment from any cause while it is in the customer's care.",
        ),
        ("p", "5. Payment. Invoices are due in 30 days; balances past due bear 1.5% per month."),
        ("h", "Signatures"),
        (
            "kv",
            [
                ("For Summit Equipment Rentals", "Derek Sousa, branch manager"),
                ("For the customer", "Luis Ferreira, April 14, 2025"),
            ],
        ),
    ]
    texts[RENTAL] = r.pdf(
        out / RENTAL,
        "Equipment Rental Agreement",
        ["Summit Equipment Rentals", "1180 US Route 2, Waterbury, VT 05676 | (802) 555-0166"],
        blocks,
    )
