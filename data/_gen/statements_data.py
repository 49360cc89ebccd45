"""The year of credit-card transactions behind data/statements (seeded, deterministic)."""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass

YEAR = 2025
SEED = 20250101
HOLDER = "Jordan A. Rivera"
ACCOUNT = "4821"
OPENING_BALANCE = 128_437  # cents owed before January
MONTH_ABBR = [m.lower() for m in calendar.month_abbr[1:]]

# (merchant, amount in cents, day of month, first month, last month)
SUBSCRIPTIONS = (
    ("PureFit Gym", 4900, 2, 1, 12),
    ("Netflix", 1549, 3, 1, 12),
    ("Spotify Premium", 1199, 9, 1, 12),
    ("CloudVault Storage", 299, 14, 3, 12),
    ("FitTrack Pro App", 999, 21, 5, 12),
)

# category -> (merchant, lowest, highest amount in cents)
EVERYDAY: dict[str, tuple[tuple[str, int, int], ...]] = {
    "Groceries": (
        ("Whole Harvest Market", 3500, 16000),
        ("FreshMart", 2000, 11000),
        ("Corner Grocer", 800, 4000),
    ),
    "Dining": (
        ("Blue Door Bistro", 2800, 9500),
        ("Sakura Sushi", 2200, 8000),
        ("Java Junction", 400, 1200),
        ("Taco Fiesta", 900, 2400),
        ("Luigi Trattoria", 3500, 11000),
    ),
    "Transportation": (
        ("Shell Station", 3000, 7000),
        ("RideNow", 900, 3800),
        ("Metro Transit", 2000, 6000),
    ),
    "Shopping": (
        ("Amazon Marketplace", 1200, 18000),
        ("Target", 1500, 12000),
        ("Home Depot", 2000, 25000),
    ),
    "Entertainment": (
        ("Cinema City", 1400, 4000),
        ("Ticketmaster", 6000, 22000),
    ),
    "Health": (("CVS Pharmacy", 800, 6000),),
}
# How many everyday purchases of each category a month has (before the holiday boost).
WEIGHTS = {
    "Groceries": 8,
    "Dining": 10,
    "Transportation": 8,
    "Shopping": 6,
    "Entertainment": 2,
    "Health": 2,
}
HOLIDAY_SHOPS = (
    ("Best Buy", 12000, 60000),
    ("Nordstrom", 9000, 32000),
    ("Toy Planet", 4000, 15000),
    ("Amazon Marketplace", 2000, 20000),
    ("Target", 2000, 15000),
)
HOLIDAY_EXTRA = {11: 14, 12: 16}  # extra shopping purchases in November and December

# Fixed one-off purchases: (month, day, merchant, category, cents).
ONE_OFFS = (
    (1, 27, "Amazon Marketplace", "Shopping", 3499),
    (4, 11, "Delta Air Lines", "Travel", 48620),
    (4, 18, "Harbor View Hotel", "Travel", 41245),
    (6, 6, "Target", "Shopping", 4250),
    (7, 15, "Delta Air Lines", "Travel", 39880),
    (8, 23, "Bright Smile Dental", "Health", 18000),
    (11, 28, "Nordstrom", "Shopping", 8900),
    (12, 12, "Best Buy", "Shopping", 124999),
)
# Refunds of some of the purchases above: (month, day, merchant, category, cents).
REFUNDS = (
    (2, 4, "Amazon Marketplace", "Shopping", -3499),
    (6, 19, "Target", "Shopping", -4250),
    (9, 2, "Delta Air Lines", "Travel", -18500),
    (12, 8, "Nordstrom", "Shopping", -8900),
)
UTILITIES = (("City Power and Light", 7000, 14000, 18), ("Verizon Wireless", 8400, 9200, 24))


@dataclass(frozen=True)
class Txn:
    """One statement line: a purchase (positive cents) or a refund (negative)."""

    month: int
    day: int
    merchant: str
    category: str
    cents: int

    @property
    def refund(self) -> bool:
        return self.cents < 0

    @property
    def description(self) -> str:
        return f"{self.merchant} - Refund" if self.refund else self.merchant


def _month(rng: random.Random, month: int) -> list[Txn]:
    last = calendar.monthrange(YEAR, month)[1]
    out = [
        Txn(month, day, name, "Subscriptions", cents)
        for name, cents, day, first, final in SUBSCRIPTIONS
        if first <= month <= final
    ]
    out += [
        Txn(month, day, name, "Utilities", rng.randrange(low, high))
        for name, low, high, day in UTILITIES
    ]
    for category, weight in WEIGHTS.items():
        for _ in range(weight + rng.randrange(-2, 3)):
            name, low, high = rng.choice(EVERYDAY[category])
            out.append(Txn(month, rng.randint(1, last), name, category, rng.randrange(low, high)))
    for _ in range(HOLIDAY_EXTRA.get(month, 0)):
        name, low, high = rng.choice(HOLIDAY_SHOPS)
        day = rng.randint(20 if month == 11 else 1, last)
        out.append(Txn(month, day, name, "Shopping", rng.randrange(low, high)))
    out += [Txn(*row) for row in ONE_OFFS + REFUNDS if row[0] == month]
    return sorted(out, key=lambda t: (t.day, t.merchant, t.cents))


def transactions() -> dict[int, list[Txn]]:
    """Every month's transactions, in statement order (by day)."""
    rng = random.Random(SEED)
    return {month: _month(rng, month) for month in range(1, 13)}


def money(cents: int, month: int = 1) -> str:
    """'$1,234.50'; a credit is '-$12.00' in January-June and '($12.00)' from July."""
    text = f"${abs(cents) / 100:,.2f}"
    if cents >= 0:
        return text
    return f"-{text}" if month <= 6 else f"({text})"


def filename(month: int) -> str:
    """'jan-2025.pdf' ... 'dec-2025.pdf'."""
    return f"{MONTH_ABBR[month - 1]}-{YEAR}.pdf"
