"""data/personal, the taxes: W-2s, 1099-NEC and 1099-INT forms, property-tax bills and the
estimated payments, as data (amounts in cents) and as documents; the shared names and money
format."""

from __future__ import annotations

from .pdf import h, p
from .personal_pdf import Doc, grid

OWNER = "Jamie R. Castellano"
OWNER_TIN = "XXX-XX-4417"
HOME = "1120 Harbor View Drive, Apt 4B"
CITY = "Riverton, OH 43012"
BUILDING = "87 Maple Street"
EMPLOYER = ("Brightline Design Studio LLC", "31-4420917", "500 Canal Street, Suite 300")
CU = "Lakeshore Community Credit Union"
CHECKING = "7730"
#: The elevator contract's monthly fee, and the fee from January 1, 2025 (its amendment)
ELEVATOR_FEE, NEW_ELEVATOR_FEE = 48_500, 53_500


def money(cents: int) -> str:
    """'$1,234.56' (a minus sign before the dollar sign for negatives)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def plain(cents: int) -> str:
    """'1,234.56', as statements print amounts in columns."""
    return f"{cents / 100:,.2f}"


# -- Tax forms -------------------------------------------------------------------------

#: (year, payer, payer TIN, payer address, box 1 in cents)
NEC = (
    (2023, "Harbor Coffee Roasters, Inc.", "34-1876520", "410 Wharf Street", 420_000),
    (2023, "Tidewater Books LLC", "27-5501938", "18 Lantern Row", 198_000),
    (2024, "Harbor Coffee Roasters, Inc.", "34-1876520", "410 Wharf Street", 640_000),
    (2024, "Oakridge Dental Group, PC", "46-2093371", "2250 Oakridge Parkway", 385_000),
    (2024, "Tidewater Books LLC", "27-5501938", "18 Lantern Row", 217_550),
)
#: (year, payer, payer TIN, payer address, box 1 interest in cents)
INT = (
    (2023, CU, "31-0672214", "75 Lakeshore Boulevard", 21_237),
    (2023, "Meridian Online Savings Bank", "20-8813460", "PO Box 4410", 68_410),
    (2024, CU, "31-0672214", "75 Lakeshore Boulevard", 31_842),
    (2024, "Meridian Online Savings Bank", "20-8813460", "PO Box 4410", 104_688),
    (2024, "Summit National Bank", "38-1127705", "9 Summit Plaza", 5_719),
)
#: year -> (box 1 wages, 401(k) deferral, box 2 federal withheld, box 17 state tax), cents
W2 = {
    2023: (6_840_000, 400_000, 931_000, 219_510),
    2024: (7_125_000, 450_000, 998_000, 231_040),
}
#: year -> (total annual tax in cents, first-half due, second-half due)
PROPERTY_TAX = {
    2023: (684_210, "February 16, 2024", "July 12, 2024"),
    2024: (711_564, "February 14, 2025", "July 11, 2025"),
}
#: Taxes/2024/Estimated_Tax_Payments_2024.xlsx: quarter, due, paid, amount in dollars
ESTIMATED = (
    ("Q1", "April 15, 2024", "April 12, 2024", 1200, "EFTPS 27014459"),
    ("Q2", "June 17, 2024", "June 14, 2024", 1200, "EFTPS 27188302"),
    ("Q3", "September 16, 2024", "September 13, 2024", 1350, "EFTPS 27390117"),
    ("Q4", "January 15, 2025", "January 13, 2025", 1350, "EFTPS 27562908"),
)


def _slug(name: str) -> str:
    return name.split(",")[0].replace(" ", "_")


def nec_path(year: int, payer: str) -> str:
    return f"Taxes/{year}/1099-NEC_{year}_{_slug(payer)}.pdf"


def int_path(year: int, payer: str) -> str:
    return f"Taxes/{year}/1099-INT_{year}_{_slug(payer)}.pdf"


def w2_path(year: int) -> str:
    return f"Taxes/{year}/W-2_{year}_Brightline_Design_Studio.pdf"


def property_tax_path(year: int) -> str:
    return f"Taxes/{year}/Property_Tax_Bill_{year}_87_Maple_St.pdf"


def _parties(payer: str, tin: str, street: str, year: int) -> list:
    return [
        grid(
            ("PAYER'S name", payer),
            ("PAYER'S address", f"{street}, {CITY}"),
            ("PAYER'S TIN", tin),
            ("RECIPIENT'S TIN", OWNER_TIN),
            ("RECIPIENT'S name", OWNER),
            ("Street address", HOME),
            ("City, state and ZIP code", CITY),
            ("Account number", f"JRC-{year}-{tin[-4:]}"),
            header=False,
        )
    ]


def nec_doc(year: int, payer: str, tin: str, street: str, cents: int) -> Doc:
    boxes = grid(
        ("Box", "Amount"),
        ("1 Nonemployee compensation", money(cents)),
        ("2 Direct sales of $5,000 or more (checkbox)", "[ ]"),
        ("4 Federal income tax withheld", "$0.00"),
        ("5 State tax withheld", "$0.00"),
        ("6 State / Payer's state no.", f"OH / {tin}"),
    )
    return Doc(
        nec_path(year, payer),
        "Form 1099-NEC Nonemployee Compensation",
        [f"Tax year {year}", "Copy B - For Recipient"],
        [
            *_parties(payer, tin, street, year),
            boxes,
            p(
                "This is important tax information and is being furnished to the IRS. If you "
                "are required to file a return, a negligence penalty or other sanction may be "
                "imposed on you if this income is taxable and the IRS determines that it has "
                "not been reported."
            ),
        ],
        footer=f"Form 1099-NEC (Rev. January {year})",
    )


def int_doc(year: int, payer: str, tin: str, street: str, cents: int) -> Doc:
    boxes = grid(
        ("Box", "Amount"),
        ("1 Interest income", money(cents)),
        ("2 Early withdrawal penalty", "$0.00"),
        ("3 Interest on U.S. Savings Bonds and Treasury obligations", "$0.00"),
        ("4 Federal income tax withheld", "$0.00"),
        ("8 Tax-exempt interest", "$0.00"),
    )
    return Doc(
        int_path(year, payer),
        "Form 1099-INT Interest Income",
        [f"Calendar year {year}", "Copy B - For Recipient"],
        [
            *_parties(payer, tin, street, year),
            boxes,
            p(
                "Interest shown in box 1 was paid on all of the recipient's deposit accounts "
                "with the payer during the calendar year. Keep this form with your records."
            ),
        ],
        footer=f"Form 1099-INT (Rev. January {year})",
    )


def w2_doc(year: int) -> Doc:
    wages, deferral, federal, state = W2[year]
    social = wages + deferral
    name, ein, street = EMPLOYER
    return Doc(
        w2_path(year),
        "Form W-2 Wage and Tax Statement",
        [f"Tax year {year}", "Copy B - To Be Filed With Employee's Federal Tax Return"],
        [
            grid(
                ("a Employee's social security number", OWNER_TIN),
                ("b Employer identification number (EIN)", ein),
                ("c Employer's name and address", f"{name}, {street}, {CITY}"),
                ("e Employee's name", OWNER),
                ("f Employee's address", f"{HOME}, {CITY}"),
                header=False,
            ),
            grid(
                ("Box", "Amount"),
                ("1 Wages, tips, other compensation", money(wages)),
                ("2 Federal income tax withheld", money(federal)),
                ("3 Social security wages", money(social)),
                ("4 Social security tax withheld", money(round(social * 0.062))),
                ("5 Medicare wages and tips", money(social)),
                ("6 Medicare tax withheld", money(round(social * 0.0145))),
                ("12a Code D - Elective deferrals to a 401(k) plan", money(deferral)),
                ("16 State wages, tips, etc. (OH)", money(wages)),
                ("17 State income tax", money(state)),
            ),
        ],
        footer=f"Form W-2 {year} - Department of the Treasury - Internal Revenue Service",
    )


def property_tax_doc(year: int) -> Doc:
    total, first, second = PROPERTY_TAX[year]
    land, building = (142_000_00, 688_000_00) if year == 2024 else (136_500_00, 661_000_00)
    assessed = round((land + building) * 0.35)
    half = total // 2
    return Doc(
        property_tax_path(year),
        f"Clearwater County Treasurer - {year} Real Estate Tax Bill",
        [
            f"Tax year {year}, payable {year + 1}",
            "Parcel ID 010-045821-00",
            f"Property address: {BUILDING}, {CITY}",
            f"Owner: {OWNER}",
            f"Mailing address: {HOME}, {CITY}",
        ],
        [
            h("Valuation"),
            grid(
                ("Item", "Amount"),
                ("Market value - land", money(land)),
                ("Market value - building", money(building)),
                ("Assessed value (35% of market)", money(assessed)),
            ),
            h("Taxes"),
            grid(
                ("Item", "Amount"),
                ("Total annual tax", money(total)),
                ("First-half installment", money(half)),
                ("First-half due date", first),
                ("Second-half installment", money(total - half)),
                ("Second-half due date", second),
            ),
            p(
                "Payments received after the due date are charged a penalty of 10% of the "
                "installment. Pay online at the county treasurer's website or by mail with the "
                "stub below. Questions about the valuation go to the county auditor."
            ),
        ],
        footer="Clearwater County Treasurer - 1 Courthouse Square, Riverton, OH 43012",
    )
