"""HTML's tree, as the light HTML reader walks it: the stdlib parser's events built into
nodes (void elements, end tags a browser would imply), what is never shown dropped, and
the helpers that read text, captions and tables off the tree."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from fsnb.documents.light_blocks import Cell, Table

BR = "\ue000"
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_DROP = frozenset({"script", "noscript", "style", "template", "head"})
_BREAKS_P = frozenset(
    "address article aside blockquote div dl fieldset figcaption figure footer form h1 h2 h3 "
    "h4 h5 h6 header hr main nav ol ul li p pre section table thead tbody tfoot tr td".split()
)
_IMPLIED = {
    "li": ({"li"}, {"ul", "ol", "menu"}),
    "dt": ({"dt", "dd"}, {"dl"}),
    "dd": ({"dt", "dd"}, {"dl"}),
    "td": ({"td", "th"}, {"tr", "table"}),
    "th": ({"td", "th"}, {"tr", "table"}),
    "tr": ({"tr", "td", "th"}, {"table", "thead", "tbody", "tfoot"}),
}
INLINE = frozenset(
    "a abbr b bdi bdo cite code data dfn em i kbd label mark q s samp small span strong sub "
    "sup u var".split()
)
_UNICODE = str.maketrans(
    {
        "\u00a0": " ", "\u200b": "", "\u200c": "", "\u200d": "", "\u2010": "-", "\u2011": "-",
        "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2018": "'",
        "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...", "\u00ad": "",
        "\ufeff": "", "\u202f": " ", "\u2060": "",
    }
)  # fmt: skip


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    def find(self, names: frozenset[str] | set[str]) -> bool:
        return any(isinstance(c, Node) and (c.tag in names or c.find(names)) for c in self.children)

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("[document]")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _IMPLIED:
            closes, stops = _IMPLIED[tag]
            for i in range(len(self.stack) - 1, 0, -1):
                if self.stack[i].tag in stops:
                    break
                if self.stack[i].tag in closes:
                    del self.stack[i:]
                    break
        if tag in _BREAKS_P:
            for i in range(len(self.stack) - 1, 0, -1):
                if self.stack[i].tag == "p":
                    del self.stack[i:]
                    break
                if self.stack[i].tag not in INLINE:
                    break
        node = Node(tag, dict(attrs), parent=self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def decode(data: bytes) -> str:
    """HTML's text as BeautifulSoup reads it: a BOM, a declared charset, else UTF-8 or
    windows-1252."""
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                          (codecs.BOM_UTF16_BE, "utf-16")):  # fmt: skip
        if data.startswith(bom):
            return data.decode(encoding)
    declared = re.search(rb"""<meta[^>]+charset\s*=\s*["']?([\w-]+)""", data[:4096], re.I)
    for encoding in ([declared.group(1).decode()] if declared else []) + ["utf-8"]:
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("windows-1252", errors="replace")


def tree(data: bytes) -> Node:
    """The body of an HTML file (else all of it), what is never shown left out."""
    builder = _Builder()
    builder.feed(decode(data))
    builder.close()
    return prune(builder.root)


def prune(root: Node) -> Node:
    """Drop what is never shown; `<br>` as a sentinel; the body (else everything)."""
    body = None
    todo = [root]
    while todo:
        node = todo.pop()
        kept: list[Node | str] = []
        for child in node.children:
            if isinstance(child, str):
                kept.append(child.replace(BR, ""))
            elif child.tag == "br":
                kept.append(BR)
            elif child.tag not in _DROP and not _hidden(child):
                kept.append(child)
                todo.append(child)
                body = body or (child if child.tag == "body" else None)
        node.children = kept
    return body or root


def _hidden(node: Node) -> bool:
    if "hidden" in node.attrs or (node.attrs.get("aria-hidden") or "").lower() in (
        "true",
        "1",
        "yes",
    ):
        return True
    style = re.sub(r"\s+", "", (node.attrs.get("style") or "").lower())
    return any(
        s in style for s in ("display:none", "visibility:hidden", "visibility:collapse")
    ) or bool(re.search(r"opacity:0(?:[;]|$)", style))


def figcaption(figure: Node) -> Node | None:
    return next((c for c in figure.children if isinstance(c, Node) and c.tag == "figcaption"), None)


def nodes(node: Node) -> Iterator[Node]:
    for child in node.children:
        if isinstance(child, Node):
            yield child
            yield from nodes(child)


def up_to(node: Node, top: Node) -> Iterator[Node]:
    for ancestor in node.ancestors():
        if ancestor is top:
            return
        yield ancestor


def in_cell_or_item(node: Node) -> bool:
    tags = [a.tag for a in node.ancestors()]
    if "table" in tags or "dl" in tags:
        return True
    if "li" not in tags:
        return False
    above = tags[tags.index("li") + 1 :]
    lists = [t for t in above if t in ("ul", "ol", "menu")]
    return bool(lists) and lists[0] in ("ul", "ol")


def clean(text: str) -> str:
    return text.translate(_UNICODE)


def text_of(node: Node | str) -> str:
    if isinstance(node, str):
        return node.replace(BR, "\n")
    return "".join(text_of(c) for c in node.children)


def table(node: Node) -> Table:
    rows = [c for c in node.children if isinstance(c, Node) and c.tag == "tr"]
    for section in (
        c for c in node.children if isinstance(c, Node) and c.tag in ("thead", "tbody", "tfoot")
    ):
        rows += [c for c in section.children if isinstance(c, Node) and c.tag == "tr"]
    cells = [
        [c for c in row.children if isinstance(c, Node) and c.tag in ("td", "th")] for row in rows
    ]
    width = max((sum(_span(c, "colspan") for c in row) for row in cells), default=0)
    table = Table(len(rows), width)
    taken: set[tuple[int, int]] = set()
    for r, row in enumerate(cells):
        header = all(c.tag == "th" for c in row)
        col = 0
        for cell in row:
            while (r, col) in taken:
                col += 1
            cols = min(_span(cell, "colspan"), max(width - col, 1))
            rows_ = min(_span(cell, "rowspan"), max(len(rows) - r, 1))
            taken |= {(r + i, col + j) for i in range(rows_) for j in range(cols)}
            text = clean(text_of(cell).strip())
            table.cells.append(Cell(r, col, text, rows_, cols, header))
            col += cols
    return table


def _span(cell: Node, name: str) -> int:
    value = re.match(r"\s*(\d+)", cell.attrs.get(name) or "")
    return max(int(value.group(1)), 1) if value else 1
