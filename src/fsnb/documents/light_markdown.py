"""Markdown and CSV, read as Docling's backends read them. Markdown is read without a
parser when it is plain (`light_fastmd`), else parsed by marko with Docling's GitHub
extensions and walked into headings, paragraphs (inline parts joined with spaces),
lists, tables and code; a document with HTML blocks, which Docling turns into HTML and
reads with its HTML backend, is read here as Markdown, each HTML block as text. CSV is
sniffed and read as one table. Both decode their bytes as Docling does (a BOM, else
UTF-8, else cp1252).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape

from fsnb.documents.light_blocks import (
    IMAGE,
    PLAIN,
    Block,
    Cell,
    Style,
    Table,
    code_block,
    code_span,
    heading,
    inline,
    link,
    list_item,
    text_item,
)
from fsnb.documents.light_fastmd import fast_blocks

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class Unreadable(ValueError):
    """What a light reader cannot read the way the full parse would (the caller decides)."""


def decode(data: bytes) -> str:
    """Text as Docling's `decode_text` reads it (damaged UTF-8 is `Unreadable`)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if _utf8_share(data) >= 0.5:
            why = "damaged UTF-8"
            raise Unreadable(why) from None
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        why = "neither UTF-8 nor cp1252"
        raise Unreadable(why) from None


def _utf8_share(data: bytes) -> float:
    """The share of non-ASCII bytes that form well-formed UTF-8 sequences."""
    text = data.decode("utf-8", errors="replace")
    good = sum(len(ch.encode()) for ch in text if ord(ch) > 127 and ch != "\ufffd")
    bad = sum(1 for b in data if b > 127) - good
    return good / (good + bad) if good + bad else 0.0


def csv_blocks(data: bytes) -> Iterator[tuple[int, Block]]:
    text = decode(data)
    stream = io.StringIO(text)
    head = stream.readline()
    while head in ("\n", "\r\n", "\r"):
        head = stream.readline()
    start = stream.tell() - len(head)
    try:
        try:
            dialect: type[csv.Dialect] = csv.Sniffer().sniff(head, ",;\t|:")
            next(csv.reader([head], dialect=dialect, doublequote=True, strict=True))
        except csv.Error:
            dialect = csv.Sniffer().sniff(text[start : start + 4096], ",;\t|:")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = [
            r for r in csv.reader(io.StringIO(text), dialect, doublequote=True, strict=True) if r
        ]
    except csv.Error as exc:
        why = f"CSV: {exc}"
        raise Unreadable(why) from None
    if not rows:
        return
    table = Table(len(rows), max(len(row) for row in rows))
    table.cells = [
        Cell(r, c, value, header=r == 0)
        for r, row in enumerate(rows)
        for c, value in enumerate(row)
    ]
    yield 1, table


_local = threading.local()
_lock = threading.Lock()


def markdown_blocks(data: bytes) -> Iterator[tuple[int, Block]]:
    text = decode(data)
    text = re.sub(r"_{11,}", "_" * 10, text)
    text = re.sub(r"^([ \t]*)(?:-\s+){11,}-?(?=\S)", r"\1- ", text, flags=re.MULTILINE)
    fast = fast_blocks(text)
    if fast is not None:
        yield from ((1, block) for block in fast)
        return
    if not hasattr(_local, "markdown"):  # a parser per thread, built once
        from marko import Markdown

        with _lock:
            extension = _EXTENSION or _gfm()
        _local.markdown = Markdown(extensions=[extension])
    tree = _local.markdown.parse(text)
    for block in _Walk().blocks(tree.children, 0):
        yield 1, block


def _gfm():
    import marko.inline
    from marko.ext.gfm import GFM
    from marko.ext.gfm import elements as gfm
    from marko.helpers import MarkoExtension

    class Paragraph(gfm.Paragraph):
        @classmethod
        def break_paragraph(cls, source, lazy=False):
            if super().break_paragraph(source, lazy):
                return True
            tables = source.parser.block_elements.get("Table")
            if tables is not None and tables.match(source):
                source.reset()
                return True
            return False

    class Strikethrough(marko.inline.InlineElement):
        pattern = re.compile(r"(?<!~)~~([^~]+)~~(?!~)")
        priority = 5
        parse_children = True
        parse_group = 1

    global _STRIKE, _EXTENSION
    _STRIKE = Strikethrough
    elements = [Paragraph, Strikethrough, gfm.Url, gfm.Table, gfm.TableRow, gfm.TableCell]
    _EXTENSION = MarkoExtension(elements=elements, renderer_mixins=GFM.renderer_mixins)
    return _EXTENSION


_STRIKE: type = type(None)
_EXTENSION = None


@dataclass
class _Part:
    kind: str  # "text", "code" or "image"
    text: str = ""
    style: Style = PLAIN
    link: str | None = None

    def markdown(self) -> str:
        if self.kind == "image":
            return IMAGE
        if self.kind == "code":
            return code_span(self.text, self.style, self.link)
        return text_item(self.text, self.style, self.link)


class _Walk:
    """Markdown's blocks as Docling's markdown backend makes them."""

    def blocks(self, elements: list, depth: int) -> Iterator[Block]:
        import marko.block as mb
        from marko.ext.gfm import elements as gfm

        for element in elements:
            if isinstance(element, mb.Heading | mb.SetextHeading):
                parts = self.parts(element.children)
                if len(element.children) > 1 and not _plain_breaks(element.children):
                    yield heading(inline(p.markdown() for p in parts), element.level - 1)
                else:
                    yield from self._heading(parts, element.level - 1)
            elif isinstance(element, mb.List):
                yield "\n".join(self.list_lines(element, 0))
            elif isinstance(element, gfm.Table):
                yield self.table(element)
            elif isinstance(element, mb.CodeBlock | mb.FencedCode):
                raw = element.children[0].children if element.children else ""
                yield code_block(re.sub(r"\A(?:[ \t]*\r?\n)+", "", raw).rstrip())
            elif isinstance(element, mb.HTMLBlock):
                yield text_item(element.body.strip())
            elif isinstance(element, mb.Paragraph):
                parts = self.parts(element.children)
                if len(element.children) > 1 and not _plain_breaks(element.children):
                    yield inline(p.markdown() for p in parts)
                else:
                    yield from (p.markdown() for p in parts)
            elif isinstance(element, mb.Quote):
                yield from self.blocks(element.children, depth)

    @staticmethod
    def _heading(parts: list[_Part], level: int) -> Iterator[str]:
        first = next((p for p in parts if p.kind != "image"), None)
        for part in parts:
            if part is first:
                yield heading(part.text, level, part.style, part.link)
            else:
                yield part.markdown()

    def list_lines(self, element, depth: int) -> Iterator[str]:
        import marko.block as mb

        count = 0
        for item in element.children:
            if not (item.children and isinstance(item.children[0], mb.Paragraph)):
                continue
            para = item.children[0]
            if not para.children:
                continue
            marker = f"{element.start + count}." if element.ordered else ""
            count += 1
            parts = self.parts(para.children)
            own = [c for c in para.children if not isinstance(c, mb.ListItem)]
            if len(own) > 1 and not _plain_breaks(own):
                text = inline(p.markdown() for p in parts)
            else:
                first = parts[0] if parts else _Part("text")
                text = first.markdown()
            yield list_item(text, marker, depth)
            for child in item.children[1:]:
                if isinstance(child, mb.List):
                    yield from self.list_lines(child, depth + 1)
                else:
                    for block in self.blocks([child], depth + 1):
                        text = block if isinstance(block, str) else block.markdown()
                        yield " " * (4 * (depth + 1)) + text

    def table(self, element) -> Table:
        import marko.inline as mi

        rows = element.children
        table = Table(len(rows), element.num_of_cols)
        rich = (
            mi.StrongEmphasis,
            mi.Emphasis,
            mi.CodeSpan,
            mi.Link,
            mi.AutoLink,
            mi.Image,
            _STRIKE,
        )
        for r, row in enumerate(rows):
            for c, cell in enumerate(row.children):
                if _has(cell, rich):
                    parts = self.parts(cell.children, cell=True)
                    text = inline(p.markdown() for p in parts if p.kind != "image")
                else:
                    text = _plain(cell).strip()
                table.cells.append(Cell(r, c, text, header=r == 0))
        return table

    def parts(
        self, children: list, style: Style = PLAIN, href: str | None = None, *, cell: bool = False
    ) -> list[_Part]:
        """A paragraph's inline content as Docling's items: text runs (joined across line
        breaks when their formatting agrees), code spans and pictures."""
        out: list[_Part] = []
        self._soft = self._hard = False
        self._inline(children, style, href, out, cell)
        return out

    def _inline(
        self, children: list, style: Style, href: str | None, out: list[_Part], cell: bool
    ) -> None:
        import marko.inline as mi

        for child in children:
            if isinstance(child, mi.StrongEmphasis):
                self._inline(child.children, _with(style, bold=True), href, out, cell)
            elif isinstance(child, mi.Emphasis):
                self._inline(child.children, _with(style, italic=True), href, out, cell)
            elif isinstance(child, _STRIKE):
                self._inline(child.children, _with(style, strike=True), href, out, cell)
            elif isinstance(child, mi.Link | mi.AutoLink):
                self._inline(child.children, style, link(child.dest), out, cell)
            elif isinstance(child, mi.Image):
                if not cell:
                    out.append(_Part("image"))
                self._inline(child.children, style, href, out, cell)
            elif isinstance(child, mi.CodeSpan):
                snippet = str(child.children).strip()
                if snippet:
                    out.append(_Part("code", snippet, style, href))
                self._soft = self._hard = False
            elif isinstance(child, mi.LineBreak):
                if child.soft:
                    self._soft = True
                else:
                    self._hard = True
            elif isinstance(child, mi.RawText | mi.Literal) and isinstance(child.children, str):
                snippet = unescape(child.children.strip())
                if not snippet:
                    continue
                last = out[-1] if out else None
                same = last and last.kind == "text" and (last.style, last.link) == (style, href)
                if (self._hard or self._soft) and same and not cell:
                    last.text += ("\n" if self._hard else " ") + snippet
                else:
                    prefix = "\n" if self._hard and not cell else ""
                    out.append(_Part("text", prefix + snippet, style, href))
                self._soft = self._hard = False


def _with(style: Style, **changes: bool) -> Style:
    from dataclasses import replace

    return replace(style, **changes)


def _plain_breaks(children: list) -> bool:
    import marko.inline as mi

    has_break = any(isinstance(c, mi.LineBreak) for c in children)
    return has_break and all(
        isinstance(c, mi.RawText | mi.Literal | mi.LineBreak) for c in children
    )


def _has(node, kinds: tuple) -> bool:
    if isinstance(node, kinds):
        return True
    children = getattr(node, "children", None)
    return isinstance(children, list) and any(_has(c, kinds) for c in children)


def _plain(node) -> str:
    import marko.inline as mi

    if isinstance(node, mi.CodeSpan):
        return str(node.children)
    if isinstance(node.children, str):
        return unescape(node.children)
    return "".join(_plain(c) for c in node.children)
