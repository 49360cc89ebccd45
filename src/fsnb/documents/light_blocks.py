"""Markdown as Docling's export writes it, for the light readers: headings, text with its
inline formatting, list items, pipe tables (tabulate, called as docling-core calls it),
code and image placeholders; and `Pages`, an opening's blocks page by page, which stops
taking them once the opening is long enough.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from fsnb.documents.model import Document, assemble

IMAGE = "<!-- image -->"
#: Cells a table may have and still be laid out whole: a larger one is laid out from the
#: rows the opening shows (its column widths then may differ from the full parse's).
WHOLE_TABLE_CELLS = 20_000
_IMAGE_LINK = re.compile(r"!\[.*?\]\((.*?)\)")
_UNDERSCORE = re.compile(r"(?<!\\)_")
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class Style:
    """A run's formatting, as Docling's `Formatting` (underline and scripts show nothing in
    markdown, but a change of them still splits a paragraph into inline parts)."""

    bold: bool = False
    italic: bool = False
    underline: bool = False
    strike: bool = False
    script: str = ""


PLAIN = Style()


def escape(text: str) -> str:
    """Underscores escaped as the markdown export escapes them (not in image links)."""
    if "_" not in text:
        return text
    parts, last = [], 0
    for match in _IMAGE_LINK.finditer(text):
        parts += [_UNDERSCORE.sub(r"\\_", text[last : match.start()]), match.group(0)]
        last = match.end()
    return "".join(parts) + _UNDERSCORE.sub(r"\\_", text[last:])


def line_breaks(text: str) -> str:
    """Single newlines as markdown hard breaks (two spaces), paragraph breaks kept."""
    return "\n\n".join(part.replace("\n", "  \n") for part in text.split("\n\n"))


def styled(text: str, style: Style | None = None, link: str | None = None) -> str:
    """`text` escaped, then wrapped in its formatting and link (Docling's post-processing)."""
    return _wrap(escape(text), style, link)


def _wrap(out: str, style: Style | None, link: str | None) -> str:
    if style:
        out = f"**{out}**" if style.bold else out
        out = f"*{out}*" if style.italic else out
        out = f"~~{out}~~" if style.strike else out
    return f"[{out}]({link})" if link else out


def text_item(text: str, style: Style | None = None, link: str | None = None) -> str:
    """A paragraph (a text item): hard line breaks, then escapes and formatting."""
    return styled(line_breaks(text), style, link) if text else ""


def code_span(text: str, style: Style | None = None, link: str | None = None) -> str:
    """Inline code, in as many backticks as it needs."""
    ticks = "`" * (max((len(m) for m in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return _wrap(f"{ticks}{pad}{text}{pad}{ticks}", style, link)


def code_block(text: str) -> str:
    """A fenced code block (the export leaves the language out)."""
    fence = "`" * max(3, max((len(m) for m in _BACKTICKS.findall(text)), default=0) + 1)
    return f"{fence}\n{text}\n{fence}" if text else ""


def heading(text: str, level: int, style: Style | None = None, link: str | None = None) -> str:
    """A title (`level` 0) or a section header of `level` (1 is '##')."""
    if not text:
        return ""
    marks = "#" if level <= 0 else "#" * min(level + 1, 6)
    return f"{marks} {styled(text.replace(chr(10), ' '), style, link)}"


def inline(parts: Iterable[str]) -> str:
    """An inline group: its parts, each already serialized, on one line."""
    return " ".join(part for part in parts if part)


def list_item(text: str, marker: str = "", depth: int = 0, number: int | None = None) -> str:
    """One list line: `marker` ('' for a bullet, '3.' as numbered lists have it, 'a)' and
    the like kept after a '-'), `number` when the item's list is enumerated but the item
    has no marker; `text` already serialized."""
    if marker in ("-", "*", "+") or re.fullmatch(r"\d+\.", marker):
        pieces = [marker]
    else:
        pieces = [f"{number}." if number is not None and not marker else "-"]
        if any(char.isalnum() for char in marker):
            pieces.append(marker)
    return " " * (4 * depth) + " ".join([*pieces, text])


@dataclass
class Cell:
    row: int
    col: int
    text: str
    rows: int = 1
    cols: int = 1
    header: bool = False


@dataclass
class Table:
    """A table as Docling's `TableData`: cells placed on a grid (a spanning cell fills
    every place it covers); a table without any cell marked `header` has its first row
    as its header."""

    num_rows: int
    num_cols: int
    cells: list[Cell] = field(default_factory=list)

    def grid(self, rows: int | None = None) -> list[list[Cell | None]]:
        height = self.num_rows if rows is None else min(rows, self.num_rows)
        grid: list[list[Cell | None]] = [[None] * self.num_cols for _ in range(height)]
        for cell in self.cells:
            for r in range(min(cell.row, height), min(cell.row + cell.rows, height)):
                for c in range(
                    min(cell.col, self.num_cols), min(cell.col + cell.cols, self.num_cols)
                ):
                    grid[r][c] = cell
        return grid

    def _header_rows(self, grid: list[list[Cell | None]]) -> int:
        """docling-core's `_count_header_rows`: the leading rows that hold column headers
        (row labels in the first column aside), else the first row."""
        first = min((cell.col for cell in self.cells), default=0)
        below = any(
            c and c.header and c.col == first and c.row == r
            for r, row in enumerate(grid)
            if r > 0
            for c in row
        )
        count = 0
        for r, row in enumerate(grid):
            starting = [c for c in row if c and c.row == r]
            body = (r > 0 or below) and any(
                not c.header and c.text.strip() and c.col != first for c in starting
            )
            if not any(c.header for c in starting) or body:
                break
            count += 1
        if count == 0 and not any(c and c.header for row in grid[1:] for c in row):
            return 1
        return count

    def markdown(self, rows: int | None = None) -> str:
        """The table as the export writes it; with `rows`, laid out from its first rows."""
        grid = self.grid(rows)
        if not grid:
            return ""
        texts = [
            [(c.text if c else "").replace("\n", " ").replace("|", "&#124;") for c in row]
            for row in grid
        ]
        count = self._header_rows(grid)
        return pipe_table(_flatten(texts[:count], self.num_cols), texts[count:])


def pipe_table(header: list[str], body: list[list[str]]) -> str:
    """`tabulate(body, headers=header, tablefmt="github", disable_numparse=True)` with the
    columns aligned as docling-core aligns them (right when tabulate's type of the column
    is a number), written directly: tabulate itself takes ~40 µs a cell."""
    cells = [*header, *(text for row in body for text in row)]
    if not all(text.isprintable() for text in cells):  # tabs, escapes: tabulate's own way
        from tabulate import _column_type, tabulate

        align = [
            "right" if _column_type(col) in (int, float) else "left"
            for col in zip(*body, strict=True)
        ]
        return tabulate(body, headers=header, tablefmt="github", disable_numparse=True,
                        colalign=tuple(align) if body else None)  # fmt: skip
    columns = [[row[i].strip() for row in body] for i in range(len(header))]
    width = [
        max([_width(h) + 2, *(_width(text) for text in column)])
        for h, column in zip(header, columns, strict=True)
    ]
    right = [bool(body) and _numeric(column) for column in columns]
    lines = [_row(header, width, right), "|" + "|".join("-" * (w + 2) for w in width) + "|"]
    lines += [_row(list(row), width, right) for row in zip(*columns, strict=True)] if body else []
    return "\n".join(lines)


def _row(texts: list[str], width: list[int], right: list[bool]) -> str:
    cells = [
        " " * (w - _width(t)) + t if r else t + " " * (w - _width(t))
        for t, w, r in zip(texts, width, right, strict=True)
    ]
    return "| " + " | ".join(cells) + " |"


def _width(text: str) -> int:
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth

    return max(wcswidth(text), 0)


_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")


def _numeric(column: list[str]) -> bool:
    """Whether tabulate's type of `column` is int or float (`_column_type`)."""
    kind = 1  # bool, where tabulate's reduction starts
    for text in column:
        kind = max(kind, _kind(text))
        if kind == 5:
            return False
    return kind in (2, 3)


def _kind(text: str) -> int:
    """tabulate's `_type`: 0 empty, 1 bool, 2 int, 3 float, 5 text."""
    if not text:
        return 0
    if text in ("True", "False"):
        return 1
    try:
        int(text)
        return 2
    except ValueError:
        pass
    thousands = bool(_THOUSANDS.match(text))
    if thousands and "." not in text:
        return 2
    try:
        number = float(text)
    except ValueError:
        return 3 if thousands else 5
    if math.isinf(number) or math.isnan(number):
        return 3 if text.lower() in ("inf", "-inf", "nan") or thousands else 5
    return 3


def _flatten(rows: list[list[str]], cols: int) -> list[str]:
    if not rows:
        return [""] * cols
    out = []
    for col in range(cols):
        parts: list[str] = []
        for row in rows:
            text = row[col] if col < len(row) else ""
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        out.append(" - ".join(parts))
    return out


class More:
    """What a reader yields where it stops reading before the end of the file."""


MORE = More()
Block = str | Table | More


class Pages:
    """An opening's blocks page by page: `add` them in order until `full`."""

    def __init__(self, chars: int):
        self.chars = chars
        self.pages: dict[int, list[str]] = {}
        self.size = 0
        self.lines = 0
        self.titled = False
        self.cut = False

    def full(self) -> bool:
        """Long enough, and long enough for the title to be the full text's (the first
        heading of the first 50 lines, else the first line)."""
        return self.size >= self.chars and (self.titled or self.lines >= 50)

    def take(self, blocks: Iterable[tuple[int, Block]]) -> Pages:
        """Add `blocks` until full (`cut` when some were left)."""
        for page, block in blocks:
            if isinstance(block, More):
                self.cut = True
                break
            if self.full():
                if not isinstance(block, str) or block.strip():
                    self.cut = True
                    break
                continue
            self.add(page, block)
        return self

    def add(self, page: int, block: str | Table) -> None:
        if isinstance(block, Table):
            whole = block.num_rows * block.num_cols <= WHOLE_TABLE_CELLS
            text = block.markdown(None if whole else self._rows_for(block))
            self.cut = self.cut or not whole
        else:
            text = block
        if not text:
            return
        lines = text.split("\n")
        if isinstance(block, Table) and len(lines) > 2:
            kept = self._lines_for(lines)
            self.cut = self.cut or kept < len(lines)
            lines = lines[:kept]
            text = "\n".join(lines)
        for line in lines:
            if line.strip():
                self.lines += 1
                self.titled = self.titled or (self.lines <= 50 and line.strip().startswith("#"))
        self.pages.setdefault(page, []).append(text)
        self.size += len(text) + 2

    def _rows_for(self, table: Table) -> int:
        room = max(self.chars - self.size, 0)
        return 2 + max(room // max(4 * table.num_cols, 1), 50 - self.lines)

    def _lines_for(self, lines: list[str]) -> int:
        """How many of a table's lines the opening needs (header and rule included)."""
        size, lines_seen = self.size, self.lines
        for n, line in enumerate(lines, start=1):
            size += len(line) + 1
            lines_seen += 1
            if n > 2 and size >= self.chars and (self.titled or lines_seen >= 50):
                return n
        return len(lines)

    def document(self, file: Path, fmt: str, count: int, parser: str) -> Document:
        texts = {page: "\n\n".join(blocks) for page, blocks in self.pages.items()}
        doc = assemble(file, fmt, texts, max(count, 1), parser, [])
        doc.partial = self.cut
        return doc


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_SAFE_SCHEMES = frozenset({"http", "https", "ftp", "ftps", "sftp", "mailto", "tel", "file"})
_UNSAFE_IN_LINK = re.compile(r"[\x00-\x20\x7f()<>\"\\]")
_ENTITY = re.compile(r"&(?=#?\w+;)")


def link(address: str | None) -> str | None:
    """A link's address as the export writes it (a URL as pydantic normalizes it, else a
    path), or None for none, or for a scheme that must not be live (`javascript:`)."""
    from urllib.parse import quote, urlsplit, urlunsplit

    if not address:
        return None
    if _SCHEME.match(address):
        parts = urlsplit(address)
        host = parts.netloc.lower()
        path = parts.path or ("/" if host else "")
        path = quote(path, safe="/%:@!$&'()*+,;=-._~")
        address = urlunsplit((parts.scheme.lower(), host, path, parts.query, parts.fragment))
    else:
        from pathlib import PurePosixPath

        address = str(PurePosixPath(address)) if not address.startswith("#") else address
    cleaned = re.sub(r"[\t\r\n]", "", address).lstrip("".join(chr(c) for c in range(0x21)))
    scheme = _SCHEME.match(cleaned)
    if scheme and len(scheme.group(1)) > 1 and scheme.group(1).lower() not in _SAFE_SCHEMES:
        return None
    return _UNSAFE_IN_LINK.sub(lambda m: f"%{ord(m.group()):02X}", _ENTITY.sub("&amp;", address))
