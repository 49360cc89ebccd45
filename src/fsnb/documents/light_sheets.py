"""XLSX, read as Docling's Excel backend reads it (values as openpyxl gives them with
`data_only`: cached formula results, numbers as int or float, date-formatted numbers as
datetimes): one page per sheet, on which each block of connected cells is a table (in
the order of their top rows), a merged label over a table's header its own text line.
A sheet far longer than the opening is read only as far as the opening needs; its first
table is then laid out from the rows read. Hidden sheets are left out; charts, images
and cell comments are not read (Docling places charts and images among a sheet's tables,
so past one the opening is no longer the full parse's beginning).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import deque
from collections.abc import Iterator
from xml.etree.ElementTree import Element, XMLPullParser

from fsnb.documents.light_blocks import MORE, Block, Cell, Table, text_item
from fsnb.documents.light_ooxml import Package, R, S

#: Rows of a sheet read for an opening of `chars` characters: `chars` // ROW_CHARS more.
ROW_CHARS = 8
_DATE_IDS = frozenset(range(14, 23)) | frozenset(range(45, 48))
_TIMEDELTA_IDS = frozenset({46})
_LITERAL = re.compile(r'".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]')
_TIMEDELTA = re.compile(r"\[hh?\](:mm(:ss(\.0*)?)?)?|\[mm?\](:ss(\.0*)?)?|\[ss?\](\.0*)?", re.I)
_CELL = re.compile(r"([A-Z]+)(\d+)")


def read(data: bytes, chars: int) -> tuple[int, Iterator[tuple[int, Block]]]:
    book = _Book(Package(data))
    return len(book.sheets), book.pages(chars)


class _Book:
    def __init__(self, package: Package):
        self.package = package
        main = package.main("xl/workbook.xml")
        root, rels = package.xml(main), package.rels(main)
        props = root.find(f"{S}workbookPr")
        self.epoch = (
            dt.datetime(1904, 1, 1)
            if props is not None and props.get("date1904") in ("1", "true")
            else dt.datetime(1899, 12, 30)
        )
        self.sheets = [
            (rels.get(s.get(f"{R}id", ""), ("", "", False))[0], s.get("state", "visible"))
            for s in root.iter(f"{S}sheet")
        ]
        by_kind = {kind: target for target, kind, _ in rels.values()}
        self.strings = self._strings(by_kind.get("sharedStrings"))
        self.dates, self.deltas = self._styles(by_kind.get("styles"))

    def _strings(self, part: str | None) -> list[str]:
        if not part or not self.package.has(part):
            return []
        out = []
        for item in self.package.xml(part).iter(f"{S}si"):
            plain = item.find(f"{S}t")
            text = (plain.text or "") if plain is not None else ""
            text += "".join(t.text or "" for r in item.findall(f"{S}r") for t in r.findall(f"{S}t"))
            out.append(text.replace("x005F_", ""))
        return out

    def _styles(self, part: str | None) -> tuple[set[int], set[int]]:
        if not part or not self.package.has(part):
            return set(), set()
        root = self.package.xml(part)
        custom = {
            int(f.get("numFmtId", "0")): f.get("formatCode", "") for f in root.iter(f"{S}numFmt")
        }
        dates, deltas = set(), set()
        xfs = root.find(f"{S}cellXfs")
        for index, xf in enumerate(xfs if xfs is not None else ()):
            fmt_id = int(xf.get("numFmtId", "0"))
            code = custom.get(fmt_id)
            if code is None:
                dates |= {index} if fmt_id in _DATE_IDS else set()
                deltas |= {index} if fmt_id in _TIMEDELTA_IDS else set()
                continue
            first = code.split(";")[0]
            if re.search(r"(?<![_\\])[dmhysDMHYS]", _LITERAL.sub("", first)):
                dates.add(index)
            if _TIMEDELTA.search(first):
                deltas.add(index)
        return dates, deltas

    def pages(self, chars: int) -> Iterator[tuple[int, Block]]:
        for number, (part, state) in enumerate(self.sheets, start=1):
            if state != "visible" or not self.package.has(part):
                continue
            cells, merges, complete = self.cells(part, chars)
            for block in _tables(cells, merges, complete):
                yield number, block
                if block is MORE:
                    return

    def cells(
        self, part: str, chars: int
    ) -> tuple[dict[tuple[int, int], str], list[tuple[int, int, int, int]], bool]:
        """(row, col) -> text of a sheet's first rows (0-based), its merged ranges, and
        whether every row was read."""
        raw = self.package.raw(part)
        merges = [
            _range(m)
            for m in re.findall(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]+\d+:[A-Z]+\d+)"', raw)
        ]
        limit = chars // ROW_CHARS + 60
        parser = XMLPullParser(events=("end",))
        out: dict[tuple[int, int], str] = {}
        rows, complete = 0, True
        for start in range(0, len(raw), 1 << 16):
            parser.feed(raw[start : start + (1 << 16)])
            for _, element in parser.read_events():
                if element.tag == f"{S}c":
                    self.cell(element, out)
                elif element.tag == f"{S}row":
                    element.clear()
                    rows += 1
            if rows > limit:
                complete = False
                break
        return out, [m for m in merges if m], complete

    def cell(self, c: Element, out: dict[tuple[int, int], str]) -> None:
        where = _CELL.match(c.get("r", ""))
        if not where:
            return
        kind, style = c.get("t", "n"), int(c.get("s", "0") or 0)
        value = c.findtext(f"{S}v") or None
        text: str | None = None
        if kind == "inlineStr":
            node = c.find(f"{S}is")
            if node is not None:
                text = "".join(t.text or "" for t in node.iter(f"{S}t"))
        elif value is None:
            text = None
        elif kind == "n":
            number: float = float(value) if any(ch in value for ch in ".eE") else int(value)
            text = str(number)
            if style in self.dates:
                text = _date(number, self.epoch, style in self.deltas)
        elif kind == "s":
            text = self.strings[int(value)]
        elif kind == "b":
            text = str(bool(int(value)))
        else:  # "str", "e", "d"
            text = value.replace("T", " ") if kind == "d" else value
        if text is not None:
            out[int(where.group(2)) - 1, _column(where.group(1)) - 1] = text


def _date(value: float, epoch: dt.datetime, delta: bool) -> str:
    try:
        if delta:
            return str(dt.timedelta(days=value))
        day, fraction = divmod(value, 1)
        diff = dt.timedelta(milliseconds=round(fraction * 86400 * 1000))
        if 0 <= value < 1 and diff.days == 0:
            minutes, seconds = divmod(diff.seconds, 60)
            return str(dt.time(minutes // 60, minutes % 60, seconds, diff.microseconds))
        if 0 < value < 60 and epoch.year == 1899:
            day += 1
        return str(epoch + dt.timedelta(days=day) + diff)
    except (OverflowError, ValueError):
        return "#VALUE!"


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def _range(ref: bytes) -> tuple[int, int, int, int] | None:
    a, _, b = ref.decode().partition(":")
    first, last = _CELL.match(a), _CELL.match(b)
    if not (first and last):
        return None
    return (
        int(first.group(2)) - 1,
        _column(first.group(1)) - 1,
        int(last.group(2)) - 1,
        _column(last.group(1)) - 1,
    )


def _tables(
    cells: dict[tuple[int, int], str], merges: list[tuple[int, int, int, int]], complete: bool
) -> Iterator[Block]:
    """The sheet's blocks of connected cells (flood fill, as Docling finds them)."""
    anchors = {(m[0], m[1]): m for m in merges}
    covered = {(r, c) for m in merges for r in range(m[0], m[2] + 1) for c in range(m[1], m[3] + 1)}
    filled = set(cells) | covered
    if not filled:
        return
    bottom = max(r for r, _ in filled)
    visited: set[tuple[int, int]] = set()
    found = []
    for start in sorted(cells, key=lambda rc: (rc[0], rc[1])):
        if start in visited:
            continue
        region = {start}
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                nxt = (r + dr, c + dc)
                if nxt not in region and nxt in filled:
                    region.add(nxt)
                    queue.append(nxt)
        top, low = min(r for r, _ in region), max(r for r, _ in region)
        left, right = min(c for _, c in region), max(c for _, c in region)
        visited |= {(r, c) for r in range(top, low + 1) for c in range(left, right + 1)}
        found.append((top, left, low, right))
    for top, left, low, right in sorted(found, key=lambda box: box[0]):
        table = Table(low - top + 1, right - left + 1)
        for r in range(top, low + 1):
            for c in range(left, right + 1):
                if (r, c) in covered and (r, c) not in anchors:
                    continue
                merge = anchors.get((r, c))
                rows, cols = (merge[2] - r + 1, merge[3] - c + 1) if merge else (1, 1)
                table.cells.append(
                    Cell(r - top, c - left, cells.get((r, c), ""), rows, cols, header=r == top)
                )
        label, table = _label(table)
        if label is not None:
            yield text_item(label)
        yield table
        if not complete and low >= bottom:
            yield MORE  # its rows go on past those read
            return


def _label(table: Table) -> tuple[str | None, Table]:
    """A merged label over a table's header, split off (`_split_leading_section_label`)."""
    if table.num_rows < 2 or table.num_cols < 2:
        return None, table
    first = [c for c in table.cells if c.row == 0 and c.text.strip()]
    if (
        len(first) != 1
        or first[0].col != 0
        or first[0].rows != 1
        or not 1 < first[0].cols <= table.num_cols
    ):
        return None, table
    if len([c for c in table.cells if c.row == 1 and c.text.strip() and c.cols == 1]) < 2:
        return None, table
    rest = Table(table.num_rows - 1, table.num_cols)
    rest.cells = [
        Cell(c.row - 1, c.col, c.text, c.rows, c.cols, header=c.row == 1)
        for c in table.cells
        if c.row > 0
    ]
    return first[0].text, rest
