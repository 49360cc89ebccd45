"""The parts of an Office Open XML package (DOCX, PPTX, XLSX), read with zipfile and
ElementTree: parts by name, their relationships, and the namespaces the readers use."""

from __future__ import annotations

import io
import posixpath
import threading
import zipfile
from collections.abc import Callable
from typing import TypeVar
from xml.etree import ElementTree

T = TypeVar("T")

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
#: Strict OOXML's namespaces, read as their transitional twins.
_STRICT = {
    b"http://purl.oclc.org/ooxml/wordprocessingml/main": W[1:-1].encode(),
    b"http://purl.oclc.org/ooxml/drawingml/main": A[1:-1].encode(),
    b"http://purl.oclc.org/ooxml/presentationml/main": P[1:-1].encode(),
    b"http://purl.oclc.org/ooxml/spreadsheetml/main": S[1:-1].encode(),
    b"http://purl.oclc.org/ooxml/officeDocument/relationships": R[1:-1].encode(),
}


#: Parts many files share (a template's styles, a deck's masters), as read once: by their
#: CRC, size and name in the zip, which the zip's directory gives without inflating them.
_SHARED: dict[tuple[object, ...], object] = {}
_SHARED_MAX = 64
_lock = threading.Lock()


class Package:
    """An OOXML zip, read from its bytes."""

    def __init__(self, data: bytes):
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.names = {name.lstrip("/"): name for name in self.zip.namelist()}

    def has(self, part: str) -> bool:
        return part.lstrip("/") in self.names

    def raw(self, part: str) -> bytes:
        data = self.zip.read(self.names[part.lstrip("/")])
        if b"purl.oclc.org/ooxml" in data[:4096]:
            for strict, transitional in _STRICT.items():
                data = data.replace(strict, transitional)
        return data

    def xml(self, part: str) -> ElementTree.Element:
        return ElementTree.fromstring(self.raw(part))

    def shared(self, part: str, read: Callable[[bytes], T]) -> T:
        """`read(raw bytes of part)`, reused for the same part of another package (what a
        reader makes of it must not be changed by its users)."""
        info = self.zip.getinfo(self.names[part.lstrip("/")])
        key = (part, info.CRC, info.file_size, info.compress_size, read)
        with _lock:
            if key in _SHARED:
                return _SHARED[key]  # type: ignore[return-value]
        value = read(self.raw(part))
        with _lock:
            if len(_SHARED) >= _SHARED_MAX:
                _SHARED.clear()
            _SHARED[key] = value
        return value

    def rels(self, part: str) -> dict[str, tuple[str, str, bool]]:
        """rId -> (target part, or the external address; type; external) of `part`."""
        folder, name = posixpath.split(part.lstrip("/"))
        rels_part = posixpath.join(folder, "_rels", f"{name}.rels")
        if not self.has(rels_part):
            return {}
        out = {}
        for rel in self.xml(rels_part).iter(f"{_RELS}Relationship"):
            target, external = rel.get("Target", ""), rel.get("TargetMode") == "External"
            if not external:
                joined = (
                    target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
                )
                target = posixpath.normpath(joined)
            out[rel.get("Id", "")] = (target, rel.get("Type", "").rsplit("/", 1)[-1], external)
        return out

    def main(self, default: str) -> str:
        """The package's main part (its officeDocument relationship), else `default`."""
        for target, kind, _ in self.rels("").values():
            if kind == "officeDocument":
                return target
        return default


def local(tag: str) -> str:
    """An element's tag without its namespace."""
    return tag.rsplit("}", 1)[-1]


def on(value: str | None) -> bool:
    """An OOXML on/off attribute that is present: on unless '0', 'false' or 'off'."""
    return value not in ("0", "false", "off")
