"""DOCX, read as Docling's Word backend reads it: the body's paragraphs by their style
(Title, Heading N, numbered or bulleted list items, body text whose runs keep their
bold, italic and links), its tables (merged cells spread over the places they cover;
a one-cell table read as body text) and images. Headers, footers, comments and
footnotes, which the full parse puts after the body or leaves out, are not read; nor are
charts (Docling shows each as an image placeholder, its type and its data table), nor
equations (which Docling writes in LaTeX).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

from fsnb.documents.light_blocks import (
    IMAGE,
    Block,
    Cell,
    Style,
    Table,
    heading,
    inline,
    link,
    list_item,
    text_item,
)
from fsnb.documents.light_ooxml import MC, Package, R, W, local
from fsnb.documents.light_wordstyles import VAL, Numbering, Styles, WordStyle, to_int, val

_IMAGES = (
    ".//{http://schemas.openxmlformats.org/drawingml/2006/main}blip",
    ".//{urn:schemas-microsoft-com:vml}imagedata",
)


def read(data: bytes, chars: int) -> tuple[int, Iterator[tuple[int, Block]]]:
    package = Package(data)
    main = package.main("word/document.xml")
    return 1, ((1, block) for block in _Word(package, main).blocks())


class _Word:
    def __init__(self, package: Package, main: str):
        self.root = package.xml(main)
        self.links = {
            rid: t for rid, (t, kind, ext) in package.rels(main).items() if kind == "hyperlink"
        }
        folder = main.rsplit("/", 1)[0]
        styles = f"{folder}/styles.xml"
        self.styles = package.shared(styles, Styles) if package.has(styles) else Styles(b"")
        self.default = self.styles.default
        self.package, self.numbering_part = package, f"{folder}/numbering.xml"
        self._numbering: Numbering | None = None

    def blocks(self, body: Element | None = None) -> Iterator[Block]:
        body = body if body is not None else self.root.find(f"{W}body")
        for element in body if body is not None else ():
            tag = local(element.tag)
            if tag == "AlternateContent":
                branch = element.find(f"{MC}Choice")
                branch = branch if branch is not None else element.find(f"{MC}Fallback")
                if branch is not None:
                    yield from self.blocks(branch)
            elif tag == "tbl":
                yield from self.table(element)
            elif tag == "sdt":
                content = element.find(f"{W}sdtContent")
                if content is not None:
                    yield from self.blocks(content)
            elif tag == "p" and not len(element):  # "<w:p/>": every one reads the same
                yield from self.empty
            elif tag == "p":
                for box in element.iter(f"{W}txbxContent"):
                    yield from self.blocks(box)
                if _has_image(element):
                    yield IMAGE
                yield from self.paragraph(element)

    # -- paragraphs ---------------------------------------------------------------------

    @cached_property
    def empty(self) -> tuple[Block, ...]:
        """What a paragraph with nothing in it reads as (in the default style)."""
        return tuple(self.paragraph(Element(f"{W}p")))

    @property
    def numbering(self) -> Numbering:
        """The document's numbering, read when a paragraph first needs it."""
        if self._numbering is None:
            part = self.numbering_part
            has = self.package.has(part)
            root = self.package.shared(part, ElementTree.fromstring) if has else None
            self._numbering = Numbering(root, self.styles)
        return self._numbering

    def chain(self, sid: str | None) -> Iterator[WordStyle]:
        seen = set()
        while sid and (style := self.styles.get(sid)) and sid not in seen:
            seen.add(sid)
            yield style
            sid = style.based

    def paragraph(self, p: Element) -> Iterator[Block]:
        pstyle = p.find(f"{W}pPr/{W}pStyle")
        sid = pstyle.get(VAL) if pstyle is not None else self.default
        runs = self.runs(p, sid)
        text = "".join(t for t, _, _ in runs).strip()
        label, level = self.label(sid)
        numid, ilvl = self.numbering_of(p, sid)
        if numid is not None and ilvl is not None and label not in ("Title", "Heading", "Code"):
            marker = (
                self.numbering.marker(numid, ilvl) if self.numbering.visible(numid, ilvl) else ""
            )
            if parts := _group(runs):
                yield list_item(_serialize(parts), marker, ilvl)
            return
        if label == "Title":
            yield heading(text, 0)
        elif "Heading" in label:
            if numid is not None and self.numbering.visible(numid, ilvl or 0):
                text = self.numbering.heading_number(level or 1) + " " + text
            yield heading(text, min(max(level or 1, 1), 9))
        else:
            yield _serialize(_group(runs))

    def label(self, sid: str | None) -> tuple[str, int | None]:
        style = self.styles.get(sid or "")
        if style is None:
            return "Normal", None
        base = self.styles.get(style.based or "")
        names = [sid or "", style.name, style.based or "", base.name if base else ""]
        outline = (
            style.outline + 1 if style.outline is not None and 0 <= style.outline <= 8 else None
        )
        if ":" in (sid or ""):
            head, _, tail = (sid or "").partition(":")
            return head, to_int(tail)
        for name in names:
            if "heading" in name.lower():
                if outline is not None:
                    return "Heading", outline
                number = re.findall(r"\d+", name)
                return "Heading", min(max(int(number[0]), 1), 9) if number else None
        if "code" in (sid or "").lower() or "code" in style.name.lower():
            return "Code", None
        if outline is not None and not any("title" in n.lower() for n in names if n):
            return "Heading", outline
        return sid or "Normal", None

    def runs(self, p: Element, sid: str | None) -> list[tuple[str, Style, str | None]]:
        """(text, formatting, link) of each run and link of a paragraph."""
        style_bold = any(s.bold for s in self.chain(sid))
        mark = p.find(f"{W}pPr/{W}rPr/{W}b")
        para_bold = style_bold or (mark is not None and mark.get(VAL) not in ("0", "false"))
        out: list[tuple[str, Style, str | None]] = []
        for child in _content(p):
            tag = local(child.tag)
            if tag == "r":
                out.append((_run_text(child), _format(child, para_bold), None))
            elif tag == "hyperlink":
                rs = [r for r in _content(child) if local(r.tag) == "r"]
                target = self.links.get(child.get(f"{R}id") or "")
                address = link(target) if target else None
                out.append(
                    (
                        "".join(_run_text(r) for r in rs),
                        _format(rs[0], para_bold) if rs else Style(),
                        address,
                    )
                )
            elif tag == "sdt":
                texts = "".join(t.text or "" for t in child.iterfind(f".//{W}sdtContent//{W}t"))
                first = child.find(f".//{W}sdtContent//{W}r")
                if texts:
                    out.append(
                        (texts, _format(first, para_bold) if first is not None else Style(), None)
                    )
        return out

    # -- numbering ----------------------------------------------------------------------

    def numbering_of(self, p: Element, sid: str | None) -> tuple[int | None, int | None]:
        num = p.find(f"{W}pPr/{W}numPr")
        if num is not None:
            numid, ilvl = to_int(val(num, "numId")), to_int(val(num, "ilvl"))
        else:
            numid = ilvl = None
            found_id = found_lvl = None
            for style in self.chain(sid):
                found_id = found_id or style.num[0]
                found_lvl = found_lvl or style.num[1]
            if found_id is not None:
                numid, ilvl = to_int(found_id), to_int(found_lvl or "0")
        return (None if numid == 0 else numid), ilvl

    # -- tables -------------------------------------------------------------------------

    def table(self, tbl: Element) -> Iterator[Block]:
        rows = tbl.findall(f"{W}tr")
        grid = tbl.find(f"{W}tblGrid")
        width = len(grid.findall(f"{W}gridCol")) if grid is not None else 0
        if len(rows) == 1 and width == 1:
            cells = _cells(rows[0])
            if cells:
                yield from self.blocks(cells[0])
            return
        table, open_cells = Table(len(rows), width), {}
        for r, row in enumerate(rows):
            before = row.find(f"{W}trPr/{W}gridBefore")
            col = to_int(before.get(VAL)) or 0 if before is not None else 0
            for tc in _cells(row):
                if col >= width:
                    break
                span_el = tc.find(f"{W}tcPr/{W}gridSpan")
                span = to_int(span_el.get(VAL)) if span_el is not None else 1
                merge = tc.find(f"{W}tcPr/{W}vMerge")
                if (
                    merge is not None
                    and merge.get(VAL, "continue") == "continue"
                    and col in open_cells
                ):
                    open_cells[col].rows = r + 1 - open_cells[col].row
                    col += span or 1
                    continue
                cell = Cell(r, col, self.cell_text(tc), 1, span or 1, header=r == 0)
                table.cells.append(cell)
                open_cells[col] = cell
                col += span or 1
        yield table

    def cell_text(self, tc: Element) -> str:
        paragraphs = tc.findall(f"{W}p")
        rich = len(paragraphs) > 1 or any(local(c.tag) not in ("p", "tcPr") for c in tc)
        rich = rich or _has_image(tc) or tc.find(f".//{W}txbxContent") is not None
        rich = rich or any(
            _format(r, False) != Style() for p in paragraphs for r in p.findall(f"{W}r")
        )
        if not rich:
            return "\n".join("".join(t for t, _, _ in self.runs(p, None)) for p in paragraphs)
        parts = []
        for block in self.blocks(tc):
            text = block.markdown() if isinstance(block, Table) else block
            parts.append(re.sub(r"^#+ ", "", text) if text.startswith("#") else text)
        return "\n\n".join(p for p in parts if p)


def _cells(row: Element) -> list[Element]:
    out = []
    for child in row:
        if local(child.tag) == "tc":
            out.append(child)
        elif local(child.tag) == "sdt":
            content = child.find(f"{W}sdtContent")
            out += _cells(content) if content is not None else []
    return out


def _content(node: Element) -> Iterator[Element]:
    for child in node:
        if local(child.tag) in ("smartTag", "customXml", "ins", "fldSimple"):
            yield from _content(child)
        else:
            yield child


def _run_text(run: Element) -> str:
    out = []
    for child in run:
        tag = local(child.tag)
        if tag == "t":
            out.append(child.text or "")
        elif tag in ("tab", "ptab"):
            out.append("\t")
        elif tag == "br":
            out.append("\n" if child.get(f"{W}type", "textWrapping") == "textWrapping" else "")
        elif tag == "cr":
            out.append("\n")
        elif tag == "noBreakHyphen":
            out.append("-")
    return "".join(out)


def _format(run: Element, para_bold: bool) -> Style:
    props = run.find(f"{W}rPr")

    def flag(name: str, off: tuple[str, ...] = ("0", "false", "off")) -> bool:
        el = props.find(f"{W}{name}") if props is not None else None
        return el is not None and el.get(VAL) not in off

    underline = props.find(f"{W}u") if props is not None else None
    align = props.find(f"{W}vertAlign") if props is not None else None
    script = align.get(VAL, "") if align is not None else ""
    return Style(
        bold=flag("b", ("0", "false")) or para_bold,
        italic=flag("i"),
        underline=underline is not None and underline.get(VAL, "single") != "none",
        strike=flag("strike"),
        script="sub" if script == "subscript" else "super" if script == "superscript" else "",
    )


def _group(runs: list[tuple[str, Style, str | None]]) -> list[tuple[str, Style, str | None]]:
    """Runs of one formatting joined (`_get_paragraph_elements`); a link is its own part."""
    if not "".join(t for t, _, _ in runs).strip():
        return []
    out, text, previous = [], "", None
    for run_text, fmt, address in runs:
        if (run_text.strip() and fmt != previous) or address is not None:
            if text.strip():
                out.append((text.strip(), previous, None))
            text = ""
            if address is not None:
                out.append((run_text.strip(), fmt, address))
                run_text = ""
            else:
                previous = fmt
        text += run_text
    if text.strip():
        out.append((text.strip(), previous, None))
    return out


def _serialize(parts: list[tuple[str, Style | None, str | None]]) -> str:
    """A paragraph's parts: one text item, or an inline group of them."""
    return inline(text_item(text, style, address) for text, style, address in parts)


def _has_image(top: Element) -> bool:
    """Whether `top` holds a picture outside its text boxes."""
    boxed = {
        id(node)
        for box in top.iter()
        if local(box.tag) in ("txbxContent", "textbox")
        for node in box.iter()
    }
    return any(id(img) not in boxed for path in _IMAGES for img in top.iterfind(path))
