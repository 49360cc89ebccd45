"""`file_info`: what a file or a folder is, from the file itself.

A file's size, dates and MIME type, and the facts of its format (a PDF's pages, an Office
file's sheets, slides or pages, an image's size, a text's encoding and lines); a folder's
items, total size and file types, from a walk (symlinks and empty folders count too).
"""

from __future__ import annotations

import mimetypes
import os
import re
import zipfile
from collections import Counter
from pathlib import Path
from typing import BinaryIO

from fsnb.documents.text import looks_binary
from fsnb.protocol.outcome import ToolOutcome
from fsnb.security import open_file, shown
from fsnb.tools.catalog import FileCatalog, Node
from fsnb.tools.context import ToolContext
from fsnb.tools.formats import human_size, when
from fsnb.tools.payloads import FileInfo
from fsnb.tools.registry import tool

#: Largest text file whose encoding and lines `file_info` counts.
TEXT_BYTES = 20 * 2**20


def _encoding(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return "UTF-8 (with BOM)"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        return best.encoding if best else "unknown"
    return "UTF-8" if not data.isascii() else "ASCII"


def _office(file: BinaryIO, suffix: str) -> list[str]:
    """Sheet, slide or page counts read from an Office file's zip directory."""
    with zipfile.ZipFile(file) as archive:
        names = archive.namelist()
        if suffix == ".xlsx":
            book = archive.read("xl/workbook.xml")[:1_000_000].decode("utf-8", "replace")
            sheets = re.findall(r"<sheet\b[^>]*\bname=\"([^\"]*)\"", book)
            return [f"sheets: {len(sheets)} ({', '.join(sheets[:10])})"]
        if suffix == ".pptx":
            slides = [n for n in names if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)]
            return [f"slides: {len(slides)}"]
        if "docProps/app.xml" in names:
            app = archive.read("docProps/app.xml")[:1_000_000].decode("utf-8", "replace")
            pages = re.search(r"<Pages>(\d+)</Pages>", app)
            if pages:
                return [f"pages: {pages.group(1)} (as last saved)"]
    return []


def _details(file: BinaryIO, suffix: str, size: int) -> list[str]:
    """Format-specific facts: pages, sheets, slides, image size, or encoding and lines, of
    the file open in `file` (named with `suffix`)."""
    try:
        if suffix == ".pdf":
            import pypdfium2

            pdf = pypdfium2.PdfDocument(file)
            try:
                return [f"pages: {len(pdf)}"]
            finally:
                pdf.close()
        if suffix in (".xlsx", ".pptx", ".docx"):
            return _office(file, suffix)
        head = file.read(8192)
        file.seek(0)
        if (
            head[:4] in (b"\x89PNG", b"GIF8")
            or head[:2] == b"\xff\xd8"
            or suffix in (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp")
        ):
            return _image(file)
        if looks_binary(head) or size > TEXT_BYTES:
            return [] if looks_binary(head) else ["text: too large to count lines"]
        data = file.read()
        lines = data.count(b"\n") + (bool(data) and not data.endswith(b"\n"))
        return [f"encoding: {_encoding(data)}", f"lines: {lines:,}"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, ImportError) as exc:
        return [f"details: unreadable ({type(exc).__name__}: {str(exc)[:100]})"]
    except Exception as exc:
        return [f"details: unreadable ({type(exc).__name__})"]


def _image(file: BinaryIO) -> list[str]:
    try:
        from PIL import Image
    except ImportError:
        return []
    with Image.open(file) as image:
        return [f"image: {image.width} x {image.height} pixels, {image.format}, {image.mode}"]


@tool
def file_info(path: str, *, ctx: ToolContext) -> ToolOutcome[FileInfo]:
    """Describe a file or folder: size, dates, MIME type and format facts.

    Text files get their encoding and line count; PDFs their pages; Office files their
    sheets, slides or pages; images their dimensions. Folders get their item count,
    total size and a breakdown by file type.

    Args:
        path: File or folder, relative to the root.
    """
    box = ctx.sandbox
    target = box.existing(path)
    rel = shown(box.relative(target))
    if target.is_dir():
        info = target.stat(follow_symlinks=False)
        return _folder_info(ctx.files.walked, box.relative(target), info)
    with open_file(target, box.root) as handle:  # never a FIFO swapped in since the check
        info = os.fstat(handle.fileno())
        details = _details(handle, target.suffix.lower(), info.st_size)
    mime = mimetypes.guess_type(target.name)[0]
    if mime is None:
        mime = "text/plain" if any(d.startswith("encoding") for d in details) else "unknown"
    lines = [
        f"{rel} (file)",
        f"size: {human_size(info.st_size)} ({info.st_size:,} bytes)",
        *_dates(info),
        f"MIME type: {mime}",
        *details,
    ]
    verdict = box.resolve(path, reading=False)
    if verdict != target:
        lines.append(f"(a symlink to {shown(box.relative(target))})")
    return ToolOutcome("\n".join(lines), payload=FileInfo(rel, "file", info.st_size, mime=mime))


def _dates(info: os.stat_result) -> list[str]:
    created = getattr(info, "st_birthtime", None)
    return [f"modified: {when(info.st_mtime)}"] + (
        [f"created: {when(created)}"] if created else [f"changed: {when(info.st_ctime)}"]
    )


def _folder_info(walked: FileCatalog, rel: str, info: os.stat_result) -> ToolOutcome[FileInfo]:
    """`file_info` of the folder `rel`: its items, total size and a breakdown by file type,
    from a walk (`walked`: symlinks and empty folders are in no index)."""
    node = walked.node(rel, None, hidden=True)
    kinds: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    _count(node, kinds, sizes)
    lines = [
        f"{shown(rel)}/ (folder)",
        f"items: {node.files} files, {node.folders} folders ({len(node.children)} directly inside)",
        f"total size: {human_size(node.size)}",
        *_dates(info),
        "by type:",
    ]
    lines += [
        f"  {ext}: {count} files, {human_size(sizes[ext])}" for ext, count in kinds.most_common(15)
    ]
    folder = FileInfo(shown(rel), "folder", node.size, files=node.files, by_type=dict(kinds))
    return ToolOutcome("\n".join(lines), payload=folder)


def _count(node: Node, kinds: Counter[str], sizes: Counter[str]) -> None:
    for child in node.children:
        if child.kind == "folder":
            _count(child, kinds, sizes)
        elif child.kind == "file":
            ext = Path(child.name).suffix.lower() or "(no extension)"
            kinds[ext] += 1
            sizes[ext] += child.size


__all__ = ["file_info"]
