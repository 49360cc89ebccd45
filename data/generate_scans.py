"""Generate the scanned-document sample under data/scans/ (issue 25).

Usage: ``python data/generate_scans.py``. Text we know (a receipt, a two-page letter, an
invoice) is drawn with Pillow's built-in font onto white pages at 150-300 dpi, then
scanned badly on purpose: speckle, blur, a skew of a few degrees, pages turned 90 or 180
degrees. The pages are saved as image-only PDFs and as PNG, JPEG, TIFF, WebP and BMP
files. The truth (each page's text, its dpi, what was done to it, and whether it counts
as a clean or a noisy render) goes to ``data/_truth/scans.json``, outside every corpus.
Output is deterministic (seeded noise; Pillow's own font).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

DATA = Path(__file__).resolve().parent
OUT = DATA / "scans"
TRUTH = DATA / "_truth" / "scans.json"
A4 = (8.27, 11.69)  # inches
RECEIPT_WIDTH = 3.15  # 80 mm till roll

RECEIPT = [
    "CORNER MARKET",
    "123 Harbor Street, Portland",
    "Date: 2024-03-14 18:42",
    "Transaction: TXN-58213-0947",
    ("Milk 2L", "3.49"),
    ("Sourdough bread", "5.25"),
    ("Coffee beans 1kg", "18.90"),
    ("Bananas 1.2kg", "2.16"),
    ("Subtotal", "29.80"),
    ("Tax 8%", "2.38"),
    ("Total", "32.18"),
    "Card ending 4471",
    "Thank you for shopping!",
]

LETTER_1 = [
    "Harbor Legal Partners",
    "41 Quay Road, Bristol BS1 4QA",
    "",
    "12 February 2024",
    "",
    "Ms Helen Okafor",
    "Flat 3, 18 Ashley Grove",
    "Bristol BS6 5LT",
    "",
    "Dear Ms Okafor,",
    "",
    "Re: Lease renewal for 18 Ashley Grove, reference HLP-2024-0193",
    "",
    "Thank you for your letter of 2 February. We have reviewed the renewal",
    "terms proposed by your landlord and set out our advice below.",
    "",
    "The new lease runs for three years from 1 April 2024. The monthly rent",
    "rises from 1,150 pounds to 1,225 pounds, an increase of 6.5 percent,",
    "which is within the range of recent settlements in the area.",
    "",
    "The break clause allows either party to end the lease after eighteen",
    "months on two months written notice. We recommend that you accept it.",
]

LETTER_2 = [
    "The deposit of 1,725 pounds stays protected with the Deposit Protection",
    "Service under certificate DPS-77120-B. No top-up is required.",
    "",
    "Repairs to the boiler remain the landlord's duty. Please report any",
    "fault in writing and keep a copy of each message you send.",
    "",
    "Please sign both copies of the lease and return one to this office by",
    "15 March 2024. Our fee for this review is 240 pounds including VAT.",
    "",
    "Yours sincerely,",
    "",
    "Daniel Reyes",
    "Solicitor, Harbor Legal Partners",
]

INVOICE = [
    "INVOICE",
    "Northfield Office Supply Ltd",
    "Invoice number: INV-2024-0587",
    "Invoice date: 5 March 2024",
    "Due date: 4 April 2024",
    "Bill to: Greenway Dental Clinic, 9 Mill Lane, Leeds LS2 7EH",
    "",
    ("Description", "Qty", "Unit price", "Amount"),
    ("A4 copier paper, box of 5 reams", "4", "24.50", "98.00"),
    ("Black toner cartridge TN-2420", "2", "61.75", "123.50"),
    ("Ergonomic desk chair", "1", "189.00", "189.00"),
    ("Whiteboard markers, pack of 12", "3", "7.80", "23.40"),
    "",
    ("Subtotal", "", "", "433.90"),
    ("VAT 20%", "", "", "86.78"),
    ("Total due", "", "", "520.68"),
    "",
    "Pay by bank transfer to sort code 20-45-77, account 63018842.",
    "Quote the invoice number with your payment.",
]


def _font(dpi: int, points: float) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=round(points * dpi / 72))


def _text(row: str | tuple[str, ...]) -> str:
    return " ".join(c for c in row if c) if isinstance(row, tuple) else row


def render(rows: list, dpi: int, width_in: float, points: float, height_in: float | None = None):
    """One white page ("L") with `rows`; a tuple row is columns, the last right-aligned.
    Returns (image, truth text)."""
    font = _font(dpi, points)
    step = round(points * dpi / 72 * 1.6)
    margin = round(0.2 * dpi) if width_in < 4 else round(0.9 * dpi)
    width = round(width_in * dpi)
    height = round(height_in * dpi) if height_in else 2 * margin + step * len(rows)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    right = width - margin
    for n, row in enumerate(rows):
        y = margin + n * step
        if isinstance(row, str):
            draw.text((margin, y), row, fill=0, font=font)
            continue
        cols = list(row)
        span = right - margin
        stops = [margin, margin + 0.55 * span, margin + 0.68 * span]
        for i, cell in enumerate(cols[:-1]):
            draw.text((stops[i] if i < len(stops) else margin, y), cell, fill=0, font=font)
        draw.text((right, y), cols[-1], fill=0, font=font, anchor="ra")
    truth = "\n".join(_text(r) for r in rows if _text(r))
    return page, truth


def speckle(page: Image.Image, rng: random.Random, density: float = 0.002) -> Image.Image:
    page = page.copy()
    px = page.load()
    w, h = page.size
    for _ in range(int(w * h * density)):
        px[rng.randrange(w), rng.randrange(h)] = 0 if rng.random() < 0.5 else 255
    return page


def skew(page: Image.Image, degrees: float) -> Image.Image:
    return page.rotate(degrees, resample=Image.BICUBIC, expand=True, fillcolor=255)


def blur(page: Image.Image, dpi: int) -> Image.Image:
    return page.filter(ImageFilter.GaussianBlur(dpi / 200))


def _save_pdf(pages: list[Image.Image], path: Path, dpi: int) -> None:
    first, *rest = [p.convert("RGB") for p in pages]
    when = time.gmtime(1710374400)  # fixed: reruns are byte-identical
    first.save(
        path,
        "PDF",
        resolution=dpi,
        save_all=True,
        append_images=rest,
        quality=70,
        creationDate=when,
        modDate=when,
    )


def build() -> dict:
    rng = random.Random(25)
    OUT.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}

    def note(name: str, group: str, dpi: int, variant: str, texts: list[str]) -> None:
        files[name] = {"set": group, "dpi": dpi, "variant": variant, "pages": texts}

    # Clean 300 dpi renders.
    receipt, receipt_text = render(RECEIPT, 300, RECEIPT_WIDTH, 10)
    _save_pdf([receipt], OUT / "receipt_corner_market.pdf", 300)
    note("receipt_corner_market.pdf", "clean", 300, "clean", [receipt_text])
    invoice, invoice_text = render(INVOICE, 300, *A4, 11)
    invoice.convert("1", dither=Image.NONE).save(OUT / "invoice_northfield.png", optimize=True)
    note("invoice_northfield.png", "clean", 300, "clean", [invoice_text])
    letter1, letter1_text = render(LETTER_1, 300, *A4, 11)
    letter1.convert("1", dither=Image.NONE).save(
        OUT / "letter_page1.tiff", compression="group4", dpi=(300, 300)
    )
    note("letter_page1.tiff", "clean", 300, "clean", [letter1_text])

    # Noisy, blurred, skewed and turned pages at 150-200 dpi.
    l1, t1 = render(LETTER_1, 200, *A4, 11)
    l2, t2 = render(LETTER_2, 200, *A4, 11)
    pages = [skew(speckle(l1, rng), 1.5), speckle(l2, rng).rotate(180)]
    _save_pdf(pages, OUT / "letter_lease_renewal.pdf", 200)
    variant = "speckle, skew 1.5; page 2 upside down"
    note("letter_lease_renewal.pdf", "noisy", 200, variant, [t1, t2])
    inv, inv_text = render(INVOICE, 200, *A4, 11)
    blur(inv, 200).transpose(Image.ROTATE_90).save(OUT / "invoice_sideways.jpg", quality=60)
    note("invoice_sideways.jpg", "noisy", 200, "blur, turned 90", [inv_text])
    rec, rec_text = render(RECEIPT, 200, RECEIPT_WIDTH, 10)
    photo = skew(blur(speckle(rec, rng, 0.001), 200), -3)
    photo.save(OUT / "receipt_photo.jpg", quality=70)
    note("receipt_photo.jpg", "noisy", 200, "speckle, blur, skew -3", [rec_text])
    rec150, rec150_text = render(RECEIPT, 150, RECEIPT_WIDTH, 10)
    speckle(rec150, rng).transpose(Image.ROTATE_270).save(OUT / "receipt_turned.webp", quality=80)
    note("receipt_turned.webp", "noisy", 150, "speckle, turned 270", [rec150_text])
    rec150.convert("1", dither=Image.NONE).save(OUT / "receipt_150dpi.bmp")
    note("receipt_150dpi.bmp", "noisy", 150, "clean at 150 dpi, 1-bit", [rec150_text])

    TRUTH.parent.mkdir(parents=True, exist_ok=True)
    TRUTH.write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
    return files


if __name__ == "__main__":
    made = build()
    total = sum((OUT / name).stat().st_size for name in made)
    print(f"{len(made)} files in {OUT} ({total / 2**20:.2f} MB); truth in {TRUTH}")
