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
        if block.kind == "heading":
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
