"""Plain Markdown without a Markdown parser: the blocks of a document that uses only ATX
headings, paragraphs, lists, fenced code and pipe tables, with bold, italic, code spans
and simple links inline, as `light_markdown._Walk` makes them of marko's tree (marko parses
about a kilobyte in 4 ms). Anything else (quotes, HTML, setext headings, escapes,
underscores, reference links, bare URLs...) makes `fast_blocks` decline (None), and the
document goes to marko; tests/test_light_openings.py checks both ways agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape

from fsnb.documents.light_blocks import (
    PLAIN,
    Block,
    Cell,
    Style,
    Table,
    code_block,
    heading,
    inline,
    list_item,
)

_UNSAFE = re.compile(r"[\\<_~\[\]*`]|&#?\w+;|://|www\.|@|\t")
_HEADING = re.compile(r"#{1,6}(?:[ ]+(.*?))?(?:[ ]+#+)?[ ]*$")
_ITEM = re.compile(r"([-*+]|\d{1,9}[.)])( {1,4})(\S.*)$")
_FENCE = re.compile(r"(`{3,}|~{3,})([^`]*)$")
_RULE_CELL = re.compile(r"\s*:?-+:?\s*$")
_BREAKER = re.compile(r" {0,3}(?:>|<|=+\s*$|-+\s*$|[*_](?:\s*[*_]){2,}\s*$|\[[^\]]*\]:)")
_ODD_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:\s*$| {5,})")
_TOKEN = re.compile(
    r"(?P<code>`[^`]+`)"
    r"|(?<![^\s(\"'])\*\*(?P<strong>[^\s*`\[\]][^*`\[\]]*?(?<![\s]))\*\*(?=$|[\s.,;:!?)\"'])"
    r"|(?<![^\s(\"'])\*(?P<em>[^\s*`\[\]][^*`\[\]]*?(?<![\s]))\*(?=$|[\s.,;:!?)\"'])"
    r"|\[(?P<text>[^\[\]`*<>&\\!]+)\]\((?P<dest>[^()\s<>\"'\\]+)\)"
)


class Decline(Exception):
    """The document uses something the fast path does not read."""


def fast_blocks(text: str) -> list[Block] | None:
    """The blocks of `text` (decoded Markdown), or None when marko must read it."""
    if "\t" in text or "\r" in text:
        return None
    try:
        return _Blocks(text.split("\n")).run()
    except Decline:
        return None


@dataclass
class _Item:
    marker: str
    start: int  # where its content starts (continuation lines are indented this far)
    lines: list[str] = field(default_factory=list)
    children: list[_List] = field(default_factory=list)


@dataclass
class _List:
    kind: str  # the bullet, or the ordered delimiter
    ordered: bool
    start: int
    items: list[_Item] = field(default_factory=list)


class _Blocks:
    def __init__(self, lines: list[str]):
        self.lines, self.at, self.out = lines, 0, []

    def run(self) -> list[Block]:
        paragraph: list[str] = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if not line.strip():
                self.flush(paragraph)
                self.at += 1
                continue
            _check(line)
            item = _ITEM.match(line)
            lead = len(line) - len(line.lstrip(" "))
            if lead and (not paragraph or _starts_block(line.lstrip(" "))):
                raise Decline  # indented code, or a block indented 1-3 spaces
            if line.startswith("#"):
                self.flush(paragraph)
                self.heading(line)
            elif _FENCE.match(line):
                self.flush(paragraph)
                self.fence(line)
            elif self.table_starts(line):
                self.flush(paragraph)
                self.table()
                continue
            elif item and (not paragraph or _interrupts(item)):
                self.flush(paragraph)
                self.out.append("\n".join(_lines(self.parse_list(0), 0)))
                continue
            elif item or line.startswith(("```", "~~~")):
                raise Decline
            elif "|" in line:
                raise Decline  # marko may take a paragraph's line for a table's
            else:
                paragraph.append(line)
            self.at += 1
        self.flush(paragraph)
        return self.out

    def flush(self, paragraph: list[str]) -> None:
        if paragraph:
            children = _children(paragraph)
            parts = _parts(children)
            if len(children) > 1 and not _plain_breaks(children):
                self.out.append(inline(p.markdown() for p in parts))
            else:
                self.out += [p.markdown() for p in parts]
            paragraph.clear()

    def heading(self, line: str) -> None:
        match = _HEADING.match(line)
        content = (match.group(1) or "").strip() if match else ""
        if not content:
            raise Decline
        level = len(line) - len(line.lstrip("#")) - 1
        children = _children([content])
        parts = _parts(children)
        if len(children) > 1:
            self.out.append(heading(inline(p.markdown() for p in parts), level))
        else:
            first = parts[0]
            self.out.append(heading(first.text, level, first.style, first.link))

    def fence(self, line: str) -> None:
        opening = _FENCE.match(line).group(1)  # type: ignore[union-attr]
        body: list[str] = []
        self.at += 1
        while self.at < len(self.lines):
            current = self.lines[self.at]
            closing = current.lstrip(" ").startswith(opening) and not current.strip(
                opening[0] + " "
            )
            if closing and current.startswith(" "):
                raise Decline
            if closing:
                break
            body.append(current)
            self.at += 1
        raw = "\n".join(body) + ("\n" if body else "")
        self.out.append(code_block(re.sub(r"\A(?:[ \t]*\r?\n)+", "", raw).rstrip()))

    def table_starts(self, line: str) -> bool:
        rule = self.lines[self.at + 1] if self.at + 1 < len(self.lines) else ""
        return line.startswith("|") and rule.startswith("|") and _rule(rule) is not None

    def table(self) -> None:
        header = _cells(self.lines[self.at])
        if len(header) != len(_rule(self.lines[self.at + 1]) or ()):
            raise Decline
        rows = [header]
        self.at += 2
        while self.at < len(self.lines) and self.lines[self.at].strip():
            row = _cells(self.lines[self.at])
            if not self.lines[self.at].startswith("|") or len(row) != len(header):
                raise Decline
            rows.append(row)
            self.at += 1
        table = Table(len(rows), len(header))
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                children = _children([cell.strip()]) if cell.strip() else []
                if any(kind != "text" for kind, *_ in children):
                    text = inline(p.markdown() for p in _parts(children, cell=True))
                else:
                    text = unescape(cell).strip()
                table.cells.append(Cell(r, c, text, header=r == 0))
        self.out.append(table)

    def parse_list(self, indent: int) -> _List:
        """The list whose first item starts at `indent` (this line), up to its end."""
        first = _ITEM.match(self.lines[self.at][indent:])
        marker = first.group(1) if first else "-"
        kind, ordered = marker[-1], marker[-1] in ".)"
        block = _List(kind, ordered, int(marker[:-1]) if ordered else 1)
        blank = False
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if not line.strip():
                blank = True
                self.at += 1
                continue
            _check(line)
            lead = len(line) - len(line.lstrip(" "))
            item = _ITEM.match(line[lead:])
            if lead == indent and item:
                if item.group(1)[-1] != kind:
                    break  # another list
                width = indent + len(item.group(1)) + len(item.group(2))
                if "|" in line or _starts_block(item.group(3)):
                    raise Decline
                block.items.append(_Item(item.group(1), width, [item.group(3)]))
                blank = False
                self.at += 1
                continue
            current = block.items[-1]
            if lead >= current.start:
                if item and lead == current.start and (blank or _interrupts(item)):
                    current.children.append(self.parse_list(current.start))
                    blank = False
                    continue
                if item or blank or current.children or _starts_block(line.lstrip(" ")):
                    raise Decline
            elif blank or (lead < indent and item):
                break
            elif item or current.children or lead > indent:
                raise Decline
            elif _starts_block(line) or self.table_starts(line):
                break  # lazy continuation ends where a block starts
            if "|" in line:
                raise Decline
            current.lines.append(line.lstrip(" "))
            self.at += 1
        if blank and self.at < len(self.lines) and self.lines[self.at].startswith(" "):
            raise Decline
        return block


def _check(line: str) -> None:
    """Decline what the fast path does not read: quotes, HTML, setext underlines and
    thematic breaks, reference definitions, empty or code-indented list items."""
    if _BREAKER.match(line) or _ODD_ITEM.match(line.lstrip(" ")):
        raise Decline


def _starts_block(text: str) -> bool:
    return bool(
        text.startswith(("#", "```", "~~~", "|", ">", "<"))
        or _ITEM.match(text)
        or _BREAKER.match(text)
    )


def _interrupts(item: re.Match[str]) -> bool:
    marker = item.group(1)
    return marker[-1] not in ".)" or marker[:-1] == "1"


def _lines(block: _List, depth: int) -> list[str]:
    out = []
    for count, item in enumerate(block.items):
        marker = f"{block.start + count}." if block.ordered else ""
        children = _children(item.lines)
        parts = _parts(children)
        if len(children) > 1 and not _plain_breaks(children):
            text = inline(p.markdown() for p in parts)
        else:
            text = parts[0].markdown() if parts else ""
        out.append(list_item(text, marker, depth))
        for child in item.children:
            out += _lines(child, depth + 1)
    return out


def _rule(line: str) -> list[str] | None:
    cells = _cells(line)
    return cells if cells and all(_RULE_CELL.match(c) for c in cells) else None


def _cells(line: str) -> list[str]:
    inner = line.strip()
    if not (inner.startswith("|") and inner.endswith("|") and len(inner) > 1):
        raise Decline
    return inner[1:-1].split("|")


def _children(lines: list[str]) -> list[tuple[str, ...]]:
    """marko's inline children of a paragraph's lines: text, code, strong, em, link, and
    the line breaks between them ('soft' or 'hard')."""
    out: list[tuple[str, ...]] = []
    for n, raw in enumerate(lines):
        if n:
            hard = len(lines[n - 1]) - len(lines[n - 1].rstrip(" ")) >= 2
            out.append(("break", "hard" if hard else "soft"))
        line = raw.strip(" ")
        at = 0
        for token in _TOKEN.finditer(line):
            out += _text(line[at : token.start()])
            kind = token.lastgroup
            if kind == "dest" and (
                line[at : token.start()].endswith("!") or _UNSAFE.search(token.group("text"))
            ):
                raise Decline  # an image, or link text that is not plain
            if kind == "dest":
                out.append(("link", token.group("text"), token.group("dest")))
            elif kind == "code":
                out.append(("code", token.group("code")[1:-1]))
            else:
                out.append((kind or "", token.group(kind or 0)))
            at = token.end()
        out += _text(line[at:])
    return out


def _text(segment: str) -> list[tuple[str, ...]]:
    if _UNSAFE.search(segment):
        raise Decline
    return [("text", segment)] if segment else []


@dataclass
class _Part:
    kind: str
    text: str
    style: Style = PLAIN
    link: str | None = None

    def markdown(self) -> str:
        from fsnb.documents.light_blocks import code_span, text_item

        if self.kind == "code":
            return code_span(self.text, self.style, self.link)
        return text_item(self.text, self.style, self.link)


def _parts(children: list[tuple[str, ...]], *, cell: bool = False) -> list[_Part]:
    """Docling's items of the inline children (`markdown._Walk.parts`)."""
    from fsnb.documents.light_blocks import link

    out: list[_Part] = []
    soft = hard = False
    for kind, *rest in children:
        if kind == "break":
            soft, hard = (True, hard) if rest[0] == "soft" else (soft, True)
            continue
        if kind == "code":
            snippet = rest[0].strip()
            if snippet:
                out.append(_Part("code", snippet))
            soft = hard = False
            continue
        style = {"strong": Style(bold=True), "em": Style(italic=True)}.get(kind, PLAIN)
        address = link(rest[1]) if kind == "link" else None
        snippet = unescape(rest[0].strip())
        if not snippet:
            continue
        last = out[-1] if out else None
        same = last and last.kind == "text" and (last.style, last.link) == (style, address)
        if (hard or soft) and same and not cell:
            last.text += ("\n" if hard else " ") + snippet  # type: ignore[union-attr]
        else:
            out.append(_Part("text", ("\n" if hard and not cell else "") + snippet, style, address))
        soft = hard = False
    return out


def _plain_breaks(children: list[tuple[str, ...]]) -> bool:
    kinds = {kind for kind, *_ in children}
    return "break" in kinds and kinds <= {"text", "break"}
