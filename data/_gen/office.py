"""Byte-stable writers for office files and other small helpers for the sample corpora."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

from pptx import Presentation

FIXED_ZIP_TIME = (2025, 6, 1, 0, 0, 0)
FIXED_ISO = "2025-06-01T00:00:00Z"
_CORE_DATE = re.compile(rb"(<dcterms:(created|modified)\b[^>]*>)[^<]*(</dcterms:\2>)")


def normalize_ooxml(data: bytes) -> bytes:
    """Rewrite an OOXML zip with fixed timestamps so repeated runs give identical bytes."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            payload = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                payload = _CORE_DATE.sub(rb"\g<1>" + FIXED_ISO.encode() + rb"\g<3>", payload)
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            fixed.create_system = 3
            target.writestr(fixed, payload)
    return out.getvalue()


def save_office(obj: object, path: Path) -> None:
    """Save a python-docx / python-pptx / openpyxl object to ``path`` byte-stably."""
    buf = io.BytesIO()
    obj.save(buf)  # type: ignore[attr-defined]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(normalize_ooxml(buf.getvalue()))


def write_pptx(
    path: Path,
    title: str,
    slides: Sequence[tuple[str, list[str], str]],
    author: str,
    when: dt.datetime,
) -> str:
    """A slide deck, (title, bullets, speaker notes) per slide, by `author` at `when`; its
    text, slide by slide."""
    prs = Presentation()
    props = prs.core_properties
    props.author = props.last_modified_by = author
    props.title = title
    props.created = props.modified = when
    props.revision = 1
    texts = []
    for index, (heading, bullets, notes) in enumerate(slides):
        slide = prs.slides.add_slide(prs.slide_layouts[0 if index == 0 else 1])
        slide.shapes.title.text = heading
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for line in bullets[1:]:
            body.add_paragraph().text = line
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
        texts += [heading, *bullets, notes]
    save_office(prs, path)
    return "\n".join(texts)
