"""data/personal, the spending: store receipts, six monthly checking statements of one
layout and a CSV export of the next three months, as data (amounts in cents) and as
documents."""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass

from .pdf import h, p
from .personal_money import CHECKING, CITY, CU, ELEVATOR_FEE, HOME, OWNER, money, plain
from .personal_pdf import Doc, grid

# -- Receipts --------------------------------------------------------------------------

TAX_RATE = 0.0725


@dataclass(frozen=True)
class Receipt:
    path: str
    store: str
    address: str
    date: str  # "March 9, 2024"
    items: tuple[tuple[str, int, bool], ...]  # (item, cents, taxable)
    card: str = "VISA ending 4821"

    @property
    def subtotal(self) -> int:
        return sum(c for _, c, _ in self.items)

    @property
    def tax(self) -> int:
        return round(sum(c for _, c, t in self.items if t) * TAX_RATE)

    @property
    def total(self) -> int:
        return self.subtotal + self.tax


GREENLEAF = ("GreenLeaf Grocers", "2301 Elm Avenue, Riverton, OH 43012")
HARTWELL = ("Hartwell Hardware", "640 Mill Road, Riverton, OH 43012")
RECEIPTS = (
    Receipt(
        "Receipts/2024-03-09_GreenLeaf_Grocers.pdf",
        *GREENLEAF,
        "March 9, 2024",
        (
            ("Organic bananas 2.1 lb", 218, False),
            ("Whole milk 1 gal", 429, False),
            ("Sourdough loaf", 599, False),
            ("Chicken thighs 3 lb", 1137, False),
            ("Baby spinach", 449, False),
            ("Olive oil 1 L", 1399, False),
            ("Paper towels 6 pack", 1249, True),
            ("Coffee beans 2 lb", 1798, False),
            ("Eggs, one dozen", 419, False),
        ),
    ),
    Receipt(
        "Receipts/2024-05-18_GreenLeaf_Grocers.pdf",
        *GREENLEAF,
        "May 18, 2024",
        (
            ("Salmon fillet 1.5 lb", 1799, False),
            ("Jasmine rice 5 lb", 899, False),
            ("Strawberries 2 lb", 798, False),
            ("Greek yogurt 32 oz", 649, False),
            ("Dish soap", 459, True),
            ("Laundry detergent", 1699, True),
            ("Cheddar cheese block", 679, False),
            ("Tortilla chips", 429, False),
            ("Sparkling water 12 pack", 599, False),
            ("Birthday card", 499, True),
        ),
    ),
    Receipt(
        "Receipts/2024-08-02_GreenLeaf_Grocers.pdf",
        *GREENLEAF,
        "August 2, 2024",
        (
            ("Sweet corn 6 ears", 450, False),
            ("Ground beef 2 lb", 1198, False),
            ("Hamburger buns", 349, False),
            ("Tomatoes 2 lb", 598, False),
            ("Charcoal 16 lb", 1499, True),
            ("Lemonade 52 oz", 399, False),
        ),
    ),
    Receipt(
        "Receipts/2024-04-12_Hartwell_Hardware.pdf",
        *HARTWELL,
        "April 12, 2024",
        (
            ("Smoke detector, 2 pack", 3498, True),
            ("AA batteries, 8 pack", 999, True),
        ),
    ),
    Receipt(
        "Receipts/2024-06-30_Hartwell_Hardware.pdf",
        *HARTWELL,
        "June 30, 2024",
        (
            ("Interior paint, eggshell, 1 gal", 4298, True),
            ("Paint roller kit", 1899, True),
            ("Drop cloth 9 x 12 ft", 1249, True),
            ("Cordless drill bit set", 2999, True),
            ("Wood filler", 679, True),
            ("Painter's tape, 3 rolls", 1497, True),
        ),
    ),
    Receipt(
        "Receipts/Home Office/2024-07-21_Pixel_Point_Electronics.pdf",
        "Pixel Point Electronics",
        "88 Commerce Drive, Riverton, OH 43012",
        "July 21, 2024",
        (
            ("USB-C docking station, 12-in-1", 18999, True),
            ("HDMI cable 6 ft", 1299, True),
        ),
    ),
    Receipt(
        "Receipts/2024-10-05_Fairview_Pharmacy.pdf",
        "Fairview Pharmacy",
        "15 Fairview Lane, Riverton, OH 43012",
        "October 5, 2024",
        (
            ("Allergy relief tablets, 30 count", 1299, True),
            ("Adhesive bandages, 40 count", 549, True),
            ("Prescription copay", 1000, False),
        ),
        card="Debit card ending 7730",
    ),
)


def receipt_doc(r: Receipt) -> Doc:
    return Doc(
        r.path,
        r.store,
        [r.address, f"Date: {r.date}", "Thank you for shopping with us!"],
        [
            grid(
                ("Item", "Price"),
                *((name, plain(c) + (" T" if t else "")) for name, c, t in r.items),
            ),
            grid(
                ("Subtotal", plain(r.subtotal)),
                (f"Sales tax {TAX_RATE * 100:.2f}%", plain(r.tax)),
                ("TOTAL", money(r.total)),
                (f"Paid by {r.card}", money(r.total)),
                header=False,
            ),
            p("T = taxable item. Returns accepted within 30 days with this receipt."),
        ],
    )


# -- Checking statements -----------------------------------------------------------------

YEAR = 2024
PAYROLL = 214_055  # net pay, twice a month
OLD_RENT, NEW_RENT = 205_000, 215_000  # the lease renewed on September 1, 2024


@dataclass(frozen=True)
class Line:
    day: int
    text: str
    cents: int  # negative: a withdrawal


#: Monthly transfers to the building's reserve account (cents): the balance goes up and down
RESERVE = (650_000, 400_000, 150_000, 1_200_000, 250_000, 1_100_000)
RESERVE += (300_000, 500_000, 200_000)


def month_lines(month: int, rng: random.Random) -> list[Line]:
    """One month's checking activity (interest is added by the statement)."""
    rent = OLD_RENT if (YEAR, month) < (YEAR, 9) else NEW_RENT
    return [
        Line(1, "HARBOR VIEW RESIDENCES RENT", -rent),
        Line(2, "PAYROLL BRIGHTLINE DESIGN STUDIO", PAYROLL),
        Line(3, "MOBILE DEPOSIT MAPLE ST TENANT RENTS", 745_000 + 2_500 * (month % 3)),
        Line(5, "APEX VERTICAL TRANSPORT SVCS", -ELEVATOR_FEE),
        Line(9, "RIVERTON ELECTRIC CO", -rng.randrange(6_000, 14_000)),
        Line(12, "COLUMBIA GAS OF RIVERTON", -rng.randrange(3_000, 16_000)),
        Line(16, "PAYROLL BRIGHTLINE DESIGN STUDIO", PAYROLL),
        Line(18, "ATM WITHDRAWAL 640 MILL RD", -rng.choice((6_000, 10_000, 20_000))),
        Line(22, "TRANSFER TO SAVINGS 7731", -rng.choice((50_000, 75_000, 100_000))),
        Line(24, "CLEARWATER WATER DEPT", -rng.randrange(4_000, 9_000)),
        Line(27, "TRANSFER TO MAPLE ST RESERVE 7735", -RESERVE[month - 1]),
    ]


@dataclass(frozen=True)
class Statement:
    month: int
    begin: int
    lines: tuple[Line, ...]
    interest: int

    @property
    def deposits(self) -> int:
        return sum(x.cents for x in self.lines if x.cents > 0)

    @property
    def withdrawals(self) -> int:
        return -sum(x.cents for x in self.lines if x.cents < 0)

    @property
    def end(self) -> int:
        return self.begin + self.deposits - self.withdrawals + self.interest


def statements(months: range = range(1, 7)) -> list[Statement]:
    """January to June 2024, each beginning with the last one's ending balance."""
    rng = random.Random(f"{CU}-{YEAR}")
    out = []
    begin = 1_284_316
    for month in months:
        lines = tuple(month_lines(month, rng))
        interest = round(begin * 0.0015 / 12)
        out.append(Statement(month, begin, lines, interest))
        begin = out[-1].end
    return out


def statement_path(month: int) -> str:
    return f"Bank/Lakeshore_CU_Checking_{YEAR}-{month:02d}.pdf"


def statement_doc(s: Statement, path: str | None = None) -> Doc:
    name = calendar.month_name[s.month]
    last = calendar.monthrange(YEAR, s.month)[1]
    rows = [
        (
            f"{s.month:02d}/{x.day:02d}",
            x.text,
            plain(-x.cents) if x.cents < 0 else "",
            plain(x.cents) if x.cents > 0 else "",
        )
        for x in s.lines
    ]
    rows.append((f"{s.month:02d}/{last:02d}", "INTEREST PAID", "", plain(s.interest)))
    return Doc(
        path or statement_path(s.month),
        CU,
        [
            "Statement of Account",
            f"Member: {OWNER}, {HOME}, {CITY}",
            f"Free Checking - account ending {CHECKING}",
            f"Statement period: {name} 1, {YEAR} - {name} {last}, {YEAR}",
        ],
        [
            h("Account Summary"),
            grid(
                ("Item", "Amount"),
                ("Beginning balance", money(s.begin)),
                ("Deposits and credits", money(s.deposits)),
                ("Withdrawals and debits", money(s.withdrawals)),
                ("Interest paid this period", money(s.interest)),
                ("Ending balance", money(s.end)),
            ),
            h("Transactions"),
            grid(("Date", "Description", "Withdrawals", "Deposits"), *rows),
            p(
                "Annual percentage yield earned this period: 0.15%. Report errors within 60 "
                "days of the statement date. Lakeshore Community Credit Union is federally "
                "insured by the NCUA."
            ),
        ],
        footer=f"{CU} - 75 Lakeshore Boulevard, Riverton, OH 43012",
    )


def export_rows() -> list[tuple[str, str, str, str]]:
    """Downloads' CSV export: July to September 2024 (no balances), newest last."""
    rng = random.Random(f"{CU}-{YEAR}-export")
    out = [("Date", "Description", "Amount", "Type")]
    for month in (7, 8, 9):
        for x in month_lines(month, rng):
            kind = "Debit" if x.cents < 0 else "Credit"
            out.append((f"{YEAR}-{month:02d}-{x.day:02d}", x.text, f"{x.cents / 100:.2f}", kind))
    return out
