"""Byte-stable writers for office files and other small helpers for the mixed corpus."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

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
