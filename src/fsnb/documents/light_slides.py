"""PPTX, read as Docling's PowerPoint backend reads it: one page per slide, its shapes in
reading order (top to bottom, then left to right; a placeholder where its layout puts
it), titles as headings, paragraphs as text or list items (bullets inherited from the
shape, its layout and its master), tables, pictures, and the speaker notes after the
slide's content. Hidden slides and shapes, footers and slide numbers are left out.
Charts are not read (Docling shows each as an image placeholder, its chart type and its
data table): past a chart, the opening is no longer the full parse's beginning.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element, fromstring

from fsnb.documents.light_blocks import IMAGE, Block, Cell, Table, heading, list_item, text_item
from fsnb.documents.light_ooxml import A, P, Package, R, local

_ROW_TOLERANCE = 45720
_FURNITURE = frozenset({"ftr", "dt", "sldNum"})
#: A layout placeholder's type -> the master placeholder type it inherits from.
_BASE_TYPE = {"chart": "body", "clipArt": "body", "dgm": "body", "media": "body", "obj": "body",
              "pic": "body", "tbl": "body", "ctrTitle": "title", "subTitle": "body"}  # fmt: skip


def read(data: bytes, chars: int) -> tuple[int, Iterator[tuple[int, Block]]]:
    package = Package(data)
    main = package.main("ppt/presentation.xml")
    rels = package.rels(main)
    ids = package.xml(main).find(f"{P}sldIdLst")
    slides = [rels[s.get(f"{R}id", "")][0] for s in (ids if ids is not None else ())]
    return len(slides), _Deck(package).pages(slides)


class _Deck:
    def __init__(self, package: Package):
        self.package = package
        self.parts: dict[str, tuple[Element, dict[str, tuple[str, str, bool]]]] = {}

    def part(self, name: str) -> tuple[Element, dict[str, tuple[str, str, bool]]]:
        if name not in self.parts:
            shared = "/slideLayouts/" in name or "/slideMasters/" in name
            root = self.package.shared(name, fromstring) if shared else self.package.xml(name)
            self.parts[name] = (root, self.package.rels(name))
        return self.parts[name]

    def related(self, name: str, kind: str) -> str | None:
        return next((t for t, k, _ in self.part(name)[1].values() if k == kind), None)

    def pages(self, slides: list[str]) -> Iterator[tuple[int, Block]]:
        for number, name in enumerate(slides, start=1):
            root, _ = self.part(name)
            layout = self.related(name, "slideLayout")
            master = self.related(layout, "slideMaster") if layout else None
            self.layout = self.part(layout)[0] if layout else None
            self.master = self.part(master)[0] if master else None
            tree = root.find(f"{P}cSld/{P}spTree")
            if root.get("show") not in ("0", "false") and tree is not None:
                for block in self.shapes(tree):
                    yield number, block
            notes = self.related(name, "notesSlide")
            if notes:
                for shape in self.part(notes)[0].iter(f"{P}sp"):
                    if _placeholder(shape)[0] == "body":
                        text = "\n".join(_paragraph_text(p) for p in shape.iter(f"{A}p")).strip()
                        yield number, text_item(text)
                        break

    def shapes(self, tree: Element) -> Iterator[Block]:
        for shape in self.ordered(
            [c for c in tree if local(c.tag) in ("sp", "grpSp", "graphicFrame", "pic", "cxnSp")]
        ):
            props = shape.find(f"./*/{P}cNvPr")
            if props is not None and props.get("hidden") in ("1", "true"):
                continue
            tag = local(shape.tag)
            if tag == "grpSp":
                yield from self.shapes(shape)
            elif tag == "graphicFrame":
                table = shape.find(f".//{A}tbl")
                if table is not None and (block := _table(table)) is not None:
                    yield block
            elif tag == "pic":
                if shape.find(f".//{A}blip") is not None:
                    yield IMAGE
            elif tag == "sp":
                yield from self.text(shape)

    def ordered(self, shapes: list[Element]) -> list[Element]:
        far = 2**63 - 1
        spots = []
        for index, shape in enumerate(shapes):
            top, left = self.position(shape)
            spots.append((far if top is None else top, far if left is None else left, index, shape))
        spots.sort(key=lambda s: (s[0], s[2]))
        rows: list[list[tuple]] = []
        previous = None
        for spot in spots:
            if previous is None or spot[0] - previous > _ROW_TOLERANCE:
                rows.append([])
            rows[-1].append(spot)
            previous = spot[0]
        return [s[3] for row in rows for s in sorted(row, key=lambda s: (s[1], s[2]))]

    def position(self, shape: Element) -> tuple[int | None, int | None]:
        off = shape.find(f"./{P}xfrm/{A}off") if local(shape.tag) == "graphicFrame" else None
        off = off if off is not None else shape.find(f"./*/{A}xfrm/{A}off")
        if off is not None:
            return _int(off.get("y")), _int(off.get("x"))
        kind, idx = _placeholder(shape)
        if kind is None:
            return None, None
        base = _find_placeholder(self.layout, idx=idx)
        if base is not None:
            off = base.find(f"./*/{A}xfrm/{A}off")
            if off is not None:
                return _int(off.get("y")), _int(off.get("x"))
            base_kind = _placeholder(base)[0] or "obj"
            base = _find_placeholder(self.master, kind=_BASE_TYPE.get(base_kind, base_kind))
            off = base.find(f"./*/{A}xfrm/{A}off") if base is not None else None
            if off is not None:
                return _int(off.get("y")), _int(off.get("x"))
        return None, None

    def text(self, shape: Element) -> Iterator[Block]:
        body = shape.find(f"{P}txBody")
        kind, idx = _placeholder(shape)
        if body is None or kind in _FURNITURE:
            return
        paragraphs = body.findall(f"{A}p")
        if not "".join(_paragraph_text(p) for p in paragraphs).strip():
            return
        lines: list[str] = []
        lists: list[list[int]] = []  # per open list: [level, counter]
        for para in paragraphs:
            text = _paragraph_text(para)
            is_list, numbered = self.bullet(para, body, kind, idx)
            if is_list:
                props = para.find(f"{A}pPr")
                level = _int(props.get("lvl")) or 0 if props is not None else 0
                while len(lists) > 1 and lists[-1][0] > level:
                    lists.pop()
                if not lists or level > lists[-1][0]:
                    lists.append([level, 0])
                marker = ""
                if numbered:
                    auto = props.find(f"{A}buAutoNum") if props is not None else None
                    if lists[-1][1] == 0:
                        lists[-1][1] = (
                            _int(auto.get("startAt")) or 1 if auto is not None else 1
                        ) - 1
                    lists[-1][1] += 1
                    marker = f"{lists[-1][1]}."
                lines.append(list_item(text_item(text), marker, len(lists) - 1))
                continue
            if lines:
                yield "\n".join(lines)
                lines = []
            lists.clear()
            if kind in ("title", "ctrTitle"):
                yield heading(text, 0)
            else:
                yield text_item(text)
        if lines:
            yield "\n".join(lines)

    def bullet(self, para: Element, body: Element, kind: str | None, idx: int) -> tuple[bool, bool]:
        """(whether `para` is a list item, whether a numbered one): its own properties,
        else its shape's list style, else its layout placeholder's and its master's."""
        props = para.find(f"{A}pPr")
        level = _int(props.get("lvl")) or 0 if props is not None else 0
        found = _marker(props)
        if found is None:
            found = _marker(_level_style(body.find(f"{A}lstStyle"), level))
        if found is None and kind is not None:
            base = _find_placeholder(self.layout, idx=idx)
            if base is not None:
                base_body = base.find(f"{P}txBody")
                found = _marker(
                    _level_style(
                        base_body.find(f"{A}lstStyle") if base_body is not None else None, level
                    )
                )
                if found is None and self.master is not None:
                    name = {"body": "bodyStyle", "obj": "bodyStyle", "title": "titleStyle"}.get(
                        kind, "otherStyle"
                    )
                    styles = self.master.find(f"{P}txStyles/{P}{name}")
                    found = _marker(
                        styles.find(f".//{A}lvl{level + 1}pPr") if styles is not None else None
                    )
        if found is None:
            return level > 0, False
        return found != "buNone", found == "buAutoNum"


def _placeholder(shape: Element) -> tuple[str | None, int]:
    ph = shape.find(f"./*/{P}nvPr/{P}ph")
    if ph is None:
        return None, 0
    return ph.get("type", "obj"), _int(ph.get("idx")) or 0


def _find_placeholder(
    root: Element | None, *, idx: int | None = None, kind: str | None = None
) -> Element | None:
    for shape in root.iter(f"{P}sp") if root is not None else ():
        ph_kind, ph_idx = _placeholder(shape)
        if ph_kind is not None and (ph_idx == idx if kind is None else ph_kind == kind):
            return shape
    return None


def _level_style(styles: Element | None, level: int) -> Element | None:
    return styles.find(f"{A}lvl{level + 1}pPr") if styles is not None else None


def _marker(props: Element | None) -> str | None:
    """'buNone', 'buChar', 'buAutoNum' or 'buBlip' as `props` sets it, else None."""
    for kind in ("buNone", "buChar", "buAutoNum", "buBlip"):
        if props is not None and props.find(f"{A}{kind}") is not None:
            return kind
    return None


def _paragraph_text(para: Element) -> str:
    out = []
    for child in para:
        tag = local(child.tag)
        if tag in ("r", "fld"):
            t = child.find(f"{A}t")
            out.append(t.text or "" if t is not None else "")
        elif tag == "br":
            out.append(" ")
    return "".join(out)


def _table(tbl: Element) -> Table | None:
    rows = tbl.findall(f"{A}tr")
    table = Table(len(rows), max((len(r.findall(f"{A}tc")) for r in rows), default=0))
    for r, row in enumerate(rows):
        for c, tc in enumerate(row.findall(f"{A}tc")):
            text = "\n".join("".join(_cell_run(x) for x in p) for p in tc.iter(f"{A}p")).strip()
            if text:
                spans = (_int(tc.get("rowSpan")) or 1, _int(tc.get("gridSpan")) or 1)
                table.cells.append(Cell(r, c, text, spans[0], spans[1], header=r == 0))
    return table if table.cells else None


def _cell_run(child: Element) -> str:
    tag = local(child.tag)
    if tag in ("r", "fld"):
        t = child.find(f"{A}t")
        return t.text or "" if t is not None else ""
    return "\v" if tag == "br" else ""


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
