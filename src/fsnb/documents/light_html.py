"""HTML, read as Docling's HTML backend reads it (without a browser): the stdlib parser
builds the tree; scripts, styles and hidden elements are dropped, what comes before the
first heading is page furniture (left out), and the body is walked into headings,
paragraphs (inline parts joined with spaces, `<br>` a line break), lists, tables, code
and images.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from fsnb.documents.light_blocks import (
    IMAGE,
    Block,
    Style,
    code_block,
    code_span,
    heading,
    inline,
    link,
    list_item,
    text_item,
)
from fsnb.documents.light_htmltree import (
    BR,
    INLINE,
    Node,
    clean,
    figcaption,
    in_cell_or_item,
    nodes,
    table,
    text_of,
    tree,
    up_to,
)

_BLOCKS = frozenset(
    "address details dl figure footer img h1 h2 h3 h4 h5 h6 ol p pre signature stamp summary "
    "table ul".split()
)
_FORMAT = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "var": "italic",
    "s": "strike", "del": "strike", "u": "underline", "ins": "underline",
    "sub": "sub", "sup": "super", "code": "code", "kbd": "code", "samp": "code",
}  # fmt: skip


def html_blocks(data: bytes) -> Iterator[tuple[int, Block]]:
    for block in _Walk(tree(data)).run():
        yield 1, block


@dataclass
class _Run:
    text: str
    style: frozenset[str] = frozenset()
    href: str | None = None


class _Walk:
    def __init__(self, body: Node):
        self.body = body
        heads = [n for n in nodes(body) if n.tag in ("h1", "h2", "h3", "h4", "h5", "h6")]
        self.furniture = any(not in_cell_or_item(h) for h in heads)
        self.out: list[Block] = []

    def run(self) -> list[Block]:
        self.walk(self.body, self.body.children)
        return self.out

    def emit(self, block: Block) -> None:
        if not self.furniture and block:
            self.out.append(block)

    def walk(self, element: Node, nodes: list[Node | str]) -> None:
        buffer: list[_Run] = []
        for node in nodes:
            if isinstance(node, str):
                if node.strip("\n\r"):
                    buffer += _runs(node, element)
                continue
            if node.tag in ("img", "input"):
                self.flush(buffer)
                if node.tag == "img":
                    self.image(node)
            elif node.tag in _FORMAT or node.tag == "a":
                if node.find(_BLOCKS | {"input"}):
                    self.flush(buffer)
                    self.walk(node, node.children)
                else:
                    buffer += _runs(node, node)
            elif node.tag in _BLOCKS:
                self.flush(buffer)
                self.block(node)
            elif node.find(_BLOCKS | {"input"}):
                self.flush(buffer)
                self.walk(node, node.children)
            elif node.tag in INLINE:
                buffer += _runs(node, node)
            else:
                self.flush(buffer)
                self.walk(node, node.children)
        self.flush(buffer)

    def flush(self, buffer: list[_Run]) -> None:
        runs = _simplify(buffer)
        buffer.clear()
        if not "".join(r.text for r in runs):
            return
        for part in _split(runs):
            items = [_markdown(r) for r in part if r.text.strip()]
            if len(part) > 1:
                self.emit(inline(items))
            else:
                for item in items:
                    self.emit(item)

    def image(self, node: Node) -> None:
        """An image with its caption: its figure's caption, else its alt text."""
        figure = next((a for a in node.ancestors() if a.tag == "figure"), None)
        caption = figcaption(figure) if figure is not None else None
        text = clean(
            " ".join(text_of(caption).split())
            if caption is not None
            else node.attrs.get("alt") or ""
        )
        if text:
            self.emit(text_item(text))
        self.emit(IMAGE)

    def block(self, node: Node) -> None:
        tag = node.tag
        if tag[0] == "h" and tag[1:].isdigit():
            self.furniture = False
            runs = _runs(node, node)
            text = clean(_line_breaks(" ".join(r.text.strip() for r in runs) + " "))
            same = runs and all(
                (r.style, r.href) == (runs[0].style, runs[0].href) for r in runs if r.text.strip()
            )
            style, href = (_style(runs[0].style), runs[0].href) if same else (None, None)
            self.emit(heading(text, int(tag[1]) - 1, style, link(href)))
            for img in (n for n in nodes(node) if n.tag == "img"):
                self.image(img)
        elif tag in ("ul", "ol"):
            self.emit("\n".join(self.list_lines(node, 0)))
        elif tag == "dl":
            self.emit("\n".join(self.terms(node, 0)))
        elif tag in ("p", "address", "summary"):
            self.flush(_runs(node, node))
            for img in (n for n in nodes(node) if n.tag == "img"):
                self.image(img)
        elif tag == "table":
            caption = next(
                (c for c in node.children if isinstance(c, Node) and c.tag == "caption"), None
            )
            if caption is not None:
                self.emit(text_item(clean(text_of(caption).strip())))
            self.emit(table(node))
        elif tag == "pre":
            text = re.sub(
                f" ?{BR} ?", "\n", "".join(r.text for r in _runs(node, node, keep=True))
            ).strip()
            self.emit(code_block(clean(text)))
        elif tag == "footer":
            was, self.furniture = self.furniture, True
            self.walk(node, node.children)
            self.furniture = was
        elif tag == "figure":
            caption = figcaption(node)
            self.walk(node, [c for c in node.children if c is not caption])
            if caption is not None and not any(n.tag == "img" for n in nodes(node)):
                self.emit(text_item(clean(" ".join(text_of(caption).split()))))
        elif tag == "details":
            self.walk(node, node.children)

    def list_lines(self, node: Node, depth: int) -> Iterator[str]:
        ordered = node.tag == "ol"
        start = node.attrs.get("start")
        number = int(m.group(1)) if start and (m := re.match(r"\s*\+?(\d+)", start)) else None
        count = 0
        for li in node.children:
            if isinstance(li, str) or li.tag != "li":
                if isinstance(li, Node) and li.tag in ("ul", "ol"):
                    yield from self.list_lines(li, depth + 1)
                continue
            runs = _simplify(_runs(li, li, skip_lists=True))
            text = clean(_line_breaks(re.sub(r"\s+", " ", "".join(r.text for r in runs))))
            if text:
                marker = f"{number + count}." if ordered and number is not None else ""
                count += 1
                body = (
                    inline(_markdown(r) for r in runs if r.text.strip())
                    if len(runs) > 1
                    else _markdown(runs[0])
                )
                yield list_item(body, marker, depth, count if ordered else None)
            for sub in nodes(li):
                if sub.tag in ("ul", "ol") and not any(
                    a.tag in ("ul", "ol") for a in up_to(sub, li)
                ):
                    yield from self.list_lines(sub, depth + 1)

    def terms(self, node: Node, depth: int) -> Iterator[str]:
        """A description list: its terms in bold, each description under its term."""
        term = False
        for child in node.children:
            if isinstance(child, Node) and child.tag in ("dt", "dd"):
                runs = _simplify(_runs(child, child, skip_lists=True))
                if child.tag == "dt":
                    runs = [_Run(r.text, r.style | {"bold"}, r.href) for r in runs]
                text = "".join(r.text for r in runs).strip()
                if text:
                    body = inline(_markdown(r) for r in runs if r.text.strip())
                    yield list_item(body, "", depth + (child.tag == "dd" and term))
                    term = term or child.tag == "dt"
                for sub in (n for n in child.children if isinstance(n, Node) and n.tag == "dl"):
                    yield from self.terms(sub, depth + 1)


def _runs(
    node: Node | str, parent: Node, *, keep: bool = False, skip_lists: bool = False
) -> list[_Run]:
    """The text of `node` (whose parent, or itself, is `parent`) as runs of one formatting
    and link, those of its ancestors included (`_extract_text_and_hyperlink_recursively`)."""
    chain = [parent, *parent.ancestors()]
    style = frozenset(_FORMAT[a.tag] for a in chain if a.tag in _FORMAT)
    href = next((a.attrs.get("href") for a in chain if a.tag == "a" and a.attrs.get("href")), None)
    out: list[_Run] = []
    _collect(node, style, href, out, keep, skip_lists)
    return out


def _own(node: Node) -> set[str]:
    return {_FORMAT[node.tag]} if node.tag in _FORMAT else set()


def _collect(
    node: Node | str,
    style: frozenset[str],
    href: str | None,
    out: list[_Run],
    keep: bool,
    skip: bool,
) -> None:
    if isinstance(node, str):
        text = (
            node.strip() if keep else " ".join(node.replace("\n", " ").replace("\r", " ").split())
        )
        if text:
            out.append(_Run(text, style, href))
        elif keep and not node.strip("\n\r"):
            out.append(_Run("\n", style, href))
        return
    if skip and node.tag in ("ul", "ol", "dl", "table"):
        return
    style = style | _own(node)
    if node.tag == "a" and node.attrs.get("href"):
        href = node.attrs["href"]
    for child in node.children:
        _collect(child, style, href, out, keep, skip)


def _simplify(runs: list[_Run]) -> list[_Run]:
    out: list[_Run] = []
    last = ""
    for run in runs:
        if out and (out[-1].style, out[-1].href) == (run.style, run.href):
            sep = " " if run.text.strip() and last.strip() else ""
            out[-1].text += sep + run.text
        else:
            out.append(_Run(run.text, run.style, run.href))
        last = run.text
    return out


def _split(runs: list[_Run]) -> list[list[_Run]]:
    parts: list[list[_Run]] = [[]]
    for run in runs:
        pieces = run.text.split(BR + BR)
        for i, piece in enumerate(pieces):
            text = re.sub(r" *\n *", "\n", piece.replace(BR, "\n"))
            parts[-1].append(_Run(text, run.style, run.href))
            if i < len(pieces) - 1:
                parts.append([])
    return [p for p in parts if p]


def _style(names: frozenset[str]) -> Style | None:
    if not names - {"code"}:
        return None
    script = "sub" if "sub" in names else "super" if "super" in names else ""
    return Style(
        "bold" in names, "italic" in names, "underline" in names, "strike" in names, script
    )


def _markdown(run: _Run) -> str:
    text = clean(run.text.strip())
    if "code" in run.style:
        return code_span(text, _style(run.style), link(run.href))
    return text_item(text, _style(run.style), link(run.href))


def _line_breaks(text: str) -> str:
    return re.sub(f" *{BR}[ {BR}]*", "\n", text).strip()
