"""The Accounting folder of data/contractor: monthly lumber-yard invoices (with a 2024 one
archived), hardware store receipts and weekly timesheets."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from . import contractor_render as r
from .contractor_render import COMPANY, money

GML = "Green Mountain Lumber & Supply Co."

#: (path, invoice no., date, lines (ticket date, ticket, job, item, qty, unit cents))
INVOICES = (
    (
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-04.pdf",
        "GML-250430",
        "April 30, 2025",
        (
            ("04/16", "T-55812", "J-2503", "2x10x16 SPF #2", 24, 2845),
            ("04/16", "T-55812", "J-2503", "Simpson LUS210 joist hanger", 40, 238),
            ("04/22", "T-55901", "J-2503", "3/4 in. AdvanTech T&G subfloor 4x8", 22, 5280),
            ("04/22", "T-55901", "J-2503", "2x6x8 KD stud", 180, 689),
            ("04/29", "T-56044", "Shop", "16d galvanized nails, 50 lb box", 2, 9450),
        ),
    ),
    (
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-05.pdf",
        "GML-250531",
        "May 31, 2025",
        (
            ("05/02", "T-56120", "J-2503", "LVL 1-3/4 x 11-7/8 x 20 ft", 4, 18640),
            ("05/02", "T-56120", "J-2503", "2x6x16 KD", 60, 1325),
            ("05/09", "T-56288", "J-2503", "7/16 in. OSB sheathing 4x8", 36, 1795),
            ("05/09", "T-56288", "J-2503", "Tyvek HomeWrap 9 x 150 ft", 2, 18900),
            ("05/20", "T-56471", "J-2503", "Ice and water shield, 2 sq roll", 6, 11200),
            ("05/20", "T-56471", "J-2503", "Architectural shingles, bundle", 27, 4190),
            ("05/20", "T-56471", "J-2503", "Drip edge, 10 ft", 24, 985),
        ),
    ),
    (
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-06.pdf",
        "GML-250630",
        "June 30, 2025",
        (
            ("06/04", "T-56702", "J-2503", "Azek trim board 1x6x18", 14, 8650),
            ("06/25", "T-57010", "J-2503", "R-21 kraft-faced batts, bag", 14, 6890),
            ("06/25", "T-57010", "J-2503", "Closed-cell foam kit, 600 bd ft", 1, 74900),
            ("06/27", "T-57066", "J-2503", "1/2 in. drywall 4x12", 64, 1860),
            ("06/27", "T-57066", "J-2503", "Joint compound, 4.5 gal", 10, 2175),
        ),
    ),
    (
        "Accounting/Invoices/Green_Mountain_Lumber/GML-2025-07.pdf",
        "GML-250731",
        "July 31, 2025",
        (
            ("07/23", "T-57391", "J-2507", "3-5/8 in. 20 ga metal stud, 10 ft", 120, 785),
            ("07/23", "T-57391", "J-2507", "3-5/8 in. track, 10 ft", 40, 610),
            ("07/29", "T-57455", "J-2507", "5/8 in. Type X drywall 4x10", 70, 1980),
            ("07/29", "T-57455", "J-2507", "Firestop caulk, 10.1 oz", 24, 1295),
            ("07/30", "T-57470", "J-2503", "Primed MDF casing, 16 ft", 30, 1840),
        ),
    ),
    (
        "Archive/2024/GML-2024-12.pdf",
        "GML-241231",
        "December 31, 2024",
        (
            ("12/03", "T-53310", "J-2418", "2x8x12 pressure-treated", 30, 2160),
            ("12/03", "T-53310", "J-2418", "Composite deck board, 16 ft", 20, 6480),
            ("12/11", "T-53398", "Shop", "Sawhorse brackets, pair", 2, 3495),
        ),
    ),
)


def invoice_due(lines) -> int:
    """Lines plus 6% Vermont sales tax, in cents."""
    subtotal = sum(q * u for *_, q, u in lines)
    return subtotal + (subtotal * 6 + 50) // 100


def invoices(out: Path, texts: dict[str, str]) -> None:
    for path, number, date, lines in INVOICES:
        rows = [("Date", "Ticket", "Job", "Item", "Qty", "Unit price", "Amount")]
        rows += [(d, t, j, item, str(q), money(u), money(q * u)) for d, t, j, item, q, u in lines]
        subtotal = sum(q * u for *_, q, u in lines)
        due = invoice_due(lines)
        blocks = [
            (
                "kv",
                [
                    ("Invoice no.", number),
                    ("Invoice date", date),
                    ("Account", "RIDG-0412"),
                    ("Bill to", f"{COMPANY}, 410 Depot Street, Ashby Falls, VT 05661"),
                ],
            ),
            (
                "p",
                "Monthly statement of charge-account purchases. Job numbers are the ones "
                "given at the counter.",
            ),
            ("t", rows),
            (
                "kv",
                [
                    ("Subtotal", money(subtotal)),
                    ("Vermont sales tax 6%", money(due - subtotal)),
                    ("Total due", money(due)),
                ],
            ),
            (
                "p",
                "Terms: net 30. A 1.5% monthly service charge applies to past-due balances. "
                "Remit to PO Box 318, Northfield, VT 05663.",
            ),
        ]
        texts[path] = r.pdf(
            out / path, GML, ["Route 12, Northfield, VT 05663 | (802) 555-0108"], blocks
        )


#: (path, date and time, items (description, qty, unit cents), how it was paid)
RECEIPTS = (
    (
        "Accounting/Receipts/2025-05-06_Ashby_Falls_Hardware.txt",
        "05/06/2025 07:12",
        (
            ("GRK R4 screws 3 in. (box)", 1, 3899),
            ("Circular saw blade 7-1/4 in. 24T", 2, 1449),
            ("Chalk line refill, blue", 1, 699),
            ("Contractor bags 42 gal (20 ct)", 2, 2499),
        ),
        "VISA ending 4410 (Kenji W.)",
    ),
    (
        "Accounting/Receipts/2025-05-21_Ashby_Falls_Hardware.txt",
        "05/21/2025 12:47",
        (
            ("Window and door flashing tape 4 in.", 3, 2679),
            ("Cedar shims (bundle)", 4, 549),
            ("Great Stuff window and door foam", 4, 799),
        ),
        "VISA ending 4410 (Luis F.)",
    ),
    (
        "Accounting/Receipts/2025-06-10_Ashby_Falls_Hardware.txt",
        "06/10/2025 15:30",
        (
            ("Drywall screws 1-5/8 in. (5 lb)", 2, 3299),
            ("Corner bead, 8 ft", 12, 389),
            ("Mud pan, stainless 12 in.", 1, 1749),
        ),
        "Charge account RIDGE-01 (Grace L.)",
    ),
)


def receipt_total(items) -> int:
    subtotal = sum(q * u for _, q, u in items)
    return subtotal + (subtotal * 6 + 50) // 100


def receipts(out: Path, texts: dict[str, str]) -> None:
    for index, (path, when, items, paid) in enumerate(RECEIPTS):
        lines = [
            "ASHBY FALLS HARDWARE & SUPPLY",
            "88 Main Street, Ashby Falls VT 05661",
            "(802) 555-0131",
            "",
            f"{when}   Reg 2   Trans {40817 + 391 * index}",
            "",
        ]
        for what, q, u in items:
            lines.append(f"{what}")
            lines.append(f"   {q} @ {money(u)}".ljust(30) + money(q * u).rjust(12))
        subtotal = sum(q * u for _, q, u in items)
        total = receipt_total(items)
        lines += [
            "",
            "SUBTOTAL".ljust(30) + money(subtotal).rjust(12),
            "VT SALES TAX 6%".ljust(30) + money(total - subtotal).rjust(12),
            "TOTAL".ljust(30) + money(total).rjust(12),
            "",
            paid,
            "Customer: Ridgeline Builders",
            "",
            "Thank you for shopping local!",
        ]
        texts[path] = r.text(out / path, "\n".join(lines) + "\n")


CREW = ("Luis Ferreira", "Kenji Watanabe", "Tom Brennan", "Grace Lindholm", "Cody Marsh")
#: (path, week ending, {employee: (job, hours Mon-Sat, note)})
TIMESHEETS = (
    (
        "Accounting/Timesheets/2025-W22.csv",
        "2025-05-31",
        {
            "Luis Ferreira": ("J-2503", (0, 8, 8, 8, 8, 0), "Memorial Day Monday"),
            "Kenji Watanabe": ("J-2503", (0, 8.5, 8.5, 8, 8.5, 0), "Memorial Day Monday"),
            "Tom Brennan": ("J-2503", (0, 8.5, 8.5, 8.5, 8.5, 0), ""),
            "Grace Lindholm": ("J-2503", (0, 8, 8, 8, 8, 0), ""),
            "Cody Marsh": ("J-2503", (0, 8, 8, 8, 6, 0), "Left early Fri (dentist)"),
        },
    ),
    (
        "Accounting/Timesheets/2025-W23.xlsx",
        "2025-06-07",
        {
            "Luis Ferreira": ("J-2503", (8, 8, 9, 8, 8, 0), "Window delivery Tue"),
            "Kenji Watanabe": ("J-2503", (9, 9, 8.5, 9, 9, 0), ""),
            "Tom Brennan": ("J-2503", (9, 9, 8.5, 9, 8, 0), ""),
            "Grace Lindholm": ("J-2503", (8, 8, 8, 8, 8, 4), "Sat: trim at shop"),
            "Cody Marsh": ("J-2503", (8, 8, 8, 8, 8, 0), ""),
        },
    ),
    (
        "Accounting/Timesheets/2025-W24.xlsx",
        "2025-06-14",
        {
            "Luis Ferreira": ("J-2503", (8, 8, 8, 8, 6, 0), "Northlake walk-through Fri"),
            "Kenji Watanabe": ("J-2503", (8.5, 8.5, 8.5, 8.5, 8.5, 0), ""),
            "Tom Brennan": ("J-2503", (8.5, 8.5, 8.5, 8.5, 8.5, 0), ""),
            "Grace Lindholm": ("J-2503", (8, 8, 8, 0, 8, 0), "Thu: vacation day"),
            "Cody Marsh": ("J-2503", (8, 8, 8, 8, 8, 0), ""),
        },
    ),
    (
        "Accounting/Timesheets/2025-W25.csv",
        "2025-06-21",
        {
            "Luis Ferreira": ("J-2503", (8, 9, 8, 8, 8, 0), "Electrical rough-in inspection Tue"),
            "Kenji Watanabe": ("J-2503", (9, 9, 9, 9, 4.5, 5), "Sat: finish addition soffit"),
            "Tom Brennan": ("J-2503", (9, 9, 9, 9, 4.5, 0), ""),
            "Grace Lindholm": ("J-2503", (8, 8, 8, 8, 8, 0), ""),
            "Cody Marsh": ("J-2503", (8, 8, 8, 8, 4, 0), "Fri: half day"),
        },
    ),
)


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def hours(week: dict, name: str) -> float | int:
    """An employee's total hours in one timesheet."""
    return _num(sum(week[name][1]))


def timesheets(out: Path, texts: dict[str, str]) -> None:
    head = ("Employee", "Job", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Total hours", "Notes")
    for path, ending, week in TIMESHEETS:
        rows = [head] + [
            (
                name,
                week[name][0],
                *(_num(h) for h in week[name][1]),
                hours(week, name),
                week[name][2],
            )
            for name in CREW
        ]
        if path.endswith(".csv"):
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow([f"Ridgeline Builders LLC - weekly timesheet, week ending {ending}"])
            writer.writerows(rows)
            texts[path] = r.text(out / path, buf.getvalue())
        else:
            sheet = [
                (f"Ridgeline Builders LLC - weekly timesheet, week ending {ending}",),
                *rows,
                ("Approved by", "Maria Okonkwo"),
            ]
            texts[path] = r.xlsx(out / path, {f"Week ending {ending}": sheet})
