"""The candidate passages of a document's text: its units.

A unit is a sentence, a short paragraph, a list item or a table row (`fsnb.text.segments`),
with its context (the heading over it, a table's header row); a run of list items or
table rows is also a unit as a whole, a group, with the spans of its items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fsnb.offline.tuning import Tuning
from fsnb.text.segments import Span, blocks, sentences

_RULE_AFTER = re.compile(r"[ \t]*\n[ \t]*\|?[ \t]*:?-{3,}")
#: A block that is one value alone: an amount, a number or a percentage, perhaps marked as a
#: heading ("## $864.55": a form's box printed in a larger font).
_VALUE_ALONE = re.compile(r"#*\s*[-+(]?[$£€¥]?\s?\d[\d,]*(?:\.\d+)?\s?%?\)?")
#: A label line names a value printed on the line after it: at most this many words...
LABEL_WORDS = 10
#: ...with no digit group beyond a leading box number ("1a Total ordinary dividends").
_LABEL = re.compile(r"(?:\d{1,2}[a-z]?\s+)?[^\d]+")


@dataclass(frozen=True)
class Unit:
    """A candidate passage and its context (the heading over it, a table's header row);
    a group (a list, a table) also has the spans of its items."""

    span: Span
    context: str
    parts: tuple[Span, ...] = ()


def units(text: str, *, tuning: Tuning) -> list[Unit]:
    """Every candidate passage of a document's text, in order: its blocks' sentences, its
    paragraphs up to `paragraph_chars`, and its lists and tables up to `group_items`."""
    out: list[Unit] = []
    heading = ""
    header: str | None = None
    previous: Span | None = None
    run: list[Unit] = []

    def flush() -> None:
        if 2 <= len(run) <= tuning.group_items:
            span = Span(run[0].span.start, run[-1].span.end, "group")
            out.append(Unit(span, run[0].context, tuple(u.span for u in run)))
        run.clear()

    for block in blocks(text):
        piece = text[block.start : block.end]
        if block.kind not in ("item", "row") or block.kind != (previous and previous.kind):
            flush()
        alone = bool(_VALUE_ALONE.fullmatch(piece.strip()))
        label = previous if previous is not None and previous.kind in ("text", "heading") else None
        if alone and label is not None and _labels(text[label.start : label.end]):
            out.append(Unit(Span(label.start, block.end, "pair"), heading))
        if alone and block.kind == "heading":
            pass  # a value printed large is not a heading over what follows
        elif block.kind == "heading":
            heading = piece.lstrip("#").strip()
        elif block.kind == "row":
            if _RULE_AFTER.match(text, block.end):
                header = piece  # a markdown table's header row: context, not a candidate
            else:
                if not (previous is not None and previous.kind == "row"):
                    header = None
                unit = Unit(block, f"{heading} {header}" if header else heading)
                out.append(unit)
                run.append(unit)
        elif block.kind == "item":
            unit = Unit(block, heading)
            out.append(unit)
            run.append(unit)
        else:
            parts = sentences(text, block)
            out.extend(Unit(s, heading) for s in parts)
            if len(parts) > 1 and block.end - block.start <= tuning.paragraph_chars:
                out.append(Unit(block, heading))
        previous = block
    flush()
    return out


def _labels(piece: str) -> bool:
    """Whether a block reads as the label of a value printed alone after it (a form's box:
    "1a Total ordinary dividends", then "$864.55"): a few words, no value of its own, no
    full stop."""
    piece = piece.strip().lstrip("#").strip()
    return (
        0 < len(piece.split()) <= LABEL_WORDS
        and bool(_LABEL.fullmatch(piece))
        and not piece.endswith((".", "|"))
    )
