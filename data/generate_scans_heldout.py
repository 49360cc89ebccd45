"""Generate the HELD-OUT scanned-document sample under data/scans_heldout/ (issue 25).

Usage: ``python data/generate_scans_heldout.py``. A second sample, made to check that what
was tuned on data/scans/ (data/generate_scans.py) holds on pages it was never tuned on: other
seeds, other fonts (DejaVu Serif, Sans Condensed, Sans Mono, Sans Bold, an oblique "hand"
with per-letter jitter, and Pillow's own), other layouts and content (a bank statement with
a five-column table, a two-column newsletter, a shipping label with mixed sizes, a
handwritten-looking note on lined paper, a receipt photographed at an angle with blur and
uneven light on a table, a faxed card statement with a landscape page turned, a faded
photocopy, an upside-down parking ticket), at 150-300 dpi. Its figures are read, never
tuned on: bench/ocr.py prints them beside the tuning set's.

The truth goes to ``data/_truth/scans_heldout.json``, outside every corpus, in the same
shape as ``scans.json``: reading order is the truth's line order (a two-column page is the
left column, then the right one; a table row is its cells joined by spaces).

The DejaVu fonts are looked up in the system's font folders, then in matplotlib's copy; a
missing one is an error rather than a silent stand-in, so that reruns are byte-identical.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_scans import A4, _save_pdf, blur, skew, speckle

DATA = Path(__file__).resolve().parent
OUT = DATA / "scans_heldout"
TRUTH = DATA / "_truth" / "scans_heldout.json"
SEED = 7019  # not the tuning set's 25
FONT_DIRS = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/Library/Fonts"),
]

# ---------------------------------------------------------------------------- content

STATEMENT_HEAD = [
    "Harbour Mutual Bank plc",
    "PO Box 2281, Leeds LS1 9QT",
    "",
    "Mr Tomasz Wielgosz",
    "27 Chapel Allerton Road, Leeds LS7 3NB",
    "",
    "Current Account statement",
    "Account number 40518877   Sort code 30-92-14",
    "Period: 1 July 2024 to 31 July 2024",
    "",
]
STATEMENT_ROWS = [
    ("Date", "Description", "Money out", "Money in", "Balance"),
    ("01 Jul", "Balance brought forward", "", "", "2,418.07"),
    ("02 Jul", "DD Yorkshire Water 880213", "38.40", "", "2,379.67"),
    ("03 Jul", "Card Tesco Stores 4417", "62.15", "", "2,317.52"),
    ("05 Jul", "FP Wielgosz K savings", "", "150.00", "2,467.52"),
    ("08 Jul", "SO Rent Allerton Lettings", "895.00", "", "1,572.52"),
    ("11 Jul", "Card Northern Rail 20931", "14.70", "", "1,557.82"),
    ("15 Jul", "BGC Calder Logistics Ltd", "", "2,146.33", "3,704.15"),
    ("16 Jul", "DD Octopus Energy A-6F2C91", "97.00", "", "3,607.15"),
    ("19 Jul", "Card Boots 1187 Briggate", "9.99", "", "3,597.16"),
    ("22 Jul", "ATM Headingley Lane", "60.00", "", "3,537.16"),
    ("26 Jul", "Chq 000412", "230.00", "", "3,307.16"),
    ("31 Jul", "Interest paid gross", "", "1.84", "3,309.00"),
]
STATEMENT_FOOT = [
    "",
    "Closing balance on 31 July 2024: 3,309.00",
    "Arranged overdraft limit: 500.00. Interest rate on credit balances 0.65% AER.",
    "Please check this statement and tell us about any entry you do not recognise.",
]

NEWSLETTER_TITLE = "Millbrook Allotment Society - Autumn Bulletin No. 14"
NEWSLETTER_LEFT = [
    "Water troughs",
    "The troughs on paths B and D will be",
    "drained on 2 November for the winter.",
    "Please take any hoses home before",
    "then; the committee cannot store them.",
    "",
    "Plot inspections",
    "Inspections take place on Saturday",
    "19 October from 10am. Plots 7, 23,",
    "41 and 58 received a reminder letter",
    "in August and will be walked first.",
    "",
    "Seed swap",
    "Bring spare seed in labelled envelopes",
    "to the hut on 9 November, 2pm to 4pm.",
]
NEWSLETTER_RIGHT = [
    "Subscriptions",
    "Annual rent for 2025 is 46 pounds a full",
    "plot and 24 pounds a half plot, due by",
    "31 January. Pay the treasurer, Anita",
    "Chowdhury, or by transfer quoting your",
    "plot number, e.g. MAS-PLOT-023.",
    "",
    "Bonfires",
    "Bonfires are allowed only between",
    "1 November and 28 February, after",
    "4pm, and never on a Sunday.",
    "",
    "Next meeting",
    "Tuesday 12 November, 7.30pm, at the",
    "Scout hall on Ferry Lane.",
]

LABEL = [
    ("big", "PRIORITY 24"),
    ("small", "FROM: Kestrel Components, Unit 4"),
    ("small", "Brindley Park, Stafford ST16 3DR"),
    ("", ""),
    ("mid", "SHIP TO:"),
    ("mid", "Dr Amara Nwosu"),
    ("mid", "Flat 12, Cedar Court"),
    ("mid", "88 Rosebery Avenue"),
    ("mid", "London EC1R 4QX"),
    ("", ""),
    ("mono", "TRACKING 7Q 4410 2298 05GB"),
    ("mono", "WEIGHT 2.35 KG  PARCEL 1 OF 2"),
    ("mono", "REF PO-88213/KC"),
]

NOTE = [
    "Sunday 6 Oct",
    "Jo - plumber coming Tues 9am",
    "about the leak under the sink.",
    "Quote was 85 for the visit plus parts,",
    "ref WL-3307. Key is with Mrs Patel",
    "at no. 14 if we are both out.",
    "Bins: green one goes out Wed night!",
    "Love, Sam x",
]

PHOTO_RECEIPT = [
    "GREENLEAF PHARMACY",
    "14 Market Row, Ipswich",
    "VAT No. GB 318 4420 17",
    "2024-09-21 11:07  Till 02",
    "Receipt 000-4471-8825",
    ("Ibuprofen 200mg x16", "2.49"),
    ("Sun cream SPF50", "8.75"),
    ("Plasters assorted", "3.20"),
    ("Vitamin D 1000IU", "5.99"),
    ("TOTAL", "20.43"),
    ("Contactless VISA", "20.43"),
    "Auth code 58K21P",
    "Returns within 28 days",
]

CARD_PAGE_1 = [
    "Lumen Card Services",
    "Credit card statement, September 2024",
    "Card ending 9034   Customer ID LCS-221-770-4",
    "",
    ("Date", "Merchant", "Amount"),
    ("02/09", "Riverside Cinema Norwich", "23.80"),
    ("04/09", "Shell Hethersett", "71.12"),
    ("07/09", "Waterstones Castle St", "18.99"),
    ("13/09", "Jarrold Department Store", "44.00"),
    ("18/09", "Payment received, thank you", "-400.00"),
    ("21/09", "Anglian Water Services", "41.60"),
    ("27/09", "Pizza Express Tombland", "36.45"),
    "",
    ("New balance", "", "612.34"),
    ("Minimum payment due 14/10/2024", "", "25.00"),
]
CARD_PAGE_2 = [
    "Summary of interest rates",
    ("Purchases", "24.9% p.a. variable", "monthly 1.87%"),
    ("Cash advances", "29.9% p.a. variable", "monthly 2.20%"),
    ("Balance transfers", "0% until 03/2025", "then 24.9%"),
    "Late payment fee 12.00. Over limit fee 12.00.",
    "Lines open 8am to 8pm: 0345 601 2299",
]

MINUTES = [
    "Minutes of the Residents Committee",
    "Held 3 September 2024 at the community centre",
    "Present: R. Osei (chair), L. Brandt, P. Kowalczyk, D. Ferreira",
    "",
    "1. The lift in block C was repaired on 28 August at a cost of 1,940.",
    "2. Car park gate code changes to 5817 from 1 October.",
    "3. A quote of 3,200 for repainting the stairwells was accepted.",
    "4. Complaints about noise from flat 22 will be passed to the agent.",
    "5. Next meeting: 1 October 2024, 7pm.",
]

TICKET = [
    "PENALTY CHARGE NOTICE",
    "PCN No. WK40921736",
    "Vehicle VRM LR19 XKT",
    "Issued 14:52 12/08/2024",
    "Contravention code 12",
    "Location Museum Street",
    "Charge 70.00",
    "Reduced to 35.00 if paid",
    "within 14 days",
]


# ---------------------------------------------------------------------------- drawing


def font(name: str, px: float) -> ImageFont.FreeTypeFont:
    """A TrueType font by file name at `px` pixels; "default" is Pillow's own."""
    if name == "default":
        return ImageFont.load_default(size=round(px))
    dirs = list(FONT_DIRS)
    try:  # matplotlib ships the DejaVu family too
        import matplotlib

        dirs.append(Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf")
    except ImportError:
        pass
    for folder in dirs:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), round(px))
    raise SystemExit(f"font {name} not found in {[str(d) for d in dirs]}")


def pt(dpi: int, points: float) -> float:
    return points * dpi / 72


def cells(row) -> str:
    return " ".join(c for c in row if c) if isinstance(row, tuple) else row


def table(draw, rows, x0, x1, y, step, face, stops, right_from: int, fill=0) -> int:
    """Rows at y, a tuple's cells at `stops` (fractions of x0..x1); cells from index
    `right_from` on are right-aligned at their stop. Returns the next y."""
    for row in rows:
        if isinstance(row, str):
            draw.text((x0, y), row, fill=fill, font=face)
        else:
            for i, cell in enumerate(row):
                x = x0 + stops[i] * (x1 - x0)
                anchor = "ra" if i >= right_from else "la"
                draw.text((x, y), cell, fill=fill, font=face, anchor=anchor)
        y += step
    return y


def statement(dpi: int) -> tuple[Image.Image, str]:
    width, height = round(A4[0] * dpi), round(A4[1] * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    x0, x1 = round(0.8 * dpi), width - round(0.8 * dpi)
    y = round(0.8 * dpi)
    title = font("DejaVuSerif-Bold.ttf", pt(dpi, 15))
    body = font("DejaVuSerif.ttf", pt(dpi, 10))
    small = font("DejaVuSerif.ttf", pt(dpi, 8))
    draw.text((x0, y), STATEMENT_HEAD[0], fill=0, font=title)
    y += round(pt(dpi, 15) * 1.7)
    step = round(pt(dpi, 10) * 1.55)
    y = table(draw, STATEMENT_HEAD[1:], x0, x1, y, step, body, [], 99)
    stops = [0.0, 0.12, 0.70, 0.85, 1.0]
    draw.line((x0, y - step // 4, x1, y - step // 4), fill=0, width=max(1, dpi // 150))
    y = table(draw, STATEMENT_ROWS[:1], x0, x1, y, step, body, stops, 2)
    draw.line((x0, y - step // 4, x1, y - step // 4), fill=0, width=max(1, dpi // 150))
    y = table(draw, STATEMENT_ROWS[1:], x0, x1, y, step, body, stops, 2)
    y = table(draw, STATEMENT_FOOT, x0, x1, y, round(pt(dpi, 8) * 1.6), small, [], 99)
    rows = STATEMENT_HEAD + STATEMENT_ROWS + STATEMENT_FOOT
    return page, "\n".join(cells(r) for r in rows if cells(r))


def newsletter(dpi: int) -> tuple[Image.Image, str]:
    width, height = round(A4[0] * dpi), round(A4[1] * dpi * 0.62)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    margin = round(0.75 * dpi)
    title = font("DejaVuSansCondensed-Bold.ttf", pt(dpi, 14))
    body = font("DejaVuSansCondensed.ttf", pt(dpi, 10))
    head = font("DejaVuSansCondensed-Bold.ttf", pt(dpi, 10))
    draw.text((margin, margin), NEWSLETTER_TITLE, fill=0, font=title)
    top = margin + round(pt(dpi, 14) * 2.2)
    gutter = round(0.35 * dpi)
    col = (width - 2 * margin - gutter) // 2
    step = round(pt(dpi, 10) * 1.45)
    for x, lines in ((margin, NEWSLETTER_LEFT), (margin + col + gutter, NEWSLETTER_RIGHT)):
        y = top
        heading = True
        for line in lines:
            if line:
                draw.text((x, y), line, fill=0, font=head if heading else body)
            heading = not line
            y += step
    truth = [NEWSLETTER_TITLE, *NEWSLETTER_LEFT, *NEWSLETTER_RIGHT]
    return page, "\n".join(t for t in truth if t)


def label(dpi: int) -> tuple[Image.Image, str]:
    width, height = round(4 * dpi), round(6 * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    faces = {
        "big": font("DejaVuSans-Bold.ttf", pt(dpi, 26)),
        "mid": font("DejaVuSans.ttf", pt(dpi, 13)),
        "small": font("DejaVuSans.ttf", pt(dpi, 8)),
        "mono": font("DejaVuSansMono-Bold.ttf", pt(dpi, 10)),
    }
    gaps = {"big": 1.5, "mid": 1.4, "small": 1.5, "mono": 1.6, "": 1.0}
    sizes = {"big": 26, "mid": 13, "small": 8, "mono": 10, "": 8}
    margin = round(0.25 * dpi)
    y = margin
    draw.rectangle((margin // 2, margin // 2, width - margin // 2, height - margin // 2), width=4)
    for kind, text in LABEL:
        if text:
            draw.text((margin, y), text, fill=0, font=faces[kind])
        y += round(pt(dpi, sizes[kind]) * gaps[kind])
        if kind == "big":
            draw.line((margin, y - 10, width - margin, y - 10), fill=0, width=3)
    # A barcode-like block of bars under the text (seeded): OCR must not read it as text.
    rng = random.Random(SEED + 1)
    x = margin
    bar_top = y + round(0.1 * dpi)
    while x < width - margin - 8:
        w = rng.choice((2, 3, 5, 7))
        draw.rectangle((x, bar_top, x + w, bar_top + round(0.7 * dpi)), fill=0)
        x += w + rng.choice((3, 4, 6))
    return page, "\n".join(t for _, t in LABEL if t)


def handwriting(dpi: int, rng: random.Random) -> tuple[Image.Image, str]:
    """A note in an oblique face drawn letter by letter with jitter (size, baseline, slant,
    spacing), in blue ink on ruled paper."""
    width, height = round(5.8 * dpi), round(4.6 * dpi)
    page = Image.new("RGB", (width, height), (250, 248, 240))
    draw = ImageDraw.Draw(page)
    rule = round(0.45 * dpi)
    for y in range(round(0.7 * dpi), height, rule):
        draw.line((0, y, width, y), fill=(170, 195, 230), width=2)
    draw.line((round(0.5 * dpi), 0, round(0.5 * dpi), height), fill=(230, 160, 160), width=2)
    faces = ["DejaVuSans-Oblique.ttf", "DejaVuSerif-Italic.ttf"]
    size = pt(dpi, 15)
    for n, line in enumerate(NOTE):
        x = round(0.6 * dpi) + rng.randint(0, round(0.1 * dpi))
        base = round(0.7 * dpi) + n * rule - 6
        drift = rng.uniform(-0.02, 0.02)  # lines wander up or down a little
        face_name = faces[n % 2]
        for ch in line:
            px = size * rng.uniform(0.9, 1.1)
            face = font(face_name, px)
            ink = (20 + rng.randint(0, 25), 40 + rng.randint(0, 25), 120 + rng.randint(0, 40))
            glyph = Image.new("L", (round(px * 2), round(px * 2)), 0)
            ImageDraw.Draw(glyph).text((px / 2, px * 1.4), ch, fill=255, font=face, anchor="ls")
            glyph = glyph.rotate(rng.uniform(-7, 7), resample=Image.BICUBIC)
            y = base + (x - 0.6 * dpi) * drift + rng.gauss(0, px * 0.035)
            page.paste(
                Image.new("RGB", glyph.size, ink), (round(x - px / 2), round(y - px * 1.4)), glyph
            )
            x += face.getlength(ch) * rng.uniform(0.95, 1.12)
    return page, "\n".join(NOTE)


def receipt_lines(dpi: int) -> tuple[Image.Image, str]:
    face = font("DejaVuSansMono.ttf", pt(dpi, 8.5))
    bold = font("DejaVuSansMono-Bold.ttf", pt(dpi, 10))
    step = round(pt(dpi, 8.5) * 1.7)
    margin = round(0.18 * dpi)
    width = round(2.9 * dpi)
    height = 2 * margin + step * (len(PHOTO_RECEIPT) + 1)
    page = Image.new("L", (width, height), 246)
    draw = ImageDraw.Draw(page)
    y = margin
    for n, row in enumerate(PHOTO_RECEIPT):
        this = bold if n == 0 or (isinstance(row, tuple) and row[0] == "TOTAL") else face
        if isinstance(row, str):
            draw.text((width // 2, y), row, fill=30, font=this, anchor="ma")
        else:
            draw.text((margin, y), row[0], fill=30, font=this)
            draw.text((width - margin, y), row[1], fill=30, font=this, anchor="ra")
        y += step
    return page, "\n".join(cells(r) for r in PHOTO_RECEIPT)


def _perspective_coeffs(src: list[tuple[float, float]], dst: list[tuple[float, float]]):
    """Coefficients for Image.transform(PERSPECTIVE) mapping output points `dst` to input
    points `src`."""
    import numpy as np

    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float)).tolist()


def _noise(size: tuple[int, int], sigma: float, rng: random.Random) -> Image.Image:
    """Grey Gaussian noise around 128, seeded (Pillow's effect_noise is not)."""
    import numpy as np

    values = np.random.default_rng(rng.randrange(2**32)).normal(128, sigma, size[::-1])
    return Image.fromarray(values.clip(0, 255).astype("uint8"), "L")


def phone_photo(paper: Image.Image, rng: random.Random) -> Image.Image:
    """`paper` lying on a wooden-ish table, shot at an angle: perspective, a shadow across
    it, uneven light, blur, colour noise."""
    w, h = paper.size
    out_w, out_h = round(w * 1.45), round(h * 1.18)
    # Where the paper's corners land in the photo (a trapezoid, turned a little).
    ox, oy = out_w * 0.17, out_h * 0.07
    dst = [
        (ox + w * 0.06, oy),
        (ox + w * 1.0, oy + h * 0.03),
        (ox + w * 1.07, oy + h * 0.97),
        (ox - w * 0.02, oy + h * 0.94),
    ]
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    coeffs = _perspective_coeffs(src, dst)
    rgb = Image.merge("RGB", [paper.point(lambda v: v * 0.98)] * 3)
    warped = rgb.transform((out_w, out_h), Image.PERSPECTIVE, coeffs, Image.BICUBIC)
    mask = Image.new("L", (w, h), 255).transform((out_w, out_h), Image.PERSPECTIVE, coeffs)
    table_img = Image.new("RGB", (out_w, out_h), (120, 84, 52))
    grain = _noise((out_w // 4, out_h // 4), 30, rng).resize((out_w, out_h))
    table_img = ImageChops.multiply(
        table_img, Image.merge("RGB", [grain.point(lambda v: 160 + v // 3)] * 3)
    )
    photo = Image.composite(warped, table_img, mask)
    # Light: bright top-left falling to dim bottom-right, and a soft shadow band.
    light = Image.linear_gradient("L").rotate(35, expand=False).resize((out_w, out_h))
    light = light.point(lambda v: 255 - v * 0.45)
    shadow = Image.new("L", (out_w, out_h), 255)
    ImageDraw.Draw(shadow).polygon(
        [(0, out_h * 0.55), (out_w, out_h * 0.7), (out_w, out_h * 0.8), (0, out_h * 0.66)], fill=185
    )
    light = ImageChops.multiply(light, shadow.filter(ImageFilter.GaussianBlur(out_w / 30)))
    photo = ImageChops.multiply(photo, Image.merge("RGB", [light] * 3))
    photo = photo.filter(ImageFilter.GaussianBlur(1.3))
    noise = _noise((out_w, out_h), 10 + rng.random() * 4, rng)
    photo = ImageChops.add(photo, Image.merge("RGB", [noise] * 3), scale=1.0, offset=-128)
    return ImageChops.multiply(photo, Image.new("RGB", photo.size, (255, 240, 215)))


def rows_page(rows, dpi, face_name, points, width_in, height_in, stops, right_from):
    """A plain page of rows in one face (tables by `stops`)."""
    width, height = round(width_in * dpi), round(height_in * dpi)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    margin = round(0.7 * dpi)
    step = round(pt(dpi, points) * 1.6)
    table(
        draw,
        rows,
        margin,
        width - margin,
        margin,
        step,
        font(face_name, pt(dpi, points)),
        stops,
        right_from,
    )
    return page, "\n".join(cells(r) for r in rows if cells(r))


def faded(page: Image.Image) -> Image.Image:
    """A tired photocopy: grey text on grey, darker toward one edge."""
    page = page.point(lambda v: 105 + v * 0.5)
    w, h = page.size
    edge = Image.linear_gradient("L").rotate(90).resize((w, h)).point(lambda v: 255 - v // 6)
    return ImageChops.multiply(page, edge)


def threshold(page: Image.Image, level: int = 150) -> Image.Image:
    return page.point(lambda v: 255 if v > level else 0).convert("1", dither=Image.NONE)


# ---------------------------------------------------------------------------- build


def build() -> dict:
    rng = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict] = {}

    def note(name: str, group: str, dpi: int, variant: str, texts: list[str]) -> None:
        files[name] = {"set": group, "dpi": dpi, "variant": variant, "pages": texts}

    # Clean 300 dpi renders.
    page, text = statement(300)
    page.save(
        OUT / "statement_harbour_mutual.pdf",
        "PDF",
        resolution=300,
        quality=80,
        creationDate=_fixed(),
        modDate=_fixed(),
    )
    note("statement_harbour_mutual.pdf", "clean", 300, "DejaVu Serif, five-column table", [text])
    page, text = newsletter(300)
    page.convert("1", dither=Image.NONE).save(OUT / "newsletter_two_column.png", optimize=True)
    note("newsletter_two_column.png", "clean", 300, "DejaVu Sans Condensed, two columns", [text])
    page, text = label(300)
    page.save(OUT / "shipping_label.jpg", quality=80)
    note("shipping_label.jpg", "clean", 300, "DejaVu Sans/Mono Bold, mixed sizes, bars", [text])

    # Noisy, photographed, faxed, faded, turned: 150-200 dpi.
    page, text = handwriting(200, rng)
    page.save(OUT / "note_handwritten.jpg", quality=80)
    note("note_handwritten.jpg", "noisy", 200, "jittered oblique hand, blue on ruled", [text])
    paper, text = receipt_lines(200)
    phone_photo(paper, rng).save(OUT / "receipt_phone_photo.jpg", quality=80)
    note("receipt_phone_photo.jpg", "noisy", 200, "DejaVu Mono, perspective, blur, light", [text])
    p1, t1 = rows_page(CARD_PAGE_1, 200, "DejaVuSans.ttf", 10, *A4, [0.0, 0.16, 1.0], 2)
    p2, t2 = rows_page(CARD_PAGE_2, 200, "DejaVuSans.ttf", 10, 8.5, 3.2, [0.0, 0.3, 1.0], 2)
    fax1 = threshold(speckle(skew(blur(p1, 200), -2.0), rng, 0.0015), 140)
    fax2 = threshold(speckle(blur(p2, 200), rng, 0.001), 140).transpose(Image.ROTATE_90)
    _save_pdf([fax1.convert("L"), fax2.convert("L")], OUT / "statement_fax.pdf", 200)
    variant = "DejaVu Sans, fax: blur, skew -2, speckle, 1-bit; page 2 landscape turned 90"
    note("statement_fax.pdf", "noisy", 200, variant, [t1, t2])
    page, text = rows_page(MINUTES, 150, "default", 10, *A4, [], 99)
    faded(skew(page, 1.0)).save(OUT / "minutes_faded.webp", quality=80)
    note("minutes_faded.webp", "noisy", 150, "Pillow default font, faded, skew 1", [text])
    page, text = rows_page(TICKET, 150, "DejaVuSansMono-Bold.ttf", 11, 3.4, 3.6, [], 99)
    speckle(page, rng, 0.0008).convert("1", dither=Image.NONE).rotate(180).save(
        OUT / "parking_ticket.bmp"
    )
    note("parking_ticket.bmp", "noisy", 150, "DejaVu Mono Bold, 1-bit, upside down", [text])

    TRUTH.parent.mkdir(parents=True, exist_ok=True)
    TRUTH.write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
    return files


def _fixed():
    import time

    return time.gmtime(1727740800)  # fixed: reruns are byte-identical


if __name__ == "__main__":
    made = build()
    total = sum((OUT / name).stat().st_size for name in made)
    print(f"{len(made)} files in {OUT} ({total / 2**20:.2f} MB); truth in {TRUTH}")
