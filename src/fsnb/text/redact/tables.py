"""Credentials in tables: cells under a credential column or beside a credential label, in
Markdown and reflowed PDF pipe tables, CSV, TSV and space-aligned frames (pandas
`to_string`)."""

from __future__ import annotations

import re

from fsnb.text.redact.credentials import (
    MARKER,
    NUMBER,
    STOP,
    TRIVIAL,
    find_all,
    key_kind,
    mixed,
    passphrase,
    passwordish,
)

#: Words that make a line of a table worth reading cell by cell.
TABLE_WORDS = ("pass", "pwd", "secret", "token", "key", "credential")  # and "PIN", "Pin"
_RULE_CELL = re.compile(r"[ \t]*:?-{3,}:?[ \t]*")
_ALIGNED_HEADER = re.compile(r"[ \t]*[A-Za-z_][\w.-]*(?:[ \t]+[A-Za-z_][\w.-]*)+[ \t]*")
_HEADER_WORD = re.compile(r"[A-Za-z_][\w.-]*")
_PIN = re.compile(r"(?i)(?:pin|passcode)(?:[ _-]?(?:code|number|no\.?))?")
#: Cells under a credential header that say something about it, not the secret.
_STATUS = frozenset(
    "n/a na tbd tba required optional set unset reset expired changed unknown hidden redacted "
    "masked encrypted hashed same default none empty blank pending active disabled locked "
    "sso ldap oauth".split()
)


def mask_tables(text: str) -> tuple[str, int]:
    """`text` with credential cells withheld, and how many were."""
    masker = _TableMasker()
    return masker.tables(text), masker.count


def cell_kind(cell: str) -> str:
    """The credential kind of a table header or key cell: a short label, not a sentence."""
    label = cell.strip().strip("*_`:").strip()
    words = label.split()
    if (
        not label
        or len(label) > 40
        or len(words) > 3
        or STOP.intersection(w.lower() for w in words)
    ):
        return ""
    if _PIN.fullmatch(label):
        return "password"
    return key_kind(label) if all(_HEADER_WORD.fullmatch(w) for w in words) else ""


def cell_secret(kind: str, value: str, *, header: bool = False) -> bool:
    """Whether a table cell under (or beside) a credential label holds the credential.

    Beside a label in a header row the cell may itself be a label, so only a
    password-shaped value counts there.
    """
    value = value.strip().strip("`")
    if not value or MARKER in value or TRIVIAL.fullmatch(value):
        return False
    if value.lower() in _STATUS or value.lower().startswith(("see ", "ask ", "in ")):
        return False
    if header:
        return passwordish(value)
    if any(c.isspace() for c in value):
        return kind == "password" and passphrase(value)
    if kind == "password":  # "Expired", "Rotated": a status, not a password
        return not (value.isalpha() and value.lower().endswith("ed"))
    if NUMBER.fullmatch(value):
        return False
    return len(value) >= 8 and (len(value) >= 20 or mixed(value) or passwordish(value))


def _separator(line: str) -> str:
    """The cell separator of a table row: `|`, a tab or a comma ('' for none)."""
    if "|" in line:
        return "|"
    if "\t" in line:
        return "\t"
    if "," in line and line.count(" ") <= 3 * line.count(",") + 3:  # not a sentence
        return ","
    return ""


def _cells(line: str, sep: str) -> list[tuple[int, int]]:
    """Spans of a row's cells (stripped), split at `sep` outside double quotes."""
    lead = len(line) - len(line.lstrip())
    start = lead + 1 if sep == "|" and line[lead : lead + 1] == "|" else 0
    bounds, quoted = [], False
    if sep == "|" or '"' not in line:
        cut = line.find(sep, start)
        while cut >= 0:
            bounds.append(cut)
            cut = line.find(sep, cut + 1)
    else:
        for i in range(start, len(line)):
            if line[i] == '"':
                quoted = not quoted
            elif line[i] == sep and not quoted:
                bounds.append(i)
    spans = []
    for cut in bounds:
        spans.append((start, cut))
        start = cut + 1
    if not (sep == "|" and not line[start:].strip()):  # a trailing `|` closes the row
        spans.append((start, len(line)))
    out = []
    for a, b in spans:
        cell = line[a:b]
        a += len(cell) - len(cell.lstrip())
        b -= len(cell) - len(cell.rstrip())
        out.append((a, max(a, b)))
    return out


def _aligned(row: str, header: str) -> bool:
    """A row of the header's frame: as wide (pandas pads every line) or column-spaced."""
    if len(row.rstrip()) == len(header.rstrip()):
        return True
    return "  " in header.strip() and "  " in row.strip()


class _TableMasker:
    """One pass over a text's tables, counting the cells it withholds."""

    def __init__(self) -> None:
        self.count = 0

    def tables(self, text: str) -> str:
        """Cells under a credential column and beside a credential label, in pipe tables
        (Markdown and reflowed PDF rows), CSV and TSV lines and space-aligned frames."""
        lines = text.split("\n")
        hinted, line, pos = set(), 0, 0
        for at in sorted(find_all(text.lower(), TABLE_WORDS) + find_all(text, ("PIN", "Pin"))):
            line, pos = line + text.count("\n", pos, at), at
            hinted.add(line)
        block: tuple[str, int, list[tuple[int, str]]] | None = None  # sep, width, columns
        aligned: tuple[str, list[tuple[int, int, str]]] | None = None  # header, columns
        last = -1  # the last line read only to follow a table: its row decides `block` late
        for n, line in enumerate(lines):
            if not (block and block[2]) and not aligned and n not in hinted:
                if line.strip():  # no credential word and no credential column above
                    last, block = n, None
                continue
            if not line.strip():
                aligned = None
                continue
            sep = _separator(line)
            if last >= 0:
                was = _separator(lines[last])
                block = (was, len(_cells(lines[last], was)), []) if was else None
                last = -1
            if aligned and not sep and _aligned(line, aligned[0]):
                lines[n] = self._aligned_row(line, *aligned)
                continue
            aligned = None
            if not sep:
                block = None
                if len(line) <= 2000 and _ALIGNED_HEADER.fullmatch(line):
                    words = list(_HEADER_WORD.finditer(line))
                    columns = [(w.start(), w.end(), cell_kind(w.group(0))) for w in words]
                    if any(kind for _, _, kind in columns):
                        aligned = (line, columns)
                continue
            cells = _cells(line, sep)
            if len(cells) < 2:
                block = None
                continue
            if sep == "|" and all(_RULE_CELL.fullmatch(line[a:b] or "---") for a, b in cells):
                continue  # the |---|---| under a header
            values = [line[a:b] for a, b in cells]
            header = not (block and block[0] == sep and block[1] == len(cells))
            hits = set()
            for i in range(len(values) - 1):  # a label cell, its value beside it
                kind = cell_kind(values[i])
                if kind and cell_secret(kind, values[i + 1], header=header):
                    hits.add(i + 1)
            if header:  # a label beside its (withheld) value: a key/value table, no columns
                columns = [(i, cell_kind(v)) for i, v in enumerate(values)]
                pairs = hits or any(MARKER in values[i + 1] for i, k in columns[:-1] if k)
                block = (sep, len(cells), [] if pairs else [c for c in columns if c[1]])
            else:
                hits.update(i for i, kind in block[2] if cell_secret(kind, values[i]))
            if hits:
                lines[n] = self._replace(line, [cells[i] for i in sorted(hits)])
        return "\n".join(lines)

    def _aligned_row(self, row: str, header: str, columns: list[tuple[int, int, str]]) -> str:
        """A row of a space-aligned frame (pandas `to_string`): each credential column's
        cell, found between its neighbours' header words."""
        spans = []
        for i, (_, _, kind) in enumerate(columns):
            if not kind:
                continue
            lo = columns[i - 1][1] if i else 0
            hi = columns[i + 1][0] if i + 1 < len(columns) else len(row)
            cell = row[lo:hi]
            if cell_secret(kind, cell):
                a = lo + len(cell) - len(cell.lstrip())
                spans.append((a, a + len(cell.strip())))
        return self._replace(row, spans) if spans else row

    def _replace(self, line: str, spans: list[tuple[int, int]]) -> str:
        self.count += len(spans)
        out, pos = [], 0
        for a, b in spans:
            out.append(line[pos:a] + MARKER)
            pos = b
        return "".join(out) + line[pos:]
