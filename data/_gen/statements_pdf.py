"""Render one monthly credit-card statement to a byte-stable PDF with reportlab."""

from __future__ import annotations

import calendar
import io
from dataclasses import dataclass
from typing import ClassVar

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from .pdf import letter_template
from .statements_data import ACCOUNT, HOLDER, YEAR, Txn, money

BANK = "Meridian Bank Platinum Rewards Visa"
_TITLE = ParagraphStyle("Title", fontName="Helvetica-Bold", fontSize=15, leading=19, spaceAfter=4)
_META = ParagraphStyle("Meta", fontName="Helvetica", fontSize=9.5, leading=12.5)
_HEAD = ParagraphStyle(
    "Head", fontName="Helvetica-Bold", fontSize=11.5, leading=14, spaceBefore=6, spaceAfter=3
)
_GRID = [
    ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
    ("FONTNAME", (0, 1), (-1, -1), "Helvetica"),
    ("FONTSIZE", (0, 0), (-1, -1), 8.5),
    ("LEADING", (0, 0), (-1, -1), 9.5),
    ("TOPPADDING", (0, 0), (-1, -1), 1),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
    ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
]


@dataclass(frozen=True)
class Summary:
    """The account summary of one statement, in cents."""

    previous: int
    payments: int
    purchases: int
    credits: int

    @property
    def new_balance(self) -> int:
        return self.previous - self.payments + self.purchases + self.credits

    def rows(self, month: int) -> list[list[str]]:
        return [
            ["Account Summary", "Amount"],
            ["Previous balance", money(self.previous)],
            ["Payments", money(-self.payments, month)],
            ["Purchases", money(self.purchases)],
            ["Refunds and credits", money(self.credits, month)],
            ["New balance", money(self.new_balance)],
        ]


class _PagedTable(Table):
    """A table that records, as it is drawn, how many data rows land on each page."""

    drawn: ClassVar[list[tuple[int, int]]] = []

    def draw(self) -> None:
        self.drawn.append((self.canv.getPageNumber(), len(self._cellvalues) - 1))
        super().draw()


class _FooterCanvas(Canvas):
    def showPage(self) -> None:
        self.saveState()
        self.setFont("Helvetica", 8)
        footer = f"{BANK} - Account ending in {ACCOUNT} - Page {self.getPageNumber()}"
        self.drawCentredString(letter[0] / 2, 0.5 * inch, footer)
        self.restoreState()
        super().showPage()


def period(month: int) -> str:
    """'January 1, 2025 - January 31, 2025'."""
    name = calendar.month_name[month]
    return f"{name} 1, {YEAR} - {name} {calendar.monthrange(YEAR, month)[1]}, {YEAR}"


def header_lines(month: int) -> list[str]:
    """The statement's header: card holder, account and period."""
    return [
        f"Card holder: {HOLDER}",
        f"Account ending in {ACCOUNT}",
        f"Statement period: {period(month)}",
    ]


def transaction_rows(month: int, txns: list[Txn]) -> list[list[str]]:
    """The transactions table as printed, header first."""
    head = [["Date", "Description", "Category", "Amount"]]
    return head + [
        [f"{month:02d}/{t.day:02d}/{YEAR}", t.description, t.category, money(t.cents, month)]
        for t in txns
    ]


def render(month: int, txns: list[Txn], summary: Summary) -> tuple[bytes, list[int]]:
    """The PDF bytes and the page of each transaction, in order."""
    buf = io.BytesIO()
    template = letter_template(
        buf, f"Statement {calendar.month_name[month]} {YEAR}", top=0.6 * inch, bottom=0.75 * inch
    )
    table_cls = type("StatementTable", (_PagedTable,), {"drawn": []})
    summary_table = Table(summary.rows(month), colWidths=[2.6 * inch, 1.4 * inch], hAlign="LEFT")
    summary_table.setStyle(TableStyle(_GRID))
    widths = [1.1 * inch, 2.8 * inch, 1.5 * inch, 1.1 * inch]
    table = table_cls(transaction_rows(month, txns), colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle(_GRID))
    story: list[Flowable] = [Paragraph(BANK, _TITLE), Paragraph("Monthly Statement", _META)]
    story += [Paragraph(line, _META) for line in header_lines(month)]
    story += [Spacer(1, 8), summary_table, Paragraph("Transactions", _HEAD), table]
    template.build(story, canvasmaker=_FooterCanvas)
    pages = [page for page, count in table_cls.drawn for _ in range(count)]
    if len(pages) != len(txns):
        raise ValueError(f"{month}: {len(pages)} rows drawn for {len(txns)} transactions")
    return buf.getvalue(), pages
