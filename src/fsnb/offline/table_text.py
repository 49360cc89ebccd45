"""The tables the documents print, read from their text (`fsnb.offline.tables`): the lines
of their rows, a row that totals the others, a form's fields printed as a table, and what a
passage must print to state a figure over them."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from fsnb.offline.amounts import currency
from fsnb.offline.corpus import Corpus
from fsnb.offline.passages import FEATURES
from fsnb.offline.statements import table_cells
from fsnb.offline.table_sql import TOTAL_ROW


def totalled(corpus: Corpus, read: Sequence[str]) -> bool:
    """Whether a table row of the documents `read` begins with a total ("Total savings")."""
    return any(re.match(TOTAL_ROW, table_cells(line)[0]) for line in table_lines(corpus, read))


def form(corpus: Corpus, read: Sequence[str]) -> bool:
    """Whether a document `read` prints a form's fields as a table ("kWh used | 812",
    "Amount due | $118.64"): in one column, some rows an amount and others a bare number."""
    for path in read:
        kinds: dict[tuple[int, int], set[bool]] = {}
        for line in table_lines(corpus, [path]):
            cells = table_cells(line)
            for i, cell in enumerate(cells):
                if _BARE.fullmatch(cell) and not _YEAR.fullmatch(cell):
                    kinds.setdefault((len(cells), i), set()).add(bool(_CURRENCY.match(cell)))
        if any(len(seen) == 2 for seen in kinds.values()):
            return True
    return False


#: A cell that is one number, maybe an amount ("812", "$118.64", "(1,200.00)").
_BARE = re.compile(r"-?\(?-?[$€£¥₹]?\s?\d[\d,]*(?:\.\d+)?\)?")
_CURRENCY = re.compile(r"-?\(?-?[$€£¥₹]")
_YEAR = re.compile(r"(?:19|20)\d\d")


def table_lines(corpus: Corpus, read: Sequence[str]) -> Iterator[str]:
    """The lines of the documents `read` that print table rows."""
    for path in read:
        if path in corpus.docs:
            yield from (line for line in corpus.docs[path].text.splitlines() if "|" in line)


def figure_kind(func: str, corpus: Corpus, read: Sequence[str]) -> re.Pattern[str] | None:
    """What a passage must print to state the figure instead of the table: an amount where
    the table's documents print their rows' numbers as amounts, else a number; anything
    for a count (also said in words)."""
    if func == "count":
        return None
    return FEATURES["amount"] if currency(table_lines(corpus, read)) else FEATURES["number"]
