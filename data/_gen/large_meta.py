"""Registry of the 25 large_acquisition documents: names, titles, page targets, references.

The cross-reference graph (``refs``) follows the original sample set; each edge is written in the
body text as ``Document: <Title>``.
"""

from __future__ import annotations

from dataclasses import dataclass

BUYER = "GlobalTech Corporation"
SELLER = "InnovateTech Solutions, Inc."
SIGNING_DATE = "February 15, 2025"
CLOSING_DATE = "April 1, 2025"


@dataclass(frozen=True)
class LargeDocMeta:
    """Static facts about one large_acquisition document."""

    key: str
    stem: str
    title: str
    refs: tuple[str, ...]
    pages: int
    noun: str
    topics: tuple[str, ...]
    disclosure: bool = False
    party: str = SELLER
    other: str = BUYER
    date: str = SIGNING_DATE

    @property
    def filename(self) -> str:
        return f"{self.key}_{self.stem}.pdf"

    @property
    def ref_name(self) -> str:
        """Title as cited by other documents (Title Case)."""
        return _REF_NAMES.get(self.key, self.title.title())


_REF_NAMES = {
    "02": "Schedules to Acquisition Agreement",
    "03": "Exhibits to Acquisition Agreement",
    "06": "Schedule 3.12 - Intellectual Property",
    "07": "Schedule 3.15 - Employee Matters",
    "08": "Schedule 3.13 - Material Contracts",
    "10": "Stock Purchase Details - Exhibit B",
    "12": "Schedule 3.9 - Litigation and Claims",
    "15": "Consulting Agreement - Founder",
    "23": "Independent Auditor's Report",
    "25": "Closing Checklist and Conditions",
}

_M = LargeDocMeta
LARGE_DOCS: tuple[LargeDocMeta, ...] = (
    _M(
        "01",
        "master_agreement",
        "MASTER ACQUISITION AGREEMENT",
        ("02", "03", "04", "05"),
        5,
        "Agreement",
        ("the Purchase Price", "the Shares", "the Closing", "indemnification claims"),
    ),
    _M(
        "02",
        "schedules",
        "SCHEDULES TO ACQUISITION AGREEMENT",
        ("01", "06", "07", "08"),
        3,
        "set of Schedules",
        (
            "the working capital methodology",
            "required consents",
            "knowledge parties",
            "equity award treatment",
        ),
        True,
        date="March 27, 2025",
    ),
    _M(
        "03",
        "exhibits",
        "EXHIBITS TO ACQUISITION AGREEMENT",
        ("01", "09", "10"),
        3,
        "set of Exhibits",
        (
            "the earnout calculation",
            "the escrow arrangements",
            "the stock consideration",
            "the closing certificates",
        ),
        True,
    ),
    _M(
        "04",
        "disclosure_schedules",
        "SELLER DISCLOSURE SCHEDULES",
        ("01", "11", "12"),
        4,
        "Disclosure Schedule",
        ("capitalization", "tax matters", "insurance coverage", "data privacy compliance"),
        True,
    ),
    _M(
        "05",
        "ancillary_agreements",
        "ANCILLARY AGREEMENTS INDEX",
        ("13", "14", "15", "16"),
        3,
        "Index",
        (
            "the ancillary agreements",
            "signature status",
            "the execution timetable",
            "restrictive covenants",
        ),
        True,
        date="March 20, 2025",
    ),
    _M(
        "06",
        "ip_schedule",
        "SCHEDULE 3.12 - INTELLECTUAL PROPERTY",
        ("01", "17", "18"),
        3,
        "Schedule",
        (
            "the patent portfolio",
            "registered trademarks",
            "open source components",
            "inbound technology licenses",
        ),
        True,
    ),
    _M(
        "07",
        "employee_schedule",
        "SCHEDULE 3.15 - EMPLOYEE MATTERS",
        ("01", "19", "20"),
        3,
        "Schedule",
        ("the employee census", "retention bonuses", "benefit plans", "employee classification"),
        True,
    ),
    _M(
        "08",
        "contract_schedule",
        "SCHEDULE 3.13 - MATERIAL CONTRACTS",
        ("01", "21", "22"),
        3,
        "Schedule",
        (
            "customer agreements",
            "change-of-control provisions",
            "vendor commitments",
            "renewal terms",
        ),
        True,
    ),
    _M(
        "09",
        "escrow_agreement",
        "ESCROW AGREEMENT",
        ("01", "03", "11"),
        3,
        "Escrow Agreement",
        (
            "the Escrow Funds",
            "release instructions",
            "the escrow fees",
            "investment of escrowed cash",
        ),
        party=BUYER,
        other="the Seller Representative",
    ),
    _M(
        "10",
        "stock_purchase",
        "STOCK PURCHASE DETAILS - EXHIBIT B",
        ("01", "11"),
        3,
        "Exhibit",
        ("the Consideration Shares", "the lock-up", "resale registration", "share legends"),
        party=BUYER,
        other="the Seller Representative",
    ),
    _M(
        "11",
        "financial_statements",
        "AUDITED FINANCIAL STATEMENTS",
        ("04", "23"),
        5,
        "set of financial statements",
        ("revenue recognition", "working capital", "customer concentration", "deferred revenue"),
        True,
    ),
    _M(
        "12",
        "litigation_schedule",
        "SCHEDULE 3.9 - LITIGATION AND CLAIMS",
        ("04", "24"),
        3,
        "Schedule",
        ("pending litigation", "insurance recoveries", "threatened claims", "litigation reserves"),
        True,
    ),
    _M(
        "13",
        "nda",
        "NON-DISCLOSURE AGREEMENT",
        ("01",),
        3,
        "Agreement",
        (
            "Evaluation Material",
            "the clean team protocol",
            "non-solicitation",
            "the no-contact covenant",
        ),
    ),
    _M(
        "14",
        "non_compete",
        "NON-COMPETITION AGREEMENT",
        ("01", "07"),
        3,
        "Agreement",
        (
            "the Restricted Business",
            "the Restricted Territory",
            "customer non-solicitation",
            "the Restricted Period",
        ),
        party=BUYER,
        other="each Restricted Party",
    ),
    _M(
        "15",
        "consulting_agreement",
        "CONSULTING AGREEMENT - FOUNDER",
        ("01", "07", "19"),
        3,
        "Agreement",
        (
            "the Consulting Services",
            "the monthly fee",
            "work product ownership",
            "the customer transition bonus",
        ),
        party=BUYER,
        other="the Consultant",
    ),
    _M(
        "16",
        "transition_services",
        "TRANSITION SERVICES AGREEMENT",
        ("01", "25"),
        3,
        "Agreement",
        ("the Transition Services", "the service fees", "service levels", "the migration plan"),
        party=BUYER,
        other="Meridian Shared Services LLC",
    ),
    _M(
        "17",
        "patent_assignments",
        "PATENT ASSIGNMENT AGREEMENTS",
        ("06", "01"),
        3,
        "set of assignments",
        (
            "the Assigned Patents",
            "USPTO recordation",
            "inventor cooperation",
            "the confirmatory assignment",
        ),
        True,
    ),
    _M(
        "18",
        "trademark_registrations",
        "TRADEMARK REGISTRATION SCHEDULE",
        ("06",),
        3,
        "Schedule",
        (
            "the registered marks",
            "renewal deadlines",
            "the pending application",
            "foreign registrations",
        ),
        True,
    ),
    _M(
        "19",
        "retention_agreements",
        "KEY EMPLOYEE RETENTION AGREEMENTS",
        ("07", "15"),
        3,
        "set of retention agreements",
        ("the Retention Bonus", "the vesting dates", "Good Reason terminations", "clawback rights"),
        party=BUYER,
        other="each key employee",
    ),
    _M(
        "20",
        "benefit_plans",
        "EMPLOYEE BENEFIT PLAN SCHEDULE",
        ("07",),
        3,
        "Schedule",
        ("the 401(k) plan merger", "health coverage", "the equity plan", "accrued paid time off"),
        True,
    ),
    _M(
        "21",
        "customer_contracts",
        "MAJOR CUSTOMER CONTRACT SUMMARIES",
        ("08", "01"),
        3,
        "summary",
        ("customer consents", "service level commitments", "renewal negotiations", "pricing terms"),
        True,
        date="March 10, 2025",
    ),
    _M(
        "22",
        "vendor_contracts",
        "MAJOR VENDOR CONTRACT SUMMARIES",
        ("08",),
        3,
        "summary",
        ("hosting commitments", "assignment clauses", "data processing terms", "vendor spend"),
        True,
    ),
    _M(
        "23",
        "audit_report",
        "INDEPENDENT AUDITOR'S REPORT",
        ("11", "04"),
        3,
        "report",
        (
            "the audit opinion",
            "key audit matters",
            "internal control observations",
            "going concern evaluation",
        ),
        True,
        party="Crandall Pierce LLP",
        date="February 20, 2025",
    ),
    _M(
        "24",
        "legal_opinion",
        "LEGAL OPINION LETTER",
        ("01", "12", "06"),
        3,
        "opinion letter",
        (
            "corporate authority",
            "enforceability",
            "pending litigation",
            "the intellectual property review",
        ),
        True,
        party="Wilson & Associates LLP",
        date="April 1, 2025",
    ),
    _M(
        "25",
        "closing_checklist",
        "CLOSING CHECKLIST AND CONDITIONS",
        ("01", "09", "16", "17", "21"),
        3,
        "checklist",
        ("closing conditions", "closing deliverables", "funds flow", "post-closing obligations"),
        True,
        date="March 10, 2025",
    ),
)

BY_KEY: dict[str, LargeDocMeta] = {d.key: d for d in LARGE_DOCS}

# D["09"] -> "Document: Escrow Agreement" (the citation form used in body text)
D: dict[str, str] = {d.key: f"Document: {d.ref_name}" for d in LARGE_DOCS}
