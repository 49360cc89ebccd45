"""Rows read from prose by an LLM into a scratchpad table, each with its provenance.

`extract_rows` fills an existing scratchpad table (made with create_table or load_table)
from documents whose data is in sentences, not tables. The table's columns become a JSON
schema of `{"rows": [...]}`; each row also names its `source_file` and a `quote` copied
from the text. Documents go a few at a time (`batch`); one longer than `budget` characters
goes in parts cut at page boundaries, and the prompt says which part it is. Each quote is
looked for in its document with the citation check's matching
(`fsnb.documents.quotes.quote_pattern`): a row
whose quote is found gets its `page` and `verified` true; one whose quote is not found is
kept with `verified` false, for a person to check. Rows go in through `Scratchpad.insert`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fsnb.db.scratchpad import Scratchpad, ScratchpadError
from fsnb.documents import Document
from fsnb.documents.opening import read_document
from fsnb.documents.quotes import quote_pattern
from fsnb.errors import ToolError
from fsnb.protocol import LLM, LLMError, Notify, StructuredLLM
from fsnb.protocol.usage import NO_TOKENS, Tokens
from fsnb.security import Sandbox

#: The provenance columns every row gets (added to the table when missing).
PROVENANCE = {
    "source_file": "VARCHAR",
    "page": "INTEGER",
    "quote": "VARCHAR",
    "verified": "BOOLEAN",
}
#: Provenance of `load_table` that the model is not asked for.
_NOT_ASKED = {"source_row"}
#: Characters of document text sent in one call, at most.
BUDGET = 30_000
NO_STRUCTURED = (
    "the {backend} backend cannot read rows from prose; use extract_tables and load_table "
    "for tables, or a model backend such as gemini"
)
NO_LLM = (
    "extract_rows needs an LLM: run it in an exploration with a model backend such as gemini; "
    "for tables, extract_tables and load_table need none"
)
SYSTEM = (
    "You read documents and return the rows of a table that their text states, as JSON. "
    "Take values only from the text; use null for a value the text does not give; never "
    "invent a row. For each row, source_file is the document it comes from and quote is a "
    "short passage copied exactly, word for word, from that document's text, holding the "
    'row\'s values. Reply {"rows": []} when the text holds no row.'
)
_JSON_TYPES = {
    "VARCHAR": {"type": ["string", "null"]},
    "INTEGER": {"type": ["integer", "null"]},
    "BIGINT": {"type": ["integer", "null"]},
    "DOUBLE": {"type": ["number", "null"]},
    "BOOLEAN": {"type": ["boolean", "null"]},
    "DATE": {"type": ["string", "null"], "format": "date", "description": "YYYY-MM-DD"},
}
Spend = Callable[[Tokens], None]


def value_schema(kind: str) -> dict[str, Any]:
    """The JSON schema of one nullable value of a scratchpad column type."""
    if kind.startswith("DECIMAL"):
        return {"type": ["number", "null"]}
    if kind == "TIMESTAMP":
        return {"type": ["string", "null"], "description": "YYYY-MM-DDTHH:MM:SS"}
    return dict(_JSON_TYPES.get(kind, _JSON_TYPES["VARCHAR"]))


def rows_schema(columns: dict[str, str], paths: Sequence[str]) -> dict[str, Any]:
    """`{"rows": [{...columns, source_file, quote}]}` with `source_file` one of `paths`."""
    properties = {name: value_schema(kind) for name, kind in columns.items()}
    properties["source_file"] = {"type": "string", "enum": list(paths)}
    properties["quote"] = {"type": "string"}
    row = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"rows": {"type": "array", "items": row}},
        "required": ["rows"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class Piece:
    """Text of one document sent in one call: the whole of it, or part `part` of `parts`."""

    path: str
    text: str
    part: int = 1
    parts: int = 1
    where: str = ""

    def block(self) -> str:
        """The piece as the prompt shows it."""
        part = ""
        if self.parts > 1:
            part = f" (part {self.part} of {self.parts}, {self.where}; the other parts are "
            part += "sent separately)"
        return f"=== Document: {self.path}{part} ===\n{self.text}\n=== End of {self.path} ==="


def split(doc: Document, path: str, budget: int = BUDGET) -> list[Piece]:
    """The document in pieces of at most `budget` characters, cut at page boundaries (a
    page longer than that at a line break); together they hold all of its text."""
    text = doc.text
    if len(text) <= budget:
        return [Piece(path, text)]
    bounds = sorted({s.start for s in doc.spans if 0 < s.start < len(text)} | {len(text)})
    cuts, start = [], 0
    while start < len(text):
        fits = [b for b in bounds if start < b <= start + budget]
        if fits:
            end = fits[-1]
        else:  # one page longer than the budget: at its last line break that fits
            end = text.rfind("\n", start + 1, start + budget) + 1 or start + budget
        cuts.append((start, end))
        start = end
    pieces = []
    for number, (a, b) in enumerate(cuts, 1):
        first, last = doc.page_at(a), doc.page_at(b - 1)
        where = f"page {first}" if first == last else f"pages {first}-{last}"
        pieces.append(Piece(path, text[a:b], number, len(cuts), where))
    return pieces


def calls(pieces: Sequence[list[Piece]], batch: int, budget: int = BUDGET) -> list[list[Piece]]:
    """Each document's pieces grouped into calls: whole documents up to `batch` at a time
    within `budget` characters; each part of a long document alone."""
    out: list[list[Piece]] = []
    group: list[Piece] = []
    for doc in pieces:
        if len(doc) > 1:
            out.extend([p] for p in doc)
            continue
        (piece,) = doc
        if group and (
            len(group) >= batch or sum(len(p.text) for p in group) + len(piece.text) > budget
        ):
            out.append(group)
            group = []
        group.append(piece)
    if group:
        out.append(group)
    return out


def prompt(table: str, columns: dict[str, str], group: Sequence[Piece], instructions: str) -> str:
    """What the model is asked for one call."""
    wanted = ", ".join(f"{name} ({kind})" for name, kind in columns.items())
    lines = [f"Extract the rows of table {table}, with the columns {wanted}."]
    if instructions.strip():
        lines.append(f"Instructions: {instructions.strip()}")
    lines.append("Dates are YYYY-MM-DD. The documents:\n")
    lines.extend(piece.block() for piece in group)
    return "\n".join(lines)


@dataclass
class RowsReport:
    """What `extract_rows` did: rows added per document, rows whose quote was not found
    (kept, flagged verified=false), the calls made and their tokens."""

    table: str
    added: dict[str, int]
    unverified: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    tokens: Tokens = NO_TOKENS
    #: Documents sent in parts: path -> how many.
    parts: dict[str, int] = field(default_factory=dict)
    #: Provenance columns added to the table.
    columns_added: list[str] = field(default_factory=list)

    def spend(self, tokens: Tokens) -> None:
        self.calls += 1
        self.tokens += tokens

    def summary(self) -> str:
        """A few lines for the LLM or the terminal."""
        total = sum(self.added.values())
        per = ", ".join(f"{path}: {n}" for path, n in self.added.items())
        lines = [
            f"Added {total:,} row{'s' * (total != 1)} to table {self.table} ({per}); "
            f"{self.calls} LLM call{'s' * (self.calls != 1)}, {self.tokens.total:,} tokens."
        ]
        if self.parts:
            sent = ", ".join(f"{path} in {n} parts" for path, n in self.parts.items())
            lines.append(f"Sent {sent}.")
        if self.unverified:
            lines.append(
                f"{len(self.unverified)} row{'s' * (len(self.unverified) != 1)} kept with "
                "verified=false: the quote is not in the document:"
            )
            lines.extend(f'- {r["source_file"]}: "{r["quote"]}"' for r in self.unverified)
        return "\n".join(lines)


def _document(sandbox: Sandbox, path: str | os.PathLike[str]) -> tuple[str, Document]:
    """The document's relative path and its parse (through the parse cache)."""
    target = sandbox.existing(path, "file")
    return sandbox.relative(target), read_document(sandbox, target)


def _row(record: dict[str, Any], doc: Document) -> dict[str, Any]:
    """The reply's row with its page and whether its quote is in the document."""
    quote = str(record.get("quote") or "")
    pattern = quote_pattern(quote)
    found = pattern.search(doc.text) if pattern else None
    page = doc.page_at(found.start()) if found else None
    return {**record, "quote": quote, "page": page, "verified": found is not None}


def extract_rows(
    scratchpad: Scratchpad,
    sandbox: Sandbox,
    llm: LLM | None,
    table: str,
    paths: Sequence[str | os.PathLike[str]],
    instructions: str = "",
    *,
    batch: int = 3,
    budget: int = BUDGET,
    notify: Notify = lambda _: None,
    spend: Spend | None = None,
    check: Callable[[], None] = lambda: None,
) -> RowsReport:
    """Read the rows of `table` from the documents `paths` with `llm`, into the table.

    `spend(tokens)` is told each call's tokens as it ends (failed calls too). `check()` runs
    before each call (`ToolContext.check`: it raises once the run is cancelled or out of
    time). A path outside the folder is refused (`AccessDenied`); a missing table, a table
    with nothing to fill or a row that does not fit raises `ScratchpadError`; a
    backend without structured output, or no valid reply, raises `LLMError`. Rows of the
    calls before a failure stay in the table.
    """
    if batch < 1 or budget < 1:
        msg = f"batch and budget must be at least 1 (got batch={batch}, budget={budget})"
        raise ToolError(msg)
    if not paths:
        msg = "extract_rows needs at least one document path"
        raise ToolError(msg)
    if llm is None:
        raise LLMError(NO_LLM)
    if not isinstance(llm, StructuredLLM):
        raise LLMError(NO_STRUCTURED.format(backend=llm.backend))
    have = scratchpad.schema(table)
    columns = {c: k for c, k in have.items() if c not in PROVENANCE and c not in _NOT_ASKED}
    if not columns:
        msg = f"table {table} has no columns to fill besides provenance; add some with create_table"
        raise ScratchpadError(msg)
    docs = dict(_document(sandbox, path) for path in paths)
    report = RowsReport(table, dict.fromkeys(docs, 0))
    report.columns_added = scratchpad.add_columns(table, PROVENANCE)
    pieces = [split(doc, path, budget) for path, doc in docs.items()]
    report.parts = {p[0].path: len(p) for p in pieces if len(p) > 1}

    def spent(tokens: Tokens) -> None:
        report.spend(tokens)
        if spend is not None:
            spend(tokens)

    for group in calls(pieces, batch, budget):
        check()
        sources = list(dict.fromkeys(p.path for p in group))
        schema = rows_schema(columns, sources)
        try:
            reply = llm.complete_json(
                SYSTEM, prompt(table, columns, group, instructions), schema, notify
            )
        except LLMError as exc:
            spent(exc.tokens)
            raise
        spent(reply.tokens)
        rows = [_row(r, docs[r["source_file"]]) for r in reply.value["rows"]]
        scratchpad.insert(table, rows)
        for row in rows:
            report.added[row["source_file"]] += 1
            if not row["verified"]:
                report.unverified.append({"source_file": row["source_file"], "quote": row["quote"]})
    return report


__all__ = ["BUDGET", "PROVENANCE", "RowsReport", "extract_rows", "rows_schema", "split"]
