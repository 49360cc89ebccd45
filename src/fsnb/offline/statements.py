"""How an offline answer words a passage: markdown marks dropped, table cells labelled by
their header, a unit of several sentences written as one line, references blanked."""

from __future__ import annotations

import re

from fsnb.offline.references import find_references
from fsnb.text.segments import Span, sentences

_MARKER = re.compile(r"\[(\d{1,3})\]")
#: What each digit adds to a piece's weight when a long passage is quoted in pieces (hand-set).
DIGIT_WEIGHT = 0.05
#: A table caption of at most this many words names the table in the scratchpad ("Rent Roll").
CAPTION_WORDS = 3


def one_line(said: str) -> str:
    """A statement of several sentences as one, its sentences joined by semicolons."""
    said = _NUMBERING.sub("", said)
    parts = sentences(said, Span(0, len(said), "text"))
    return "; ".join(said[p.start : p.end].strip().rstrip(".") for p in parts) or said


#: A list item's or section's number at the start of a statement ("2.", "1.2", "(a)").
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*[.)]?|\([a-z0-9]{1,3}\))\s+")


def unreferenced(text: str) -> str:
    """The text with the titles of the documents it refers to blanked out: their words
    describe the other document, not what this passage says."""
    for ref in reversed(find_references(text)):
        if ref.kind in ("document", "named", "file"):
            text = text[: ref.start] + " " * (ref.end - ref.start) + text[ref.end :]
    return text


def statement(text: str, piece: Span, unit: Span) -> str:
    """A passage as a readable statement: markdown marks dropped, table cells labelled by
    their header, citation-like brackets defused."""
    raw = text[piece.start : piece.end]
    if unit.kind == "row":
        cells = table_cells(raw)
        header = table_header(text, unit.start)
        names = table_cells(header) if header else []
        if names and len(names) == len(cells) and names != cells:
            raw = "; ".join(f"{n}: {c}" if n else c for n, c in zip(names, cells, strict=True))
        else:
            raw = " · ".join(c for c in cells if c)
    elif unit.kind == "pair":  # a label and the value printed alone after it
        lines = (re.sub(r"^\s*#+\s*", "", line).strip() for line in raw.splitlines())
        raw = ": ".join(line for line in lines if line)
    raw = re.sub(r"^\s*(?:#+|[-*•▪–])\s+", "", raw)
    raw = _MARKER.sub(r"(\1)", raw)
    return " ".join(raw.split())


def table_cells(row: str) -> list[str]:
    """The cells of a table row as a document's text prints it ("a | b", "| a | b |")."""
    return [c.strip() for c in row.strip().strip("|").split("|")]


def table_header(text: str, start: int) -> str:
    """The header row of the markdown table holding the row that starts at `start` ('' when
    the row is not in a table with a header)."""
    lines = text[:start].split("\n")[:-1]
    for index in range(len(lines) - 1, 0, -1):
        stripped = lines[index].strip()
        if not stripped or "|" not in stripped:
            return ""
        if re.fullmatch(r"[|:\-+= ]+", stripped):
            return lines[index - 1].strip()
    return ""
