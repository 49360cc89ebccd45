"""A Word document's styles and list numbering, as the light DOCX reader needs them:
each style parsed when first asked for, the numbering's levels, markers and counters as
Docling's Word backend builds them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from fsnb.documents.light_ooxml import W, on

VAL = f"{W}val"
_VISIBLE = frozenset(
    "decimal lowerRoman upperRoman lowerLetter upperLetter decimalZero chineseCounting "
    "chineseCountingThousand chineseLegalSimplified ideographDigital ideographTraditional "
    "ideographZodiac japaneseCounting decimalFullWidth decimalEnclosedCircle".split()
)
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


@dataclass
class WordStyle:
    name: str
    based: str | None
    outline: int | None
    bold: bool
    num: tuple[str | None, str | None]


class Styles:
    """A package's styles, each parsed when first asked for: styles.xml is often hundreds of
    kilobytes (Word's latent styles), of which a document uses a few."""

    def __init__(self, raw: bytes):
        self.raw, self.parsed = raw, {}
        declared = re.search(rb'xmlns:([\w.-]+)="' + W[1:-1].encode() + rb'"', raw[:4096])
        prefix = re.escape(declared.group(1) if declared else b"w")
        top = re.search(rb"<" + prefix + rb":styles\b[^>]*>", raw)
        self.wrap = (top.group(0), b"</" + prefix + b":styles>") if top else (b"", b"")
        self.spans: dict[str, tuple[int, int]] = {}
        self.default = None
        self.end = b"</" + prefix.replace(b"\\", b"") + b":style>"
        attribute = re.compile(prefix + rb':(styleId|type|default)="([^"]*)"')
        for match in re.finditer(rb"<" + prefix + rb":style\b([^>]*)>", raw):
            attrs = dict(attribute.findall(match.group(1)))
            key = attrs.get(b"styleId", b"").decode()
            self.spans.setdefault(key, (match.start(), match.end()))
            if attrs.get(b"type") == b"paragraph" and on(attrs.get(b"default", b"0").decode()):
                self.default = key

    def get(self, sid: str) -> WordStyle | None:
        if sid not in self.parsed:
            start, tag_end = self.spans.get(sid, (-1, -1))
            if start < 0:
                self.parsed[sid] = None
            else:
                closed = self.raw[tag_end - 2 : tag_end] == b"/>"
                end = tag_end if closed else self.raw.find(self.end, tag_end) + len(self.end)
                self.parsed[sid] = _parse_style(self.raw[start:end], self.wrap)
        return self.parsed[sid]


def _parse_style(snippet: bytes, wrap: tuple[bytes, bytes]) -> WordStyle:
    from xml.etree.ElementTree import fromstring

    style = fromstring(wrap[0] + snippet + wrap[1])[0]
    name, based = style.find(f"{W}name"), style.find(f"{W}basedOn")
    outline = style.find(f".//{W}outlineLvl")
    bold = style.find(f"{W}rPr/{W}b")
    num = style.find(f".//{W}numPr")
    return WordStyle(
        name.get(VAL, "") if name is not None else "",
        based.get(VAL) if based is not None else None,
        to_int(outline.get(VAL)) if outline is not None else None,
        bold is not None and on(bold.get(VAL)),
        (val(num, "numId"), val(num, "ilvl")) if num is not None else (None, None),
    )


class Numbering:
    """A document's list numbering (numbering.xml): the format and text of each level,
    and the counters of the lists and numbered headings read so far."""

    def __init__(self, root: Element | None, styles: Styles):
        self.root, self.styles = root, styles
        self.counters: dict[tuple[int, int], int] = {}
        self.headings: dict[int, int] = {}

    def level(self, numid: int, ilvl: int) -> Element | None:
        if self.root is None:
            return None
        num = self.root.find(f"{W}num[@{W}numId='{numid}']")
        for _ in range(5):
            abstract_id = val(num, "abstractNumId") if num is not None else None
            if abstract_id is None:
                return None
            abstract = self.root.find(f"{W}abstractNum[@{W}abstractNumId='{abstract_id}']")
            if abstract is None:
                return None
            lvl = abstract.find(f"{W}lvl[@{W}ilvl='{ilvl}']")
            if lvl is not None:
                return lvl
            linked = val(abstract, "numStyleLink")
            style_num = self.styles.get(linked or "")
            if style_num is None or style_num.num[0] is None:
                return None
            num = self.root.find(f"{W}num[@{W}numId='{style_num.num[0]}']")
        return None

    def fmt(self, numid: int, ilvl: int) -> str | None:
        lvl = self.level(numid, ilvl)
        return val(lvl, "numFmt") if lvl is not None else None

    def visible(self, numid: int, ilvl: int) -> bool:
        return self.fmt(numid, ilvl) in _VISIBLE

    def start(self, numid: int, ilvl: int) -> int:
        value = to_int(val(self.level(numid, ilvl), "start"))
        return 1 if value is None else value

    def marker(self, numid: int, ilvl: int) -> str:
        key = (numid, ilvl)
        self.counters[key] = self.counters.get(key, self.start(numid, ilvl) - 1) + 1
        for k in [k for k in self.counters if k[0] == numid and k[1] > ilvl]:
            self.counters[k] = 0
        lvl = self.level(numid, ilvl)
        template = val(lvl, "lvlText") if lvl is not None else None
        fmt = self.fmt(numid, ilvl)

        def count(level: int) -> str:
            value = self.counters.get((numid, level))
            return _counter(
                value if value is not None else self.start(numid, level), self.fmt(numid, level)
            )

        custom = template and re.sub(r"%\d+", "", template).strip(" .)(:[]")
        if template and re.search(r"%\d+", template) and (custom or fmt in _VISIBLE - {"decimal"}):
            return re.sub(r"%(\d+)", lambda m: count(int(m.group(1)) - 1), template)
        return ".".join(count(level) for level in range(ilvl + 1)) + "."

    def heading_number(self, level: int) -> str:
        self.headings[level] = self.headings.get(level, 0) + 1
        deeper = level + 1
        while deeper in self.headings:
            self.headings[deeper] = 0
            deeper += 1
        text, upper = str(self.headings[level]), level - 1
        while upper in self.headings:
            self.headings[upper] = self.headings[upper] or 1
            text = f"{self.headings[upper]}.{text}"
            upper -= 1
        return text


def val(node: Element | None, name: str) -> str | None:
    el = node.find(f"{W}{name}") if node is not None else None
    return el.get(VAL) if el is not None else None


def to_int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _counter(value: int, fmt: str | None) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        letters, n = "", max(value, 1)
        while n > 0:
            n, rest = divmod(n - 1, 26)
            letters = chr(97 + rest) + letters
        return letters.upper() if fmt == "upperLetter" else letters
    if fmt in ("lowerRoman", "upperRoman"):
        roman, n = "", value
        for number, numeral in _ROMAN:
            while n >= number:
                roman, n = roman + numeral, n - number
        return roman.lower() if fmt == "lowerRoman" else roman
    return f"{value:02d}" if fmt == "decimalZero" else str(value)
